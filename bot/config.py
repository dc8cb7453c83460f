"""Bot settings, read once from the environment (and ``.env`` through python-dotenv).

Every setting is listed in :data:`SETTINGS` with its meaning, so docs/operations.md and
``.env.example`` can be checked against one source.  The token is kept out of ``repr`` so it
never reaches a log line or a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# name -> (default, meaning).  An empty default means "unset".
SETTINGS: dict[str, tuple[str, str]] = {
    "DISCORD_TOKEN": ("", "bot token from the Discord developer portal (required for run/sync)"),
    "CROSSPATH_DB": ("crosspath.sqlite3", "path of the SQLite database file"),
    "CROSSPATH_LOG_LEVEL": ("INFO", "log level: DEBUG, INFO, WARNING or ERROR"),
    "CROSSPATH_LOG_FORMAT": ("json", "log line format: json (one object per line) or text"),
    "CROSSPATH_DEV_GUILD": ("", "guild id that `crosspath sync` targets when --guild is not given"),
    "CROSSPATH_CLOCK_SECONDS": ("60", "how often the clock task asks the service what is due"),
}


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message names the setting."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False, default="")
    database: Path = Path("crosspath.sqlite3")
    log_level: str = "INFO"
    log_format: str = "json"
    dev_guild: int | None = None
    clock_seconds: float = 60.0

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())


def _int_or_none(name: str, raw: str) -> int | None:
    if not raw.strip():
        return None
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number (a Discord id), not {raw!r}") from None


def _positive_float(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be more than 0 seconds, not {raw!r}")
    return value


def settings_from(env: Mapping[str, str]) -> Settings:
    """Build settings from a mapping (the environment in production, a dict in tests)."""

    def get(name: str) -> str:
        return env.get(name, SETTINGS[name][0])

    level = get("CROSSPATH_LOG_LEVEL").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise SettingsError(
            f"CROSSPATH_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}"
        )
    fmt = get("CROSSPATH_LOG_FORMAT").strip().lower()
    if fmt not in ("json", "text"):
        raise SettingsError(f"CROSSPATH_LOG_FORMAT must be json or text, not {fmt!r}")
    return Settings(
        token=get("DISCORD_TOKEN").strip(),
        database=Path(get("CROSSPATH_DB")),
        log_level=level,
        log_format=fmt,
        dev_guild=_int_or_none("CROSSPATH_DEV_GUILD", get("CROSSPATH_DEV_GUILD")),
        clock_seconds=_positive_float("CROSSPATH_CLOCK_SECONDS", get("CROSSPATH_CLOCK_SECONDS")),
    )


def load_settings(dotenv_path: str | os.PathLike[str] | None = None) -> Settings:
    """Read ``.env`` (without overriding real environment variables), then the environment.

    A ``dotenv_path`` given explicitly must exist: a mistyped ``--env-file`` is reported as
    such, not as the missing token it would otherwise look like.
    """
    from dotenv import find_dotenv, load_dotenv

    if dotenv_path is not None:  # named on purpose (--env-file): it must be there
        path = Path(dotenv_path)
        if not path.exists():
            raise SettingsError(f"the settings file {path} does not exist")
        if not path.is_file():
            raise SettingsError(f"the settings file {path} is not a file")
    else:
        # usecwd: the operator's working directory, not the directory of this module
        dotenv_path = find_dotenv(usecwd=True)
    try:
        load_dotenv(dotenv_path=dotenv_path, override=False)
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read the settings file {dotenv_path}: {exc}") from None
    return settings_from(os.environ)
