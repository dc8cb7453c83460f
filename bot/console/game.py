"""The game loop: read a move (or ask the computer), hand it to the service, print what
happened, until the game ends or input runs out."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rules import Game, game_class, game_names

from ..cli import clip
from ..colour_words import colour_word
from ..config import shown_database
from ..i18n import ENGLISH_TONGUE, N_, Tongue, terminal_language, tongue
from ..service import (
    GameInfo,
    GameService,
    Hint,
    NoTakeback,
    ServiceError,
    pie_of,
    time_left_text,
)
from ..store import is_postgres, open_store
from .board import describe_event, rules_lines, text_board
from .lines import escaped, read_line
from .resume import PickProblem, pick_game
from .seats import (
    COMPUTER_LABEL,
    CONSOLE_GUILD,
    PLAYER_ONE,
    PLAYER_TWO,
    YOU,
    MoveProvider,
    seating,
)

PLAYER_ONE_LABEL, PLAYER_TWO_LABEL = "player 1", "player 2"
LABELS = {
    PLAYER_ONE_LABEL: N_("player 1"),
    PLAYER_TWO_LABEL: N_("player 2"),
    YOU: N_("you"),
    COMPUTER_LABEL: N_("computer"),
}
"""The seats' own labels, translated where they are printed (a named opponent stays)."""

INPUT_LIMIT = 100
"""Longest line the console treats as a move; longer lines are refused, echoed once, cut."""

THINKING_TICK = 1.0
"""Seconds between updates of the "thinking…" line on a terminal."""


def in_daemon_thread(provider: MoveProvider, position: Game) -> asyncio.Future[str]:
    """``provider(position)`` on a daemon thread of its own, as a future of this loop.

    Why not ``asyncio.to_thread``: when Ctrl-C ends the game, ``asyncio.run`` and then the
    interpreter wait for every executor thread, so the console would hang until the computer
    finished thinking (seconds at the higher levels).  A search works on a copy of the position
    and writes nothing, so a daemon thread that is abandoned at exit loses nothing.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if future.done():  # cancelled while thinking
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result or "")

    def work() -> None:
        try:
            move, error = provider(position), None
        except BaseException as exc:  # handed to the awaiting loop, which re-raises it
            move, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop closed: the console was interrupted
            loop.call_soon_threadsafe(settle, move, error)

    threading.Thread(target=work, name="crosspath-thinking", daemon=True).start()
    return future


@dataclass
class Console:
    """One local game: the loop that reads moves, calls the service and prints what happened."""

    service: GameService
    out: TextIO
    inp: TextIO
    images: Path | None = None
    providers: dict[int, MoveProvider | None] = field(default_factory=dict)
    labels: dict[int, str] = field(
        default_factory=lambda: {PLAYER_ONE: PLAYER_ONE_LABEL, PLAYER_TWO: PLAYER_TWO_LABEL}
    )
    kept_in: str | None = None
    """The database the game is kept in (as shown), None for the temporary one."""
    tr: Tongue = ENGLISH_TONGUE
    """The terminal's language (``--lang``, else ``LC_ALL``/``LC_MESSAGES``/``LANG``): the
    refusals, the rules and the board images speak it."""

    def title(self, info: GameInfo) -> str:
        """The game's name (Mark Steere's, never translated), with the pie rule if chosen."""
        name = game_class(info.game).title
        pie = pie_of(info.options.items())
        return self.tr.gettext("{game} (pie rule)", game=name) if pie else name

    def shown(self, user_id: int) -> str:
        """A seat's label as the console prints it: ``player 1``, ``you`` and ``computer``
        in the terminal's language, any other (a named opponent) as given."""
        label = self.labels.get(user_id, str(user_id))
        return self.tr.gettext(LABELS[label]) if label in LABELS else label

    def say(self, text: str = "") -> None:
        self.out.write(escaped(text) + "\n")
        self.out.flush()

    @property
    def computer_seats(self) -> set[int]:
        return {user for user, provider in self.providers.items() if provider is not None}

    async def start(
        self,
        game: str,
        size: int | None,
        options: dict[str, str] | None = None,
        pie: bool | None = None,
        clock: str = "none",
        hints: bool = False,
    ) -> GameInfo:
        """Start a new game in a fresh console channel (player 1 moves first); ``pie`` as for
        the service's ``create_challenge``."""
        existing = await self.service.games.games_for_player(
            CONSOLE_GUILD, PLAYER_ONE, limit=10_000
        )
        channel = 1 + max((g.channel_id for g in existing), default=0)
        challenge = await self.service.create_challenge(
            CONSOLE_GUILD,
            channel,
            PLAYER_ONE,
            PLAYER_TWO,
            game,
            size,
            "me",
            clock,
            options=options or {},
            pie=pie,
            hints=hints,
        )
        started = await self.service.accept_challenge(challenge.id, PLAYER_TWO)
        return started.game

    def rules_lines(self, info: GameInfo) -> list[str]:
        """The game's rules as the console states them, with the pie rule if it was chosen."""
        vs_computer = len(self.computer_seats) == 1
        pie = bool(pie_of(info.options.items()))
        hints = info.hints is not None
        return rules_lines(info.game, info.size, vs_computer, pie, hints, self.tr)

    async def unfinished(self) -> list[GameInfo]:
        """The unfinished console games in the database, oldest first."""
        active = await self.service.games.games_for_player(
            CONSOLE_GUILD, PLAYER_ONE, active_only=True, limit=10_000
        )
        return sorted(active, key=lambda info: info.id)

    def write_image(self, info: GameInfo, position: Game) -> None:
        if self.images is None:
            return
        from render import render_board  # lazy: Pillow is only needed for --images

        names = {seat.colour: self.shown(seat.user_id) for seat in info.seats}
        png = render_board(position, names=names, show_illegal=not position.is_over, tr=self.tr)
        self.images.mkdir(parents=True, exist_ok=True)
        (self.images / f"turn-{len(info.moves):03d}.png").write_bytes(png)

    async def show(self, info: GameInfo) -> Game:
        position = await self.service.position(info.id)
        self.say(text_board(position, show_illegal=info.is_active, tr=self.tr))
        self.write_image(info, position)
        if info.time_left is not None:
            self.say(self.clock_line(info))
        return position

    def clock_line(self, info: GameInfo) -> str:
        """``time left: player 1 2d 4h · player 2 3d`` (or ``no clock``)."""
        labels = {s.user_id: self.shown(s.user_id) for s in info.seats}
        line = time_left_text(info, labels, self.tr.say)
        return (
            self.tr.gettext("no clock")
            if line is None
            else self.tr.gettext("time left: {clocks}", clocks=line)
        )

    async def corr_command(self, command: str, info: GameInfo, user: int) -> GameInfo | None:
        """``clock``, ``vacation N`` and ``back`` (None: ``command`` is none of them)."""
        words = command.split()
        if words == ["clock"]:
            fresh = await self.service.get_game_by_id(info.id)
            self.say(self.clock_line(fresh))
            return fresh
        if words and words[0] == "vacation":
            if len(words) != 2 or not words[1].isdigit() or len(words[1]) > 4:
                self.say(
                    self.tr.gettext("write vacation and a number of days, such as: vacation 3")
                )
                return info
            vacation = await self.service.start_vacation(user, int(words[1]))
            assert vacation.ends_at is not None
            self.say(
                self.tr.ngettext(
                    "{who} is on vacation until {when} UTC: {n} clock stopped, {left} of "
                    "{allowance} days left in {year}",
                    "{who} is on vacation until {when} UTC: {n} clocks stopped, {left} of "
                    "{allowance} days left in {year}",
                    len(vacation.games),
                    who=self.shown(user),
                    when=f"{vacation.ends_at:%Y-%m-%d %H:%M}",
                    left=vacation.days_left,
                    allowance=vacation.allowance,
                    year=vacation.year,
                )
            )
            return await self.service.get_game_by_id(info.id)
        if words == ["back"]:
            vacation = await self.service.end_vacation(user)
            self.say(
                self.tr.gettext(
                    "{who} is back: the clocks run again ({left} of {allowance} vacation days "
                    "left)",
                    who=self.shown(user),
                    left=vacation.days_left,
                    allowance=vacation.allowance,
                )
            )
            return await self.service.get_game_by_id(info.id)
        return None

    async def think(self, provider: MoveProvider, position: Game, who: str) -> tuple[str, float]:
        """Let the computer choose off the event loop: its move and the seconds it took.

        On a terminal a line counts the seconds meanwhile and is cleared afterwards, so the
        move is then said in one line with the time; a transcript gets only that line.
        """
        started = time.monotonic()
        tty = self.out.isatty()
        if tty:
            self.out.write(self.tr.gettext("{who} is thinking…", who=who))
            self.out.flush()
        task = in_daemon_thread(provider, position)
        while tty and not task.done():
            await asyncio.wait({task}, timeout=THINKING_TICK)
            elapsed = time.monotonic() - started
            self.out.write("\r" + self.tr.gettext("{who} is thinking…", who=who))
            self.out.write(f" {elapsed:.0f}s")
            self.out.flush()
        move = await task
        if tty:
            self.out.write("\r\x1b[K")
            self.out.flush()
        return move, time.monotonic() - started

    async def run(self, info: GameInfo) -> int:
        """Play until the game ends (0) or input runs out (1)."""
        self.say(
            self.tr.gettext(
                "{game} {size}×{size}, a game by Mark Steere.",
                game=self.title(info),
                size=info.size,
            )
        )
        for line in self.rules_lines(info):
            self.say(line)
        self.say(self.seats_line(info))
        channel = info.channel_id
        position = await self.show(info)
        while info.is_active:
            user = info.to_move_id
            assert user is not None and info.to_move_colour is not None
            provider = self.providers.get(user)
            label = self.shown(user)
            computer = provider is not None
            who = f"{colour_word(info.to_move_colour, self.tr)} ({label})"
            thought: float | None = None
            if provider is not None:
                line, thought = await self.think(provider, position.copy(), who)
            else:
                raw = read_line(
                    self.inp, self.out, self.tr.gettext("{who} to move", who=who) + "> "
                )
                if not raw:
                    self.say("")
                    self.say(self.tr.gettext("input ended before the game did"))
                    self.say(self.stopped_line(info))
                    return 1
                line = raw.strip()
                if not self.inp.isatty():
                    # echo scripted input so transcripts read naturally (once, and cut)
                    self.say(clip(line, INPUT_LIMIT))
                if len(line) > INPUT_LIMIT:
                    self.say(
                        self.tr.gettext(
                            "That line is {count} characters long, too long to be a move: "
                            "type a point such as c3, or rules.",
                            count=len(line),
                        )
                    )
                    continue
            command = line.lower()
            if not command:
                continue
            try:
                if command in ("help", "?", "rules"):
                    for text in self.rules_lines(info):
                        self.say(text)
                    continue
                if command == "moves":
                    self.say(" ".join(position.legal_moves()))
                    continue
                if command in ("quit", "exit"):
                    self.say(self.stopped_line(info))
                    return 1
                if command == "resign":
                    ended = await self.service.resign(channel, user, game_id=info.id)
                    self.say(
                        self.tr.gettext(
                            "{colour} resigns", colour=colour_word(info.to_move_colour, self.tr)
                        )
                    )
                    info = ended.game
                elif command == "undo":
                    info = await self.undo(info)
                elif command == "hint":
                    self.say(self.tr.gettext("thinking about a hint for {who}…", who=who))
                    hint = await self.service.hints.hint(channel, user, game_id=info.id)
                    self.say(hint_line(hint, self.tr))
                    continue
                elif (changed := await self.corr_command(command, info, user)) is not None:
                    info = changed
                    continue
                else:
                    result = await self.service.play_move(channel, user, line, game_id=info.id)
                    for index, event in enumerate(result.events):
                        said = describe_event(event, self.tr)
                        if index == 0 and thought is not None:
                            # the computer's move in one line: who, what, and how long
                            colour = colour_word(event.colour, self.tr)
                            said[0] = (
                                said[0].replace(colour, who, 1)
                                + " "
                                + self.tr.gettext(
                                    "(thought for {seconds}s)", seconds=f"{thought:.1f}"
                                )
                            )
                        for text in said:
                            self.say(text)
                    info = result.game
                    if any(event.swap for event in result.events):
                        self.say(self.seats_line(info))
            except (ServiceError, ValueError) as exc:
                self.say(self.tr.refusal(exc))  # the service's or the engine's sentence
                if computer:
                    # asking again would get the same answer: stop instead of looping
                    self.say(
                        self.tr.gettext(
                            "stopped: {who} chose {move}, which the game refused",
                            who=label,
                            move=clip(line, INPUT_LIMIT),
                        )
                    )
                    return 1
                continue
            position = await self.show(info)
        self.say(final_line(info, self.computer_seats, self.tr))
        return 0

    def seats_line(self, info: GameInfo) -> str:
        """Who plays which colour now, with the board's mark for it.

        Against the computer the human is "you", so a swap says plainly which colour is yours.
        """
        parts = []
        for seat, mark in zip(info.seats, "XO", strict=True):
            label = self.labels.get(seat.user_id, str(seat.user_id))  # raw: compared below
            colour = colour_word(seat.colour, self.tr)
            if label == YOU:
                parts.append(
                    self.tr.gettext("you play {colour} ({mark})", colour=colour, mark=mark)
                )
            elif label == COMPUTER_LABEL:
                parts.append(
                    self.tr.gettext(
                        "the computer plays {colour} ({mark})", colour=colour, mark=mark
                    )
                )
            else:
                parts.append(
                    self.tr.gettext(
                        "{who} plays {colour} ({mark})",
                        who=self.shown(seat.user_id),
                        colour=colour,
                        mark=mark,
                    )
                )
        if self.labels.get(info.seats[1].user_id) == YOU:
            parts.reverse()
        text = self.tr.gettext("{seats}.", seats=", ".join(parts))
        return text[0].upper() + text[1:]

    def stopped_line(self, info: GameInfo) -> str:
        """What ``quit`` leaves behind: the game kept in ``--db``, or discarded."""
        if self.kept_in is None:
            return self.tr.gettext(
                "stopped: the game is not over, and it is discarded (it was in a temporary "
                "file); play with --db FILE to keep a game you can come back to"
            )
        return self.tr.gettext(
            "stopped: the game is not over; it is kept in {where}, resume it with {command}",
            where=self.kept_in,
            command=f"--db {self.kept_in} --game {info.id}",
        )

    async def undo(self, info: GameInfo) -> GameInfo:
        """Take back the last turn: its player asks, the other seat agrees (both are local).

        Against the computer, take back the human's last turn and every computer turn after
        it, so the human is to move again and the computer never replays at once.
        """
        record = await self.service.games.game_record(info.id)
        if not record.moves:
            raise NoTakeback(N_("nothing to undo yet"))
        computers = self.computer_seats
        if computers and all(move.user_id in computers for move in record.moves):
            raise NoTakeback(N_("nothing of yours to undo yet: the computer's opening turn stays"))
        undone: list[str] = []
        mover = record.moves[-1].user_id
        while True:
            await self.service.play.request_takeback(info.channel_id, mover)
            answer = await self.service.play.answer_takeback(
                info.channel_id, info.opponent_of(mover), True
            )
            undone[:0] = [event.move for event in answer.undone]
            info = answer.game
            if not computers or mover not in computers:
                break
            mover = (await self.service.games.game_record(info.id)).moves[-1].user_id
        self.say(self.tr.gettext("took back {moves}", moves=" ".join(undone)))
        return info


def hint_line(hint: Hint, tr: Tongue = ENGLISH_TONGUE) -> str:
    """A hint as the console says it: the proven verdict, or the move and its win chance."""
    if hint.proven == "win":
        advice = tr.gettext("proven win: play {move} and you win with best play", move=hint.move)
    elif hint.proven == "loss":
        advice = tr.gettext(
            "proven loss with best play; the computer would try {move}", move=hint.move
        )
    else:
        advice = tr.gettext(
            "the computer suggests {move} (your win chance about {chance})",
            move=hint.move,
            chance=f"{hint.win_chance:.0%}",
        )
    return tr.gettext(
        "hint: {advice}; hints used in this game: {used}", advice=advice, used=hint.used
    )


def final_line(
    info: GameInfo, computers: set[int] | frozenset[int] = frozenset(), tr: Tongue = ENGLISH_TONGUE
) -> str:
    """``<colour> wins`` or ``draw``; against the computer, also who that is for the human."""
    result = info.result
    if result is None or result.winner_colour is None:
        return tr.gettext("draw")
    colour = colour_word(result.winner_colour, tr)
    if len(computers) == 1:  # one human against the computer
        if result.winner_id in computers:
            return tr.gettext("{colour} wins. The computer wins.", colour=colour)
        return tr.gettext("{colour} wins. You win!", colour=colour)
    return tr.gettext("{colour} wins", colour=colour)


@asynccontextmanager
async def open_service(db: Path | str) -> AsyncIterator[GameService]:
    """The game service over the database ``db``, a file or a URL (the one place the console
    opens a store; tests read what the console stored through it too)."""
    async with await open_store(db) as store, GameService(store) as service:
        yield service


async def play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    """Open the database, pick or start the game, and play it (PickProblem: nothing done)."""
    with tempfile.TemporaryDirectory(prefix="crosspath-") as scratch:
        db: Path | str = Path(scratch) / "console.sqlite3"
        if args.db:
            db = args.db if is_postgres(args.db) else Path(args.db)
        where = shown_database(str(db))
        async with open_service(db) as service:
            console = Console(
                service,
                out=out,
                inp=inp,
                images=Path(args.images) if args.images else None,
                kept_in=where if args.db else None,
                tr=tongue(terminal_language(os.environ, args.lang)),
            )
            waiting = await console.unfinished() if args.db else []
            resumed = pick_game(args, where, waiting)
            if resumed is not None:
                seats = seating(args, resumed.options)
                console.say(
                    f"Resuming the unfinished {resumed.title} game in {where} at turn "
                    f"{resumed.turn_number} (add --new to start another)."
                )
                info = resumed
            elif args.game is None:
                raise PickProblem(
                    f"say which game to play: one of {', '.join(sorted(game_names()))}"
                )
            else:
                seats = seating(args)
                info = await console.start(
                    game_class(args.game).name,
                    args.size,
                    seats.options,
                    args.pie or None,
                    args.clock,
                    args.hints,
                )
            console.providers = seats.providers
            console.labels.update(seats.labels)
            return await console.run(info)
