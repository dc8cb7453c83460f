"""``/profile`` and ``/tournament`` keep what lives in a private channel as private as it.

The rule is ``/board game:N``'s (``bot.discord.access``): something from a channel not
everyone can read is posted publicly only in that channel; elsewhere it is shown privately to
its players, the server's managers and members who can read the channel, and hidden from
everyone else.  The private channel's overwrites come from the guild's raw payload
(``discord_fakes.private_overwrites``: Alice and Bob may read it, Carol may not).
"""

from __future__ import annotations

import random
from typing import Any

import discord_fakes as fakes
import loop_guard as guard
from discord_fakes import ADMIN, ALICE, BOB, CAROL

CHANNEL, PRIVATE, GUILD = fakes.CHANNEL, fakes.PRIVATE_CHANNEL, fakes.GUILD
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses


async def finished_game(h: Any, channel: int) -> int:
    """Alice and Bob's game in ``channel``, four moves and then Alice resigns."""
    rng = random.Random(channel)
    challenge = await h.service.create_challenge(GUILD, channel, ALICE.id, BOB.id, "minefield", 5)
    await h.service.accept_challenge(challenge.id, BOB.id)
    info = await h.service.get_game(channel)
    for _ in range(4):
        info = await h.service.get_game(channel)
        engine = await h.service.position(info.id)
        await h.service.play_move(channel, info.to_move_id, rng.choice(engine.legal_moves()))
    await h.service.resign(channel, ALICE.id)
    return int(info.id)


async def test_a_profile_posted_publicly_leaves_out_games_from_private_channels(h: Any) -> None:
    public_id = await finished_game(h, CHANNEL)
    private_id = await finished_game(h, PRIVATE)
    for who in (CAROL, ALICE):  # not even Alice's own profile posts it to the public channel
        sent = await h.command("profile", who, user=ALICE)
        reply = sent[-1]
        assert reply.kind == "followup" and not reply.ephemeral
        text = reply.embed_text()
        assert f"#{public_id} " in text and f"/{CHANNEL}" in text
        assert f"#{private_id} " not in text and str(PRIVATE) not in text
    # asked in the private channel itself, its game may be shown there
    text = (await h.command("profile", BOB, user=ALICE, channel_id=PRIVATE))[-1].embed_text()
    assert f"#{private_id} " in text and f"#{public_id} " in text


async def private_tournament(h: Any) -> int:
    """A started round robin created by the admin in the private channel: Alice and Bob."""
    [reply] = await h.command(
        "tournament create",
        ADMIN,
        game="minefield",
        format="round_robin",
        size=5,
        channel_id=PRIVATE,
    )
    assert reply.embeds
    [tournament] = await h.service.tournaments.list_tournaments(GUILD, limit=5)
    for player in (ALICE, BOB):
        await h.command("tournament join", player, tournament=tournament.id, channel_id=PRIVATE)
    await h.command("tournament start", ADMIN, tournament=tournament.id, channel_id=PRIVATE)
    return int(tournament.id)


async def test_a_private_tournament_is_hidden_from_outsiders(h: Any) -> None:
    tid = await private_tournament(h)
    for command in ("tournament pairings", "tournament standings", "tournament info"):
        sent = await h.command(command, CAROL, tournament=tid)
        answer = fakes.refusal(sent)
        assert "can't see" in answer.content and not answer.files and not answer.embeds
        assert not [s for s in sent if s.kind in ("followup", "reply") and not s.ephemeral]
        assert str(ALICE.id) not in answer.content and "Minefield" not in answer.content
    [listed] = await h.command("tournament list", CAROL)
    assert f"#{tid}" not in listed.content


async def test_a_private_tournament_is_shown_privately_to_players_and_admins(h: Any) -> None:
    tid = await private_tournament(h)
    for who in (ALICE, ADMIN):
        [pairings] = await h.command("tournament pairings", who, tournament=tid)
        assert pairings.ephemeral and "round 1" in pairings.content
        standings = (await h.command("tournament standings", who, tournament=tid))[-1]
        assert standings.kind == "followup" and standings.ephemeral and standings.embeds
        [listed] = await h.command("tournament list", who)
        assert f"**#{tid}**" in listed.content
    # in its own channel it is public, as before
    [pairings] = await h.command("tournament pairings", CAROL, tournament=tid, channel_id=PRIVATE)
    assert not pairings.ephemeral
