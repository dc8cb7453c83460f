"""Words for a position: the caption strip on the image and the alt text sent with it.

Pure text, so the strip and the screen-reader description always say the same thing.

The words are English unless the caller passes a :class:`Speaker`: anything with ``gettext``
and ``ngettext`` that fills named ``{placeholders}`` (the bot's ``Tongue`` is one).  render/
never imports the bot, so the caller chooses the language; the messages here are extracted for
the bot's catalogs (babel.cfg) like the bot's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from rules import Game
from rules.base import CAPITALISED
from rules.notation import parse_point

from .fonts import JOINERS

SEP = " · "


class Speaker(Protocol):
    """A language: a message's translation with its ``{placeholders}`` filled."""

    def gettext(self, message: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...


class English:
    """The source language: the messages as written."""

    def gettext(self, message: str, /, **params: object) -> str:
        return message.format(**params) if params else message

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)


ENGLISH = English()

SHORT_WINNER_MARK = "★"


def winner_mark(tr: Speaker = ENGLISH) -> str:
    return "★ " + tr.gettext("winner")


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
    winner_mark: str = "★ winner"
    """The winner mark in the caption's language."""

    @property
    def mark(self) -> str:
        """What follows the label: the winner mark for the winner, always whole."""
        return f"  {self.winner_mark}" if self.winner else ""

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


def colour_word(colour: str, tr: Speaker = ENGLISH) -> str:
    """A colour as a caption names it (capitalised in English)."""
    return tr.gettext(CAPITALISED[colour]) if colour in CAPITALISED else colour.capitalize()


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


def player_label(colour: str, names: Mapping[str, str] | None, tr: Speaker = ENGLISH) -> str:
    name = clean_name(names.get(colour, "")) if names else ""
    word = colour_word(colour, tr)
    return tr.gettext("{colour}: {name}", colour=word, name=name) if name else word


def shorter_labels(
    colour: str, names: Mapping[str, str] | None, tr: Speaker = ENGLISH
) -> tuple[str, ...]:
    """The label with the name losing whole words from the end, down to its first word.

    >>> shorter_labels("red", {"red": "Ada Lovelace King"})
    ('Red: Ada Lovelace…', 'Red: Ada…')
    """
    name = clean_name(names.get(colour, "")) if names else ""
    words = name.rstrip("…").split()
    word = colour_word(colour, tr)
    return tuple(
        tr.gettext("{colour}: {name}", colour=word, name=" ".join(words[:n]) + "…")
        for n in range(len(words) - 1, 0, -1)
    )


def status(game: Game, tr: Speaker = ENGLISH) -> str:
    if game.winner is not None:
        return tr.gettext("{colour} wins", colour=colour_word(game.winner, tr))
    if game.is_over:
        return tr.gettext("Draw")
    mover = colour_word(game.to_move or game.players[0], tr)
    turn = tr.gettext("Turn {n}", n=game.turn_number)
    return f"{turn}{SEP}" + tr.gettext("{colour} to move", colour=mover)


def _counted(n: int, word: str, tr: Speaker = ENGLISH) -> str:
    """``3 stones``: one whole message per piece word, so each language has its plurals."""
    if word == "disc":
        return tr.ngettext("{n} disc", "{n} discs", n)
    if word == "checker":
        return tr.ngettext("{n} checker", "{n} checkers", n)
    return tr.ngettext("{n} stone", "{n} stones", n)


def _points(points: Iterable[str], size: int) -> str:
    """Points in board order, column by column (a1 a2 b1), so a list reads like the board.

    >>> _points(["e3", "f3", "c3", "c10"], 11)
    'c3 c10 e3 f3'
    """
    return " ".join(sorted(points, key=lambda p: divmod(parse_point(p, size), size)[::-1]))


def describe_last_turn(
    game: Game, chain_limit: int | None = None, counts: bool = False, tr: Speaker = ENGLISH
) -> str:
    """What the last turn did, including what players cannot see on the board itself: a swap,
    a skip, a removed perimeter disc.

    Shorter forms for narrow images: ``chain_limit`` keeps only the last placements of a longer
    chain (with how many there were), ``counts`` gives flips and removals as numbers.
    """
    records = game.last_turn()
    if not records:
        first = tr.gettext("{colour} moves first", colour=colour_word(game.players[0], tr))
        return tr.gettext("No moves yet") + SEP + first
    who = colour_word(records[0].player, tr)
    word = str(getattr(game, "stone_word", "stone"))
    parts: list[str] = []
    if records[0].swap:
        parts.append(tr.gettext("{colour} swapped: the players exchanged colours", colour=who))
    else:
        points = [r.point for r in records if r.point is not None]
        if chain_limit is not None and len(points) > chain_limit:
            last_ones = " → ".join(points[-chain_limit:])
            parts.append(
                tr.gettext(
                    "{colour} played a chain of {n}: … → {points}",
                    colour=who,
                    n=len(points),
                    points=last_ones,
                )
            )
        elif len(points) > 1:
            parts.append(
                tr.gettext(
                    "{colour} played a chain: {points}", colour=who, points=" → ".join(points)
                )
            )
        elif points and records[-1].stays:
            parts.append(tr.gettext("{colour} played {point}", colour=who, point=points[0]))
        elif points:
            parts.append(
                tr.gettext(
                    "{colour} played {point} (perimeter: removed)", colour=who, point=points[0]
                )
            )
    last = records[-1]
    if last.flipped:
        flips = (
            _counted(len(last.flipped), word, tr) if counts else _points(last.flipped, game.size)
        )
        parts.append(tr.gettext("flipped {pieces}", pieces=flips))
    if last.removed:
        gone = _counted(len(last.removed), word, tr) if counts else _points(last.removed, game.size)
        parts.append(tr.gettext("removed {pieces}", pieces=gone))
    if last.skipped is not None:
        skipped = colour_word(last.skipped, tr)
        parts.append(tr.gettext("{colour} is skipped (no legal move)", colour=skipped))
    if last.draw:
        parts.append(tr.gettext("nobody can move: draw"))
    return SEP.join(parts)


CHAIN_LIMITS = (12, 8, 5, 3, 2, 1)
"""How many of a long chain's last placements the shorter captions keep, in order."""


def shorter_events(game: Game, tr: Speaker = ENGLISH) -> tuple[str, ...]:
    """:func:`describe_last_turn` shortened step by step, every form made of whole words."""
    full = describe_last_turn(game, tr=tr)
    forms: list[str] = []
    for counts in (False, True):
        for limit in (None, *CHAIN_LIMITS):
            text = describe_last_turn(game, limit, counts, tr)
            if text != full and text not in forms:
                forms.append(text)
    return tuple(forms)


def shorter_titles(game: Game, tr: Speaker = ENGLISH) -> tuple[str, ...]:
    """The title without the board size, then without the turn number too (the pie rule,
    when chosen, stays in every form: it changes what the position means)."""
    size = f" {game.size}×{game.size}"
    plain = status(game, tr)
    brief = plain.split(SEP)[-1]
    forms = (
        f"{game.variant_title}{SEP}{plain}",
        f"{game.variant_title}{size}{SEP}{brief}",
        f"{game.variant_title}{SEP}{brief}",
    )
    full = f"{game.variant_title}{size}{SEP}{plain}"
    return tuple(dict.fromkeys(f for f in forms if f != full))


def caption_for(
    game: Game, names: Mapping[str, str] | None = None, tr: Speaker = ENGLISH
) -> Caption:
    title = f"{game.variant_title} {game.size}×{game.size}{SEP}{status(game, tr)}"
    chips = tuple(
        PlayerChip(
            colour=c,
            label=player_label(c, names, tr),
            to_move=game.to_move == c,
            winner=game.winner == c,
            shorter=shorter_labels(c, names, tr),
            winner_mark=winner_mark(tr),
        )
        for c in game.players
    )
    return Caption(
        title,
        (chips[0], chips[1]),
        describe_last_turn(game, tr=tr),
        shorter_titles(game, tr),
        shorter_events(game, tr),
    )


def _count_words(game: Game, word: str, tr: Speaker = ENGLISH) -> str:
    counts = []
    for colour in game.players:
        pieces = _counted(game.count(colour), word, tr)
        counts.append(
            tr.gettext("{colour} has {pieces}", colour=colour_word(colour, tr), pieces=pieces)
        )
    return tr.gettext("{first}, {second}", first=counts[0], second=counts[1])


def alt_text(game: Game, names: Mapping[str, str] | None = None, tr: Speaker = ENGLISH) -> str:
    """A short screen-reader description: whose turn, the last move and the piece counts."""

    def who(colour: str) -> str:
        name = clean_name(names.get(colour, "")) if names else ""
        word = colour_word(colour, tr)
        return tr.gettext("{colour} ({name})", colour=word, name=name) if name else word

    head = tr.gettext("{game}, {size}×{size} board.", game=game.variant_title, size=game.size)
    if game.winner is not None:
        now = tr.gettext("{player} won.", player=who(game.winner))
    elif game.is_over:
        now = tr.gettext("The game ended in a draw.")
    else:
        mover = game.to_move or game.players[0]
        now = tr.gettext("Turn {n}, {player} to move.", n=game.turn_number, player=who(mover))
    if game.history:
        last = describe_last_turn(game, tr=tr).replace(SEP, "; ")
        move = tr.gettext("Last move: {last}.", last=last)
    else:
        move = tr.gettext("Last move: none yet.")
    word = str(getattr(game, "stone_word", "stone"))
    counts = _count_words(game, word, tr)
    # one message for the whole, so a language without spaces between sentences joins them
    text = tr.gettext(
        "{board} {now} {last} {counts}.", board=head, now=now, last=move, counts=counts
    )
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"
