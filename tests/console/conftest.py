"""The console reads its language from the environment: these tests run in English unless a
test sets it, whatever the machine's own LANG is."""

from __future__ import annotations

import pytest

from bot.i18n import POSIX_VARIABLES


@pytest.fixture(autouse=True)
def english_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in POSIX_VARIABLES:
        monkeypatch.delenv(name, raising=False)
