"""Players' names as the pages show them: each one isolated from the text around it."""

from __future__ import annotations


def isolated(name: str) -> str:
    """``name`` between Unicode's first-strong isolate and its pop (what ``<bdi>`` does), so a
    name holding right-to-left text or a stray U+202E can never reorder the words around it
    ("X vs Y", "X wins") in a page, its title or a live update.

    >>> isolated("Ann") == "\u2068Ann\u2069"
    True
    """
    return f"\u2068{name}\u2069"
