"""The store's SQL vocabulary, shared by both engines and every query class: column lists,
statement fragments with ``?`` placeholders, row decoding, and the game writes (:class:`Op`)
an engine applies its own way.

It holds no queries itself: :mod:`bot.store.tx` (the transaction's primitives) and the
per-feature classes in :mod:`bot.store.queries` build theirs from it, so a statement is still
written once for SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from .rows import (
    AuditRow,
    ChallengeRow,
    ClockRow,
    EntrantRow,
    EventRow,
    GameRow,
    MoveRow,
    NewGame,
    NoticeRow,
    PairingRow,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SettingsRow,
    ShardFilter,
    StoreContents,
    TournamentRow,
    VacationRow,
)

Row = Any
T = TypeVar("T")
"""A driver's row: ``sqlite3.Row`` or ``asyncpg.Record`` (both index by name and position)."""

GAME_FIELDS = tuple(GameRow.__dataclass_fields__)
CHALLENGE_FIELDS = tuple(ChallengeRow.__dataclass_fields__)
SETTINGS_FIELDS = tuple(SettingsRow.__dataclass_fields__)
RATING_FIELDS = tuple(RatingRow.__dataclass_fields__)
HISTORY_FIELDS = tuple(RatingHistoryRow.__dataclass_fields__)
MOVE_FIELDS = tuple(MoveRow.__dataclass_fields__)
EVENT_FIELDS = tuple(EventRow.__dataclass_fields__)
AUDIT_FIELDS = tuple(AuditRow.__dataclass_fields__)
TOURNAMENT_FIELDS = tuple(TournamentRow.__dataclass_fields__)
ENTRANT_FIELDS = tuple(EntrantRow.__dataclass_fields__)
PAIRING_FIELDS = tuple(PairingRow.__dataclass_fields__)
VACATION_FIELDS = tuple(VacationRow.__dataclass_fields__)
NOTICE_FIELDS = tuple(NoticeRow.__dataclass_fields__)
CLOCK_FIELDS = tuple(ClockRow.__dataclass_fields__)
NEW_GAME_FIELDS = tuple(f for f in NewGame.__dataclass_fields__ if f != "clock")
LIST_COLUMNS = frozenset({"allowed_channels", "reminders"})
OBJECT_COLUMNS = frozenset({"default_sizes", "options"})


def select(fields: Sequence[str], table: str) -> str:
    return f"SELECT {', '.join(fields)} FROM {table}"


def insert(table: str, fields: Sequence[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})"


MAX_ARGS = 32_766
"""The most bind arguments one statement carries: PostgreSQL takes 32,767, and SQLite 32,766
(its default since 3.32; the store needs ``RETURNING``, which came later, in 3.35)."""


def insert_rows(table: str, fields: Sequence[str], count: int) -> str:
    """``INSERT INTO table (fields) VALUES (?, …), (?, …)`` for ``count`` rows."""
    row = f"({', '.join('?' * len(fields))})"
    return f"INSERT INTO {table} ({', '.join(fields)}) VALUES {', '.join([row] * count)}"


CHUNK_ARGS = 1_500
"""The arguments one multi-row insert carries, well under :data:`MAX_ARGS`: its text then stays
under the 15 KiB up to which asyncpg keeps a prepared statement, so PostgreSQL parses and plans
each shape once per connection, not once per chunk (a 260-player round robin's start measured
faster on PostgreSQL than with chunks of 32,766 arguments; no difference on SQLite)."""


def row_chunks(rows: Sequence[T], width: int) -> list[Sequence[T]]:
    """``rows`` in order, in runs of as many rows of ``width`` arguments as one statement
    carries (:data:`CHUNK_ARGS`; one row at least, and never past :data:`MAX_ARGS`)."""
    step = max(1, CHUNK_ARGS // width)
    assert step * width <= MAX_ARGS, "a row wider than a statement may carry"
    return [rows[i : i + step] for i in range(0, len(rows), step)]


GAMES = select(GAME_FIELDS, "games")
CHALLENGES = select(CHALLENGE_FIELDS, "challenges")
SETTINGS = select(SETTINGS_FIELDS, "guild_settings")
RATINGS = select(RATING_FIELDS, "ratings")
HISTORY = select(HISTORY_FIELDS, "rating_history")
MOVES = select(MOVE_FIELDS, "moves")
EVENTS = select(EVENT_FIELDS, "game_events")
AUDIT = select(AUDIT_FIELDS, "audit_log")
TOURNAMENTS = select(TOURNAMENT_FIELDS, "tournaments")
ENTRANTS = select(ENTRANT_FIELDS, "tournament_entrants")
PAIRINGS = select(PAIRING_FIELDS, "tournament_pairings")
PAIRING_ORDER = "ORDER BY round, division, tbl, game_no"
VACATIONS = select(VACATION_FIELDS, "vacations")
UPSERT_VACATION = (
    f"{insert('vacations', VACATION_FIELDS)} ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in VACATION_FIELDS[1:])
)
NOTICES = select(NOTICE_FIELDS, "notice_prefs")
UPSERT_NOTICE = (
    f"{insert('notice_prefs', NOTICE_FIELDS)} ON CONFLICT (user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in NOTICE_FIELDS[1:])
)
DAY_US = 86_400_000_000
WAITING = "status = 'active' AND to_move_id"
"""Games waiting on a player (the ``games_waiting_on`` index), oldest turn first."""
WAITING_ORDER = "ORDER BY turn_started_at, id"
UPSERT_RATING = (
    f"{insert('ratings', RATING_FIELDS)} ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in RATING_FIELDS[3:])
)
INSERT_HISTORY = insert("rating_history", HISTORY_FIELDS)
UPSERT_SETTINGS = (
    f"{insert('guild_settings', SETTINGS_FIELDS)} ON CONFLICT (guild_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in SETTINGS_FIELDS[1:])
)
RATED_SUMMARY = "SELECT COUNT(*), MAX(rating_seq) FROM games WHERE rating_seq IS NOT NULL"
"""How many games changed ratings and the last ``rating_seq``: a ratings rebuild's guard."""
NEWEST_FIRST = "ORDER BY updated_at DESC, id DESC"
SERVED = (
    "public = ? AND NOT EXISTS (SELECT 1 FROM guild_settings AS s"
    " WHERE s.guild_id = games.guild_id AND s.web_listing = ?)"
)
"""The games the web may show: public, in a server that did not turn its listing off (its
two arguments are :data:`SERVED_ARGS`)."""
SERVED_ARGS = (True, False)
SERVED_TOURNAMENT = (
    "public = ? AND NOT EXISTS (SELECT 1 FROM guild_settings AS s"
    " WHERE s.guild_id = tournaments.guild_id AND s.web_listing = ?)"
)
"""The tournaments the web may show, as :data:`SERVED` (same arguments)."""
NO_TAKEBACK: dict[str, Any] = {"takeback_by": None, "takeback_at": None, "takeback_version": None}
NO_CLOCK: dict[str, Any] = {"deadline_at": None, "remind_at": None}


# ----- rows ------------------------------------------------------------------------------------


def _decoded(value: Any) -> Any:
    """A list or object column: JSON text (SQLite) or already decoded (PostgreSQL)."""
    return json.loads(value) if isinstance(value, str) else value


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((str(k), str(v)) for k, v in (_decoded(value) or {}).items()))


def _record(row: Row, fields: Sequence[str]) -> dict[str, Any]:
    values = {name: row[name] for name in fields}
    values["reminders"] = tuple(_decoded(values["reminders"]))
    values["options"] = _pairs(values["options"])
    values["rated"] = bool(values["rated"])
    values["public"] = bool(values["public"])
    return values


def game_row(row: Row) -> GameRow:
    return GameRow(**_record(row, GAME_FIELDS))


def tournament_row(row: Row) -> TournamentRow:
    values = {name: row[name] for name in TOURNAMENT_FIELDS}
    values["reminders"] = tuple(_decoded(values["reminders"]))
    values["rated"] = bool(values["rated"])
    values["public"] = bool(values["public"])
    return TournamentRow(**values)


def challenge_row(row: Row) -> ChallengeRow:
    return ChallengeRow(**_record(row, CHALLENGE_FIELDS))


def settings_row(row: Row) -> SettingsRow:
    values = {name: row[name] for name in SETTINGS_FIELDS}
    for name in ("allowed_channels", "reminders"):
        values[name] = tuple(_decoded(values[name]))
    sizes = (_decoded(values["default_sizes"]) or {}).items()
    values["default_sizes"] = tuple(sorted((str(k), int(v)) for k, v in sizes))
    for flag in ("use_threads", "ratings_enabled", "web_listing"):
        values[flag] = bool(values[flag])
    return SettingsRow(**values)


def notice_row(row: Row) -> NoticeRow:
    values = {name: row[name] for name in NOTICE_FIELDS}
    values["dm_closed"] = bool(values["dm_closed"])
    return NoticeRow(**values)


def values_of(row: Any, fields: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, c) for c in fields)


def vars_of(contents: StoreContents) -> list[Sequence[Any]]:
    """The rows of each table, in ``DATA_TABLES`` order."""
    return [getattr(contents, name) for name in StoreContents.__dataclass_fields__]


def shard_clause(shards: ShardFilter | None) -> tuple[str, tuple[int, ...]]:
    """`` AND <the row's server is on one of these shards>`` and its parameters (or nothing)."""
    if shards is None:
        return "", ()
    return f" AND ((guild_id >> 22) % ?) IN ({marks(shards.ids)})", (shards.count, *shards.ids)


def marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


IN_CHUNK = 10_000
"""The most ids one ``IN (…)`` list carries: PostgreSQL takes at most 32,767 bind arguments in a
statement, and a large tournament's games or a league's players pass that."""


def in_chunks(ids: Sequence[Any]) -> list[list[Any]]:
    """``ids`` sorted, unique, in lists of at most :data:`IN_CHUNK`; a query ordered by the id
    it lists gives, chunk after chunk, the same rows in the same order as one statement."""
    unique = sorted(set(ids))
    return [unique[i : i + IN_CHUNK] for i in range(0, len(unique), IN_CHUNK)]


# ----- game writes -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Op:
    """A game write: ``update`` (``args``: the game's version, reminders sent, takeback
    requester and turn start as read; ``values``: the new columns), ``moves`` (``args``: the
    :class:`MoveRow` list), ``delete`` (the first ply to delete), ``event`` or ``audit``."""

    kind: str
    game_id: int | None
    args: tuple[Any, ...]
    values: dict[str, Any] | None = None


def update_sql(op: Op) -> tuple[str, list[Any]]:
    """``UPDATE games … WHERE <the game is as read>`` and its arguments.

    "As read" is the version plus what the writes that keep the version change: the reminders
    sent, the pending takeback and the turn's start.  Under SQLite's single writer the version
    alone would do; PostgreSQL's optimistic writes need the rest, or two processes could both
    send one reminder (or record one takeback request) against one unchanged version.
    """
    assert op.values is not None
    unknown = set(op.values) - set(GAME_FIELDS)
    assert not unknown, f"unknown game columns {sorted(unknown)}"
    sql = (
        f"UPDATE games SET {', '.join(f'{c} = ?' for c in op.values)} WHERE id = ?"
        " AND version = ? AND reminders_sent = ? AND takeback_by IS NOT DISTINCT FROM ?"
        " AND turn_started_at = ?"
    )
    return sql, [*op.values.values(), op.game_id, *op.args]


OP_SQL = {
    "moves": insert("moves", MOVE_FIELDS),
    "delete": "DELETE FROM moves WHERE game_id = ? AND ply >= ?",
    "event": insert("game_events", EVENT_FIELDS[1:]),
    "audit": insert("audit_log", AUDIT_FIELDS[1:]),
}
"""The other game writes, each as a statement of its own (the update is ``update_sql``)."""


def op_args(op: Op) -> list[Any]:
    """``OP_SQL[op.kind]``'s arguments (rows of them for ``moves``)."""
    if op.kind == "moves":
        return [values_of(m, MOVE_FIELDS) for m in op.args]
    if op.kind == "audit":
        return list(op.args)
    return [op.game_id, *op.args]


RESULT_COLUMNS = {"reason": "result_reason", "actor_id": "result_actor"}


def result_values(result: ResultRow, at: int) -> dict[str, Any]:
    """The game columns a result sets (``ResultRow`` fields are the columns, but for two)."""
    values = {RESULT_COLUMNS.get(k, k): v for k, v in asdict(result).items()}
    return {**values, "finished_at": at, **NO_CLOCK}
