"""Ratings through the service and a real store, on every engine (issue 13).

Rated games update both players' ratings and history in the transaction that finishes them;
unrated games, games against the computer and aborts change nothing; a rebuild from the games
gives exactly the stored rows; the leaderboard and profiles agree with the model replayed in
memory; two games finishing at once for one player lose no update.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ADMIN, ALICE, BOB, CAROL, DAVE, ERIN

from bot.service import GameEnded, GameService, MoveResult
from bot.service.ratings.apply import rating_of
from bot.service.ratings.model import RatedGame, apply_game, outcome_for, rebuild, standings
from bot.store import Store, open_store

GUILD = 1000
OTHER_GUILD = 1001
PLAYERS = (ALICE, BOB, CAROL, DAVE, ERIN)


async def start(
    service: GameService,
    channel: int,
    a: int,
    b: int,
    *,
    guild: int = GUILD,
    rated: bool = True,
    options: dict[str, str] | None = None,
    game: str = "minefield",
) -> int:
    challenge = await service.create_challenge(
        guild, channel, a, b, game, 5, "me", rated=rated, options=options
    )
    started = await service.accept_challenge(challenge.id, b)
    return started.game.id


async def play_turns(
    service: GameService, channel: int, turns: int, rng: random.Random
) -> MoveResult | None:
    """Play ``turns`` random legal moves (fewer if the game ends); the last result."""
    last = None
    for _ in range(turns):
        info = await service.get_game(channel)
        if info is None:
            break
        engine = await service.position(info.id)
        move = rng.choice(engine.legal_moves())
        assert info.to_move_id is not None
        last = await service.play_move(channel, info.to_move_id, move)
        if last.is_over:
            break
    return last


async def ratings_table(store: Store) -> tuple[Any, Any]:
    contents = await store.export_all()
    return contents.ratings, contents.rating_history


async def test_a_rated_game_updates_both_players_and_says_by_how_much(
    service: GameService, store: Store
) -> None:
    await start(service, 1, ALICE, BOB)
    await play_turns(service, 1, 4, random.Random(3))  # two turns each
    ended = await service.resign(1, BOB)
    assert ended.rating is not None and ended.rating.rated and ended.rating.text == "rated"
    alice_line, bob_line = ended.rating.change_for(ALICE), ended.rating.change_for(BOB)
    assert alice_line is not None and bob_line is not None
    expected_a, expected_b = apply_game({}, RatedGame(ALICE, BOB, "win"))
    assert (alice_line.before, alice_line.after) == (1500, expected_a.after.shown)
    assert alice_line.delta > 0 > bob_line.delta
    assert (
        alice_line.describe("Alice")
        == f"Alice 1500 → {expected_a.after.shown}, +{alice_line.delta}"
    )
    ratings, history = await ratings_table(store)
    by_user = {r.user_id: r for r in ratings}
    assert rating_of(by_user[ALICE]) == expected_a.after
    assert rating_of(by_user[BOB]) == expected_b.after
    assert {(h.user_id, h.outcome, h.opponent_id) for h in history} == {
        (ALICE, "win", BOB),
        (BOB, "loss", ALICE),
    }
    assert ended.game.rated and ended.result.rated
    info = await service.get_game_by_id(ended.game.id)
    assert info.result is not None and info.result.rated


async def test_a_connection_carries_the_rating_lines(service: GameService) -> None:
    await start(service, 1, ALICE, BOB)
    result = await play_turns(service, 1, 200, random.Random(8))
    assert result is not None and result.is_over and result.rating is not None
    assert result.rating.rated and len(result.rating.changes) == 2
    assert sum(line.delta for line in result.rating.changes) in (-1, 0, 1)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("unrated", "unrated_game"),
        ("computer", "computer"),
        ("abort", "aborted"),
        ("short", "too_short"),
        ("off", "ratings_off"),
    ],
)
async def test_unrated_endings_change_nothing(
    service: GameService, store: Store, setup: str, reason: str
) -> None:
    if setup == "off":
        await service.moderation.update_settings(GUILD, ADMIN, ratings_enabled=False)
        assert not (await service.moderation.get_settings(GUILD)).ratings_enabled
        assert '"ratings_enabled": false' in (await service.moderation.audit_log(GUILD))[0].detail
    await start(
        service,
        1,
        ALICE,
        BOB,
        rated=setup != "unrated",
        options={"ai_level": "2"} if setup == "computer" else None,
    )
    await play_turns(service, 1, 1 if setup == "short" else 4, random.Random(5))
    before = await ratings_table(store)
    ended: GameEnded
    if setup == "abort":
        ended = await service.moderation.admin_abort(GUILD, ADMIN, 1)
    else:
        ended = await service.resign(1, ALICE)
    assert ended.rating is not None and not ended.rating.rated
    assert ended.rating.unrated_reason == reason and ended.rating.text.startswith("unrated: ")
    assert ended.result.unrated_reason == reason and not ended.game.rated
    assert await ratings_table(store) == before == ((), ())
    assert await service.leaderboard(GUILD, "minefield") == []
    profile = await service.ratings.profile(GUILD, ALICE)
    assert profile.games == () and [g.unrated_reason for g in profile.recent] == [reason]


async def test_award_forfeit_and_time_are_rated(service: GameService, clock: Any) -> None:
    await start(service, 1, ALICE, BOB)
    await play_turns(service, 1, 4, random.Random(1))
    award = await service.moderation.admin_award(GUILD, ADMIN, 1, BOB)
    await start(service, 2, ALICE, CAROL)
    await play_turns(service, 2, 4, random.Random(2))
    forfeit = await service.moderation.admin_forfeit(GUILD, ADMIN, 2, CAROL)
    challenge = await service.create_challenge(GUILD, 3, BOB, CAROL, "minefield", 5, "me", "1d")
    await service.accept_challenge(challenge.id, CAROL)
    await play_turns(service, 3, 4, random.Random(4))
    clock.advance(days=2)
    timed = await service.clocks.run_due()
    ended = [o.ended for o in timed if o.ended is not None]
    assert len(ended) == 1
    for outcome in (award, forfeit, ended[0]):
        assert outcome.rating is not None and outcome.rating.rated
    board = await service.leaderboard(GUILD, "minefield")
    assert {s.user_id: s.games for s in board} == {ALICE: 2, BOB: 2, CAROL: 2}


async def random_history(service: GameService, seed: int, games: int = 14) -> None:
    """Games among five players in two servers with every kind of ending, some unrated."""
    rng = random.Random(seed)
    for n in range(games):
        a, b = rng.sample(PLAYERS, 2)
        guild = GUILD if n % 4 else OTHER_GUILD
        kind = rng.choice(["resign", "play", "award", "forfeit", "abort", "short", "unrated", "ai"])
        channel = 100 + n
        await start(
            service,
            channel,
            a,
            b,
            guild=guild,
            rated=kind != "unrated",
            options={"ai_level": "1"} if kind == "ai" else None,
            game=rng.choice(["minefield", "crosscut"]),
        )
        await play_turns(service, channel, 1 if kind == "short" else rng.randint(4, 7), rng)
        if (await service.get_game(channel)) is None:
            continue
        if kind == "play":
            await play_turns(service, channel, 400, rng)
        elif kind == "award":
            await service.moderation.admin_award(guild, ADMIN, channel, rng.choice((a, b)))
        elif kind == "forfeit":
            await service.moderation.admin_forfeit(guild, ADMIN, channel, rng.choice((a, b)))
        elif kind == "abort":
            await service.moderation.admin_abort(guild, ADMIN, channel)
        else:
            await service.resign(channel, rng.choice((a, b)))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_rebuild_equals_the_incremental_updates(
    service: GameService, store: Store, seed: int
) -> None:
    await random_history(service, seed)
    ratings, history = await ratings_table(store)
    assert ratings, "the history has rated games"
    report = await service.ratings.rebuild_ratings()
    assert report.changed == 0 and report.players == len(ratings)
    assert await ratings_table(store) == (ratings, history)
    # A rating damaged by hand is put right by the rebuild.
    async with store.write() as tx:
        await tx.ratings.save_ratings([rating_row_with(ratings[0], mu=ratings[0].mu + 1.0)])
    report = await service.ratings.rebuild_ratings()
    assert report.changed == 1
    assert await ratings_table(store) == (ratings, history)


def rating_row_with(row: Any, **changes: Any) -> Any:
    from dataclasses import replace

    return replace(row, **changes)


@pytest.mark.parametrize("seed", [4, 5])
async def test_leaderboard_and_profiles_agree_with_the_model(
    service: GameService, store: Store, seed: int
) -> None:
    await random_history(service, seed, games=16)
    async with store.read() as tx:
        results = await tx.ratings.rated_results()
    for guild in (GUILD, OTHER_GUILD):
        for game in ("minefield", "crosscut"):
            pool = [
                RatedGame(
                    r.first_id, r.second_id, outcome_for(r.winner_id, r.first_id, r.second_id)
                )
                for r in results
                if (r.guild_id, r.game) == (guild, game)
            ]
            expected = standings(rebuild(pool))
            assert await service.leaderboard(guild, game, limit=100) == expected
            assert await service.leaderboard(guild, game, limit=2, offset=1) == expected[1:3]
            for standing in expected:
                profile = await service.ratings.profile(guild, standing.user_id)
                mine = [g for g in profile.games if g.game == game]
                assert len(mine) == 1 and mine[0].standing == standing
                assert len(mine[0].history) == standing.games
                assert mine[0].history[-1].rating == standing.rating


async def test_an_admin_reset_forgets_a_game_and_a_rebuild_keeps_it_forgotten(
    service: GameService, store: Store
) -> None:
    await start(service, 1, ALICE, BOB)
    await play_turns(service, 1, 4, random.Random(6))
    await service.resign(1, ALICE)
    await start(service, 2, ALICE, BOB, game="crosscut")
    await play_turns(service, 2, 4, random.Random(6))
    await service.resign(2, ALICE)
    assert await service.ratings.ratings_reset(GUILD, "Minefield", ADMIN) == 2
    assert await service.leaderboard(GUILD, "minefield") == []
    assert len(await service.leaderboard(GUILD, "crosscut")) == 2
    entry = (await service.moderation.audit_log(GUILD))[0]
    assert entry.action == "ratings_reset" and "minefield" in entry.detail
    await service.ratings.rebuild_ratings()
    assert await service.leaderboard(GUILD, "minefield") == []
    profile = await service.ratings.profile(GUILD, BOB)
    assert [g.game for g in profile.games] == ["crosscut"]
    assert [r.unrated_reason for r in profile.recent] == [None, "reset"]


async def test_bad_input_is_refused(service: GameService) -> None:
    from bot.service import InvalidChallenge, InvalidId, InvalidInput, InvalidSettings

    with pytest.raises(InvalidInput, match="no game called"):
        await service.leaderboard(GUILD, "chess")
    with pytest.raises(InvalidId):
        await service.leaderboard(0, "minefield")
    with pytest.raises(InvalidInput, match="offset"):
        await service.leaderboard(GUILD, "minefield", offset=-1)
    with pytest.raises(InvalidId):
        await service.ratings.profile(GUILD, -5)
    with pytest.raises(InvalidChallenge, match="rated"):
        await service.create_challenge(GUILD, 1, ALICE, BOB, "minefield", rated="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidSettings, match="ratings_enabled"):
        await service.moderation.update_settings(GUILD, ADMIN, ratings_enabled=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        await service.ratings.ratings_reset(GUILD, "x" * 500, ADMIN)


async def test_games_finishing_together_for_one_player_lose_no_update(
    store_target: str | Path, clock: Any
) -> None:
    """Ten games of ALICE's end at the same moment, through two stores (two connection
    pools on PostgreSQL, each game's transaction on its own connection, truly in parallel;
    on SQLite two stores on one file, serialised by BEGIN IMMEDIATE).  Every one of them is
    counted, and her stored rating is what applying them in ``rating_seq`` order gives."""
    opponents = list(range(200, 210))
    async with await open_store(store_target) as first, await open_store(store_target) as second:
        one = GameService(first, clock, random.Random(1))
        two = GameService(second, clock, random.Random(2))
        rng = random.Random(9)
        for channel, opponent in enumerate(opponents, start=1):
            await start(one, channel, ALICE, opponent)
            await play_turns(one, channel, 4, rng)
        assert all([await one.get_game(c) for c in range(1, 11)])
        endings = await asyncio.gather(
            *(
                (one if channel % 2 else two).resign(channel, opponent)
                for channel, opponent in enumerate(opponents, start=1)
            )
        )
        assert all(e.rating is not None and e.rating.rated for e in endings)
        async with first.read() as tx:
            results = await tx.ratings.rated_results()
            alice = [r for r in await tx.ratings.all_ratings() if r.user_id == ALICE]
    assert [r.winner_id for r in results] == [ALICE] * 10
    assert len(alice) == 1 and alice[0].wins == alice[0].games == 10
    expected = rebuild(RatedGame(r.first_id, r.second_id, "win") for r in results)
    assert rating_of(alice[0]) == expected[ALICE]
    # Each ending saw the rating the previous one (in rating_seq order) wrote.
    lines = {e.game.id: e.rating.change_for(ALICE) for e in endings if e.rating}
    befores = [lines[r.game_id].before for r in results if lines[r.game_id]]  # type: ignore[union-attr]
    afters = [lines[r.game_id].after for r in results if lines[r.game_id]]  # type: ignore[union-attr]
    assert befores[1:] == afters[:-1]


async def test_a_failure_after_the_ratings_were_written_rolls_them_back(
    service: GameService, store: Store, snapshot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ratings, the history and the game's ending commit together or not at all: a
    store error on the ending's last write (the event) leaves everything as it was."""
    from bot.store import DatabaseFailure
    from bot.store.queries.games import GameQueries

    await start(service, 1, ALICE, BOB)
    await play_turns(service, 1, 4, random.Random(3))
    before = snapshot()

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise DatabaseFailure("the disk went away")

    monkeypatch.setattr(GameQueries, "add_event", broken)  # tx.games.add_event, both engines
    with pytest.raises(DatabaseFailure):
        await service.resign(1, BOB)
    assert snapshot() == before
    monkeypatch.undo()
    assert await ratings_table(store) == ((), ())
    ended = await service.resign(1, BOB)
    assert ended.rating is not None and ended.rating.rated
    assert len((await ratings_table(store))[0]) == 2


async def test_turns_are_counted_per_user_across_clear_paths_swap(
    service: GameService, store: Store
) -> None:
    """After Clear Path's swap the users own the other colours; the swap is a turn of the
    user who made it.  Two turns each are needed for a rated result."""
    from bot.service.ratings.apply import turns_made

    game_id = await start(service, 1, ALICE, BOB, game="clearpath")
    await service.play_move(1, ALICE, "c3")
    await service.play.swap(1, BOB)
    info = await service.get_game(1)
    assert info is not None and info.to_move_id == ALICE
    engine = await service.position(game_id)
    async with store.read() as tx:
        row = await tx.games.game(game_id)
    assert row is not None and turns_made(row, engine) == (1, 1)
    await play_turns(service, 1, 1, random.Random(2))  # ALICE, now blue
    engine = await service.position(game_id)
    async with store.read() as tx:
        row = await tx.games.game(game_id)
    assert row is not None and turns_made(row, engine) == (2, 1)
    ended = await service.resign(1, ALICE)
    assert ended.rating is not None and ended.rating.unrated_reason == "too_short"


async def test_game_rating_reads_back_what_the_ending_returned(service: GameService) -> None:
    first = await start(service, 1, ALICE, BOB)
    assert await service.ratings.game_rating(first) is None
    await play_turns(service, 1, 4, random.Random(3))
    ended = await service.resign(1, BOB)
    assert await service.ratings.game_rating(first) == ended.rating
    second = await start(service, 2, ALICE, BOB)
    await play_turns(service, 2, 4, random.Random(4))
    again = await service.resign(2, ALICE)
    assert await service.ratings.game_rating(second) == again.rating
    assert again.rating is not None and again.rating.change_for(ALICE).games == 2  # type: ignore[union-attr]
    third = await start(service, 3, ALICE, BOB, rated=False)
    unrated_end = await service.resign(3, ALICE)
    assert await service.ratings.game_rating(third) == unrated_end.rating
    from bot.service import NoGameHere

    with pytest.raises(NoGameHere):
        await service.ratings.game_rating(999_999)
