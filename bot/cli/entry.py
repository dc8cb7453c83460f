"""The ``crosspath`` command: one entry point, each subcommand owned by its own module.

The maintenance and read-only subcommands live beside this module in ``bot.cli`` (``db``,
``ratings``, ``leaderboard``, ``tournament``, ``web``).  Those whose work is a feature's own
keep their entry with it: ``run``, ``sync`` and ``commands`` in the Discord adapter, ``play`` in
the console, and ``render`` in ``render`` (which must never import ``bot``).

Subcommands are imported lazily so ``crosspath render`` never loads discord.py and
``crosspath play`` works without a token.

Whatever goes wrong, the command ends with one sentence on standard error and a non-zero
status, never a traceback: each subcommand reports what it knows about, and :func:`main` turns
what is left (a store that refuses its file, an operating-system error, a bug) into one line.
Everything written to standard error passes through :class:`ClippedStream`, so no message
echoes more than about :data:`QUOTE_LIMIT` characters of what the user typed.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import TextIO

# subcommand -> (module, one-line help).  Each module exposes ``main(argv: list[str]) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.discord.runner", "start the Discord bot (reads DISCORD_TOKEN)"),
    "sync": ("bot.discord.sync", "sync slash commands to Discord, globally or to one guild"),
    "commands": ("bot.discord.payloads", "print the command payloads a sync would send"),
    "play": ("bot.console", "play a local game in the terminal, no Discord needed"),
    "render": ("render.cli", "draw a board image (and GIF replay) from a game record"),
    "db": ("bot.cli.db", "database maintenance: crosspath db backup PATH | copy SRC DST"),
    "ratings": ("bot.cli.ratings", "ratings maintenance: crosspath ratings rebuild [--check]"),
    "leaderboard": ("bot.cli.leaderboard", "print a server's leaderboard for one game"),
    "tournament": ("bot.cli.tournament", "list a server's tournaments, show one, its standings"),
    "analyse": ("bot.cli.analyse", "the computer's analysis of a finished game, with a chart"),
    "puzzle": ("bot.cli.puzzle", "solve a puzzle from a real game in the terminal"),
    "web": ("bot.cli.web", "serve the public game pages, with /healthz, /readyz and /metrics"),
}

EXIT_USAGE = 2
EXIT_BUG = 70  # EX_SOFTWARE: an error no subcommand foresaw
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
DEBUG_ENV = "CROSSPATH_DEBUG"  # set to 1 to see the traceback of an unforeseen error

QUOTE_LIMIT = 100
"""The most characters of one word (or one quoted value) a message repeats back."""

_QUOTED = re.compile(rf"'([^'\n]{{{QUOTE_LIMIT + 1},}})'")
_WORD = re.compile(rf"\S{{{QUOTE_LIMIT + 1},}}")


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` if it is short, else its start, an ellipsis and how long it really was.

    The result is never longer than ``limit``, so clipping twice changes nothing.

    >>> clip("c3")
    'c3'
    >>> clip("x" * 500, limit=30)
    'xxxxxxxxxxxx… (500 characters)'
    """
    if len(text) <= limit:
        return text
    tail = f"… ({len(text)} characters)"
    return text[: max(limit - len(tail), 1)] + tail


def clip_message(message: str) -> str:
    """Shorten every overlong quoted value and every overlong word in a message.

    >>> message = clip_message("invalid choice: '" + "z" * 300 + "' (choose from a, b)")
    >>> message.count("z"), message.endswith("… (300 characters)' (choose from a, b)")
    (82, True)
    """
    message = _QUOTED.sub(lambda m: f"'{clip(m.group(1))}'", message)
    return _WORD.sub(lambda m: clip(m.group(0)), message)


class ClippedStream:
    """A text stream that passes every write through :func:`clip_message` (for stderr)."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(clip_message(text))
        return len(text)

    def flush(self) -> None:
        self.inner.flush()

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


class WatchedStdout(ClippedStream):
    """Standard output that remembers a reader hanging up, even where the writer swallows the
    error: argparse's help ignores every OSError, so without this ``crosspath play --help |
    head -1`` would end 0 or 141 depending on buffering.  Nothing is clipped on this stream."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__(inner)
        self.hung_up = False

    def write(self, text: str) -> int:
        try:
            return self.inner.write(text)
        except BrokenPipeError:
            self.hung_up = True
            raise

    def flush(self) -> None:
        try:
            self.inner.flush()
        except BrokenPipeError:
            self.hung_up = True
            raise


def usage() -> str:
    lines = ["usage: crosspath <command> [options]", "", "commands:"]
    width = max(map(len, SUBCOMMANDS)) + 2  # the longest name ("leaderboard") sets the column
    lines += [f"  {name:<{width}}{text}" for name, (_, text) in SUBCOMMANDS.items()]
    lines.append("\nrun 'crosspath <command> --help' for a command's options")
    lines.append("run 'crosspath --version' for the installed version")
    return "\n".join(lines)


def installed_version() -> str:
    try:
        return version("crosspath")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown (not installed)"


def describe(exc: BaseException) -> str:
    """One sentence for an error a subcommand let through."""
    from bot.store import StoreError  # lazy: keeps ``crosspath render`` light

    if isinstance(exc, StoreError):
        return str(exc)
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        reason = exc.strerror or str(exc)
        return f"{where}{reason[:1].lower()}{reason[1:]}"
    return (
        f"unexpected error ({type(exc).__name__}: {exc}). This is a bug in Crosspath; "
        f"run again with {DEBUG_ENV}=1 to see where it happened, and report it."
    )


def main(argv: list[str] | None = None) -> int:
    """The ``crosspath`` script (``argv`` None: the command line, with standard error clipped)."""
    if argv is None and not isinstance(sys.stderr, ClippedStream):
        sys.stderr = ClippedStream(sys.stderr)
    if argv is None and not isinstance(sys.stdout, WatchedStdout):
        sys.stdout = WatchedStdout(sys.stdout)
    args = sys.argv[1:] if argv is None else argv
    try:
        try:
            result = _dispatch(args)
        except SystemExit as exc:  # argparse's --help and usage errors end this way
            result = exit_status(exc)
        # Output waits in a buffer when it goes to a pipe: flush it here, where a reader that
        # hung up can still be answered quietly, not at interpreter exit.
        sys.stdout.flush()
        if isinstance(sys.stdout, WatchedStdout) and sys.stdout.hung_up:
            raise BrokenPipeError
    except BrokenPipeError:
        # The reader went away (``crosspath --help | head -1``): not an error worth a message.
        # Point stdout at devnull so the interpreter's final flush stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return result


def exit_status(exc: SystemExit) -> int:
    """The status ``exc`` would end the interpreter with (a message is printed, as Python would).

    >>> exit_status(SystemExit(2)), exit_status(SystemExit(None))
    (2, 0)
    """
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def _dispatch(args: list[str]) -> int:
    if not args:
        print(usage(), file=sys.stderr)
        return EXIT_USAGE
    if args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    if args[0] in ("-V", "--version"):
        print(f"crosspath {installed_version()}")
        return 0
    entry = SUBCOMMANDS.get(args[0])
    if entry is None:
        print(f"crosspath: unknown command '{clip(args[0])}'\n\n{usage()}", file=sys.stderr)
        return EXIT_USAGE
    command = args[0]
    try:
        module = importlib.import_module(entry[0])
        result: int = module.main(args[1:])
    except (BrokenPipeError, SystemExit):
        raise
    except KeyboardInterrupt:
        print(f"\ncrosspath {command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        from bot.store import StoreError

        foreseen = isinstance(exc, StoreError | OSError)
        print(f"crosspath {command}: {describe(exc)}", file=sys.stderr)
        return 1 if foreseen else EXIT_BUG
    return result


if __name__ == "__main__":
    raise SystemExit(main())
