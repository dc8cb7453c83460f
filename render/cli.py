"""``crosspath render``: draw any game record as a PNG (and optionally a GIF replay).

For outside tools and for people debugging a game::

    crosspath render --game minefield --size 9 --moves "e5 d4 c3" --out board.png
    crosspath render --record "minefield 9: e5 d4" --out board.png --gif replay.gif

A bad record exits with status 1 and a message naming the first bad move.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules import Game, InvalidOptions, InvalidRecord, UnknownGame, new_game
from rules.record import parse_record, replay

from . import alt_text, render_board, render_gif
from .themes import DEFAULT_THEME, THEMES


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crosspath render",
        description="Render a game record as a board image (PNG) and/or an animated replay (GIF).",
    )
    source = p.add_argument_group("the game (either --game/--size/--moves or --record)")
    source.add_argument("--game", help="game name, e.g. minefield, clearpath, crosscut")
    source.add_argument("--size", type=int, help="board size (default: the game's default)")
    source.add_argument("--moves", default="", help='moves in order, e.g. "e5 d4 c3"')
    source.add_argument("--record", help='a whole record, e.g. "minefield 9: e5 d4"')
    p.add_argument("--out", type=Path, help="where to write the PNG of the final position")
    p.add_argument("--gif", type=Path, help="where to write an animated replay")
    p.add_argument("--show-illegal", action="store_true", help="mark points illegal to play")
    p.add_argument("--theme", default=DEFAULT_THEME, choices=THEMES, help="colour theme")
    p.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="COLOUR=NAME",
        help="a player's display name for the caption, e.g. --name red=Alice (repeatable)",
    )
    return p


def _names(pairs: list[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for pair in pairs:
        colour, sep, name = pair.partition("=")
        if not sep or not colour.strip() or not name.strip():
            raise ValueError(f"--name takes COLOUR=NAME, like red=Alice, not '{pair}'")
        names[colour.strip().lower()] = name.strip()
    return names


def load_game(args: argparse.Namespace) -> Game:
    """The game the arguments describe, replayed; raises InvalidRecord naming the bad move."""
    if args.record is not None:
        if args.game is not None or args.moves:
            raise InvalidRecord("give either --record or --game/--moves, not both")
        return parse_record(args.record)
    if args.game is None:
        raise InvalidRecord("say which game: --game minefield --moves '...', or --record '...'")
    try:
        game = new_game(args.game, args.size)
    except (UnknownGame, InvalidOptions) as exc:
        raise InvalidRecord(str(exc)) from exc
    return replay(game, args.moves.replace(",", " ").split())


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.out is None and args.gif is None:
        parser.error("nothing to write: give --out board.png and/or --gif replay.gif")
    try:
        names = _names(args.name)
        game = load_game(args)
    except (InvalidRecord, ValueError) as exc:
        print(f"crosspath render: {exc}", file=sys.stderr)
        return 1
    try:
        if args.out is not None:
            data = render_board(game, names=names, show_illegal=args.show_illegal, theme=args.theme)
            args.out.write_bytes(data)
            print(f"wrote {args.out} ({len(data)} bytes)")
        if args.gif is not None:
            data = render_gif(game, names=names, theme=args.theme)
            args.gif.write_bytes(data)
            print(f"wrote {args.gif} ({len(data)} bytes)")
    except OSError as exc:
        print(f"crosspath render: cannot write: {exc}", file=sys.stderr)
        return 1
    print(alt_text(game, names))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
