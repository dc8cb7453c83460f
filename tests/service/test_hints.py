"""Hints in casual games (issue 48): only games that allow them (a challenge with hints, which
is unrated, or a game against the computer), only for the player to move, counted per player
after the hint was computed, and the proven verdict where a shipped proof decides.  Runs on
both engines."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import TypeVar

import pytest
from game_fixtures import ALICE, BOB, CAROL, FakeClock, Snapshot, refused

from ai.analysis import Settings
from bot.service import (
    GameFinished,
    GameInfo,
    GameService,
    InvalidChallenge,
    NoGameHere,
    NoHint,
    NotAPlayer,
    NotYourTurn,
)

GUILD, CHANNEL = 1000, 2000
SMALL = Settings(playouts=30, solve_empties=6, solve_nodes=2_000, proof_board_nodes=20_000)
Start = Callable[..., Awaitable[GameInfo]]
T = TypeVar("T")


@pytest.fixture
async def hinting(service: GameService) -> AsyncIterator[GameService]:
    """The service with a small hint budget, its searches on a thread (off the event loop, as
    the process pool would be, without spawning one per test)."""
    with ThreadPoolExecutor(1) as pool:
        service.hints.settings = SMALL
        service.hints.executor = pool
        yield service


@pytest.fixture
def start(service: GameService) -> Start:
    async def go(
        game: str = "minefield",
        size: int = 7,
        *,
        hints: bool = False,
        rated: bool = True,
        options: dict[str, str] | None = None,
    ) -> GameInfo:
        challenge = await service.create_challenge(
            GUILD,
            CHANNEL,
            ALICE,
            BOB,
            game,
            size,
            "me",
            "none",
            hints=hints,
            rated=rated,
            options=options,
        )
        return (await service.accept_challenge(challenge.id, BOB, CHANNEL)).game

    return go


async def test_a_challenge_with_hints_is_unrated_and_says_so(service: GameService) -> None:
    challenge = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, "minefield", 7, "me", "none", hints=True
    )
    assert challenge.hints and not challenge.rated
    plain = await service.create_challenge(GUILD, CHANNEL + 1, ALICE, BOB, "minefield", 7)
    assert not plain.hints and plain.rated
    game = (await service.accept_challenge(challenge.id, BOB, CHANNEL)).game
    assert not game.rated and game.hints == {ALICE: 0, BOB: 0}


async def test_the_hints_option_given_by_hand_still_makes_the_game_unrated(
    service: GameService, snapshot: Snapshot
) -> None:
    sneaky = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, "minefield", 7, options={"hints": "on"}, rated=True
    )
    assert sneaky.hints and not sneaky.rated
    await refused(
        snapshot,
        InvalidChallenge,
        service.create_challenge(
            GUILD, CHANNEL, ALICE, BOB, "minefield", 7, options={"hints": "x"}
        ),
        "hints",
    )


async def test_a_rated_game_never_allows_a_hint(
    hinting: GameService, start: Start, snapshot: Snapshot
) -> None:
    game = await start(rated=True)
    assert game.rated and game.hints is None
    await refused(snapshot, NoHint, hinting.hints.hint(CHANNEL, ALICE), "does not allow hints")


async def test_an_unrated_game_without_hints_allows_none(
    hinting: GameService, start: Start, snapshot: Snapshot
) -> None:
    game = await start(rated=False)
    assert game.hints is None
    await refused(snapshot, NoHint, hinting.hints.hint(CHANNEL, ALICE), "does not allow hints")


async def test_hints_are_counted_per_player_and_recorded(
    hinting: GameService, start: Start
) -> None:
    game = await start(hints=True)
    first = await hinting.hints.hint(CHANNEL, ALICE)
    assert first.used == 1 and first.proven is None and 0.0 <= first.win_chance <= 1.0
    position = await hinting.position(game.id)
    assert first.move in position.legal_moves()
    again = await hinting.hints.hint(CHANNEL, ALICE, game_id=game.id)
    assert again.used == 2 and again.move == first.move  # seeded: the same advice
    await hinting.play_move(CHANNEL, ALICE, first.move)
    bob = await hinting.hints.hint(CHANNEL, BOB)
    assert bob.used == 1
    info = await hinting.get_game(CHANNEL)
    assert info is not None and info.hints == {ALICE: 2, BOB: 1}
    assert info.version == game.version + 1  # hints change no version; the move did
    record = await hinting.games.game_record(game.id)
    hints = [(e.kind, e.user_id, e.detail) for e in record.history if e.kind == "hint"]
    assert hints == [("hint", ALICE, ""), ("hint", ALICE, ""), ("hint", BOB, "")]


async def test_refusals_change_nothing(
    hinting: GameService, start: Start, snapshot: Snapshot
) -> None:
    await refused(snapshot, NoGameHere, hinting.hints.hint(CHANNEL, ALICE), "no game")
    game = await start(hints=True)
    await refused(snapshot, NotYourTurn, hinting.hints.hint(CHANNEL, BOB), "not your turn")
    await refused(snapshot, NotAPlayer, hinting.hints.hint(CHANNEL, CAROL), "not playing")
    await refused(
        snapshot, NoGameHere, hinting.hints.hint(CHANNEL, ALICE, game_id=game.id + 1), "no game"
    )
    await hinting.resign(CHANNEL, BOB)
    await refused(snapshot, GameFinished, hinting.hints.hint(CHANNEL, ALICE), "over")
    await refused(
        snapshot, GameFinished, hinting.hints.hint(CHANNEL, ALICE, game_id=game.id), "over"
    )


async def test_a_game_against_the_computer_allows_hints(hinting: GameService, start: Start) -> None:
    game = await start(options={"ai_level": "1"})
    assert game.hints == {ALICE: 0, BOB: 0}
    hint = await hinting.hints.hint(CHANNEL, ALICE)
    assert hint.used == 1


async def test_a_proven_position_gives_the_verdict(hinting: GameService, start: Start) -> None:
    # Minefield 4×4 ships its proof (ai/solved/): every position on it is decided.
    await start(size=4, hints=True)
    hint = await hinting.hints.hint(CHANNEL, ALICE)
    assert hint.proven in ("win", "loss")
    assert hint.win_chance == (1.0 if hint.proven == "win" else 0.0)


class HeldPool(Executor):
    """Runs each search on a thread, but only once :attr:`go` is set: a test moves meanwhile."""

    def __init__(self, pool: Executor) -> None:
        self.pool = pool
        self.asked = threading.Event()
        self.go = threading.Event()

    def submit(self, fn: Callable[..., T], /, *args: object, **kwargs: object) -> Future[T]:
        self.asked.set()

        def held() -> T:
            self.go.wait(30)
            return fn(*args, **kwargs)

        return self.pool.submit(held)


async def test_a_hint_for_a_position_that_moved_on_is_not_counted(
    hinting: GameService, start: Start, snapshot: Snapshot
) -> None:
    game = await start(hints=True)
    assert hinting.hints.executor is not None
    held = HeldPool(hinting.hints.executor)
    hinting.hints.executor = held
    task = asyncio.ensure_future(hinting.hints.hint(CHANNEL, ALICE))
    while not held.asked.is_set():  # the hint read the position and is thinking
        await asyncio.sleep(0.01)
    position = await hinting.position(game.id)
    await hinting.play_move(CHANNEL, ALICE, position.legal_moves()[0])
    before = snapshot()
    held.go.set()
    with pytest.raises(NoHint, match="moved on"):
        await task
    assert snapshot() == before
    info = await hinting.get_game(CHANNEL)
    assert info is not None and info.hints == {ALICE: 0, BOB: 0}


async def test_no_hint_once_the_clock_ran_out(
    hinting: GameService, service: GameService, clock: FakeClock, snapshot: Snapshot
) -> None:
    challenge = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, "minefield", 7, "me", "1h", hints=True
    )
    await service.accept_challenge(challenge.id, BOB, CHANNEL)
    clock.advance(hours=2)
    await refused(snapshot, GameFinished, hinting.hints.hint(CHANNEL, ALICE), "time ran out")
