"""Replays kept on disk (issue 46): served again after a restart, a new file per game version,
bounded in bytes, and never a damaged or half-written file."""

from __future__ import annotations

import os
import time
from pathlib import Path

import aiohttp
import pytest
from web_games import FINISHED_MOVES, pages_site, start_public

import bot.web.pages
from bot.config import Settings, SettingsError, settings_from
from bot.service import GameService
from bot.web.disk_cache import MAGIC, DiskCache, replay_cache
from bot.web.pages import SECURITY_HEADERS


async def fetch(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, dict(answer.headers), await answer.read()


def files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bin"))


def no_drawing(*args: object, **kwargs: object) -> bytes:
    raise AssertionError("the replay was drawn again, not read from the disk cache")


async def test_a_replay_is_served_from_disk_after_a_restart(
    service: GameService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = await start_public(service, 3000, FINISHED_MOVES)
    path = f"/games/{info.web_token}/replay.gif"
    async with pages_site(service, replays=DiskCache(tmp_path, 10 << 20)) as port:
        status, headers, first = await fetch(port, path)
    assert status == 200 and first[:6] == b"GIF89a"
    assert len(files(tmp_path)) == 1
    monkeypatch.setattr(bot.web.pages, "render_gif", no_drawing)
    # A new app object (nothing in its memory) over the same folder: read, not drawn.
    async with pages_site(service, replays=DiskCache(tmp_path, 10 << 20)) as port:
        status, again, second = await fetch(port, path)
    assert status == 200 and second == first
    assert again["Content-Type"] == headers["Content-Type"] == "image/gif"
    for name, value in SECURITY_HEADERS.items():
        assert again[name] == value


async def test_a_new_move_makes_a_new_file(service: GameService, tmp_path: Path) -> None:
    info = await start_public(service, 3001, FINISHED_MOVES[:3])
    path = f"/games/{info.web_token}/replay.gif"
    async with pages_site(service, replays=DiskCache(tmp_path, 10 << 20)) as port:
        before = (await fetch(port, path))[2]
        assert len(files(tmp_path)) == 1
        assert info.to_move_id is not None
        await service.play_move(3001, info.to_move_id, FINISHED_MOVES[3])
        after = (await fetch(port, path))[2]
    assert after != before and after[:6] == b"GIF89a"
    assert len(files(tmp_path)) == 2


async def test_a_damaged_file_is_drawn_afresh_not_served(
    service: GameService, tmp_path: Path
) -> None:
    info = await start_public(service, 3002, FINISHED_MOVES)
    path = f"/games/{info.web_token}/replay.gif"
    async with pages_site(service, replays=DiskCache(tmp_path, 10 << 20)) as port:
        good = (await fetch(port, path))[2]
    (stored,) = files(tmp_path)
    stored.write_bytes(stored.read_bytes()[:-100])  # cut short, as a full disk might
    async with pages_site(service, replays=DiskCache(tmp_path, 10 << 20)) as port:
        status, _, served = await fetch(port, path)
    assert status == 200 and served == good
    assert DiskCache(tmp_path, 10 << 20).get(stored.name.removesuffix(".bin")) == good


def test_a_damaged_or_foreign_file_is_a_miss_and_is_removed(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, 1 << 20)
    cache.put("k", b"replay bytes")
    (path,) = files(tmp_path)
    raw = path.read_bytes()
    assert raw.startswith(MAGIC) and cache.get("k") == b"replay bytes"
    for damaged in (raw[:-1], raw[:-1] + b"X", b"", b"GIF89a...", raw[:20]):
        path.write_bytes(damaged)
        assert cache.get("k") is None
        assert not path.exists()
        cache.put("k", b"replay bytes")


def test_writes_are_atomic_and_leave_no_temporary_file(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, 1 << 20)
    cache.put("k", b"first")
    cache.put("k", b"second")
    assert [p.name for p in tmp_path.iterdir()] == ["k.bin"]
    assert cache.get("k") == b"second"


def test_a_stale_temporary_file_is_swept_and_a_fresh_one_kept(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path, 1 << 20)
    stale, fresh = tmp_path / ".tmp-dead", tmp_path / ".tmp-writing"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"half")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    cache.put("k", b"x")
    assert not stale.exists() and fresh.exists()
    assert cache.get("tmp-writing") is None


def test_the_bound_evicts_the_least_recently_used(tmp_path: Path) -> None:
    blob = b"x" * 1000
    cache = DiskCache(tmp_path, 3 * (1000 + 40) + 10)  # three entries fit, not four
    now = time.time()
    for n, key in enumerate(("a", "b", "c")):
        cache.put(key, blob)
        os.utime(tmp_path / f"{key}.bin", (now - 100 + n, now - 100 + n))
    assert cache.get("a") == blob  # a is used again: b is now the oldest
    cache.put("d", blob)
    assert {p.stem for p in files(tmp_path)} == {"a", "c", "d"}
    assert sum(p.stat().st_size for p in files(tmp_path)) <= cache.max_bytes
    cache.put("huge", b"y" * 10_000)  # larger than the whole bound: not kept, nothing lost
    assert {p.stem for p in files(tmp_path)} == {"a", "c", "d"}


def test_a_folder_that_is_a_link_or_a_file_is_not_used(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    cache = DiskCache(link, 1 << 20)
    cache.put("k", b"x")
    assert cache.get("k") is None and list(real.iterdir()) == []
    afile = tmp_path / "afile"
    afile.write_text("")
    cache = DiskCache(afile, 1 << 20)
    cache.put("k", b"x")
    assert cache.get("k") is None


def test_keys_differ_by_version_and_are_safe_file_names() -> None:
    one = DiskCache.key("replay.gif", "../tok/en", 3, {"red": "Ann"})
    assert one != DiskCache.key("replay.gif", "../tok/en", 4, {"red": "Ann"})
    assert one != DiskCache.key("replay.gif", "../tok/en", 3, {"red": "Bob"})
    assert one.isalnum()


def test_the_cache_settings(tmp_path: Path) -> None:
    default = settings_from({})
    assert default.cache_mb == 256 and default.cache_dir == ""
    assert default.cache_folder() == Path("crosspath-cache")
    beside = settings_from({"CROSSPATH_DATABASE": str(tmp_path / "data" / "bot.sqlite3")})
    assert beside.cache_folder() == tmp_path / "data" / "crosspath-cache"
    pg = settings_from({"CROSSPATH_DATABASE": "postgresql://bot@/crosspath"}).cache_folder()
    assert pg.name == f"crosspath-cache-{os.getuid()}"
    assert default.cache_folder("postgresql://x@/y") == pg  # crosspath web --db
    chosen = settings_from({"CROSSPATH_CACHE_DIR": f" {tmp_path} ", "CROSSPATH_CACHE_MB": "5"})
    assert chosen.cache_folder() == tmp_path
    cache = replay_cache(chosen)
    assert cache is not None and cache.max_bytes == 5 << 20 and cache.folder == tmp_path
    assert replay_cache(settings_from({"CROSSPATH_CACHE_MB": "0"})) is None
    assert replay_cache(Settings()) is not None


@pytest.mark.parametrize("raw", ["-1", "1.5", "lots", "²", "1000001"])
def test_a_bad_cache_size_is_refused(raw: str) -> None:
    with pytest.raises(SettingsError, match="CROSSPATH_CACHE_MB must be a whole number"):
        settings_from({"CROSSPATH_CACHE_MB": raw})


def test_a_cache_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(SettingsError, match="is a file, not a folder"):
        settings_from({"CROSSPATH_CACHE_DIR": str(afile)})
