"""Moderation and server settings: admin endings, the audit log, settings changes."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

from bot.i18n import ENGLISH, SHIPPED
from rules import InvalidOptions, UnknownGame, game_class
from rules.errors import N_

from . import convert
from .checks import (
    MAX_NOTE,
    check_bool,
    check_channels,
    check_corr_settings,
    check_id,
    check_limit,
    check_optional_id,
    check_sizes,
    check_text,
    check_time_control,
    is_int,
    quote,
)
from .clocks.types import TimeControl
from .convert import to_us
from .core import (
    Feature,
)
from .engines import warms_engines
from .errors import (
    InvalidSettings,
    NoGameHere,
    NotAPlayer,
)
from .moderation_types import AuditEntry, GuildSettings
from .types import GameEnded, ResultReason

SERVER_LOCALE = "discord"
"""The ``language`` setting that follows Discord's server locale (the default)."""
LANGUAGES = (SERVER_LOCALE, ENGLISH, *SHIPPED)
"""What ``language`` may be set to: Discord's server locale, or a language Crosspath ships."""
MIN_EXPIRY = 60
MAX_EXPIRY = 30 * 86400


class Moderation(Feature):
    """Admin endings and server settings, every change written to the audit log."""

    @warms_engines
    async def _moderate(
        self,
        guild_id: int,
        actor_id: int,
        channel_id: int,
        reason: ResultReason,
        target_id: int | None,
        note: str,
    ) -> GameEnded:
        check_id(guild_id, "server id")
        check_id(actor_id, "admin id")
        check_id(channel_id, "channel id")
        check_optional_id(target_id, "player id")
        check_text(note, "reason", MAX_NOTE)
        now = self._now()
        async with self._write() as tx:
            row = await tx.games.active_game_in(channel_id)
            if row is None or row.guild_id != guild_id:
                raise NoGameHere(N_("There is no game in progress in that channel."))
            game = await self._engine(tx, row)
            pair = convert.seats(row, game)
            if target_id is not None and target_id not in (pair[0].user_id, pair[1].user_id):
                raise NotAPlayer(N_("That user is not playing in this game."))
            row, ended = await self._finish(
                tx,
                row,
                game,
                reason,
                now,
                winner_id=target_id if reason == "award" else None,
                loser_id=target_id if reason == "forfeit" else None,
                actor_id=actor_id,
                detail=note,
            )
            await tx.moderation.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action=reason,
                at=to_us(now),
                game_id=row.id,
                target_id=target_id,
                detail=note,
            )
        self._remember(row.id, row.version, game)
        return ended

    async def admin_abort(
        self, guild_id: int, actor_id: int, channel_id: int, reason: str = ""
    ) -> GameEnded:
        """End the channel's game with no result."""
        return await self._moderate(guild_id, actor_id, channel_id, "abort", None, reason)

    async def admin_award(
        self, guild_id: int, actor_id: int, channel_id: int, winner_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``winner_id`` (a player) the winner."""
        return await self._moderate(guild_id, actor_id, channel_id, "award", winner_id, reason)

    async def admin_forfeit(
        self, guild_id: int, actor_id: int, channel_id: int, loser_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``loser_id`` (a player) the loser by forfeit."""
        return await self._moderate(guild_id, actor_id, channel_id, "forfeit", loser_id, reason)

    async def audit_log(self, guild_id: int, limit: int = 50) -> list[AuditEntry]:
        """Moderator actions in a server, newest first."""
        check_id(guild_id, "server id")
        check_limit(limit)
        async with self.store.read() as tx:
            rows = await tx.moderation.audit(guild_id, limit)
        return [convert.audit(r) for r in rows]

    async def get_settings(self, guild_id: int) -> GuildSettings:
        check_id(guild_id, "server id")
        async with self.store.read() as tx:
            return convert.settings(await tx.moderation.settings(guild_id), guild_id)

    async def languages(self) -> dict[int, str]:
        """Every server that chose a language for its channel posts, with that language
        (the others follow Discord's server locale): one short read, for the front end to
        keep in memory."""
        async with self.store.read() as tx:
            return await tx.moderation.languages()

    async def update_settings(
        self,
        guild_id: int,
        actor_id: int,
        *,
        allowed_channels: Sequence[int] | None = None,
        use_threads: bool | None = None,
        default_time_control: TimeControl | str | None = None,
        default_sizes: dict[str, int | None] | None = None,
        challenge_expiry: int | None = None,
        ratings_enabled: bool | None = None,
        vacation_days: int | None = None,
        soft_time: int | None = None,
        web_listing: bool | None = None,
        language: str | None = None,
    ) -> GuildSettings:
        """Change the given settings (None leaves one as it is); audited.

        ``vacation_days``: a player's vacation days a year, 0 to 365; ``soft_time``: seconds
        (1 day to 365 days) an untimed game waits on one player before the other may claim.

        ``default_sizes`` merges: ``{"minefield": 11}`` sets one, ``{"minefield": None}``
        clears it.

        ``language``: the language of the server's channel posts, one of
        :data:`LANGUAGES` (``"discord"``: Discord's server locale).
        """
        check_id(guild_id, "server id")
        check_id(actor_id, "admin id")
        default_time_control = check_time_control(default_time_control)
        if allowed_channels is not None:
            allowed_channels = check_channels(allowed_channels)
        if use_threads is not None:
            check_bool(use_threads, "use_threads setting", InvalidSettings)
        if ratings_enabled is not None:
            check_bool(ratings_enabled, "ratings_enabled setting", InvalidSettings)
        if web_listing is not None:
            check_bool(web_listing, "web_listing setting", InvalidSettings)
        if default_sizes is not None:
            check_sizes(default_sizes)
        if challenge_expiry is not None and (
            not is_int(challenge_expiry) or not MIN_EXPIRY <= challenge_expiry <= MAX_EXPIRY
        ):
            raise InvalidSettings(
                N_(
                    "Challenges must expire after a whole number of seconds between 1 minute "
                    "and 30 days, not {challenge_expiry}."
                ),
                challenge_expiry=quote(challenge_expiry),
            )
        check_corr_settings(vacation_days, soft_time)
        if language is not None:
            check_language(language)
        now = self._now()
        async with self._write() as tx:
            current = convert.settings(await tx.moderation.settings(guild_id), guild_id)
            sizes = dict(current.default_sizes)
            for name, size in (default_sizes or {}).items():
                try:
                    cls = game_class(name)
                except UnknownGame as exc:
                    raise InvalidSettings(exc.wording) from exc
                if size is None:
                    sizes.pop(cls.name, None)
                    continue
                try:
                    cls(size)
                except InvalidOptions as exc:
                    raise InvalidSettings(exc.wording) from exc
                sizes[cls.name] = size
            given: dict[str, Any] = {
                "allowed_channels": allowed_channels,
                "use_threads": use_threads,
                "default_time_control": default_time_control,
                "default_sizes": tuple(sorted(sizes.items())),
                "challenge_expiry": challenge_expiry,
                "ratings_enabled": ratings_enabled,
                "vacation_days": vacation_days,
                "soft_time": soft_time,
                "web_listing": web_listing,
            }
            updated = replace(current, **{k: v for k, v in given.items() if v is not None})
            if language is not None:  # None leaves it; "discord" clears it (stored NULL)
                updated = replace(updated, language=None if language == SERVER_LOCALE else language)
            changes = settings_diff(current, updated)
            await tx.moderation.save_settings(convert.settings_row(updated, to_us(now)))
            await tx.moderation.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action="settings",
                at=to_us(now),
                detail=json.dumps(changes, sort_keys=True),
            )
        return updated


def check_language(language: object) -> str:
    if language not in LANGUAGES:
        raise InvalidSettings(
            f"{quote(language)} is not a language Crosspath speaks: choose one of "
            + ", ".join(LANGUAGES)
            + "."
        )
    return language


def settings_diff(before: GuildSettings, after: GuildSettings) -> dict[str, Any]:
    """The settings that changed, as JSON values, for the audit log: every field of
    :class:`GuildSettings` but the server id, so a new setting is audited without more code."""
    changed: dict[str, Any] = {}
    for field in fields(GuildSettings):
        if field.name == "guild_id":
            continue
        value = getattr(after, field.name)
        if value != getattr(before, field.name):
            changed[field.name] = jsonable(value)
    return changed


def jsonable(value: Any) -> Any:
    if isinstance(value, TimeControl):
        if value.is_bank:
            return {"bank": value.bank, "increment": value.increment, "cap": value.cap}
        return {"per_move": value.per_move, "reminders": list(value.reminders)}
    if isinstance(value, tuple):
        return [jsonable(v) for v in value]
    return value
