"""``python -m bot.console``: the same as ``crosspath play``."""

import sys

from .command import main

raise SystemExit(main(sys.argv[1:]))
