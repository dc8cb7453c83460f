"""The store interface every engine implements (SQLite embedded, PostgreSQL for many processes).

The game service speaks only to these two protocols and to the rows in :mod:`bot.store.rows`;
SQL, drivers and column names stay inside each engine.  An engine is correct when it passes
``tests/store/test_contract.py`` and the service tests run over it.

Guarantees every engine gives:

* ``write()`` is one transaction that holds the database's write lock for the whole block (no
  other writer, in this process or another, commits in between); it commits when the block
  ends normally and rolls back on any exception, cancellation included.  ``read()`` sees one
  consistent snapshot.
* Game writes are **versioned**: each takes the :class:`~bot.store.rows.GameRow` the caller
  read and changes the game only if it is still at ``row.version`` (and, for the writes that
  change the position or outcome, bumps the version by one).  A mismatch raises
  :class:`~bot.store.errors.WriteConflict` no later than the end of the ``write()`` block, and
  the whole transaction is rolled back.  Each write returns the row as it now is, so the
  caller never re-reads it.
* Writes may be deferred until the next read or the commit (PostgreSQL sends a game command's
  writes as one statement at the end); a caller must not rely on a write's error surfacing at
  the call itself.
* Only :mod:`bot.store.errors` exceptions leave the store; driver errors are translated.
* Times are integer microseconds since the epoch (UTC); ids are 64-bit signed positive ints.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Protocol, Self

from .rows import (
    AuditRow,
    ChallengeRow,
    ClockRow,
    EventRow,
    GameRow,
    MoveRow,
    NewChallenge,
    NewGame,
    RatedResult,
    RatingHistoryRow,
    RatingRow,
    ResultRow,
    SettingsRow,
    ShardFilter,
    StoreContents,
)


class Tx(Protocol):
    """One transaction, from :meth:`Store.read` or :meth:`Store.write`."""

    # ----- settings -----------------------------------------------------------------------
    async def settings(self, guild_id: int) -> SettingsRow | None:
        """The server's settings row, None if it never saved any."""
        ...

    async def save_settings(self, row: SettingsRow) -> None:
        """Insert or replace the server's settings."""
        ...

    # ----- challenges ---------------------------------------------------------------------
    async def insert_challenge(self, new: NewChallenge) -> ChallengeRow:
        """Insert an open challenge; returns it with its id."""
        ...

    async def challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: str,
        at: int,
        accepted_by: int | None = None,
        game_id: int | None = None,
    ) -> ChallengeRow | None:
        """Move an OPEN challenge to ``status``; the updated row, or None if it was not open."""
        ...

    async def open_challenges(
        self, guild_id: int, user_id: int | None = None
    ) -> list[ChallengeRow]:
        """Open challenges in a server (by or to ``user_id`` if given), oldest first."""
        ...

    async def expiring_challenges(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[ChallengeRow]:
        """Open challenges whose ``expires_at <= now``, soonest first (of the servers in
        ``shards`` only, if given)."""
        ...

    # ----- games: reads -------------------------------------------------------------------
    async def game(self, game_id: int) -> GameRow | None: ...

    async def active_game_in(self, channel_id: int) -> GameRow | None: ...

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        """The channel's newest game (highest id), finished or not."""
        ...

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool, limit: int
    ) -> list[GameRow]:
        """A player's games in a server, most recently updated first (ties: newest id)."""
        ...

    async def active_games(self, guild_id: int | None = None) -> list[GameRow]:
        """Active games (of one server, or all), by id."""
        ...

    async def find_games(
        self,
        *,
        guild_id: int | None = None,
        player_id: int | None = None,
        to_move_id: int | None = None,
        active_only: bool = False,
        after: tuple[int, int] | None = None,
        limit: int,
        shards: ShardFilter | None = None,
    ) -> list[GameRow]:
        """One page of games matching every filter given, most recently updated first
        (``updated_at`` DESC, then ``id`` DESC).  ``player_id``: either seat;
        ``to_move_id``: active games that user is to move in.  ``after`` is the
        ``(updated_at, id)`` of the last game of the previous page (keyset pagination);
        ``shards``: games in servers on those shards only."""
        ...

    async def due_games(
        self, now: int, limit: int, shards: ShardFilter | None = None
    ) -> list[GameRow]:
        """Active games whose deadline or next reminder is at or before ``now``, by id (of the
        servers in ``shards`` only, if given)."""
        ...

    async def next_times(self) -> list[int]:
        """The earliest pending deadline, reminder and challenge expiry (those that exist)."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The game's moves by ply: the source of truth for its position."""
        ...

    async def events(self, game_id: int) -> list[EventRow]:
        """The game's events (start, takebacks, endings) in the order they were added."""
        ...

    # ----- games: writes ------------------------------------------------------------------
    async def insert_game(self, new: NewGame) -> GameRow:
        """Insert an active game at version 0; raises ChannelTaken if its channel has one."""
        ...

    async def record_moves(
        self,
        row: GameRow,
        moves: Sequence[MoveRow],
        *,
        record: str,
        to_move: str | None,
        to_move_id: int | None,
        at: int,
        clock: ClockRow | None = None,
        result: ResultRow | None = None,
    ) -> GameRow:
        """Append ``moves`` (plies after the stored ones), bump the version, cache ``record``,
        ``to_move`` and ``to_move_id``, clear a pending takeback; restart the clock if
        ``clock`` is given (a new turn); finish the game as ``result`` says if given (clock
        cleared)."""
        ...

    async def finish_game(self, row: GameRow, result: ResultRow, *, at: int) -> GameRow:
        """End the game without a move (resign, time, moderation): bump the version, clear the
        side and user to move, the clock and any takeback request."""
        ...

    async def take_back(
        self,
        row: GameRow,
        from_ply: int,
        *,
        record: str,
        to_move: str | None,
        to_move_id: int | None,
        clock: ClockRow,
        at: int,
    ) -> GameRow:
        """Delete the moves from ``from_ply`` on, bump the version, cache the new ``record``,
        ``to_move`` and ``to_move_id``, restart the clock and clear the takeback request."""
        ...

    async def request_takeback(self, row: GameRow, user_id: int, at: int) -> GameRow:
        """Record a pending takeback request at the current version (no version bump)."""
        ...

    async def clear_takeback(self, row: GameRow) -> GameRow:
        """Drop the pending takeback request (declined); no version bump."""
        ...

    async def restart_clock(self, row: GameRow, clock: ClockRow) -> GameRow:
        """Replace the turn's clock (no version bump)."""
        ...

    async def mark_reminder_sent(self, row: GameRow, remind_at: int | None) -> GameRow:
        """Count one more reminder for this turn and set the next one (no version bump)."""
        ...

    async def save_cached_state(
        self, row: GameRow, record: str, to_move: str | None, to_move_id: int | None
    ) -> GameRow:
        """Rewrite the cached ``record``/``to_move``/``to_move_id`` (rebuilt from the moves;
        no version bump)."""
        ...

    async def add_event(
        self, game_id: int, at: int, kind: str, user_id: int | None, detail: str = ""
    ) -> None: ...

    # ----- ratings ------------------------------------------------------------------------
    async def lock_ratings(
        self,
        guild_id: int,
        game: str,
        user_ids: Sequence[int],
        *,
        initial: tuple[float, float],
        at: int,
    ) -> list[RatingRow]:
        """The players' rating rows in one server and game, by user id, locked until the end
        of this write block, so that two games finishing at once for one player apply one
        after the other and neither update is lost.  A player without a row is absent from
        the answer (an engine that locks rows may create one with ``initial`` ``(mu,
        sigma)`` and no games; it counts as absent for every read).  Call it before
        :meth:`next_rating_seq`."""
        ...

    async def next_rating_seq(self) -> int:
        """The next ``rating_seq`` (larger than every one committed before the players' rows
        were locked): the order a rebuild replays games in."""
        ...

    async def save_ratings(self, rows: Sequence[RatingRow]) -> None:
        """Insert or replace these rating rows."""
        ...

    async def add_rating_history(self, rows: Sequence[RatingHistoryRow]) -> None: ...

    async def leaderboard(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> list[RatingRow]:
        """One page of players with rated games, ``mu`` DESC, ``games`` DESC, ``user_id``."""
        ...

    async def rank_of(self, row: RatingRow) -> int:
        """``row``'s place (from 1) in its leaderboard's order."""
        ...

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """The player's ratings in every game of a server with rated games, best first."""
        ...

    async def rating_history(
        self, guild_id: int, user_id: int, game: str, limit: int
    ) -> list[RatingHistoryRow]:
        """The player's last ``limit`` history rows in one game, oldest first."""
        ...

    async def rating_changes(self, user_id: int, game_ids: Sequence[int]) -> list[RatingHistoryRow]:
        """The player's history rows for these games (those that changed ratings)."""
        ...

    async def rated_games_until(self, guild_id: int, game: str, user_id: int, seq: int) -> int:
        """How many rated games the player had in that server and game once the game with
        ``rating_seq`` ``seq`` was applied (for a past game's provisional mark)."""
        ...

    async def finished_games_for_player(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[GameRow]:
        """The player's last finished or aborted games in a server, newest first."""
        ...

    async def reset_ratings(self, guild_id: int, game: str) -> int:
        """Delete a server's ratings and history for one game and mark its rated games
        unrated (``reset``), so a rebuild does not bring them back.  Returns how many
        players had a rating."""
        ...

    async def all_ratings(self) -> list[RatingRow]:
        """Every rating row with rated games, by server, game and user."""
        ...

    async def rated_results(self) -> list[RatedResult]:
        """Every game that changed ratings, in ``rating_seq`` order (for a rebuild)."""
        ...

    # ----- turn claims (migration 5) --------------------------------------------------------
    async def claim_turn(
        self, game_id: int, version: int, claimant: str, now: int, until: int
    ) -> bool:
        """Claim the turn of the active game ``game_id`` at ``version`` for ``claimant`` (a
        process token) until ``until``; True if this call holds the claim now.

        One conditional update, so of several processes (or tasks) claiming at once exactly
        one wins: it succeeds only if the game is still active at ``version`` and nobody else
        holds an unexpired claim for that version.  A claim lapses by itself when the game's
        version changes (the claimed move was played) or at ``until`` (its process died);
        claiming again with the same ``claimant`` renews it.  Not versioned otherwise: the
        game row's version and clock are left as they are."""
        ...

    async def release_turn(self, game_id: int, claimant: str) -> None:
        """Drop ``claimant``'s claim on the game, if it still holds one (nothing otherwise)."""
        ...

    # ----- audit --------------------------------------------------------------------------
    async def add_audit(
        self,
        *,
        guild_id: int,
        actor_id: int,
        action: str,
        at: int,
        game_id: int | None = None,
        target_id: int | None = None,
        detail: str = "",
    ) -> None: ...

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        """A server's audit entries, newest first."""
        ...


class Store(Protocol):
    """An open database: ``async with await open_store(target) as store`` or ``close()``."""

    @property
    def target(self) -> str:
        """What was opened, for messages: a file path, or a URL without its password."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc: object) -> None: ...

    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only transaction over one consistent snapshot."""
        ...

    def write(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction holding the write lock; committed on success, else rolled back."""
        ...

    async def close(self, timeout: float | None = None) -> None:
        """Let a transaction in progress finish (at most ``timeout`` seconds), then close.
        Idempotent and safe to call concurrently."""
        ...

    async def schema_version(self) -> int:
        """The migration number the database is at."""
        ...

    async def export_all(self) -> StoreContents:
        """Every row of every table with its ids, from one consistent snapshot, each table
        in key order (settings by guild; challenges, games, events, audit by id; moves by
        game and ply)."""
        ...

    async def import_all(self, contents: StoreContents) -> None:
        """Insert every row of ``contents`` with its own ids, in one transaction, into a store
        that holds no rows yet (else :class:`~bot.store.errors.StoreNotEmpty`, nothing
        written).  Engines with id sequences move them past the largest id imported, so
        later inserts do not collide."""
        ...

    async def replace_ratings(
        self,
        ratings: Sequence[RatingRow],
        history: Sequence[RatingHistoryRow],
        *,
        expect: tuple[int, int | None],
    ) -> None:
        """Replace every rating and history row (``crosspath ratings rebuild``), in one
        transaction, if the games that changed ratings are still ``expect`` (their count and
        last ``rating_seq``); else :class:`~bot.store.errors.WriteConflict`, nothing written."""
        ...

    async def backup(self, target: str | Path) -> None:
        """Copy the live database to ``target`` (a new file); engines without a built-in
        backup raise :class:`~bot.store.errors.BackupNotSupported` saying what to use."""
        ...
