"""/tournament create's option ranges agree with what the service accepts at creation.

Discord allowed at most 1,000 players and 64 rounds while the service allowed 4,096 players
and, for a Swiss of unlimited size, any number of rounds: the two limits told organisers
different things.
"""

from __future__ import annotations

from discord import app_commands

from bot.discord.tournaments.cog import TournamentCog
from bot.service.tournaments.league import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from bot.service.tournaments.model import MAX_BEST_OF, MAX_ENTRANTS, max_swiss_rounds


def create_ranges() -> dict[str, tuple[object, object]]:
    group = TournamentCog.tournament
    command = group.get_command("create")
    assert isinstance(command, app_commands.Command)
    return {p.name: (p.min_value, p.max_value) for p in command.parameters}


def test_the_create_options_allow_exactly_what_the_service_accepts() -> None:
    ranges = create_ranges()
    assert ranges["min_players"] == (2, MAX_ENTRANTS)
    assert ranges["max_players"] == (2, MAX_ENTRANTS)
    assert ranges["rounds"] == (1, max_swiss_rounds(MAX_ENTRANTS))
    assert ranges["best_of"] == (1, MAX_BEST_OF)
    assert ranges["division_size"] == (MIN_DIVISION_SIZE, MAX_DIVISION_SIZE)
