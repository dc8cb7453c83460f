"""The game page's changing words (result, whose move, the clock, "Move n of m") in the page's
language, written the same way by the server and by ``game.js``.

A running game's page follows it over Server-Sent Events, and one event goes to every
watcher whatever their language, so the event carries no sentence: only names, colours,
the reason a game ended and the deadline (:func:`bot.web.pages.game_state`).  The page holds
its language's templates as a JSON blob (:func:`page_words`, read by ``game.js``), and the
server fills the same templates for the first drawing (:func:`state_words`), so a page reads
the same before and after its first event.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, Tongue
from rules.base import CAPITALISED

RESULTS = {
    "connection": N_("{winner} ({colour}) won by connection."),
    "draw": N_("Drawn."),
    "resign": N_("{loser} resigned; {winner} won."),
    "time": N_("{loser} ran out of time; {winner} won."),
    "abort": N_("Aborted by a moderator."),
    "award": N_("Awarded to {winner} by a moderator."),
    "forfeit": N_("{loser} forfeited; {winner} won."),
}
"""How a game ended, one sentence per reason (the service's ``ResultReason``)."""
OVER = N_("Over.")
TO_MOVE = N_("{name} ({colour}) to move")
TURN_ENDS = N_("{clock}; this turn ends {when}")
WHERE = N_("Move {n} of {total}")
BOARD_AFTER = N_("The board after move {n}")
BETTER = N_("Better than move {n}: {best}")
BETTER_BOARD = N_("The board with {best} played instead of move {n}")
COLOUR_PLAYER = N_("{colour} player")
A_PLAYER = N_("A player")
IN_PROGRESS = N_("in progress")


def colour_word(colour: str | None, tr: Tongue) -> str:
    """A colour as a page shows it, capitalised (``Red``, ``Schwarz``)."""
    if not colour:
        return ""
    return tr.gettext(CAPITALISED[colour]) if colour in CAPITALISED else colour.capitalize()


def player_word(name: str | None, colour: str | None, tr: Tongue) -> str:
    """A player's stored name, or the colour's player when the game has none."""
    if name:
        return name
    return (
        tr.gettext(COLOUR_PLAYER, colour=colour_word(colour, tr))
        if colour
        else tr.gettext(A_PLAYER)
    )


def page_words(tr: Tongue, clock: str) -> dict[str, Any]:
    """The templates ``game.js`` fills, in ``tr``'s language; ``clock`` is the game's clock
    described (it never changes during a game)."""
    return {
        "results": {reason: tr.gettext(text) for reason, text in RESULTS.items()},
        "over": tr.gettext(OVER),
        "to_move": tr.gettext(TO_MOVE),
        "turn_ends": tr.gettext(TURN_ENDS),
        "where": tr.gettext(WHERE),
        "board_after": tr.gettext(BOARD_AFTER),
        "better": tr.gettext(BETTER),
        "better_board": tr.gettext(BETTER_BOARD),
        "colour_player": tr.gettext(COLOUR_PLAYER),
        "a_player": tr.gettext(A_PLAYER),
        "colours": {colour: tr.gettext(word) for colour, word in CAPITALISED.items()},
        "clock": clock,
    }


def result_words(result: dict[str, Any] | None, tr: Tongue) -> str:
    """A :func:`~bot.web.pages.game_state` result in words (empty while the game runs)."""
    if result is None:
        return ""
    template = RESULTS.get(result["reason"], OVER)
    return tr.gettext(
        template,
        winner=player_word(result["winner"], result["winner_colour"], tr),
        loser=player_word(result["loser"], result["loser_colour"], tr),
        colour=colour_word(result["winner_colour"], tr),
    )


def state_words(state: dict[str, Any], tr: Tongue, clock: str) -> dict[str, str]:
    """What the page first shows of ``state``, as ``game.js``'s ``update`` writes it."""
    mover = state["to_move"]
    to_move = (
        tr.gettext(
            TO_MOVE,
            name=player_word(mover["name"], mover["colour"], tr),
            colour=colour_word(mover["colour"], tr),
        )
        if mover
        else ""
    )
    ends = state["deadline"]
    return {
        "result": result_words(state["result"], tr),
        "to_move": to_move,
        "clock": tr.gettext(TURN_ENDS, clock=clock, when=ends) if ends else clock,
    }
