"""Crosspath in the player's language: gettext catalogs read with Babel, one :class:`Tongue` per
language.

The catalogs are ``bot/locales/<lang>/LC_MESSAGES/crosspath.po``, kept with ``pybabel
extract/update`` (see docs/translating.md).  They are compiled here at first use, in memory,
with Babel's own ``read_po``/``write_mo``, not shipped as ``.mo`` files: a fresh clone then
runs without a build step, and no compiled file can drift from the ``.po`` it came from.  The
cost is a few milliseconds per language, once per process.

Messages use named ``{placeholders}`` (``str.format``), filled after translation, so a
translator may move them freely; plural forms follow each language's CLDR rule (Babel writes
it into the catalog header), and numbers and lists are written the language's way (CLDR
through Babel).  Dates and times are Discord's ``<t:...>`` markup, which every client shows
in its own language and time zone.

Nothing here imports discord.py: the console and the web can speak through the same catalogs.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from rules.errors import Wording

DOMAIN = "crosspath"
LOCALES_DIR = Path(__file__).resolve().parent / "locales"
ENGLISH = "en"
"""The source language: the msgids themselves; needs no catalog."""

SHIPPED = ("de", "es", "fr", "pt_BR", "ru", "ja", "ko", "zh_Hans")
"""The languages with a catalog in ``LOCALES_DIR``, beside English."""

DISCORD_LOCALES: dict[str, str] = {
    "de": "de",
    "es-ES": "es",
    "es-419": "es",
    "fr": "fr",
    "pt-BR": "pt_BR",
    "ru": "ru",
    "ja": "ja",
    "ko": "ko",
    "zh-CN": "zh_Hans",
}
"""Discord's locale codes (``discord.Locale`` values) with a catalog, and the catalog each one
reads.  Every other Discord locale (en-US, en-GB, and those without a translation yet) reads
English."""


def language_for(discord_locale: str | None) -> str:
    """The catalog language for a Discord locale code; English for an unknown or missing one."""
    return DISCORD_LOCALES.get(discord_locale or "", ENGLISH)


POSIX_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where a terminal says its language, strongest first (as gettext reads them)."""


def language_for_posix(value: str | None) -> str:
    """The catalog language for a POSIX locale or a ``--lang`` value (``de_DE.UTF-8``,
    ``pt_BR``, ``zh_CN``, ``ja``); English for ``C``, ``POSIX``, an empty or unknown one.

    >>> language_for_posix("de_DE.UTF-8"), language_for_posix("pt-BR"), language_for_posix("C")
    ('de', 'pt_BR', 'en')
    >>> language_for_posix("zh_CN.UTF-8"), language_for_posix("zh_Hans"), language_for_posix("xx")
    ('zh_Hans', 'zh_Hans', 'en')
    """
    code = (value or "").split(".")[0].split("@")[0].replace("-", "_")
    lower = code.lower()
    if code in SHIPPED:
        return code
    if lower.startswith("zh"):  # Simplified Chinese only: zh_TW, zh_HK and zh_Hant read English
        return "zh_Hans" if not lower.endswith(("tw", "hk", "hant")) else ENGLISH
    if lower.split("_")[0] == "pt":
        return "pt_BR"  # the one Portuguese catalog
    base = lower.split("_")[0]
    return base if base in SHIPPED else ENGLISH


def terminal_language(environ: Mapping[str, str], chosen: str | None = None) -> str:
    """The console's language: ``chosen`` (``--lang``) if given, else the first of
    :data:`POSIX_VARIABLES` that is set and not empty (an unknown one reads English)."""
    if chosen:
        return language_for_posix(chosen)
    for name in POSIX_VARIABLES:
        if environ.get(name):
            return language_for_posix(environ[name])
    return ENGLISH


def po_path(language: str) -> Path:
    return LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(catalog: Catalog) -> gettext.NullTranslations:
    """``catalog`` as gettext translations, compiled in memory; fuzzy entries are left out,
    as ``pybabel compile`` leaves them out."""
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def read_catalog(path: Path, language: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain=DOMAIN)


class Tongue:
    """One language: its messages, plural forms and number and date formats."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations
        # Babel's locale data for formatting; a pseudo-locale formats as English.
        self._locale = Locale.parse(language if language in SHIPPED else ENGLISH)

    def gettext(self, message: str, /, **params: object) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``params``."""
        text = self._translations.gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The plural form for ``n`` in this language; ``{n}`` is ``n`` written locally."""
        text = self._translations.ngettext(singular, plural, n)
        return text.format(n=self.number(n), **params)

    def say(self, wording: Wording) -> str:
        """A :class:`~rules.errors.Wording` (a service or rules error's sentence) in this
        language; a value that is itself a Wording is translated first."""
        params: dict[str, object] = {
            name: self.say(value) if isinstance(value, Wording) else value
            for name, value in wording.params.items()
        }
        if wording.plural is not None:
            n = params.pop("n")
            assert isinstance(n, int)  # Wording.counted's count
            return self.ngettext(wording.template, wording.plural, n, **params)
        return self.gettext(wording.template, **params)

    def refusal(self, error: BaseException) -> str:
        """An error's sentence in this language: its wording translated if it carries one
        (every service and rules error does), else its English ``str()``."""
        wording = getattr(error, "wording", None)
        return self.say(wording) if isinstance(wording, Wording) else str(error)

    def listing(self, items: Sequence[str]) -> str:
        """``a, b and c`` the language's way (CLDR: "a, b, and c", "a, b und c", "a、b、c")."""
        return format_list(list(items), locale=self._locale)

    def number(self, value: float) -> str:
        return format_decimal(value, locale=self._locale)


_extra: dict[str, gettext.NullTranslations] = {}


def install(language: str, translations: gettext.NullTranslations) -> None:
    """Serve ``language`` from ``translations`` (the pseudo-locale test's catalog, built at test
    time); map a Discord locale to it through :data:`DISCORD_LOCALES`."""
    _extra[language] = translations
    tongue.cache_clear()


def languages() -> tuple[str, ...]:
    """Every language served now: English, the shipped ones and any installed."""
    return (ENGLISH, *SHIPPED, *_extra)


@cache
def tongue(language: str) -> Tongue:
    """The :class:`Tongue` for a catalog language; English for one without a catalog."""
    if language in _extra:
        return Tongue(language, _extra[language])
    path = po_path(language)
    if language == ENGLISH or language not in SHIPPED or not path.exists():
        return Tongue(ENGLISH, gettext.NullTranslations())
    return Tongue(language, compiled(read_catalog(path, language)))


def for_discord(discord_locale: str | None) -> Tongue:
    """The :class:`Tongue` for a Discord locale code (``str(interaction.locale)``)."""
    return tongue(language_for(discord_locale))


ENGLISH_TONGUE = Tongue(ENGLISH, gettext.NullTranslations())


def N_(message: str) -> str:
    """Mark a module-level message for extraction; translate it where it is shown."""
    return message
