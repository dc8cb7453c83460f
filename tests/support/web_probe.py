"""Helpers for the web tests: a real HTTP GET, a /metrics page parsed into samples, and a
SQLite file overwritten (and put back) to make the database unreadable."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families


async def get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as answer,
    ):
        return answer.status, await answer.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a /metrics page, by name and sorted labels."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def overwrite(db_path: Path) -> dict[Path, bytes]:
    """Overwrite the database and its WAL and shared-memory files with a fixed pattern (what
    a disk fault or a stray copy does); returns what was there, to put back."""
    saved = {}
    for part in db_path.parent.glob(db_path.name + "*"):
        saved[part] = part.read_bytes()
        with part.open("r+b") as file:
            file.write((b"\xde\xad\xbe\xef" * (len(saved[part]) // 4 + 1))[: len(saved[part])])
    return saved
