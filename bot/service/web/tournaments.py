"""Tournaments as the web shows them: public tournaments by their page's token, nothing else.

A tournament is served only if it is public (its channel could be read by everyone when it
was created) and its server has not turned the web listing off; every other token gives the
same answer (None), as for games (:mod:`.games`).  Its games are public games of their
own (made public with it), so the page links each one that the web may show.

Players are named by the display name they joined with, else ``Player N`` by the order they
joined (:func:`..tournaments.tables.player_names`): never by user id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..tournaments.types import PairingInfo, StandingRow, TournamentInfo


@dataclass(frozen=True, slots=True)
class ServedTournament:
    """A public tournament's page: its info, table (empty before the start), pairings by
    round, the players' names by user id, and the web token of each game the web may show
    by game id."""

    info: TournamentInfo
    standings: tuple[StandingRow, ...]
    pairings: tuple[PairingInfo, ...]
    names: dict[int, str] = field(default_factory=dict, hash=False)
    game_tokens: dict[int, str] = field(default_factory=dict, hash=False)
