"""Playing the computer in Discord: challenge the bot's own user, and it plays back.

The bot, command tree, service and SQLite store are real; only the network edge is faked
(discord_fakes.py).  Most tests think in-process through the documented injection point
(``bot.computer.choose = in_process_move``) so they are quick and deterministic; one game goes
through ai's real process pool.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB

import ai
from bot.discord.play.ai_opponent import (
    FALLBACK_LEVEL,
    NO_TAKEBACKS,
    in_process_move,
    pool_move,
)
from rules import game_names, parse_record

CHANNEL, GUILD = fakes.CHANNEL, fakes.GUILD
COMPUTER = fakes.Player(fakes.APP_ID, "crosspath")
loop_guard = guard.loop_guard  # every test fails if a callback blocks the loop > 0.5 s
close_harnesses = fakes.close_harnesses


class Spy:
    """A thinking function that records what it was asked, then thinks in-process."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[str, int, int | None]] = []
        self.fail = fail

    async def __call__(self, record: str, level: int, seed: int | None) -> str:
        self.calls.append((record, level, seed))
        if self.fail:
            raise RuntimeError("the AI pool is down")
        move = await in_process_move(record, level, seed)
        assert move in parse_record(record).legal_moves()
        return move


@pytest.fixture
async def h(db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Any]:
    harness = await fakes.open_harness(db_path, clock, monkeypatch)
    harness.bot.computer.choose = Spy()
    try:
        yield harness
    finally:
        await harness.bot.computer.idle()
        await harness.close()


async def alice_plays_first_legal_move(h: Any, channel_id: int = CHANNEL) -> list[Any]:
    info = await h.service.get_game(channel_id)
    move = (await h.service.position(info.id)).legal_moves()[0]
    kind = 11 if channel_id != CHANNEL else 0
    if move == "swap":
        return list(await h.command("swap", ALICE, channel_id=channel_id, channel_kind=kind))
    return list(
        await h.command("move", ALICE, point=move, channel_id=channel_id, channel_kind=kind)
    )


async def play_out(h: Any, game_id: int, channel_id: int = CHANNEL) -> Any:
    """Alice plays the first legal move whenever it is her turn, until the game ends."""
    for _ in range(200):
        info = await h.service.get_game_by_id(game_id)
        if not info.is_active:
            return info
        assert info.to_move_id == ALICE.id, "the computer must have answered already"
        await alice_plays_first_legal_move(h, channel_id)
    raise AssertionError("the game did not end")


async def test_whole_game_against_the_computer(h: Any) -> None:
    sent = await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=1)
    reply = sent[0]
    assert reply.kind == "reply" and not reply.ephemeral
    assert "challenges the computer" in reply.content and "level 1 (easy)" in reply.content
    assert reply.pingable == set() and reply.custom_ids == []  # nobody has to click anything
    edit = next(s for s in sent if s.kind == "edit_original" and s.method == "PATCH")
    assert "Accepted by the computer: game #1" in edit.embed_text()
    start = h.fake.last("channel_message")
    assert "Game #1 starts" in start.content and start.pingable == {ALICE.id}

    info = await h.service.get_game(CHANNEL)
    assert info.player_ids == (ALICE.id, COMPUTER.id)  # a normal player to the service
    assert info.options == {"ai_level": "1"}  # stored with the game, not in memory
    assert h.bot.computer.level_of(info) == 1
    posted_before = len(h.fake.of_kind("channel_message"))

    sent = await alice_plays_first_legal_move(h)
    kinds = [s.kind for s in sent]
    assert kinds.count("channel_message") == 2 and "followup" in kinds
    mine, answer = [s for s in sent if s.kind == "channel_message"]
    assert "(the computer) is thinking" in mine.content and mine.pingable == set()
    assert f"<@{ALICE.id}>, your move" in answer.content and answer.pingable == {ALICE.id}

    finished = await play_out(h, info.id)
    assert finished.result is not None
    final = h.fake.last("channel_message")
    assert "Result" in final.embed_text() and final.pingable == {ALICE.id}
    # every message the game posted may ping Alice at most, never the bot itself
    for message in h.fake.of_kind("channel_message")[posted_before:]:
        assert message.pingable <= {ALICE.id}
    record = await h.service.games.game_record(info.id)
    parse_record(record.text)  # the engine replays (and so validates) every stored move
    by_computer = [m for m in record.moves if m.user_id == COMPUTER.id]
    assert by_computer and len(by_computer) == len(h.bot.computer.choose.calls)
    assert {level for _, level, _ in h.bot.computer.choose.calls} == {1}
    assert {seed for _, _, seed in h.bot.computer.choose.calls} == {info.id}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(game_names()))
async def test_a_whole_game_of_each_kind_against_the_computer(h: Any, game: str) -> None:
    """Chains, swaps, flips, removals and skips: the computer keeps moving while it is its
    turn, and every position it was asked about had it to move."""
    await h.command("challenge", ALICE, game=game, opponent=COMPUTER, size=5, level=1)
    info = await h.service.get_game(CHANNEL)
    finished = await play_out(h, info.id)
    assert not finished.is_active
    final = parse_record(finished.record)
    assert final.is_over
    for record, _, _ in h.bot.computer.choose.calls:
        position = parse_record(record)
        assert not position.is_over
    assert all(m.pingable <= {ALICE.id} for m in h.fake.of_kind("channel_message"))


async def test_computer_moves_first_in_a_thread(h: Any) -> None:
    await h.command("admin settings set", ADMIN, threads=True)
    sent = await h.command(
        "challenge", ALICE, game="crosscut", opponent=COMPUTER, size=5, first="them", level=1
    )
    thread = next(s for s in sent if s.kind == "thread")
    assert thread.body["name"] == "Crosscut: Alice vs the computer"
    info = await h.service.get_game(thread.message_id)
    assert info is not None and await h.service.get_game(CHANNEL) is None
    assert info.seats[0].user_id == COMPUTER.id
    assert len(info.moves) == 1, "the computer made the first move at once"
    start, answer = [s for s in sent if s.kind == "channel_message"]
    assert start.channel_id == answer.channel_id == thread.message_id
    assert "is thinking" in start.content and start.pingable == set()
    assert answer.pingable == {ALICE.id} and f"<@{ALICE.id}>, your move" in answer.content
    edit = next(s for s in sent if s.kind == "edit_original" and s.method == "PATCH")
    assert f"in <#{thread.message_id}>" in edit.embed_text()
    await play_out(h, info.id, thread.message_id)


async def test_game_resumes_after_a_restart(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first = await fakes.open_harness(db_path, clock, monkeypatch)
    first.bot.computer.choose = Spy(fail=True)  # the bot goes down while thinking
    try:
        with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
            await first.command(
                "challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=2
            )
            await alice_plays_first_legal_move(first)
        failures = [r for r in caplog.records if "could not play its move" in r.getMessage()]
        assert failures and failures[0].game_id == 1  # type: ignore[attr-defined]
        info = await first.service.get_game(CHANNEL)
        assert info.is_active and info.to_move_id == COMPUTER.id, "nothing changed"
    finally:
        await first.bot.computer.idle()
        await first.close()

    second = await fakes.open_harness(db_path, clock, monkeypatch)
    spy = second.bot.computer.choose = Spy()
    try:
        second.fake.clear()
        await second.bot.get_cog("ClockCog").run_once()
        await second.bot.computer.idle()
        after = await second.service.get_game(CHANNEL)
        assert after.to_move_id == ALICE.id and len(after.moves) == 2
        assert after.options == {"ai_level": "2"}
        assert [level for _, level, _ in spy.calls] == [2]  # the chosen level survived
        [posted] = second.fake.of_kind("channel_message")
        assert posted.pingable == {ALICE.id}
        # the next tick finds nothing to do
        await second.bot.get_cog("ClockCog").run_once()
        await second.bot.computer.idle()
        assert len(spy.calls) == 1
    finally:
        await second.bot.computer.idle()
        await second.close()


@pytest.mark.slow
async def test_a_game_stored_without_a_level_plays_the_fallback(h: Any) -> None:
    """Games created before levels were stored have no ai_level option."""
    created = await h.service.create_challenge(
        GUILD, CHANNEL, ALICE.id, COMPUTER.id, "minefield", 5, first="them"
    )
    started = await h.service.accept_challenge(created.id, COMPUTER.id)
    assert started.game.options == {} and started.game.to_move_id == COMPUTER.id
    await h.bot.get_cog("ClockCog").run_once()
    await h.bot.computer.idle()
    assert [level for _, level, _ in h.bot.computer.choose.calls] == [FALLBACK_LEVEL]
    assert (await h.service.get_game(CHANNEL)).to_move_id == ALICE.id


async def test_an_unreadable_stored_level_falls_back_with_a_warning(
    h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=5)
    info = await h.service.get_game(CHANNEL)
    assert h.bot.computer.level_of(info) == 5
    damaged = replace(info, options={"ai_level": "eleven"})
    with caplog.at_level(logging.WARNING, logger="crosspath.discord"):
        assert h.bot.computer.level_of(damaged) == FALLBACK_LEVEL
    assert any("unknown computer level" in r.getMessage() for r in caplog.records)


async def test_reminders_for_the_computer_make_it_move_instead(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await fakes.open_harness(db_path, clock, monkeypatch)
    h.bot.computer.choose = Spy(fail=True)
    try:
        await h.command(
            "challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, time="1h", level=1
        )
        await alice_plays_first_legal_move(h)
        await h.bot.computer.idle()
        h.bot.computer.choose = Spy()
        h.fake.clear()
        clock.advance(minutes=35)
        outcomes = await h.bot.get_cog("ClockCog").run_once()
        await h.bot.computer.idle()
        assert [o.action.kind for o in outcomes] == ["reminder"]
        assert not any("reminder" in s.content for s in h.fake.sent)
        info = await h.service.get_game(CHANNEL)
        assert info.to_move_id == ALICE.id
    finally:
        await h.bot.computer.idle()
        await h.close()


async def test_takebacks_are_declined_and_change_nothing(h: Any) -> None:
    h.bot.computer.choose = Spy(fail=True)  # keep the computer from answering
    await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, level=1)
    await alice_plays_first_legal_move(h)
    await h.bot.computer.idle()
    before = await h.service.get_game(CHANNEL)
    [reply] = await h.command("takeback", ALICE)
    assert reply.ephemeral and reply.content == NO_TAKEBACKS
    after = await h.service.get_game(CHANNEL)
    assert after.takeback is None and after.version == before.version


async def test_level_only_against_the_computer_and_open_challenges_stay_open(h: Any) -> None:
    [refusal] = await h.command("challenge", ALICE, game="minefield", opponent=BOB, level=4)
    assert refusal.ephemeral and "level option is for games against me" in refusal.content
    assert await h.service.challenges.open_challenges(GUILD) == []
    await h.command("challenge", ALICE, game="minefield")  # open: anyone may accept
    await h.bot.get_cog("ClockCog").run_once()
    await h.bot.computer.idle()
    [still_open] = await h.service.challenges.open_challenges(GUILD)
    assert still_open.opponent_id is None and await h.service.get_game(CHANNEL) is None
    assert h.bot.computer.choose.calls == []


async def test_default_level_when_none_is_chosen(h: Any) -> None:
    await h.command("challenge", ALICE, game="minefield", opponent=COMPUTER, size=5)
    info = await h.service.get_game(CHANNEL)
    assert info.options == {"ai_level": str(ai.DEFAULT_LEVEL)}
    assert h.bot.computer.level_of(info) == ai.DEFAULT_LEVEL
    assert "level 3 (medium)" in h.fake.last("reply").content


async def test_a_busy_channel_withdraws_the_challenge(h: Any) -> None:
    await fakes.challenge_and_accept(h)  # Alice and Bob play here; no threads
    [refusal] = await h.command("challenge", BOB, game="minefield", opponent=COMPUTER)
    assert refusal.ephemeral and "already has a game" in refusal.content
    assert await h.service.challenges.open_challenges(GUILD) == []


async def test_one_game_through_the_real_process_pool(
    db_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = await fakes.open_harness(db_path, clock, monkeypatch)
    assert h.bot.computer.choose is pool_move  # the default in the running bot
    try:
        await ai.ai_move("minefield 5:", level=1)  # start the worker outside the timed delivery
        payload = h.payloads.command(
            "challenge",
            ALICE,
            [
                fakes.opt("game", "minefield"),
                fakes.opt("opponent", str(COMPUTER.id), 6),
                fakes.opt("size", 5, 4),
                fakes.opt("first", "them"),
                fakes.opt("level", 1, 4),
            ],
            members=[COMPUTER],
        )
        await h.deliver(payload, timeout=60)
        await h.bot.computer.idle()
        info = await h.service.get_game(CHANNEL)
        assert len(info.moves) == 1 and info.to_move_id == ALICE.id
        assert info.moves[0] in parse_record("minefield 5:").legal_moves()
        assert h.fake.last("channel_message").pingable == {ALICE.id}
    finally:
        await h.bot.computer.close()  # also stops the pool
        await h.close()


async def test_a_resignation_while_the_computer_thinks_is_not_an_error(
    h: Any, caplog: pytest.LogCaptureFixture
) -> None:
    thinking = Spy()

    async def resign_meanwhile(record: str, level: int, seed: int | None) -> str:
        move = await thinking(record, level, seed)
        await h.service.resign(CHANNEL, ALICE.id)  # Alice gives up before the answer lands
        return move

    h.bot.computer.choose = resign_meanwhile
    with caplog.at_level(logging.WARNING, logger="crosspath.discord"):
        await h.command(
            "challenge", ALICE, game="minefield", opponent=COMPUTER, size=5, first="them", level=1
        )
        await h.bot.computer.idle()
    assert len(thinking.calls) == 1
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    [game] = await h.service.games.games_for_player(GUILD, ALICE.id)
    assert game.result is not None and game.result.reason == "resign" and game.moves == ()


@pytest.mark.slow
async def test_the_computer_keeps_moving_through_a_clear_path_chain(h: Any) -> None:
    """After a chain reaction the same player places again: the computer does not stop until
    the human is to move (skips go through the same re-read of who is to move)."""
    await h.command("challenge", ALICE, game="clearpath", opponent=COMPUTER, size=5, level=2)
    info = await h.service.get_game(CHANNEL)
    await play_out(h, info.id)
    record = await h.service.games.game_record(info.id)
    users = [m.user_id for m in record.moves]
    in_a_row = [i for i in range(1, len(users)) if users[i - 1] == users[i] == COMPUTER.id]
    assert in_a_row, "this seeded game has computer chains"
    # the start, then every placement posted as its own turn; only Alice may be pinged
    boards = h.fake.of_kind("channel_message")
    assert len(boards) == 1 + len(record.moves)
    assert all(m.pingable <= {ALICE.id} for m in boards)


async def test_a_database_fault_while_the_computer_moves_is_logged_without_a_traceback(
    h: Any, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The computer thinks, then the database file is gone (deleted under the bot): its move
    is refused by the store, and the log gets the store's sentence, as for players' faults."""

    class ThenTheFileGoes(Spy):
        async def __call__(self, record: str, level: int, seed: int | None) -> str:
            move = await super().__call__(record, level, seed)
            for part in db_path.parent.glob(db_path.name + "*"):
                part.unlink()
            return move

    h.bot.computer.choose = ThenTheFileGoes()
    with caplog.at_level(logging.ERROR, logger="crosspath.discord"):
        await h.command(
            "challenge", ALICE, game="crosscut", opponent=COMPUTER, size=5, first="them", level=1
        )
        await h.bot.computer.idle()
    [record] = [r for r in caplog.records if "computer" in r.getMessage()]
    assert record.exc_info is None, "a database fault is the operator's matter, not a bug"
    assert "the database is unavailable" in record.getMessage()
    assert "deleted or replaced" in record.getMessage()
    assert record.game_id == 1  # type: ignore[attr-defined]
