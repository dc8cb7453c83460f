"""Text on images: DejaVu Sans Bold (shipped) with a per-character fallback to system Noto fonts.

Shipping DejaVu keeps every caption, coordinate and number identical on every machine.  Player
names are another matter: Discord names carry emoji, CJK and every script, and DejaVu has none
of the first two.  Those characters come from Debian's Noto packages (OFL), looked up at their
fixed paths (:data:`FALLBACK_PACKAGES` installs them): shipping CJK and emoji coverage would add
tens of megabytes to the repository.  A text is split into runs, each drawn in the first face
that has all its characters (checked against the font's own character map with fontTools).  A
character no installed face has is left out, never drawn as a box.

Emoji are drawn in one colour, the text's, with the emoji's own light and shade as ink
strength.  Board images are mapped onto a fixed table of theme colours (see
:mod:`render.encode`), so a colour emoji would be posterised onto player colours: a green dragon
in a blue player's name would look blue.  Colour emoji fonts are bitmap strikes that FreeType
only loads at their own size (109 px), so the emoji is drawn there and scaled down.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

FONT_FILE = Path(__file__).with_name("DejaVuSans-Bold.ttf")

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

FONT_DIRS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/noto"),
    Path("/usr/share/fonts/opentype/noto"),
)
"""Where Debian's Noto packages put their fonts."""

FALLBACK_PACKAGES = ("fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji")
"""The Debian packages that hold every face in :data:`FALLBACKS`."""


@dataclass(frozen=True, slots=True)
class Face:
    """A fallback font file (looked up in :data:`FONT_DIRS`) and its face in a collection;
    ``family`` is its CSS name, for SVG text."""

    file: str
    family: str
    index: int = 0
    emoji: bool = False


EMOJI = Face("NotoColorEmoji.ttf", "Noto Color Emoji", emoji=True)
CJK = Face("NotoSansCJK-Bold.ttc", "Noto Sans CJK JP")
SCRIPTS = (
    "Arabic",
    "Hebrew",
    "Devanagari",
    "Bengali",
    "Gurmukhi",
    "Gujarati",
    "Tamil",
    "Telugu",
    "Kannada",
    "Malayalam",
    "Sinhala",
    "Thai",
    "Lao",
    "Khmer",
    "Myanmar",
    "Georgian",
    "Armenian",
    "Ethiopic",
)
FALLBACKS: tuple[Face, ...] = (
    Face("NotoSans-Bold.ttf", "Noto Sans"),  # Latin, Greek and Cyrillic letters DejaVu lacks
    *(Face(f"NotoSans{script}-Bold.ttf", f"Noto Sans {script}") for script in SCRIPTS),
    CJK,
    EMOJI,
    Face("NotoSansSymbols-Bold.ttf", "Noto Sans Symbols"),
    Face("NotoSansSymbols2-Regular.ttf", "Noto Sans Symbols2"),
    Face("NotoSansMath-Regular.ttf", "Noto Sans Math"),
)
"""Tried in order for a character DejaVu Sans Bold lacks; emoji before the symbol faces, so a
character both have is drawn as the emoji people typed."""

EMOJI_PPEM = 109  # the only size Noto Color Emoji's bitmaps load at
EMOJI_EM = 0.95  # an emoji's em, as a share of the text's
EMOJI_PAPER = 0.55  # how much ink an emoji's white parts lose (they stay faintly visible)

# Characters that belong to the character before them: zero-width joiner, variation
# selectors, skin tones, keycap and tag characters.  They join that character's run.
JOINERS = frozenset(
    [0x200D, 0x20E3, *range(0xFE00, 0xFE10), *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)]
)
EMOJI_STYLE = 0xFE0F


@cache
def bold(size: int) -> Font:
    """DejaVu Sans Bold ``size`` pixels tall (cached: loading a face costs about a millisecond)."""
    try:
        return ImageFont.truetype(str(FONT_FILE), size)
    except OSError:
        return ImageFont.load_default(size=size)


PRIMARY_FAMILY = "DejaVu Sans"


def css_families(emoji: bool = False) -> str:
    """The faces text is drawn in, in order, as a CSS ``font-family`` list (SVG text): the
    text faces, or with ``emoji`` the emoji face.  Text lists leave the emoji face out, as
    emoji fonts also have digits and some renderers (Pango) take them from there."""
    faces = [face.family for face in FALLBACKS if face.emoji == emoji]
    families = faces if emoji else [PRIMARY_FAMILY, *faces]
    return ", ".join(f"'{family}'" for family in families) + (
        ", emoji" if emoji else ", sans-serif"
    )


@cache
def _middle_share() -> float:
    """Pillow's vertical anchor "m" lies halfway between the ascender and descender lines;
    this is how far the baseline lies below it, per pixel of size."""
    try:
        with TTFont(str(FONT_FILE), lazy=True) as font:
            hhea = font["hhea"]
            return float(hhea.ascent + hhea.descent) / 2 / float(font["head"].unitsPerEm)
    except (OSError, KeyError):
        return 0.35  # DejaVu Sans's own share, should the shipped file be missing


def baseline_below_middle(size: float) -> float:
    """How far below a text's vertical middle its baseline lies, at ``size`` pixels."""
    return size * _middle_share()


@cache
def face_path(face: Face) -> Path | None:
    for folder in FONT_DIRS:
        path = folder / face.file
        if path.is_file():
            return path
    return None


def missing_fallbacks() -> tuple[Face, ...]:
    return tuple(face for face in FALLBACKS if face_path(face) is None)


@cache
def _coverage(path: str, index: int) -> frozenset[int]:
    """The code points a font maps to a glyph (read lazily: only the character map is parsed)."""
    try:
        with TTFont(path, fontNumber=index, lazy=True) as font:
            cmap = font.getBestCmap() or {}
    except (OSError, ValueError, KeyError):
        return frozenset()
    return frozenset(cmap)


def _covers(face: Face | None, code: int) -> bool:
    if face is None:
        # Without the shipped file, Pillow's own default font draws whatever it can.
        return code in _coverage(str(FONT_FILE), 0) if FONT_FILE.is_file() else True
    path = face_path(face)
    return path is not None and code in _coverage(str(path), face.index)


@cache
def _face_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    path = face_path(face)
    assert path is not None
    return ImageFont.truetype(str(path), EMOJI_PPEM if face.emoji else size, index=face.index)


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive characters drawn in one face; ``face`` None is DejaVu Sans Bold."""

    text: str
    face: Face | None


def _face_for(code: int, current: Face | None) -> tuple[bool, Face | None]:
    """Whether any face has ``code``, and the first that does.  A script's fallback face keeps
    the rest of a word it has begun, so shaping (Arabic, Indic) is not split between faces."""
    if current is not None and not current.emoji and code >= STICKY_FROM and _covers(current, code):
        return True, current
    if _covers(None, code):
        return True, None
    for face in FALLBACKS:
        if _covers(face, code):
            return True, face
    return False, None


STICKY_FROM = 0x300  # past Latin-1 and Latin Extended: DejaVu's Latin letters stay DejaVu's


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` split into runs by the face that draws them; characters no face has are gone.

    >>> [(r.text, r.face is None) for r in runs("Red: Ann")]
    [('Red: Ann', True)]
    >>> runs("")
    ()
    """
    chars: list[str] = []
    faces: list[Face | None] = []
    for ch in text:
        code = ord(ch)
        if chars and (code in JOINERS or unicodedata.combining(ch)):
            if code == EMOJI_STYLE and faces[-1] != EMOJI and _covers(EMOJI, ord(chars[-1])):
                faces[-1] = EMOJI  # "❤️": the emoji, not the text symbol
            chars[-1] += ch
            continue
        found, face = _face_for(code, faces[-1] if faces else None)
        if found and code not in JOINERS:
            chars.append(ch)
            faces.append(face)
    merged: list[Run] = []
    for ch, face in zip(chars, faces, strict=True):
        if merged and merged[-1].face == face:
            merged[-1] = Run(merged[-1].text + ch, face)
        else:
            merged.append(Run(ch, face))
    return tuple(merged)


def _emoji_scale(size: int) -> float:
    return size * EMOJI_EM / EMOJI_PPEM


def _run_width(run: Run, size: int) -> float:
    if run.face is None:
        return float(bold(size).getlength(run.text))
    font = _face_font(run.face, size)
    width = float(font.getlength(run.text))
    return width * _emoji_scale(size) if run.face.emoji else width


def text_width(text: str, size: int) -> float:
    """How wide ``text`` is drawn at ``size`` pixels, fallback faces included."""
    return sum(_run_width(run, size) for run in runs(text))


@lru_cache(maxsize=256)
def _emoji_mask(text: str, size: int) -> Image.Image:
    """An emoji run as ink strength ("L"): its alpha, weakened where the emoji is light."""
    font = _face_font(EMOJI, size)
    width = max(1, round(float(font.getlength(text))))
    canvas = Image.new("RGBA", (width, round(EMOJI_PPEM * 1.25)), (255, 255, 255, 0))
    ImageDraw.Draw(canvas).text((0, 0), text, font=font, embedded_color=True)
    alpha = canvas.getchannel("A")
    light = canvas.convert("L").point(lambda v: round(255 - EMOJI_PAPER * v))
    ink = Image.composite(light, Image.new("L", canvas.size, 0), alpha)
    scale = _emoji_scale(size)
    target = (max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale)))
    return ink.resize(target, Image.Resampling.LANCZOS)


def draw_text(
    image: Image.Image,
    at: tuple[float, float],
    text: str,
    size: int,
    colour: RGB,
    anchor: str = "la",
) -> None:
    """``text`` drawn on ``image`` like ``ImageDraw.text`` with ``anchor``, each run in its face.

    Runs share the DejaVu baseline, so mixed scripts sit on one line; emoji are centred on the
    text's middle.  Text DejaVu draws whole takes Pillow's own path, pixel for pixel.
    """
    parts = runs(text)
    draw = ImageDraw.Draw(image)
    primary = bold(size)
    if len(parts) <= 1 and (not parts or parts[0].face is None):
        draw.text(at, parts[0].text if parts else "", font=primary, fill=colour, anchor=anchor)
        return
    horizontal, vertical = anchor[0], anchor[1]
    x, y = at
    total = sum(_run_width(run, size) for run in parts)
    x -= total * {"l": 0.0, "m": 0.5, "r": 1.0}.get(horizontal, 0.0)
    top_at_anchor = primary.getbbox("H", anchor="l" + vertical)[1]
    top_at_baseline = primary.getbbox("H", anchor="ls")[1]
    baseline = y + top_at_anchor - top_at_baseline
    middle = baseline + top_at_baseline - primary.getbbox("H", anchor="lm")[1]
    for run in parts:
        width = _run_width(run, size)
        if run.face is None:
            draw.text((round(x), round(baseline)), run.text, font=primary, fill=colour, anchor="ls")
        elif run.face.emoji:
            mask = _emoji_mask(run.text, size)
            box = (round(x), round(middle - mask.height / 2))
            image.paste(colour, (*box, box[0] + mask.width, box[1] + mask.height), mask)
        else:
            font = _face_font(run.face, size)
            draw.text((round(x), round(baseline)), run.text, font=font, fill=colour, anchor="ls")
        x += width


def fit_text(text: str, size: int, width: float, suffix: str = "") -> str:
    """``text`` shortened with an ellipsis so that it and ``suffix`` fit ``width`` pixels.

    Only ``text`` is cut, never ``suffix`` (a winner mark stays whole); a cut never leaves a
    joiner or combining mark without the character it belongs to.
    """
    if text_width(text + suffix, size) <= width:
        return text + suffix
    # Binary search for the longest prefix that fits with the ellipsis (names can be long).
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(_cut(text, mid) + suffix, size) <= width:
            low = mid
        else:
            high = mid - 1
    return _cut(text, low) + suffix


def _cut(text: str, keep: int) -> str:
    kept = text[:keep]
    while kept and (ord(kept[-1]) in JOINERS or unicodedata.combining(kept[-1])):
        kept = kept[:-1]
    return kept.rstrip() + "…"


SMALLEST_SHARE = 0.75
"""Text may shrink to this share of its intended size before it is shortened."""


def fit_options(
    options: Sequence[str], size: int, width: float, suffix: str = "", smallest: int = 0
) -> tuple[str, int]:
    """The first of ``options`` (longest first) that fits ``width`` pixels, and its font size.

    Each option (followed by ``suffix``) is tried at ``size`` and then at smaller sizes down to
    ``smallest`` (by default :data:`SMALLEST_SHARE` of it), before the next, shorter one: a line
    shrinks a little before it loses words.  Only if no option fits at all is the last one cut
    with an ellipsis, before the suffix (a single word longer than the whole line, such as a
    name without spaces).
    """
    smallest = min(size, smallest or max(8, round(size * SMALLEST_SHARE)))
    for text in options:
        for pixels in range(size, smallest - 1, -1):
            if text_width(text + suffix, pixels) <= width:
                return text + suffix, pixels
    return fit_text(options[-1], smallest, width, suffix), smallest
