"""/rules summaries: attribution to Mark Steere and the sizes the engine really allows."""

from __future__ import annotations

import pytest

from bot.discord.rules_text import sheet_text, summary
from rules import game_class, game_names


@pytest.mark.parametrize("game", sorted(game_names()))
def test_summary_attributes_the_designer_and_states_the_engine_sizes(game: str) -> None:
    cls = game_class(game)
    text = summary(game)
    assert "Mark Steere" in text
    assert f"from {cls.min_size}×{cls.min_size} to {cls.max_size}×{cls.max_size}" in text
    assert f"default {cls.default_size}×{cls.default_size}" in text
    assert "Mark Steere" in sheet_text(game)
    assert len(text) <= 4096  # fits an embed description
