"""The README's promises to a newcomer: the quick-start run line, and the bot's permissions
as docs/operations.md lists them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import discord
from cli_runner import REPO, crosspath

README = (REPO / "README.md").read_text(encoding="utf-8")
OPERATIONS = (REPO / "docs" / "operations.md").read_text(encoding="utf-8")


def run_line() -> str:
    lines = README.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# set up and run the bot"))
    return next(line for line in lines[start:] if not line.startswith("#"))


def test_the_run_line_stops_on_the_first_run_saying_where_the_token_goes(tmp_path: Path) -> None:
    """The run line after setting up (the venv and pip steps are CI's own) in a fresh clone:
    it makes .env from .env.example, and ``crosspath run`` asks for the token in it."""
    shutil.copy(REPO / ".env.example", tmp_path / ".env.example")
    line = run_line()
    assert line.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && ")
    after_setup = line.split("pip install -e . && ", 1)[1]
    assert after_setup.endswith("crosspath run")
    shell = after_setup.removesuffix("crosspath run") + "true"
    subprocess.run(["bash", "-euo", "pipefail", "-c", shell], cwd=tmp_path, check=True)
    assert (tmp_path / ".env").read_text() == (tmp_path / ".env.example").read_text()
    proc = crosspath(tmp_path, "run")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "crosspath run: DISCORD_TOKEN is empty: put your bot's token (Discord developer "
        "portal, Bot tab) after DISCORD_TOKEN= in .env, then run this again (see "
        "docs/operations.md)."
    )
    # run again with the token filled in: .env is kept as it is
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\n")
    subprocess.run(["bash", "-euo", "pipefail", "-c", shell], cwd=tmp_path, check=True)
    assert (tmp_path / ".env").read_text() == "DISCORD_TOKEN=x\n"


DOC_NAMES = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def test_the_readme_and_operations_ask_for_the_same_permissions() -> None:
    (integer,) = set(re.findall(r"permissions=(\d+)", OPERATIONS))
    assert discord.Permissions(int(integer)) == discord.Permissions(
        **dict.fromkeys(DOC_NAMES, True)
    )
    readme = " ".join(README.split())
    operations = " ".join(OPERATIONS.split())
    for name in DOC_NAMES.values():
        assert name in readme, name
        assert name in operations, name
    assert integer in readme
