"""The service owns its lifetime: leaving ``async with GameService(...)`` ends the replay process.

Why: the replay process is started on the first cold game and, before, nothing public stopped
it.  A ``multiprocessing`` child that had used the service never exited (its exit joined the
replay worker, which waited for work forever), and a script without an
``if __name__ == "__main__"`` guard ran itself again in the spawned worker.  Both are checked
with real processes: a script run by a fresh interpreter, bounded by a timeout.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_USE = """
import asyncio, sys
sys.path.insert(0, {root!r})
from bot.service import GameService, engines
from bot.store import open_store
from rules import new_game


async def use(path: str, log: str) -> None:
    with open(log, "a") as out:
        out.write("ran\\n")  # once per time the script body runs
    game = new_game("minefield", 5)
    moves = []
    for _ in range(6):
        move = game.legal_moves()[0]
        game.play(move)
        moves.append(move)
    store = await open_store(path)
    try:
        async with GameService(store) as service:
            replayed = await engines.replay_off_loop("minefield", 5, moves)
            assert replayed.record() == game.record()
            assert service.store is store
    finally:
        await store.close()
"""


def _run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=script.parent,
    )


def test_a_multiprocessing_child_that_used_the_service_exits(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(
        _USE.format(root=str(ROOT))
        + textwrap.dedent(
            """
            import multiprocessing


            def child(path: str, log: str) -> None:
                asyncio.run(use(path, log))


            if __name__ == "__main__":
                proc = multiprocessing.Process(target=child, args=(sys.argv[1], sys.argv[2]))
                proc.start()
                proc.join(60)
                if proc.is_alive():
                    proc.kill()
                    print("child still running")
                    sys.exit(3)
                sys.exit(proc.exitcode)
            """
        )
    )
    done = _run(script, str(tmp_path / "db.sqlite"), str(tmp_path / "log"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "log").read_text() == "ran\n"


def test_a_script_without_a_main_guard_runs_once_and_works(tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(
        _USE.format(root=str(ROOT)) + "\nasyncio.run(use(sys.argv[1], sys.argv[2]))\n"
    )
    log = tmp_path / "log"
    done = _run(script, str(tmp_path / "db.sqlite"), str(log))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert log.read_text() == "ran\n"  # the body ran once: no worker ran the script again
