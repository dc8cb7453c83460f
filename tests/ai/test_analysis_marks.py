"""Analysis marks against the exact truth (issue 48: "correct where the truth is known").

A sample of the benchmark ``bench/analysis_marks.py`` (which runs a thousand games): random
games on boards with shipped proofs, each ply compared with an independent exact verdict.  No
proven position may get a wrong verdict, every move that throws a won position away must be a
blunder, and no move that keeps a win may be a mistake or worse.  The last test shows the
check can fail: a ``mark`` with a broken threshold is caught.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ai import analysis
from ai.analysis import Settings
from bench.analysis_marks import Truth, check, random_record

pytestmark = (
    pytest.mark.slow
)  # a cold 4×4 exact table: ten seconds on a quiet core, minutes on a busy one

SETTINGS = Settings(playouts=30)
"""The default solver budgets (the exact table on these boards), a small search budget: the
search only estimates positions the truth does not check."""
TRUTH = Truth(400_000)
SAMPLE = [("minefield", 4, seed) for seed in range(4)]
"""Small: on a quiet core a cold 4×4 table costs about ten seconds for the first game, then
much less (the tables are kept for the second test)."""


def run(sample: list[tuple[str, int, int]]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for name, size, seed in sample:
        counts += check(random_record(name, size, seed), SETTINGS, seed, size * size, TRUTH)
    return counts


def test_marks_agree_with_the_truth_on_random_games() -> None:
    counts = run(SAMPLE)
    assert counts["checked"] > 25
    assert counts["thrown"] > 0  # not vacuous: random play throws wins away
    assert counts["unproven"] == 0  # on these boards the analysis proves every position
    assert counts["wrong"] == 0
    assert counts["unmarked"] == 0
    assert counts["kept_marked"] == 0


def test_a_broken_mark_threshold_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``mark`` that judges proven moves by the drop alone, with a blunder threshold no
    drop reaches and a mistake threshold every drop reaches: both counts see it."""
    original = analysis.mark

    def broken(
        before: float, after: float, proven_before: analysis.Proven, proven_after: analysis.Proven
    ) -> analysis.Mark:
        return original(before, after, None, None)

    monkeypatch.setattr(analysis, "mark", broken)
    monkeypatch.setattr(analysis, "BLUNDER", 1.01)
    monkeypatch.setattr(analysis, "MISTAKE", 0.0)
    counts = run(SAMPLE[:2])
    assert counts["unmarked"] > 0
    assert counts["kept_marked"] > 0
