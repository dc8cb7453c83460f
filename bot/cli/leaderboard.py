"""``crosspath leaderboard``: see :mod:`bot.cli.ratings` (one module per subcommand entry)."""

from __future__ import annotations

from .ratings import leaderboard_main


def main(argv: list[str]) -> int:
    return leaderboard_main(argv)
