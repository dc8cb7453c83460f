"""Tournaments and leagues on the store: create, register, start, play, withdraw, standings.

The pairing and standings logic is the pure core in :mod:`.tournaments`; this module keeps
its rows in the store and runs it at the right moments.

Exactly once.  Every change to a tournament runs in one store write block that first reads
the tournament's row with ``lock`` (PostgreSQL: ``SELECT … FOR UPDATE``; SQLite: the single
writer's ``BEGIN IMMEDIATE``), so changes to one tournament are serialised on that row.  A
tournament game ends inside the write block that records its ending (a move, resignation,
time, moderation, adjudication: all of them go through ``ServiceCore._game_ended``); that
same block locks the tournament, records the pairing's result, asks the core what to pair
next and creates those games.  When two processes end the last two games of a Swiss round at
the same moment, the second waits for the first's lock, then (READ COMMITTED) reads the first
one's committed result and is the one that sees the round complete: the next round is made
once, in a transaction that commits with the game that completed the round or not at all, so
a crash never leaves half a round.  The keys back this up: pairings are unique per
(tournament, division, round, table, game) and rounds per (tournament, round), so a second
creation could only fail and roll back.

Threads.  A round's games are created at once, each on a provisional channel id of its own
(:data:`PROVISIONAL_CHANNEL_BASE` and up, above any Discord snowflake for a century); the
adapter makes one thread per game and calls :meth:`TournamentPlay.attach_game_channel`.
:meth:`TournamentPlay.games_awaiting_channel` lists the games still waiting, so an adapter
that crashed mid-way finishes the job after a restart.  Tests may play on the provisional ids.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import cast

from rules import UnknownGame, game_class, new_game

from ..store import (
    ChannelTaken,
    EntrantRow,
    GameRow,
    NewGame,
    PairingRow,
    RoundRow,
    ShardFilter,
    TournamentRow,
    Tx,
)
from . import convert
from .challenges import MAX_NAME, new_web_token
from .checks import (
    MAX_GAME_NAME,
    check_bool,
    check_id,
    check_limit,
    check_optional_id,
    check_shards,
    check_text,
    check_time_control,
    is_int,
    quote,
)
from .convert import from_us, maybe_dt, to_us
from .core import ServiceCore, board_size
from .engines import warms_engines
from .errors import ChannelBusy, InvalidInput, NoGameHere, NotAPlayer, PermissionDenied
from .ratings.model import INITIAL_MU, display_rating
from .timebank import first_clock, stored, time_control_from
from .tournament_types import (
    FORMATS,
    PairingInfo,
    StandingRow,
    TournamentFormat,
    TournamentInfo,
    TournamentStatus,
    TournamentUpdate,
)
from .tournaments import (
    Division,
    Entrant,
    Format,
    LeagueMember,
    Outcome,
    Pairing,
    Reason,
    Result,
    TournamentConfig,
    TournamentError,
    TournamentState,
    Withdrawal,
    forfeits_for,
    is_finished,
    max_swiss_rounds,
    next_pairings,
    next_season,
    split_divisions,
    standings,
)
from .tournaments.league import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from .tournaments.model import MAX_BEST_OF, MAX_ENTRANTS
from .types import GameInfo, TimeControl
from .vacations import paused_until

PROVISIONAL_CHANNEL_BASE = 1 << 62
"""Channel ids from here up are the service's own, given to a tournament game until the
adapter attaches its thread.  Discord snowflakes stay below 2^62 until about 2084."""
_GAMES_PER_TOURNAMENT = 1 << 28
"""Provisional ids are ``base + tournament id * this + n`` for the tournament's n-th game."""
MAX_CREATOR_ROLES = 25
LIST_LIMIT = 100

_REASONS = {
    "connection": Reason.PLAYED,
    "draw": Reason.PLAYED,
    "resign": Reason.PLAYED,
    "time": Reason.TIME,
    "award": Reason.ADJUDICATED,
    "forfeit": Reason.FORFEIT,
}


_OUTCOMES = {o.value: o for o in Outcome}
_BY_VALUE = {r.value: r for r in Reason}
"""Stored values to members by dict: ``Outcome(value)`` costs microseconds, and a league's
table rebuilds thousands of results."""


def is_provisional(channel_id: int) -> bool:
    """Whether ``channel_id`` is one the service gave a tournament game (no thread yet)."""
    return channel_id >= PROVISIONAL_CHANNEL_BASE


class TournamentPlay(ServiceCore):
    """Tournaments and league seasons (module notes: how each round is made exactly once)."""

    # ----- creating and registering -----------------------------------------------------
    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        *,
        game: str,
        size: int | None = None,
        format: str,
        rounds: int | None = None,
        match_games: int = 1,
        time_control: TimeControl | str | None = None,
        rated: bool = True,
        max_players: int | None = None,
        min_players: int = 2,
        registration_deadline: datetime | None = None,
        division_size: int = 10,
        public: bool = False,
    ) -> TournamentInfo:
        """Open a tournament for registration in ``channel_id``.

        ``format``: ``round_robin``, ``double_round_robin``, ``swiss`` (``rounds``: default
        ⌈log₂ players⌉ + 1), ``knockout`` (``match_games``: 1, or best of an odd N) or
        ``league`` (``division_size`` players at most per division).  ``size`` defaults to
        the server's default for the game, then the game's own.  ``registration_deadline``:
        the periodic sweep starts it then (or cancels it below ``min_players``); None: the
        organiser starts it.  ``public=True``: everyone can read the channel (the adapter
        decides), so the tournament and its games may be shown on the web while the server's
        listing is on.  Raises TournamentError (InvalidInput) with the reason.
        """
        check_id(guild_id, "server id")
        check_id(channel_id, "channel id")
        check_id(organiser_id, "organiser id")
        check_text(game, "game name", MAX_GAME_NAME, TournamentError)
        if not isinstance(format, str) or format not in FORMATS:
            raise TournamentError(
                f"The format must be one of {', '.join(FORMATS)}, not {quote(format)}."
            )
        for value, what in ((size, "board size"), (rounds, "number of rounds")):
            if value is not None and not is_int(value):
                raise TournamentError(f"The {what} must be a whole number, not {quote(value)}.")
        for value, what in (
            (match_games, "match length"),
            (min_players, "minimum number of players"),
            (division_size, "division size"),
        ):
            if not is_int(value):
                raise TournamentError(f"The {what} must be a whole number, not {quote(value)}.")
        if max_players is not None and not is_int(max_players):
            raise TournamentError(
                f"The maximum number of players must be a whole number, not {quote(max_players)}."
            )
        tc = check_time_control(time_control)
        check_bool(rated, "rated option", TournamentError)
        check_bool(public, "public flag", TournamentError)
        if registration_deadline is not None and (
            not isinstance(registration_deadline, datetime) or registration_deadline.tzinfo is None
        ):
            raise TournamentError("The registration deadline must be a date and time with a zone.")
        _check_numbers(format, rounds, match_games, min_players, max_players, division_size)
        try:
            cls = game_class(game)
        except UnknownGame as exc:
            raise TournamentError(str(exc)) from exc
        now = self._now()
        if registration_deadline is not None and registration_deadline <= now:
            raise TournamentError("The registration deadline must be in the future.")
        async with self._write() as tx:
            guild = convert.settings(await tx.settings(guild_id), guild_id)
            if not guild.allows(channel_id):
                raise TournamentError(
                    "Tournaments can't be run in this channel; ask an admin which channels "
                    "allow games."
                )
            chosen = board_size(guild, cls, size, TournamentError)
            tc = tc if tc is not None else guild.default_time_control
            stamp = to_us(now)
            row = await tx.insert_tournament(
                {
                    "guild_id": guild_id,
                    "channel_id": channel_id,
                    "organiser_id": organiser_id,
                    "game": cls.name,
                    "size": chosen,
                    "format": format,
                    "status": "registration",
                    "requested_rounds": rounds,
                    "match_games": match_games,
                    **stored(tc),
                    "rated": rated,
                    "min_players": min_players,
                    "max_players": max_players,
                    "division_size": division_size,
                    "seed": self.rng.randrange(1 << 62),
                    "registration_deadline": None
                    if registration_deadline is None
                    else to_us(registration_deadline),
                    "web_token": secrets.token_hex(16),
                    "public": public,
                    "created_at": stamp,
                    "updated_at": stamp,
                }
            )
            return await self._info(tx, row)

    async def join_tournament(
        self, tournament_id: int, user_id: int, *, name: str | None = None
    ) -> TournamentInfo:
        """Register ``user_id``.  Refused once started, when full, or twice.  ``name``: the
        player's display name, kept for the web pages and their games' pages."""
        check_id(tournament_id, "tournament id")
        check_id(user_id, "user id")
        if name is not None:
            name = check_text(name, "player name", MAX_NAME, TournamentError)
        now = self._now()
        async with self._write() as tx:
            t = await self._registering(tx, tournament_id, now)
            entrants = await tx.entrants(t.id)
            if any(e.user_id == user_id for e in entrants):
                raise TournamentError("You are already registered for this tournament.")
            limit = t.max_players if t.max_players is not None else MAX_ENTRANTS
            if len(entrants) >= limit:
                raise TournamentError(f"This tournament is full ({limit} players).")
            rating = (await self._ratings_now(tx, t, [user_id]))[user_id]
            stamp = to_us(now)
            await tx.save_entrants([EntrantRow(t.id, user_id, rating, stamp, name=name)])
            t = await tx.update_tournament(t, {"updated_at": stamp})
            return await self._info(tx, t)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> TournamentInfo:
        """Unregister ``user_id`` before the start (after it, see ``withdraw_from_tournament``)."""
        check_id(tournament_id, "tournament id")
        check_id(user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self._tournament(tx, tournament_id)
            if t.status == "running":
                raise TournamentError(
                    "This tournament has started: ask the organiser to withdraw you."
                )
            if t.status != "registration":
                raise TournamentError(f"This tournament is {t.status}.")
            if not await tx.remove_entrant(t.id, user_id):
                raise TournamentError("You are not registered for this tournament.")
            t = await tx.update_tournament(t, {"updated_at": to_us(now)})
            return await self._info(tx, t)

    @warms_engines
    async def start_tournament(
        self, tournament_id: int, by_user_id: int, *, as_admin: bool = False
    ) -> TournamentInfo:
        """Close registration and create the first round's games (a round robin's: all).

        ``by_user_id`` must be the organiser, unless ``as_admin`` (the adapter checked that
        the user manages the server).  Raises TournamentError, PermissionDenied."""
        check_id(tournament_id, "tournament id")
        check_id(by_user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self._tournament(tx, tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if t.status != "registration":
                raise TournamentError(f"This tournament has already {_past(t.status)}.")
            t = await self._start(tx, t, now)
            return await self._info(tx, t)

    @warms_engines
    async def withdraw_from_tournament(
        self, tournament_id: int, user_id: int, by_user_id: int, *, as_admin: bool = False
    ) -> TournamentInfo:
        """Withdraw ``user_id`` (by themselves, the organiser, or an admin): they forfeit
        their games still open and are paired no more.  Before the start it just removes
        them.  Raises TournamentError (not in it, already withdrawn), PermissionDenied."""
        check_id(tournament_id, "tournament id")
        check_id(user_id, "user id")
        check_id(by_user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self._tournament(tx, tournament_id)
            if by_user_id != user_id:
                _check_organiser(t, by_user_id, as_admin)
            entrants = {e.user_id: e for e in await tx.entrants(t.id)}
            entrant = entrants.get(user_id)
            if entrant is None:
                raise TournamentError(f"Player {quote(user_id)} is not in this tournament.")
            if t.status == "registration":
                await tx.remove_entrant(t.id, user_id)
                t = await tx.update_tournament(t, {"updated_at": to_us(now)})
                return await self._info(tx, t)
            if t.status != "running":
                raise TournamentError(f"This tournament is {t.status}.")
            if entrant.withdrawn_round is not None:
                raise TournamentError("That player has already withdrawn.")
            pairings = await tx.pairings(t.id)
            mine = [
                p
                for p in pairings
                if p.division == (entrant.division or 1) and user_id in (p.first_id, p.second_id)
            ]
            current = max(
                (p.round for p in pairings if p.division == (entrant.division or 1)), default=0
            )
            open_games = [
                row
                for p in mine
                if p.game_id is not None and p.outcome is None
                for row in [await tx.game(p.game_id)]
                if row is not None and row.status == "active"
            ]
            engines = await self._engines_for(tx, open_games)
            await tx.save_entrants([replace(entrant, withdrawn_round=current + 1)])
            await tx.add_audit(
                guild_id=t.guild_id,
                actor_id=by_user_id,
                action="tournament_withdraw",
                at=to_us(now),
                target_id=user_id,
                detail=f"tournament {t.id}",
            )
            for row, game in zip(open_games, engines, strict=True):
                # Each ending records its forfeit and may advance the tournament (the hook).
                await self._finish(
                    tx, row, game, "forfeit", now, loser_id=user_id, actor_id=by_user_id
                )
            t = await self._tournament(tx, t.id)
            t = await self._advance(tx, t, now)
            return await self._info(tx, t)

    @warms_engines
    async def cancel_tournament(
        self, tournament_id: int, by_user_id: int, *, as_admin: bool = False
    ) -> TournamentInfo:
        """Cancel a tournament not yet finished; its games in progress are aborted."""
        check_id(tournament_id, "tournament id")
        check_id(by_user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self._tournament(tx, tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if t.status not in ("registration", "running"):
                raise TournamentError(f"This tournament is already {t.status}.")
            active = [g for g in await tx.tournament_games(t.id) if g.status == "active"]
            engines = await self._engines_for(tx, active)
            stamp = to_us(now)
            t = await tx.update_tournament(
                t, {"status": "cancelled", "updated_at": stamp, "finished_at": stamp}
            )
            for row, game in zip(active, engines, strict=True):
                await self._finish(tx, row, game, "abort", now, actor_id=by_user_id)
            await tx.add_audit(
                guild_id=t.guild_id,
                actor_id=by_user_id,
                action="tournament_cancel",
                at=stamp,
                detail=f"tournament {t.id}",
            )
            return await self._info(tx, t)

    @warms_engines
    async def adjudicate_tournament_game(
        self, game_id: int, *, winner_id: int | None, by_user_id: int, as_admin: bool = False
    ) -> GameInfo:
        """Settle a tournament game still in progress: ``winner_id`` wins, or a draw (None).
        Only the organiser (or an admin) may.  Raises NoGameHere, NotAPlayer,
        PermissionDenied, TournamentError."""
        check_id(game_id, "game id")
        check_optional_id(winner_id, "winner id")
        check_id(by_user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            row = await tx.game(game_id)
            if row is None or row.tournament_id is None:
                raise NoGameHere(f"There is no tournament game {quote(game_id)}.")
            t = await self._tournament(tx, row.tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if row.status != "active":
                raise TournamentError("That game is already over.")
            if winner_id is not None and winner_id not in (row.first_id, row.second_id):
                raise NotAPlayer("That user is not playing in this game.")
            game = await self._engine(tx, row)
            row, ended = await self._finish(
                tx,
                row,
                game,
                "award" if winner_id is not None else "draw",
                now,
                winner_id=winner_id,
                actor_id=by_user_id,
                detail="adjudicated",
            )
            await tx.add_audit(
                guild_id=row.guild_id,
                actor_id=by_user_id,
                action="tournament_adjudicate",
                at=to_us(now),
                game_id=row.id,
                target_id=winner_id,
                detail=f"tournament {t.id}",
            )
        self._remember(row.id, row.version, game)
        return ended.game

    async def set_tournament_message(self, tournament_id: int, message_id: int) -> TournamentInfo:
        """Remember the announcement message (its Join and Leave buttons act on it)."""
        check_id(tournament_id, "tournament id")
        check_id(message_id, "message id")
        async with self._write() as tx:
            t = await self._tournament(tx, tournament_id)
            t = await tx.update_tournament(t, {"message_id": message_id})
            return await self._info(tx, t)

    async def set_tournament_creator_roles(
        self, guild_id: int, role_ids: Sequence[int], actor_id: int
    ) -> tuple[int, ...]:
        """Set the roles whose members may create tournaments (Manage Server always may:
        the adapter checks that); an empty list leaves it to Manage Server alone."""
        check_id(guild_id, "server id")
        check_id(actor_id, "admin id")
        if isinstance(role_ids, str | bytes) or not isinstance(role_ids, Sequence):
            raise InvalidInput("The roles must be a list of role ids.")
        if len(role_ids) > MAX_CREATOR_ROLES:
            raise InvalidInput(f"At most {MAX_CREATOR_ROLES} roles may create tournaments.")
        roles = tuple(sorted({check_id(r, "role id") for r in role_ids}))
        async with self._write() as tx:
            await tx.set_creator_roles(guild_id, roles)
            await tx.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action="tournament_roles",
                at=to_us(self._now()),
                detail=" ".join(str(r) for r in roles),
            )
        return roles

    async def tournament_creator_roles(self, guild_id: int) -> tuple[int, ...]:
        check_id(guild_id, "server id")
        async with self.store.read() as tx:
            return tuple(await tx.creator_roles(guild_id))

    # ----- threads -----------------------------------------------------------------------
    @warms_engines
    async def attach_game_channel(self, game_id: int, channel_id: int) -> GameInfo:
        """Move a tournament game from its provisional id to its thread, once: the same id
        again changes nothing; another id is refused.  Raises NoGameHere, TournamentError,
        ChannelBusy (the thread has a game)."""
        check_id(game_id, "game id")
        check_id(channel_id, "channel id")
        if is_provisional(channel_id):
            raise TournamentError(f"Channel id {quote(channel_id)} is not a thread's id.")
        try:
            async with self._write() as tx:
                row = await tx.game(game_id)
                if row is None or row.tournament_id is None:
                    raise NoGameHere(f"There is no tournament game {quote(game_id)}.")
                game = await self._engine(tx, row)
                if row.channel_id != channel_id:
                    if not is_provisional(row.channel_id):
                        raise TournamentError("That game already has its thread.")
                    row = await tx.move_game(row, channel_id)
        except ChannelTaken as exc:
            # Raised at the write or at the end of the block (PostgreSQL sends it there).
            raise ChannelBusy("That thread already has a game in progress.") from exc
        return convert.game_info(row, game)

    @warms_engines
    async def games_awaiting_channel(self, tournament_id: int | None = None) -> list[GameInfo]:
        """Tournament games in progress still on their provisional id (no thread yet)."""
        check_optional_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            rows = await tx.games_in_channels_from(PROVISIONAL_CHANNEL_BASE, tournament_id)
            games = await self._engines_for(tx, rows)
        return [convert.game_info(r, g) for r, g in zip(rows, games, strict=True)]

    # ----- reading ---------------------------------------------------------------------------
    async def get_tournament(self, tournament_id: int) -> TournamentInfo:
        check_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            return await self._info(tx, await self._tournament(tx, tournament_id))

    async def list_tournaments(
        self, guild_id: int, *, status: str | None = None, limit: int = LIST_LIMIT
    ) -> list[TournamentInfo]:
        """A server's tournaments (of one status if given), newest first."""
        check_id(guild_id, "server id")
        check_limit(limit)
        if status is not None and status not in (
            "registration",
            "running",
            "finished",
            "cancelled",
        ):
            raise TournamentError(f"There is no tournament status {quote(status)}.")
        async with self.store.read() as tx:
            rows = await tx.tournaments_in(guild_id, status, limit)
            return [await self._info(tx, r) for r in rows]

    @warms_engines
    async def tournament_games(
        self, tournament_id: int, round: int | None = None
    ) -> list[GameInfo]:
        """The tournament's games (of one round if given), in the order they were created."""
        async with self.store.read() as tx:
            await self._round_of(tx, tournament_id, round)
            rows = await tx.tournament_games(tournament_id, round)
            games = await self._engines_for(tx, rows)
        return [convert.game_info(r, g) for r, g in zip(rows, games, strict=True)]

    async def tournament_pairings(
        self, tournament_id: int, round: int | None = None
    ) -> list[PairingInfo]:
        """The pairings made so far (of one round if given), byes included."""
        async with self.store.read() as tx:
            await self._round_of(tx, tournament_id, round)
            rows = await tx.pairings(tournament_id, round)
        return [pairing_info(p) for p in rows]

    async def tournament_standings(self, tournament_id: int) -> list[StandingRow]:
        """The table (a league's: division by division); empty before the start."""
        check_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            t = await self._tournament(tx, tournament_id)
            if t.started_at is None:
                return []
            entrants = await tx.entrants(t.id)
            pairings = await tx.pairings(t.id)
        return standings_of(t, entrants, pairings)

    # ----- the sweep ---------------------------------------------------------------------
    @warms_engines
    async def sweep_tournaments(
        self,
        now: datetime | None = None,
        *,
        shards: ShardFilter | None = None,
        limit: int = 100,
    ) -> list[TournamentUpdate]:
        """Start the tournaments whose registration deadline has passed (or cancel those it
        cannot start), and list finished ones whose podium is still unclaimed; for the
        adapter's periodic loop.  Two processes sweeping at once start each tournament once
        (the row lock); a finished one is listed until some process claims its podium."""
        if now is not None and not isinstance(now, datetime):
            raise InvalidInput(f"'now' must be a datetime, not {quote(now)}.")
        check_shards(shards)
        check_limit(limit)
        moment = now if now is not None else self._now()
        async with self.store.read() as tx:
            due = await tx.due_tournaments(to_us(moment), limit, shards)
        done: list[TournamentUpdate] = []
        for found in due:
            async with self._write() as tx:
                t = await self._tournament(tx, found.id)
                deadline = t.registration_deadline
                if t.status != "registration" or deadline is None or deadline > to_us(moment):
                    continue
                players = len(await tx.entrants(t.id))
                if players < max(2, t.min_players):
                    reason = (
                        f"Registration closed with {players} of the {max(2, t.min_players)}"
                        " players needed."
                    )
                    t = await self._cancel_unstarted(tx, t, moment)
                    done.append(TournamentUpdate("cancelled", await self._info(tx, t), reason))
                    continue
                await self._start_or_cancel(tx, t, moment, done)
        async with self.store.read() as tx:
            for t in await tx.unannounced_tournaments(limit, shards):
                done.append(TournamentUpdate("finished", await self._info(tx, t)))
        return done

    async def claim_tournament_podium(self, tournament_id: int) -> bool:
        """True for exactly one caller once the tournament has finished (whoever posts the
        podium); False before it finishes and for every later caller."""
        check_id(tournament_id, "tournament id")
        async with self._write() as tx:
            return await tx.claim_podium(tournament_id, to_us(self._now()))

    async def next_tournament_deadline(self) -> datetime | None:
        """The earliest registration deadline still to come, so a scheduler can sleep."""
        async with self.store.read() as tx:
            at = await tx.next_tournament_deadline()
        return maybe_dt(at)

    # ----- internals ---------------------------------------------------------------------
    async def _start_or_cancel(
        self, tx: Tx, t: TournamentRow, now: datetime, done: list[TournamentUpdate]
    ) -> TournamentRow:
        try:
            started = await self._start(tx, t, now)
        except TournamentError as exc:
            t = await self._cancel_unstarted(tx, t, now)
            done.append(TournamentUpdate("cancelled", await self._info(tx, t), str(exc)))
            return t
        done.append(TournamentUpdate("started", await self._info(tx, started)))
        return started

    async def _cancel_unstarted(self, tx: Tx, t: TournamentRow, now: datetime) -> TournamentRow:
        stamp = to_us(now)
        return await tx.update_tournament(
            t, {"status": "cancelled", "updated_at": stamp, "finished_at": stamp}
        )

    async def _tournament(self, tx: Tx, tournament_id: int) -> TournamentRow:
        t = await tx.tournament(tournament_id)
        if t is None:
            raise TournamentError(f"There is no tournament {quote(tournament_id)}.")
        return t

    async def _round_of(self, tx: Tx, tournament_id: int, round: int | None) -> None:
        """Refuse a bad id or round number, or a tournament that does not exist."""
        check_id(tournament_id, "tournament id")
        if round is not None:
            check_id(round, "round")
        await self._tournament(tx, tournament_id)

    async def _registering(self, tx: Tx, tournament_id: int, now: datetime) -> TournamentRow:
        t = await self._tournament(tx, tournament_id)
        if t.status != "registration":
            raise TournamentError(f"Registration is closed: this tournament has {_past(t.status)}.")
        if t.registration_deadline is not None and to_us(now) >= t.registration_deadline:
            raise TournamentError("Registration is closed: the deadline has passed.")
        return t

    async def _ratings_now(
        self, tx: Tx, t: TournamentRow, user_ids: Sequence[int]
    ) -> dict[int, float]:
        """Each player's current rating in the tournament's game (new players: the start)."""
        found = {r.user_id: r.mu for r in await tx.current_ratings(t.guild_id, t.game, user_ids)}
        return {uid: found.get(uid, INITIAL_MU) for uid in user_ids}

    async def _info(self, tx: Tx, t: TournamentRow) -> TournamentInfo:
        entrants = await tx.entrants(t.id)
        return info_of(t, entrants)

    async def _start(self, tx: Tx, t: TournamentRow, now: datetime) -> TournamentRow:
        """Fix ratings (and a league's divisions), check the field, pair the first round."""
        entrants = await tx.entrants(t.id)
        needed = max(2, t.min_players)
        if len(entrants) < needed:
            raise TournamentError(
                f"This tournament needs at least {needed} players; {len(entrants)} registered."
            )
        ratings = await self._ratings_now(tx, t, [e.user_id for e in entrants])
        entrants = [replace(e, rating=ratings[e.user_id]) for e in entrants]
        if t.format == "league":
            divisions = await self._divisions(tx, t, entrants)
            level = {pid: d.level for d in divisions for pid in d.players}
            entrants = [replace(e, division=level[e.user_id]) for e in entrants]
        states = _states(t, entrants, [], check=True)  # the options against the field
        rounds: int | None = None
        if t.format == "swiss":
            rounds = states[1].rounds_total
        elif t.format == "knockout":
            rounds = max(1, math.ceil(math.log2(len(entrants))))
        await tx.save_entrants(entrants)
        stamp = to_us(now)
        t = await tx.update_tournament(
            t, {"status": "running", "started_at": stamp, "updated_at": stamp, "rounds": rounds}
        )
        t = await self._advance(tx, t, now)
        if t.rounds is None:
            pairings = await tx.pairings(t.id)
            t = await tx.update_tournament(
                t, {"rounds": max((p.round for p in pairings), default=0)}
            )
        return t

    async def _divisions(
        self, tx: Tx, t: TournamentRow, entrants: Sequence[EntrantRow]
    ) -> tuple[Division, ...]:
        """The season's divisions: by rating in the first season, else from the last one's
        final tables with its promotions and relegations."""
        members = [LeagueMember(e.user_id, e.rating) for e in entrants]
        previous = None
        if t.league_id is not None and t.season > 1:
            previous = await tx.league_season(t.league_id, t.season - 1)
        if previous is None:
            return split_divisions(members, t.division_size)
        before = await tx.entrants(previous.id)
        levels: dict[int, list[EntrantRow]] = {}
        for e in before:
            levels.setdefault(e.division or 1, []).append(e)
        finishing = [
            [e.user_id for e in sorted(levels[k], key=lambda e: (e.final_rank or 0, e.user_id))]
            for k in sorted(levels)
        ]
        now_in = {m.player_id: m for m in members}
        returning = {e.user_id for e in before if e.user_id in now_in}
        return next_season(
            finishing,
            {pid: now_in[pid].rating for pid in returning},
            leaving={e.user_id for e in before if e.user_id not in now_in},
            joining=[m for m in members if m.player_id not in returning],
            size=t.division_size,
        )

    async def _game_ended(self, tx: Tx, row: GameRow, now: datetime) -> None:
        """A tournament game ended: record its result and pair what comes next, in the
        write block that ended it (module notes)."""
        await super()._game_ended(tx, row, now)
        if row.tournament_id is None:
            return
        t = await tx.tournament(row.tournament_id)
        pairing = await tx.pairing_of_game(row.id)
        if t is None or t.status != "running" or pairing is None or pairing.outcome is not None:
            return
        if row.status == "aborted":
            # A tournament needs a result: the game is played again, same seats (the
            # organiser adjudicates instead if they prefer).
            t, (fresh,) = await self._create_games(t, tx, [pairing], now)
            await tx.update_pairing(pairing, {"game_id": fresh.game_id})
            await tx.update_tournament(t, {"updated_at": to_us(now)})
            return
        if row.winner_id is None:
            outcome = Outcome.DRAW
        elif row.winner_id == pairing.first_id:
            outcome = Outcome.FIRST_WINS
        else:
            outcome = Outcome.SECOND_WINS
        reason = _REASONS.get(row.result_reason or "", Reason.PLAYED)
        if row.result_reason == "draw" and row.result_actor is not None:
            reason = Reason.ADJUDICATED
        await tx.update_pairing(pairing, {"outcome": outcome.value, "reason": reason.value})
        await self._advance(tx, t, now, pairing.division)

    async def _advance(
        self, tx: Tx, t: TournamentRow, now: datetime, division: int | None = None
    ) -> TournamentRow:
        """Record the forfeits withdrawals cause, create every pairing now due, and finish
        the tournament when nothing is left; ``t`` must be locked in ``tx``.  ``division``:
        only that division changed (a league's others are not rebuilt, unless it is over)."""
        if t.status != "running":
            return t
        while True:
            entrants = await tx.entrants(t.id, division)
            pairings = await tx.pairings(t.id, division=division)
            states = _states(t, entrants, pairings)
            keyed = {(p.division, f"{p.round}.{p.tbl}.{p.game_no}"): p for p in pairings}
            forfeited = False
            for division, state in states.items():
                for result in forfeits_for(state):
                    p = keyed[(division, result.pairing_id)]
                    if p.game_id is None:  # a game in progress is ended by the withdrawal
                        await tx.update_pairing(
                            p, {"outcome": result.outcome.value, "reason": result.reason.value}
                        )
                        forfeited = True
            if forfeited:
                continue
            new = [
                PairingRow(t.id, division, p.round, p.table, p.game, p.first, p.second)
                for division, state in states.items()
                for p in next_pairings(state)
            ]
            if not new:
                break
            t = await self._pair(tx, t, new, now)
        if all(is_finished(s) for s in states.values()):
            if division is not None:
                states = _states(t, await tx.entrants(t.id), await tx.pairings(t.id))
            if all(is_finished(s) for s in states.values()):
                t = await self._close(tx, t, states, now)
        return t

    async def _pair(
        self, tx: Tx, t: TournamentRow, new: list[PairingRow], now: datetime
    ) -> TournamentRow:
        """Store new pairings with their games (a new round's row first: made once)."""
        stamp = to_us(now)
        top = max(p.round for p in new)
        for number in range(t.round + 1, top + 1):
            await tx.insert_round(RoundRow(t.id, number, stamp))
        games = [p for p in new if p.second_id is not None]
        t, made = await self._create_games(t, tx, games, now)
        with_games = {(p.division, p.round, p.tbl, p.game_no): p for p in made}
        rows = [with_games.get((p.division, p.round, p.tbl, p.game_no), p) for p in new]
        await tx.insert_pairings(rows)
        return await tx.update_tournament(t, {"round": max(t.round, top), "updated_at": stamp})

    async def _create_games(
        self, t: TournamentRow, tx: Tx, pairings: Sequence[PairingRow], now: datetime
    ) -> tuple[TournamentRow, list[PairingRow]]:
        """A game for each pairing, first seat first, on provisional channel ids."""
        stamp = to_us(now)
        tc = time_control_from(t)
        made = []
        names = player_names(await tx.entrants(t.id)) if t.public else {}
        base = PROVISIONAL_CHANNEL_BASE + t.id * _GAMES_PER_TOURNAMENT + t.games_made
        for n, p in enumerate(pairings, start=1):
            assert p.second_id is not None
            game = new_game(t.game, t.size)
            row = await tx.insert_game(
                NewGame(
                    guild_id=t.guild_id,
                    channel_id=base + n,
                    game=t.game,
                    size=t.size,
                    first_id=p.first_id,
                    second_id=p.second_id,
                    record=game.record(),
                    to_move=game.to_move,
                    to_move_id=p.first_id,
                    **stored(tc),
                    clock=first_clock(
                        tc, stamp, await paused_until(tx, (p.first_id, p.second_id), stamp)
                    ),
                    challenge_id=None,
                    created_at=stamp,
                    rated=t.rated,
                    tournament_id=t.id,
                    public=t.public,
                    web_token=new_web_token() if t.public else None,
                    first_name=names.get(p.first_id),
                    second_name=names.get(p.second_id),
                )
            )
            await tx.add_event(row.id, stamp, "started", None, f"tournament {t.id}")
            made.append(replace(p, game_id=row.id))
        if made:
            t = await tx.update_tournament(t, {"games_made": t.games_made + len(made)})
        return t, made

    async def _close(
        self, tx: Tx, t: TournamentRow, states: dict[int, TournamentState], now: datetime
    ) -> TournamentRow:
        """Finish: keep each player's final place; a league opens its next season."""
        entrants = {e.user_id: e for e in await tx.entrants(t.id)}
        final = [replace(entrants[row.user_id], final_rank=row.rank) for row in table(t, states)]
        await tx.save_entrants(final)
        stamp = to_us(now)
        t = await tx.update_tournament(
            t, {"status": "finished", "finished_at": stamp, "updated_at": stamp}
        )
        if t.format == "league":
            await self._next_season(tx, t, list(entrants.values()), now)
        return t

    async def _next_season(
        self, tx: Tx, t: TournamentRow, entrants: list[EntrantRow], now: datetime
    ) -> TournamentRow:
        """The league's next season, open for registration with everyone who stayed."""
        stamp = to_us(now)
        deadline = None
        if t.registration_deadline is not None and t.started_at is not None:
            deadline = stamp + max(t.registration_deadline - t.created_at, 60_000_000)
        fields = {
            c: getattr(t, c)
            for c in (
                "guild_id",
                "channel_id",
                "organiser_id",
                "game",
                "size",
                "format",
                "match_games",
                "per_move",
                "reminders",
                "bank_start",
                "bank_increment",
                "bank_cap",
                "rated",
                "min_players",
                "max_players",
                "division_size",
                "public",
            )
        }
        season = await tx.insert_tournament(
            {
                **fields,
                "status": "registration",
                "seed": self.rng.randrange(1 << 62),
                "registration_deadline": deadline,
                "league_id": t.league_id if t.league_id is not None else t.id,
                "season": t.season + 1,
                "web_token": secrets.token_hex(16),
                "created_at": stamp,
                "updated_at": stamp,
            }
        )
        staying = [e for e in entrants if e.withdrawn_round is None]
        await tx.save_entrants(
            [EntrantRow(season.id, e.user_id, e.rating, e.joined_at, name=e.name) for e in staying]
        )
        return season


# ----- pure helpers ------------------------------------------------------------------------


def _check_numbers(
    format: str,
    rounds: int | None,
    match_games: int,
    min_players: int,
    max_players: int | None,
    division_size: int,
) -> None:
    """Refuse options no tournament of ``format`` can run with, before anything is stored."""
    if min_players < 2:
        raise TournamentError("A tournament needs at least two players (minimum 2 or more).")
    if min_players > MAX_ENTRANTS:
        raise TournamentError(
            f"A tournament takes at most {MAX_ENTRANTS} players, so its minimum cannot be"
            f" {quote(min_players)}."
        )
    if max_players is not None:
        if max_players < 2:
            raise TournamentError("A tournament needs room for at least two players.")
        if max_players > MAX_ENTRANTS:
            raise TournamentError(f"A tournament takes at most {MAX_ENTRANTS} players.")
        if max_players < min_players:
            raise TournamentError("The maximum number of players is below the minimum.")
    if rounds is not None:
        if format != "swiss":
            raise TournamentError("Only a Swiss has a chosen number of rounds.")
        if rounds < 1:
            raise TournamentError(f"A Swiss has at least one round, not {quote(rounds)}.")
        if rounds > max_swiss_rounds(MAX_ENTRANTS):  # (no field can play more: no rematches)
            raise TournamentError(
                f"A Swiss has at most {max_swiss_rounds(MAX_ENTRANTS)} rounds (with the largest"
                f" field of {MAX_ENTRANTS} players), not {quote(rounds)}."
            )
        if max_players is not None and rounds > max_swiss_rounds(max_players):
            raise TournamentError(
                f"A Swiss of at most {max_players} players can have at most "
                f"{max_swiss_rounds(max_players)} rounds, not {quote(rounds)}."
            )
    if match_games != 1 and format != "knockout":
        raise TournamentError("Only a knockout has matches of several games.")
    if match_games < 1 or match_games % 2 == 0 or match_games > MAX_BEST_OF:
        raise TournamentError(
            f"A knockout match is best of an odd number of games from 1 to {MAX_BEST_OF}, "
            f"not {quote(match_games)}."
        )
    if not MIN_DIVISION_SIZE <= division_size <= MAX_DIVISION_SIZE:
        raise TournamentError(
            f"A division holds {MIN_DIVISION_SIZE} to {MAX_DIVISION_SIZE} players, "
            f"not {quote(division_size)}."
        )


def _check_organiser(t: TournamentRow, user_id: int, as_admin: bool) -> None:
    if not as_admin and user_id != t.organiser_id:
        raise PermissionDenied("Only the tournament's organiser (or a server admin) can do that.")


def _past(status: str) -> str:
    return {"running": "started", "finished": "finished", "cancelled": "been cancelled"}.get(
        status, status
    )


def _config(t: TournamentRow) -> TournamentConfig:
    if t.format == "swiss":
        return TournamentConfig(Format.SWISS, rounds=t.requested_rounds, seed=t.seed)
    if t.format == "knockout":
        return TournamentConfig(Format.KNOCKOUT, best_of=t.match_games, seed=t.seed)
    cycles = 2 if t.format == "double_round_robin" else 1
    return TournamentConfig(Format.ROUND_ROBIN, cycles=cycles, seed=t.seed)


def _states(
    t: TournamentRow,
    entrants: Sequence[EntrantRow],
    pairings: Sequence[PairingRow],
    *,
    check: bool = False,
) -> dict[int, TournamentState]:
    """Each division's state for the pure core (one division, 1, outside leagues).
    ``check``: validate it (the options against the field, before the start; later the
    rows are this module's own, written under the tournament's lock)."""
    config = _config(t)
    by_division, paired = _by_division(entrants, pairings)
    out = {}
    for level in sorted(by_division):
        state = _state(config, by_division[level], paired.get(level, ()))
        out[level] = state.validated() if check else state
    return out


def _by_division(
    entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> tuple[dict[int, list[EntrantRow]], dict[int, list[PairingRow]]]:
    by_division: dict[int, list[EntrantRow]] = {}
    for e in entrants:
        by_division.setdefault(e.division or 1, []).append(e)
    paired: dict[int, list[PairingRow]] = {}
    for p in pairings:
        paired.setdefault(p.division, []).append(p)
    return by_division, paired


def _state(
    config: TournamentConfig, entrants: Sequence[EntrantRow], rows: Sequence[PairingRow]
) -> TournamentState:
    """One division's state from its entrants and pairings."""
    return TournamentState(
        config,
        tuple(Entrant(e.user_id, e.rating) for e in entrants),
        tuple(Pairing(p.round, p.tbl, p.first_id, p.second_id, p.game_no) for p in rows),
        tuple(
            Result(f"{p.round}.{p.tbl}.{p.game_no}", _OUTCOMES[p.outcome], _BY_VALUE[p.reason])
            for p in rows
            if p.outcome is not None and p.reason is not None
        ),
        tuple(
            Withdrawal(e.user_id, e.withdrawn_round)
            for e in entrants
            if e.withdrawn_round is not None
        ),
    )


def table(t: TournamentRow, states: dict[int, TournamentState]) -> list[StandingRow]:
    """The standings of every division, top division first."""
    out = []
    for division, state in states.items():
        out.extend(_division_rows(t.format, division, state))
    return out


def _division_rows(format: str, division: int, state: TournamentState) -> list[StandingRow]:
    out = []
    left = _games_left(state)
    for row in standings(state):
        if format == "swiss":
            tiebreaks = {
                "buchholz_cut1": row.buchholz_cut1,
                "buchholz": row.buchholz,
                "sonneborn_berger": row.sonneborn_berger,
                "head_to_head": row.head_to_head,
            }
        elif format == "knockout":
            tiebreaks = {"rating": shown_rating(row.rating)}
        else:
            tiebreaks = {
                "sonneborn_berger": row.sonneborn_berger,
                "head_to_head": row.head_to_head,
                "wins": float(row.wins),
                "rating": shown_rating(row.rating),
            }
        out.append(
            StandingRow(
                user_id=row.player_id,
                rank=row.rank,
                points=row.points,
                tiebreaks=tiebreaks,
                games=row.games,
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
                byes=row.byes,
                games_left=left.get(row.player_id, 0),
                rating=row.rating,
                withdrawn=row.withdrawn,
                division=division,
            )
        )
    return out


@lru_cache(maxsize=4096)
def _division_table(
    format: str,
    config: TournamentConfig,
    division: int,
    entrants: tuple[EntrantRow, ...],
    pairings: tuple[PairingRow, ...],
) -> tuple[StandingRow, ...]:
    """One division's rows, remembered by everything they depend on (the format, the
    options, the division's rows as stored): a result changes one division of a league,
    so reading its table again rebuilds that one and reuses the rest.  Rows are frozen,
    so a remembered row is shared safely; 4096 divisions bound the memory."""
    return tuple(_division_rows(format, division, _state(config, entrants, pairings)))


def _games_left(state: TournamentState) -> dict[int, int]:
    left: dict[int, int] = {}
    for p in state.open_pairings():
        for pid in p.players():
            left[pid] = left.get(pid, 0) + 1
    if state.config.format is Format.SWISS and not is_finished(state):
        to_pair = max(0, state.rounds_total - state.current_round())
        withdrawn = state.withdrawn()
        for e in state.entrants:
            if e.player_id not in withdrawn:
                left[e.player_id] = left.get(e.player_id, 0) + to_pair
    return left


def pairing_info(p: PairingRow) -> PairingInfo:
    return PairingInfo(
        p.round,
        p.division,
        p.tbl,
        p.game_no,
        p.first_id,
        p.second_id,
        p.game_id,
        p.outcome,
        p.reason,
    )


def standings_of(
    t: TournamentRow, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> list[StandingRow]:
    """The table from stored rows (empty before the start)."""
    if t.started_at is None:
        return []
    config = _config(t)
    by_division, paired = _by_division(entrants, pairings)
    out: list[StandingRow] = []
    for level in sorted(by_division):
        rows = (tuple(by_division[level]), tuple(paired.get(level, ())))
        out.extend(_division_table(t.format, config, level, *rows))
    return out


def player_names(entrants: Sequence[EntrantRow]) -> dict[int, str]:
    """Each player's name for the web: the display name given when they joined, else
    ``Player N`` by the order they joined (never a user id, which would identify them)."""
    return {e.user_id: e.name if e.name else f"Player {n}" for n, e in enumerate(entrants, start=1)}


def info_of(t: TournamentRow, entrants: Sequence[EntrantRow]) -> TournamentInfo:
    return TournamentInfo(
        id=t.id,
        guild_id=t.guild_id,
        channel_id=t.channel_id,
        organiser_id=t.organiser_id,
        game=t.game,
        title=game_class(t.game).title,
        size=t.size,
        format=cast(TournamentFormat, t.format),
        status=cast(TournamentStatus, t.status),
        round=t.round,
        rounds=t.rounds,
        requested_rounds=t.requested_rounds,
        match_games=t.match_games,
        time_control=time_control_from(t),
        rated=t.rated,
        min_players=t.min_players,
        max_players=t.max_players,
        division_size=t.division_size,
        registration_deadline=maybe_dt(t.registration_deadline),
        player_ids=tuple(e.user_id for e in entrants),
        withdrawn_ids=tuple(e.user_id for e in entrants if e.withdrawn_round is not None),
        league_id=t.league_id,
        season=t.season,
        message_id=t.message_id,
        web_token=t.web_token,
        public=t.public,
        version=t.version,
        created_at=from_us(t.created_at),
        started_at=maybe_dt(t.started_at),
        finished_at=maybe_dt(t.finished_at),
    )


__all__ = ["PROVISIONAL_CHANNEL_BASE", "TournamentPlay", "is_provisional", "player_names"]


def shown_rating(mu: float) -> float:
    """A rating at the start as the leaderboard shows ratings (1500 for a new player), not
    openskill's raw mu (25): the same number everywhere a player reads it.  Monotone in mu,
    so the order it breaks ties in is unchanged."""
    return float(round(display_rating(mu)))
