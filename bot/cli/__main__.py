"""``python -m bot.cli``: the ``crosspath`` command without its installed script."""

from __future__ import annotations

from .entry import main

raise SystemExit(main())
