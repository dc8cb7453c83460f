"""The whole store at once: export, import into an empty store, and a ratings rebuild's replacement
of every rating row."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import StoreNotEmpty, WriteConflict
from ..rows import (
    ANALYSIS_FIELDS,
    DATA_TABLES,
    AnalysisRow,
    AuditRow,
    CreatorRoleRow,
    EntrantRow,
    EventRow,
    MoveRow,
    PairingRow,
    RatingHistoryRow,
    RatingRow,
    RoundRow,
    StoreContents,
    VacationRow,
)
from ..sql import (
    AUDIT,
    ENTRANTS,
    EVENTS,
    HISTORY,
    HISTORY_FIELDS,
    MOVES,
    NOTICES,
    PAIRINGS,
    RATED_SUMMARY,
    RATING_FIELDS,
    SETTINGS,
    TOURNAMENTS,
    VACATIONS,
    notice_row,
    settings_row,
    tournament_row,
    values_of,
    vars_of,
)
from .base import Queries


class BulkQueries(Queries):
    """The bulk queries of one transaction (``tx.bulk``)."""

    async def contents(self) -> StoreContents:
        """Every row of every table in key order (inside ``read()``: one snapshot)."""
        return StoreContents(
            settings=tuple(
                settings_row(r) for r in await self._tx._fetch(f"{SETTINGS} ORDER BY guild_id")
            ),
            challenges=tuple(await self._tx._challenges("ORDER BY id", ())),
            games=tuple(await self._tx._games("ORDER BY id")),
            moves=tuple(
                MoveRow(*r) for r in await self._tx._fetch(f"{MOVES} ORDER BY game_id, ply")
            ),
            events=tuple(EventRow(*r) for r in await self._tx._fetch(f"{EVENTS} ORDER BY id")),
            audit=tuple(AuditRow(*r) for r in await self._tx._fetch(f"{AUDIT} ORDER BY id")),
            ratings=tuple(await self._tx._ratings("ORDER BY guild_id, game, user_id", ())),
            rating_history=tuple(
                await self._tx._history(f"{HISTORY} ORDER BY game_id, user_id", ())
            ),
            tournaments=tuple(
                tournament_row(r) for r in await self._tx._fetch(f"{TOURNAMENTS} ORDER BY id")
            ),
            tournament_entrants=tuple(
                EntrantRow(*r)
                for r in await self._tx._fetch(f"{ENTRANTS} ORDER BY tournament_id, user_id")
            ),
            tournament_rounds=tuple(
                RoundRow(*r)
                for r in await self._tx._fetch(
                    "SELECT tournament_id, round, created_at FROM tournament_rounds"
                    " ORDER BY tournament_id, round"
                )
            ),
            tournament_pairings=tuple(
                PairingRow(*r)
                for r in await self._tx._fetch(
                    f"{PAIRINGS} ORDER BY tournament_id, division, round, tbl, game_no"
                )
            ),
            tournament_creator_roles=tuple(
                CreatorRoleRow(*r)
                for r in await self._tx._fetch(
                    "SELECT guild_id, role_id FROM tournament_creator_roles"
                    " ORDER BY guild_id, role_id"
                )
            ),
            vacations=tuple(
                VacationRow(*r) for r in await self._tx._fetch(f"{VACATIONS} ORDER BY user_id")
            ),
            notices=tuple(
                notice_row(r) for r in await self._tx._fetch(f"{NOTICES} ORDER BY user_id")
            ),
            analyses=tuple(
                AnalysisRow(*r)
                for r in await self._tx._fetch(
                    f"SELECT {', '.join(ANALYSIS_FIELDS)} FROM analyses"
                    " ORDER BY game_id, game_version"
                )
            ),
        )

    async def import_rows(self, contents: StoreContents) -> None:
        """Every row with its ids, into empty tables (inside ``write()``: all or nothing);
        an engine with id sequences then moves them past the largest id imported, so later
        inserts do not collide."""
        for table in DATA_TABLES:
            found = await self._tx._one(f"SELECT EXISTS (SELECT 1 FROM {table})")
            if found is not None and found[0]:
                raise StoreNotEmpty(
                    f"the target already holds data (its {table} table has rows); copy into a"
                    " new, empty database"
                )
        for table, rows in zip(DATA_TABLES, vars_of(contents), strict=True):
            if rows:
                fields = tuple(type(rows[0]).__dataclass_fields__)
                await self._tx._bulk(table, fields, [self._tx._row_args(r, fields) for r in rows])
        await self._tx._after_import()

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        expect: tuple[int, int | None],
    ) -> None:
        """Every rating and history row replaced (inside ``write()``), if the rated games are
        still those the rebuild read (else WriteConflict)."""
        await self._tx._lock_ratings_table()
        found = await self._tx._one(RATED_SUMMARY)
        assert found is not None
        if (int(found[0]), found[1]) != expect:
            raise WriteConflict("games finished while the ratings were rebuilt; run it again")
        await self._tx._write("DELETE FROM rating_history", ())
        await self._tx._write("DELETE FROM ratings", ())
        await self._tx._bulk(
            "ratings", RATING_FIELDS, [values_of(r, RATING_FIELDS) for r in ratings]
        )
        await self._tx._bulk(
            "rating_history", HISTORY_FIELDS, [values_of(h, HISTORY_FIELDS) for h in history]
        )
