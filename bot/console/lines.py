"""Reading a typed line and showing it back.

On a terminal the console reads through the standard library's ``readline`` (where Python has
it), so the arrow keys edit the line and ↑ recalls earlier input instead of arriving as escape
bytes.  Whatever is shown back (an echo in a transcript, an error that quotes the input) has
its unprintable characters escaped, so a stray escape sequence or a right-to-left override can
neither move the cursor nor reorder the text on screen.
"""

from __future__ import annotations

import sys
from typing import TextIO


def escaped(text: str) -> str:
    """``text`` with every unprintable character but the line break written as a Python
    escape (a board is said as several lines at once).

    >>> escaped("\\x1b[A is not a point")
    '\\\\x1b[A is not a point'
    >>> escaped("Zoë 勝")
    'Zoë 勝'
    """
    if text.replace("\n", "").isprintable():
        return text
    return "".join(c if c.isprintable() or c == "\n" else repr(c)[1:-1] for c in text)


def editing_available(inp: TextIO) -> bool:
    """Whether ``inp`` is this process's own terminal, where ``readline`` can edit lines."""
    if inp is not sys.stdin or not inp.isatty():
        return False
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on for input())
    except ImportError:  # Python built without it (some minimal builds): plain reads
        return False
    return True


def read_line(inp: TextIO, out: TextIO, prompt: str) -> str:
    """One line with its newline, or ``""`` at the end of input (as ``readline()`` returns)."""
    if editing_available(inp):
        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""
    out.write(prompt)
    out.flush()
    return inp.readline()
