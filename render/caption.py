"""Words for a position: the caption strip on the image and the alt text sent with it.

Pure text, so the strip and the screen-reader description always say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules import Game
from rules.notation import parse_point

from .fonts import JOINERS

SEP = " · "


WINNER_MARK = "★ winner"
SHORT_WINNER_MARK = "★"


@dataclass(frozen=True, slots=True)
class PlayerChip:
    colour: str
    label: str
    to_move: bool
    winner: bool
    shorter: tuple[str, ...] = ()
    """Ever shorter forms of the label, each made of whole words (names lose words at the
    end, marked "…"), for a chip too narrow for the label.  The name is never dropped: a chip
    too narrow for the shortest form cuts it with "…"."""

    @property
    def mark(self) -> str:
        """What follows the label: the winner mark for the winner, always whole."""
        return f"  {WINNER_MARK}" if self.winner else ""

    @property
    def marks(self) -> tuple[str, ...]:
        """The mark, then its short form for a chip too narrow for the name and the mark."""
        return (self.mark, f"  {SHORT_WINNER_MARK}") if self.winner else ("",)

    @property
    def text(self) -> str:
        """The chip's full text: the label, and the winner mark for the winner."""
        return self.label + self.mark

    @property
    def labels(self) -> tuple[str, ...]:
        """The label from longest to shortest form, without the mark."""
        return (self.label, *self.shorter)

    @property
    def options(self) -> tuple[str, ...]:
        """The chip's text from longest to shortest, the winner mark always whole."""
        return tuple(label + self.mark for label in self.labels)


@dataclass(frozen=True, slots=True)
class Caption:
    title: str
    players: tuple[PlayerChip, PlayerChip]
    event: str
    shorter_titles: tuple[str, ...] = ()
    shorter_events: tuple[str, ...] = ()
    """Ever shorter whole-word forms of the title and of the last-turn line (a long Clear Path
    chain keeps its last placements and says how many there were; long lists become counts).
    The image uses the first form that fits, so no word is ever cut in the middle."""

    @property
    def title_options(self) -> tuple[str, ...]:
        return (self.title, *self.shorter_titles)

    @property
    def event_options(self) -> tuple[str, ...]:
        return (self.event, *self.shorter_events)


def colour_word(colour: str) -> str:
    return colour.capitalize()


MAX_NAME = 40
# Discord accepts at most 1024 characters of alt text.
MAX_ALT_TEXT = 1000


def clean_name(name: str) -> str:
    """A display name made safe for one line: no control characters, no runs of spaces,
    at most MAX_NAME characters.  Of the invisible format characters only the joiners of emoji
    sequences stay (👨‍👩‍👧 is one emoji, not three); direction overrides and the like go."""
    printable = "".join(ch if ch.isprintable() or ord(ch) in JOINERS else " " for ch in name)
    cleaned = " ".join(printable.split())
    return cleaned if len(cleaned) <= MAX_NAME else cleaned[: MAX_NAME - 1].rstrip() + "…"


def player_label(colour: str, names: Mapping[str, str] | None) -> str:
    name = clean_name(names.get(colour, "")) if names else ""
    return f"{colour_word(colour)}: {name}" if name else colour_word(colour)


def shorter_labels(colour: str, names: Mapping[str, str] | None) -> tuple[str, ...]:
    """The label with the name losing whole words from the end, down to its first word.

    >>> shorter_labels("red", {"red": "Ada Lovelace King"})
    ('Red: Ada Lovelace…', 'Red: Ada…')
    """
    name = clean_name(names.get(colour, "")) if names else ""
    words = name.rstrip("…").split()
    word = colour_word(colour)
    return tuple(f"{word}: {' '.join(words[:n])}…" for n in range(len(words) - 1, 0, -1))


def status(game: Game) -> str:
    if game.winner is not None:
        return f"{colour_word(game.winner)} wins"
    if game.is_over:
        return "Draw"
    mover = game.to_move or game.players[0]
    return f"Turn {game.turn_number}{SEP}{colour_word(mover)} to move"


def _counted(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _points(points: Iterable[str], size: int) -> str:
    """Points in board order, column by column (a1 a2 b1), so a list reads like the board.

    >>> _points(["e3", "f3", "c3", "c10"], 11)
    'c3 c10 e3 f3'
    """
    return " ".join(sorted(points, key=lambda p: divmod(parse_point(p, size), size)[::-1]))


def describe_last_turn(game: Game, chain_limit: int | None = None, counts: bool = False) -> str:
    """What the last turn did, including what players cannot see on the board itself: a swap,
    a skip, a removed perimeter disc.

    Shorter forms for narrow images: ``chain_limit`` keeps only the last placements of a longer
    chain (with how many there were), ``counts`` gives flips and removals as numbers.
    """
    records = game.last_turn()
    if not records:
        return f"No moves yet{SEP}{colour_word(game.players[0])} moves first"
    who = colour_word(records[0].player)
    word = str(getattr(game, "stone_word", "stone"))
    parts: list[str] = []
    if records[0].swap:
        parts.append(f"{who} swapped: the players exchanged colours")
    else:
        points = [r.point for r in records if r.point is not None]
        if chain_limit is not None and len(points) > chain_limit:
            last_ones = " → ".join(points[-chain_limit:])
            parts.append(f"{who} played a chain of {len(points)}: … → {last_ones}")
        elif len(points) > 1:
            parts.append(f"{who} played a chain: {' → '.join(points)}")
        elif points:
            gone = "" if records[-1].stays else " (perimeter: removed)"
            parts.append(f"{who} played {points[0]}{gone}")
    last = records[-1]
    if last.flipped:
        flips = _counted(len(last.flipped), word) if counts else _points(last.flipped, game.size)
        parts.append(f"flipped {flips}")
    if last.removed:
        gone = _counted(len(last.removed), word) if counts else _points(last.removed, game.size)
        parts.append(f"removed {gone}")
    if last.skipped is not None:
        parts.append(f"{colour_word(last.skipped)} is skipped (no legal move)")
    if last.draw:
        parts.append("nobody can move: draw")
    return SEP.join(parts)


CHAIN_LIMITS = (12, 8, 5, 3, 2, 1)
"""How many of a long chain's last placements the shorter captions keep, in order."""


def shorter_events(game: Game) -> tuple[str, ...]:
    """:func:`describe_last_turn` shortened step by step, every form made of whole words."""
    full = describe_last_turn(game)
    forms: list[str] = []
    for counts in (False, True):
        for limit in (None, *CHAIN_LIMITS):
            text = describe_last_turn(game, limit, counts)
            if text != full and text not in forms:
                forms.append(text)
    return tuple(forms)


def shorter_titles(game: Game) -> tuple[str, ...]:
    """The title without the board size, then without the turn number too (the pie rule,
    when chosen, stays in every form: it changes what the position means)."""
    size = f" {game.size}×{game.size}"
    plain = status(game)
    brief = plain.split(SEP)[-1]
    forms = (
        f"{game.variant_title}{SEP}{plain}",
        f"{game.variant_title}{size}{SEP}{brief}",
        f"{game.variant_title}{SEP}{brief}",
    )
    full = f"{game.variant_title}{size}{SEP}{plain}"
    return tuple(dict.fromkeys(f for f in forms if f != full))


def caption_for(game: Game, names: Mapping[str, str] | None = None) -> Caption:
    title = f"{game.variant_title} {game.size}×{game.size}{SEP}{status(game)}"
    chips = tuple(
        PlayerChip(
            colour=c,
            label=player_label(c, names),
            to_move=game.to_move == c,
            winner=game.winner == c,
            shorter=shorter_labels(c, names),
        )
        for c in game.players
    )
    return Caption(
        title,
        (chips[0], chips[1]),
        describe_last_turn(game),
        shorter_titles(game),
        shorter_events(game),
    )


def _count_words(game: Game, word: str) -> str:
    counts = []
    for colour in game.players:
        n = game.count(colour)
        counts.append(f"{colour_word(colour)} has {n} {word}{'' if n == 1 else 's'}")
    return ", ".join(counts)


def alt_text(game: Game, names: Mapping[str, str] | None = None) -> str:
    """A short screen-reader description: whose turn, the last move and the piece counts."""

    def who(colour: str) -> str:
        name = clean_name(names.get(colour, "")) if names else ""
        return f"{colour_word(colour)} ({name})" if name else colour_word(colour)

    head = f"{game.variant_title}, {game.size}×{game.size} board."
    if game.winner is not None:
        now = f"{who(game.winner)} won."
    elif game.is_over:
        now = "The game ended in a draw."
    else:
        mover = game.to_move or game.players[0]
        now = f"Turn {game.turn_number}, {who(mover)} to move."
    last = describe_last_turn(game).replace(SEP, "; ") if game.history else "none yet"
    word = str(getattr(game, "stone_word", "stone"))
    text = f"{head} {now} Last move: {last}. {_count_words(game, word)}."
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"
