"""The console as players use it: goals, undo against the computer, resuming, the board marks."""

from __future__ import annotations

import asyncio
import io
import time
from pathlib import Path

import pytest

from bot import console
from bot.service import GameInfo
from rules import Game, game_class, game_names, parse_record

GAMES = sorted(game_names())


class Terminal(io.StringIO):
    """Standard output that says it is a terminal (for the live "thinking…" line)."""

    def isatty(self) -> bool:
        return True


def run(argv: list[str], lines: list[str], out: io.StringIO | None = None) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    stdin = io.StringIO("".join(f"{x}\n" for x in lines))
    code = console.main(argv, stdin=stdin, stdout=out)
    return code, out.getvalue()


def stored_games(db: Path) -> list[GameInfo]:
    async def read() -> list[GameInfo]:
        async with console.open_service(db) as service:
            return await service.games_for_player(console.CONSOLE_GUILD, console.PLAYER_ONE)

    return sorted(asyncio.run(read()), key=lambda info: info.id)


# ----- goals and special moves ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_goal_and_special_moves_at_the_start_and_on_rules(game: str) -> None:
    size = game_class(game).min_size
    code, text = run([game, "--size", str(size)], ["rules", "help", "quit"])
    assert code == 1  # quit before the end
    goal = console.goal_line(game, size)
    special = f"Special moves: {console.SPECIAL_MOVES[game]}."
    assert text.count(goal) == 3 and text.count(special) == 3  # the start, rules, help
    lines = text.splitlines()
    legend = next(line for line in lines if line.startswith("X = "))
    commands = next(line for line in lines if line.startswith("Type a point"))
    if game == "crosscut":
        assert goal == (
            f"Goal: a straight run of {size - 2} of your discs in one row or column "
            f"(N−2 on this {size}×{size} board)."
        )
        assert "top and bottom" not in legend and "edges" not in goal
        assert f"a run of {size - 2} in a row or column wins" in legend
    else:
        assert "join your two edges" in goal
        assert "joins top and bottom" in legend
    assert "undo (take back the last turn)" in commands
    assert ("swap" in commands) == (game == "clearpath")
    assert ("swap" in text) == (game == "clearpath")


# ----- the text board ---------------------------------------------------------------------------


def cell(board: str, point: str, size: int) -> str:
    """The mark at ``point`` in a text board (rows top down, columns two characters apart)."""
    col = ord(point[0]) - ord("a")
    row = int(point[1:])
    width = len(str(size))
    line = board.splitlines()[1 + size - row]
    return line[width + 1 + 2 * col]


def marks(board: str, size: int) -> list[str]:
    return [ch for line in board.splitlines()[1 : 1 + size] for ch in line.split()[1:-1]]


def test_crosscut_board_marks_flips_and_the_removed_perimeter_disc() -> None:
    game = parse_record("crosscut 6: e3 d4 c4 d2 d3 d5 e4 c2 d6")
    (record,) = game.last_turn()
    assert record.point == "d6" and not record.stays and record.flipped == ("d5",)
    board = console.text_board(game)
    assert cell(board, "d6", 6) == "-"
    assert cell(board, "d5", 6) == "*" and game.at("d5") == "red"
    assert marks(board, 6).count("*") == 1 and marks(board, 6).count("-") == 1
    legend = board.splitlines()[-1]
    assert "* = flipped to red last turn" in legend and "- = removed last turn" in legend
    assert "lower case" not in legend  # the only placement was removed


def test_crosscut_board_marks_an_interior_flip_and_its_placement() -> None:
    game = parse_record("crosscut 6: b5 c5 d3 b2 c3 e4 d4 c4")
    (record,) = game.last_turn()
    assert record.point == "c4" and record.stays and record.flipped == ("d4",)
    board = console.text_board(game)
    assert cell(board, "c4", 6) == "o" and cell(board, "d4", 6) == "*"
    assert marks(board, 6).count("o") == 1 and marks(board, 6).count("*") == 1
    legend = board.splitlines()[-1]
    assert "* = flipped to blue last turn" in legend and "lower case = placed last turn" in legend
    assert "- = removed" not in legend


def test_clearcut_board_marks_removed_checkers_and_the_placement() -> None:
    game = parse_record("clearcut 5: a3 e1 e3 d5 b1 d1 c5 b2 c4 c1 b4 d2 a1 c2 d4 e4 e2 d3")
    (record,) = game.last_turn()
    assert record.removed
    board = console.text_board(game)
    for point in record.removed:
        assert game.at(point) is None and cell(board, point, 5) == "-"
    assert cell(board, "d3", 5) == "o"  # blue's placement, lower case
    assert marks(board, 5).count("-") == len(record.removed)


@pytest.mark.parametrize("game", GAMES)
def test_the_winning_path_is_marked(game: str) -> None:
    finished = finished_game(game)
    board = console.text_board(finished, show_illegal=False)
    size = finished.size
    path = finished.winning_path
    assert path and all(cell(board, point, size) == "#" for point in path)
    assert marks(board, size).count("#") == len(path)
    assert f"# = {finished.winner}'s winning" in board.splitlines()[-1]


def finished_game(name: str) -> Game:
    """A won game: the first legal move every turn until someone wins (drawn ones skipped)."""
    import random

    for seed in range(100):
        rng = random.Random(seed)
        game = game_class(name)(game_class(name).min_size)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        if game.winner is not None:
            return game
    raise AssertionError(f"no won {name} game in 100 seeds")


# ----- the computer: thinking, undo, who won --------------------------------------------------


def test_undo_against_the_computer_takes_back_both_turns(tmp_path: Path) -> None:
    db = tmp_path / "undo.db"
    argv = ["minefield", "--size", "5", "--vs", "ai", "--level", "1", "--seed", "3"]
    code, text = run([*argv, "--db", str(db)], ["c3", "undo", "quit"])
    assert code == 1
    lines = text.splitlines()
    assert "undo (take back your last turn and the computer's reply)" in text
    (reply,) = [line.rsplit(" ", 1)[1] for line in lines if "(computer) chooses" in line]
    assert f"took back c3 {reply}" in lines
    after = lines[lines.index(f"took back c3 {reply}") :]
    # the human is asked again at once: the computer does not move between the undo and quit
    assert not any("chooses" in line for line in after)
    assert "black (player 1) to move> quit" in after
    (info,) = stored_games(db)
    assert info.moves == () and info.to_move_id == console.PLAYER_ONE


def test_undo_with_only_the_computers_opening_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "first.db"
    argv = ["minefield", "--size", "5", "--vs", "ai", "--level", "1", "--ai-first", "--seed", "1"]
    code, text = run([*argv, "--db", str(db)], ["undo", "quit"])
    assert code == 1
    assert "nothing of yours to undo yet: the computer's opening turn stays" in text
    (info,) = stored_games(db)
    assert len(info.moves) == 1 and info.to_move_id == console.PLAYER_TWO


def test_the_human_and_the_computer_winning_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(console.OPPONENTS, "quitter", lambda args: lambda game: "resign")
    code, text = run(["minefield", "--size", "4", "--vs", "quitter"], ["b2"])
    assert code == 0 and text.splitlines()[-1] == "black wins. You win!"
    code, text = run(["minefield", "--size", "4", "--vs", "quitter"], ["resign"])
    assert code == 0 and text.splitlines()[-1] == "white wins. The computer wins."


def slow_first_move(args: object) -> console.MoveProvider:
    def choose(game: Game) -> str:
        time.sleep(1.3)
        return game.legal_moves()[0]

    return choose


@pytest.mark.slow
def test_thinking_counts_seconds_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(console.OPPONENTS, "slow", slow_first_move)
    code, text = run(["minefield", "--size", "4", "--vs", "slow"], ["b2", "quit"], Terminal())
    assert code == 1
    assert "\rwhite (slow) is thinking… 1s" in text
    assert "\r\x1b[Kwhite (slow) thought for 1." in text
    assert "white (slow) chooses" in text


def test_thinking_is_said_once_in_a_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(console.OPPONENTS, "first", lambda args: lambda g: g.legal_moves()[0])
    code, text = run(["minefield", "--size", "4", "--vs", "first"], ["b2", "quit"])
    assert code == 1
    lines = text.splitlines()
    index = lines.index("white (first) is thinking…")
    assert lines[index + 1].startswith("white (first) chooses ")
    assert "\r" not in text


# ----- --db resumes, --new starts another -------------------------------------------------------


def test_db_resumes_the_unfinished_game_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "resume.db"
    argv = ["minefield", "--size", "5", "--db", str(db)]
    code, text = run(argv, ["e5"])
    assert code == 1 and "Resuming" not in text
    code, text = run(argv, ["d4", "quit"])
    assert code == 1
    assert text.splitlines()[0] == (
        f"Resuming the unfinished Minefield game in {db} at turn 2 (add --new to start another)."
    )
    assert "white (player 2) to move> d4" in text  # black's e5 was kept
    (info,) = stored_games(db)
    assert info.moves == ("e5", "d4") and info.is_active


def test_new_starts_another_game_and_keeps_the_old_one(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    argv = ["minefield", "--size", "5", "--db", str(db)]
    run(argv, ["e5"])
    code, text = run([*argv, "--new"], ["c3", "quit"])
    assert code == 1 and "Resuming" not in text
    old, new = stored_games(db)
    assert old.moves == ("e5",) and new.moves == ("c3",)
    assert old.is_active and new.is_active and old.channel_id != new.channel_id


def test_only_a_game_of_the_same_kind_is_resumed(tmp_path: Path) -> None:
    db = tmp_path / "kinds.db"
    run(["minefield", "--size", "5", "--db", str(db)], ["e5"])
    code, text = run(["clearcut", "--size", "5", "--db", str(db)], ["quit"])
    assert "Resuming" not in text
    code, text = run(["minefield", "--size", "7", "--db", str(db)], ["quit"])
    assert code == 1 and "Resuming" not in text
    assert [info.game for info in stored_games(db)] == ["minefield", "clearcut", "minefield"]


def test_a_game_against_the_computer_resumes_with_its_seat_and_level(tmp_path: Path) -> None:
    db = tmp_path / "ai.db"
    first = ["minefield", "--size", "5", "--vs", "ai", "--ai-first", "--level", "2"]
    run([*first, "--seed", "1", "--db", str(db)], [])
    (info,) = stored_games(db)
    assert info.options[console.COMPUTER_SEAT_OPTION] == "1"
    assert info.options[console.LEVEL_OPTION] == "2"
    assert len(info.moves) == 1
    # resumed without --ai-first: the computer keeps seat 1, and the human (seat 2) moves
    code, text = run(["minefield", "--size", "5", "--vs", "ai", "--db", str(db)], ["quit"])
    assert code == 1
    assert text.splitlines()[0].startswith("Resuming the unfinished Minefield game")
    assert "white (player 2) to move> quit" in text
    (info,) = stored_games(db)
    assert len(info.moves) == 1


def test_new_without_db_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        console.main(["minefield", "--new"], stdin=io.StringIO(""), stdout=io.StringIO())
    assert exit_info.value.code == 2
    assert "--new only applies with --db" in capsys.readouterr().err
