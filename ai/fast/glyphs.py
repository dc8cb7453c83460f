"""Both sides' Minefield glyph masks in one straight-line function per board size.

``rules.minefield.glyph_mask`` walks a table of glyph terms over a list of shifted boards:
general, and clear to check against the rules.  A playout asks for both sides' masks at every
position, so here the same terms are written out once per board size as one Python function
(the shifts of each board computed once and shared by both sides, each term a chain of
``&``), which does the same and-expressions without the loops.  ``tests/ai/test_fast_playouts.py``
compares it with ``glyph_mask`` on random boards.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from rules.geometry import grid
from rules.minefield import GLYPH_TERMS

Glyphs = Callable[[int, int, int], tuple[int, int]]


@cache
def both_glyphs(size: int) -> Glyphs:
    """``f(first, second, empty) -> (glyph_mask for first, glyph_mask for second)``, the
    stones of the first and second colour and the empty points as bitboards."""
    g = grid(size)
    names: dict[tuple[str, int, int], str] = {}
    lines: list[str] = []
    valid: dict[str, int] = {}

    def shifted(board: str, dx: int, dy: int) -> str:
        key = (board, dx, dy)
        if key not in names:
            name = f"{board}_{len(names)}"
            names[key] = name
            off = dx + dy * size
            moved = f"{board} >> {off}" if off >= 0 else f"{board} << {-off}"
            valid[f"v_{name}"] = g.shift(g.full, dx, dy)
            lines.append(f"    {name} = {moved} & v_{name}")
        return names[key]

    # Each term: its first two stone factors (shared, computed up front), then, only where
    # those leave a point, the rest computed inline (most terms die at the first two).
    body: list[str] = []
    for side, (own, opp) in enumerate((("a", "b"), ("b", "a"))):
        body.append(f"    r{side} = 0")
        for _, groups in GLYPH_TERMS:
            factors = [
                (board, dx, dy)
                for board, offsets in zip((own, opp, "e"), groups, strict=True)
                for dx, dy in offsets
            ]
            head = " & ".join(shifted(*f) for f in factors[:2])
            body.append(f"    t = e & {head}")
            if len(factors) > 2:
                rest = []
                for board, dx, dy in factors[2:]:
                    off = dx + dy * size
                    moved = f"{board} >> {off}" if off >= 0 else f"{board} << {-off}"
                    key = f"v_{board}_{dx}_{dy}".replace("-", "m")
                    valid[key] = g.shift(g.full, dx, dy)
                    rest.append(f"({moved} & {key})")
                body.append("    if t:")
                body.append(f"        r{side} |= t & " + " & ".join(rest))
            else:
                body.append(f"    r{side} |= t")
    source = "def glyphs(a, b, e):\n" + "\n".join(lines + body) + "\n    return r0, r1\n"
    scope: dict[str, object] = dict(valid)
    exec(compile(source, f"<glyphs {size}x{size}>", "exec"), scope)
    found: Glyphs = scope["glyphs"]  # type: ignore[assignment]
    return found
