"""``crosspath render``: draw any game record as a PNG or SVG (and optionally a GIF replay).

For outside tools and for people debugging a game::

    crosspath render --game minefield --size 9 --moves "e5 d4 c3" --out board.png
    crosspath render --record "minefield 9: e5 d4" --out board.svg --gif replay.gif

A bad record exits with status 1 and a message naming the first bad move; a usage error (an
option this command cannot use) exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Literal

from rules import Game, InvalidOptions, InvalidRecord, UnknownGame, new_game
from rules.record import parse_record, replay

from . import alt_text, board_svg, render_board, render_gif
from .themes import DEFAULT_THEME, THEMES


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crosspath render",
        description="Render a game record as a board image (PNG or SVG) and/or an animated "
        "replay (GIF).",
    )
    source = p.add_argument_group("the game (either --game/--size/--moves or --record)")
    source.add_argument("--game", help="game name, e.g. minefield, clearpath, crosscut")
    source.add_argument("--size", type=int, help="board size (default: the game's default)")
    source.add_argument("--moves", default="", help='moves in order, e.g. "e5 d4 c3"')
    source.add_argument("--record", help='a whole record, e.g. "minefield 9: e5 d4"')
    p.add_argument("--out", type=Path, help="where to write the final position: .png, .svg or .jpg")
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


ImageFormat = Literal["png", "jpeg", "svg"]
IMAGE_FORMATS: dict[str, ImageFormat] = {
    ".png": "png",
    ".svg": "svg",
    ".jpg": "jpeg",
    ".jpeg": "jpeg",
}
QUOTE_LIMIT = 100  # the most characters of the user's input a message repeats


def _quote(text: str) -> str:
    """``text``, or its start and its length when it is longer than :data:`QUOTE_LIMIT`."""
    if len(text) <= QUOTE_LIMIT:
        return text
    tail = f"… ({len(text)} characters)"
    return text[: QUOTE_LIMIT - len(tail)] + tail


def image_format(path: Path) -> ImageFormat:
    """The format ``--out`` asks for by its extension; ValueError for one we do not write."""
    found = IMAGE_FORMATS.get(path.suffix.lower())
    if found is None:
        what = f"'{_quote(path.suffix)}' is not one" if path.suffix else "it has no extension"
        raise ValueError(f"--out {_quote(str(path))}: write a .png, .svg or .jpg image; {what}")
    return found


def _names(pairs: list[str], players: tuple[str, str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for pair in pairs:
        colour, sep, name = pair.partition("=")
        if not sep or not colour.strip() or not name.strip():
            raise ValueError(f"--name takes COLOUR=NAME, like red=Alice, not '{_quote(pair)}'")
        colour = colour.strip().lower()
        if colour not in players:
            raise ValueError(
                f"--name {_quote(colour)}: this game's colours are {players[0]} and {players[1]}"
            )
        names[colour] = name.strip()
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


EXIT_USAGE = 2


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.out is None and args.gif is None:
        parser.error("nothing to write: give --out board.png and/or --gif replay.gif")
    # Which game to draw is a usage question (status 2); a bad record is not (status 1).
    if args.record is None and args.game is None:
        parser.error("say which game: --game minefield --moves '...', or --record '...'")
    if args.record is not None and (args.game is not None or args.moves):
        parser.error("give either --record or --game/--moves, not both")
    # An option this command cannot use (a file type, a name for a colour the game lacks) is
    # a usage error like argparse's own (status 2); a record that breaks a rule is not (1).
    try:
        kind = None if args.out is None else image_format(args.out)
        if args.gif is not None and args.gif.suffix.lower() != ".gif":
            raise ValueError(f"--gif {_quote(str(args.gif))}: the replay is a GIF, name it .gif")
    except ValueError as exc:
        print(f"crosspath render: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        game = load_game(args)
    except (InvalidRecord, ValueError) as exc:
        print(f"crosspath render: {exc}", file=sys.stderr)
        return 1
    try:
        names = _names(args.name, game.players)
    except ValueError as exc:
        print(f"crosspath render: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.out is not None and kind is not None:
            illegal, theme = args.show_illegal, args.theme
            if kind == "svg":
                data = board_svg(game, names=names, show_illegal=illegal, theme=theme).encode()
            else:
                data = render_board(
                    game, names=names, show_illegal=illegal, theme=theme, image_format=kind
                )
            args.out.write_bytes(data)
            print(f"wrote {args.out} ({len(data)} bytes)")
        if args.gif is not None:
            data = render_gif(game, names=names, theme=args.theme)
            args.gif.write_bytes(data)
            print(f"wrote {args.gif} ({len(data)} bytes)")
    except BrokenPipeError:
        raise  # the reader of standard output hung up: the crosspath command ends quietly
    except OSError as exc:
        where = f"{_quote(str(exc.filename))}: " if exc.filename else ""
        print(f"crosspath render: cannot write {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    print(alt_text(game, names))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main(sys.argv[1:]))
