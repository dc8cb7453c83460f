"""``crosspath play``: a local two-player game in the terminal, through the real service and store.

It is the way to try Crosspath without a Discord token, and it is scriptable: one move per line
on standard input, so ``printf 'e5\\nd4\\n' | crosspath play minefield`` works.  The last line
printed starts with ``<colour> wins`` (against the computer followed by "You win!" or "The
computer wins.") or is ``draw`` when the game ends.

With ``--db FILE`` the game lives in that file, and an unfinished game of the same kind in it
is resumed (``--new`` starts another instead), with the computer's seat and level as stored.

Seats are users 1 and 2.  Each seat is driven by a :data:`MoveProvider`; ``None`` means a
human typing on standard input.  Another front end plugs in by registering a factory in
:data:`OPPONENTS`, without touching the game loop; ``--vs ai`` is the computer opponent, which
thinks in a thread of this process while the loop counts the seconds on the "thinking…" line.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TextIO

import ai
from rules import Game, game_class, game_names
from rules.errors import InvalidOptions, UnknownGame

from .cli import clip
from .config import shown_database
from .service import (
    GameInfo,
    GameService,
    MoveEvent,
    NoTakeback,
    ServiceError,
)
from .store import StoreError, is_postgres, open_store

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

# Options stored with each console game, so ``--db`` can resume it as it was set up.
OPPONENT_OPTION = "console_vs"
COMPUTER_SEAT_OPTION = "console_computer_seat"
LEVEL_OPTION = "ai_level"  # the same option the Discord adapter stores for its computer games

INPUT_LIMIT = 100
"""Longest line the console treats as a move; longer lines are refused, echoed once, cut."""

THINKING_TICK = 1.0
"""Seconds between updates of the "thinking…" line on a terminal."""


def goal_line(game: str, size: int) -> str:
    """The game's aim in one line, as the rules engine states it for this board.

    >>> goal_line("crosscut", 8)
    'Goal: a straight run of 6 of your discs in one row or column (N−2 on this 8×8 board).'
    """
    return f"Goal: {game_class(game).goal(size)}."


def commands_line(game: str, vs_computer: bool = False) -> str:
    """What can be typed; ``swap`` only where the pie rule exists (Clear Path)."""
    swap = "swap (second player's first turn), " if game == "clearpath" else ""
    undo = (
        "undo (take back your last turn and the computer's reply)"
        if vs_computer
        else "undo (take back the last turn)"
    )
    return (
        f"Type a point such as c3, or: {swap}{undo}, resign, moves (list legal moves), rules, quit."
    )


def rules_lines(game: str, size: int, vs_computer: bool = False) -> list[str]:
    """The ``rules``/``help`` answer: goal, special moves, commands."""
    return [
        goal_line(game, size),
        f"Special rules: {game_class(game).special_rules}",
        commands_line(game, vs_computer),
    ]


def _legend(game: Game, marks: set[str], mover: str | None, winner: str | None) -> str:
    first, second = game.players
    if game.name == "crosscut":
        parts = [f"X = {first}, O = {second}: a run of {game.size - 2} in a row or column wins"]
    else:
        parts = [f"X = {first} (joins top and bottom), O = {second} (joins left and right)"]
    explained = {
        "+": "+ = illegal for the player to move",
        "#": f"# = {winner}'s winning {'run' if game.name == 'crosscut' else 'path'}",
        "x": "lower case = placed last turn",
        "*": f"* = flipped to {mover} last turn",
        "-": "- = removed last turn",
    }
    parts += [text for mark, text in explained.items() if mark in marks]
    return ", ".join(parts)


def text_board(game: Game, show_illegal: bool = True) -> str:
    """The position as text.

    X is the first colour and O the second; ``+`` marks points illegal for the player to move,
    ``#`` the winner's path (Crosscut: the winning run), lower case the last turn's
    placements, ``*`` the discs that turn flipped and ``-`` the points it emptied.
    """
    size = game.size
    cells = game.cells()
    first = game.players[0]
    illegal = set(game.illegal_points()) if show_illegal else set()
    names = game.grid.names
    turn = game.last_turn()
    placed = {r.point for r in turn if r.point is not None and r.stays}
    flipped = {p for r in turn for p in r.flipped}
    removed = {p for r in turn for p in r.removed} | {
        r.point for r in turn if r.point is not None and not r.stays
    }
    path = set(game.winning_path)
    mover = turn[-1].player if turn else None
    used: set[str] = set()
    width = len(str(size))
    letters = " ".join(names[c][0] for c in range(size))
    lines = [" " * (width + 1) + letters]
    for row in range(size - 1, -1, -1):
        marks = []
        for col in range(size):
            index = row * size + col
            name = names[index]
            owner = cells[index]
            if owner is None:
                mark = "-" if name in removed else "+" if name in illegal else "."
            elif name in path:
                mark = "#"
            elif name in placed:
                mark = ("X" if owner == first else "O").lower()
                used.add("x")
            elif name in flipped:
                mark = "*"
            else:
                mark = "X" if owner == first else "O"
            used.add(mark)
            marks.append(mark)
        lines.append(f"{row + 1:>{width}} " + " ".join(marks) + f" {row + 1}")
    lines.append(lines[0])
    lines.append(_legend(game, used, mover, game.winner))
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

    @property
    def computer_seats(self) -> set[int]:
        return {user for user, provider in self.providers.items() if provider is not None}

    async def start(
        self, game: str, size: int | None, options: dict[str, str] | None = None
    ) -> GameInfo:
        """Start a new game in a fresh console channel (player 1 moves first)."""
        existing = await self.service.games_for_player(CONSOLE_GUILD, PLAYER_ONE, limit=10_000)
        channel = 1 + max((g.channel_id for g in existing), default=0)
        challenge = await self.service.create_challenge(
            CONSOLE_GUILD,
            channel,
            PLAYER_ONE,
            PLAYER_TWO,
            game,
            size,
            "me",
            "none",
            options=options or {},
        )
        started = await self.service.accept_challenge(challenge.id, PLAYER_TWO)
        return started.game

    async def unfinished(self, game: str, size: int | None, vs: str) -> GameInfo | None:
        """The latest unfinished console game of this kind (and size, if given), if any."""
        active = await self.service.games_for_player(
            CONSOLE_GUILD, PLAYER_ONE, active_only=True, limit=10_000
        )
        for info in active:  # most recently updated first
            same_size = size is None or info.size == size
            if info.game == game and same_size and info.options.get(OPPONENT_OPTION, "human") == vs:
                return info
        return None

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

    async def think(self, provider: MoveProvider, position: Game, who: str) -> str:
        """Let the computer choose off the event loop, saying it is thinking meanwhile.

        On a terminal the line counts the seconds; in a transcript it is printed once.
        """
        started = time.monotonic()
        tty = self.out.isatty()
        self.out.write(f"{who} is thinking…")
        self.out.flush()
        task = asyncio.ensure_future(asyncio.to_thread(provider, position))
        while tty and not task.done():
            await asyncio.wait({task}, timeout=THINKING_TICK)
            elapsed = time.monotonic() - started
            self.out.write(f"\r{who} is thinking… {elapsed:.0f}s")
            self.out.flush()
        move = await task
        if tty:
            self.out.write(f"\r\x1b[K{who} thought for {time.monotonic() - started:.1f}s\n")
        else:
            self.out.write("\n")
        self.out.flush()
        return move

    async def run(self, info: GameInfo) -> int:
        """Play until the game ends (0) or input runs out (1)."""
        self.say(f"{info.title} {info.size}×{info.size}, a game by Mark Steere.")
        for line in rules_lines(info.game, info.size, len(self.computer_seats) == 1):
            self.say(line)
        channel = info.channel_id
        position = await self.show(info)
        while info.is_active:
            user = info.to_move_id
            assert user is not None and info.to_move_colour is not None
            provider = self.providers.get(user)
            label = self.labels.get(user, str(user))
            computer = provider is not None
            if provider is not None:
                who = f"{info.to_move_colour} ({label})"
                line = await self.think(provider, position.copy(), who)
                self.say(f"{who} chooses {line}")
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
                    # echo scripted input so transcripts read naturally (once, and cut)
                    self.say(clip(line, INPUT_LIMIT))
                if len(line) > INPUT_LIMIT:
                    self.say(
                        f"That line is {len(line)} characters long, too long to be a move: "
                        "type a point such as c3, or rules."
                    )
                    continue
            command = line.lower()
            if not command:
                continue
            try:
                if command in ("help", "?", "rules"):
                    for text in rules_lines(info.game, info.size, len(self.computer_seats) == 1):
                        self.say(text)
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
        self.say(final_line(info, self.computer_seats))
        return 0

    async def undo(self, info: GameInfo) -> GameInfo:
        """Take back the last turn: its player asks, the other seat agrees (both are local).

        Against the computer, take back the human's last turn and every computer turn after
        it, so the human is to move again and the computer never replays at once.
        """
        record = await self.service.game_record(info.id)
        if not record.moves:
            raise NoTakeback("nothing to undo yet")
        computers = self.computer_seats
        if computers and all(move.user_id in computers for move in record.moves):
            raise NoTakeback("nothing of yours to undo yet: the computer's opening turn stays")
        undone: list[str] = []
        mover = record.moves[-1].user_id
        while True:
            await self.service.request_takeback(info.channel_id, mover)
            answer = await self.service.answer_takeback(
                info.channel_id, info.opponent_of(mover), True
            )
            undone[:0] = [event.move for event in answer.undone]
            info = answer.game
            if not computers or mover not in computers:
                break
            mover = (await self.service.game_record(info.id)).moves[-1].user_id
        self.say("took back " + " ".join(undone))
        return info


def final_line(info: GameInfo, computers: set[int] | frozenset[int] = frozenset()) -> str:
    """``<colour> wins`` or ``draw``; against the computer, also who that is for the human."""
    result = info.result
    if result is None or result.winner_colour is None:
        return "draw"
    line = f"{result.winner_colour} wins"
    if len(computers) == 1:  # one human against the computer
        line += ". The computer wins." if result.winner_id in computers else ". You win!"
    return line


def level_argument(text: str) -> ai.Level:
    """argparse type for ``--level``: a number or a name, with the list of levels on error."""
    try:
        return ai.parse_level(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def level_choices() -> str:
    return ", ".join(level.describe() for level in ai.LEVELS.values())


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="crosspath play",
        description="Play a local two-player game; one move per line on standard input.",
    )
    p.add_argument("game", help=f"one of: {', '.join(sorted(game_names()))}")
    p.add_argument("--size", type=int, default=None, help="board size (default: the game's)")
    p.add_argument(
        "--db",
        default=None,
        help="database to keep the game in: a SQLite file or a postgresql:// URL (default: a "
        "temporary file); an unfinished game of the same kind in it is resumed",
    )
    p.add_argument(
        "--new",
        action="store_true",
        help="with --db: start a new game even if the file holds an unfinished one",
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


@dataclass(frozen=True)
class Seating:
    """Who sits where: the providers per seat, their labels, and the options that record it."""

    providers: dict[int, MoveProvider | None]
    labels: dict[int, str]
    options: dict[str, str]


def seating(args: argparse.Namespace, stored: dict[str, str] | None = None) -> Seating:
    """The seats for ``args``, or, for a resumed game, as its stored options say."""
    vs: str = args.vs
    providers: dict[int, MoveProvider | None] = {PLAYER_ONE: None, PLAYER_TWO: None}
    labels: dict[int, str] = {}
    options = {OPPONENT_OPTION: vs}
    factory = OPPONENTS[vs]
    if factory is None:
        return Seating(providers, labels, options)
    if stored is not None:
        seat = int(stored.get(COMPUTER_SEAT_OPTION, str(PLAYER_TWO)))
        level = stored.get(LEVEL_OPTION)
        args = argparse.Namespace(
            **{**vars(args), "level": ai.parse_level(level) if level else None}
        )
    else:
        seat = PLAYER_ONE if getattr(args, "ai_first", False) else PLAYER_TWO
    providers[seat] = factory(args)
    labels[seat] = COMPUTER_LABEL if vs == "ai" else vs
    options[COMPUTER_SEAT_OPTION] = str(seat)
    level = getattr(args, "level", None)
    if vs == "ai":
        options[LEVEL_OPTION] = str(ai.parse_level(level).number)
    return Seating(providers, labels, options)


@asynccontextmanager
async def open_service(db: Path | str) -> AsyncIterator[GameService]:
    """The game service over the database ``db``, a file or a URL (the one place the console
    opens a store; tests read what the console stored through it too)."""
    async with await open_store(db) as store:
        yield GameService(store)


async def play(
    args: argparse.Namespace,
    inp: TextIO,
    out: TextIO,
    seats: Seating,
) -> int:
    with tempfile.TemporaryDirectory(prefix="crosspath-") as scratch:
        db: Path | str = Path(scratch) / "console.sqlite3"
        if args.db:
            db = args.db if is_postgres(args.db) else Path(args.db)
        async with open_service(db) as service:
            console = Console(
                service,
                out=out,
                inp=inp,
                images=Path(args.images) if args.images else None,
            )
            game = game_class(args.game).name
            resumed = None
            if args.db and not args.new:
                resumed = await console.unfinished(game, args.size, args.vs)
            if resumed is not None:
                seats = seating(args, resumed.options)
                console.say(
                    f"Resuming the unfinished {resumed.title} game in "
                    f"{shown_database(str(db))} at turn {resumed.turn_number} "
                    "(add --new to start another)."
                )
                info = resumed
            else:
                info = await console.start(game, args.size, seats.options)
            console.providers = seats.providers
            console.labels.update(seats.labels)
            return await console.run(info)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def interrupt_at_once() -> Iterator[None]:
    """Ctrl-C stops the game where it is, even while the console waits for a line.

    ``asyncio.run`` would otherwise only cancel its task on the first Ctrl-C, and the console
    reads standard input without awaiting, so nothing would happen until Enter.  With this
    handler the interrupt is raised inside the read; the store still closes on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:  # someone chose their own handling
        yield
        return
    signal.signal(signal.SIGINT, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def path_problem(flag: str, path: Path, want_dir: bool) -> str | None:
    """Why ``path`` cannot serve ``flag`` (a folder or a file), or None if it can."""
    shown = clip(str(path))
    if want_dir:
        if path.exists() and not path.is_dir():
            return f"{flag} {shown} is a file, not a folder: give a folder for the board images"
        return None
    if path.is_dir():
        return f"{flag} {shown} is a folder: give the path of a database file"
    parent = path.parent
    if not parent.is_dir():
        if parent.exists():
            return f"cannot keep the game in {shown}: {clip(str(parent))} is a file, not a folder"
        return f"cannot keep the game in {shown}: the folder {clip(str(parent))} does not exist"
    return None


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
    if args.new and not args.db:
        p.error("--new only applies with --db (without it every game is new)")
    try:
        cls = game_class(args.game)
        cls(args.size)
    except (UnknownGame, InvalidOptions) as exc:
        print(f"crosspath play: {exc}", file=err)
        return 2
    for flag, value, want_dir in (("--images", args.images, True), ("--db", args.db, False)):
        if value is None or (flag == "--db" and is_postgres(value)):
            continue
        problem = path_problem(flag, Path(value), want_dir)
        if problem is not None:
            print(f"crosspath play: {problem}", file=err)
            return 2
    try:
        if args.images is not None:  # fail before the first move, not after it
            try:
                Path(args.images).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                shown = clip(str(args.images))
                print(
                    f"crosspath play: cannot create the folder {shown} for --images: "
                    f"{exc.strerror or exc}",
                    file=err,
                )
                return 1
        with interrupt_at_once():
            return asyncio.run(play(args, stdin or sys.stdin, stdout or sys.stdout, seating(args)))
    except StoreError as exc:
        print(f"crosspath play: {exc}", file=err)
        return 1
    except BrokenPipeError:
        raise  # the reader hung up: bot.cli ends quietly
    except OSError as exc:
        where = clip(str(exc.filename)) + ": " if exc.filename else ""
        print(f"crosspath play: {where}{exc.strerror or exc}", file=err)
        return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
