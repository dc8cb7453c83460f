"""Every shipped catalog is complete and valid, and says what the source says.

The messages are extracted from the source at test time, with the same map and keywords as
``pybabel extract`` (babel.cfg, ``-k locale_str -k N_plural:1,2``), so a new message that
nobody extracted and translated fails here, as does a missing, empty or fuzzy translation, a
placeholder that differs from the English, and a committed template that is out of date.
"""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, SHIPPED, for_discord, po_path, read_catalog, tongue

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {**DEFAULT_KEYWORDS, "locale_str": None, "N_plural": (1, 2)}


@cache
def source_messages() -> dict[str | tuple[str, ...], int]:
    """msgid (a tuple for a plural) -> how often the source uses it."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str | tuple[str, ...], int] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        key = message if isinstance(message, str) else tuple(m for m in message if m)
        found[key] = found.get(key, 0) + 1
    return found


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def entries(catalog: Catalog) -> dict[str | tuple[str, ...], Message]:
    return {(m.id if isinstance(m.id, str) else tuple(m.id)): m for m in catalog if m.id}


def test_the_source_has_messages_and_the_template_is_up_to_date() -> None:
    assert len(source_messages()) > 100
    with (LOCALES_DIR / "crosspath.pot").open("rb") as handle:
        template = read_po(handle)
    assert set(entries(template)) == set(source_messages()), (
        "bot/locales/crosspath.pot is out of date: run pybabel extract and update "
        "(docs/translating.md)"
    )


@pytest.mark.parametrize("language", SHIPPED)
def test_catalog_is_complete_without_fuzzy_entries(language: str) -> None:
    catalog = entries(read_catalog(po_path(language), language))
    missing = [key for key in source_messages() if key not in catalog]
    assert not missing, f"{language}: {len(missing)} messages missing, e.g. {missing[:3]}"
    fuzzy = [key for key, m in catalog.items() if m.fuzzy]
    assert not fuzzy, f"{language}: fuzzy entries {fuzzy[:3]}"
    empty = [
        key
        for key, m in catalog.items()
        if not (m.string if isinstance(m.string, str) else all(m.string))
    ]
    assert not empty, f"{language}: untranslated {empty[:3]}"


@pytest.mark.parametrize("language", SHIPPED)
def test_placeholders_match_the_english(language: str) -> None:
    wrong = []
    for key, message in entries(read_catalog(po_path(language), language)).items():
        if isinstance(key, str):
            if placeholders(message.string) != placeholders(key):
                wrong.append((key, message.string))
            continue
        english = placeholders(key[-1]) | placeholders(key[0])
        for form in message.string:
            # a form for exactly one may spell the number out ("one game"): {n} may go
            if not placeholders(form) <= english or english - placeholders(form) - {"n"}:
                wrong.append((key[0], form))
    assert not wrong, f"{language}: placeholders differ: {wrong[:3]}"


@pytest.mark.parametrize("language", SHIPPED)
def test_babel_finds_no_errors_in_the_catalog(language: str) -> None:
    catalog = read_catalog(po_path(language), language)
    assert catalog.plural_forms, language
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check() if errors]
    assert not problems, problems[:3]


def test_placeholder_check_catches_a_renamed_placeholder() -> None:
    assert placeholders("how many days (default {days})") == {"days"}
    assert placeholders("wie viele Tage (Standard {tage})") != {"days"}


def test_discord_locales_read_their_catalog_and_unknown_ones_read_english() -> None:
    assert for_discord("de").gettext("which game") == "welches Spiel"
    assert for_discord("es-419").gettext("which game") == for_discord("es-ES").gettext("which game")
    assert for_discord("it").gettext("which game") == "which game"
    assert for_discord(None).gettext("how many days (default {days})", days=7) == (
        "how many days (default 7)"
    )
    assert tongue("ru").gettext("how many days (default {days})", days=7).endswith("7)")


def test_numbers_are_written_each_languages_way() -> None:
    assert tongue("de").number(12345) == "12.345"
    assert tongue("fr").number(12345) in {"12\u202f345", "12\u00a0345"}
    assert tongue("en").number(12345) == "12,345"


def test_no_msgid_is_an_fstring_or_concatenation_leftover() -> None:
    """A msgid with a stray brace pair or a doubled space came from a broken literal."""
    for key in source_messages():
        for text in [key] if isinstance(key, str) else key:
            assert "  " not in text and not re.search(r"\{\s*\}", text), text
