"""Closing the store never hangs, whatever was cancelled, refused or still running.

The reported hang: after a few service calls ``await store.close()`` never returned.  Cause
found: when a task inside ``Store.write()`` was cancelled a second time while its ROLLBACK was
in flight, the lock was released with that hop still queued on aiosqlite's thread; if the
event loop then closed (``asyncio.run`` ending), the thread crashed delivering the result to
the closed loop ("Event loop is closed"), and every later call, ``close()`` included, waited
forever (even under ``asyncio.wait_for``, because aiosqlite's close awaits in a ``finally``).
A stuck hop also made ``close()`` wait without bound, and two concurrent closes raised.
The store now awaits every aiosqlite call to its end, even when its caller is cancelled, so no
call is left pending when a loop ends, and ``close()`` is bounded; these tests prove it.

aiosqlite's thread is held still with a gate (a SQL function that blocks on a
``threading.Event``, with a timeout so a regression fails instead of hanging the suite), which
makes "mid-hop" exact.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB

from bot.service import GameService, IllegalMoveError, NotYourTurn, StaleAction
from bot.store import SqliteStore as Store
from bot.store import StoreError

GUILD, CHANNEL, OTHER = 1000, 2000, 2002
GATE_LIMIT = 5.0


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def moves_in(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT move FROM moves ORDER BY game_id, ply")]
    finally:
        conn.close()


def settled(store: Store) -> bool:
    """No task holds the lock and no transaction is open on the connection."""
    conn = store._conn
    return not store._lock.locked() and conn is not None and not conn.in_transaction


async def hold_thread(store: Store) -> tuple[threading.Event, asyncio.Future[Any]]:
    """Block the store's thread until the returned event is set (at most GATE_LIMIT s)."""
    gate = threading.Event()
    assert store._conn is not None
    await store._conn.create_function("gate", 0, lambda: gate.wait(GATE_LIMIT))
    held = asyncio.ensure_future(store._fetchall("SELECT gate()"))
    await asyncio.sleep(0)
    return gate, held


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("condition never became true")


async def start(service: GameService, game: str, channel: int, size: int = 5) -> int:
    challenge = await service.create_challenge(GUILD, channel, ALICE, BOB, game, size)
    return (await service.accept_challenge(challenge.id, BOB)).game.id


async def test_close_returns_after_every_kind_of_service_call(db_path: Path) -> None:
    store = await Store.open(db_path)
    service = GameService(store, rng=random.Random(7))
    await start(service, "minefield", CHANNEL)
    await service.play_move(CHANNEL, ALICE, "c3")
    with pytest.raises(NotYourTurn):
        await service.play_move(CHANNEL, ALICE, "a1")  # refused inside the transaction
    with pytest.raises(IllegalMoveError):
        await service.play_move(CHANNEL, BOB, "c3")
    with pytest.raises(StaleAction):
        await service.play_move(CHANNEL, BOB, "a1", expected_version=0)
    assert settled(store)
    await start(service, "clearpath", OTHER)
    await service.play_move(OTHER, ALICE, "c3")
    await service.play.swap(OTHER, BOB)
    info = await service.get_game(OTHER)  # a read transaction
    assert info is not None and info.moves == ("c3", "swap")
    await service.games.game_record(info.id)

    # Cancelled mid-transaction: by wait_for timeouts and by cancel() after k loop steps,
    # once or twice (the second lands on the ROLLBACK).  Each must leave nothing behind.
    rng = random.Random(3)
    for attempt in range(40):
        current = await service.get_game(CHANNEL)
        assert current is not None and current.to_move_id is not None
        position = await service.position(current.id)
        move = rng.choice(position.legal_moves())
        call = service.play_move(CHANNEL, current.to_move_id, move)
        if attempt % 2:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(call, rng.choice([0, 1e-6, 1e-4, 1e-3]))
        else:
            task = asyncio.ensure_future(call)
            for _ in range(rng.randrange(6)):
                await asyncio.sleep(0)
            task.cancel()
            if attempt % 4 == 0:
                await asyncio.sleep(0)
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        assert settled(store), f"attempt {attempt}"
        if (await service.get_game(CHANNEL)) is None:
            await start(service, "minefield", CHANNEL)
    await service.resign(OTHER, ALICE)

    await asyncio.wait_for(store.close(), timeout=10)
    await asyncio.wait_for(store.close(), timeout=10)  # twice is harmless
    assert integrity(db_path) == "ok"
    async with Store(db_path) as reopened:
        assert await reopened.integrity_check() == "ok"
        again = GameService(reopened)
        info = await again.get_game(CHANNEL)
        assert info is not None  # the database still plays after all the cancellations
        record = await again.games.game_record(info.id)
        assert [m.move for m in record.moves] == list(info.moves)


async def test_a_task_cancelled_mid_hop_keeps_the_lock_until_its_rollback_ran(
    db_path: Path,
) -> None:
    store = await Store.open(db_path)
    service = GameService(store)
    await start(service, "minefield", CHANNEL)
    gate, held = await hold_thread(store)
    task = asyncio.ensure_future(service.play_move(CHANNEL, ALICE, "c3"))
    await until(store._lock.locked)
    task.cancel()
    await asyncio.sleep(0.01)
    task.cancel()  # again, while it waits for its ROLLBACK
    await asyncio.sleep(0.01)
    assert not task.done() and store._lock.locked()  # not released with hops in flight
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    await held
    assert settled(store)
    info = await service.get_game(CHANNEL)
    assert info is not None and info.moves == () and info.version == 0
    await asyncio.wait_for(store.close(), timeout=10)
    assert integrity(db_path) == "ok" and moves_in(db_path) == []


async def test_close_waits_for_a_move_in_progress(db_path: Path) -> None:
    store = await Store.open(db_path)
    service = GameService(store)
    await start(service, "minefield", CHANNEL)
    gate, held = await hold_thread(store)
    move = asyncio.ensure_future(service.play_move(CHANNEL, ALICE, "c3"))
    await until(store._lock.locked)
    closing = [asyncio.ensure_future(store.close()) for _ in range(3)]
    await asyncio.sleep(0.01)
    assert not any(c.done() for c in closing)
    gate.set()
    await asyncio.wait_for(asyncio.gather(*closing), timeout=10)  # no error from the others
    assert (await move).game.moves == ("c3",)
    await held
    with pytest.raises(StoreError):
        await service.get_game(CHANNEL)
    assert integrity(db_path) == "ok" and moves_in(db_path) == ["c3"]


async def test_close_gives_up_on_a_stuck_hop_instead_of_waiting_forever(db_path: Path) -> None:
    store = await Store.open(db_path)
    service = GameService(store)
    await start(service, "minefield", CHANNEL)
    gate, held = await hold_thread(store)
    move = asyncio.ensure_future(service.play_move(CHANNEL, ALICE, "c3"))
    await until(store._lock.locked)
    with pytest.raises(StoreError, match="did not finish"):
        await asyncio.wait_for(store.close(timeout=0.2), timeout=10)
    await asyncio.wait_for(store.close(), timeout=10)  # already closed: returns at once
    gate.set()
    with pytest.raises(StoreError, match="closed"):
        await move  # its connection went away under it; the move is not half-written
    await held
    assert integrity(db_path) == "ok" and moves_in(db_path) == []


def test_a_loop_ending_mid_rollback_leaves_a_store_that_still_closes(db_path: Path) -> None:
    """The reported hang: three ``asyncio.run`` calls, as a scratch script would make them."""

    async def open_and_start() -> tuple[Store, GameService]:
        store = await Store.open(db_path)
        service = GameService(store)
        await start(service, "minefield", CHANNEL)
        return store, service

    store, service = asyncio.run(open_and_start())

    async def cancel_twice_then_end_the_loop() -> None:
        gate, _ = await hold_thread(store)
        task = asyncio.ensure_future(service.play_move(CHANNEL, ALICE, "c3"))
        await until(store._lock.locked)
        task.cancel()
        await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.sleep(0.01)
        threading.Timer(0.2, gate.set).start()  # the thread finishes after the loop ended

    asyncio.run(cancel_twice_then_end_the_loop())
    outcome: list[BaseException | None] = []

    def close_in_a_new_loop() -> None:
        try:
            asyncio.run(asyncio.wait_for(store.close(), timeout=10))
            outcome.append(None)
        except BaseException as exc:  # reported below
            outcome.append(exc)

    closer = threading.Thread(target=close_in_a_new_loop, daemon=True)
    closer.start()
    closer.join(timeout=20)  # before the fix this thread never finished
    assert not closer.is_alive(), "store.close() hung"
    assert outcome == [None]
    assert integrity(db_path) == "ok" and moves_in(db_path) == []
