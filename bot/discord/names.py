"""Display names of players, per server, without the members intent.

A member's display name is a per-server nickname, so names are kept per (server, user); a
name seen outside any server (``GET /users/{id}``) is the user's global name, used where no
server-specific one is known.  A lookup Discord refused (unknown user, outage) is remembered
for :data:`RETRY_FAILED_AFTER` seconds, so a post does not repeat ``GET /users/{id}`` each time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import discord

RETRY_FAILED_AFTER = 600.0
"""Seconds before a user Discord would not describe is asked about again."""


class DisplayNames:
    """Names by (guild id or None, user id); ``clock`` is monotonic seconds (injectable)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._names: dict[tuple[int | None, int], str] = {}
        self._failed: dict[int, float] = {}

    def remember(self, user: discord.abc.User | None, guild_id: int | None = None) -> None:
        """Keep what we see: a member's name in its server, and the user's global name."""
        if user is None:
            return
        if isinstance(user, discord.Member):
            self._names[(user.guild.id, user.id)] = user.display_name
        self._names[(None, user.id)] = user.global_name or user.name
        self._failed.pop(user.id, None)

    def known(self, user_id: int, guild: discord.Guild | None) -> str | None:
        if guild is not None:
            name = self._names.get((guild.id, user_id))
            if name is not None:
                return name
            member = guild.get_member(user_id)
            if member is not None:
                return member.display_name
        return self._names.get((None, user_id))

    def should_fetch(self, user_id: int) -> bool:
        retry_at = self._failed.get(user_id)
        return retry_at is None or self.clock() >= retry_at

    def failed(self, user_id: int) -> None:
        self._failed[user_id] = self.clock() + RETRY_FAILED_AFTER

    def name_of(self, user_id: int, guild: discord.Guild | None) -> str:
        return self.known(user_id, guild) or f"user {user_id}"

    def names_for(self, user_ids: Iterable[int], guild: discord.Guild | None) -> dict[int, str]:
        return {uid: self.name_of(uid, guild) for uid in user_ids}
