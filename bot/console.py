"""``crosspath play``: a local two-player game in the terminal, through the real service and store.

It is the way to try Crosspath without a Discord token, and it is scriptable: one move per line
on standard input, so ``printf 'e5\\nd4\\n' | crosspath play minefield`` works.  The last line
printed is ``<colour> wins`` or ``draw`` when the game ends.

Seats are users 1 and 2.  Each seat is driven by a :data:`MoveProvider`; ``None`` means a
human typing on standard input.  Another front end plugs in by registering a factory in
:data:`OPPONENTS`, without touching the game loop; ``--vs ai`` is the computer opponent, which
thinks in this process (a terminal has nothing else to keep responsive).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import ai
from rules import Game, game_class, game_names
from rules.errors import InvalidOptions, UnknownGame

from .service import (
    GameInfo,
    GameService,
    MoveEvent,
    NoTakeback,
    ServiceError,
)
from .store import open_store

CONSOLE_GUILD = 1  # ids are 1..2^63-1 (the service refuses 0)
PLAYER_ONE = 1
PLAYER_TWO = 2

MoveProvider = Callable[[Game], str]
"""Picks a move (a point name or ``swap``) for the player to move in a copy of the position."""

OpponentFactory = Callable[[argparse.Namespace], MoveProvider]


def computer_opponent(args: argparse.Namespace) -> MoveProvider:
    """``--vs ai``: the MCTS player at ``--level`` (default: ai's default), seeded by ``--seed``."""
    return ai.AIPlayer(getattr(args, "level", None), getattr(args, "seed", None)).choose


OPPONENTS: dict[str, OpponentFactory | None] = {"human": None, "ai": computer_opponent}
"""``--vs`` choices: name -> factory building the provider for the computer's seat (None: a
human)."""

COMPUTER_LABEL = "computer"

HELP = (
    "type a point such as c3, or: swap (Clear Path, second player's first turn), "
    "undo (take back the last turn), resign, moves (list legal moves), help, quit"
)


def text_board(game: Game, show_illegal: bool = True) -> str:
    """The position as text: X for the first colour, O for the second, + for illegal points."""
    size = game.size
    cells = game.cells()
    first, second = game.players
    illegal = set(game.illegal_points()) if show_illegal else set()
    names = game.grid.names
    last = {r.point for r in game.last_turn()}
    width = len(str(size))
    letters = " ".join(names[c][0] for c in range(size))
    lines = [" " * (width + 1) + letters]
    for row in range(size - 1, -1, -1):
        marks = []
        for col in range(size):
            index = row * size + col
            owner = cells[index]
            if owner == first:
                mark = "X"
            elif owner == second:
                mark = "O"
            else:
                mark = "+" if names[index] in illegal else "."
            if names[index] in last and owner is not None:
                mark = mark.lower()
            marks.append(mark)
        lines.append(f"{row + 1:>{width}} " + " ".join(marks) + f" {row + 1}")
    lines.append(lines[0])
    lines.append(
        f"X = {first} (joins top and bottom), O = {second} (joins left and right)"
        + (", + = illegal for the player to move" if illegal else "")
        + (", lower case = last turn" if last - {None} else "")
    )
    return "\n".join(lines)


def describe_event(event: MoveEvent) -> list[str]:
    if event.swap:
        lines = [f"{event.colour} swaps: they now play the first colour"]
    else:
        lines = [f"{event.colour} plays {event.move}"]
    if event.flipped:
        lines.append(f"  flipped: {' '.join(event.flipped)}")
    if event.removed:
        lines.append(f"  removed: {' '.join(event.removed)}")
    if not event.stays:
        lines.append("  the stone is removed (perimeter)")
    if event.continues:
        lines.append(f"  {event.colour} places again (chain reaction)")
    if event.skipped_colour is not None:
        lines.append(f"  {event.skipped_colour} has no legal move: turn skipped")
    return lines


@dataclass
class Console:
    """One local game: the loop that reads moves, calls the service and prints what happened."""

    service: GameService
    out: TextIO
    inp: TextIO
    images: Path | None = None
    providers: dict[int, MoveProvider | None] = field(default_factory=dict)
    labels: dict[int, str] = field(
        default_factory=lambda: {PLAYER_ONE: "player 1", PLAYER_TWO: "player 2"}
    )

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def start(self, game: str, size: int | None) -> GameInfo:
        """Start a new game in a fresh console channel (player 1 moves first)."""
        existing = await self.service.games_for_player(CONSOLE_GUILD, PLAYER_ONE, limit=10_000)
        channel = 1 + max((g.channel_id for g in existing), default=0)
        challenge = await self.service.create_challenge(
            CONSOLE_GUILD, channel, PLAYER_ONE, PLAYER_TWO, game, size, "me", "none"
        )
        started = await self.service.accept_challenge(challenge.id, PLAYER_TWO)
        return started.game

    def write_image(self, info: GameInfo, position: Game) -> None:
        if self.images is None:
            return
        from render import render_board  # lazy: Pillow is only needed for --images

        names = {
            seat.colour: self.labels.get(seat.user_id, str(seat.user_id)) for seat in info.seats
        }
        png = render_board(position, names=names, show_illegal=not position.is_over)
        self.images.mkdir(parents=True, exist_ok=True)
        (self.images / f"turn-{len(info.moves):03d}.png").write_bytes(png)

    async def show(self, info: GameInfo) -> Game:
        position = await self.service.position(info.id)
        self.say(text_board(position, show_illegal=info.is_active))
        self.write_image(info, position)
        return position

    async def run(self, info: GameInfo) -> int:
        """Play until the game ends (0) or input runs out (1)."""
        self.say(f"{info.title} {info.size}×{info.size}, a game by Mark Steere.  {HELP}")
        channel = info.channel_id
        position = await self.show(info)
        while info.is_active:
            user = info.to_move_id
            assert user is not None and info.to_move_colour is not None
            provider = self.providers.get(user)
            label = self.labels.get(user, str(user))
            computer = provider is not None
            if provider is not None:
                line = provider(position.copy())
                self.say(f"{info.to_move_colour} ({label}) chooses {line}")
            else:
                self.out.write(f"{info.to_move_colour} ({label}) to move> ")
                self.out.flush()
                raw = self.inp.readline()
                if not raw:
                    self.say("")
                    self.say("input ended before the game did")
                    return 1
                line = raw.strip()
                if not self.inp.isatty():
                    self.say(line)  # echo scripted input so transcripts read naturally
            command = line.lower()
            if not command:
                continue
            try:
                if command in ("help", "?"):
                    self.say(HELP)
                    continue
                if command == "moves":
                    self.say(" ".join(position.legal_moves()))
                    continue
                if command in ("quit", "exit"):
                    self.say("stopped: the game is not over")
                    return 1
                if command == "resign":
                    ended = await self.service.resign(channel, user, game_id=info.id)
                    self.say(f"{info.to_move_colour} resigns")
                    info = ended.game
                elif command == "undo":
                    info = await self.undo(info)
                else:
                    result = await self.service.play_move(channel, user, line, game_id=info.id)
                    for event in result.events:
                        for text in describe_event(event):
                            self.say(text)
                    info = result.game
            except (ServiceError, ValueError) as exc:
                self.say(str(exc))
                if computer:
                    # asking again would get the same answer: stop instead of looping
                    self.say(f"stopped: {label} chose a move the game refused")
                    return 1
                continue
            position = await self.show(info)
        self.say(final_line(info))
        return 0

    async def undo(self, info: GameInfo) -> GameInfo:
        """Take back the last turn: its player asks, the other seat agrees (both are local)."""
        record = await self.service.game_record(info.id)
        if not record.moves:
            raise NoTakeback("nothing to undo yet")
        mover = record.moves[-1].user_id
        await self.service.request_takeback(info.channel_id, mover)
        answer = await self.service.answer_takeback(info.channel_id, info.opponent_of(mover), True)
        self.say("took back " + " ".join(e.move for e in answer.undone))
        return answer.game


def final_line(info: GameInfo) -> str:
    result = info.result
    if result is None or result.winner_colour is None:
        return "draw"
    return f"{result.winner_colour} wins"


def level_argument(text: str) -> ai.Level:
    """argparse type for ``--level``: a number or a name, with the list of levels on error."""
    try:
        return ai.parse_level(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def level_choices() -> str:
    return ", ".join(level.label for level in ai.LEVELS.values())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crosspath play",
        description="Play a local two-player game; one move per line on standard input.",
    )
    p.add_argument("game", help=f"one of: {', '.join(sorted(game_names()))}")
    p.add_argument("--size", type=int, default=None, help="board size (default: the game's)")
    p.add_argument(
        "--db", default=None, help="SQLite file to keep the game in (default: temporary)"
    )
    p.add_argument("--images", default=None, help="write a board PNG per turn into this folder")
    p.add_argument(
        "--vs",
        default="human",
        choices=sorted(OPPONENTS),
        help="who plays the other seat: human (another human at the same keyboard, the "
        "default) or ai (the computer)",
    )
    p.add_argument(
        "--level",
        type=level_argument,
        default=None,
        help=f"with --vs ai: the computer's strength, a number or name: {level_choices()} "
        f"(default: {ai.LEVELS[ai.DEFAULT_LEVEL].label})",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="with --vs ai: make the computer's play repeatable"
    )
    p.add_argument(
        "--ai-first",
        action="store_true",
        help="with --vs ai: the computer takes seat 1 and moves first (default: seat 2)",
    )
    return p


async def play(
    args: argparse.Namespace,
    inp: TextIO,
    out: TextIO,
    providers: dict[int, MoveProvider | None],
    labels: dict[int, str] | None = None,
) -> int:
    with tempfile.TemporaryDirectory(prefix="crosspath-") as scratch:
        db = Path(args.db) if args.db else Path(scratch) / "console.sqlite3"
        async with await open_store(db) as store:
            console = Console(
                GameService(store),
                out=out,
                inp=inp,
                images=Path(args.images) if args.images else None,
                providers=providers,
            )
            if labels:
                console.labels.update(labels)
            info = await console.start(args.game, args.size)
            return await console.run(info)


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    err = sys.stderr
    if args.vs != "ai":
        for given, flag in (
            (args.level, "--level"),
            (args.seed, "--seed"),
            (args.ai_first, "--ai-first"),
        ):
            if given not in (None, False):
                p.error(f"{flag} only applies to a game against the computer (--vs ai)")
    try:
        cls = game_class(args.game)
        cls(args.size)
    except (UnknownGame, InvalidOptions) as exc:
        print(f"crosspath play: {exc}", file=err)
        return 2
    factory = OPPONENTS[args.vs]
    providers: dict[int, MoveProvider | None] = {PLAYER_ONE: None, PLAYER_TWO: None}
    labels: dict[int, str] = {}
    if factory is not None:
        seat = PLAYER_ONE if getattr(args, "ai_first", False) else PLAYER_TWO
        providers[seat] = factory(args)
        labels[seat] = COMPUTER_LABEL if args.vs == "ai" else args.vs
    return asyncio.run(play(args, stdin or sys.stdin, stdout or sys.stdout, providers, labels))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
