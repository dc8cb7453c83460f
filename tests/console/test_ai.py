"""``crosspath play GAME --vs ai``: whole games against the computer through standard input."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import console
from bot.service import GameService
from bot.store import SqliteStore as Store
from rules import game_class, parse_record

REPO = Path(__file__).resolve().parents[2]


class FirstLegalMove(io.StringIO):
    """Standard input for the human seat: asks for ``moves``, then plays the first one listed.

    It reads what the console printed, so the human's side adapts to whatever the AI played,
    and every line still goes through the console's input handling.
    """

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.asked = False
        self.played: list[str] = []

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        if not self.asked:
            self.asked = True
            return "moves\n"
        self.asked = False
        lines = self.out.getvalue().splitlines()
        # the prompt has no newline, so the listed moves are the last complete line
        listed = lines[-2].split()
        self.played.append(listed[0])
        return listed[0] + "\n"


COMPUTER_MOVE = re.compile(r"\(computer\) (?:plays|swaps) ?(\S*)")


def all_points(game: str, size: int) -> list[str]:
    """Every point of the board, a1 first: fed as human input, the illegal ones are refused
    with a message and the first legal one is played, so a fixed script finishes any game."""
    return list(game_class(game)(size).grid.names)


def ai_lines(lines: list[str]) -> list[str]:
    return [m.group(1) for line in lines if (m := COMPUTER_MOVE.search(line))]


async def stored_record(db: Path) -> str:
    async with Store(db) as store:
        return (await GameService(store).games.game_record(1)).text


def expected_last_line(db: Path, human: int = 1) -> str:
    """The console's last line for the stored game: the colour, then who that is."""

    async def result() -> tuple[str | None, int | None]:
        async with Store(db) as store:
            info = await GameService(store).get_game_by_id(1)
        assert info.result is not None
        return info.result.winner_colour, info.result.winner_id

    colour, winner = asyncio.run(result())
    if colour is None:
        return "draw"
    return f"{colour} wins. " + ("You win!" if winner == human else "The computer wins.")


@pytest.mark.parametrize(("game", "size"), [("minefield", 5), ("clearpath", 5), ("crosscut", 5)])
def test_whole_game_against_the_ai_through_stdin(tmp_path: Path, game: str, size: int) -> None:
    out = io.StringIO()
    inp = FirstLegalMove(out)
    db = tmp_path / "vs-ai.db"
    argv = [game, "--size", str(size), "--vs", "ai", "--level", "easy", "--seed", "5"]
    code = console.main([*argv, "--db", str(db)], stdin=inp, stdout=out)
    lines = out.getvalue().splitlines()
    assert code == 0, lines[-5:]
    final = parse_record(asyncio.run(stored_record(db)))
    assert final.is_over
    assert lines[-1] == expected_last_line(db)
    assert lines[-1].startswith("draw" if final.is_draw else f"{final.winner} wins")
    # exit code 0: the service accepted every move the computer chose (a refused one stops
    # the console); the engine replayed the stored game (parse_record refuses illegal moves);
    # every stored move is one the human or the computer made, in the order they were printed
    chosen = ai_lines(lines)
    assert chosen and len(chosen) + len(inp.played) == len(final.history)
    played = re.compile(r"[a-z]+(?: \([a-z0-9 ]+\))? plays ([a-z]+[0-9]+)(?: \(thought .*)?")
    printed = [
        "swap" if " swaps (pie rule)" in line else found.group(1)
        for line in lines
        if (found := played.fullmatch(line)) or " swaps (pie rule)" in line
    ]
    assert printed == [r.move for r in final.history]
    assert "(you) to move>" in out.getvalue()


def test_ai_moves_are_legal_in_the_position_it_was_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrap the AI's provider: each answer is checked against the position it was given."""
    checked: list[str] = []
    real = console.OPPONENTS["ai"]
    assert real is not None

    def checking(args: object) -> console.MoveProvider:
        provider = real(args)  # type: ignore[arg-type]

        def choose(game: console.Game) -> str:
            legal = game.legal_moves()
            move = provider(game)
            assert move in legal, (move, game.record())
            checked.append(move)
            return move

        return choose

    monkeypatch.setitem(console.OPPONENTS, "ai", checking)
    out = io.StringIO()
    code = console.main(
        ["nakeddiagonal", "--size", "5", "--vs", "ai", "--level", "1", "--seed", "2"],
        stdin=FirstLegalMove(out),
        stdout=out,
    )
    assert code == 0
    assert checked and ai_lines(out.getvalue().splitlines()) == checked
    assert out.getvalue().splitlines()[-1].endswith(("You win!", "The computer wins.", "draw"))


def test_ai_first_takes_seat_one() -> None:
    out = io.StringIO()
    code = console.main(
        ["minefield", "--size", "4", "--vs", "ai", "--level", "1", "--ai-first", "--seed", "1"],
        stdin=io.StringIO("resign\n"),
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert code == 0
    assert any(line.startswith("black (computer) plays ") for line in lines)
    assert "You play white (O), the computer plays black (X)." in lines
    assert "white (you) to move> resign" in lines
    assert lines[-1] == "black wins. The computer wins."


@pytest.mark.slow
def test_whole_game_in_a_subprocess_with_a_fixed_script(tmp_path: Path) -> None:
    """The real entry point, end to end: the human side is every point in order, repeated."""
    db = tmp_path / "sub.db"
    script = all_points("minefield", 5) * 3
    options = ["--size", "5", "--vs", "ai", "--level", "1", "--seed", "4", "--db", str(db)]
    proc = subprocess.run(
        [sys.executable, "-m", "bot.console", "minefield", *options],
        input="".join(f"{m}\n" for m in script),
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    final = parse_record(asyncio.run(stored_record(db)))
    assert lines[-1] == expected_last_line(db)
    assert lines[-1].startswith("draw" if final.is_draw else f"{final.winner} wins")
    computer = [r.move for r in final.history if r.player == "white"]
    assert ai_lines(lines) == computer


def test_same_seed_same_game() -> None:
    def transcript() -> str:
        out = io.StringIO()
        console.main(
            ["crosscut", "--size", "5", "--vs", "ai", "--level", "1", "--seed", "9"],
            stdin=FirstLegalMove(out),
            stdout=out,
        )
        return out.getvalue()

    assert transcript() == transcript()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["minefield", "--vs", "ai", "--level", "grandmaster"], "unknown AI level 'grandmaster'"),
        (["minefield", "--vs", "ai", "--level", "0"], "1 (easy), 2 (casual)"),
        (
            ["minefield", "--vs", "human", "--level", "2"],
            "--level only applies to a game against the computer",
        ),
        (["minefield", "--vs", "human", "--seed", "2"], "--seed only applies"),
        (["minefield", "--vs", "robot"], "invalid choice: 'robot'"),
    ],
)
def test_bad_options_are_clear_argparse_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        console.main(argv, stdin=io.StringIO(""), stdout=io.StringIO())
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_level_names_and_numbers_are_accepted() -> None:
    args = console.parser().parse_args(["minefield", "--vs", "ai", "--level", "Hard"])
    assert args.level.number == 4
    args = console.parser().parse_args(["minefield", "--vs", "ai"])
    assert args.level is None
