"""Replays kept on disk by game and version, so a restart or a second process draws none again.

A long game's replay GIF takes seconds of CPU to draw, and the in-memory cache holds only a
few: this folder keeps them across restarts and between processes sharing it.  Each file is
written to a temporary name and moved into place with ``os.replace``, so a reader sees the
whole file or none; each carries a checksum of its bytes, so a file cut short or damaged on
disk is dropped, never served.  The folder is bounded in bytes: after each write the least
recently used files (by modification time, touched on every hit) go first.

Everything here is blocking file work: the pages call it on a worker thread.  A folder that
cannot be used (full, read-only, not ours) costs only the cache: the replay is still drawn and
served, and a warning is logged.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

MAGIC = b"CPCACHE1"
"""Starts every file; a new layout gets a new magic, and old files are then misses."""
DIGEST = 32
SUFFIX = ".bin"
TEMP_PREFIX = ".tmp-"
STALE_TEMP_SECONDS = 3600.0
"""A temporary file this old was left by a process that died mid-write: it is removed."""


class DiskCache:
    """Blobs by key in ``folder``, at most ``max_bytes`` of them in all."""

    def __init__(self, folder: Path, max_bytes: int) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self._ready: bool | None = None

    @staticmethod
    def key(*parts: object) -> str:
        """A file name for ``parts`` (game token, version, names...): hashed, so any text is
        safe and a new version is a new name."""
        text = "\x1f".join(str(p) for p in parts)
        return hashlib.sha256(text.encode()).hexdigest()[:40]

    def get(self, key: str) -> bytes | None:
        """The blob stored under ``key``, or None (never stored, evicted, or damaged)."""
        if not self._usable():
            return None
        path = self._path(key)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("cannot read a cached replay", extra={"path": str(path), "error": str(exc)})
            return None
        data = _unwrap(raw)
        if data is None:
            log.warning("dropped a damaged cached replay", extra={"path": str(path)})
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: evicted last
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (atomically), then evict down to the bound."""
        size = len(MAGIC) + DIGEST + len(data)
        if size > self.max_bytes or not self._usable():
            return
        path = self._path(key)
        try:
            fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(MAGIC + hashlib.sha256(data).digest() + data)
                os.replace(temp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError as exc:
            log.warning("cannot cache a replay", extra={"path": str(path), "error": str(exc)})
            return
        self.evict()

    def evict(self) -> None:
        """Remove the least recently used files until the rest fit in ``max_bytes``, and any
        temporary file a dead process left."""
        now = time.time()
        kept: list[tuple[float, int, Path]] = []
        for entry in _entries(self.folder):
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            path = Path(entry.path)
            if entry.name.startswith(TEMP_PREFIX):
                if now - info.st_mtime > STALE_TEMP_SECONDS:
                    with contextlib.suppress(OSError):
                        path.unlink()
            elif entry.name.endswith(SUFFIX) and stat.S_ISREG(info.st_mode):
                kept.append((info.st_mtime, info.st_size, path))
        total = sum(size for _, size, _ in kept)
        for _, size, path in sorted(kept):
            if total <= self.max_bytes:
                break
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            total -= size

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def _usable(self) -> bool:
        """Whether the folder exists (made on first use) as a real folder of this user's."""
        if self._ready is None:
            self._ready = self._prepare()
        return self._ready

    def _prepare(self) -> bool:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = os.lstat(self.folder)
        except OSError as exc:
            log.warning(
                "replays are not cached on disk: cannot make the folder",
                extra={"path": str(self.folder), "error": str(exc)},
            )
            return False
        # A folder in a shared temporary directory could have been made by someone else, to
        # read or plant replays: only a real folder owned by this user is used.
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            log.warning(
                "replays are not cached on disk: the folder is not this user's own",
                extra={"path": str(self.folder)},
            )
            return False
        return True


def _entries(folder: Path) -> Iterable[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError:
        return []


def _unwrap(raw: bytes) -> bytes | None:
    """The blob in a file's bytes, or None when its magic or checksum is wrong."""
    head = len(MAGIC) + DIGEST
    if len(raw) < head or not raw.startswith(MAGIC):
        return None
    data = raw[head:]
    if hashlib.sha256(data).digest() != raw[len(MAGIC) : head]:
        return None
    return data


def replay_cache(settings: Settings, database: str | None = None) -> DiskCache | None:
    """The replay cache the settings ask for (None when CROSSPATH_CACHE_MB is 0), in
    :meth:`Settings.cache_folder` for ``database`` (default: the settings' own)."""
    if settings.cache_mb <= 0:
        return None
    return DiskCache(settings.cache_folder(database), settings.cache_mb * 1024 * 1024)
