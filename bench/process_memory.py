"""How much memory a bot process and its worker processes hold: the figures for sizing.

A child process stands in for ``crosspath run``: it imports everything the bot imports, opens
a SQLite store, builds the bot and its service (not connected to Discord: the guild cache of
a connected bot comes on top, and grows with the servers), then on cue starts the replay
process (one cold game replayed) and a computer search (level 5, Minefield 9×9).  This
script reads each process's resident memory (VmRSS, and the proportional PSS where the kernel
offers it) from /proc at three moments: idle, replay process up, computer thinking.

Run: python bench/process_memory.py     (Linux only: it reads /proc)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BOT = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path


    async def main(path: str) -> None:
        from ai.pool import ai_result
        from ai.search import Budget
        from bot.config import Settings
        from bot.discord.app import CrosspathBot
        from bot.service import GameService
        from bot.service.engines import replay_off_loop
        from bot.store import open_store
        from bot.web.metrics import Metrics, timed_store

        metrics = Metrics()
        store = timed_store(await open_store(Path(path)), metrics)
        bot = CrosspathBot(GameService(store), Settings(), metrics=metrics)
        await bot.install_commands()
        print("idle", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await replay_off_loop("nakeddiagonal", 13, [])
        print("replay", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        thinking = asyncio.ensure_future(
            ai_result("minefield 9: e5", level=5, budget=Budget(seconds=20))
        )
        await asyncio.sleep(6)
        print("thinking", flush=True)
        await thinking
        await store.close()


    if __name__ == "__main__":
        asyncio.run(main(sys.argv[1]))
    """
)


def memory(pid: int) -> tuple[float, float | None]:
    """(RSS, PSS) in MiB; PSS is None where smaps_rollup is missing."""
    rss = pss = None
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    rollup = Path(f"/proc/{pid}/smaps_rollup")
    if rollup.exists():
        for line in rollup.read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    assert rss is not None
    return rss, pss


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(child) for child in text]
    return found


def role(pid: int) -> str:
    command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    if "resource_tracker" in command:
        return "resource tracker"
    if "multiprocessing" in command:
        return "pool worker"
    return command[:40]


def report(moment: str, bot: int) -> None:
    rss, pss = memory(bot)
    print(f"{moment}: bot RSS {rss:.1f} MiB" + (f", PSS {pss:.1f}" if pss is not None else ""))
    for child in children(bot):
        rss, pss = memory(child)
        extra = f", PSS {pss:.1f}" if pss is not None else ""
        print(f"    {role(child)} (pid {child}): RSS {rss:.1f} MiB{extra}")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "memory_bot.py"
        script.write_text(BOT)
        bot = subprocess.Popen(
            [sys.executable, str(script), str(Path(folder) / "bench.sqlite3")],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        )
        assert bot.stdin is not None and bot.stdout is not None
        try:
            assert bot.stdout.readline().strip() == "idle"
            time.sleep(0.5)
            report("idle", bot.pid)
            bot.stdin.write("\n")
            bot.stdin.flush()
            assert bot.stdout.readline().strip() == "replay"
            report("replay process up", bot.pid)
            bot.stdin.write("\n")
            bot.stdin.flush()
            assert bot.stdout.readline().strip() == "thinking"
            report("computer thinking (6 s into a level-5 search)", bot.pid)
        finally:
            bot.kill()
            bot.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
