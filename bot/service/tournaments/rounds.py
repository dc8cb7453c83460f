"""What changes inside the write block of a tournament: starting, pairing the next round,
recording a game's end, closing, opening the next season (run by :mod:`.service`, and by
the core's game-end hook in the transaction that ended the game)."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from rules import new_game
from rules.errors import N_

from ...store import (
    ClockRow,
    EntrantRow,
    GameRow,
    NewGame,
    PairingRow,
    RoundRow,
    TournamentRow,
    Tx,
)
from ..challenges import new_web_token
from ..checks import (
    check_id,
    quote,
)
from ..clocks.timebank import first_clock, stored, time_control_from
from ..clocks.vacations import pause_of, vacation_ends
from ..convert import to_us
from ..core import Feature
from ..events import RoundPaired, SeasonOpened, TournamentFinished
from ..ratings.model import INITIAL_MU
from . import (
    Division,
    LeagueMember,
    Outcome,
    Reason,
    TournamentError,
    TournamentState,
    forfeits_for,
    is_finished,
    next_pairings,
    next_season,
    split_divisions,
)
from .tables import (
    _GAMES_PER_TOURNAMENT,
    _REASONS,
    CLOSED,
    PROVISIONAL_CHANNEL_BASE,
    _states,
    info_of,
    player_names,
    status_sentence,
    table,
)
from .types import (
    TournamentInfo,
    TournamentUpdate,
)

GAME_BATCH = 2000
"""The most games one write transaction creates.  A round robin creates all of its games at
the start (33,670 for 260 players); in one transaction that held the store for seconds, so
the start stores every pairing and the first games, and later transactions create the rest
(:meth:`Rounds.create_pending`), each short."""


class Rounds(Feature):
    """The round machinery of tournaments, inside the transaction that changes one."""

    batch = GAME_BATCH
    """The most games one write transaction creates (tests make it small)."""

    async def start_or_cancel(
        self, tx: Tx, t: TournamentRow, now: datetime, done: list[TournamentUpdate]
    ) -> TournamentRow:
        try:
            started = await self.start(tx, t, now)
        except TournamentError as exc:
            t = await self.cancel_unstarted(tx, t, now)
            done.append(TournamentUpdate("cancelled", await self.info(tx, t), exc.wording))
            return t
        done.append(TournamentUpdate("started", await self.info(tx, started)))
        return started

    async def cancel_unstarted(self, tx: Tx, t: TournamentRow, now: datetime) -> TournamentRow:
        stamp = to_us(now)
        return await tx.tournaments.update_tournament(
            t, {"status": "cancelled", "updated_at": stamp, "finished_at": stamp}
        )

    async def tournament(self, tx: Tx, tournament_id: int) -> TournamentRow:
        t = await tx.tournaments.tournament(tournament_id)
        if t is None:
            raise TournamentError(
                N_("There is no tournament {tournament_id}."), tournament_id=quote(tournament_id)
            )
        return t

    async def round_of(self, tx: Tx, tournament_id: int, round: int | None) -> None:
        """Refuse a bad id or round number, or a tournament that does not exist."""
        check_id(tournament_id, "tournament id")
        if round is not None:
            check_id(round, "round")
        await self.tournament(tx, tournament_id)

    async def registering(self, tx: Tx, tournament_id: int, now: datetime) -> TournamentRow:
        t = await self.tournament(tx, tournament_id)
        if t.status != "registration":
            raise TournamentError(status_sentence(t.status, CLOSED))
        if t.registration_deadline is not None and to_us(now) >= t.registration_deadline:
            raise TournamentError(N_("Registration is closed: the deadline has passed."))
        return t

    async def ratings_now(
        self, tx: Tx, t: TournamentRow, user_ids: Sequence[int]
    ) -> dict[int, float]:
        """Each player's current rating in the tournament's game (new players: the start)."""
        found = {
            r.user_id: r.mu for r in await tx.ratings.current_ratings(t.guild_id, t.game, user_ids)
        }
        return {uid: found.get(uid, INITIAL_MU) for uid in user_ids}

    async def info(self, tx: Tx, t: TournamentRow) -> TournamentInfo:
        entrants = await tx.tournaments.entrants(t.id)
        return info_of(t, entrants)

    async def start(self, tx: Tx, t: TournamentRow, now: datetime) -> TournamentRow:
        """Fix ratings (and a league's divisions), check the field, pair the first round."""
        entrants = await tx.tournaments.entrants(t.id)
        needed = max(2, t.min_players)
        if len(entrants) < needed:
            raise TournamentError(
                N_("This tournament needs at least {needed} players; {entrants_count} registered."),
                needed=needed,
                entrants_count=len(entrants),
            )
        ratings = await self.ratings_now(tx, t, [e.user_id for e in entrants])
        entrants = [replace(e, rating=ratings[e.user_id]) for e in entrants]
        if t.format == "league":
            divisions = await self.divisions(tx, t, entrants)
            level = {pid: d.level for d in divisions for pid in d.players}
            entrants = [replace(e, division=level[e.user_id]) for e in entrants]
        states = _states(t, entrants, [], check=True)  # the options against the field
        rounds: int | None = None
        if t.format == "swiss":
            rounds = states[1].rounds_total
        elif t.format == "knockout":
            rounds = max(1, math.ceil(math.log2(len(entrants))))
        await tx.tournaments.save_entrants(entrants)
        stamp = to_us(now)
        t = await tx.tournaments.update_tournament(
            t, {"status": "running", "started_at": stamp, "updated_at": stamp, "rounds": rounds}
        )
        t = await self.advance(tx, t, now, limit=self.batch)
        if t.rounds is None:
            # Every round is paired at the start (a round robin, a league), so the rounds
            # stored are the last one paired (no need to read back tens of thousands).
            t = await tx.tournaments.update_tournament(t, {"rounds": t.round})
        return t

    async def divisions(
        self, tx: Tx, t: TournamentRow, entrants: Sequence[EntrantRow]
    ) -> tuple[Division, ...]:
        """The season's divisions: by rating in the first season, else from the last one's
        final tables with its promotions and relegations."""
        members = [LeagueMember(e.user_id, e.rating) for e in entrants]
        previous = None
        if t.league_id is not None and t.season > 1:
            previous = await tx.tournaments.league_season(t.league_id, t.season - 1)
        if previous is None:
            return split_divisions(members, t.division_size)
        before = await tx.tournaments.entrants(previous.id)
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

    async def game_ended(self, tx: Tx, row: GameRow, now: datetime) -> None:
        """A tournament game ended: record its result and pair what comes next, in the
        write block that ended it (module notes)."""
        if row.tournament_id is None:
            return
        t = await tx.tournaments.tournament(row.tournament_id)
        pairing = await tx.tournaments.pairing_of_game(row.id)
        if t is None or t.status != "running" or pairing is None or pairing.outcome is not None:
            return
        if row.status == "aborted":
            # A tournament needs a result: the game is played again, same seats (the
            # organiser adjudicates instead if they prefer).
            t, (fresh,) = await self.create_games(t, tx, [pairing], now)
            await tx.tournaments.update_pairing(pairing, {"game_id": fresh.game_id})
            await tx.tournaments.update_tournament(t, {"updated_at": to_us(now)})
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
        await tx.tournaments.update_pairing(
            pairing, {"outcome": outcome.value, "reason": reason.value}
        )
        await self.advance(tx, t, now, pairing.division)

    async def advance(
        self,
        tx: Tx,
        t: TournamentRow,
        now: datetime,
        division: int | None = None,
        *,
        limit: int | None = None,
    ) -> TournamentRow:
        """Record the forfeits withdrawals cause, create every pairing now due, and finish
        the tournament when nothing is left; ``t`` must be locked in ``tx``.  ``division``:
        only that division changed (a league's others are not rebuilt, unless it is over).
        ``limit``: create at most that many games (the rest: :meth:`create_pending`)."""
        if t.status != "running":
            return t
        while True:
            entrants = await tx.tournaments.entrants(t.id, division)
            pairings = await tx.tournaments.pairings(t.id, division=division)
            states = _states(t, entrants, pairings)
            keyed = {(p.division, f"{p.round}.{p.tbl}.{p.game_no}"): p for p in pairings}
            forfeited = False
            # ``div``, not ``division``: the parameter must keep limiting later passes.
            for div, state in states.items():
                for result in forfeits_for(state):
                    p = keyed[(div, result.pairing_id)]
                    if p.game_id is None:  # a game in progress is ended by the withdrawal
                        await tx.tournaments.update_pairing(
                            p, {"outcome": result.outcome.value, "reason": result.reason.value}
                        )
                        forfeited = True
            if forfeited:
                continue
            new = [
                PairingRow(t.id, div, p.round, p.table, p.game, p.first, p.second)
                for div, state in states.items()
                for p in next_pairings(state)
            ]
            if not new:
                break
            t = await self.pair(tx, t, new, now, limit)
            if limit is not None:
                limit = max(0, limit - sum(1 for p in new if p.second_id is not None))
        if all(is_finished(s) for s in states.values()):
            if division is not None:
                states = _states(
                    t, await tx.tournaments.entrants(t.id), await tx.tournaments.pairings(t.id)
                )
            if all(is_finished(s) for s in states.values()):
                t = await self.close(tx, t, states, now)
        return t

    async def pair(
        self,
        tx: Tx,
        t: TournamentRow,
        new: list[PairingRow],
        now: datetime,
        limit: int | None = None,
    ) -> TournamentRow:
        """Store new pairings with their games (a new round's row first: made once); with
        ``limit``, only the first ``limit`` games: the other pairings are stored without a
        game, for :meth:`create_pending` in transactions of their own."""
        stamp = to_us(now)
        top = max(p.round for p in new)
        await tx.tournaments.insert_rounds(
            [RoundRow(t.id, number, stamp) for number in range(t.round + 1, top + 1)]
        )
        games = [p for p in new if p.second_id is not None][:limit]
        t, made = await self.create_games(t, tx, games, now)
        with_games = {(p.division, p.round, p.tbl, p.game_no): p for p in made}
        rows = [with_games.get((p.division, p.round, p.tbl, p.game_no), p) for p in new]
        await tx.tournaments.insert_pairings(rows)
        if made:
            self._emit(
                RoundPaired(t.id, t.guild_id, top, tuple(p.game_id for p in made if p.game_id))
            )
        return await tx.tournaments.update_tournament(
            t, {"round": max(t.round, top), "updated_at": stamp}
        )

    async def create_pending(self, tx: Tx, t: TournamentRow, now: datetime, limit: int) -> int:
        """Create the games of up to ``limit`` pairings stored without one (a large start's
        later batches; ``t`` locked in ``tx``); how many were created.  A pairing gets its game
        in the transaction that creates the game, and the tournament's lock serialises the
        batches, so a batch interrupted or run twice neither loses nor doubles a game."""
        if t.status != "running":
            return 0
        pending = await tx.tournaments.pending_pairings(t.id, limit)
        if not pending:
            return 0
        t, made = await self.create_games(t, tx, pending, now)
        await tx.tournaments.set_pairing_games(made)
        top = max(p.round for p in made)
        self._emit(RoundPaired(t.id, t.guild_id, top, tuple(p.game_id for p in made if p.game_id)))
        await tx.tournaments.update_tournament(t, {"updated_at": to_us(now)})
        return len(made)

    async def create_games(
        self, t: TournamentRow, tx: Tx, pairings: Sequence[PairingRow], now: datetime
    ) -> tuple[TournamentRow, list[PairingRow]]:
        """A game for each pairing, first seat first, on provisional channel ids.

        A round robin creates every game at its start (33,670 for 260 players), so this costs
        a few statements for the lot, not three per game: one read of the players' vacations,
        the games in multi-row inserts, their ``started`` events likewise."""
        stamp = to_us(now)
        tc = time_control_from(t)
        names = player_names(await tx.tournaments.entrants(t.id)) if t.public else {}
        base = PROVISIONAL_CHANNEL_BASE + t.id * _GAMES_PER_TOURNAMENT + t.games_made
        players = {u for p in pairings for u in (p.first_id, p.second_id) if u is not None}
        ends = await vacation_ends(tx, sorted(players), stamp)
        start = new_game(t.game, t.size)  # every game starts from the same position
        record, to_move = start.record(), start.to_move
        clocks: dict[int | None, ClockRow] = {}  # by pause: the same for most games
        news = []
        for n, p in enumerate(pairings, start=1):
            assert p.second_id is not None
            pause = pause_of(ends, (p.first_id, p.second_id))
            if pause not in clocks:
                clocks[pause] = first_clock(tc, stamp, pause)
            news.append(
                NewGame(
                    guild_id=t.guild_id,
                    channel_id=base + n,
                    game=t.game,
                    size=t.size,
                    first_id=p.first_id,
                    second_id=p.second_id,
                    record=record,
                    to_move=to_move,
                    to_move_id=p.first_id,
                    **stored(tc),
                    clock=clocks[pause],
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
        ids = await tx.games.insert_games(news)
        await tx.games.add_events([(i, stamp, "started", None, f"tournament {t.id}") for i in ids])
        made = [replace(p, game_id=i) for p, i in zip(pairings, ids, strict=True)]
        if made:
            t = await tx.tournaments.update_tournament(t, {"games_made": t.games_made + len(made)})
        return t, made

    async def close(
        self, tx: Tx, t: TournamentRow, states: dict[int, TournamentState], now: datetime
    ) -> TournamentRow:
        """Finish: keep each player's final place; a league opens its next season."""
        entrants = {e.user_id: e for e in await tx.tournaments.entrants(t.id)}
        final = [replace(entrants[row.user_id], final_rank=row.rank) for row in table(t, states)]
        await tx.tournaments.save_entrants(final)
        stamp = to_us(now)
        t = await tx.tournaments.update_tournament(
            t, {"status": "finished", "finished_at": stamp, "updated_at": stamp}
        )
        self._emit(TournamentFinished(t.id, t.guild_id))
        if t.format == "league":
            season = await self.next_season(tx, t, list(entrants.values()), now)
            assert season.league_id is not None
            self._emit(SeasonOpened(season.league_id, t.guild_id, season.season, season.id))
        return t

    async def next_season(
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
        season = await tx.tournaments.insert_tournament(
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
        await tx.tournaments.save_entrants(
            [EntrantRow(season.id, e.user_id, e.rating, e.joined_at, name=e.name) for e in staying]
        )
        return season


# ----- pure helpers ------------------------------------------------------------------------
