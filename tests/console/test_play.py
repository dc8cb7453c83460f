"""The console as players use it: goals, undo against the computer, resuming, the board marks."""

from __future__ import annotations

import asyncio
import io
import re
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


COMPUTER_MOVE = re.compile(r"\(computer\) plays (\S+) \(thought for")


def run(argv: list[str], lines: list[str], out: io.StringIO | None = None) -> tuple[int, str]:
    out = out if out is not None else io.StringIO()
    stdin = io.StringIO("".join(f"{x}\n" for x in lines))
    code = console.main(argv, stdin=stdin, stdout=out)
    return code, out.getvalue()


def stored_games(db: Path) -> list[GameInfo]:
    async def read() -> list[GameInfo]:
        async with console.open_service(db) as service:
            return await service.games.games_for_player(console.CONSOLE_GUILD, console.PLAYER_ONE)

    return sorted(asyncio.run(read()), key=lambda info: info.id)


# ----- goals and special moves ------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_goal_and_special_moves_at_the_start_and_on_rules(game: str) -> None:
    size = game_class(game).min_size
    code, text = run([game, "--size", str(size)], ["rules", "help", "quit"])
    assert code == 1  # quit before the end
    goal = console.goal_line(game, size)
    special = f"Special rules: {game_class(game).special_rules}"
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
        assert "joins top and bottom" in goal
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
    (reply,) = [m.group(1) for line in lines if (m := COMPUTER_MOVE.search(line))]
    assert f"took back c3 {reply}" in lines
    after = lines[lines.index(f"took back c3 {reply}") :]
    # the human is asked again at once: the computer does not move between the undo and quit
    assert not any(COMPUTER_MOVE.search(line) for line in after)
    assert "black (you) to move> quit" in after
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
    # the counting line is cleared, and the move is said once, with the time it took
    assert re.search(r"\r\x1b\[Kwhite \(slow\) plays [a-d][1-4] \(thought for 1\.\ds\)\n", text)


def test_thinking_is_said_once_in_a_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(console.OPPONENTS, "first", lambda args: lambda g: g.legal_moves()[0])
    code, text = run(["minefield", "--size", "4", "--vs", "first"], ["b2", "quit"])
    assert code == 1
    lines = text.splitlines()
    (said,) = [line for line in lines if line.startswith("white (first) ")]
    assert re.fullmatch(r"white \(first\) plays [a-d][1-4] \(thought for \d+\.\ds\)", said)
    assert "thinking" not in text and "chooses" not in text and "\r" not in text
    assert "white plays" not in text  # one line for the computer's move, not three


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


def test_another_kind_of_game_lists_the_unfinished_one_instead_of_leaving_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kinds.db"
    run(["minefield", "--size", "5", "--db", str(db)], ["e5"])
    for other in (["clearcut", "--size", "5"], ["minefield", "--size", "7"], ["minefield"]):
        if other == ["minefield"]:  # the same kind, but now against the computer
            other = ["minefield", "--vs", "ai"]
        code, text = run([*other, "--db", str(db)], ["quit"])
        assert code == 2 and text == ""
        assert capsys.readouterr().err.splitlines() == [
            f"crosspath play: {db} holds an unfinished game; resume one with --game N, or "
            "start another with --new:",
            "  --game 1: Minefield 5×5, two players, turn 2",
        ]
    assert [info.game for info in stored_games(db)] == ["minefield"]


def test_several_unfinished_games_are_listed_and_one_is_picked_with_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "several.db"
    run(["minefield", "--size", "5", "--db", str(db)], ["e5"])
    run(["clearcut", "--size", "5", "--level", "2", "--db", str(db), "--new"], [])
    code, text = run(["minefield", "--size", "5", "--db", str(db)], ["quit"])
    assert code == 2 and text == ""
    listing = capsys.readouterr().err.splitlines()
    assert listing[0].endswith(
        "holds 2 unfinished games; resume one with --game N, or start another with --new:"
    )
    assert listing[1:] == [
        "  --game 1: Minefield 5×5, two players, turn 2",
        "  --game 2: Clearcut 5×5, against the computer (level 2), turn 1",
    ]
    # the game number alone resumes it, as it was set up: against the computer at level 2
    code, text = run(["--db", str(db), "--game", "2"], ["quit"])
    assert code == 1
    assert text.splitlines()[0].startswith("Resuming the unfinished Clearcut game")
    assert "(you) to move> quit" in text
    assert text.splitlines()[-1].endswith(f"resume it with --db {db} --game 2")
    code, text = run(["clearcut", "--db", str(db), "--game", "1"], ["quit"])
    assert code == 2
    assert capsys.readouterr().err.strip() == (
        "crosspath play: --game 1 is a Minefield game, not Clearcut"
    )
    code, text = run(["--db", str(db), "--game", "7"], ["quit"])
    assert code == 2
    assert capsys.readouterr().err.startswith(
        f"crosspath play: {db} holds no unfinished game number 7\n"
    )
    assert len(stored_games(db)) == 2


def test_quit_says_whether_the_game_is_kept(tmp_path: Path) -> None:
    code, text = run(["minefield", "--size", "5"], ["e5", "quit"])
    assert code == 1
    assert text.splitlines()[-1] == (
        "stopped: the game is not over, and it is discarded (it was in a temporary file); "
        "play with --db FILE to keep a game you can come back to"
    )
    db = tmp_path / "kept.db"
    code, text = run(["minefield", "--size", "5", "--db", str(db)], ["e5", "quit"])
    assert text.splitlines()[-1] == (
        f"stopped: the game is not over; it is kept in {db}, resume it with --db {db} --game 1"
    )


def test_a_computer_option_implies_vs_ai() -> None:
    code, text = run(["minefield", "--size", "4", "--level", "hard", "--seed", "1"], ["resign"])
    assert code == 0
    assert "You play black (X), the computer plays white (O)." in text
    assert text.splitlines()[-1] == "white wins. The computer wins."


def test_play_help_says_the_computer_can_play() -> None:
    text = console.parser().format_help()
    assert "local two-player game" not in text
    assert "against the computer" in text


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
    assert "white (you) to move> quit" in text
    (info,) = stored_games(db)
    assert len(info.moves) == 1


def test_new_without_db_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        console.main(["minefield", "--new"], stdin=io.StringIO(""), stdout=io.StringIO())
    assert exit_info.value.code == 2
    assert "--new only applies with --db" in capsys.readouterr().err


def test_a_swap_against_the_computer_says_which_colour_is_yours() -> None:
    argv = ["clearpath", "--size", "5", "--level", "1", "--seed", "1", "--ai-first"]
    code, text = run(argv, ["swap", "resign"])
    assert code == 0
    lines = text.splitlines()
    assert lines.index("You play blue (O), the computer plays red (X).") < lines.index(
        "blue (you) to move> swap"
    )
    after = lines[lines.index("blue swaps (pie rule): the players exchange colours") + 1]
    assert after == "You play red (X), the computer plays blue (O)."
    assert "red (you) to move> resign" in lines


def test_without_a_game_there_must_be_one_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "empty.db"
    run(["minefield", "--size", "4", "--db", str(db)], ["b2", "resign"])  # nothing unfinished
    code, text = run(["--db", str(db)], ["quit"])
    assert code == 2 and text == ""
    assert capsys.readouterr().err.startswith("crosspath play: say which game to play: one of ")
    missing = ["--db", str(tmp_path / "missing.db")]
    for argv, says in (
        ([], "say which game to play"),
        (missing, "say which game to play"),
        (["--game", "1"], "--game only applies"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            console.main(argv, stdin=io.StringIO(""), stdout=io.StringIO())
        assert exit_info.value.code == 2
        assert says in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()
