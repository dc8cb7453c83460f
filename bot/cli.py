"""The ``crosspath`` command: one entry point, each subcommand owned by its own module.

Subcommands are imported lazily so ``crosspath render`` never loads discord.py and
``crosspath play`` works without a token.
"""

from __future__ import annotations

import importlib
import os
import sys

# subcommand -> (module, one-line help).  Each module exposes ``main(argv: list[str]) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.discord.runner", "start the Discord bot (reads DISCORD_TOKEN)"),
    "sync": ("bot.discord.sync", "sync slash commands to Discord, globally or to one guild"),
    "commands": ("bot.discord.payloads", "print the command payloads a sync would send"),
    "play": ("bot.console", "play a local game in the terminal, no Discord needed"),
    "render": ("render.cli", "draw a board image (and GIF replay) from a game record"),
    "db": ("bot.store.cli", "database maintenance: crosspath db backup PATH | copy SRC DST"),
}


def usage() -> str:
    lines = ["usage: crosspath <command> [options]", "", "commands:"]
    lines += [f"  {name:<10} {text}" for name, (_, text) in SUBCOMMANDS.items()]
    lines.append("\nrun 'crosspath <command> --help' for a command's options")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    entry = SUBCOMMANDS.get(args[0])
    if entry is None:
        print(f"crosspath: unknown command '{args[0]}'\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(entry[0])
    try:
        result: int = module.main(args[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``crosspath commands --json | head``): not an error worth a
        # traceback.  Point stdout at devnull so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return result


if __name__ == "__main__":
    raise SystemExit(main())
