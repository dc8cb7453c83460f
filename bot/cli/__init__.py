"""The ``crosspath`` command line: the entry point (:mod:`.entry`) and one module per
maintenance subcommand."""

from __future__ import annotations

from .entry import EXIT_USAGE, QUOTE_LIMIT, SUBCOMMANDS, clip, main

__all__ = ["EXIT_USAGE", "QUOTE_LIMIT", "SUBCOMMANDS", "clip", "main"]
