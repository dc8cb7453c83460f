"""``/tournament`` at the wire: create, join, start, the round's threads, standings, withdraw,
the podium, and the Join button after a restart.

A real bot over a real SQLite store and the real tournament service; only Discord's HTTP
session and gateway are faked (``discord_fakes``), so discord.py's own code builds every
request checked here.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL
from PIL import Image

from bot.discord.persistent import NOT_MINE
from bot.discord.tournaments.flows import ANOTHER_TOURNAMENT
from bot.service import GameService, is_provisional

CHANNEL, OTHER_CHANNEL, GUILD = fakes.CHANNEL, fakes.OTHER_CHANNEL, fakes.GUILD
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


async def create(h: Any, who: Any = ADMIN, **options: Any) -> fakes.Sent:
    options = {"game": "minefield", "format": "round_robin", "size": 5, **options}
    [reply] = await h.command("tournament create", who, **options)
    return reply


def tournament_id_of(reply: fakes.Sent) -> int:
    found = re.search(r"tournament #([0-9]+)$", reply.embeds[0]["title"])
    assert found, reply.embeds
    return int(found[1])


def join_button(reply: fakes.Sent) -> str:
    return next(c for c in reply.custom_ids if c.startswith("cp:tourn:join:"))


async def test_create_posts_an_announcement_with_join_and_leave(h: Any) -> None:
    reply = await create(h, time="2d", max_players=8, min_players=3)
    assert reply.kind == "reply" and not reply.ephemeral
    tid = tournament_id_of(reply)
    assert reply.custom_ids == [f"cp:tourn:join:{tid}", f"cp:tourn:leave:{tid}"]
    assert reply.pingable == set()
    text = reply.embed_text()
    assert "Minefield 5×5 round robin" in text and "2 days per move" in text and "3–8" in text
    info = await h.service.get_tournament(tid)
    assert info.organiser_id == ADMIN.id and info.status == "registration"
    assert info.message_id == reply.message_id  # the buttons act on this message only


async def test_a_bank_tournament_gives_its_games_the_bank(h: Any) -> None:
    reply = await create(h, time="3d+1d max 5d")
    tid = tournament_id_of(reply)
    assert "3 days + 1 day a turn, at most 5 days" in reply.embed_text()
    for player in (ALICE, BOB):
        await h.click(join_button(reply), player)
    sent = await h.command("tournament start", ADMIN, tournament=tid)
    assert "has started with 2 players" in sent[-1].content
    [game] = await h.service.tournament_games(tid)
    assert game.time_control.describe() == "3d+1d max 5d"
    assert game.time_left == {ALICE.id: 3 * 86400, BOB.id: 3 * 86400}
    info = await h.command("tournament info", ALICE, tournament=tid)
    assert "3 days + 1 day a turn, at most 5 days" in info[0].embed_text()


async def test_create_refuses_clearly_and_creates_nothing(h: Any) -> None:
    answer = fakes.refusal(await h.command("tournament create", ALICE, game="minefield",
                                           format="swiss"))  # fmt: skip
    assert "server managers and members with a tournament-creator role" in answer.content
    bad = "next tuesday-ish " + "x" * 20
    answer = fakes.refusal(
        await h.command("tournament create", ADMIN, game="minefield", format="swiss", deadline=bad)
    )
    assert "YYYY-MM-DD HH:MM" in answer.content and bad[:30] in answer.content
    answer = fakes.refusal(
        await h.command("tournament create", ADMIN, game="minefield", format="knockout", best_of=4)
    )
    assert "odd" in answer.content.lower()
    assert await h.service.tournaments.list_tournaments(GUILD) == []


async def test_a_deadline_is_shown_and_the_sweep_starts_the_tournament(h: Any, clock: Any) -> None:
    past = clock.now.replace(second=0, microsecond=0).strftime("%Y-%m-%d %H:%M")
    later = clock.now.replace(year=clock.now.year + 1).strftime("%Y-%m-%d %H:%M")
    refused = await h.command(
        "tournament create", ADMIN, game="minefield", format="swiss", deadline=past
    )
    assert "deadline" in fakes.refusal(refused).content.lower()
    assert await h.service.tournaments.list_tournaments(GUILD) == []
    reply = await create(h, deadline=later)
    tid = tournament_id_of(reply)
    assert "<t:" in reply.embed_text()  # the deadline, in each reader's own time zone
    for player in (ALICE, BOB):
        await h.click(join_button(reply), player)
    clock.advance(days=400)
    h.fake.clear()
    done = await h.bot.tournaments.sweep()
    assert [d.kind for d in done] == ["started"]
    threads = h.fake.of_kind("thread")
    assert len(threads) == 1  # two players: one game
    notices = [s for s in h.fake.of_kind("channel_message") if s.channel_id == CHANNEL]
    assert any(f"Tournament #{tid} has started" in s.content for s in notices)
    [edit] = h.fake.of_kind("edit_message")
    assert edit.message_id == reply.message_id and edit.body["components"] == []


@pytest.mark.slow  # a whole three-player tournament at the wire, about a second
async def test_join_start_threads_standings_withdraw_and_podium(h: Any) -> None:
    reply = await create(h)
    tid = tournament_id_of(reply)
    # Join by button (the announcement is updated in place) and by command.
    sent = await h.click(join_button(reply), ALICE)
    assert sent[0].kind == "update" and "Registered (1)" in sent[0].embed_text()
    assert sent[1].kind == "followup" and sent[1].ephemeral and "joined" in sent[1].content
    joined, edit = await h.command("tournament join", BOB, tournament=tid)
    assert joined.ephemeral and "2 players so far" in joined.content
    assert edit.message_id == reply.message_id and "Registered (2)" in edit.embed_text()
    await h.click(join_button(reply), CAROL)
    again = fakes.refusal(await h.click(join_button(reply), CAROL))
    assert "already" in again.content
    not_yours = fakes.refusal(await h.command("tournament start", ALICE, tournament=tid))
    assert "organiser" in not_yours.content
    assert (await h.service.get_tournament(tid)).status == "registration"

    # Start: every game of the round robin at once, each in its own thread, pinging only
    # its two players.
    h.fake.clear()
    sent = await h.command("tournament start", ADMIN, tournament=tid)
    assert sent[0].kind == "defer" and sent[-1].kind == "followup"
    assert "has started with 3 players" in sent[-1].content
    threads = [s for s in sent if s.kind == "thread"]
    games = await h.service.tournament_games(tid)
    assert len(threads) == len(games) == 3
    assert await h.service.tournaments.games_awaiting_channel(tid) == []
    for thread, game in zip(threads, games, strict=True):
        assert thread.channel_id == CHANNEL  # under the tournament's channel
        assert game.channel_id == thread.message_id and not is_provisional(game.channel_id)
        [first] = [
            s for s in sent if s.kind == "channel_message" and s.channel_id == game.channel_id
        ]
        assert first.pingable == set(game.player_ids)
        for uid in game.player_ids:
            assert f"<@{uid}>" in first.content
        assert first.files and first.files[0].data.startswith(b"\x89PNG")
    [announcement] = [s for s in sent if s.kind == "edit_message"]
    assert announcement.body["components"] == []  # no joining once it runs

    # A game in its thread is an ordinary game: resign it there.
    first_game = games[0]
    loser = first_game.to_move_id
    [confirm] = await h.command(
        "resign", loser_player(loser), channel_id=first_game.channel_id, channel_kind=11
    )
    await h.click(confirm.custom_ids[0], loser_player(loser))
    winner = next(uid for uid in first_game.player_ids if uid != loser)

    sent = await h.command("tournament standings", CAROL, tournament=tid)
    assert [s.kind for s in sent] == ["defer", "followup"]
    answer = sent[-1]
    [png] = answer.files
    image = Image.open(io.BytesIO(png.data))
    assert image.format == "PNG" and image.width == 960
    assert png.description and png.description.startswith("Minefield 5×5 Round robin #")
    table = answer.embeds[0]["description"]
    lines = table.strip("`\n").splitlines()
    assert lines[0].split()[:3] == ["#", "Player", "Points"] and "SB" in lines[0]
    assert lines[1].split()[1] == player_name(winner) and lines[1].split()[2] == "1"

    # Withdraw Carol: her open games are forfeited (each end shown in its thread), which
    # finishes the tournament: one podium in the tournament's channel.
    h.fake.clear()
    sent = await h.command("tournament withdraw", ADMIN, tournament=tid, player=CAROL)
    assert "their open games are forfeited" in sent[1].content
    ended = [s for s in sent if s.kind == "channel_message" and s.channel_id != CHANNEL]
    assert len(ended) == 2 and all("forfeited" in s.content for s in ended)
    info = await h.service.get_tournament(tid)
    assert info.status == "finished"
    podiums = [s for s in h.fake.sent if s.kind == "channel_message" and "🏆" in s.content]
    assert len(podiums) == 1 and podiums[0].channel_id == CHANNEL
    assert f"🥇 <@{winner}>" in podiums[0].content
    assert podiums[0].pingable <= {ALICE.id, BOB.id, CAROL.id} and winner in podiums[0].pingable
    final = await h.command("tournament standings", ALICE, tournament=tid)
    assert "Carol (w)" in final[-1].embeds[0]["description"]


def loser_player(user_id: int | None) -> fakes.Player:
    return next(p for p in (ALICE, BOB, CAROL) if p.id == user_id)


def player_name(user_id: int) -> str:
    return loser_player(user_id).name


async def test_pairings_list_and_info(h: Any) -> None:
    reply = await create(h, format="swiss", rounds=2)
    tid = tournament_id_of(reply)
    early = fakes.refusal(await h.command("tournament pairings", ALICE, tournament=tid))
    assert "has not started" in early.content
    for player in (ALICE, BOB, CAROL):
        await h.click(join_button(reply), player)
    await h.command("tournament start", ADMIN, tournament=tid)
    [pairings] = await h.command("tournament pairings", ALICE, tournament=tid)
    assert "round 1" in pairings.content and ": bye" in pairings.content
    assert pairings.pingable == set()
    [listed] = await h.command("tournament list", BOB)
    assert f"**#{tid}**" in listed.content and "round 1 of 2" in listed.content
    [info] = await h.command("tournament info", CAROL, tournament=tid)
    assert info.ephemeral and "Swiss, 2 rounds" in info.embed_text()
    missing = fakes.refusal(await h.command("tournament info", CAROL, tournament=tid + 50))
    assert str(tid + 50) in missing.content


async def test_pending_threads_are_opened_by_the_sweep_after_a_crash(h: Any) -> None:
    reply = await create(h)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB):
        await h.service.join_tournament(tid, player.id)
    # the process that started it stopped before opening any thread
    await h.service.start_tournament(tid, ADMIN.id)
    [pending] = await h.service.tournaments.games_awaiting_channel(tid)
    assert is_provisional(pending.channel_id)
    h.fake.clear()
    await h.bot.tournaments.sweep()
    [thread] = h.fake.of_kind("thread")
    assert await h.service.tournaments.games_awaiting_channel() == []
    game = await h.service.get_game_by_id(pending.id)
    assert game.channel_id == thread.message_id
    await h.bot.tournaments.sweep()  # nothing left: no second thread
    assert len(h.fake.of_kind("thread")) == 1


async def test_the_join_button_works_after_a_restart_and_only_on_its_message(
    db_path: Path, clock: Any
) -> None:
    discord_side = fakes.FakeDiscord()  # Discord keeps its messages while the bot restarts
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    reply = await create(first)
    tid = tournament_id_of(reply)
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    try:
        sent = await second.click(join_button(reply), ALICE)
        assert sent[0].kind == "update" and f"<@{ALICE.id}>" in sent[0].embed_text()
        assert (await second.service.get_tournament(tid)).player_ids == (ALICE.id,)
        # The same custom id on another message of the bot's: refused, nothing changed.
        other = discord_side.posted_earlier(
            CHANNEL,
            {"content": "copy", "components": fakes.message_with_buttons(join_button(reply))},
        )
        answer = fakes.refusal(await second.click(join_button(reply), BOB, message=other))
        assert answer.content == ANOTHER_TOURNAMENT
        # ... and in another channel: refused before anything is read.
        moved = dict(other, channel_id=str(OTHER_CHANNEL))
        answer = fakes.refusal(await second.click(join_button(reply), BOB, message=moved))
        assert "another channel" in answer.content
        # ... and on a message someone else posted.
        forged = dict(other, author=fakes.user_payload(BOB.id, "Bob"))
        answer = fakes.refusal(await second.click(join_button(reply), BOB, message=forged))
        assert answer.content == NOT_MINE
        assert (await second.service.get_tournament(tid)).player_ids == (ALICE.id,)
        # Leave works on the real message.
        leave = next(c for c in reply.custom_ids if c.startswith("cp:tourn:leave:"))
        sent = await second.click(leave, ALICE)
        assert sent[0].kind == "update" and "nobody yet" in sent[0].embed_text()
    finally:
        await second.close()


async def test_creator_roles_are_set_by_managers_and_let_their_members_create(h: Any) -> None:
    answer = fakes.refusal(await h.command("tournament creators", ALICE, action="clear"))
    assert "Only server managers" in answer.content
    [shown] = await h.command("tournament creators", ADMIN, action="show")
    assert shown.ephemeral and "server managers only" in shown.content
    refused = fakes.refusal(
        await h.command("tournament create", ALICE, game="minefield", format="swiss")
    )
    assert "tournament-creator role" in refused.content
    # Every member has the @everyone role (its id is the server's): allow it.
    await h.service.tournaments.set_tournament_creator_roles(GUILD, [GUILD], ADMIN.id)
    [shown] = await h.command("tournament creators", ADMIN, action="show")
    assert f"<@&{GUILD}>" in shown.content
    reply = await create(h, ALICE)
    info = await h.service.get_tournament(tournament_id_of(reply))
    assert info.organiser_id == ALICE.id
    [cleared] = await h.command("tournament creators", ADMIN, action="clear")
    assert "server managers only" in cleared.content
    assert await h.service.tournaments.tournament_creator_roles(GUILD) == ()


async def test_the_last_game_ending_posts_the_podium_once(h: Any) -> None:
    reply = await create(h)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB):
        await h.click(join_button(reply), player)
    await h.command("tournament start", ADMIN, tournament=tid)
    [game] = await h.service.tournament_games(tid)
    loser = loser_player(game.to_move_id)
    [confirm] = await h.command("resign", loser, channel_id=game.channel_id, channel_kind=11)
    h.fake.clear()
    await h.click(confirm.custom_ids[0], loser)
    assert (await h.service.get_tournament(tid)).status == "finished"
    [podium] = [s for s in h.fake.sent if "🏆" in s.content]
    assert podium.channel_id == CHANNEL and podium.files[0].filename == "standings.png"
    winner = next(uid for uid in game.player_ids if uid != loser.id)
    assert f"🥇 <@{winner}>: 1 point" in podium.content
    assert f"🥈 <@{loser.id}>: 0 points" in podium.content
    assert podium.pingable == {ALICE.id, BOB.id}
    # The game's end shown again (a re-post, /board) does not post it a second time.
    await h.bot.tournaments._after_game(await h.service.get_game_by_id(game.id))
    assert len([s for s in h.fake.sent if "🏆" in s.content]) == 1


DAVE = fakes.Player(350000000000000005, "Dave")


@pytest.mark.slow  # a four-player league season, six games adjudicated at the wire
async def test_a_league_season_adjudicated_to_the_end_opens_the_next_season(h: Any) -> None:
    reply = await create(h, format="league", division_size=4)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB, CAROL, DAVE):
        await h.click(join_button(reply), player)
    await h.command("tournament start", ADMIN, tournament=tid)
    games = await h.service.tournament_games(tid)
    assert len(games) == 6 and all(not is_provisional(g.channel_id) for g in games)
    refused = fakes.refusal(
        await h.command("tournament adjudicate", ADMIN, game=games[0].id, winner=ALICE, draw=True)
    )
    assert "not both" in refused.content
    outsider = fakes.refusal(
        await h.command("tournament adjudicate", BOB, game=games[0].id, draw=True)
    )
    assert "organiser" in outsider.content
    h.fake.clear()
    for game in games:
        first = next(p for p in (ALICE, BOB, CAROL, DAVE) if p.id == game.player_ids[0])
        sent = await h.command("tournament adjudicate", ADMIN, game=game.id, winner=first)
        assert sent[0].ephemeral and "adjudicated to" in sent[0].content
        [board] = [
            s for s in sent if s.kind == "channel_message" and s.channel_id == game.channel_id
        ]
        assert "awarded the game" in board.content
    assert (await h.service.get_tournament(tid)).status == "finished"
    [podium] = [s for s in h.fake.sent if "🏆" in s.content]
    assert "League season season 1" not in podium.content and "season 1" in podium.content
    [season_two] = [s for s in h.fake.sent if "Season 2 of this league is open" in s.content]
    next_id = tournament_id_of(season_two)
    assert season_two.custom_ids == [f"cp:tourn:join:{next_id}", f"cp:tourn:leave:{next_id}"]
    nxt = await h.service.get_tournament(next_id)
    assert nxt.message_id == season_two.message_id and set(nxt.player_ids) == {
        ALICE.id, BOB.id, CAROL.id, DAVE.id
    }  # fmt: skip
    sent = await h.click(f"cp:tourn:leave:{next_id}", DAVE)
    assert sent[0].kind == "update" and (await h.service.get_tournament(next_id)).player_ids == (
        ALICE.id, BOB.id, CAROL.id
    )  # fmt: skip


async def test_a_podium_nobody_posted_is_posted_by_the_sweep_once(h: Any) -> None:
    reply = await create(h)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB):
        await h.service.join_tournament(tid, player.id)
    # Another process started it and ended its only game, then stopped before posting
    # (its own service: this bot hears nothing of its writes).
    other = GameService(h.service.store, clock=h.service.core.clock)
    await other.start_tournament(tid, ADMIN.id)
    [game] = await other.tournaments.games_awaiting_channel(tid)
    assert game.to_move_id is not None
    await other.resign(game.channel_id, game.to_move_id)
    assert (await h.service.get_tournament(tid)).status == "finished"
    h.fake.clear()
    done = await h.bot.tournaments.sweep()
    assert [d.kind for d in done] == ["finished"]
    [podium] = [s for s in h.fake.sent if "🏆" in s.content]
    assert podium.channel_id == CHANNEL
    assert await h.bot.tournaments.sweep() == []  # claimed: not listed again
    await h.bot.tournaments.podium(await h.service.get_tournament(tid))
    assert len([s for s in h.fake.sent if "🏆" in s.content]) == 1


async def test_the_bots_own_loop_opens_threads_after_a_restart(db_path: Path, clock: Any) -> None:
    import asyncio

    from bot.config import Settings

    first = await fakes.open_harness(db_path, clock)
    reply = await create(first)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB):
        await first.service.join_tournament(tid, player.id)
    await first.service.start_tournament(tid, ADMIN.id)  # and it stopped here
    await first.close()

    second = await fakes.open_harness(db_path, clock, settings=Settings(clock_seconds=0.02))
    try:
        second.bot._ready.set()  # what READY from the gateway does
        for _ in range(300):
            if not await second.service.tournaments.games_awaiting_channel(tid):
                break
            await asyncio.sleep(0.01)
        [game] = await second.service.tournament_games(tid)
        assert not is_provisional(game.channel_id)
        [thread] = second.fake.of_kind("thread")
        assert thread.message_id == game.channel_id and thread.channel_id == CHANNEL
    finally:
        await second.close()


async def test_standings_of_a_large_field_page_with_buttons(h: Any) -> None:
    reply = await create(h, format="swiss")
    tid = tournament_id_of(reply)
    field = [ALICE.id + n for n in range(21)]
    for user in field:
        await h.service.join_tournament(tid, user)
    await h.service.start_tournament(tid, ADMIN.id)
    sent = await h.command("tournament standings", BOB, tournament=tid)
    first = sent[-1]
    assert first.custom_ids == [f"cp:tst:{tid}:2"]  # no Previous on page 1
    lines = first.embeds[0]["description"].strip("`\n").splitlines()
    assert len(lines) == 21  # the heading and 20 players
    assert "page 1 of 2" in (first.files[0].description or "")
    sent = await h.click(f"cp:tst:{tid}:2", CAROL)
    assert [s.kind for s in sent[:1]] == ["defer_update"]
    [edit] = [s for s in sent if s.kind == "edit_original"]
    assert edit.custom_ids == [f"cp:tst:{tid}:1"]
    rows = edit.embeds[0]["description"].strip("`\n").splitlines()
    last = (await h.service.tournament_standings(tid))[-1]
    assert len(rows) == 2 and rows[1].split()[:2] == [str(last.rank), f"user{last.user_id % 1000}"]
    assert "page 2 of 2" in (edit.files[0].description or "")


FOUR = (ALICE, BOB, CAROL, DAVE)


@pytest.mark.slow  # each format played to its end at the wire, every game adjudicated
@pytest.mark.parametrize(
    ("format", "extra"),
    [
        ("round_robin", {}),
        ("double_round_robin", {}),
        ("swiss", {}),
        ("knockout", {"best_of": 3}),
        ("league", {"division_size": 4}),
    ],
)
async def test_every_format_runs_to_its_podium_in_discord(
    h: Any, format: str, extra: dict[str, Any]
) -> None:
    reply = await create(h, format=format, **extra)
    tid = tournament_id_of(reply)
    for player in FOUR:
        await h.click(join_button(reply), player)
    await h.command("tournament start", ADMIN, tournament=tid)
    by_id = {p.id: p for p in FOUR}
    decided = 0
    while (await h.service.get_tournament(tid)).status == "running":
        assert (
            await h.service.tournaments.games_awaiting_channel(tid) == []
        )  # every game has its thread
        active = [g for g in await h.service.tournament_games(tid) if g.is_active]
        assert active, "a running tournament always has a game to play"
        game = active[0]
        winner = by_id[game.player_ids[decided % 2]]
        await h.command("tournament adjudicate", ADMIN, game=game.id, winner=winner)
        decided += 1
        assert decided < 40
    assert (await h.service.get_tournament(tid)).status == "finished"
    games = await h.service.tournament_games(tid)
    threads = h.fake.of_kind("thread")
    assert {g.channel_id for g in games} == {t.message_id for t in threads}
    assert len(games) == decided
    [podium] = [s for s in h.fake.sent if "🏆" in s.content]
    notices = [s.content for s in h.fake.sent if "paired (round" in s.content]
    rounds = (await h.service.get_tournament(tid)).round
    if format in ("swiss", "knockout"):  # later rounds are paired as games end
        assert f"paired (round {rounds})" in notices[-1]
    else:  # every game of a round robin or a league season is paired at the start
        assert notices == []
    standings = await h.service.tournament_standings(tid)
    champion = next(r for r in standings if r.rank == 1)
    assert f"🥇 <@{champion.user_id}>" in podium.content


async def test_an_announcement_discord_refused_leaves_no_open_tournament(h: Any) -> None:
    h.fake.fail("POST", r"/interactions/\d+/[^/]+/callback", 403, times=1)
    await h.command("tournament create", ADMIN, game="minefield", format="swiss")
    [info] = await h.service.tournaments.list_tournaments(GUILD)
    assert info.status == "cancelled"  # nobody could see or join it


async def test_a_channel_without_thread_permissions_is_told_to_the_organiser_once(
    h: Any,
) -> None:
    reply = await create(h)
    tid = tournament_id_of(reply)
    for player in (ALICE, BOB):
        await h.service.join_tournament(tid, player.id)
    # an admin denies the bot thread permissions in the tournament's channel (a real
    # CHANNEL_UPDATE, handled by discord.py's own gateway code)
    denied = fakes.CREATE_PUBLIC_THREADS | fakes.SEND_MESSAGES_IN_THREADS
    channel = fakes.text_channel_payload(CHANNEL)
    channel["permission_overwrites"] = [
        {"id": str(fakes.APP_ID), "type": 1, "allow": "0", "deny": str(denied)}
    ]
    h.bot._connection.parse_channel_update(channel)
    await h.service.start_tournament(tid, ADMIN.id)
    h.fake.clear()
    for _ in range(3):
        await h.bot.tournaments.sweep()
    assert h.fake.of_kind("thread") == []
    (told,) = [s for s in h.fake.sent if s.kind == "channel_message"]
    assert told.channel_id == CHANNEL and told.pingable == {ADMIN.id}
    assert f"tournament #{tid}" in told.content
    assert "Create Public Threads and Send Messages in Threads" in told.content
    assert len(await h.service.tournaments.games_awaiting_channel(tid)) == 1  # the game waits

    channel["permission_overwrites"] = []  # granted again: the next sweep opens the thread
    h.bot._connection.parse_channel_update(channel)
    await h.bot.tournaments.sweep()
    assert len(h.fake.of_kind("thread")) == 1
    assert await h.service.tournaments.games_awaiting_channel(tid) == []


async def test_a_thread_discord_refuses_despite_the_cache_is_told_once_too(h: Any) -> None:
    tid = tournament_id_of(await create(h))
    for player in (ALICE, BOB):
        await h.service.join_tournament(tid, player.id)
    # the cached permissions allow threads, but Discord answers 403 (Missing Permissions)
    h.fake.fail("POST", rf"/channels/{CHANNEL}/threads", 403, times=2, code=50013)
    await h.service.start_tournament(tid, ADMIN.id)
    h.fake.clear()
    for _ in range(2):
        await h.bot.tournaments.sweep()
    notices = [s for s in h.fake.sent if s.kind == "channel_message"]
    assert len(notices) == 1 and notices[0].pingable == {ADMIN.id}
    assert "Create Public Threads" in notices[0].content
    assert len(await h.service.tournaments.games_awaiting_channel(tid)) == 1
    await h.bot.tournaments.sweep()  # Discord takes it now
    assert await h.service.tournaments.games_awaiting_channel(tid) == []
