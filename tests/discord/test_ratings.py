"""Ratings through the real bot (issue 13): ``/challenge rated:`` and the game-over message's
rating lines, with only the network edge faked (discord_fakes.py)."""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ALICE, BOB

from bot.service.ratings.model import RatedGame, apply_game

h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


async def play_out(h: Any, seed: int) -> Any:
    for move in fakes.winning_line("minefield", 5, seed=seed):
        info = await h.service.get_game(fakes.CHANNEL)
        mover = ALICE if info.to_move_id == ALICE.id else BOB
        sent = await h.command("move", mover, point=move)
        assert [s.kind for s in sent] == ["defer", "channel_message", "followup"], move
    return h.fake.last("channel_message")


@pytest.mark.slow
async def test_a_rated_win_posts_both_rating_changes(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    final = await play_out(h, seed=3)
    finished = await h.service.get_game_by_id(info.id)
    assert finished.result.rated and final.pingable == {ALICE.id, BOB.id}
    winner = finished.result.winner_id
    a, b = apply_game({}, RatedGame(winner, finished.opponent_of(winner), "win"))
    text = final.embed_text()
    assert "Ratings" in text
    assert f"1500 → {a.after.shown}, +{a.delta} (provisional)" in text
    assert f"1500 → {b.after.shown}, {b.delta} (provisional)" in text
    board = await h.service.leaderboard(fakes.GUILD, "minefield")
    assert [s.user_id for s in board] == [winner, finished.opponent_of(winner)]


async def test_challenge_rated_false_is_stored_and_the_end_says_unrated(h: Any) -> None:
    sent = await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5, rated=False)
    assert "Rated" in sent[-1].embed_text() and "no" in sent[-1].embed_text()
    accept = next(c for c in sent[-1].custom_ids if c.startswith("cp:chal:accept:"))
    await h.click(accept, BOB)
    info = await h.service.get_game(fakes.CHANNEL)
    assert info is not None and not info.rated
    final = await play_out(h, seed=3)
    assert "Unrated: the game was created unrated" in final.embed_text()
    assert await h.service.leaderboard(fakes.GUILD, "minefield") == []


async def rated_games(h: Any, players: int) -> None:
    """``players - 1`` rated games through the service: player i+1 beats player i."""
    import random

    rng = random.Random(4)
    for n in range(players - 1):
        a, b = 500 + n, 501 + n
        channel = 900 + n
        c = await h.service.create_challenge(fakes.GUILD, channel, a, b, "minefield", 5)
        await h.service.accept_challenge(c.id, b)
        for _ in range(4):
            info = await h.service.get_game(channel)
            engine = await h.service.position(info.id)
            await h.service.play_move(channel, info.to_move_id, rng.choice(engine.legal_moves()))
        await h.service.resign(channel, a)


@pytest.mark.slow
async def test_leaderboard_pages_are_images_with_text_and_buttons(h: Any) -> None:
    await rated_games(h, 13)
    expected = await h.service.leaderboard(fakes.GUILD, "minefield", limit=100)
    sent = await h.command("leaderboard", ALICE, game="minefield")
    kinds = [s.kind for s in sent]  # players never seen are looked up (GET /users/…)
    assert kinds[0] == "defer" and kinds[-1] == "followup"
    page = sent[-1]
    [png] = page.files
    assert png.data.startswith(b"\x89PNG") and "leaderboard" in (png.description or "")
    text = page.embed_text()
    assert "1. " in text and f"{round(expected[0].rating)}?" in text and "10. " in text
    assert "11. " not in text
    [next_id] = page.custom_ids
    assert next_id == "cp:lb:minefield:10"
    clicked = await h.click(next_id, BOB)
    edited = clicked[-1]
    assert "11. " in edited.embed_text() and "12. " in edited.embed_text()
    assert edited.custom_ids == ["cp:lb:minefield:0"]


@pytest.mark.slow
async def test_an_empty_leaderboard_and_a_profile_with_its_chart(h: Any) -> None:
    sent = await h.command("leaderboard", ALICE, game="crosscut")
    assert "No rated games yet" in sent[-1].embed_text() and sent[-1].files == []
    await fakes.challenge_and_accept(h)
    await play_out(h, seed=3)
    sent = await h.command("profile", ALICE)
    assert [s.kind for s in sent] == ["defer", "followup"]
    reply = sent[1]
    text = reply.embed_text()
    assert "Minefield" in text and "rank #" in text and "Last games" in text
    [chart] = reply.files
    assert chart.data.startswith(b"\x89PNG") and chart.description
    other = await h.command("profile", BOB, user=ALICE)
    assert "rank #" in other[-1].embed_text()


async def test_admin_ratings_reset_asks_then_only_its_admin_confirms(h: Any) -> None:
    ADMIN = fakes.ADMIN
    await fakes.challenge_and_accept(h)
    await play_out(h, seed=3)
    assert len(await h.service.leaderboard(fakes.GUILD, "minefield")) == 2
    sent = await h.command("admin ratings reset", ADMIN, game="minefield")
    [ask] = sent
    assert ask.ephemeral and "Reset every Minefield rating" in ask.content
    [confirm] = ask.custom_ids
    assert confirm == f"cp:rr:minefield:{ADMIN.id}"
    assert len(await h.service.leaderboard(fakes.GUILD, "minefield")) == 2  # asking changes nothing
    refused = await h.click(confirm, ALICE)
    assert "Only the admin who asked" in refused[-1].content
    assert len(await h.service.leaderboard(fakes.GUILD, "minefield")) == 2
    done = await h.click(confirm, ADMIN)
    assert "2 players' Minefield ratings were cleared" in done[-1].content
    assert await h.service.leaderboard(fakes.GUILD, "minefield") == []
    assert (await h.service.moderation.audit_log(fakes.GUILD))[0].action == "ratings_reset"


async def test_admin_can_turn_ratings_off(h: Any) -> None:
    sent = await h.command("admin settings set", fakes.ADMIN, ratings=False)
    assert "**Ratings:** off" in sent[-1].content
    await fakes.challenge_and_accept(h)
    final = await play_out(h, seed=3)
    assert "Unrated: ratings are turned off in this server" in final.embed_text()


@pytest.mark.slow
async def test_leaderboard_buttons_work_after_a_restart(db_path: Any, clock: Any) -> None:
    discord_side = fakes.FakeDiscord()
    first = await fakes.open_harness(db_path, clock, fake=discord_side)
    await rated_games(first, 12)
    page_one = (await first.command("leaderboard", ALICE, game="minefield"))[-1]
    [next_id] = page_one.custom_ids
    await first.close()

    second = await fakes.open_harness(db_path, clock, fake=discord_side)
    clicked = await second.click(next_id, BOB)
    page_two = clicked[-1]
    assert "11. " in page_two.embed_text() and "12. " in page_two.embed_text()
    assert "10. " not in page_two.embed_text() and "13. " not in page_two.embed_text()
    [png] = page_two.files
    assert png.data.startswith(b"\x89PNG")
    assert page_two.custom_ids == ["cp:lb:minefield:0"]
    await second.close()
