"""The ``crosspath`` entry point: help, unknown commands, and a reader that hangs up."""

from __future__ import annotations

import subprocess
import sys

from bot.cli import SUBCOMMANDS, main


def test_help_lists_every_subcommand(capsys) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert name in out


def test_help_lines_up_every_description(capsys) -> None:
    """One column for every description, however long the command's name ("leaderboard")."""
    assert main(["--help"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(rows) == len(SUBCOMMANDS)
    starts = {len(row) - len(row[2:].split(" ", 1)[1].lstrip()) for row in rows}
    assert len(starts) == 1, rows


def test_help_says_web_serves_the_game_pages(capsys) -> None:
    assert main(["--help"]) == 0
    (web,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  web ")]
    assert "game pages" in web and "database alone" not in web


def test_unknown_command_exits_2_with_usage(capsys) -> None:
    assert main(["frobnicate"]) == 2
    assert "unknown command 'frobnicate'" in capsys.readouterr().err


CHILD = """
import sys, types
import bot.cli as cli
big = types.ModuleType("big")
def _main(argv):
    sys.stdout.write("first line\\n")
    sys.stdout.flush()
    sys.stdin.readline()  # the parent hangs up before it lets us go on
    for _ in range(100):
        sys.stdout.write("more output\\n")
        sys.stdout.flush()
    return 0
big.main = _main
sys.modules["big"] = big
cli.SUBCOMMANDS["big"] = ("big", "writes after the reader has gone")
raise SystemExit(cli.main(["big"]))
"""


def test_a_closed_pipe_is_not_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline() == b"first line\n"
    proc.stdout.close()  # hang up, like `| head -n 1`
    proc.stdin.write(b"go\n")
    proc.stdin.close()
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert b"Traceback" not in err, err.decode()
    assert proc.returncode == 141


def test_the_command_line_lives_in_one_package() -> None:
    """Every maintenance subcommand is a module of ``bot.cli``; only the feature-owned ones
    (the Discord adapter's, the console's, the renderer's) keep their entry with the feature,
    and no ``*_cli.py`` or ``cli.py`` module is left elsewhere in ``bot``."""
    from pathlib import Path

    import bot

    owned = {"run", "sync", "commands", "play", "render"}
    for name, (module, _) in SUBCOMMANDS.items():
        if name not in owned:
            assert module == f"bot.cli.{name}" or module.startswith("bot.cli."), (name, module)
    root = Path(bot.__file__).parent
    strays = [
        p for p in root.rglob("*cli*.py") if p.parent != root / "cli" and p.name != "client.py"
    ]
    assert not strays, strays
