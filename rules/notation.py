"""Point names: a letter for the column (a = left) and a number for the row (1 = bottom).

Indices are ``row * size + col`` with row 0 at the bottom, so ``a1`` is index 0.  Columns use
the plain alphabet including ``i`` (the published figures name ``i1`` on a 9x9 board).
"""

from __future__ import annotations

from functools import cache

from .errors import N_, InvalidNotation, Wording

COLUMNS = "abcdefghijklmnopqrstuvwxyz"


@cache
def point_names(size: int) -> tuple[str, ...]:
    """All point names of a board in index order."""
    return tuple(f"{COLUMNS[i % size]}{i // size + 1}" for i in range(size * size))


@cache
def _name_table(size: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(point_names(size))}


def point_name(index: int, size: int) -> str:
    return point_names(size)[index]


def describe_board(size: int) -> Wording:
    return Wording(N_("columns a–{last}, rows 1–{size}"), {"last": COLUMNS[size - 1], "size": size})


def parse_point(text: str, size: int) -> int:
    """The index of the point ``text`` names; ignores case and surrounding spaces.

    Raises :class:`InvalidNotation` with a reason a player can act on.
    """
    cleaned = text.strip().lower()
    found = _name_table(size).get(cleaned)
    if found is not None:
        return found
    if not cleaned:
        raise InvalidNotation(N_("no point given: name one like c3"), text)
    col, row = cleaned[:1], cleaned[1:]
    if col in COLUMNS and row.isdigit() and row.startswith("0") and int(row) > 0:
        raise InvalidNotation(
            N_("{text} has a leading zero: write {point}"),
            text,
            text=cleaned,
            point=f"{col}{int(row)}",
        )
    if col in COLUMNS and row.isdigit():
        raise InvalidNotation(
            N_("{text} is off the board: this {size}×{size} board has {board}"),
            text,
            text=cleaned,
            size=size,
            board=describe_board(size),
        )
    raise InvalidNotation(
        N_("'{text}' is not a point: write a column letter then a row number, like c3"),
        text,
        text=text.strip(),
    )
