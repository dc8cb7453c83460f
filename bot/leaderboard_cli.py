"""``crosspath leaderboard``: see :mod:`bot.ratings_cli` (one module per subcommand entry)."""

from __future__ import annotations

from .ratings_cli import leaderboard_main


def main(argv: list[str]) -> int:
    return leaderboard_main(argv)
