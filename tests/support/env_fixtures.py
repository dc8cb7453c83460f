"""``clean_env``: a test that reads the bot's settings sees none of the machine's.

Loaded as a plugin by the root ``tests/conftest.py``; a module asks for it with
``pytestmark = pytest.mark.usefixtures("clean_env")``.  Every setting the bot reads is unset,
the working folder is ``tmp_path`` (so no real ``.env`` is found), and the root logger's
handlers and level are put back afterwards (the runner configures logging).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import SETTINGS


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
