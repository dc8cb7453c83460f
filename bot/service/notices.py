"""Turn notices players choose: a channel mention, a DM each turn, a daily digest, or nothing.

A preference belongs to the player, not to a server: one row for every server they play in.
The daily digest is due at an hour the player picks, in UTC; :meth:`Notices.claim_digests`
hands each due digest to exactly one caller (one conditional update per player row, see
``Tx.notices.claim_digests``), however many bot processes ask and across restarts, and reads in one
query the games waiting on every player it claimed.  A digest whose process dies between the
claim and the DM is not sent again that day: one missed digest is better than two.

When a DM fails because the player closed their DMs, the front end calls
:meth:`Notices.close_dms`: from then on the player's notices are channel mentions, until they
choose a preference again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, cast, get_args

from rules.errors import N_

from ..store import GameRow, NoticeRow
from . import convert
from .checks import check_id, check_limit, check_optional_id, quote
from .convert import from_us, maybe_dt, to_us
from .core import Feature
from .errors import InvalidInput
from .types import GameSummary

NoticeMode = Literal["mention", "dm", "digest", "off"]
NOTICE_MODES: tuple[NoticeMode, ...] = get_args(NoticeMode)
DEFAULT_DIGEST_HOUR = 18
"""The digest's hour (UTC) for a player who picks none: early evening in Europe, midday in
the Americas."""
DIGEST_BATCH = 100
"""Digests claimed (and their games read) per call: one query each way for this many
players keeps every read short, so the event loop is never held long."""
DIGEST_GAMES = 20
"""At most this many games are listed in one digest (the rest are counted)."""


@dataclass(frozen=True, slots=True)
class NoticePrefs:
    """How a player hears of their turn, in every server.

    ``mode``: ``mention`` (the default), ``dm``, ``digest`` or ``off``.  ``digest_hour``: the
    UTC hour of the daily digest; ``next_digest``: when it is next due (``digest`` only).
    ``dm_closed``: a DM failed because the player closed their DMs, so until they set a
    preference again they are mentioned in the channel instead.
    """

    user_id: int
    mode: NoticeMode
    digest_hour: int
    next_digest: datetime | None
    dm_closed: bool
    locale: str | None = None
    """The Discord locale the player's interactions last carried (None: never seen): the
    language of the DMs and digests the bot sends them on its own."""

    @property
    def effective(self) -> NoticeMode:
        """What the bot does now: a player whose DMs are closed is mentioned instead."""
        if self.dm_closed and self.mode in ("dm", "digest"):
            return "mention"
        return self.mode

    @property
    def pings(self) -> bool:
        """Whether the turn message in the channel pings the player."""
        return self.effective == "mention"

    @property
    def wants_dm(self) -> bool:
        """Whether each turn is also sent to the player as a DM."""
        return self.effective == "dm"


@dataclass(frozen=True, slots=True)
class Waiting:
    """A game waiting on a player, and since when (the start of their turn)."""

    game: GameSummary
    since: datetime


@dataclass(frozen=True, slots=True)
class Digest:
    """One player's daily digest: the games waiting on them, longest wait first (at most
    :data:`DIGEST_GAMES`; ``more`` counts the rest), and when the next one is due."""

    user_id: int
    games: tuple[Waiting, ...]
    more: int
    next_digest: datetime
    locale: str | None = None
    """The player's last seen Discord locale: the digest's language."""


def prefs_of(row: NoticeRow | None, user_id: int) -> NoticePrefs:
    if row is None:
        return NoticePrefs(user_id, "mention", DEFAULT_DIGEST_HOUR, None, False)
    mode = cast(NoticeMode, row.mode)
    return NoticePrefs(
        row.user_id,
        mode,
        row.digest_hour,
        maybe_dt(row.next_digest_at),
        row.dm_closed,
        row.locale,
    )


def waiting_of(row: GameRow) -> Waiting:
    return Waiting(convert.summary(row), from_us(row.turn_started_at))


def next_hour(now: datetime, hour: int) -> datetime:
    """The first moment at ``hour``:00 UTC strictly after ``now``."""
    at = now.replace(hour=hour, minute=0, second=0, microsecond=0)
    return at if at > now else at + timedelta(days=1)


def check_mode(mode: object) -> NoticeMode:
    if mode not in NOTICE_MODES:
        raise InvalidInput(
            f"{quote(mode)} is not a way to be told of your turn: choose "
            + ", ".join(NOTICE_MODES)
            + "."
        )
    return mode


LOCALE = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?")
"""A Discord locale code (``de``, ``en-US``, ``es-419``, ``zh-CN``)."""


def check_locale(locale: object) -> str:
    if not isinstance(locale, str) or LOCALE.fullmatch(locale) is None:
        raise InvalidInput(f"{quote(locale)} is not a Discord locale code.")
    return locale


def check_hour(hour: object) -> int:
    if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
        raise InvalidInput(
            N_("The digest hour must be a whole hour from 0 to 23 (UTC), not {hour}."),
            hour=quote(hour),
        )
    return hour


class Notices(Feature):
    """Players' notice preferences, the games waiting on them, and the daily digest."""

    async def notice_prefs(self, user_id: int) -> NoticePrefs:
        """The player's preference (``mention`` if they never chose)."""
        check_id(user_id, "user id")
        async with self.store.read() as tx:
            return prefs_of(await tx.notices.notice_pref(user_id), user_id)

    async def set_notice(
        self, user_id: int, mode: str, digest_hour: int | None = None
    ) -> NoticePrefs:
        """Set how the player hears of their turn, in every server; this also lets DMs be
        tried again after they failed.  ``digest_hour`` (0-23, UTC) is kept from before when
        not given.  Raises InvalidInput (mode, hour)."""
        check_id(user_id, "user id")
        chosen = check_mode(mode)
        if digest_hour is not None:
            check_hour(digest_hour)
        now = self._now()
        async with self.store.write() as tx:
            before = prefs_of(await tx.notices.notice_pref(user_id), user_id)
            hour = before.digest_hour if digest_hour is None else digest_hour
            due = to_us(next_hour(now, hour)) if chosen == "digest" else None
            row = NoticeRow(user_id, chosen, hour, due, False, to_us(now), before.locale)
            await tx.notices.save_notice_pref(row)
        return prefs_of(row, user_id)

    async def saw_locale(self, user_id: int, locale: str) -> bool:
        """Keep the Discord locale one of the player's interactions carried, for the DMs and
        digests sent to them later; True if it changed.  A read first, so the usual case (the
        same locale as last time) takes no write lock.  Raises InvalidInput (a malformed
        locale)."""
        check_id(user_id, "user id")
        check_locale(locale)
        async with self.store.read() as tx:
            known = await tx.notices.notice_pref(user_id)
        if known is not None and known.locale == locale:
            return False
        async with self.store.write() as tx:
            return await tx.notices.save_locale(user_id, locale, to_us(self._now()))

    async def close_dms(self, user_id: int) -> bool:
        """Record that a DM to the player failed because their DMs are closed: no DM is tried
        until they set a preference again.  True only the first time (tell them once)."""
        check_id(user_id, "user id")
        async with self.store.write() as tx:
            return await tx.notices.close_dms(user_id, to_us(self._now()))

    async def waiting_on(
        self, user_id: int, guild_id: int | None = None, limit: int = 25
    ) -> list[Waiting]:
        """Active games where it is the player's move (in one server, or every one), the
        longest wait first; read from stored columns (no engine is built)."""
        check_id(user_id, "user id")
        check_optional_id(guild_id, "server id")
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.notices.waiting_games((user_id,), guild_id, limit)
        return [waiting_of(r) for r in rows]

    async def claim_digests(self, limit: int = DIGEST_BATCH) -> list[Digest]:
        """Claim the digests due now (at most ``limit`` players, each exactly once across
        every process) with the games waiting on each: one claiming update and one read.
        A claimed player with no game waiting gets an empty digest (the caller sends
        nothing); the claim still moves their next digest to tomorrow."""
        check_limit(limit)
        now = to_us(self._now())
        async with self.store.write() as tx:
            claimed = await tx.notices.claim_digests(now, limit)
        if not claimed:
            return []
        async with self.store.read() as tx:
            rows = await tx.notices.waiting_games([r.user_id for r in claimed])
        return digests_of(claimed, rows)


def digests_of(claimed: Sequence[NoticeRow], rows: Sequence[GameRow]) -> list[Digest]:
    by_user: dict[int, list[GameRow]] = {r.user_id: [] for r in claimed}
    for row in rows:
        if row.to_move_id in by_user:
            by_user[row.to_move_id].append(row)
    digests = []
    for notice in claimed:
        games = by_user[notice.user_id]
        assert notice.next_digest_at is not None  # a claimed digest always has its next time
        digests.append(
            Digest(
                notice.user_id,
                tuple(waiting_of(r) for r in games[:DIGEST_GAMES]),
                max(0, len(games) - DIGEST_GAMES),
                from_us(notice.next_digest_at),
                notice.locale,
            )
        )
    return digests
