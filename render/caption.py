"""Words for a position: the caption strip on the image and the alt text sent with it.

Pure text, so the strip and the screen-reader description always say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import Game

SEP = " · "


@dataclass(frozen=True, slots=True)
class PlayerChip:
    colour: str
    label: str
    to_move: bool
    winner: bool


@dataclass(frozen=True, slots=True)
class Caption:
    title: str
    players: tuple[PlayerChip, PlayerChip]
    event: str


def colour_word(colour: str) -> str:
    return colour.capitalize()


MAX_NAME = 40
# Discord accepts at most 1024 characters of alt text.
MAX_ALT_TEXT = 1000


def clean_name(name: str) -> str:
    """A display name made safe for one line: no control characters, no runs of spaces,
    at most MAX_NAME characters."""
    printable = "".join(ch if ch.isprintable() else " " for ch in name)
    cleaned = " ".join(printable.split())
    return cleaned if len(cleaned) <= MAX_NAME else cleaned[: MAX_NAME - 1].rstrip() + "…"


def player_label(colour: str, names: Mapping[str, str] | None) -> str:
    name = clean_name(names.get(colour, "")) if names else ""
    return f"{colour_word(colour)}: {name}" if name else colour_word(colour)


def status(game: Game) -> str:
    if game.winner is not None:
        return f"{colour_word(game.winner)} wins"
    if game.is_over:
        return "Draw"
    mover = game.to_move or game.players[0]
    return f"Turn {game.turn_number}{SEP}{colour_word(mover)} to move"


def describe_last_turn(game: Game) -> str:
    """What the last turn did, including what players cannot see on the board itself: a swap,
    a skip, a removed perimeter disc."""
    records = game.last_turn()
    if not records:
        return f"No moves yet{SEP}{colour_word(game.players[0])} moves first"
    who = colour_word(records[0].player)
    parts: list[str] = []
    if records[0].swap:
        parts.append(f"{who} swapped: the players exchanged colours")
    else:
        points = [r.point for r in records if r.point is not None]
        if len(points) > 1:
            parts.append(f"{who} played a chain: {' → '.join(points)}")
        elif points:
            gone = "" if records[-1].stays else " (perimeter: removed)"
            parts.append(f"{who} played {points[0]}{gone}")
    last = records[-1]
    if last.flipped:
        parts.append(f"flipped {' '.join(last.flipped)}")
    if last.removed:
        parts.append(f"removed {' '.join(last.removed)}")
    if last.skipped is not None:
        parts.append(f"{colour_word(last.skipped)} is skipped (no legal move)")
    if last.draw:
        parts.append("nobody can move: draw")
    return SEP.join(parts)


def caption_for(game: Game, names: Mapping[str, str] | None = None) -> Caption:
    title = f"{game.title} {game.size}×{game.size}{SEP}{status(game)}"
    chips = tuple(
        PlayerChip(
            colour=c,
            label=player_label(c, names),
            to_move=game.to_move == c,
            winner=game.winner == c,
        )
        for c in game.players
    )
    return Caption(title, (chips[0], chips[1]), describe_last_turn(game))


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

    head = f"{game.title}, {game.size}×{game.size} board."
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
