"""Short forced wins: how many moves the attacker needs, at most a few, against best defence.

A puzzle's solution is the shortest forced win, so the line the bot plays back is the one a
player can be expected to find: the attacker's quickest win, and at each defender turn the
defence that holds out longest (the first in move order among equals, so the line is the same
on every machine).  A plain bounded AND/OR search over the rules engine: the depth counts the
attacker's *turns*, never the defender's.  A turn is what a player counts as one move: one
placement in most games, and in Clear Path all the placements of a chain (the same player
placing again), so a budget of ``n`` moves admits ``n`` chains however long.  A budget always
counts the turn in progress: with the attacker mid-chain, ``n`` covers the rest of this turn
and ``n - 1`` more.
"""

from __future__ import annotations

from rules import Game

from ..moves import Move, legal_moves, move_name, play
from ..solver import SearchLimit, Seat, position_text, seat_of, winner_seat

MAX_WINNER_MOVES = 3
"""The longest puzzle: the winner completes the proven win in at most this many turns (a
Clear Path chain is one turn)."""


def turn_continues(game: Game, seat: Seat) -> bool:
    """After a placement by ``seat``: is it still ``seat``'s turn (a chain goes on)?"""
    return not game.is_over and game.to_move is not None and seat_of(game, game.to_move) == seat


def left_after(game: Game, seat: Seat, left: int) -> int:
    """The turns ``seat`` still has after its placement just played in ``game``, ``left``
    before it (the turn in progress included): the same while its chain goes on."""
    return left if turn_continues(game, seat) else left - 1


class LineSearch:
    """Bounded forced-win questions for one attacker seat, within a node budget."""

    def __init__(self, attacker: Seat, max_nodes: int = 200_000) -> None:
        self.attacker = attacker
        self.max_nodes = max_nodes
        self.nodes = 0
        self._memo: dict[tuple[str, int], bool] = {}

    @property
    def remembered(self) -> int:
        """How many answers the memo holds (a long-lived search may start afresh past some)."""
        return len(self._memo)

    def wins_within(self, game: Game, moves: int) -> bool:
        """Can the attacker win ``game`` by force within at most ``moves`` more turns of
        theirs (a turn in progress counted)?  ``game`` is left as it was; raises
        :class:`SearchLimit` past the node budget."""
        if game.is_over:
            return winner_seat(game) == self.attacker
        if moves <= 0 or game.to_move is None:
            return False
        key = (position_text(game), moves)
        found = self._memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchLimit(f"more than {self.max_nodes} nodes")
        attacking = seat_of(game, game.to_move) == self.attacker
        result = attacking is False
        for move in legal_moves(game):
            play(game, move)
            try:
                left = left_after(game, self.attacker, moves) if attacking else moves
                won = self.wins_within(game, left)
            finally:
                game.pop()
            if attacking and won:
                result = True
                break
            if not attacking and not won:
                result = False
                break
        self._memo[key] = result
        return result

    def moves_needed(self, game: Game, most: int = MAX_WINNER_MOVES) -> int | None:
        """The fewest attacker turns that force a win from ``game``, None if more than
        ``most`` are needed."""
        for moves in range(0 if game.is_over else 1, most + 1):
            if self.wins_within(game, moves):
                return moves
        return None

    def attacking_move(self, game: Game, moves: int) -> Move | None:
        """An attacker placement (the attacker to move) that wins within ``moves`` turns,
        quickest first; None if there is none."""
        for budget in range(1, moves + 1):
            for move in legal_moves(game):
                play(game, move)
                try:
                    if self.wins_within(game, left_after(game, self.attacker, budget)):
                        return move
                finally:
                    game.pop()
        return None

    def defence(self, game: Game, moves: int) -> Move:
        """The defender's reply (the defender to move, the attacker winning within ``moves``)
        that makes the attacker need the most turns; the first in move order among equals."""
        best: tuple[int, Move] | None = None
        for move in legal_moves(game):
            play(game, move)
            try:
                needed = self.moves_needed(game, moves)
            finally:
                game.pop()
            if needed is None:
                raise ValueError("the defender has a reply the attacker cannot beat in time")
            if best is None or needed > best[0]:
                best = (needed, move)
        assert best is not None
        return best[1]

    def line(self, game: Game, first: Move, moves: int) -> list[str]:
        """The solution from ``game`` (attacker to move) starting with ``first``: the
        attacker's quickest win and the longest defence, as move names, until the game ends.
        ``game`` is left as it was."""
        work = game.copy()
        names: list[str] = []
        move: Move | None = first
        left = moves  # the attacker's turns still allowed, the one in progress included
        while move is not None and work.to_move is not None:
            attacker_moving = seat_of(work, work.to_move) == self.attacker
            names.append(move_name(work, move))
            play(work, move)
            if attacker_moving:
                left = left_after(work, self.attacker, left)
            if work.is_over or work.to_move is None:
                break
            if seat_of(work, work.to_move) == self.attacker:
                move = self.attacking_move(work, left)
                if move is None:
                    raise ValueError("the line lost its forced win")
            else:
                move = self.defence(work, left)
        if winner_seat(work) != self.attacker:
            raise ValueError("the line does not end in the attacker's win")
        return names
