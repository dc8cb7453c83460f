"""``/puzzle`` in a DM and in a group DM, reached through a user install (issue 48), at the wire.

The bot may only answer interactions there, and every step of a puzzle is one: the command,
the Answer button and its form, Give up.  A whole puzzle is solved in a DM and one is given up
in a group DM, each with a restart in the middle (a new bot over the same SQLite file answers
the old buttons).  Outside servers only public puzzles are given, and a server's own puzzle
open in its server cannot be answered from a DM.  After every test nothing was POSTed to the
conversation's ``/messages``, no interaction had more than five follow-ups, and every answer
matches Discord's OpenAPI spec (``user_install.check_sent``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import discord_fakes as fakes
import user_install

from bot.service.puzzles import service as puzzle_service
from rules import new_game

ALICE, BOB = fakes.ALICE, fakes.BOB
WHERE = fakes.DM_WHERE
close_harnesses = fakes.close_harnesses
command, click = fakes.dm_command, fakes.dm_click


h = user_install.h
check_sent = user_install.check_sent


def buttons(sent: Any) -> tuple[str, str]:
    answer = next(c for c in sent.custom_ids if c.startswith("cp:pz:ans:"))
    give = next(c for c in sent.custom_ids if c.startswith("cp:pz:give:"))
    return answer, give


async def ask(h: Any, where: str, who: Any = ALICE, **options: Any) -> Any:
    """``/puzzle`` in the conversation: a private "thinking…", then the task privately."""
    sent = await command(h, where, "puzzle", who, **options)
    assert [s.kind for s in sent] == ["defer", "followup"], sent
    assert sent[0].ephemeral and sent[-1].ephemeral
    task = sent[-1]
    assert "to move and win" in task.content and task.files
    return task


async def answer_in(h: Any, where: str, button: str, move: str, who: Any = ALICE) -> list[Any]:
    """The Answer button pressed in the conversation, and its form sent with ``move``."""
    opened = await click(h, where, button, who)
    assert opened[-1].body.get("type") == 9, [s.body for s in opened]  # the form
    form = opened[-1].body["data"]
    submit = h.payloads.modal_submit(form, who, [move], channel_id=WHERE[where])
    return list(await h.run(fakes.user_installed(submit, who, where)))


async def restart(h: Any, db_path: Path, clock: Any) -> Any:
    """A new bot over the same SQLite file, Discord's side (its messages) kept."""
    fake = h.fake
    check_sent(fake)
    await h.close()
    return await fakes.open_harness(db_path, clock, fake=fake)


async def test_a_whole_puzzle_is_solved_in_a_dm_across_a_restart(db_path: Path, clock: Any) -> None:
    h = await fakes.open_harness(db_path, clock)
    try:
        task = await ask(h, "dm", game="minefield")
        attempt = int(buttons(task)[0].rsplit(":", 1)[1])
        _, row = await h.service.puzzles._attempt(attempt, ALICE.id)
        assert row.guild_id is None  # a public puzzle
        solution = row.solution.split()
        h = await restart(h, db_path, clock)
        # The restarted bot answers the old message's button, and the form after it.
        shown = task
        for move in solution[::2]:
            result = await answer_in(h, "dm", buttons(shown)[0], move)
            assert [s.kind for s in result] == ["defer", "followup"], result
            shown = result[-1]
            assert shown.ephemeral and shown.files
            if not shown.content.startswith("Solved!"):
                assert "The defence plays" in shown.content
        assert shown.content.startswith("Solved!"), shown.content
        standing = await h.service.puzzles.standing(ALICE.id)
        assert standing is not None and (standing.solved, standing.streak) == (1, 1)
        check_sent(h.fake)
    finally:
        await h.close()


async def test_a_puzzle_is_given_up_in_a_group_dm_across_a_restart(
    db_path: Path, clock: Any
) -> None:
    h = await fakes.open_harness(db_path, clock)
    try:
        task = await ask(h, "group")
        h = await restart(h, db_path, clock)
        given = await click(h, "group", buttons(task)[1], ALICE)
        assert [s.kind for s in given] == ["defer", "followup"]
        shown = given[-1]
        assert shown.ephemeral and "You gave up." in shown.content
        assert "The solution:" in shown.content and shown.files
        # Bob in the same group DM cannot give up Alice's puzzle (its id reaches nothing),
        # and the attempt, over, refuses a second give-up.
        assert fakes.refusal(await click(h, "group", buttons(task)[1], BOB)).content
        assert fakes.refusal(await click(h, "group", buttons(task)[1], ALICE)).content
        standing = await h.service.puzzles.standing(ALICE.id)
        assert standing is not None and (standing.solved, standing.failed) == (0, 1)
        check_sent(h.fake)
    finally:
        await h.close()


async def test_outside_servers_only_public_puzzles_are_shown(h: Any, snapshot: Any) -> None:
    """A server's own puzzle (mined from a game only its members saw), first in line for a
    new player, is given in its server and never in a DM, nor answered from one."""
    view = await h.service.puzzles.start(BOB.id, fakes.GUILD, "minefield")  # the shipped set
    row = (await h.service.puzzles._attempt(view.attempt_id, BOB.id))[1]
    own = replace(row, id="0" * 12, guild_id=fakes.GUILD, mu=puzzle_service.INITIAL_MU)
    async with h.service.store.write() as tx:
        await tx.puzzles.add([own])
    outside = await ask(h, "dm", game="minefield")
    attempt = int(buttons(outside)[0].rsplit(":", 1)[1])
    assert (await h.service.puzzles._attempt(attempt, ALICE.id))[1].id != own.id
    await click(h, "dm", buttons(outside)[1], ALICE)  # give it up: it stays public
    async with h.service.store.write() as tx:  # the server's own again first in line for Alice
        rating = await tx.puzzles.rating(ALICE.id)
        assert rating is not None
        own = replace(own, id="1" * 12, mu=rating.mu)
        await tx.puzzles.add([own])
    inside = (await h.command("puzzle", ALICE, game="minefield"))[-1]
    attempt = int(buttons(inside)[0].rsplit(":", 1)[1])
    assert (await h.service.puzzles._attempt(attempt, ALICE.id))[1].id == own.id
    game = new_game(own.game, own.size)
    for move in own.moves.split():
        game.play(move)
    before = snapshot()
    refused = fakes.refusal(await command(h, "dm", "puzzle", ALICE, move=game.legal_moves()[0]))
    assert "answer it in that server" in refused.content and snapshot() == before
    focused = fakes.opt("move", "", 3, focused=True)
    payload = h.payloads.command(
        "puzzle", ALICE, [focused], channel_id=WHERE["dm"], autocomplete=True
    )
    [offered] = await h.run(fakes.user_installed(payload, ALICE, "dm"))
    assert offered.kind == "autocomplete" and offered.choices == []  # not even its moves
