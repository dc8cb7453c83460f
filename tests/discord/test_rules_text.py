"""/rules summaries: attribution to Mark Steere and the sizes the engine really allows."""

from __future__ import annotations

import pytest

from bot.discord.info.rules_text import sheet_text, summary
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


@pytest.mark.parametrize("game", sorted(game_names()))
def test_summary_states_the_engines_own_goal_and_special_rules(game: str) -> None:
    cls = game_class(game)
    text = summary(game)
    assert f"**{cls.title}**" in text
    assert f"Goal: {cls.goal()}." in text
    assert cls.special_rules in text


def test_rules_lists_the_games_in_the_same_order_as_every_other_command() -> None:
    from bot.discord.choices import playable_games
    from bot.discord.info.cog import InfoCog

    rules_choices = InfoCog.rules._params["game"].choices
    assert [c.value for c in rules_choices] == [c.value for c in playable_games()]
    assert [c.value for c in rules_choices] == game_names()
