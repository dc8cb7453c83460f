"""Puts this folder on sys.path so the tests import the simulation helpers by plain name
(pytest runs with --import-mode=importlib, which adds no test folder itself)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
