"""``/puzzle`` at the wire (issue 48): a private puzzle with its board and two buttons, an
answer through the form the Answer button opens, a wrong answer refuted, giving up, and a
forged attempt id that reaches nothing."""

from __future__ import annotations

from typing import Any

import discord_fakes as fakes
from discord_fakes import ALICE, BOB

from bot.service.puzzles.service import INITIAL_MU
from bot.store.rows import PuzzleRow
from rules import new_game

h = fakes.h
close_harnesses = fakes.close_harnesses


def buttons(sent: Any) -> tuple[str, str]:
    ids = sent.custom_ids
    answer = next(c for c in ids if c.startswith("cp:pz:ans:"))
    give = next(c for c in ids if c.startswith("cp:pz:give:"))
    return answer, give


async def answer_with(h: Any, button: str, move: str, who: Any = ALICE) -> list[Any]:
    opened = await h.click(button, who)
    assert opened[-1].body.get("type") == 9, [s.body for s in opened]  # the form
    form = opened[-1].body["data"]
    return await h.run(h.payloads.modal_submit(form, who, [move]))


async def test_a_puzzle_is_private_and_a_wrong_answer_is_refuted(h: Any, snapshot: Any) -> None:
    sent = await h.command("puzzle", ALICE, game="minefield")
    assert [s.kind for s in sent] == ["defer", "followup"]
    task = sent[-1]
    assert sent[0].ephemeral and task.ephemeral
    assert "to move and win" in task.content
    [board] = task.files
    assert board.data.startswith(b"\x89PNG") and board.description
    attempt = int(buttons(task)[0].rsplit(":", 1)[1])
    _, row = await h.service.puzzles._attempt(attempt, ALICE.id)  # the stored puzzle
    solution = row.solution.split()
    game = new_game(row.game, row.size)
    for move in row.moves.split():
        game.play(move)
    wrong = next(m for m in game.legal_moves() if m != solution[0])

    # Bob cannot answer Alice's puzzle, even with its button's id: nothing changes.
    before = snapshot()
    refused = await answer_with(h, buttons(task)[0], solution[0], who=BOB)
    assert refused[-1].ephemeral and snapshot() == before

    result = await answer_with(h, buttons(task)[0], wrong)
    shown = result[-1]
    assert shown.ephemeral
    assert shown.content.startswith(f"Not this one: after {wrong}, ")
    assert "The solution:" in shown.content and shown.files  # the refutation, drawn

    # A point that is taken is refused with a sentence, and the attempt is over anyway.
    taken = fakes.refusal(await answer_with(h, buttons(task)[0], row.moves.split()[0]))
    assert taken.content


async def test_giving_up_shows_the_solution(h: Any) -> None:
    task = (await h.command("puzzle", ALICE))[-1]
    given = await h.click(buttons(task)[1], ALICE)
    shown = given[-1]
    assert shown.ephemeral and "You gave up." in shown.content
    assert "The solution:" in shown.content and "streak" in shown.content
    again = fakes.refusal(await h.click(buttons(task)[1], ALICE))  # the attempt is over
    assert again.content


async def test_the_right_answer_solves_or_is_defended(h: Any) -> None:
    task = (await h.command("puzzle", ALICE, game="minefield"))[-1]
    attempt = int(buttons(task)[0].rsplit(":", 1)[1])
    _, row = await h.service.puzzles._attempt(attempt, ALICE.id)
    solution = row.solution.split()
    result = await answer_with(h, buttons(task)[0], solution[0])
    shown = result[-1]
    if len(solution) == 1:
        assert shown.content.startswith(f"Solved! {solution[0]} wins.")
    else:
        assert f"The defence plays {solution[1]}" in shown.content
        assert shown.files and buttons(shown)


async def test_the_profile_shows_the_puzzle_record(h: Any) -> None:
    before = (await h.command("profile", ALICE))[-1]
    assert "Puzzles" not in before.embed_text()  # no puzzle tried yet: no line
    task = (await h.command("puzzle", ALICE))[-1]
    await h.click(buttons(task)[1], ALICE)  # give up
    after = (await h.command("profile", ALICE))[-1]
    assert "Puzzles: rating " in after.embed_text()
    assert "solved 0, failed 1 · streak 0 (best 0)" in after.embed_text()


def move_autocomplete(h: Any, who: Any, typed: str) -> dict[str, Any]:
    option = fakes.opt("move", typed, 3, focused=True)
    return h.payloads.command("puzzle", who, [option], autocomplete=True)


async def test_the_move_option_answers_the_open_puzzle_from_autocompleted_moves(
    h: Any, snapshot: Any
) -> None:
    h.bot.get_cog("PuzzleCog").autocomplete_budget = 5.0  # a cold lookup on a busy machine
    # No puzzle open: nothing to offer, and an answer is refused with a sentence.
    [offered] = await h.run(move_autocomplete(h, ALICE, ""))
    assert offered.kind == "autocomplete" and offered.choices == []
    before = snapshot()
    refused = fakes.refusal(await h.command("puzzle", ALICE, move="c3"))
    assert "no puzzle open" in refused.content and snapshot() == before

    task = (await h.command("puzzle", ALICE, game="minefield"))[-1]
    attempt = int(buttons(task)[0].rsplit(":", 1)[1])
    _, row = await h.service.puzzles._attempt(attempt, ALICE.id)
    game = new_game(row.game, row.size)
    for move in row.moves.split():
        game.play(move)
    legal = game.legal_moves()
    [offered] = await h.run(move_autocomplete(h, ALICE, ""))
    assert [c["value"] for c in offered.choices] == legal[:25]
    solution = row.solution.split()
    typed = solution[0][0].upper()  # a column letter, typed in capitals
    [offered] = await h.run(move_autocomplete(h, ALICE, typed))
    values = [c["value"] for c in offered.choices]
    assert values == [m for m in legal if m.startswith(typed.lower())][:25]
    assert solution[0] in values
    [offered] = await h.run(move_autocomplete(h, BOB, ""))  # Bob has no puzzle open
    assert offered.choices == []

    # A game and a move at once is refused and changes nothing.
    before = snapshot()
    both = fakes.refusal(await h.command("puzzle", ALICE, game="minefield", move=solution[0]))
    assert "not both" in both.content and snapshot() == before

    shown = (await h.command("puzzle", ALICE, move=solution[0]))[-1]
    assert shown.ephemeral
    if len(solution) == 1:
        assert shown.content.startswith(f"Solved! {solution[0]} wins.")
        [offered] = await h.run(move_autocomplete(h, ALICE, ""))
        assert offered.choices == []  # solved: nothing open any more
    else:
        assert f"The defence plays {solution[1]}" in shown.content
        game.play(solution[0])
        game.play(solution[1])
        [offered] = await h.run(move_autocomplete(h, ALICE, ""))
        assert [c["value"] for c in offered.choices] == game.legal_moves()[:25]


async def test_the_puzzle_board_speaks_the_players_language(h: Any) -> None:
    """The board's caption and alt text follow the reader's client language, like the words."""
    sent = await h.command("puzzle", ALICE, game="minefield", locale="de")
    task = sent[-1]
    [board] = task.files
    assert "Zug" in task.content or "am Zug" in task.content, task.content
    assert "Minefield" in board.description and " to move" not in board.description
    english = (await h.command("puzzle", BOB, game="minefield"))[-1].files[0]
    assert board.description != english.description


async def test_a_clear_path_chain_is_answered_placement_by_placement(h: Any) -> None:
    """A Clear Path puzzle whose winning turns are chains: each placement is one answer, a
    right one mid-chain asks for the next, and the defence shows the defender's whole chain."""
    # Blue wins in two turns, d4-b1 then c2-b3-c3 (tests/ai/test_puzzles.py); stored at the
    # starting rating, so it is the puzzle nearest a new player's.
    moves, solution = "a2 a3 a1 d3 d1 a4 b4 d2", "d4 b1 c1 b2 c2 b3 c3"
    chain = PuzzleRow(
        "cfdd5f855b13", "clearpath", 4, moves, solution, None, None, INITIAL_MU, 8.0, 0, 0, 0
    )
    async with h.store.write() as tx:
        await tx.puzzles.add([chain])
    task = (await h.command("puzzle", ALICE, game="clearpath"))[-1]
    attempt = int(buttons(task)[0].rsplit(":", 1)[1])
    _, row = await h.service.puzzles._attempt(attempt, ALICE.id)
    assert row.id == chain.id

    shown = (await answer_with(h, buttons(task)[0], "d4"))[-1]
    assert shown.content.startswith("Right: d4. Chain reaction: place again."), shown.content
    shown = (await answer_with(h, buttons(shown)[0], "b1"))[-1]
    assert "The defence plays c1 b2; your move again." in shown.content, shown.content
    for point in ("c2", "b3"):
        shown = (await h.command("puzzle", ALICE, move=point))[-1]
        assert shown.content.startswith(f"Right: {point}. Chain reaction"), shown.content
    shown = (await h.command("puzzle", ALICE, move="c3"))[-1]
    assert shown.content.startswith("Solved! c3 wins."), shown.content
    after = await h.service.puzzles._attempt(attempt, ALICE.id)
    assert after[0].status == "solved" and after[0].played == solution
