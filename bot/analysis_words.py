"""An analysis in words, in the reader's language: each player's accuracy and marks, and the
costliest moves with the better move.  One set of sentences for every front end (the
Discord answer and its chart's alt text, and ``crosspath analyse`` in a terminal), so a
translator translates them once."""

from __future__ import annotations

from collections.abc import Sequence

from ai.analysis import Analysis, PlyAnalysis, worst
from bot.i18n import N_, Tongue

MARK_NAMES = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
    "missed_win": N_("missed win"),
}


def player_lines(analysis: Analysis, names: Sequence[str], tr: Tongue) -> list[str]:
    """One line per player, in seat order: accuracy and the count of each mark."""
    return [
        tr.gettext(
            "{name}: accuracy {accuracy}%, {blunders} blunders, {mistakes} mistakes,"
            " {inaccuracies} inaccuracies, {missed} missed wins",
            name=name,
            accuracy=tr.number(round(seat.accuracy)),
            blunders=tr.number(seat.blunder),
            mistakes=tr.number(seat.mistake),
            inaccuracies=tr.number(seat.inaccuracy),
            missed=tr.number(seat.missed_win),
        )
        for seat, name in zip(analysis.players, names, strict=False)
    ]


def costliest_lines(analysis: Analysis, names: Sequence[str], tr: Tongue) -> list[str]:
    """The heading and the three costliest moves, or the sentence for a clean game."""
    bad = worst(analysis)
    if not bad:
        return [tr.gettext("No move lost much: a clean game.")]
    return [tr.gettext("The costliest moves:")] + [
        worst_line(ply, names, analysis, tr) for ply in bad
    ]


def worst_line(ply: PlyAnalysis, names: Sequence[str], analysis: Analysis, tr: Tongue) -> str:
    seats = [p.seat for p in analysis.players]
    name = names[seats.index(ply.seat)] if ply.seat in seats and len(names) == len(seats) else ""
    mark = tr.gettext(MARK_NAMES[ply.mark]) if ply.mark else ""
    return tr.gettext(
        "• move {ply}, {name} played {move} ({mark}: win chance {before}% → {after}%);"
        " better was {best}",
        ply=tr.number(ply.ply),
        name=name,
        move=ply.move,
        mark=mark,
        before=tr.number(round(ply.win_chance_before * 100)),
        after=tr.number(round(ply.win_chance_after * 100)),
        best=ply.best,
    )
