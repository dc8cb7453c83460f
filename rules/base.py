"""The one base every game shares: turn order, skips, draws, history, undo and records.

A game subclass only says which points are legal (as a bitboard) and what a placement does.
Everything players can observe about turn flow lives here, once, so the five games cannot drift
apart on skips, game-over handling or error behaviour.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .errors import (
    N_,
    GameOver,
    IllegalMove,
    InvalidNotation,
    InvalidOptions,
    OccupiedPoint,
    RuleViolation,
    Wording,
)
from .geometry import Grid, bits_list, grid, iter_bits
from .notation import parse_point
from .record_text import PIE_OPTION, SKIP_TOKEN, format_record

__all__ = ["PIE_OPTION", "SKIP_TOKEN", "SWAP", "Effects", "Game", "MoveRecord", "pie_title"]

SWAP = "swap"

CAPITALISED = {
    "red": N_("Red"),
    "blue": N_("Blue"),
    "black": N_("Black"),
    "white": N_("White"),
}
"""A colour at the start of a sentence; the front end translates it (lower case: the
catalogs' own ``red``, ``blue``, ...)."""
GOALS = {
    "stone": N_(
        "{first} joins top and bottom, {second} joins left and right, with an unbroken "
        "orthogonal path of stones; diagonal steps do not count"
    ),
    "checker": N_(
        "{first} joins top and bottom, {second} joins left and right, with an unbroken "
        "orthogonal path of checkers; diagonal steps do not count"
    ),
}
"""The goal of a connection game, by what its pieces are called: one whole sentence each."""

PieRule = Literal["never", "option", "always"]


def pie_title(title: str) -> str:
    """A game's title with the pie rule chosen as an option: ``Minefield (pie rule)``."""
    return f"{title} (pie rule)"


@dataclass(frozen=True, slots=True)
class Effects:
    """What a placement did, as reported by a game to the base (indices, not names)."""

    flipped: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    stays: bool = True
    continues: bool = False
    won: bool = False


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """Everything one call of :meth:`Game.play` did, in player-facing terms.

    ``point`` is None for ``swap``.  ``continues`` means the same player must place again
    (Clear Path's chain reaction).  ``skipped`` names the player whose turn was skipped right
    after this move because they had no legal placement.
    """

    ply: int
    turn: int
    move: str
    player: str
    point: str | None
    continues: bool = False
    swap: bool = False
    flipped: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    stays: bool = True
    skipped: str | None = None
    winner: str | None = None
    draw: bool = False


class _Snapshot:
    """Everything :meth:`Game.pop` puts back, taken just before a move changes it.

    As python-chess's ``_BoardState``: the snapshot copies the state out of the game and
    :meth:`restore` writes it back, so the list of what is saved and what is restored is one
    list, named, in one place.  Only immutable values are kept (copies share snapshots).
    """

    __slots__ = ("extra", "legal", "over", "stones", "swapped", "turn", "turn_number", "winner")

    def __init__(self, game: Game) -> None:
        self.stones = tuple(game._stones)
        self.turn = game._turn
        self.over = game._over
        self.winner = game._winner
        self.turn_number = game._turn_number
        self.legal = game._legal
        self.swapped = game._swapped
        self.extra = game._extra_state()

    def restore(self, game: Game) -> None:
        game._stones = list(self.stones)  # snapshots are shared with copies: never alias them
        game._turn = self.turn
        game._over = self.over
        game._winner = self.winner
        game._turn_number = self.turn_number
        game._legal = self.legal
        game._swapped = self.swapped
        game._restore_extra(self.extra)


class Game(ABC):
    """A mutable game position with full history, in the spirit of python-chess's Board.

    ``play`` applies a move or raises :class:`IllegalMove` leaving everything untouched;
    ``pop`` undoes the last move.  Legal placements are cached per position.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    special_rules: ClassVar[str]
    """What sets the game apart beyond its goal, in a few sentences for players: the one text
    the bot's ``/rules`` and the console both show (see also :meth:`goal`)."""
    players: ClassVar[tuple[str, str]] = ("red", "blue")
    min_size: ClassVar[int] = 4
    max_size: ClassVar[int] = 19
    default_size: ClassVar[int] = 9
    stone_word: ClassVar[str] = "stone"
    pie_rule: ClassVar[PieRule] = "never"
    """Whether the game has the pie rule: ``"always"`` (Clear Path's rule sheet has it),
    ``"option"`` (off unless a game is started with ``pie=True``: the shipped sheets have no
    pie rule, and players may agree to add one), or ``"never"`` (Crosscut)."""
    costly_play: ClassVar[bool] = False
    """True where ``play`` may search (Naked Diagonal's area checks): usually milliseconds, but
    not bounded by a small constant.  A caller that must stay responsive, like the bot's event
    loop, plays such games on another thread (on a copy, so readers never see one half done)."""

    def __init__(self, size: int | None = None, *, pie: bool | None = None) -> None:
        """A new game on a ``size`` board (default: the game's own).

        ``pie``: play with the pie rule.  None means the rule sheet's choice (on in Clear
        Path, off elsewhere); asking for what a game cannot do raises :class:`InvalidOptions`.
        """
        self._pie = self._checked_pie(pie)
        if size is None:
            size = self.default_size
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidOptions(
                N_("board size must be a whole number, not {size}"), size=repr(size)
            )
        if not self.min_size <= size <= self.max_size:
            raise InvalidOptions(
                N_(
                    "{game} is played on boards from {low}×{low} to {high}×{high}, "
                    "not {size}×{size}"
                ),
                game=self.title,
                low=self.min_size,
                high=self.max_size,
                size=size,
            )
        self.size = size
        self.grid: Grid = grid(size)
        self._stones = [0, 0]
        self._turn: int = 0
        self._over = False
        self._winner: int | None = None
        self._turn_number = 1
        self._history: list[MoveRecord] = []
        self._undo: list[_Snapshot] = []
        self._legal: int | None = None
        self._swapped = False
        self._set_up = False
        self._reset_extra()

    @classmethod
    def _checked_pie(cls, pie: bool | None) -> bool:
        if pie is None:
            return cls.pie_rule == "always"
        if not isinstance(pie, bool):
            raise InvalidOptions(
                N_("the pie option must be true or false, not {value}"), value=repr(pie)
            )
        if pie and cls.pie_rule == "never":
            raise InvalidOptions(N_("{game} has no pie rule"), game=cls.title)
        if not pie and cls.pie_rule == "always":
            raise InvalidOptions(N_("{game} is always played with the pie rule"), game=cls.title)
        return pie

    @classmethod
    def goal(cls, size: int | None = None) -> str:
        """The aim of the game in one line (no final full stop); with ``size``, for that board.

        >>> from rules import game_class
        >>> game_class("minefield").goal()[:54]
        'Black joins top and bottom, White joins left and right'
        """
        return str(cls.goal_wording(size))

    @classmethod
    def goal_wording(cls, size: int | None = None) -> Wording:
        """:meth:`goal` as a :class:`Wording`, for a front end to translate."""
        first, second = (Wording(CAPITALISED[player]) for player in cls.players)
        template = GOALS[cls.stone_word]
        return Wording(template, {"first": first, "second": second})

    # ----- hooks for the games -------------------------------------------------------------
    def _reset_extra(self) -> None:
        """Initialise game-specific incremental state."""

    def _extra_state(self) -> tuple[Any, ...]:
        """Game-specific state to save for ``pop`` (immutable values only)."""
        return ()

    def _restore_extra(self, state: tuple[Any, ...]) -> None:
        """Restore what :meth:`_extra_state` saved."""

    @abstractmethod
    def _legal_mask(self, player: int) -> int:
        """Bitboard of points ``player`` may place on now."""

    @abstractmethod
    def _place(self, point: int, player: int) -> Effects:
        """Apply a placement known to be legal, updating all state; report what it did."""

    @abstractmethod
    def _why_illegal(self, point: int, player: int) -> Wording:
        """A player-facing reason why an empty point is not a legal placement."""

    def _edges(self, player: int) -> tuple[int, int]:
        """The two edge masks ``player`` must connect: first player rows, second columns."""
        g = self.grid
        return (g.bottom, g.top) if player == 0 else (g.left, g.right)

    def _rebuild_extra(self) -> None:
        """Recompute game-specific incremental state from ``_stones`` (after a set-up)."""

    def _special_moves(self) -> list[str]:
        """Non-placement moves available now: the pie rule's ``swap``, offered only as the
        second player's answer to the first player's first complete turn (every placement
        of it, a whole Clear Path chain included), and only once."""
        # Turn 2, the second colour to move and the last move the first colour's: the first
        # colour has ended its first turn (its chain would still be turn 1, a skip would make
        # this turn 3), and the second colour has not placed yet (its own chain stays turn 2).
        # A constant-time test: move lists ask for it at every ply.
        first_turn_done = (
            self._pie
            and self._turn_number == 2
            and self._turn == 1
            and not self._swapped
            and bool(self._history)
            and self._history[-1].player == self.players[0]
        )
        return [SWAP] if first_turn_done else []

    def _play_special(self, token: str) -> MoveRecord:
        """The swap: the players exchange colours and the stones stay where they are.  The
        player who swapped now owns the first colour's stones, and the other player, now
        playing the second colour, moves next (so the colour to move does not change)."""
        self._save()
        turn = self._turn_number
        self._swapped = True
        self._turn_number += 1
        self._legal = None
        skipped, draw = self._pass_turn(0)
        record = MoveRecord(
            ply=len(self._history),
            turn=turn,
            move=SWAP,
            player=self.players[1],
            point=None,
            swap=True,
            skipped=None if skipped is None else self.players[skipped],
            draw=draw,
        )
        self._history.append(record)
        return record

    def _compute_winning_path(self, player: int) -> tuple[int, ...]:
        low, high = self._edges(player)
        return self.grid.shortest_path(self._stones[player], low, high)

    # ----- public API ----------------------------------------------------------------------
    @classmethod
    def from_position(
        cls,
        size: int,
        stones: Mapping[str, Iterable[str]],
        to_move: str | None = None,
        *,
        pie: bool | None = None,
    ) -> Game:
        """A game set up from a diagram (for tests, analysis and the rule figures).

        It has no history, so its :meth:`record` cannot be replayed and raises instead.  With
        the pie rule, a swap is offered only after a first turn of the first colour is played
        in it, as in a game from the start.
        """
        game = cls(size, pie=pie)
        for colour, points in stones.items():
            if colour not in cls.players:
                raise InvalidOptions(
                    N_("{game} has no player '{colour}'"), game=cls.title, colour=colour
                )
            player = cls.players.index(colour)
            for text in points:
                i = parse_point(text, size)
                if (game._stones[0] | game._stones[1]) >> i & 1:
                    raise InvalidOptions(N_("{point} is listed twice"), point=game.grid.names[i])
                game._stones[player] |= 1 << i
        game._turn = cls.players.index(to_move) if to_move else 0
        game._rebuild_extra()
        game._set_up = True
        return game

    @property
    def pie(self) -> bool:
        """True if this game is played with the pie rule (see :attr:`pie_rule`)."""
        return self._pie

    @property
    def swapped(self) -> bool:
        """True once the second player has used the pie rule: the seats then keep their
        players and exchange colours."""
        return self._swapped

    @property
    def variant(self) -> str:
        """The rule set played, as one name: the game's, with ``+pie`` when the pie rule was
        chosen as an option (``minefield+pie``).  Games of different variants are different
        games to rate and to solve; Clear Path's pie rule is part of Clear Path itself."""
        optional = self._pie and self.pie_rule == "option"
        return f"{self.name}+{PIE_OPTION}" if optional else self.name

    @property
    def variant_title(self) -> str:
        """The title players see for :attr:`variant`: ``Minefield (pie rule)``."""
        return pie_title(self.title) if self.variant != self.name else self.title

    @classmethod
    def pie_rule_wording(cls) -> Wording:
        """The pie rule in one sentence for players, for a game that may have it, as a
        :class:`Wording` a front end translates (``str()`` of it is the English)."""
        first, second = (Wording(CAPITALISED[player]) for player in cls.players)
        return Wording(
            N_(
                "After {first}'s first turn, {second} may answer swap to take over {first}'s "
                "colour: the players exchange colours and the stones stay (pie rule)."
            ),
            {"first": first, "second": second},
        )

    @property
    def to_move(self) -> str | None:
        return None if self._over else self.players[self._turn]

    @property
    def winner(self) -> str | None:
        return None if self._winner is None else self.players[self._winner]

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def is_draw(self) -> bool:
        return self._over and self._winner is None

    @property
    def history(self) -> tuple[MoveRecord, ...]:
        return tuple(self._history)

    @property
    def moves(self) -> list[str]:
        """The move list as played (skips are implied, so not included)."""
        return [r.move for r in self._history]

    @property
    def last_move(self) -> MoveRecord | None:
        return self._history[-1] if self._history else None

    def last_turn(self) -> tuple[MoveRecord, ...]:
        """The records of the most recent turn: several for a Clear Path chain, else one."""
        if not self._history:
            return ()
        end = len(self._history)
        start = end - 1
        while start > 0 and self._history[start - 1].continues:
            start -= 1
        return tuple(self._history[start:end])

    @property
    def turn_number(self) -> int:
        """The number of the turn now being played (1 for the first), counting skips as turns."""
        return self._turn_number

    @property
    def winning_path(self) -> tuple[str, ...]:
        """Points of the winner's path (Crosscut: the winning run); () if nobody has won."""
        if self._winner is None:
            return ()
        names = self.grid.names
        return tuple(names[i] for i in self._compute_winning_path(self._winner))

    def at(self, point: str) -> str | None:
        i = parse_point(point, self.size)
        return self._owner(i)

    def _owner(self, i: int) -> str | None:
        if self._stones[0] >> i & 1:
            return self.players[0]
        if self._stones[1] >> i & 1:
            return self.players[1]
        return None

    def cells(self) -> list[str | None]:
        """Owner of every point in index order (see :mod:`rules.notation`)."""
        return [self._owner(i) for i in range(self.grid.area)]

    def stones(self, player: str) -> list[str]:
        names = self.grid.names
        return [names[i] for i in iter_bits(self._stones[self.players.index(player)])]

    def count(self, player: str) -> int:
        return self._stones[self.players.index(player)].bit_count()

    def legal_mask(self) -> int:
        """Legal placements for the player to move as a bitboard (0 once the game is over)."""
        if self._over:
            return 0
        if self._legal is None:
            self._legal = self._legal_mask(self._turn)
        return self._legal

    def legal_points(self) -> list[int]:
        return bits_list(self.legal_mask())

    def legal_moves(self) -> list[str]:
        names = self.grid.names
        moves = [names[i] for i in bits_list(self.legal_mask())]
        moves.extend(self.special_moves())
        return moves

    def special_moves(self) -> list[str]:
        """The legal moves that are not placements (the pie rule's ``swap``): the end of
        :meth:`legal_moves`, without naming every point before it."""
        return [] if self._over else self._special_moves()

    def illegal_points(self) -> list[str]:
        """Empty points the player to move may not use: the "mines" an overlay shows."""
        if self._over:
            return []
        empty = self.grid.full & ~(self._stones[0] | self._stones[1])
        return [self.grid.names[i] for i in iter_bits(empty & ~self.legal_mask())]

    def is_legal(self, move: str) -> bool:
        try:
            self._check(move)
        except IllegalMove:
            return False
        return True

    def explain(self, move: str) -> str | None:
        """None if ``move`` is legal now, else the reason it would be refused."""
        try:
            self._check(move)
        except IllegalMove as exc:
            return str(exc)
        return None

    def play(self, move: str) -> MoveRecord:
        """Apply ``move`` or raise :class:`IllegalMove` with the game unchanged."""
        point = self._check(move)
        if point is None:
            return self._play_special(move.strip().lower())
        return self._play_point(point)

    def play_index(self, point: int) -> MoveRecord:
        """Fast path for searches: place on a point index already known to be legal."""
        return self._play_point(point)

    def pop(self) -> MoveRecord:
        """Undo the last move (with any skip it caused) and return its record."""
        if not self._history:
            raise IndexError("no move to undo")
        record = self._history.pop()
        self._undo.pop().restore(self)
        return record

    def copy(self) -> Game:
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone._stones = list(self._stones)
        clone._history = list(self._history)
        clone._undo = list(self._undo)
        clone._copy_extra_from(self)
        return clone

    def without_swap(self) -> Game:
        """A copy with the pie rule's swap no longer on offer, and everything else the same.

        For a search weighing the swap (``ai/pie.py``): a swap leaves the position as it is,
        so what it is worth is one minus what the best placement here is worth.  The copy is
        for analysis only: its record no longer says how the game was played.
        """
        clone = self.copy()
        clone._pie = False
        return clone

    def _copy_extra_from(self, other: Game) -> None:
        """Deep-copy mutable game-specific containers after a shallow ``copy``."""

    def state_key(self) -> tuple[Any, ...]:
        """Everything that determines future play; equal keys mean identical positions."""
        return (
            self.name,
            self.size,
            tuple(self._stones),
            self._turn,
            self._over,
            self._winner,
            self._turn_number,
            self._extra_state(),
            self._pie,
            self._swapped,
        )

    def record(self) -> str:
        if self._set_up:
            raise ValueError("a game set up from a diagram has no replayable record")
        return format_record(self)

    def __repr__(self) -> str:
        if self._set_up:
            size = f"{self.size}x{self.size}"
            return f"<{type(self).__name__} {size}, set up, {self.to_move} to move>"
        return f"<{type(self).__name__} {self.record()!r}>"

    def __iter__(self) -> Iterator[MoveRecord]:
        return iter(self._history)

    # ----- internals ----------------------------------------------------------------------
    def _check(self, move: str) -> int | None:
        """Validate without changing anything; the point index, or None for a special move."""
        if not isinstance(move, str):
            raise InvalidNotation(N_("a move must be text like c3, not {value}"), value=repr(move))
        if self._over:
            raise GameOver(self._over_message(), move)
        token = move.strip().lower()
        if token in self._special_names():
            if token not in self._special_moves():
                raise self._special_refusal(token)
            return None
        point = parse_point(move, self.size)
        if (self._stones[0] | self._stones[1]) >> point & 1:
            raise OccupiedPoint(N_("{point} is occupied"), move, point=self.grid.names[point])
        if not self._placement_legal(point):
            raise RuleViolation(self._why_illegal(point, self._turn), move)
        return point

    def _placement_legal(self, point: int) -> bool:
        """Is the empty ``point`` a legal placement for the player to move?  From the whole
        mask here; a game that can decide one point alone more cheaply overrides this."""
        return bool(self.legal_mask() >> point & 1)

    def _special_names(self) -> tuple[str, ...]:
        return (SWAP,)

    def _special_refusal(self, token: str) -> IllegalMove:
        if not self._pie:
            if self.pie_rule == "never":
                return RuleViolation(
                    N_("swap is not a move: {game} has no pie rule"), token, game=self.title
                )
            return RuleViolation(
                N_("swap is not a move: this {game} game is played without the pie rule"),
                token,
                game=self.title,
            )
        first, second = (Wording(p) for p in self.players)  # colour names: in the catalogs
        return RuleViolation(
            N_("swap is only allowed as {second}'s reply to {first}'s first turn, and only once"),
            token,
            first=first,
            second=second,
        )

    def _over_message(self) -> Wording:
        if self._winner is None:
            return Wording(N_("the game is over: it ended in a draw"))
        return Wording(
            N_("the game is over: {colour} won"), {"colour": Wording(self.players[self._winner])}
        )

    def _save(self) -> None:
        self._undo.append(_Snapshot(self))

    def _play_point(self, point: int) -> MoveRecord:
        self._save()
        player = self._turn
        turn = self._turn_number
        effects = self._place(point, player)
        names = self.grid.names
        self._legal = None
        skipped: int | None = None
        draw = False
        if effects.won:
            self._over = True
            self._winner = player
        elif effects.continues:
            pass  # same player, same turn
        else:
            self._turn_number += 1
            skipped, draw = self._pass_turn(player)
        record = MoveRecord(
            ply=len(self._history),
            turn=turn,
            move=names[point],
            player=self.players[player],
            point=names[point],
            continues=effects.continues and not effects.won,
            flipped=tuple(names[i] for i in effects.flipped),
            removed=tuple(names[i] for i in effects.removed),
            stays=effects.stays,
            skipped=None if skipped is None else self.players[skipped],
            winner=self.players[player] if effects.won else None,
            draw=draw,
        )
        self._history.append(record)
        return record

    def _pass_turn(self, mover: int) -> tuple[int | None, bool]:
        """Hand the turn to the opponent, skipping them (or ending drawn) if nobody can place.

        Returns (skipped player, drawn).
        """
        opponent = 1 - mover
        self._turn = opponent
        self._legal = self._legal_mask(opponent)
        if self._legal or self._special_moves():
            return None, False
        self._turn = mover
        self._turn_number += 1
        self._legal = self._legal_mask(mover)
        if self._legal:
            return opponent, False
        self._over = True
        self._legal = 0
        return opponent, True
