"""A pseudo-locale (``en_XA``) built at test time from the messages in the source: every ASCII
letter becomes an accented look-alike and each message is wrapped in ［brackets］, so English
that reached a player without passing through the catalogs stands out as plain ASCII words.

Placeholders, ``/commands`` and ```code``` stay as they are (a translation keeps them too).
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from bot import i18n

PSEUDO = "en_XA"
ROOT = Path(__file__).resolve().parents[2]
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀßÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
_TABLE = str.maketrans(_PLAIN, _ACCENTED)
_KEEP = re.compile(r"(\{[^{}]*\}|/[a-z][a-z_]*|`[^`]*`|<[#@][^>]*>)")


def pseudo(text: str) -> str:
    """``text`` with every letter outside placeholders, commands and code accented."""
    parts = _KEEP.split(text)
    return "［" + "".join(p if _KEEP.fullmatch(p) else p.translate(_TABLE) for p in parts) + "］"


def catalog() -> Catalog:
    """The pseudo-locale's catalog, from the messages the source has now."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {**DEFAULT_KEYWORDS, "locale_str": None, "N_plural": (1, 2)}
    result = Catalog(locale="en", domain=i18n.DOMAIN)
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        if isinstance(message, str):
            result.add(message, pseudo(message))
        else:
            singular, plural = message[0], message[1]
            result.add((singular, plural), (pseudo(singular), pseudo(plural)))
    return result


def install() -> None:
    """Serve the pseudo-locale as ``en_XA``; map a Discord locale to it to use it."""
    i18n.install(PSEUDO, i18n.compiled(catalog()))


ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
_URL = re.compile(r"https?://\S+")


def english_words(text: str, allowed: set[str]) -> list[str]:
    """Plain ASCII words in ``text`` that the allow-list does not cover: an allowed phrase
    ("Mark Steere") is taken out first, an allowed word only as a whole word."""
    for phrase in sorted((a for a in allowed if not a.isalnum()), key=len, reverse=True):
        text = text.replace(phrase, " ")
    text = _KEEP.sub(" ", _URL.sub(" ", text))
    return [w for w in ENGLISH_WORD.findall(text) if w not in allowed]
