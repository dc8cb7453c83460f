"""Tournaments and leagues: their rows, entrants, rounds, pairings and games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import WriteConflict
from ..rows import (
    EntrantRow,
    GameRow,
    PairingRow,
    RoundRow,
    ShardFilter,
    TournamentRow,
)
from ..sql import (
    ENTRANT_FIELDS,
    ENTRANTS,
    PAIRING_FIELDS,
    PAIRING_ORDER,
    PAIRINGS,
    TOURNAMENT_FIELDS,
    TOURNAMENTS,
    insert,
    shard_clause,
    tournament_row,
    values_of,
)
from .base import Queries


class TournamentQueries(Queries):
    """The tournaments queries of one transaction (``tx.tournaments``)."""

    async def insert_tournament(self, values: dict[str, Any]) -> TournamentRow:
        """Insert a tournament (every column but ``id``, which the store gives it)."""
        found = await self._tx._returning(
            f"{insert('tournaments', list(values))} RETURNING {', '.join(TOURNAMENT_FIELDS)}",
            [self._tx._encode(c, v) for c, v in values.items()],
        )
        assert found is not None
        return tournament_row(found)

    async def tournament(self, tournament_id: int, *, lock: bool = True) -> TournamentRow | None:
        """The tournament; in a write block its row stays locked (PostgreSQL: ``FOR UPDATE``)
        to the end, so every change to one tournament is serialised on this row."""
        found = await self._tx._one(f"{TOURNAMENTS} WHERE id = ?", (tournament_id,), lock=lock)
        return None if found is None else tournament_row(found)

    async def update_tournament(self, row: TournamentRow, values: dict[str, Any]) -> TournamentRow:
        """Change the tournament if it is still at ``row.version`` (else WriteConflict), one
        version up; returns the row as now stored."""
        unknown = set(values) - set(TOURNAMENT_FIELDS)
        assert not unknown, f"unknown tournament columns {sorted(unknown)}"
        values = {**values, "version": row.version + 1}
        found = await self._tx._returning(
            f"UPDATE tournaments SET {', '.join(f'{c} = ?' for c in values)}"
            f" WHERE id = ? AND version = ? RETURNING {', '.join(TOURNAMENT_FIELDS)}",
            [*(self._tx._encode(c, v) for c, v in values.items()), row.id, row.version],
        )
        if found is None:
            raise WriteConflict("the tournament changed before this command could be saved")
        return tournament_row(found)

    async def tournaments_in(
        self, guild_id: int, status: str | None, limit: int
    ) -> list[TournamentRow]:
        """A server's tournaments (of one status if given), newest first."""
        where = "guild_id = ?"
        args: list[Any] = [guild_id]
        if status is not None:
            where += " AND status = ?"
            args.append(status)
        rows = await self._tx._fetch(
            f"{TOURNAMENTS} WHERE {where} ORDER BY id DESC LIMIT ?", [*args, limit]
        )
        return [tournament_row(r) for r in rows]

    async def due_tournaments(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[TournamentRow]:
        """Tournaments still registering whose registration deadline is at or before ``now``."""
        held, held_args = shard_clause(shards)
        rows = await self._tx._fetch(
            f"{TOURNAMENTS} WHERE status = 'registration' AND registration_deadline <= ?{held}"
            " ORDER BY registration_deadline, id LIMIT ?",
            (now, *held_args, limit),
        )
        return [tournament_row(r) for r in rows]

    async def claim_podium(self, tournament_id: int, at: int) -> bool:
        """Claim the finished tournament's podium announcement: True for one caller only."""
        found = await self._tx._written(
            "UPDATE tournaments SET podium_claimed_at = ? WHERE id = ? AND status = 'finished'"
            " AND podium_claimed_at IS NULL RETURNING id",
            (at, tournament_id),
        )
        return bool(found)

    async def unannounced_tournaments(
        self, limit: int, shards: ShardFilter | None = None
    ) -> list[TournamentRow]:
        """Finished tournaments whose podium nobody has claimed yet, oldest first."""
        held, held_args = shard_clause(shards)
        rows = await self._tx._fetch(
            f"{TOURNAMENTS} WHERE status = 'finished' AND podium_claimed_at IS NULL{held}"
            " ORDER BY id LIMIT ?",
            (*held_args, limit),
        )
        return [tournament_row(r) for r in rows]

    async def next_tournament_deadline(self) -> int | None:
        found = await self._tx._one(
            "SELECT MIN(registration_deadline) FROM tournaments WHERE status = 'registration'"
        )
        return None if found is None or found[0] is None else int(found[0])

    async def league_season(self, league_id: int, season: int) -> TournamentRow | None:
        """Season ``season`` of the league whose first season is ``league_id``."""
        found = await self._tx._one(
            f"{TOURNAMENTS} WHERE (id = ? OR league_id = ?) AND season = ? ORDER BY id LIMIT 1",
            (league_id, league_id, season),
        )
        return None if found is None else tournament_row(found)

    async def entrants(self, tournament_id: int, division: int | None = None) -> list[EntrantRow]:
        """The tournament's players (of one division, if given) in the order they joined."""
        if division is None:
            rows = await self._tx._fetch(
                f"{ENTRANTS} WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        else:
            rows = await self._tx._fetch(
                f"{ENTRANTS} WHERE tournament_id = ? AND COALESCE(division, 1) = ?"
                " ORDER BY joined_at, user_id",
                (tournament_id, division),
            )
        return [EntrantRow(*r) for r in rows]

    async def save_entrants(self, rows: Sequence[EntrantRow]) -> None:
        """Insert these players, or replace their rows."""
        if rows:
            await self._tx._write_many(
                f"{insert('tournament_entrants', ENTRANT_FIELDS)} ON CONFLICT (tournament_id,"
                " user_id) DO UPDATE SET "
                + ", ".join(f"{c} = excluded.{c}" for c in ENTRANT_FIELDS[2:]),
                [values_of(r, ENTRANT_FIELDS) for r in rows],
            )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        gone = await self._tx._written(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?"
            " RETURNING user_id",
            (tournament_id, user_id),
        )
        return bool(gone)

    async def insert_round(self, row: RoundRow) -> None:
        """Record that a round was created; a second time violates the key (WriteConflict),
        so a round is made once whatever races."""
        await self.insert_rounds([row])

    async def insert_rounds(self, rows: Sequence[RoundRow]) -> None:
        """Record that these rounds were created, in a few statements (as :meth:`insert_round`
        each: one already recorded fails them all)."""
        await self._tx._insert_rows(
            "tournament_rounds",
            ("tournament_id", "round", "created_at"),
            [(r.tournament_id, r.round, r.created_at) for r in rows],
        )

    async def insert_pairings(self, rows: Sequence[PairingRow]) -> None:
        """Store new pairings (a few multi-row statements: a round robin has tens of
        thousands); one already stored violates the key (WriteConflict) and fails them all."""
        await self._tx._insert_rows(
            "tournament_pairings", PAIRING_FIELDS, [values_of(r, PAIRING_FIELDS) for r in rows]
        )

    async def pending_pairings(self, tournament_id: int, limit: int) -> list[PairingRow]:
        """The first ``limit`` pairings (by round, division, table, game) whose game is still
        to be created: two players, no game, no result (a large start creates its games
        over several transactions)."""
        rows = await self._tx._fetch(
            f"{PAIRINGS} WHERE tournament_id = ? AND second_id IS NOT NULL AND game_id IS NULL"
            f" AND outcome IS NULL {PAIRING_ORDER} LIMIT ?",
            (tournament_id, limit),
        )
        return [PairingRow(*r) for r in rows]

    async def tournaments_awaiting_games(
        self, limit: int, shards: ShardFilter | None = None
    ) -> list[int]:
        """Running tournaments with pairings whose game is still to be created (their start
        was interrupted between two of its transactions), by id."""
        held, held_args = shard_clause(shards)
        rows = await self._tx._fetch(
            "SELECT id FROM tournaments WHERE status = 'running' AND EXISTS (SELECT 1 FROM"
            " tournament_pairings AS p WHERE p.tournament_id = tournaments.id"
            " AND p.second_id IS NOT NULL AND p.game_id IS NULL AND p.outcome IS NULL)"
            f"{held} ORDER BY id LIMIT ?",
            (*held_args, limit),
        )
        return [int(r[0]) for r in rows]

    async def set_pairing_games(self, rows: Sequence[PairingRow]) -> None:
        """Give pending pairings (:meth:`pending_pairings`, read in this write block, under
        the tournament's lock: nothing else changes them meanwhile) the games now created
        for them.  One statement per row, sent together (each finds its row by the key; a
        multi-row ``UPDATE … FROM (VALUES …)`` was planned as a scan of every pairing)."""
        await self._tx._write_many(
            "UPDATE tournament_pairings SET game_id = ? WHERE tournament_id = ? AND division = ?"
            " AND round = ? AND tbl = ? AND game_no = ? AND game_id IS NULL AND outcome IS NULL",
            [(r.game_id, r.tournament_id, r.division, r.round, r.tbl, r.game_no) for r in rows],
        )

    async def pairings(
        self, tournament_id: int, round: int | None = None, division: int | None = None
    ) -> list[PairingRow]:
        """The tournament's pairings (of one round, one division, if given), by round,
        division, table and game."""
        where = "tournament_id = ?"
        args: list[Any] = [tournament_id]
        for column, value in (("round", round), ("division", division)):
            if value is not None:
                where += f" AND {column} = ?"
                args.append(value)
        rows = await self._tx._fetch(f"{PAIRINGS} WHERE {where} {PAIRING_ORDER}", args)
        return [PairingRow(*r) for r in rows]

    async def pairing_of_game(self, game_id: int) -> PairingRow | None:
        found = await self._tx._one(f"{PAIRINGS} WHERE game_id = ?", (game_id,))
        return None if found is None else PairingRow(*found)

    async def update_pairing(self, row: PairingRow, values: dict[str, Any]) -> bool:
        """Set the pairing's game or result; only while it has no result (False otherwise)."""
        found = await self._tx._written(
            f"UPDATE tournament_pairings SET {', '.join(f'{c} = ?' for c in values)}"
            " WHERE tournament_id = ? AND division = ? AND round = ? AND tbl = ? AND game_no = ?"
            " AND outcome IS NULL RETURNING tbl",
            [*values.values(), row.tournament_id, row.division, row.round, row.tbl, row.game_no],
        )
        return bool(found)

    async def tournament_games(self, tournament_id: int, round: int | None = None) -> list[GameRow]:
        """The tournament's games (of one round if given), by id."""
        if round is None:
            return await self._tx._games("WHERE tournament_id = ? ORDER BY id", (tournament_id,))
        return await self._tx._games(
            "WHERE tournament_id = ? AND id IN (SELECT game_id FROM tournament_pairings"
            " WHERE tournament_id = ? AND round = ?) ORDER BY id",
            (tournament_id, tournament_id, round),
        )

    async def games_in_channels_from(
        self, first_channel: int, tournament_id: int | None
    ) -> list[GameRow]:
        """Active tournament games whose channel id is ``first_channel`` or more (of one
        tournament if given), by id."""
        if tournament_id is None:
            return await self._tx._games(
                "WHERE status = 'active' AND tournament_id IS NOT NULL AND channel_id >= ?"
                " ORDER BY id",
                (first_channel,),
            )
        return await self._tx._games(
            "WHERE tournament_id = ? AND status = 'active' AND channel_id >= ? ORDER BY id",
            (tournament_id, first_channel),
        )

    async def move_game(self, row: GameRow, channel_id: int) -> GameRow:
        """Give the game another channel (no version bump; versioned like every game write)."""
        return await self._tx._versioned(row, {"channel_id": channel_id})
