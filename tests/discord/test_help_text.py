"""/help names every game the bot plays, in full."""

from __future__ import annotations

from bot.discord.info.cog import help_embed
from rules import game_class, game_names


def test_help_names_every_game_without_cutting_the_list() -> None:
    embed = help_embed()
    challenge = next(field for field in embed.fields if field.name == "/challenge")
    value = challenge.value or ""
    titles = [game_class(name).title for name in game_names()]
    assert len(titles) == 5
    for title in titles:
        assert title in value, title
    assert "…" not in value
    assert len(value) <= 1024  # Discord's limit for a field value


def test_help_points_players_and_organisers_to_tournaments() -> None:
    embed = help_embed()
    field = next(f for f in embed.fields if (f.name or "").startswith("/tournament"))
    value = field.value or ""
    for word in ("join", "standings", "pairings", "create", "start", "withdraw", "adjudicate"):
        assert word in value, word
    assert len(value) <= 1024 and len(embed) <= 6000  # Discord's limits for a field, an embed


def test_help_explains_banks_vacations_and_soft_time() -> None:
    fields = {field.name: field.value or "" for field in help_embed().fields}
    assert "3d+1d max 5d" in fields["Clocks"] and "only on their turn" in fields["Clocks"]
    assert "every server" in fields["/vacation start days, /vacation end"]
    assert "14 days" in fields["/claim"]
    assert all(len(value) <= 1024 for value in fields.values())
