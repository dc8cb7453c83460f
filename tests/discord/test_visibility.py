"""A game shown by number (``/board``, ``/history``, ``/replay`` with ``game:N``) is shown
only where its own channel can be read.

In its own channel, or when everyone in the server can read that channel, the answer is public
as before.  A game in a channel that not everyone can read is shown privately to its players,
the server's managers and members who can read that channel, and refused to anyone else
without a word of its content.  Readability comes from discord.py's permission objects built
from the guild's raw payload (roles and channel overwrites).
"""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
import loop_guard as guard
import pytest
from discord_fakes import ADMIN, ALICE, BOB, CAROL

CHANNEL, PRIVATE = fakes.CHANNEL, fakes.PRIVATE_CHANNEL
h = fakes.h
loop_guard = guard.loop_guard
close_harnesses = fakes.close_harnesses
LOOKS = ("board", "history", "replay")


async def private_game(h: Any) -> int:
    """Alice and Bob's game in the private channel, with one move played."""
    await h.command("challenge", ALICE, game="minefield", opponent=BOB, size=5, channel_id=PRIVATE)
    accept = h.fake.last("reply").custom_ids[0]
    await h.click(accept, BOB)
    await h.command("move", ALICE, point="c3", channel_id=PRIVATE)
    info = await h.service.get_game(PRIVATE)
    assert info is not None
    return int(info.id)


def shown(sent: list[Any]) -> Any:
    """The one answer that shows the game (a public follow-up, or a private one after the
    public "thinking…" was withdrawn)."""
    kinds = [s.kind for s in sent if not s.kind.startswith("GET ")]  # names asked of Discord
    assert kinds in (["defer", "followup"], ["defer", "delete_original", "followup"]), kinds
    answer = sent[-1]
    assert answer.files, "the board, record or replay is attached"
    return answer


@pytest.mark.parametrize("command", LOOKS)
async def test_a_private_game_is_refused_to_others_without_its_content(
    h: Any, command: str
) -> None:
    game_id = await private_game(h)
    sent = await h.command(command, CAROL, game=game_id)
    answer = fakes.refusal(sent)
    assert [s.kind for s in sent] == ["defer", "delete_original", "followup"]
    assert "can't see" in answer.content and not answer.files and not answer.embeds
    assert "c3" not in answer.content and "Minefield" not in answer.content
    assert str(ALICE.id) not in answer.content and str(BOB.id) not in answer.content


@pytest.mark.parametrize("command", LOOKS)
async def test_a_private_game_is_shown_privately_to_its_players_and_managers(
    h: Any, command: str
) -> None:
    game_id = await private_game(h)
    for who in (BOB, ADMIN):
        answer = shown(await h.command(command, who, game=game_id))
        assert answer.ephemeral, f"{who.name} sees it alone, not the public channel"
    # in its own channel everyone there may see it
    answer = shown(await h.command(command, BOB, game=game_id, channel_id=PRIVATE))
    assert not answer.ephemeral


async def test_a_game_in_a_public_channel_is_shown_to_anyone_anywhere(h: Any) -> None:
    info = await fakes.challenge_and_accept(h)
    answer = shown(await h.command("board", CAROL, game=info.id, channel_id=fakes.OTHER_CHANNEL))
    assert not answer.ephemeral and answer.files[0].data.startswith(b"\x89PNG")


async def test_a_game_whose_channel_is_unknown_is_shown_only_to_its_players(h: Any) -> None:
    gone = CHANNEL + 500  # no longer exists: not cached, and Discord answers 404
    challenge = await h.service.create_challenge(
        fakes.GUILD, gone, ALICE.id, BOB.id, "minefield", 5
    )
    started = await h.service.accept_challenge(challenge.id, BOB.id)
    game_id = started.game.id
    sent = await h.command("board", CAROL, game=game_id)
    [asked] = [s for s in sent if s.kind.startswith("GET ")]
    assert asked.path == f"/channels/{gone}" and asked.status == 404
    answer = fakes.refusal([s for s in sent if s is not asked])
    assert "can't see" in answer.content
    assert shown(await h.command("board", ALICE, game=game_id)).ephemeral
