"""The AI tests import their helpers (positions.py) by plain name: pytest runs with
--import-mode=importlib, which does not put test folders on sys.path by itself."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
