"""A server's settings, its audit log and who may create tournaments."""

from __future__ import annotations

from collections.abc import Sequence

from ..rows import (
    AuditRow,
    SettingsRow,
)
from ..sql import (
    AUDIT,
    SETTINGS,
    SETTINGS_FIELDS,
    UPSERT_SETTINGS,
    Op,
    Row,
    in_chunks,
    insert,
    marks,
    settings_row,
)
from .base import Queries


class ModerationQueries(Queries):
    """The moderation queries of one transaction (``tx.moderation``)."""

    async def settings(self, guild_id: int) -> SettingsRow | None:
        """The server's settings row, None if it never saved any."""
        found = await self._tx._one(f"{SETTINGS} WHERE guild_id = ?", (guild_id,), lock=True)
        return None if found is None else settings_row(found)

    async def save_settings(self, row: SettingsRow) -> None:
        """Insert or replace the server's settings."""
        await self._tx._write(UPSERT_SETTINGS, self._tx._row_args(row, SETTINGS_FIELDS))

    async def languages(self) -> dict[int, str]:
        """The servers that chose a language for their channel posts, and the language."""
        rows = await self._tx._fetch(
            "SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL", ()
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def settings_of(self, guild_ids: Sequence[int]) -> list[SettingsRow]:
        """The settings rows of these servers (those that saved any), by server."""
        if not guild_ids:
            return []
        rows: list[Row] = []
        for chunk in in_chunks(guild_ids):
            rows += await self._tx._fetch(
                f"{SETTINGS} WHERE guild_id IN ({marks(chunk)}) ORDER BY guild_id", tuple(chunk)
            )
        return [settings_row(r) for r in rows]

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
    ) -> None:
        row = (guild_id, actor_id, action, game_id, target_id, detail, at)
        await self._tx._op(Op("audit", game_id, row))

    async def audit(self, guild_id: int, limit: int) -> list[AuditRow]:
        """A server's audit entries, newest first."""
        rows = await self._tx._fetch(
            f"{AUDIT} WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit)
        )
        return [AuditRow(*r) for r in rows]

    async def creator_roles(self, guild_id: int) -> list[int]:
        rows = await self._tx._fetch(
            "SELECT role_id FROM tournament_creator_roles WHERE guild_id = ? ORDER BY role_id",
            (guild_id,),
        )
        return [int(r[0]) for r in rows]

    async def set_creator_roles(self, guild_id: int, role_ids: Sequence[int]) -> None:
        await self._tx._write(
            "DELETE FROM tournament_creator_roles WHERE guild_id = ?", (guild_id,)
        )
        if role_ids:
            await self._tx._write_many(
                insert("tournament_creator_roles", ("guild_id", "role_id")),
                [(guild_id, r) for r in role_ids],
            )
