"""What a puzzle's outcome says, in the reader's language: one set of sentences for every
front end (the Discord adapter's private answers and ``crosspath puzzle`` in a terminal), so
a player reads the same words in both and a translator translates them once."""

from __future__ import annotations

from bot.colour_words import colour_word
from bot.i18n import Tongue
from bot.service import PuzzleAnswer, PuzzleView
from rules import new_game


def task_line(view: PuzzleView, tr: Tongue) -> str:
    """What the puzzle asks: its number, game, board and rating, and who is to win."""
    return tr.gettext(
        "Puzzle {id} ({game} {size}×{size}, rated {rating}): {colour} to move and win.",
        id=view.puzzle_id,
        game=new_game(view.game, view.size).title,
        size=view.size,
        rating=tr.number(view.rating),
        colour=colour_word(view.to_move, tr),
    )


def verdict_line(answer: PuzzleAnswer, tr: Tongue) -> str:
    """The first line: given up, refuted (with the reply that wins, when the solver named
    one), solved, right with the defence played, or right mid-chain (place again)."""
    if answer.move is None:
        return tr.gettext("You gave up.")
    if not answer.correct:
        if answer.reply is None:
            return tr.gettext("Not this one: {move} does not win.", move=answer.move)
        if answer.connects:
            return tr.gettext(
                "Not this one: after {move}, {reply} connects.",
                move=answer.move,
                reply=answer.reply,
            )
        return tr.gettext(
            "Not this one: after {move}, {reply} wins by force.",
            move=answer.move,
            reply=answer.reply,
        )
    if answer.solved:
        return tr.gettext("Solved! {move} wins.", move=answer.move)
    if answer.defence is None:  # a Clear Path chain: the same turn goes on
        return tr.gettext("Right: {move}. Chain reaction: place again.", move=answer.move)
    return tr.gettext(
        "Right: {move}. The defence plays {defence}; your move again.",
        move=answer.move,
        defence=answer.defence,
    )


def outcome_text(answer: PuzzleAnswer, tr: Tongue) -> str:
    """The whole answer: the verdict, then (once the puzzle is over) the solution if it was
    missed, and the player's puzzle rating and streak."""
    lines = [verdict_line(answer, tr)]
    if answer.correct and not answer.solved:
        return lines[0]
    if answer.solution and not answer.solved:
        lines.append(tr.gettext("The solution: {moves}", moves=" ".join(answer.solution)))
    if answer.rating is not None:
        lines.append(
            tr.gettext(
                "Your puzzle rating: {rating}; streak: {streak}.",
                rating=tr.number(answer.rating),
                streak=tr.number(answer.streak),
            )
        )
    return "\n".join(lines)
