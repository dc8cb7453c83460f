"""Shared set-up for the rules tests: helper modules beside this file import by plain name."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
