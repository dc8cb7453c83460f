"""Tournaments and leagues on the store: create, register, start, play, withdraw, standings.

The pairing and standings logic is the pure core in :mod:`.tournaments`; this module keeps
its rows in the store and runs it at the right moments.

Exactly once.  Every change to a tournament runs in one store write block that first reads
the tournament's row with ``lock`` (PostgreSQL: ``SELECT … FOR UPDATE``; SQLite: the single
writer's ``BEGIN IMMEDIATE``), so changes to one tournament are serialised on that row.  A
tournament game ends inside the write block that records its ending (a move, resignation,
time, moderation, adjudication: all of them run the core's game-end hook,
:meth:`.rounds.Rounds.game_ended`); that same block locks the tournament, records the
pairing's result, asks the core what to pair next and creates those games.
When two processes end the last two games of a Swiss round at
the same moment, the second waits for the first's lock, then (READ COMMITTED) reads the first
one's committed result and is the one that sees the round complete: the next round is made
once, in a transaction that commits with the game that completed the round or not at all, so
a crash never leaves half a round.  The keys back this up: pairings are unique per
(tournament, division, round, table, game) and rounds per (tournament, round), so a second
creation could only fail and roll back.

Threads.  A round's games are created at once, each on a provisional channel id of its own
(:data:`PROVISIONAL_CHANNEL_BASE` and up, above any Discord snowflake for a century); the
adapter makes one thread per game and calls :meth:`Tournaments.attach_game_channel`.
:meth:`Tournaments.games_awaiting_channel` lists the games still waiting, so an adapter
that crashed mid-way finishes the job after a restart.  Tests may play on the provisional ids.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from rules import UnknownGame, game_class
from rules.errors import N_, N_plural, Wording

from ...store import (
    ChannelTaken,
    EntrantRow,
    ShardFilter,
)
from .. import convert
from ..challenges import MAX_NAME
from ..checks import (
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
from ..clocks.timebank import stored
from ..clocks.types import TimeControl
from ..convert import maybe_dt, to_us
from ..core import Feature, ServiceCore, board_size
from ..engines import warms_engines
from ..errors import ChannelBusy, InvalidInput, NoGameHere, NotAPlayer
from ..types import GameInfo
from . import (
    TournamentError,
)
from .model import MAX_ENTRANTS
from .rounds import Rounds
from .tables import (
    ALREADY,
    LIST_LIMIT,
    MAX_CREATOR_ROLES,
    NOW,
    PROVISIONAL_CHANNEL_BASE,
    _check_numbers,
    _check_organiser,
    is_provisional,
    pairing_info,
    standings_of,
    status_sentence,
)
from .types import (
    FORMATS,
    PairingInfo,
    StandingRow,
    TournamentInfo,
    TournamentUpdate,
)


class Tournaments(Feature):
    """Tournaments and league seasons (module notes: how each round is made exactly once)."""

    def __init__(self, core: ServiceCore) -> None:
        super().__init__(core)
        self.rounds = Rounds(core)
        # A tournament game's end records its result and pairs what comes next in the same
        # transaction: the core runs this hook inside every write block that ends a game.
        core.on_game_end(self.rounds.game_ended)

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
                N_("The format must be one of {formats}, not {format}."),
                formats=", ".join(FORMATS),
                format=quote(format),
            )
        # One whole sentence per option, so that each language words it as a whole.
        for value, optional, sentence in (
            (size, True, N_("The board size must be a whole number, not {value}.")),
            (rounds, True, N_("The number of rounds must be a whole number, not {value}.")),
            (match_games, False, N_("The match length must be a whole number, not {value}.")),
            (
                min_players,
                False,
                N_("The minimum number of players must be a whole number, not {value}."),
            ),
            (division_size, False, N_("The division size must be a whole number, not {value}.")),
        ):
            if not (optional and value is None) and not is_int(value):
                raise TournamentError(sentence, value=quote(value))
        if max_players is not None and not is_int(max_players):
            raise TournamentError(
                N_("The maximum number of players must be a whole number, not {max_players}."),
                max_players=quote(max_players),
            )
        tc = check_time_control(time_control)
        check_bool(rated, "rated option", TournamentError)
        check_bool(public, "public flag", TournamentError)
        if registration_deadline is not None and (
            not isinstance(registration_deadline, datetime) or registration_deadline.tzinfo is None
        ):
            raise TournamentError(
                N_("The registration deadline must be a date and time with a zone.")
            )
        _check_numbers(format, rounds, match_games, min_players, max_players, division_size)
        try:
            cls = game_class(game)
        except UnknownGame as exc:
            raise TournamentError(exc.wording) from exc
        now = self._now()
        if registration_deadline is not None and registration_deadline <= now:
            raise TournamentError(N_("The registration deadline must be in the future."))
        async with self._write() as tx:
            guild = convert.settings(await tx.moderation.settings(guild_id), guild_id)
            if not guild.allows(channel_id):
                raise TournamentError(
                    N_(
                        "Tournaments can't be run in this channel; ask an admin which channels "
                        "allow games."
                    )
                )
            chosen = board_size(guild, cls, size, TournamentError)
            tc = tc if tc is not None else guild.default_time_control
            stamp = to_us(now)
            row = await tx.tournaments.insert_tournament(
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
            return await self.rounds.info(tx, row)

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
            t = await self.rounds.registering(tx, tournament_id, now)
            entrants = await tx.tournaments.entrants(t.id)
            if any(e.user_id == user_id for e in entrants):
                raise TournamentError(N_("You are already registered for this tournament."))
            limit = t.max_players if t.max_players is not None else MAX_ENTRANTS
            if len(entrants) >= limit:
                raise TournamentError(N_("This tournament is full ({limit} players)."), limit=limit)
            rating = (await self.rounds.ratings_now(tx, t, [user_id]))[user_id]
            stamp = to_us(now)
            await tx.tournaments.save_entrants(
                [EntrantRow(t.id, user_id, rating, stamp, name=name)]
            )
            t = await tx.tournaments.update_tournament(t, {"updated_at": stamp})
            return await self.rounds.info(tx, t)

    async def leave_tournament(self, tournament_id: int, user_id: int) -> TournamentInfo:
        """Unregister ``user_id`` before the start (after it, see ``withdraw_from_tournament``)."""
        check_id(tournament_id, "tournament id")
        check_id(user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self.rounds.tournament(tx, tournament_id)
            if t.status == "running":
                raise TournamentError(
                    N_("This tournament has started: ask the organiser to withdraw you.")
                )
            if t.status != "registration":
                raise TournamentError(status_sentence(t.status, NOW))
            if not await tx.tournaments.remove_entrant(t.id, user_id):
                raise TournamentError(N_("You are not registered for this tournament."))
            t = await tx.tournaments.update_tournament(t, {"updated_at": to_us(now)})
            return await self.rounds.info(tx, t)

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
            t = await self.rounds.tournament(tx, tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if t.status != "registration":
                raise TournamentError(status_sentence(t.status, ALREADY))
            t = await self.rounds.start(tx, t, now)
            info = await self.rounds.info(tx, t)
            more = bool(await tx.tournaments.pending_pairings(t.id, 1))
        if more and await self.create_pending_games(tournament_id, now):
            return await self.get_tournament(tournament_id)
        return info

    async def create_pending_games(self, tournament_id: int, now: datetime | None = None) -> int:
        """Create the games of a large start that its first transaction left for later, one
        short transaction per :data:`~.rounds.GAME_BATCH` games (also resumed by the sweep
        after an interruption); how many were created (0 for a tournament with none left).
        Raises TournamentError for a tournament that does not exist."""
        check_id(tournament_id, "tournament id")
        if now is not None and not isinstance(now, datetime):
            raise InvalidInput(f"'now' must be a datetime, not {quote(now)}.")
        now = now if now is not None else self._now()
        made = 0
        while True:
            async with self._write() as tx:
                t = await self.rounds.tournament(tx, tournament_id)
                batch = await self.rounds.create_pending(tx, t, now, self.rounds.batch)
            made += batch
            if batch < self.rounds.batch:
                return made

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
            t = await self.rounds.tournament(tx, tournament_id)
            if by_user_id != user_id:
                _check_organiser(t, by_user_id, as_admin)
            entrants = {e.user_id: e for e in await tx.tournaments.entrants(t.id)}
            entrant = entrants.get(user_id)
            if entrant is None:
                raise TournamentError(
                    N_("Player {user_id} is not in this tournament."), user_id=quote(user_id)
                )
            if t.status == "registration":
                await tx.tournaments.remove_entrant(t.id, user_id)
                t = await tx.tournaments.update_tournament(t, {"updated_at": to_us(now)})
                return await self.rounds.info(tx, t)
            if t.status != "running":
                raise TournamentError(status_sentence(t.status, NOW))
            if entrant.withdrawn_round is not None:
                raise TournamentError(N_("That player has already withdrawn."))
            pairings = await tx.tournaments.pairings(t.id)
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
                for row in [await tx.games.game(p.game_id)]
                if row is not None and row.status == "active"
            ]
            engines = await self._engines_for(tx, open_games)
            await tx.tournaments.save_entrants([replace(entrant, withdrawn_round=current + 1)])
            await tx.moderation.add_audit(
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
            t = await self.rounds.tournament(tx, t.id)
            t = await self.rounds.advance(tx, t, now)
            return await self.rounds.info(tx, t)

    @warms_engines
    async def cancel_tournament(
        self, tournament_id: int, by_user_id: int, *, as_admin: bool = False
    ) -> TournamentInfo:
        """Cancel a tournament not yet finished; its games in progress are aborted."""
        check_id(tournament_id, "tournament id")
        check_id(by_user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            t = await self.rounds.tournament(tx, tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if t.status not in ("registration", "running"):
                raise TournamentError(status_sentence(t.status, ALREADY))
            active = [
                g for g in await tx.tournaments.tournament_games(t.id) if g.status == "active"
            ]
            engines = await self._engines_for(tx, active)
            stamp = to_us(now)
            t = await tx.tournaments.update_tournament(
                t, {"status": "cancelled", "updated_at": stamp, "finished_at": stamp}
            )
            for row, game in zip(active, engines, strict=True):
                await self._finish(tx, row, game, "abort", now, actor_id=by_user_id)
            await tx.moderation.add_audit(
                guild_id=t.guild_id,
                actor_id=by_user_id,
                action="tournament_cancel",
                at=stamp,
                detail=f"tournament {t.id}",
            )
            return await self.rounds.info(tx, t)

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
            row = await tx.games.game(game_id)
            if row is None or row.tournament_id is None:
                raise NoGameHere(
                    N_("There is no tournament game {game_id}."), game_id=quote(game_id)
                )
            t = await self.rounds.tournament(tx, row.tournament_id)
            _check_organiser(t, by_user_id, as_admin)
            if row.status != "active":
                raise TournamentError(N_("That game is already over."))
            if winner_id is not None and winner_id not in (row.first_id, row.second_id):
                raise NotAPlayer(N_("That user is not playing in this game."))
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
            await tx.moderation.add_audit(
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
            t = await self.rounds.tournament(tx, tournament_id)
            t = await tx.tournaments.update_tournament(t, {"message_id": message_id})
            return await self.rounds.info(tx, t)

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
            raise InvalidInput(
                N_("At most {most} roles may create tournaments."),
                most=MAX_CREATOR_ROLES,
            )
        roles = tuple(sorted({check_id(r, "role id") for r in role_ids}))
        async with self._write() as tx:
            await tx.moderation.set_creator_roles(guild_id, roles)
            await tx.moderation.add_audit(
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
            return tuple(await tx.moderation.creator_roles(guild_id))

    # ----- threads -----------------------------------------------------------------------
    @warms_engines
    async def attach_game_channel(self, game_id: int, channel_id: int) -> GameInfo:
        """Move a tournament game from its provisional id to its thread, once: the same id
        again changes nothing; another id is refused.  Raises NoGameHere, TournamentError,
        ChannelBusy (the thread has a game)."""
        check_id(game_id, "game id")
        check_id(channel_id, "channel id")
        if is_provisional(channel_id):
            raise TournamentError(
                "Channel id {channel_id} is not a thread's id.", channel_id=quote(channel_id)
            )
        try:
            async with self._write() as tx:
                row = await tx.games.game(game_id)
                if row is None or row.tournament_id is None:
                    raise NoGameHere(
                        N_("There is no tournament game {game_id}."), game_id=quote(game_id)
                    )
                game = await self._engine(tx, row)
                if row.channel_id != channel_id:
                    if not is_provisional(row.channel_id):
                        raise TournamentError(N_("That game already has its thread."))
                    row = await tx.tournaments.move_game(row, channel_id)
        except ChannelTaken as exc:
            # Raised at the write or at the end of the block (PostgreSQL sends it there).
            raise ChannelBusy(N_("That thread already has a game in progress.")) from exc
        return convert.game_info(row, game)

    @warms_engines
    async def games_awaiting_channel(self, tournament_id: int | None = None) -> list[GameInfo]:
        """Tournament games in progress still on their provisional id (no thread yet)."""
        check_optional_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            rows = await tx.tournaments.games_in_channels_from(
                PROVISIONAL_CHANNEL_BASE, tournament_id
            )
            games = await self._engines_for(tx, rows)
        return [convert.game_info(r, g) for r, g in zip(rows, games, strict=True)]

    # ----- reading ---------------------------------------------------------------------------
    async def get_tournament(self, tournament_id: int) -> TournamentInfo:
        check_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            return await self.rounds.info(tx, await self.rounds.tournament(tx, tournament_id))

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
            raise TournamentError("There is no tournament status {status}.", status=quote(status))
        async with self.store.read() as tx:
            rows = await tx.tournaments.tournaments_in(guild_id, status, limit)
            return [await self.rounds.info(tx, r) for r in rows]

    @warms_engines
    async def tournament_games(
        self, tournament_id: int, round: int | None = None
    ) -> list[GameInfo]:
        """The tournament's games (of one round if given), in the order they were created."""
        async with self.store.read() as tx:
            await self.rounds.round_of(tx, tournament_id, round)
            rows = await tx.tournaments.tournament_games(tournament_id, round)
            games = await self._engines_for(tx, rows)
        return [convert.game_info(r, g) for r, g in zip(rows, games, strict=True)]

    async def tournament_pairings(
        self, tournament_id: int, round: int | None = None
    ) -> list[PairingInfo]:
        """The pairings made so far (of one round if given), byes included."""
        async with self.store.read() as tx:
            await self.rounds.round_of(tx, tournament_id, round)
            rows = await tx.tournaments.pairings(tournament_id, round)
        return [pairing_info(p) for p in rows]

    async def tournament_standings(self, tournament_id: int) -> list[StandingRow]:
        """The table (a league's: division by division); empty before the start."""
        check_id(tournament_id, "tournament id")
        async with self.store.read() as tx:
            t = await self.rounds.tournament(tx, tournament_id)
            if t.started_at is None:
                return []
            entrants = await tx.tournaments.entrants(t.id)
            pairings = await tx.tournaments.pairings(t.id)
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
            raise InvalidInput("'now' must be a datetime, not {now}.", now=quote(now))
        check_shards(shards)
        check_limit(limit)
        moment = now if now is not None else self._now()
        async with self.store.read() as tx:
            due = await tx.tournaments.due_tournaments(to_us(moment), limit, shards)
        done: list[TournamentUpdate] = []
        for found in due:
            async with self._write() as tx:
                t = await self.rounds.tournament(tx, found.id)
                deadline = t.registration_deadline
                if t.status != "registration" or deadline is None or deadline > to_us(moment):
                    continue
                players = len(await tx.tournaments.entrants(t.id))
                if players < max(2, t.min_players):
                    reason = Wording.counted(
                        N_plural(
                            "Registration closed with {players} of the {n} player needed.",
                            "Registration closed with {players} of the {n} players needed.",
                        ),
                        max(2, t.min_players),
                        players=players,
                    )
                    t = await self.rounds.cancel_unstarted(tx, t, moment)
                    done.append(
                        TournamentUpdate("cancelled", await self.rounds.info(tx, t), reason)
                    )
                    continue
                await self.rounds.start_or_cancel(tx, t, moment, done)
        async with self.store.read() as tx:
            awaiting = await tx.tournaments.tournaments_awaiting_games(limit, shards)
        for tournament_id in awaiting:  # started above, or interrupted before (a restart)
            await self.create_pending_games(tournament_id, moment)
        async with self.store.read() as tx:
            for t in await tx.tournaments.unannounced_tournaments(limit, shards):
                done.append(TournamentUpdate("finished", await self.rounds.info(tx, t)))
        return done

    async def claim_tournament_podium(self, tournament_id: int) -> bool:
        """True for exactly one caller once the tournament has finished (whoever posts the
        podium); False before it finishes and for every later caller."""
        check_id(tournament_id, "tournament id")
        async with self._write() as tx:
            return await tx.tournaments.claim_podium(tournament_id, to_us(self._now()))

    async def next_tournament_deadline(self) -> datetime | None:
        """The earliest registration deadline still to come, so a scheduler can sleep."""
        async with self.store.read() as tx:
            at = await tx.tournaments.next_tournament_deadline()
        return maybe_dt(at)

    # ----- internals ---------------------------------------------------------------------
