"""One ``crosspath run`` per SQLite database (``bot.store.run_lock``).

Two bot processes over one SQLite file would both answer every interaction and both run every
clock; the second is stopped before it opens the store or logs in, with one sentence naming the
first.  The lock is the kernel's, so a killed holder leaves nothing stale behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import crosspath

from bot.store import DatabaseInUse, one_bot_process
from bot.store.run_lock import lock_path

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_second_crosspath_run_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "crosspath.db"
    with one_bot_process(database):
        proc = crosspath(
            tmp_path,
            "run",
            env={
                "DISCORD_TOKEN": "not-a-real-token",
                "CROSSPATH_DATABASE": str(database),
                "CROSSPATH_LOG_FORMAT": "text",  # the sentence itself, not its JSON
            },
        )
    assert proc.returncode == 5, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert line.startswith("crosspath run: another crosspath run (process ")
    assert f"process {os.getpid()})" in line
    assert "serves one bot process" in line and "PostgreSQL" in line
    assert not database.exists(), "the refused run opened (and created) the database"


def test_the_lock_is_exclusive_and_released_when_the_holder_is_done(tmp_path: Path) -> None:
    database = tmp_path / "game.db"
    with one_bot_process(database):
        assert lock_path(database).read_text().strip() == str(os.getpid())
        with (
            pytest.raises(DatabaseInUse, match="serves one bot process"),
            one_bot_process(database),
        ):
            pass  # a second holder in the same process is refused too
    with one_bot_process(database):  # released: taken again at once
        pass


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "game.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from bot.store import one_bot_process\n"
            "with one_bot_process(Path(sys.argv[1])):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(120)\n",
            str(database),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(DatabaseInUse, match=f"process {holder.pid}"), one_bot_process(database):
            pass
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
        started = time.monotonic()
        with one_bot_process(database):  # the kernel dropped the dead process's lock
            assert time.monotonic() - started < 5
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(30)
