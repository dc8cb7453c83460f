"""Statements that take a database back to before a later migration, for the tests of older
migrations (they build a current database, undo what came after, and upgrade it again)."""

from __future__ import annotations

UNDO_MIGRATION_8 = (
    "DROP TABLE vacations",
    "DROP INDEX games_by_first_active",
    "DROP INDEX games_by_second_active",
    *(
        f"ALTER TABLE {table} DROP COLUMN {column}"
        for table, columns in (
            ("guild_settings", ("vacation_days", "soft_time")),
            ("games", ("first_bank", "second_bank", "paused_until")),
            *((t, ("bank_start", "bank_increment", "bank_cap")) for t in
              ("guild_settings", "challenges", "games")),
        )
        for column in columns
    ),
)  # fmt: skip
"""Migration 8 (time banks, vacations, soft time), undone; the same SQL on both engines."""

UNDO_MIGRATION_13 = (
    "DROP INDEX games_untimed_by_turn",
    "ALTER TABLE games DROP COLUMN soft_noticed_at",
)
"""Migration 13 (soft-time notices), undone; the same SQL on both engines."""

UNDO_LANGUAGES_MIGRATION = (
    "ALTER TABLE notice_prefs DROP COLUMN locale",
    "ALTER TABLE guild_settings DROP COLUMN language",
)
"""The languages migration (a player's locale, a server's language), undone; the same SQL on
both engines."""

UNDO_HINTS_MIGRATION = (
    "ALTER TABLE games DROP COLUMN first_hints",
    "ALTER TABLE games DROP COLUMN second_hints",
)
"""The hints migration (per-player hint counts, issue 48), undone; the same SQL on both engines."""

UNDO_ANALYSES = ("DROP TABLE analyses",)
"""The stored analyses' migration, undone (its index goes with it); the same SQL on both
engines.  It comes after the others: undo it first."""
