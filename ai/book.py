"""Opening book: the first moves of a game, chosen once by long searches and then played at once.

Why it was tried (issue 14, fifteenth round): in Naked Diagonal 7×7 level 5 gets about 2,000
playouts a move from its 12 s cap, and every game it had lost to the connection-distance player
was lost as the first player, in the opening: in the two studied, searches of 10,000 playouts
blocked the opponent's row at red's second move where a 2,000-playout search had not.  So
``bench/build_book.py`` searches the first moves once, with far more playouts than a move ever
gets, and stores the answers in ``books/`` beside this module, one file per game and board size.

Why no level uses it (docs/ai.md): with the book, level 5 lost more games as the first player,
not fewer.  Its second move against the distance player's usual reply (c4 after d4 d5, value
0.55 in a 20,000-playout search) lets blue extend its row (c5), and a search just as long of
that position gives red 0.49: the searches that choose book moves misjudge this opening much
as the 12 s ones do, only more consistently.  The book stays for A/B matches
(``--config book``) and for a better-built book later.

A book line is a position (the moves played so far) and the move to play there.  Lookups go
through the board symmetries that keep each side's edges (:data:`SYMMETRIES`), so one line
serves up to four mirrored positions.  Only positions reached by placements are in the book: a
game with a special move (Clear Path's ``swap``) is out of book.  A search uses the book with
:attr:`ai.search.SearchConfig.book`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rules import Game
from rules.notation import MAX_SIZE, parse_point, point_names

BOOK_DIR = "books"


def book_file_name(game: str, size: int) -> str:
    return f"{game}-{size}.txt"


SYMMETRIES: tuple[tuple[bool, bool], ...] = (
    (False, False),
    (True, False),
    (False, True),
    (True, True),
)
"""(mirror columns, mirror rows).  The first player joins the bottom and top rows and the second
the left and right columns, so a mirror keeps every stone's owner and each side's two edges.
Each of the four is its own inverse.  (Turning the board a quarter would swap the sides' edges,
so it is not a symmetry of the game.)"""


BookKey = tuple[str, int, tuple[str, ...]]
"""A book position: the game's registry name, the board size and the placements so far."""


class BookError(ValueError):
    """A malformed opening book line (the file ships with the code, so this is a bug)."""


@dataclass(frozen=True, slots=True)
class BookLine:
    game: str
    size: int
    moves: tuple[str, ...]
    """The placements played so far, in order."""
    reply: str
    value: float
    """The building search's estimate that ``reply`` wins, for the player who plays it."""
    playouts: int
    """How many playouts the building search spent on this position."""

    @property
    def key(self) -> BookKey:
        """Where the line sits in :func:`book`'s mapping."""
        return (self.game, self.size, self.moves)

    def format(self) -> str:
        return (
            f"{self.game} {self.size} | {' '.join(self.moves)} | {self.reply} | "
            f"{self.value:.3f} | {self.playouts}"
        )


def mirror(name: str, size: int, symmetry: tuple[bool, bool]) -> str:
    """``name`` (a point such as ``c6``) under ``symmetry`` on a ``size`` board."""
    row, col = divmod(parse_point(name, size), size)
    flip_cols, flip_rows = symmetry
    if flip_cols:
        col = size - 1 - col
    if flip_rows:
        row = size - 1 - row
    return point_names(size)[row * size + col]


def mirrored(moves: Iterable[str], size: int, symmetry: tuple[bool, bool]) -> tuple[str, ...]:
    return tuple(mirror(move, size, symmetry) for move in moves)


def canonical(moves: Iterable[str], size: int) -> tuple[str, ...]:
    """One representative of the moves' mirror images (the builder searches only these)."""
    line = tuple(moves)
    return min(mirrored(line, size, symmetry) for symmetry in SYMMETRIES)


def parse_book(text: str) -> Iterator[BookLine]:
    """The lines of a book file: ``game size | moves | reply | value | playouts``; ``#`` starts
    a comment."""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [field.strip() for field in line.split("|")]
        try:
            head, moves, reply, value, playouts = fields
            game, size = head.split()
            entry = BookLine(
                game, int(size), tuple(moves.split()), reply, float(value), int(playouts)
            )
        except ValueError as error:
            raise BookError(f"opening book line {number} is malformed: {raw[:80]!r}") from error
        if not 1 <= entry.size <= MAX_SIZE:
            raise BookError(f"opening book line {number} has a board size outside 1 to {MAX_SIZE}")
        names = point_names(entry.size)
        if any(move not in names for move in (*entry.moves, entry.reply)):
            raise BookError(f"opening book line {number} names a point off the board")
        yield entry


@cache
def book() -> dict[BookKey, BookLine]:
    """The shipped book (every file in ``books/``), read once per process."""
    lines: dict[BookKey, BookLine] = {}
    for path in resources.files("ai").joinpath(BOOK_DIR).iterdir():
        if path.name.endswith(".txt"):
            for line in parse_book(path.read_text(encoding="utf-8")):
                lines[line.key] = line
    return lines


def book_reply(
    game: Game, lines: Mapping[BookKey, BookLine] | None = None
) -> tuple[str, BookLine] | None:
    """The book's move for the player to move in ``game`` (mirrored back to this board), and the
    line it came from; None when the position is out of book.  ``lines`` replaces the shipped
    book (:func:`book`)."""
    if lines is None:
        lines = book()
    moves = game.moves
    shape = (game.name, game.size, len(moves))
    if game.is_over or all((name, size, len(played)) != shape for name, size, played in lines):
        return None  # the usual case after the opening: no line is this long
    names = set(point_names(game.size))
    if any(move not in names for move in moves):
        return None
    for symmetry in SYMMETRIES:
        line = lines.get((game.name, game.size, mirrored(moves, game.size, symmetry)))
        if line is not None:
            reply = mirror(line.reply, game.size, symmetry)
            return (reply, line) if game.is_legal(reply) else None
    return None
