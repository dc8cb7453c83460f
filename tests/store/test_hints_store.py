"""``tx.hints.count_hint`` on every engine: one player's count, only at the version read, the
game's version untouched, nothing for a non-player or a finished game."""

from __future__ import annotations

from game_fixtures import ALICE, BOB, CAROL
from store_rows import inserted, read_game

from bot.store import ResultRow, Store


async def test_count_hint_counts_each_player_at_the_version_read(store: Store) -> None:
    row = await inserted(store)
    assert (row.first_hints, row.second_hints) == (0, 0)
    async with store.write() as tx:
        assert await tx.hints.count_hint(row.id, row.version, ALICE) == (1, 0)
        assert await tx.hints.count_hint(row.id, row.version, ALICE) == (2, 0)
        assert await tx.hints.count_hint(row.id, row.version, BOB) == (2, 1)
        assert await tx.hints.count_hint(row.id, row.version, CAROL) is None
        assert await tx.hints.count_hint(row.id, row.version + 1, ALICE) is None
    after = await read_game(store, row.id)
    assert (after.first_hints, after.second_hints) == (2, 1)
    assert after.version == row.version and after.updated_at == row.updated_at


async def test_count_hint_leaves_a_finished_game_alone(store: Store) -> None:
    row = await inserted(store)
    async with store.write() as tx:
        row = await tx.games.finish_game(row, ResultRow("aborted", "abort", actor_id=ALICE), at=9)
        assert await tx.hints.count_hint(row.id, row.version, ALICE) is None
    assert (await read_game(store, row.id)).first_hints == 0
