"""Which language a web page speaks: ``?lang=`` if given, else the browser's
``Accept-Language`` (best first), else English; an unknown language reads English.

The pages' words go through the same catalogs as the bot's (bot/i18n.py); the templates call
``_()`` (extracted by ``pybabel`` through babel.cfg's jinja2 map).
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.i18n import ENGLISH, Tongue, language_for_posix, tongue

LANG_PARAMETER = "lang"

HTML_LANG = {"pt_BR": "pt-BR", "zh_Hans": "zh-Hans"}
"""A catalog language as BCP 47 writes it in ``<html lang>``; the others are the same."""


@dataclass(frozen=True, slots=True)
class PageLanguage:
    tongue: Tongue
    chosen: bool
    """Whether ``?lang=`` chose it: then the page's links carry it on."""

    @property
    def language(self) -> str:
        return self.tongue.language

    @property
    def html_lang(self) -> str:
        return HTML_LANG.get(self.language, self.language)

    @property
    def query(self) -> str:
        """What a link appends to keep the chosen language (empty when none was chosen)."""
        return f"?{LANG_PARAMETER}={self.language}" if self.chosen else ""

    def link(self, href: str) -> str:
        return href + self.query


def accepted(header: str) -> list[str]:
    """The language tags of an ``Accept-Language`` header, best first (by ``q``, then order).

    >>> accepted("fr-CH, fr;q=0.9, de;q=0.95, *;q=0.5")
    ['fr-CH', 'de', 'fr', '*']
    >>> accepted("ja;q=abc, ru")
    ['ru']
    """
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = -1.0  # a malformed weight: ignore the tag
        if tag.strip() and quality > 0:
            ranked.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def page_language(request: web.Request) -> PageLanguage:
    chosen = request.query.get(LANG_PARAMETER, "").strip()
    if chosen:
        return PageLanguage(tongue(language_for_posix(chosen[:35])), True)
    for tag in accepted(request.headers.get("Accept-Language", "")[:1000]):
        if tag.lower().split("-")[0] == ENGLISH:
            break  # English is wanted before any shipped language
        found = language_for_posix(tag)
        if found != ENGLISH:
            return PageLanguage(tongue(found), False)
    return PageLanguage(tongue(ENGLISH), False)
