"""Bot settings, read once from the environment (and ``.env`` through python-dotenv).

Every setting is listed in :data:`SETTINGS` with its meaning, so docs/operations.md and
``.env.example`` can be checked against one source.  The token, and the database URL (which may
hold a password), are kept out of ``repr`` so they never reach a log line or a traceback;
:attr:`Settings.shown_database` is the form to log.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

# name -> (default, meaning).  An empty default means "unset".
SETTINGS: dict[str, tuple[str, str]] = {
    "DISCORD_TOKEN": ("", "bot token from the Discord developer portal (required for run/sync)"),
    "CROSSPATH_DATABASE": (
        "crosspath.sqlite3",
        "the database: a SQLite file path, or a postgresql:// URL for several processes",
    ),
    "CROSSPATH_DB": ("", "older name of CROSSPATH_DATABASE, read when that is not set"),
    "CROSSPATH_SHARD_COUNT": (
        "",
        "how many Discord shards the bot has in all (with CROSSPATH_SHARD_IDS); empty: "
        "one process runs every shard, as many as Discord recommends",
    ),
    "CROSSPATH_SHARD_IDS": (
        "",
        "the shards this process runs, comma-separated, e.g. 0,1 (of CROSSPATH_SHARD_COUNT); "
        "empty: all of them",
    ),
    "CROSSPATH_LOG_LEVEL": ("INFO", "log level: DEBUG, INFO, WARNING or ERROR"),
    "CROSSPATH_LOG_FORMAT": ("json", "log line format: json (one object per line) or text"),
    "CROSSPATH_DEV_GUILD": ("", "guild id that `crosspath sync` targets when --guild is not given"),
    "CROSSPATH_CLOCK_SECONDS": ("60", "how often the clock task asks the service what is due"),
    "CROSSPATH_WEB_PORT": (
        "",
        "serve /healthz, /readyz and /metrics on this port from `crosspath run` (and the "
        "default port of `crosspath web`); empty: `crosspath run` serves none",
    ),
    "CROSSPATH_WEB_HOST": (
        "127.0.0.1",
        "the address those pages listen on; 0.0.0.0 to let other machines or containers scrape",
    ),
    "CROSSPATH_PUBLIC_URL": (
        "",
        "the address people reach the game pages at, e.g. https://games.example.org; set, "
        "board posts of public games get a 'Watch on the web' link",
    ),
    "CROSSPATH_CACHE_DIR": (
        "",
        "the folder where drawn replay GIFs are kept across restarts; empty: crosspath-cache "
        "beside the SQLite file, or crosspath-cache-UID in the temporary folder for PostgreSQL",
    ),
    "CROSSPATH_CACHE_MB": (
        "256",
        "the most megabytes that folder may hold (the least recently used go first); 0: keep "
        "no replays on disk",
    ),
}


class SettingsError(ValueError):
    """A setting has a value the bot cannot use; the message names the setting."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False, default="")
    database: str = field(repr=False, default="crosspath.sqlite3")
    """A SQLite path or a ``postgresql://`` URL (which may hold a password: not in ``repr``;
    show it with :attr:`shown_database`)."""
    log_level: str = "INFO"
    log_format: str = "json"
    dev_guild: int | None = None
    clock_seconds: float = 60.0
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    """Both None: one process runs every shard.  Otherwise this process runs ``shard_ids``
    of ``shard_count`` (ids None: all of them)."""
    web_port: int | None = None
    """Where ``crosspath run`` serves health, readiness and metrics (None: it does not)."""
    web_host: str = "127.0.0.1"
    public_url: str = ""
    """Where people reach the game pages (no trailing slash); empty: board posts link none."""
    cache_dir: str = ""
    """Where replays are kept on disk; empty: see :meth:`cache_folder`."""
    cache_mb: int = 256
    """The bound of that folder in MiB (0: no disk cache)."""

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())

    @property
    def shown_database(self) -> str:
        """The database for logs and messages: a URL's password is replaced by ``***``."""
        return shown_database(self.database)

    @property
    def is_postgres(self) -> bool:
        return self.database.startswith(POSTGRES_SCHEMES)

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process holds every server (no other process shares the database)."""
        return (
            self.shard_count is None
            or self.shard_ids is None
            or len(set(self.shard_ids)) == self.shard_count
        )

    @property
    def shown_shard_ids(self) -> str:
        """CROSSPATH_SHARD_IDS as it is written: ``0,1`` (empty for all shards)."""
        return ",".join(str(shard) for shard in self.shard_ids or ())

    def database_problem(self) -> str | None:
        """Why the SQLite database cannot be where the setting says, or None.

        Checked before the store opens its file, whose own errors (a lock file it cannot
        create) would point at permissions when the folder simply is not there.
        """
        if self.is_postgres:
            return None
        path = Path(self.database)
        shown = self.shown_database
        if path.is_dir():
            return f"CROSSPATH_DATABASE={shown} is a folder: give the path of a database file"
        folder = path.parent
        if folder.is_dir():
            return None
        folder_shown = shown_database(str(folder))
        if folder.exists():
            return f"CROSSPATH_DATABASE={shown}: {folder_shown} is a file, not a folder"
        return (
            f"CROSSPATH_DATABASE={shown}: the folder {folder_shown} does not exist; create it, "
            "or give a database path in a folder that exists"
        )

    def cache_folder(self, database: str | None = None) -> Path:
        """The replay cache's folder: CROSSPATH_CACHE_DIR, else ``crosspath-cache`` beside
        the SQLite file (``database``, default this database), else, for PostgreSQL, a
        folder of this user's in the temporary directory (private under systemd's
        PrivateTmp; elsewhere the cache checks that the folder is its own)."""
        if self.cache_dir:
            return Path(self.cache_dir)
        target = self.database if database is None else database
        if target.startswith(POSTGRES_SCHEMES):
            return Path(tempfile.gettempdir()) / f"crosspath-cache-{os.getuid()}"
        return Path(target).parent / "crosspath-cache"

    def __repr__(self) -> str:
        return (
            f"Settings(database={self.shown_database!r}, log_level={self.log_level!r}, "
            f"log_format={self.log_format!r}, dev_guild={self.dev_guild!r}, "
            f"clock_seconds={self.clock_seconds!r}, shard_count={self.shard_count!r}, "
            f"shard_ids={self.shard_ids!r}, web_host={self.web_host!r}, "
            f"web_port={self.web_port!r}, cache_dir={self.cache_dir!r}, "
            f"cache_mb={self.cache_mb!r})"
        )


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_PASSWORD = re.compile(r"^(postgres(?:ql)?://[^:/@?#]*:)[^@/?#]*@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


def shown_database(target: str) -> str:
    """``target`` with any password hidden, cut to about 100 characters.

    >>> shown_database("postgresql://bot:s3cret@db.local:5432/crosspath")
    'postgresql://bot:***@db.local:5432/crosspath'
    >>> shown_database("postgresql://bot@/crosspath?host=/run/pg&password=s3cret")
    'postgresql://bot@/crosspath?host=/run/pg&password=***'
    """
    text = _QUERY_PASSWORD.sub(r"\1***", _PASSWORD.sub(r"\1***@", target))
    return text if len(text) <= 100 else text[:99] + "…"


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


def _database(env: Mapping[str, str]) -> str:
    raw = env.get("CROSSPATH_DATABASE", "").strip() or env.get("CROSSPATH_DB", "").strip()
    target = raw or SETTINGS["CROSSPATH_DATABASE"][0]
    if "://" in target and not target.startswith(POSTGRES_SCHEMES):
        scheme = target.split("://", 1)[0][:20]
        raise SettingsError(
            f"CROSSPATH_DATABASE must be a SQLite file path or a postgresql:// URL, "
            f"not a {scheme}:// URL"
        )
    return target


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """CROSSPATH_SHARD_COUNT and CROSSPATH_SHARD_IDS, checked together."""
    count_raw = env.get("CROSSPATH_SHARD_COUNT", "").strip()
    ids_raw = env.get("CROSSPATH_SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise SettingsError(
                "CROSSPATH_SHARD_IDS needs CROSSPATH_SHARD_COUNT: say how many shards there "
                "are in all (for example CROSSPATH_SHARD_COUNT=4 with CROSSPATH_SHARD_IDS=0,1)"
            )
        return None, None
    try:
        count = int(count_raw)
    except ValueError:
        raise SettingsError(
            f"CROSSPATH_SHARD_COUNT must be a whole number, not {count_raw[:100]!r}"
        ) from None
    if not 1 <= count <= MAX_SHARD_COUNT:
        raise SettingsError(
            f"CROSSPATH_SHARD_COUNT must be from 1 to {MAX_SHARD_COUNT}, not {count}"
        )
    if not ids_raw:
        return count, None
    ids: list[int] = []
    for part in ids_raw.split(","):
        text = part.strip()
        try:
            shard = int(text)
        except ValueError:
            raise SettingsError(
                "CROSSPATH_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), "
                f"not {ids_raw[:100]!r}"
            ) from None
        if not 0 <= shard < count:
            raise SettingsError(
                f"CROSSPATH_SHARD_IDS: shard {shard} does not exist; with "
                f"CROSSPATH_SHARD_COUNT={count} the shards are 0 to {count - 1}"
            )
        if shard in ids:
            raise SettingsError(f"CROSSPATH_SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return count, tuple(ids)


MAX_SHARD_COUNT = 65_536


def web_port(raw: str, name: str = "CROSSPATH_WEB_PORT") -> int | None:
    """A TCP port (1–65535) from ``raw``, or None when it is empty."""
    text = raw.strip()
    if not text:
        return None
    try:
        port = int(text)
    except ValueError:
        raise SettingsError(f"{name} must be a port number, not {text[:100]!r}") from None
    if not 1 <= port <= 65_535:
        raise SettingsError(f"{name} must be a port from 1 to 65535, not {text[:100]}")
    return port


MAX_PUBLIC_URL = 200
"""A longer address would crowd out the game's token in Discord's 512-character link limit."""


def public_url(raw: str) -> str:
    """CROSSPATH_PUBLIC_URL: an http(s) address without a trailing slash, or empty."""
    text = raw.strip().rstrip("/")
    if not text:
        return ""
    if (
        not text.startswith(("https://", "http://"))
        or len(text) > MAX_PUBLIC_URL
        or any(c.isspace() or c in "?#" for c in text)
        or text[-3:] == "://"
    ):
        raise SettingsError(
            "CROSSPATH_PUBLIC_URL must be an http:// or https:// address without spaces, a"
            f" query or a fragment, at most {MAX_PUBLIC_URL} characters, not {text[:100]!r}"
        )
    return text


MAX_CACHE_MB = 1_000_000


def cache_dir(raw: str) -> str:
    """CROSSPATH_CACHE_DIR: a folder path (it need not exist yet), or empty."""
    text = raw.strip()
    if not text:
        return ""
    if "\x00" in text or len(text) > 4096:
        raise SettingsError(f"CROSSPATH_CACHE_DIR must be a folder path, not {text[:100]!r}")
    if Path(text).exists() and not Path(text).is_dir():
        raise SettingsError(f"CROSSPATH_CACHE_DIR={text[:100]} is a file, not a folder")
    return text


def cache_mb(raw: str) -> int:
    """CROSSPATH_CACHE_MB: a whole number of MiB from 0 (no disk cache) up."""
    text = raw.strip()
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_CACHE_MB:
        raise SettingsError(
            f"CROSSPATH_CACHE_MB must be a whole number of megabytes from 0 to {MAX_CACHE_MB}"
            f", not {text[:100]!r}"
        )
    return int(text)


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
    shard_count, shard_ids = _shards(env)
    return Settings(
        token=get("DISCORD_TOKEN").strip(),
        database=_database(env),
        log_level=level,
        log_format=fmt,
        dev_guild=_int_or_none("CROSSPATH_DEV_GUILD", get("CROSSPATH_DEV_GUILD")),
        clock_seconds=_positive_float("CROSSPATH_CLOCK_SECONDS", get("CROSSPATH_CLOCK_SECONDS")),
        shard_count=shard_count,
        shard_ids=shard_ids,
        web_port=web_port(get("CROSSPATH_WEB_PORT")),
        web_host=get("CROSSPATH_WEB_HOST").strip() or SETTINGS["CROSSPATH_WEB_HOST"][0],
        public_url=public_url(get("CROSSPATH_PUBLIC_URL")),
        cache_dir=cache_dir(get("CROSSPATH_CACHE_DIR")),
        cache_mb=cache_mb(get("CROSSPATH_CACHE_MB") or SETTINGS["CROSSPATH_CACHE_MB"][0]),
    )


def load_settings(dotenv_path: str | os.PathLike[str] | None = None) -> Settings:
    """Read ``.env``, then the environment, and build the settings.

    Which value wins: a non-empty value in the real environment (a systemd unit's
    ``Environment=`` line, compose's ``environment:``, a shell's ``export``) wins over ``.env``;
    an empty value never overrides a set one, wherever it stands (so ``CROSSPATH_WEB_PORT=``
    in a ``.env`` copied from ``.env.example`` cannot switch off a port a unit sets, nor an
    empty exported variable hide the file's value).

    A ``dotenv_path`` given explicitly must exist: a mistyped ``--env-file`` is reported as
    such, not as the missing token it would otherwise look like.
    """
    from dotenv import dotenv_values, find_dotenv

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
        from_file = dotenv_values(dotenv_path) if dotenv_path else {}
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read the settings file {dotenv_path}: {exc}") from None
    for name, value in from_file.items():
        if value and value.strip() and not os.environ.get(name, "").strip():
            os.environ[name] = value
    return settings_from(os.environ)
