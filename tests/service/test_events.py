"""Events after commit: a write's events reach the listeners once it has committed, in order,
and never when it rolls back; a failing listener does not undo or fail the write."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CHANNEL, GUILD, FakeClock, StartGame

from bot.service import (
    EVENTS,
    Event,
    GameOver,
    GameService,
    RoundPaired,
    TimeControl,
    TournamentFinished,
)
from bot.store import Store, Tx


class CommitFailed(Exception):
    """Raised at the end of a watched write block, as a failed commit would be."""


class WatchedStore:
    """A real store whose writes count their commits, and can be made to fail at the end of
    the block (after everything inside it ran), so the whole transaction rolls back."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.commits = 0
        self.fail_commit = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with self._store.write() as tx:
            yield tx
            if self.fail_commit:
                raise CommitFailed
        self.commits += 1


class Heard:
    """Every event published, with the number of commits seen when it arrived."""

    def __init__(self, service: GameService, watched: WatchedStore) -> None:
        self.events: list[tuple[Event, int]] = []
        for kind in EVENTS:
            service.events.subscribe(
                kind, lambda event: self.events.append((event, watched.commits))
            )

    def kinds(self) -> list[str]:
        return [type(event).__name__ for event, _ in self.events]


@pytest.fixture
def watched(store: Store) -> WatchedStore:
    return WatchedStore(store)


@pytest.fixture
def watched_service(watched: WatchedStore, clock: FakeClock) -> GameService:
    return GameService(watched, clock=clock)  # type: ignore[arg-type]


async def start(service: GameService) -> int:
    challenge = await service.create_challenge(
        GUILD, CHANNEL, ALICE, BOB, "minefield", 5, "me", "none"
    )
    return (await service.accept_challenge(challenge.id, BOB, CHANNEL)).game.id


async def test_a_game_end_is_heard_once_and_only_after_its_commit(
    watched: WatchedStore, watched_service: GameService
) -> None:
    service = watched_service
    game_id = await start(service)
    heard = Heard(service, watched)
    before = watched.commits
    ended = await service.resign(CHANNEL, ALICE)
    assert heard.kinds() == ["GameOver"]
    event, commits_then = heard.events[0]
    assert commits_then == before + 1, "the listener ran before the write committed"
    assert isinstance(event, GameOver)
    assert event.ended == ended
    assert event.ended.game.id == game_id and event.ended.result.winner_id == BOB


async def test_a_write_that_rolls_back_is_never_heard(
    watched: WatchedStore, watched_service: GameService
) -> None:
    service = watched_service
    await start(service)
    heard = Heard(service, watched)
    watched.fail_commit = True
    with pytest.raises(CommitFailed):
        await service.resign(CHANNEL, ALICE)
    assert heard.events == []
    watched.fail_commit = False
    game = await service.get_game(CHANNEL)
    assert game is not None and game.is_active, "the resignation was rolled back"
    await service.resign(CHANNEL, ALICE)  # the same write, committed this time, is heard
    assert heard.kinds() == ["GameOver"]


async def test_a_failing_listener_neither_fails_nor_undoes_the_write(
    service: GameService, start_game: StartGame, caplog: pytest.LogCaptureFixture
) -> None:
    await start_game()

    def broken(_: GameOver) -> None:
        raise RuntimeError("a listener's bug")

    later: list[GameOver] = []
    service.events.subscribe(GameOver, broken)
    service.events.subscribe(GameOver, later.append)
    ended = await service.resign(CHANNEL, ALICE)
    assert ended.result.winner_id == BOB
    assert later == [GameOver(ended)], "the next listener still heard it"
    assert "an event listener failed" in caplog.text
    assert (await service.get_game(CHANNEL)) is None or not (
        await service.get_game(CHANNEL)
    ).is_active


async def test_a_tournament_reports_its_rounds_and_its_end(
    watched: WatchedStore, watched_service: GameService
) -> None:
    service = watched_service
    t = await service.create_tournament(
        GUILD,
        CHANNEL,
        ALICE,
        game="minefield",
        size=5,
        format="round_robin",
        time_control=TimeControl(per_move=3600),
    )
    for user in (101, 102, 103):
        await service.join_tournament(t.id, user)
    heard = Heard(service, watched)
    await service.start_tournament(t.id, ALICE)
    paired = [e for e, _ in heard.events if isinstance(e, RoundPaired)]
    assert paired and all(e.tournament_id == t.id and e.guild_id == GUILD for e in paired)
    games = await service.tournament_games(t.id)
    while any(g.is_active for g in games):
        game = next(g for g in games if g.is_active)
        assert game.to_move_id is not None
        await service.resign(game.channel_id, game.to_move_id)
        games = await service.tournament_games(t.id)
    kinds = heard.kinds()
    assert kinds.count("GameOver") == len(games)
    assert kinds.count("TournamentFinished") == 1 and kinds[-1] == "TournamentFinished"
    every_paired = {
        gid for e, _ in heard.events if isinstance(e, RoundPaired) for gid in e.game_ids
    }
    assert every_paired == {g.id for g in games}
    finished = heard.events[-1][0]
    assert isinstance(finished, TournamentFinished) and finished.tournament_id == t.id
    # Each event arrived after the commit of the write that made it, never before.
    assert all(commits > 0 for _, commits in heard.events)


async def test_an_event_outside_a_write_is_a_bug_not_a_silent_loss(service: GameService) -> None:
    with pytest.raises(RuntimeError, match="outside a service write"):
        service.core.emit(TournamentFinished(1, GUILD))
