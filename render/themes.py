"""Colour themes for board images.

Every theme must survive greyscale and colour-vision deficiency: the pairs of colours that
players must tell apart differ in luminance, not only in hue (see :func:`contrast_pairs`, which
the tests check).  The default theme starts from Okabe–Ito's blue and yellow; its red is a true
red rather than Okabe–Ito's orange-leaning vermillion (players read "Red" pieces as orange), which
the luminance gap keeps apart from blue under every colour-vision deficiency.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

RGB = tuple[int, int, int]


def hex_rgb(code: str) -> RGB:
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def luminance(colour: RGB) -> float:
    """Luma as Pillow's ``convert("L")`` computes it (ITU-R 601-2), 0..255."""
    r, g, b = colour
    return (r * 299 + g * 587 + b * 114) / 1000


@dataclass(frozen=True, slots=True)
class PieceColours:
    """One player's colours: ``shade`` draws disc rims and checker grooves, ``mark`` the
    last-move ring, chain numbers and flip marks on top of the piece."""

    fill: RGB
    outline: RGB
    shade: RGB
    mark: RGB


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours for one pair of player colours (red/blue or black/white) in one theme."""

    panel: RGB
    board: RGB
    perimeter: RGB
    grid: RGB
    text: RGB
    muted: RGB
    frame: RGB
    path: RGB
    casing: RGB
    illegal: RGB
    pieces: dict[str, PieceColours] = field(default_factory=dict)

    def base_colours(self) -> list[RGB]:
        """Every colour the renderer paints with, in a fixed order (the PNG palette's core)."""
        colours = [
            self.panel,
            self.board,
            self.perimeter,
            self.grid,
            self.text,
            self.muted,
            self.frame,
            self.path,
            self.casing,
            self.illegal,
        ]
        for name in sorted(self.pieces):
            p = self.pieces[name]
            colours += [p.fill, p.outline, p.shade, p.mark]
        unique: list[RGB] = []
        for c in colours:
            if c not in unique:
                unique.append(c)
        return unique


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    palettes: dict[tuple[str, str], Palette]

    def palette(self, players: tuple[str, str]) -> Palette:
        """The palette for a game's two colours; unknown colour pairs fall back to red/blue."""
        found = self.palettes.get(players)
        if found is not None:
            return found
        fallback = self.palettes[("red", "blue")]
        first, second = fallback.pieces["red"], fallback.pieces["blue"]
        pieces = {players[0]: first, players[1]: second}
        return replace(fallback, pieces=pieces)


def _piece(fill: str, outline: str, shade: str, mark: str) -> PieceColours:
    return PieceColours(hex_rgb(fill), hex_rgb(outline), hex_rgb(shade), hex_rgb(mark))


def _palette(pieces: dict[str, PieceColours], **colours: str) -> Palette:
    return Palette(**{k: hex_rgb(v) for k, v in colours.items()}, pieces=pieces)


OKABE_ITO = Theme(
    "okabe-ito",
    {
        ("red", "blue"): _palette(
            {
                "red": _piece("#E0402C", "#7A1A10", "#B02A1C", "#FFFFFF"),
                "blue": _piece("#004B7D", "#002A45", "#003A61", "#FFFFFF"),
            },
            panel="#F5F1E8",
            board="#E9DFC9",
            perimeter="#C2AD82",
            grid="#8C7B5F",
            text="#1F1B16",
            muted="#5E564A",
            frame="#8C7B5F",
            path="#F0E442",
            casing="#1F1B16",
            illegal="#6B6259",
        ),
        ("black", "white"): _palette(
            {
                "black": _piece("#1C1C1C", "#000000", "#3A3A3A", "#FFFFFF"),
                "white": _piece("#F7F7F2", "#3A3A3A", "#CFCFC8", "#1C1C1C"),
            },
            panel="#E3C58E",
            board="#D9AE62",
            perimeter="#A87A35",
            grid="#6E5325",
            text="#1F1B16",
            muted="#4A3B22",
            frame="#6E5325",
            path="#D55E00",
            casing="#FFFFFF",
            illegal="#5A3C10",
        ),
    },
)

HIGH_CONTRAST = Theme(
    "high-contrast",
    {
        ("red", "blue"): _palette(
            {
                "red": _piece("#FF5C5C", "#000000", "#C42A2A", "#000000"),
                "blue": _piece("#0033A0", "#000000", "#001F66", "#FFFFFF"),
            },
            panel="#FFFFFF",
            board="#FFFFFF",
            perimeter="#D2D2D2",
            grid="#000000",
            text="#000000",
            muted="#333333",
            frame="#000000",
            path="#FFD500",
            casing="#000000",
            illegal="#000000",
        ),
        ("black", "white"): _palette(
            {
                "black": _piece("#000000", "#000000", "#404040", "#FFFFFF"),
                "white": _piece("#FFFFFF", "#000000", "#C8C8C8", "#000000"),
            },
            panel="#CFCFCF",
            board="#9E9E9E",
            perimeter="#6E6E6E",
            grid="#000000",
            text="#000000",
            muted="#222222",
            frame="#000000",
            path="#FF3B00",
            casing="#000000",
            illegal="#000000",
        ),
    },
)

_THEMES = {t.name: t for t in (OKABE_ITO, HIGH_CONTRAST)}
THEMES: tuple[str, ...] = tuple(_THEMES)
DEFAULT_THEME = OKABE_ITO.name


def get_theme(name: str) -> Theme:
    found = _THEMES.get(name.strip().lower())
    if found is None:
        raise ValueError(f"unknown theme '{name}': choose one of {', '.join(THEMES)}")
    return found


def contrast_pairs(palette: Palette) -> Iterator[tuple[str, RGB, RGB, float]]:
    """(what, colour a, colour b, minimum luminance difference) for every pair players must
    tell apart, even in greyscale."""
    names = sorted(palette.pieces)
    pieces = [palette.pieces[n] for n in names]
    if len(pieces) == 2:
        yield (f"{names[0]} vs {names[1]} pieces", pieces[0].fill, pieces[1].fill, 50)
    yield ("board vs perimeter zone", palette.board, palette.perimeter, 40)
    yield ("grid lines vs board", palette.grid, palette.board, 40)
    yield ("text vs panel", palette.text, palette.panel, 120)
    yield ("muted text vs panel", palette.muted, palette.panel, 90)
    yield ("illegal mark vs board", palette.illegal, palette.board, 60)
    # The path is always drawn inside a casing, so the casing is what meets the board.
    yield ("winning path vs its casing", palette.path, palette.casing, 100)
    yield ("winning path casing vs board", palette.casing, palette.board, 40)
    for name, p in zip(names, pieces, strict=True):
        yield (f"{name} piece vs board", p.fill, palette.board, 40)
        yield (f"{name} piece vs perimeter zone", p.fill, palette.perimeter, 40)
        yield (f"{name} edge bar vs panel", p.fill, palette.panel, 40)
        yield (f"{name} mark vs {name} piece", p.mark, p.fill, 100)
        yield (f"winning path vs {name} piece", palette.path, p.fill, 40)
