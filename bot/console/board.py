"""What the console prints: the text board and its legend, the moves as sentences, and the
goal, special rules and commands of the game (the rules engine's own words)."""

from __future__ import annotations

from rules import Game, game_class

from ..colour_words import colour_word
from ..i18n import ENGLISH_TONGUE, Tongue
from ..service import MoveEvent


def goal_line(game: str, size: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The game's aim in one line, as the rules engine states it for this board, in ``tr``'s
    language.

    >>> goal_line("crosscut", 8)
    'Goal: a straight run of 6 of your discs in one row or column (N−2 on this 8×8 board).'
    """
    return tr.gettext("Goal: {goal}.", goal=tr.say(game_class(game).goal_wording(size)))


def commands_line(
    game: str,
    vs_computer: bool = False,
    pie: bool = False,
    hints: bool = False,
    tr: Tongue = ENGLISH_TONGUE,
) -> str:
    """What can be typed; ``swap`` only where the pie rule exists (always in Clear Path; in
    Minefield, Clearcut and Naked Diagonal when ``pie`` was chosen); ``hint`` only in a game
    that allows hints (against the computer, or started with ``--hints``).  The commands
    stay English in every language (they are what is typed); what they do is translated."""
    has_pie = pie or game_class(game).pie_rule == "always"
    typed = [tr.gettext("swap (second player's first turn)")] if has_pie else []
    typed.append(
        tr.gettext("undo (take back your last turn and the computer's reply)")
        if vs_computer
        else tr.gettext("undo (take back the last turn)")
    )
    if hints:
        typed.append(tr.gettext("hint (the computer's suggested move)"))
    typed += ["resign", tr.gettext("moves (list legal moves)"), "rules", "quit"]
    return tr.gettext("Type a point such as c3, or: {commands}.", commands=", ".join(typed))


def rules_lines(
    game: str,
    size: int,
    vs_computer: bool = False,
    pie: bool = False,
    hints: bool = False,
    tr: Tongue = ENGLISH_TONGUE,
) -> list[str]:
    """The ``rules``/``help`` answer: goal, special moves (the pie rule when it was chosen
    for this game), commands.  The goal, special rules and pie rule are the engine's texts in
    ``tr``'s language; the commands stay English (they are what is typed)."""
    cls = game_class(game)
    pie_rule = tr.say(cls.pie_rule_wording())
    chosen = [tr.gettext("Pie rule (chosen for this game): {rule}", rule=pie_rule)] if pie else []
    return [
        goal_line(game, size, tr),
        tr.gettext("Special rules: {rules}", rules=tr.gettext(cls.special_rules)),
        *chosen,
        commands_line(game, vs_computer, pie, hints, tr),
    ]


def _legend(game: Game, marks: set[str], mover: str | None, winner: str | None, tr: Tongue) -> str:
    first, second = (colour_word(c, tr) for c in game.players)
    if game.name == "crosscut":
        parts = [
            tr.gettext(
                "X = {first}, O = {second}: a run of {n} in a row or column wins",
                first=first,
                second=second,
                n=game.size - 2,
            )
        ]
    else:
        parts = [
            tr.gettext(
                "X = {first} (joins top and bottom), O = {second} (joins left and right)",
                first=first,
                second=second,
            )
        ]
    won = colour_word(winner or "", tr)
    explained = {
        "+": tr.gettext("+ = illegal for the player to move"),
        "#": tr.gettext("# = {colour}'s winning run", colour=won)
        if game.name == "crosscut"
        else tr.gettext("# = {colour}'s winning path", colour=won),
        "x": tr.gettext("lower case = placed last turn"),
        "*": tr.gettext("* = flipped to {colour} last turn", colour=colour_word(mover or "", tr)),
        "-": tr.gettext("- = removed last turn"),
    }
    parts += [text for mark, text in explained.items() if mark in marks]
    return ", ".join(parts)


def text_board(game: Game, show_illegal: bool = True, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The position as text, its legend in ``tr``'s language.

    X is the first colour and O the second; ``+`` marks points illegal for the player to move,
    ``#`` the winner's path (Crosscut: the winning run), lower case the last turn's
    placements, ``*`` the discs that turn flipped and ``-`` the points it emptied.
    """
    size = game.size
    cells = game.cells()
    first = game.players[0]
    illegal = set(game.illegal_points()) if show_illegal else set()
    names = game.grid.names
    turn = game.last_turn()
    placed = {r.point for r in turn if r.point is not None and r.stays}
    flipped = {p for r in turn for p in r.flipped}
    removed = {p for r in turn for p in r.removed} | {
        r.point for r in turn if r.point is not None and not r.stays
    }
    path = set(game.winning_path)
    mover = turn[-1].player if turn else None
    used: set[str] = set()
    width = len(str(size))
    letters = " ".join(names[c][0] for c in range(size))
    lines = [" " * (width + 1) + letters]
    for row in range(size - 1, -1, -1):
        marks = []
        for col in range(size):
            index = row * size + col
            name = names[index]
            owner = cells[index]
            if owner is None:
                mark = "-" if name in removed else "+" if name in illegal else "."
            elif name in path:
                mark = "#"
            elif name in placed:
                mark = ("X" if owner == first else "O").lower()
                used.add("x")
            elif name in flipped:
                mark = "*"
            else:
                mark = "X" if owner == first else "O"
            used.add(mark)
            marks.append(mark)
        lines.append(f"{row + 1:>{width}} " + " ".join(marks) + f" {row + 1}")
    lines.append(lines[0])
    lines.append(_legend(game, used, mover, game.winner, tr))
    return "\n".join(lines)


def describe_event(event: MoveEvent, tr: Tongue = ENGLISH_TONGUE) -> list[str]:
    colour = colour_word(event.colour, tr)
    if event.swap:
        lines = [
            tr.gettext("{colour} swaps (pie rule): the players exchange colours", colour=colour)
        ]
    else:
        lines = [tr.gettext("{colour} plays {move}", colour=colour, move=event.move)]
    if event.flipped:
        lines.append("  " + tr.gettext("flipped: {points}", points=" ".join(event.flipped)))
    if event.removed:
        lines.append("  " + tr.gettext("removed: {points}", points=" ".join(event.removed)))
    if not event.stays:
        lines.append("  " + tr.gettext("the stone is removed (perimeter)"))
    if event.continues:
        lines.append("  " + tr.gettext("{colour} places again (chain reaction)", colour=colour))
    if event.skipped_colour is not None:
        skipped = colour_word(event.skipped_colour, tr)
        lines.append("  " + tr.gettext("{colour} has no legal move: turn skipped", colour=skipped))
    return lines
