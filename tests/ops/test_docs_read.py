"""The operator's docs, read as text: no sentence said twice, and the steps a newcomer is
told to take say how to take them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def shingles(text: str, n: int = 10) -> list[str]:
    """Every run of ``n`` words of the prose (code blocks and table rows left out)."""
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    words = " ".join(line for line in prose.splitlines() if not line.startswith("|")).split()
    return [" ".join(words[i : i + n]) for i in range(len(words) - n + 1)]


def test_operations_says_nothing_twice() -> None:
    """A clause pasted twice (once as a fragment) reads as a broken sentence."""
    seen: set[str] = set()
    twice = []
    for run in shingles(OPERATIONS):
        if run in seen:
            twice.append(run)
        seen.add(run)
    assert not twice, twice[:3]


def test_the_server_id_step_says_how_to_get_the_id() -> None:
    for text in (README, OPERATIONS):
        at = text.index("sync --guild")
        near = " ".join(text[at : at + 400].split())
        assert "Developer Mode" in near and "Copy Server ID" in near


def test_the_readme_quotes_no_test_count_that_goes_stale() -> None:
    assert not re.search(r"\b\d,\d{3} tests\b", README)
    assert not re.search(r"the other \d,\d{3}\b", README)
