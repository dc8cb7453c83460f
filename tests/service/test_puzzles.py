"""Puzzles on every engine with a controlled clock: a starter puzzle answered right and
wrong, bad input that changes nothing, an answer racing its expiry, a restart in between,
and the daily puzzle claimed once by two processes over one database."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, GUILD, START, Snapshot, refused

from ai.puzzles import Puzzle, load_starter, puzzle_id
from ai.puzzles import answer as judge_answer
from ai.puzzles.difficulty import seed_mu
from bot.service import (
    GameService,
    IllegalMoveError,
    InvalidInput,
    PuzzleNotFound,
    PuzzleOver,
    PuzzleView,
)
from bot.service.puzzles import service as puzzle_service
from bot.store import open_store

DAY = START.strftime("%Y-%m-%d")
NEXT_DAY = (START + timedelta(days=1)).strftime("%Y-%m-%d")


def shipped(view: PuzzleView) -> Puzzle:
    return next(p for p in load_starter(view.game) if p.id == view.puzzle_id)


async def solve(service: GameService, view: PuzzleView, user: int = ALICE) -> Any:
    """Answer the solution's moves in turn (the service plays the defences)."""
    puzzle = shipped(view)
    result = None
    played = list(view.played)
    while len(played) < len(puzzle.solution):
        result = await service.puzzles.answer(view.attempt_id, user, puzzle.solution[len(played)])
        assert result.correct, result
        played = list(result.view.played)
        if result.solved:
            break
    assert result is not None and result.solved
    return result


async def test_a_starter_puzzle_solved_raises_the_rating_and_the_streak(
    service: GameService,
) -> None:
    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    assert view.game == "minefield" and view.played == () and view.to_move
    assert await service.puzzles.standing(ALICE) is None
    result = await solve(service, view)
    assert result.rating > 1500 and result.streak == 1
    assert result.solution == shipped(view).solution
    standing = await service.puzzles.standing(ALICE)
    assert standing is not None
    assert (standing.solved, standing.failed, standing.streak, standing.best_streak) == (1, 0, 1, 1)
    with pytest.raises(PuzzleOver):
        await service.puzzles.answer(view.attempt_id, ALICE, shipped(view).solution[0])
    again = await service.puzzles.start(ALICE, GUILD, "minefield")
    assert again.puzzle_id != view.puzzle_id  # never the same puzzle twice


async def test_a_starter_puzzle_is_seeded_from_its_level_3_effort(service: GameService) -> None:
    view = await service.puzzles.start(ALICE, GUILD, "crosscut")
    effort = shipped(view).effort
    assert effort is not None
    async with service.store.read() as tx:
        row = await tx.puzzles.puzzle(view.puzzle_id)
    assert row is not None and row.mu == pytest.approx(seed_mu(effort))
    assert row.sigma == puzzle_service.INITIAL_SIGMA
    assert view.rating == puzzle_service.display(seed_mu(effort))
    # Every shipped crosscut puzzle was stored with its own seed.
    async with service.store.read() as tx:
        for puzzle in load_starter("crosscut")[:20]:
            stored = await tx.puzzles.puzzle(puzzle.id)
            assert stored is not None and puzzle.effort is not None
            assert stored.mu == pytest.approx(seed_mu(puzzle.effort))


async def test_a_wrong_answer_is_refuted_and_ends_the_streak(service: GameService) -> None:
    first = await service.puzzles.start(ALICE, GUILD, "minefield")
    await solve(service, first)
    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    game = shipped(view).position()
    wrong = next(m for m in game.legal_moves() if m != shipped(view).solution[0])
    result = await service.puzzles.answer(view.attempt_id, ALICE, wrong)
    assert not result.correct and not result.solved and result.move == wrong
    game.play(wrong)
    assert result.reply is not None or game.is_over
    assert result.solution == shipped(view).solution
    standing = await service.puzzles.standing(ALICE)
    assert standing is not None
    assert (standing.solved, standing.failed, standing.streak, standing.best_streak) == (1, 1, 0, 1)


async def test_bad_input_changes_nothing(service: GameService) -> None:
    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    with pytest.raises(PuzzleNotFound):
        await service.puzzles.answer(view.attempt_id + 999, ALICE, "c3")
    with pytest.raises(PuzzleNotFound):  # someone else's puzzle
        await service.puzzles.answer(view.attempt_id, BOB, "c3")
    with pytest.raises(IllegalMoveError):
        await service.puzzles.answer(view.attempt_id, ALICE, "zz99")
    occupied = next(m for m in view.moves if m != "swap")
    with pytest.raises(IllegalMoveError):
        await service.puzzles.answer(view.attempt_id, ALICE, occupied)
    with pytest.raises(InvalidInput):
        await service.puzzles.start(ALICE, GUILD, "chess")
    assert await service.puzzles.standing(ALICE) is None
    await solve(service, view)  # the attempt was left as it was


async def test_answers_are_judged_off_the_event_loop_thread(service: GameService) -> None:
    """Judging (the replay, the defence, the refutation) runs in the service's executor, by
    default the computer's process pool; never on the loop's thread."""
    assert service.puzzles.executor is None  # the shared process pool (ai.pool)
    threads: list[int] = []

    class Recording(ThreadPoolExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            def run() -> Any:
                threads.append(threading.get_ident())
                return fn(*args, **kwargs)

            return super().submit(run)

    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    right = await service.puzzles.answer(view.attempt_id, ALICE, shipped(view).solution[0])
    assert right.correct  # judged in the process pool
    with Recording(1) as executor:
        service.puzzles.executor = executor
        again = await service.puzzles.start(ALICE, GUILD, "minefield")
        legal = shipped(again).position().legal_moves()
        wrong = next(m for m in legal if m != shipped(again).solution[0])
        result = await service.puzzles.answer(again.attempt_id, ALICE, wrong)
    assert not result.correct and threads
    assert threading.get_ident() not in threads


async def test_an_answer_that_arrives_in_time_counts_however_long_it_is_judged(
    service: GameService, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    clock.now = view.expires_at  # the last moment
    real = judge_answer

    def slow(*args: Any) -> Any:
        clock.advance(minutes=5)  # judging ends past the expiry
        return real(*args)

    monkeypatch.setattr(puzzle_service, "judge_answer", slow)
    # a thread, so the patched judge runs (the process pool's workers import their own)
    with ThreadPoolExecutor(1) as executor:
        service.puzzles.executor = executor
        result = await service.puzzles.answer(view.attempt_id, ALICE, shipped(view).solution[0])
    assert result.correct
    monkeypatch.setattr(puzzle_service, "judge_answer", real)
    late = await service.puzzles.start(ALICE, GUILD, "minefield")
    clock.now = late.expires_at + timedelta(microseconds=1)
    with pytest.raises(PuzzleOver):
        await service.puzzles.answer(late.attempt_id, ALICE, shipped(late).solution[0])
    with pytest.raises(PuzzleOver):
        await service.puzzles.give_up(late.attempt_id, ALICE)


async def test_an_attempt_survives_a_restart(store_target: Any, clock: Any) -> None:
    store = await open_store(store_target)
    try:
        view = await GameService(store, clock=clock).puzzles.start(ALICE, GUILD, "minefield")
    finally:
        await store.close()
    store = await open_store(store_target)
    try:
        await solve(GameService(store, clock=clock), view)
    finally:
        await store.close()


async def test_giving_up_shows_the_solution_and_counts_as_a_failure(
    service: GameService,
) -> None:
    view = await service.puzzles.start(ALICE, GUILD, None)
    result = await service.puzzles.give_up(view.attempt_id, ALICE)
    assert not result.correct and result.solution == shipped(view).solution
    assert result.rating is not None and result.rating < 1500
    with pytest.raises(PuzzleOver):
        await service.puzzles.give_up(view.attempt_id, ALICE)


async def test_the_daily_puzzle_is_posted_once_by_two_processes(
    store_target: str | Path, clock: Any
) -> None:
    one, two = await open_store(store_target), await open_store(store_target)
    try:
        first = GameService(one, clock=clock, rng=random.Random(1))
        second = GameService(two, clock=clock, rng=random.Random(2))
        await first.puzzles.set_channel(GUILD, 555)
        claims = await asyncio.gather(
            first.puzzles.claim_daily(DAY, "process-1"),
            second.puzzles.claim_daily(DAY, "process-2"),
            first.puzzles.claim_daily(DAY, "process-1"),
        )
        posted = [daily for batch in claims for daily in batch]
        assert len(posted) == 1 and posted[0].channel_id == 555
        assert await second.puzzles.claim_daily(DAY, "process-2") == []  # after a restart too
        view = await second.puzzles.start_daily(ALICE, GUILD, DAY)
        assert view.puzzle_id == posted[0].puzzle_id and view.daily_day == DAY
        await solve(second, view)
        with pytest.raises(PuzzleOver):
            await first.puzzles.start_daily(ALICE, GUILD, DAY)
        solutions = await asyncio.gather(
            first.puzzles.claim_solution(GUILD, DAY), second.puzzles.claim_solution(GUILD, DAY)
        )
        found = [s for s in solutions if s is not None]
        assert len(found) == 1 and found[0].solved == 1
        assert found[0].solution == shipped(view).solution
        with pytest.raises(PuzzleNotFound):
            await first.puzzles.start_daily(ALICE, GUILD, NEXT_DAY)
    finally:
        await one.close()
        await two.close()


async def test_a_finished_game_is_mined_for_its_server_alone(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real game through the service whose moves pass through a known puzzle's position.
    puzzle = next(p for p in load_starter("minefield") if p.size == 6)
    line = list((*puzzle.moves, *puzzle.solution))
    on_line = {puzzle_id("minefield", puzzle.size, line[:n]) for n in range(len(line) + 1)}
    real_rows = puzzle_service._starter_rows

    def others(game: str, now: int) -> list[Any]:
        """The shipped set without this game's positions, so what it gives is mined anew
        (a shipped position stays public)."""
        return [row for row in real_rows(game, now) if row.id not in on_line]

    monkeypatch.setattr(puzzle_service, "_starter_rows", others)
    challenge = await service.create_challenge(GUILD, 4242, ALICE, BOB, "minefield", puzzle.size)
    info = (await service.accept_challenge(challenge.id, BOB)).game
    with pytest.raises(InvalidInput):  # a running game is refused
        await service.puzzles.mine_game(info.id, GUILD)
    for move in (*puzzle.moves, *puzzle.solution):
        current = await service.get_game(4242)
        assert current is not None and current.to_move_id is not None
        await service.play_move(4242, current.to_move_id, move)
    found = await service.puzzles.mine_game(info.id, GUILD + 7)
    assert found  # its last positions hold at least the known puzzle's
    assert puzzle.id in found and set(found) <= on_line
    # Stored for that server only: a private puzzle first in line is given there, not here.
    async with service.store.write() as tx:
        rows = [await tx.puzzles.puzzle(found_id) for found_id in found]
        assert all(row is not None and row.guild_id == GUILD + 7 for row in rows)
        assert rows[0] is not None
        first = replace(rows[0], id="0" * 12, mu=puzzle_service.INITIAL_MU)  # a new player's
        await tx.puzzles.add([first])
    here = await service.puzzles.start(ALICE, GUILD, "minefield")
    there = await service.puzzles.start(BOB, GUILD + 7, "minefield")
    assert here.puzzle_id != "0" * 12 and there.puzzle_id == "0" * 12
    with pytest.raises(PuzzleNotFound):
        await service.puzzles.mine_game(info.id + 99, GUILD)


async def test_a_servers_own_puzzle_is_never_shown_outside_that_server(
    service: GameService, snapshot: Snapshot
) -> None:
    """Outside servers (guild None: a DM, a group DM) only public puzzles are given, and a
    server's own puzzle is answered, given up or autocompleted in that server alone."""
    await service.puzzles.start(BOB, GUILD, "minefield")  # the shipped set, stored
    shipped_one = next(p for p in load_starter("minefield"))
    private = replace(
        puzzle_service._row(shipped_one, 0),
        id="0" * 12,
        guild_id=GUILD,
        mu=puzzle_service.INITIAL_MU,  # a new player's rating: first in line where shown
    )
    async with service.store.write() as tx:
        await tx.puzzles.add([private])
    # In a DM: a public puzzle, never the server's own.
    outside = await service.puzzles.start(ALICE, None, "minefield")
    assert outside.puzzle_id != private.id
    await service.puzzles.give_up(outside.attempt_id, ALICE)  # a public one ends anywhere
    # In its server it is given (a copy at Alice's rating now, first in line there); from
    # anywhere else it is refused and nothing changes.
    async with service.store.write() as tx:
        rating = await tx.puzzles.rating(ALICE)
        assert rating is not None
        private = replace(private, id="1" * 12, mu=rating.mu)
        await tx.puzzles.add([private])
    view = await service.puzzles.start(ALICE, GUILD, "minefield")
    assert view.puzzle_id == private.id
    says = "answer it in that server"
    move = shipped_one.solution[0]
    for where in (None, GUILD + 1):
        await refused(
            snapshot,
            PuzzleNotFound,
            service.puzzles.answer(view.attempt_id, ALICE, move, guild_id=where),
            says,
        )
        await refused(
            snapshot, PuzzleNotFound, service.puzzles.answer_open(ALICE, move, guild_id=where), says
        )
        await refused(
            snapshot,
            PuzzleNotFound,
            service.puzzles.give_up(view.attempt_id, ALICE, guild_id=where),
            says,
        )
        assert await service.puzzles.answer_choices(ALICE, guild_id=where) == ()
    assert move in await service.puzzles.answer_choices(ALICE, guild_id=GUILD)
    result = await service.puzzles.answer(view.attempt_id, ALICE, move, guild_id=GUILD)
    assert result.correct
