"""Turn-notice preferences, the games waiting on a player and the daily digest, on every
engine with a controlled clock: the digest comes at its hour, once a day, once across
processes racing for it and across a restart."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from game_fixtures import ALICE, BOB, CAROL, CHANNEL, GUILD, START, StartGame

from bot.service import GameService, InvalidInput
from bot.store import open_store

OTHER_GUILD = GUILD + 1


async def test_a_player_who_never_chose_is_mentioned(service: GameService) -> None:
    prefs = await service.notices.notice_prefs(ALICE)
    assert (prefs.mode, prefs.effective, prefs.pings, prefs.wants_dm) == (
        "mention",
        "mention",
        True,
        False,
    )
    assert prefs.next_digest is None


async def test_each_mode_is_kept_and_the_digest_falls_due_at_its_hour(
    service: GameService, clock: Any
) -> None:
    assert START.hour == 12
    dm = await service.notices.set_notice(ALICE, "dm")
    assert (dm.mode, dm.pings, dm.wants_dm, dm.next_digest) == ("dm", False, True, None)
    later = await service.notices.set_notice(ALICE, "digest", 13)
    assert later.next_digest == START.replace(hour=13)  # today, an hour from now
    earlier = await service.notices.set_notice(ALICE, "digest", 9)
    assert earlier.next_digest == START.replace(hour=9) + timedelta(days=1)  # passed today
    again = await service.notices.set_notice(ALICE, "digest")  # the hour chosen before is kept
    assert again.digest_hour == 9
    off = await service.notices.set_notice(ALICE, "off")
    assert (off.pings, off.wants_dm, off.digest_hour) == (False, False, 9)
    assert await service.notices.notice_prefs(ALICE) == off
    assert (await service.notices.notice_prefs(BOB)).mode == "mention"  # one player's choice only


@pytest.mark.parametrize(
    ("mode", "hour", "says"),
    [
        ("loud", None, "'loud' is not a way"),
        ("x" * 500, None, "not a way"),
        ("digest", 24, "from 0 to 23"),
        ("digest", -1, "from 0 to 23"),
        ("digest", True, "from 0 to 23"),
    ],
)
async def test_bad_choices_are_refused_and_change_nothing(
    service: GameService, snapshot: Any, mode: str, hour: Any, says: str
) -> None:
    await service.notices.set_notice(ALICE, "dm")
    before = snapshot()
    with pytest.raises(InvalidInput, match=says) as refused:
        await service.notices.set_notice(ALICE, mode, hour)
    assert len(str(refused.value)) < 200
    assert snapshot() == before


async def test_closed_dms_turn_into_mentions_until_the_player_chooses_again(
    service: GameService,
) -> None:
    await service.notices.set_notice(ALICE, "dm")
    assert await service.notices.close_dms(ALICE) is True
    assert await service.notices.close_dms(ALICE) is False  # told once
    closed = await service.notices.notice_prefs(ALICE)
    assert (closed.mode, closed.dm_closed, closed.pings, closed.wants_dm) == (
        "dm",
        True,
        True,
        False,
    )
    reopened = await service.notices.set_notice(ALICE, "dm")
    assert (reopened.dm_closed, reopened.wants_dm) == (False, True)
    # no preference stored: the default one is stored to hold it (a DM game's turn DMs are
    # tried whatever the mode, and one known to fail is not tried again)
    assert await service.notices.close_dms(BOB) is True
    assert await service.notices.close_dms(BOB) is False
    bob = await service.notices.notice_prefs(BOB)
    assert (bob.mode, bob.dm_closed, bob.pings, bob.wants_dm) == ("mention", True, True, False)


async def test_waiting_games_longest_wait_first_in_every_server(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    first = await start_game(channel=CHANNEL)
    clock.advance(hours=1)
    elsewhere = await start_game(channel=CHANNEL + 1, guild=OTHER_GUILD)
    clock.advance(hours=1)
    theirs = await start_game(channel=CHANNEL + 2, challenger=BOB, opponent=CAROL)
    clock.advance(hours=1)
    newest = await start_game(channel=CHANNEL + 3)
    waiting = await service.notices.waiting_on(ALICE)
    assert [w.game.id for w in waiting] == [first.id, elsewhere.id, newest.id]
    assert waiting[0].since == START and waiting[1].since == START + timedelta(hours=1)
    here = await service.notices.waiting_on(ALICE, GUILD)
    assert [w.game.id for w in here] == [first.id, newest.id]
    # Alice moves in her oldest game: it now waits on Bob, from now on
    position = await service.position(first.id)
    await service.play_move(CHANNEL, ALICE, position.legal_moves()[0])
    assert [w.game.id for w in await service.notices.waiting_on(ALICE)] == [elsewhere.id, newest.id]
    assert [w.game.id for w in await service.notices.waiting_on(BOB)] == [theirs.id, first.id]
    assert (await service.notices.waiting_on(ALICE, limit=1))[0].game.id == elsewhere.id


async def test_the_digest_comes_at_its_hour_once_a_day(
    service: GameService, start_game: StartGame, clock: Any, store_target: str | Path
) -> None:
    await service.notices.set_notice(ALICE, "digest", 13)
    await service.notices.set_notice(BOB, "digest", 13)
    await service.notices.set_notice(CAROL, "dm")
    game = await start_game()
    other = await start_game(channel=CHANNEL + 1, guild=OTHER_GUILD)
    clock.now = START.replace(hour=12, minute=59, second=59)
    assert await service.notices.claim_digests() == []  # not before its hour
    clock.now = START.replace(hour=13)
    digests = {d.user_id: d for d in await service.notices.claim_digests()}
    assert sorted(digests) == [ALICE, BOB]
    assert [w.game.id for w in digests[ALICE].games] == [game.id, other.id]
    assert digests[BOB].games == ()  # nothing waits on Bob: his digest is empty
    assert digests[ALICE].next_digest == START.replace(hour=13) + timedelta(days=1)
    assert await service.notices.claim_digests() == []  # once a day
    # a restart (a new process on the same database) does not send it again
    async with await open_store(store_target) as reopened:
        restarted = GameService(reopened, clock=clock, rng=random.Random(2))
        clock.advance(hours=10)
        assert await restarted.notices.claim_digests() == []
        clock.now = START.replace(hour=13) + timedelta(days=1)
        assert sorted(d.user_id for d in await restarted.notices.claim_digests()) == [ALICE, BOB]
    # down for three days: one digest when it comes back, the next one at the hour after
    clock.now = START.replace(hour=15) + timedelta(days=4)
    (late,) = [d for d in await service.notices.claim_digests() if d.user_id == ALICE]
    assert late.next_digest == START.replace(hour=13) + timedelta(days=5)
    assert await service.notices.claim_digests() == []


async def test_closed_dms_get_no_digest_until_chosen_again(
    service: GameService, start_game: StartGame, clock: Any
) -> None:
    await service.notices.set_notice(ALICE, "digest", 13)
    await start_game()
    assert await service.notices.close_dms(ALICE)
    clock.now = START.replace(hour=14)
    assert await service.notices.claim_digests() == []
    await service.notices.set_notice(ALICE, "digest", 14)
    clock.now = START.replace(hour=14) + timedelta(days=1)
    assert [d.user_id for d in await service.notices.claim_digests()] == [ALICE]


@pytest.mark.slow
async def test_racing_processes_claim_each_digest_exactly_once(
    service: GameService, store_target: str | Path, clock: Any
) -> None:
    players = list(range(1000, 1120))
    for user_id in players:
        await service.notices.set_notice(user_id, "digest", 13)
    clock.now = START.replace(hour=13, minute=5)

    # Every claimer takes its first batch before any goes on, so all three really take part
    # (on a quick engine one of them could otherwise drain the table alone); the rest race.
    first_batches = asyncio.Barrier(3)

    batches: list[int] = []

    async def claim_all(who: GameService) -> list[int]:
        first = await who.notices.claim_digests(limit=7)
        batches.append(len(first))
        claimed = [d.user_id for d in first]
        await first_batches.wait()
        while digests := await who.notices.claim_digests(limit=7):
            batches.append(len(digests))
            claimed += [d.user_id for d in digests]
            await asyncio.sleep(0)
        return claimed

    async with (
        await open_store(store_target) as second_store,
        await open_store(store_target) as third_store,
    ):
        others = [GameService(s, clock=clock) for s in (second_store, third_store)]
        results = await asyncio.gather(claim_all(service), *(claim_all(o) for o in others))
    counts = Counter(user_id for claimed in results for user_id in claimed)
    assert sorted(counts) == players and set(counts.values()) == {1}
    assert all(results), "every process claimed some digests"
    assert max(batches) <= 7, "no claim takes more than its limit"
