"""A server's settings and its moderators' audit log, as plain values."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .clocks.types import DEFAULT_BANK, TimeControl


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-server settings.  Empty ``allowed_channels`` means games may run in any channel."""

    guild_id: int
    allowed_channels: tuple[int, ...] = ()
    use_threads: bool = True
    default_time_control: TimeControl = DEFAULT_BANK
    """A server that never saved settings plays with a bank (``3d+1d max 5d``)."""
    default_sizes: tuple[tuple[str, int], ...] = ()
    challenge_expiry: int = 86400
    """Seconds an unanswered challenge stays open."""
    ratings_enabled: bool = True
    """Whether finished games change ratings in this server."""
    vacation_days: int = 30
    """Vacation days a year a player may take (see ``Vacations.start_vacation`` for how the
    allowances of several servers combine)."""
    soft_time: int = 14 * 86400
    """Seconds an untimed game may wait on one player before the other may claim the win
    or abort it (soft time)."""
    web_listing: bool = True
    """Whether this server's public games are shown on the web (off: none of them is)."""
    language: str | None = None
    """The language of the server's channel posts: a shipped catalog (``de``, ``en``, ...),
    or None for Discord's server locale."""

    def size_for(self, game: str) -> int | None:
        """The server's default size for ``game`` (registry name), if it set one."""
        for name, size in self.default_sizes:
            if name == game:
                return size
        return None

    def allows(self, channel_id: int) -> bool:
        return not self.allowed_channels or channel_id in self.allowed_channels


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One moderator action, with who did it."""

    id: int
    guild_id: int
    actor_id: int
    action: str
    game_id: int | None
    target_id: int | None
    detail: str
    at: datetime
