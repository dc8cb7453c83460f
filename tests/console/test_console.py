"""The local console, driven through standard input, on a real database and real images."""

from __future__ import annotations

import asyncio
import io
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import console
from bot.service import GameService
from bot.store import SqliteStore as Store
from rules import Game, new_game, parse_record

REPO = Path(__file__).resolve().parents[2]


def scripted_game(name: str, size: int, seed: int) -> tuple[list[str], Game]:
    """Random legal moves to the end, and the finished engine game they produce."""
    rng = random.Random(seed)
    game = new_game(name, size)
    moves = []
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        game.play(move)
        moves.append(move)
    return moves, game


def run_main(argv: list[str], lines: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = console.main(argv, stdin=io.StringIO("".join(f"{x}\n" for x in lines)), stdout=out)
    return code, out.getvalue().splitlines()


@pytest.mark.slow
def test_whole_game_through_stdin_subprocess(tmp_path: Path) -> None:
    moves, game = scripted_game("minefield", 5, seed=4)
    db = tmp_path / "console.db"
    images = tmp_path / "images"
    argv = ["minefield", "--size", "5", "--db", str(db), "--images", str(images)]
    proc = subprocess.run(
        [sys.executable, "-m", "bot.console", *argv],
        input="".join(f"{m}\n" for m in moves),
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == f"{game.winner} wins"
    # One image per position, each a real PNG of a board.
    pngs = sorted(images.glob("turn-*.png"))
    assert [p.name for p in pngs] == [f"turn-{i:03d}.png" for i in range(len(moves) + 1)]
    with Image.open(pngs[-1]) as image:
        assert image.format == "PNG" and image.width > 100 and image.height > 100

    async def stored() -> str:
        async with Store(db) as store:
            return (await GameService(store).games.game_record(1)).text

    assert parse_record(asyncio.run(stored())).moves == moves


def test_bad_input_gets_the_engine_message_and_a_reprompt() -> None:
    code, lines = run_main(["minefield", "--size", "5"], ["e5", "e5", "q9", "", "d4", "resign"])
    assert code == 0
    text = "\n".join(lines)
    assert "e5 is occupied" in text
    assert "q9 is off the board" in text
    # After the refusals white is asked again and d4 is accepted.
    assert text.count("white (player 2) to move>") == 4
    assert "white plays d4" in text
    assert "black resigns" in text and lines[-1] == "white wins"


def test_swap_and_undo_in_clear_path() -> None:
    code, lines = run_main(
        ["clearpath", "--size", "5"], ["undo", "c3", "swap", "undo", "swap", "resign"]
    )
    text = "\n".join(lines)
    assert "nothing to undo yet" in text
    assert "blue swaps" in text and "took back swap" in text
    # After the swap blue is still to move in the engine, now played by player 1, who resigns.
    assert "blue (player 1) to move>" in text
    assert code == 0 and lines[-1] == "red wins"


def test_input_ending_early_is_reported(tmp_path: Path) -> None:
    code, lines = run_main(["crosscut", "--size", "6"], ["c3"])
    assert code == 1 and lines[-2] == "input ended before the game did"
    # as quit says: the game of a temporary file is thrown away
    assert lines[-1].startswith("stopped: the game is not over, and it is discarded")


def test_unknown_game_and_bad_size(capsys: Any) -> None:
    assert console.main(["chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert console.main(["minefield", "--size", "2"]) == 2
    assert "2×2" in capsys.readouterr().err


async def test_a_move_provider_plugs_into_a_seat(tmp_path: Path) -> None:
    """The computer opponent will plug in like this: a callable per seat."""
    rng = random.Random(9)

    def pick(game: Game) -> str:
        return rng.choice(game.legal_moves())

    out = io.StringIO()
    async with Store(tmp_path / "p.db") as store:
        service = GameService(store)
        table = console.Console(service, out=out, inp=io.StringIO(""), providers={1: pick, 2: pick})
        info = await table.start("nakeddiagonal", 6)
        assert await table.run(info) == 0
        record = await service.games.game_record(info.id)
    final = parse_record(record.text)
    last = out.getvalue().splitlines()[-1]
    assert last == ("draw" if final.is_draw else f"{final.winner} wins")
    assert "(thought for" in out.getvalue()


def test_opponent_registry_adds_a_vs_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(console.OPPONENTS, "first", lambda args: lambda g: g.legal_moves()[0])
    code, lines = run_main(["minefield", "--size", "4", "--vs", "first"], ["resign"])
    assert code == 0 and lines[-1] == "white wins. The computer wins."


def test_hint_only_in_a_game_that_allows_hints() -> None:
    # Two players, rated: the console refuses and the game goes on.
    code, lines = run_main(["minefield", "--size", "4"], ["hint", "resign"])
    text = "\n".join(lines)
    assert code == 0 and "does not allow hints" in text and "hint (the computer" not in text
    # With --hints (unrated): the 4×4 board's shipped proof gives the verdict.
    code, lines = run_main(["minefield", "--size", "4", "--hints"], ["hint", "hint", "resign"])
    text = "\n".join(lines)
    assert code == 0 and "hint (the computer's suggested move)" in text
    verdicts = [line for line in lines if line.startswith("hint: proven")]
    assert len(verdicts) == 2 and verdicts[1].endswith("hints used in this game: 2")
