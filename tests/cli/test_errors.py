"""Every way a new user can misuse ``crosspath``, through the real entry point in a subprocess.

Each case asserts the exit status, what the one sentence on standard error says, and that no
traceback is printed.  The subprocess runs ``python -m bot.cli`` (what the installed script
calls) in an empty folder with no Crosspath settings in its environment.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from cli_runner import crosspath
from PIL import Image

from bot.config import Settings
from bot.console import open_service
from bot.discord.sync import target
from render.layout import board_layout

REPO = Path(__file__).resolve().parents[2]
LONG = "x" * 3000


def one_sentence(proc: subprocess.CompletedProcess[str]) -> str:
    """The single line of standard error."""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def make_database(path: Path) -> None:
    async def create() -> None:
        async with open_service(path):
            pass

    asyncio.run(create())


# ----- crosspath play ------------------------------------------------------------------------


def test_play_images_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "board.png").write_text("a file, not a folder")
    proc = crosspath(tmp_path, "play", "minefield", "--images", "board.png")
    assert proc.returncode == 2
    assert one_sentence(proc) == (
        "crosspath play: --images board.png is a file, not a folder: give a folder for the "
        "board images"
    )
    assert (tmp_path / "board.png").read_text() == "a file, not a folder"


def test_play_images_folder_that_cannot_be_created(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "play", "minefield", "--images", "/proc/nope/images")
    assert proc.returncode == 1
    assert one_sentence(proc).startswith(
        "crosspath play: cannot create the folder /proc/nope/images for --images: "
    )


def test_play_db_that_is_not_a_database(tmp_path: Path) -> None:
    """Refused by the store when it opens the file (lane-s: a StoreError naming the file)."""
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list: eggs, milk\n" * 50)
    before = notes.read_bytes()
    proc = crosspath(tmp_path, "play", "minefield", "--db", "notes.txt", stdin="e5\n")
    assert proc.returncode == 1
    line = one_sentence(proc)
    assert line.startswith("crosspath play: ") and "notes.txt" in line
    assert notes.read_bytes() == before


def test_play_db_in_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "play", "minefield", "--db", "/proc/nope/x.db")
    assert proc.returncode == 2
    assert one_sentence(proc) == (
        "crosspath play: cannot keep the game in /proc/nope/x.db: the folder /proc/nope "
        "does not exist"
    )


def test_play_db_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    proc = crosspath(tmp_path, "play", "minefield", "--db", "games")
    assert proc.returncode == 2
    assert one_sentence(proc) == (
        "crosspath play: --db games is a folder: give the path of a database file"
    )
    assert list((tmp_path / "games").iterdir()) == []


@pytest.mark.slow
def test_play_unknown_game_and_bad_size(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "play", "chess")
    assert proc.returncode == 2 and "unknown game 'chess'" in one_sentence(proc)
    proc = crosspath(tmp_path, "play", "crosscut", "--size", "19")
    assert proc.returncode == 2 and "5×5" in one_sentence(proc)


def test_an_overlong_input_line_is_echoed_once_and_cut(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "play", "minefield", "--size", "4", stdin=f"{LONG}\nresign\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.count("x" * 80) == 1  # echoed once, and cut
    assert "x" * 101 not in out
    assert "… (3000 characters)" in out
    assert "That line is 3000 characters long, too long to be a move" in out
    assert all(len(line) < 200 for line in out.splitlines() if "xxx" in line)
    assert out.splitlines()[-1] == "white wins"


@pytest.mark.parametrize(
    "args",
    [
        ["play", LONG],
        ["play", "minefield", "--size", LONG],
        ["play", "minefield", "--vs", "ai", "--level", LONG],
        ["render", "--game", "minefield", "--moves", f"e5 {LONG}", "--out", "b.png"],
        ["render", "--game", LONG, "--out", "b.png"],
        ["render", "--game", "minefield", "--out", "b.png", "--name", f"{LONG}=Bob"],
        [LONG],
    ],
    ids=["game", "size", "level", "moves", "render-game", "name", "command"],
)
def test_overlong_arguments_are_quoted_at_most_about_100_characters(
    tmp_path: Path, args: list[str]
) -> None:
    proc = crosspath(tmp_path, *args)
    assert proc.returncode in (1, 2)
    assert "x" * 101 not in proc.stderr
    assert "(3000 characters)" in proc.stderr or "x" * 90 in proc.stderr
    assert len(proc.stderr) < 1500, proc.stderr
    assert not (tmp_path / "b.png").exists()


# ----- crosspath db ------------------------------------------------------------------------


def test_db_backup_into_a_folder_is_refused(tmp_path: Path) -> None:
    make_database(tmp_path / "game.db")
    (tmp_path / "backups").mkdir()
    proc = crosspath(tmp_path, "db", "backup", "--db", "game.db", "backups", "--force")
    assert proc.returncode == 1
    assert one_sentence(proc) == (
        "crosspath db: backups is a folder; give the file to write, such as "
        "backups/crosspath-backup.sqlite3"
    )
    assert list((tmp_path / "backups").iterdir()) == []


def test_db_backup_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    make_database(tmp_path / "game.db")
    proc = crosspath(tmp_path, "db", "backup", "--db", "game.db", "nowhere/copy.db")
    assert proc.returncode == 1
    assert one_sentence(proc) == (
        "crosspath db: cannot write nowhere/copy.db: the folder nowhere does not exist"
    )


def test_db_backup_still_works(tmp_path: Path) -> None:
    make_database(tmp_path / "game.db")
    proc = crosspath(tmp_path, "db", "backup", "--db", "game.db", "copy.db")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("backed up game.db to copy.db")
    assert (tmp_path / "copy.db").read_bytes()[:16] == b"SQLite format 3\x00"


def test_db_without_a_subcommand(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "db")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert lines[0].startswith("usage: crosspath db")
    assert lines[-1] == "crosspath db: say what to do, e.g. crosspath db backup PATH"


# ----- crosspath run / sync ------------------------------------------------------------------


@pytest.mark.slow
def test_run_with_a_missing_env_file_says_the_file_is_missing(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "run", "--env-file", "missing.env")
    assert proc.returncode == 2
    line = one_sentence(proc)
    assert line == "crosspath run: the settings file missing.env does not exist"
    assert "DISCORD_TOKEN" not in line


@pytest.mark.slow
def test_run_with_an_env_file_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    proc = crosspath(tmp_path, "sync", "--env-file", "conf")
    assert proc.returncode == 2
    assert one_sentence(proc) == "crosspath sync: the settings file conf is not a file"


@pytest.mark.slow
def test_sync_guild_and_global_are_contradictory(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "sync", "--guild", "5", "--global", env={"DISCORD_TOKEN": "t"})
    assert proc.returncode == 2
    assert "argument --global: not allowed with argument --guild" in proc.stderr


@pytest.mark.parametrize(
    ("argv", "dev_guild", "guild", "says"),
    [
        ([], 42, 42, "syncing to server 42 (CROSSPATH_DEV_GUILD; --global syncs everywhere)"),
        (["--guild", "7"], 42, 7, "syncing to server 7 (--guild)"),
        (["--global"], 42, None, "syncing globally (--global)"),
    ],
)
def test_sync_says_what_it_syncs(
    argv: list[str], dev_guild: int | None, guild: int | None, says: str
) -> None:
    from bot.discord.sync import parse_args

    args: argparse.Namespace = parse_args(argv)
    chosen = target(args, Settings(token="t", dev_guild=dev_guild))
    assert chosen is not None
    where, sentence = chosen
    assert where == guild
    assert sentence.startswith(says)


def test_sync_without_a_server_or_global_asks_where(tmp_path: Path) -> None:
    """A global sync reaches every server and takes a while: it must be asked for."""
    proc = crosspath(tmp_path, "sync", env={"DISCORD_TOKEN": "t"})
    assert proc.returncode == 2
    assert one_sentence(proc) == (
        "crosspath sync: say where to sync: --guild ID for one server (instant; or set "
        "CROSSPATH_DEV_GUILD), or --global for every server (clients may take a while to see it)"
    )
    assert proc.stdout == ""


def test_plain_sync_says_what_it_syncs_before_it_goes_online(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In process (the network is faked at discord.py's HTTP client, here: offline)."""
    import aiohttp
    from discord.http import HTTPClient

    from bot.cli import main

    async def offline(self: object, route: object, **kwargs: object) -> object:
        raise aiohttp.ClientConnectionError("no network in this test")

    for name in list(os.environ):
        if name.startswith("CROSSPATH_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token-for-tests")
    monkeypatch.setattr(HTTPClient, "request", offline)
    assert main(["sync", "--global"]) == 4
    out, err = capsys.readouterr()
    assert out.startswith("syncing globally (--global)")
    assert err.startswith("crosspath sync: cannot reach Discord") and "Traceback" not in err
    monkeypatch.setenv("CROSSPATH_DEV_GUILD", "42")
    assert main(["sync"]) == 4
    assert capsys.readouterr().out.startswith("syncing to server 42 (CROSSPATH_DEV_GUILD")


# ----- crosspath itself -------------------------------------------------------------------------


def test_no_arguments_prints_usage_and_exits_2(tmp_path: Path) -> None:
    proc = crosspath(tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: crosspath <command> [options]")
    assert proc.stdout == ""


def test_version(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"crosspath {version('crosspath')}"


def test_unknown_command(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "frobnicate")
    assert proc.returncode == 2
    assert proc.stderr.startswith("crosspath: unknown command 'frobnicate'")


def _default_sigint() -> None:
    """In the child before exec: Ctrl-C as a terminal delivers it.  A shell's background job
    (``cmd &`` without job control, as a CI runner may start the tests) inherits SIGINT
    ignored, and the console rightly keeps an ignored SIGINT ignored, so without this the
    signal below would do nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_while_waiting_for_a_move_ends_quietly(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "minefield", "--size", "4", "--db", "g.db"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        preexec_fn=_default_sigint,
    )
    assert proc.stdout is not None and proc.stderr is not None
    seen = b""
    while b"to move> " not in seen:  # the console is waiting for the first move
        chunk = proc.stdout.read1(4096)  # type: ignore[attr-defined]
        assert chunk, seen
        seen += chunk
    proc.send_signal(signal.SIGINT)
    # Wait for the exit before communicate() closes stdin: had the signal been ignored, the
    # end of input would end the game as "input ended" (exit 1) and hide why.
    proc.wait(timeout=60)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out[-300:], err[-300:])
    assert err.decode().strip() == "crosspath play: interrupted"
    # the store was closed properly: the game is there to resume
    again = crosspath(tmp_path, "play", "minefield", "--size", "4", "--db", "g.db", stdin="quit\n")
    assert again.stdout.startswith("Resuming the unfinished Minefield game in g.db at turn 1")


BUGGY = """
import sys, types
import bot.cli as cli
buggy = types.ModuleType("buggy")
def _main(argv):
    raise RuntimeError("a bug")
buggy.main = _main
sys.modules["buggy"] = buggy
cli.SUBCOMMANDS["buggy"] = ("buggy", "always fails")
sys.argv = ["crosspath", "buggy"]
raise SystemExit(cli.main())
"""


def test_an_unforeseen_error_is_one_line_unless_debugging(tmp_path: Path) -> None:
    command = [sys.executable, "-c", BUGGY]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("CROSSPATH_DEBUG", None)
    proc = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 70
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        "crosspath buggy: unexpected error (RuntimeError: a bug). This is a bug in Crosspath; "
        "run again with CROSSPATH_DEBUG=1 to see where it happened, and report it."
    )
    env["CROSSPATH_DEBUG"] = "1"
    debug = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert debug.returncode == 1 and "Traceback" in debug.stderr


# ----- crosspath render ------------------------------------------------------------------------


def test_render_out_jpg_writes_a_jpeg(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "render", "--game", "minefield", "--moves", "e5", "--out", "b.jpg")
    assert proc.returncode == 0, proc.stderr
    with Image.open(tmp_path / "b.jpg") as image:
        assert image.format == "JPEG"
        assert image.size == (board_layout(9).width, board_layout(9).height)


@pytest.mark.parametrize(
    ("out", "says"),
    [
        (
            "b.bmp",
            "crosspath render: --out b.bmp: write a .png, .svg or .jpg image; '.bmp' is not one",
        ),
        ("board", "crosspath render: --out board: write a .png, .svg or .jpg image; it has no ext"),
    ],
)
def test_render_refuses_other_extensions(tmp_path: Path, out: str, says: str) -> None:
    proc = crosspath(tmp_path, "render", "--game", "minefield", "--out", out)
    assert proc.returncode == 2  # a usage error, as docs/rendering.md says
    assert one_sentence(proc).startswith(says)
    assert list(tmp_path.iterdir()) == []


def test_render_refuses_an_unknown_colour(tmp_path: Path) -> None:
    args = ["render", "--game", "minefield", "--out", "b.png", "--name", "purple=Bob"]
    proc = crosspath(tmp_path, *args)
    assert proc.returncode == 2
    assert one_sentence(proc) == (
        "crosspath render: --name purple: this game's colours are black and white"
    )
    assert not (tmp_path / "b.png").exists()


def test_render_into_a_missing_folder(tmp_path: Path) -> None:
    proc = crosspath(tmp_path, "render", "--game", "minefield", "--out", "nowhere/b.png")
    assert proc.returncode == 1
    assert one_sentence(proc).startswith("crosspath render: cannot write nowhere/b.png: ")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--out", "b.png"], "say which game: --game minefield"),
        (["--moves", "c3", "--out", "b.png"], "say which game: --game minefield"),
        (["--record", "minefield 5: c3", "--game", "minefield", "--out", "b.png"], "not both"),
    ],
)
def test_render_without_a_game_is_a_usage_error(tmp_path: Path, args: list[str], says: str) -> None:
    proc = crosspath(tmp_path, "render", *args)
    assert proc.returncode == 2
    assert says in proc.stderr and proc.stderr.startswith("usage: crosspath render")
    assert not (tmp_path / "b.png").exists()
