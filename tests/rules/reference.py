"""A deliberately simple, literal reading of the rules, for cross-checking the engine.

No bitboards, no incremental state, no cleverness: dict boards, whole-board scans and, for
Clear Path's chain rule, a plain recursive search over continuations.  It is slow and only
meant for small boards.  It shares nothing with ``rules/`` except point naming.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

Board = dict[tuple[int, int], int]  # (col, row) -> player 0/1; empty points absent

ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
NAMES = "abcdefghijklmnopqrs"


def name(p: tuple[int, int]) -> str:
    return f"{NAMES[p[0]]}{p[1] + 1}"


def points(n: int) -> list[tuple[int, int]]:
    return [(c, r) for r in range(n) for c in range(n)]


def on(n: int, c: int, r: int) -> bool:
    return 0 <= c < n and 0 <= r < n


def connected(board: Board, n: int, player: int, diagonal: bool = False) -> bool:
    """Player 0 joins rows 0 and n-1; player 1 joins columns 0 and n-1."""
    steps = ORTH + DIAG if diagonal else ORTH
    start = [p for p, v in board.items() if v == player and (p[1] if player == 0 else p[0]) == 0]
    seen = set(start)
    queue = deque(start)
    while queue:
        c, r = queue.popleft()
        if (r if player == 0 else c) == n - 1:
            return True
        for dx, dy in steps:
            q = (c + dx, r + dy)
            if q not in seen and board.get(q) == player:
                seen.add(q)
                queue.append(q)
    return False


# ----- Minefield ---------------------------------------------------------------------------
def minefield_glyphs(board: Board, n: int) -> list[str]:
    found = []
    for c in range(n - 1):
        for r in range(n - 1):
            a, b, d, e = (board.get(p) for p in ((c, r), (c + 1, r + 1), (c + 1, r), (c, r + 1)))
            for pair, other in (((a, b), (d, e)), ((d, e), (a, b))):
                if pair[0] is not None and pair[0] == pair[1]:
                    vals = sorted(other, key=lambda v: -1 if v is None else v)
                    if vals[0] is None and vals[1] is not None and vals[1] != pair[0]:
                        found.append("hard corner")
    for w, h in ((3, 2), (2, 3), (4, 2), (2, 4)):
        for c in range(n - w + 1):
            for r in range(n - h + 1):
                corners = [(c, r), (c + w - 1, r + h - 1), (c + w - 1, r), (c, r + h - 1)]
                v = [board.get(p) for p in corners]
                inner = [
                    (x, y)
                    for x in range(c, c + w)
                    for y in range(r, r + h)
                    if (x, y) not in corners
                ]
                if (
                    None not in v
                    and v[0] == v[1]
                    and v[2] == v[3]
                    and v[0] != v[2]
                    and all(p not in board for p in inner)
                ):
                    found.append("switch")
    return found


def minefield_legal(board: Board, n: int, player: int) -> set[tuple[int, int]]:
    legal = set()
    for p in points(n):
        if p in board:
            continue
        after = dict(board)
        after[p] = player
        if not minefield_glyphs(after, n):
            legal.add(p)
    return legal


# ----- Crosscut ----------------------------------------------------------------------------
def crosscut_perimeter(n: int, p: tuple[int, int]) -> bool:
    return p[0] in (0, n - 1) or p[1] in (0, n - 1)


def run_through(board: Board, n: int, p: tuple[int, int], player: int) -> int:
    best = 0
    for dx, dy in ((1, 0), (0, 1)):
        length = 1
        for s in (1, -1):
            c, r = p[0] + s * dx, p[1] + s * dy
            while on(n, c, r) and board.get((c, r)) == player:
                length += 1
                c, r = c + s * dx, r + s * dy
        best = max(best, length)
    return best


def crosscut_flips(board: Board, n: int, p: tuple[int, int], player: int) -> list:
    flanked = []
    for dx, dy in ORTH:
        seg = []
        c, r = p[0] + dx, p[1] + dy
        while on(n, c, r) and board.get((c, r)) == 1 - player:
            seg.append((c, r))
            c, r = c + dx, r + dy
        if seg and on(n, c, r) and board.get((c, r)) == player:
            flanked += seg
    if not flanked:
        return []
    after = dict(board)
    for q in flanked:
        after[q] = player
    measured = list(flanked)
    if crosscut_perimeter(n, p):
        after.pop(p, None)
    else:
        after[p] = player
        measured.append(p)
    created = max(run_through(after, n, q, player) for q in measured)
    cut = max(run_through(board, n, q, 1 - player) for q in flanked)
    return flanked if created > cut else []


def crosscut_legal(board: Board, n: int, player: int) -> set[tuple[int, int]]:
    return {
        p
        for p in points(n)
        if p not in board and (not crosscut_perimeter(n, p) or crosscut_flips(board, n, p, player))
    }


def crosscut_play(board: Board, n: int, p: tuple[int, int], player: int) -> bool:
    flips = crosscut_flips(board, n, p, player)
    for q in flips:
        board[q] = player
    if not crosscut_perimeter(n, p):
        board[p] = player
    return any(run_through(board, n, q, player) >= n - 2 for q, v in board.items() if v == player)


# ----- Clearcut ----------------------------------------------------------------------------
def group(board: Board, p: tuple[int, int]) -> set[tuple[int, int]]:
    colour = board[p]
    seen = {p}
    stack = [p]
    while stack:
        c, r = stack.pop()
        for dx, dy in ORTH:
            q = (c + dx, r + dy)
            if q not in seen and board.get(q) == colour:
                seen.add(q)
                stack.append(q)
    return seen


def clearcut_crosscuts(board: Board, p: tuple[int, int], player: int) -> list:
    out = []
    for dx, dy in DIAG:
        q, r, s = (p[0] + dx, p[1] + dy), (p[0] + dx, p[1]), (p[0], p[1] + dy)
        if board.get(q) == player and board.get(r) == 1 - player and board.get(s) == 1 - player:
            out.append((r, s))
    return out


def clearcut_ok(board: Board, p: tuple[int, int], player: int) -> bool:
    after = dict(board)
    after[p] = player
    size = len(group(after, p))
    return all(
        size > len(group(board, r)) and size > len(group(board, s))
        for r, s in clearcut_crosscuts(board, p, player)
    )


def clearcut_legal(board: Board, n: int, player: int) -> set[tuple[int, int]]:
    return {p for p in points(n) if p not in board and clearcut_ok(board, p, player)}


def clearcut_play(board: Board, n: int, p: tuple[int, int], player: int) -> bool:
    victims = {v for pair in clearcut_crosscuts(board, p, player) for v in pair}
    board[p] = player
    for v in victims:
        del board[v]
    return connected(board, n, player)


# ----- Clear Path --------------------------------------------------------------------------
def surrounded(board: Board, n: int, p: tuple[int, int]) -> bool:
    blocked = sum(
        1 for dx, dy in ORTH if not on(n, p[0] + dx, p[1] + dy) or (p[0] + dx, p[1] + dy) in board
    )
    return blocked >= 3


def clearpath_legal(board: Board, n: int, player: int) -> set[tuple[int, int]]:
    """Literal: a placement is legal if it wins, or is a clean final placement, or is a chain
    placement after which some placement is again legal by this same definition."""
    frozen = frozenset(board.items())
    return {p for p in points(n) if p not in board and _cp_ok(frozen, n, player, p)}


@lru_cache(maxsize=200_000)
def _cp_ok(frozen: frozenset, n: int, player: int, p: tuple[int, int]) -> bool:
    board = dict(frozen)
    chain = surrounded(board, n, p)
    board[p] = player
    if connected(board, n, player):
        return True
    if not chain:
        return not connected(board, n, player, diagonal=True)
    after = frozenset(board.items())
    return any(_cp_ok(after, n, player, q) for q in points(n) if q not in board)


def clearpath_play(board: Board, n: int, p: tuple[int, int], player: int) -> tuple[bool, bool]:
    """(won, turn continues)."""
    chain = surrounded(board, n, p)
    board[p] = player
    won = connected(board, n, player)
    return won, chain and not won


# ----- a referee that runs turns, skips and draws ------------------------------------------
class Referee:
    """Turn flow for the reference: skips, draws, the pie rule and Clear Path chains."""

    def __init__(self, game: str, n: int, pie: bool | None = None) -> None:
        self.game, self.n = game, n
        self.pie = game == "clearpath" if pie is None else pie  # the pie rule's default
        self.board: Board = {}
        self.turn = 0
        self.over = False
        self.winner: int | None = None
        self.history: list[tuple[str, int]] = []
        self.swapped = False

    def legal(self, player: int | None = None) -> set[tuple[int, int]]:
        player = self.turn if player is None else player
        fn = {
            "minefield": minefield_legal,
            "crosscut": crosscut_legal,
            "clearcut": clearcut_legal,
            "clearpath": clearpath_legal,
        }[self.game]
        return fn(self.board, self.n, player)

    def moves(self) -> set[str]:
        if self.over:
            return set()
        out = {name(p) for p in self.legal()}
        if self.can_swap():
            out.add("swap")
        return out

    def can_swap(self) -> bool:
        return (
            self.pie
            and not self.swapped
            and self.turn == 1
            and len(self.history) > 0
            and all(pl == 0 for _, pl in self.history)
        )

    def play(self, move: str) -> None:
        mover = self.turn
        self.history.append((move, mover))
        if move == "swap":
            self.swapped = True
            self._hand_over(0)
            return
        p = (NAMES.index(move[0]), int(move[1:]) - 1)
        continues = False
        if self.game == "minefield":
            self.board[p] = mover
            won = connected(self.board, self.n, mover)
        elif self.game == "crosscut":
            won = crosscut_play(self.board, self.n, p, mover)
        elif self.game == "clearcut":
            won = clearcut_play(self.board, self.n, p, mover)
        else:
            won, continues = clearpath_play(self.board, self.n, p, mover)
        if won:
            self.over, self.winner = True, mover
        elif not continues:
            self._hand_over(mover)

    def _hand_over(self, mover: int) -> None:
        self.turn = 1 - mover
        if self.legal() or self.can_swap():
            return
        self.turn = mover
        if not self.legal():
            self.over = True
