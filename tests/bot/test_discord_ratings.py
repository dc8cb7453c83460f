"""Ratings through the real bot (issue 13): ``/challenge rated:`` and the game-over message's
rating lines, with only the network edge faked (discord_fakes.py)."""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
import loop_guard as guard

from bot.service.ratings import RatedGame, apply_game

ALICE, BOB = fakes.ALICE, fakes.BOB
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
