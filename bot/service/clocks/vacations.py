"""Vacations: a player stops the clocks of all their games, in every server, for whole days.

Rules (docs/service/clocks.md, "Vacations"):

* Each player has a number of vacation days a calendar year (UTC).  A server sets its own
  number (``GuildSettings.vacation_days``, 30 by default); a vacation stops games in every
  server, so the player's allowance is the LARGEST of the servers where they have an active
  game (a server that never set one counts as the default; with no active game, the
  default).  The largest, not the smallest: one strict server must not take away the
  vacation a player's other servers grant, and a vacation only ever delays games.
* ``start_vacation(user_id, days)`` books ``days`` whole days at once (they count against the
  year in which it starts).  It is refused while one is already running, when the days left
  are fewer, and while the player's own clock in any game is already past its deadline
  (that loss is due; the sweep records it).
* ``end_vacation(user_id)`` ends it early and gives back the whole days not begun.
* While it runs, every active game of the player stops: its deadline and next reminder move
  past the vacation's end (``bot.service.timebank``), so the timeout sweep never sees them
  due.  A game whose opponent is on vacation too stays stopped until the later end.  A game
  where the OPPONENT's clock is already past its deadline is left alone: that loss is due.
* A vacation that runs its full length needs nothing: the clocks start again by themselves
  when the moved deadlines come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from rules.errors import N_

from ...store import GameRow, Tx, VacationRow
from ..checks import check_id, is_int, quote
from ..convert import from_us, maybe_dt
from ..core import Feature
from ..errors import InvalidInput, VacationRefused
from ..moderation_types import GuildSettings
from ..types import OUTSIDE_SERVERS, VENUE_OPTION
from .timebank import shifted

DAY = 86400 * 1_000_000
DEFAULT_VACATION_DAYS = GuildSettings(0).vacation_days
MAX_VACATION_DAYS = 366


@dataclass(frozen=True, slots=True)
class PausedGame:
    """One game a vacation stopped or started again: tell ``opponent_id`` in its channel.

    ``paused_until`` is when its clock runs again (None: it runs now); ``deadline`` is the
    turn's deadline after the change (None: untimed)."""

    game_id: int
    guild_id: int
    channel_id: int
    user_id: int
    opponent_id: int
    paused_until: datetime | None
    deadline: datetime | None
    outside_servers: bool = False
    """The game lives in a DM or group DM (``GameInfo.outside_servers``): tell by DM."""


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation after ``start_vacation`` or ``end_vacation``.

    ``running`` says whether one runs now (from ``started_at`` to ``ends_at``); ``days_used``
    of ``allowance`` are taken in ``year``; ``games`` are those whose clocks stopped or
    started again, for the front end to tell each opponent once in the game's channel."""

    user_id: int
    running: bool
    started_at: datetime | None
    ends_at: datetime | None
    days: int
    year: int
    days_used: int
    allowance: int
    games: tuple[PausedGame, ...]

    @property
    def days_left(self) -> int:
        return max(0, self.allowance - self.days_used)


async def paused_until(tx: Tx, user_ids: Sequence[int], now: int) -> int | None:
    """The latest end of the running vacations of these players (None: nobody is away)."""
    return pause_of(await vacation_ends(tx, user_ids, now), user_ids)


async def vacation_ends(tx: Tx, user_ids: Sequence[int], now: int) -> dict[int, int]:
    """When each of these players who is away at ``now`` comes back: one read for a whole
    round of games (see :func:`pause_of`), where :func:`paused_until` per game was one each."""
    running = await tx.clocks.running_vacations(sorted(set(user_ids)), now)
    return {v.user_id: v.ends_at for v in running if v.ends_at is not None}


def pause_of(ends: dict[int, int], user_ids: Sequence[int]) -> int | None:
    """The latest return of these players in ``ends`` (None: nobody is away)."""
    return max((ends[u] for u in user_ids if u in ends), default=None)


class Vacations(Feature):
    """Starting and ending vacations; see the module notes for the rules."""

    async def vacation(self, user_id: int) -> Vacation:
        """The player's vacation days and any running vacation (nothing changes)."""
        check_id(user_id, "user id")
        stamp = self._stamp()
        year = from_us(stamp).year
        async with self.store.read() as tx:
            row = await tx.clocks.vacation(user_id)
            allowance = await self._allowance(tx, await tx.clocks.active_games_of(user_id))
        return _vacation(user_id, row, year, stamp, allowance, ())

    async def start_vacation(self, user_id: int, days: int) -> Vacation:
        """Stop the clocks of all the player's games for ``days`` whole days from now.

        Raises InvalidInput (days not a whole number from 1), VacationRefused (one is
        running, too few days left this year, own clock already past its deadline)."""
        check_id(user_id, "user id")
        if not is_int(days) or not 1 <= days <= MAX_VACATION_DAYS:
            raise InvalidInput(
                N_("A vacation is a whole number of days from 1 to {most}, not {days}."),
                most=MAX_VACATION_DAYS,
                days=quote(days),
            )
        stamp = self._stamp()
        year = from_us(stamp).year
        async with self._write() as tx:
            row = await tx.clocks.vacation(user_id)
            if row is not None and row.ends_at is not None and row.ends_at > stamp:
                raise VacationRefused(
                    N_("You are already on vacation until {until}; end it first."),
                    until=_day(row.ends_at),
                )
            games = await tx.clocks.active_games_of(user_id)
            allowance = await self._allowance(tx, games)
            used = row.days_used if row is not None and row.year == year else 0
            if used + days > allowance:
                left = max(0, allowance - used)
                raise VacationRefused(
                    f"You have no vacation days left in {year} ({used} of {allowance} used)."
                    if left == 0
                    else f"You have only {left} vacation day{'s' * (left != 1)} left in"
                    f" {year} ({used} of {allowance} used)."
                )
            for game in games:
                if game.to_move_id == user_id and _overdue(game, stamp):
                    raise VacationRefused(
                        N_(
                            "Your clock in game {id} has already run out, so a vacation can't stop "
                            "it."
                        ),
                        id=game.id,
                    )
            ends = stamp + days * DAY
            saved = VacationRow(user_id, year, used + days, stamp, ends, days)
            await tx.clocks.save_vacation(saved)
            changed = await self._repause(tx, games, user_id, ends, stamp)
        return _vacation(user_id, saved, year, stamp, allowance, changed)

    async def end_vacation(self, user_id: int) -> Vacation:
        """End the player's running vacation now and start their clocks again; the whole
        days not begun are given back.  Raises VacationRefused when none is running."""
        check_id(user_id, "user id")
        stamp = self._stamp()
        async with self._write() as tx:
            row = await tx.clocks.vacation(user_id)
            if row is None or row.started_at is None or row.ends_at is None:
                raise VacationRefused(N_("You are not on vacation."))
            if row.ends_at <= stamp:
                raise VacationRefused(
                    N_("Your vacation already ended on {day}."), day=_day(row.ends_at)
                )
            begun = max(1, -(-(stamp - row.started_at) // DAY))
            used = max(0, row.days_used - max(0, row.days - begun))
            saved = VacationRow(user_id, row.year, used, None, None, 0)
            await tx.clocks.save_vacation(saved)
            games = await tx.clocks.active_games_of(user_id)
            allowance = await self._allowance(tx, games)
            changed = await self._repause(tx, games, user_id, None, stamp)
        return _vacation(user_id, saved, row.year, stamp, allowance, changed)

    async def _allowance(self, tx: Tx, games: Sequence[GameRow]) -> int:
        guilds = sorted({g.guild_id for g in games})
        if not guilds:
            return DEFAULT_VACATION_DAYS
        rows = {r.guild_id: r for r in await tx.moderation.settings_of(guilds)}
        return max(
            DEFAULT_VACATION_DAYS
            if rows.get(g) is None or rows[g].vacation_days is None
            else int(rows[g].vacation_days or 0)
            for g in guilds
        )

    async def _repause(
        self, tx: Tx, games: Sequence[GameRow], user_id: int, own_end: int | None, now: int
    ) -> tuple[PausedGame, ...]:
        """Move each game's clock to the pause its players' vacations now call for."""
        changed = []
        opponents = {g.id: g.second_id if g.first_id == user_id else g.first_id for g in games}
        away = {  # one read for every opponent, not one a game
            v.user_id: v.ends_at
            for v in await tx.clocks.running_vacations(sorted(set(opponents.values())), now)
        }
        for row in games:
            if _overdue(row, now):
                continue  # a loss on time already due: the sweep's, not ours to delay
            opponent = opponents[row.id]
            ends = [e for e in (own_end, away.get(opponent)) if e]
            pause = max(ends, default=None)
            deadline, remind = shifted(row, now, pause)
            row = await tx.clocks.shift_clock(row, deadline, remind, pause)
            changed.append(
                PausedGame(
                    row.id,
                    row.guild_id,
                    row.channel_id,
                    user_id,
                    opponent,
                    maybe_dt(pause),
                    maybe_dt(deadline),
                    dict(row.options).get(VENUE_OPTION) == OUTSIDE_SERVERS,
                )
            )
        return tuple(changed)


def _overdue(row: GameRow, now: int) -> bool:
    return row.deadline_at is not None and row.deadline_at <= now


def _day(us: int) -> str:
    return from_us(us).strftime("%Y-%m-%d %H:%M UTC")


def _vacation(
    user_id: int,
    row: VacationRow | None,
    year: int,
    now: int,
    allowance: int,
    games: tuple[PausedGame, ...],
) -> Vacation:
    running = row is not None and row.ends_at is not None and row.ends_at > now
    if running and row is not None:
        year = row.year
    used = row.days_used if row is not None and row.year == year else 0
    return Vacation(
        user_id=user_id,
        running=running,
        started_at=maybe_dt(row.started_at) if running and row is not None else None,
        ends_at=maybe_dt(row.ends_at) if running and row is not None else None,
        days=row.days if running and row is not None else 0,
        year=year,
        days_used=used,
        allowance=allowance,
        games=games,
    )


__all__ = ["PausedGame", "Vacation", "Vacations", "paused_until"]
