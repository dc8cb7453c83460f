"""Turn notices by direct message: the DM of one turn, the daily digest, and what a closed DM
changes.

The service keeps each player's choice (``/notify``: mention, dm, digest or off).  The turn
message always goes to the game's channel (everyone there follows the board); it pings the
player only when they chose ``mention`` (see ``posting.post_turn``).  With ``dm`` the same
board then goes to the player privately with a link to the channel message.

A DM that Discord refuses with 50007 (the player closed their DMs, or shares no server with
the bot any more) is recorded with ``service.notices.close_dms``: the player is mentioned in the
channel instead, told once how to fix it, and no DM is tried again until they use
``/notify``.  Any other failure falls back to the channel mention for that turn only.

The digest goes out from :class:`DigestSender`: digests are claimed in batches
(``service.notices.claim_digests``, each player's exactly once across processes), then sent a few at
a time, paced under Discord's global limit of 50 requests a second (a DM is two requests: open
the channel, send), with the event loop given back between sends.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.play.turns import OutgoingMessage, mention, relative_time
from bot.discord.replies import log_failure
from bot.discord.speech import of_server
from bot.i18n import ENGLISH_TONGUE, N_, Tongue
from bot.service import DIGEST_BATCH, Digest, GameInfo, GameSummary, Waiting

if TYPE_CHECKING:
    from bot.discord.app import CrosspathBot

log = logging.getLogger("crosspath.discord")

DM_CLOSED = 50007
"""Discord's code for "Cannot send messages to this user"."""
DIGEST_RATE = 20.0
"""Digest DMs a second at most: 40 requests, under Discord's 50 a second for the whole bot,
leaving room for games (a burst of refusals with 429 can get the bot's IP banned for an
hour, so the sender paces itself rather than rely on Discord's answers alone)."""
DIGEST_IN_FLIGHT = 8
"""Digest DMs under way at once: enough that Discord's round trips (two a DM) keep up with
:data:`DIGEST_RATE`."""
FIX_DMS = N_(
    "I couldn't send you a direct message: your DMs are closed to me. To get them, allow "
    "direct messages from members of this server (the server's name, then Privacy Settings), "
    "then choose with /notify again. Until then I mention you here."
)


class Delivery(Enum):
    """What became of one DM."""

    SENT = "sent"
    CLOSED = "closed"
    """Refused for good (50007): recorded, no DM until the player chooses again."""
    FAILED = "failed"
    """Another failure (a Discord error, a timeout): the channel mention stands in, once."""


def game_link(guild_id: int | str, channel_id: int, message_id: int | None = None) -> str:
    """A jump link to a game's channel or thread, or to one of its messages."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return link if message_id is None else f"{link}/{message_id}"


def summary_link(game: GameSummary) -> str:
    return game_link("@me" if game.outside_servers else game.guild_id, game.channel_id)


def turn_dm(
    info: GameInfo,
    message: OutgoingMessage,
    message_id: int | None,
    tr: Tongue = ENGLISH_TONGUE,
) -> OutgoingMessage:
    """The DM of one turn: the channel's board and embed (in the channel's language), and a
    jump link to the game, in the player's language ``tr``."""
    # a DM or group DM is linked under @me: it belongs to no server
    where = "@me" if info.outside_servers else info.guild_id
    link = game_link(where, info.channel_id, message_id)
    content = tr.gettext(
        "Your move in {game} game #{id}: {link}", game=info.title, id=info.id, link=link
    )
    return OutgoingMessage(
        content, message.embed, discord.AllowedMentions.none(), message.board, message.filename
    )


async def send_dm(bot: CrosspathBot, user_id: int, **message: Any) -> Delivery:
    """Send ``message`` (``send``'s arguments) to the player privately; a refusal is logged
    and returned, never raised.  A 50007 refusal is recorded with the service (no DM until
    ``/notify``): ``CLOSED`` for the call that recorded it, ``FAILED`` for a racing one."""
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(**message)
    except discord.HTTPException as exc:
        closed = exc.code == DM_CLOSED
        log.warning(
            "could not send a direct message",
            extra={"user_id": user_id, "status": exc.status, "code": exc.code},
        )
        if closed and await bot.service.notices.close_dms(user_id):
            return Delivery.CLOSED  # the first to find out: the player is told, once
        return Delivery.FAILED
    return Delivery.SENT


def fallback_text(info: GameInfo, delivery: Delivery, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The channel mention that stands in for a DM that failed (in the channel's language)."""
    assert info.to_move_id is not None
    text = tr.gettext(
        "{who}, your move in {game} game #{id}.",
        who=mention(info.to_move_id),
        game=info.title,
        id=info.id,
    )
    return f"{text} {tr.gettext(FIX_DMS)}" if delivery is Delivery.CLOSED else text


def only(user_id: int) -> discord.AllowedMentions:
    """Allowed mentions that ping this one player and nobody else."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(user_id)], replied_user=False
    )


# ----- the daily digest -------------------------------------------------------------------------


def waiting_line(waiting: Waiting, user_id: int, tr: Tongue = ENGLISH_TONGUE) -> str:
    """One game of a digest or a list: which, against whom, since when, and its link."""
    game = waiting.game
    opponent = game.second_id if game.first_id == user_id else game.first_id
    return "• " + tr.gettext(
        "{game} {size}×{size} #{id} vs {opponent}, waiting since {since}: {link}",
        game=game.title,
        size=game.size,
        id=game.id,
        opponent=mention(opponent),
        since=relative_time(waiting.since),
        link=summary_link(game),
    )


def digest_text(digest: Digest, tr: Tongue = ENGLISH_TONGUE) -> str:
    """The digest DM in the player's language: every game waiting on them, longest wait first
    (at most 2,000 characters: lines that do not fit are counted instead)."""
    total = len(digest.games) + digest.more
    head = tr.ngettext(
        "Your daily Crosspath digest: {n} game waits on your move.",
        "Your daily Crosspath digest: {n} games wait on your move.",
        total,
    )
    lines = [head]
    shown = 0
    for waiting in digest.games:
        line = waiting_line(waiting, digest.user_id, tr)
        if sum(len(x) + 1 for x in lines) + len(line) + 80 > 2000:
            break
        lines.append(line)
        shown += 1
    if total > shown:
        lines.append(
            tr.ngettext(
                "…and {n} more: /games in each server lists them all.",
                "…and {n} more: /games in each server lists them all.",
                total - shown,
            )
        )
    return "\n".join(lines)


class Pacer:
    """At most ``rate`` sends a second, measured on the event loop's clock."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self._next = 0.0

    async def wait(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._next > now:
            await asyncio.sleep(self._next - now)
            now = self._next
        self._next = now + self.interval


@dataclass
class DigestRun:
    """What one pass of the digest sender did."""

    claimed: int = 0
    sent: int = 0
    empty: int = 0
    closed: int = 0
    failed: int = 0


class DigestSender:
    """Sends every digest due now: claims a batch, sends it, and again until none is due.

    Sends are paced (``rate`` a second) and overlap (``in_flight`` at once), so Discord's
    round trips do not slow the pace; the loop is given back between sends.
    """

    def __init__(
        self, bot: CrosspathBot, rate: float = DIGEST_RATE, in_flight: int = DIGEST_IN_FLIGHT
    ) -> None:
        self.bot = bot
        self.pacer = Pacer(rate)
        self.in_flight = in_flight

    async def run_once(self, batch: int = DIGEST_BATCH) -> DigestRun:
        run = DigestRun()
        sending: set[asyncio.Task[None]] = set()
        slots = asyncio.Semaphore(self.in_flight)

        def done(task: asyncio.Task[None]) -> None:
            sending.discard(task)
            slots.release()

        try:
            while digests := await self.bot.service.notices.claim_digests(batch):
                run.claimed += len(digests)
                for digest in digests:
                    if not digest.games:
                        run.empty += 1  # nothing waits on them: no DM today
                        continue
                    await slots.acquire()
                    await self.pacer.wait()
                    task = asyncio.create_task(self._send(digest, run), name="crosspath-digest")
                    sending.add(task)
                    task.add_done_callback(done)
                    await asyncio.sleep(0)  # other work runs between sends, whatever the pace
            if sending:
                await asyncio.gather(*sending)
        except BaseException:
            for task in sending:
                task.cancel()
            raise
        return run

    async def _send(self, digest: Digest, run: DigestRun) -> None:
        try:
            delivery = await send_dm(
                self.bot,
                digest.user_id,
                content=digest_text(
                    digest, self.bot.locales.tongue_of(digest.user_id, digest.locale)
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            if delivery is Delivery.SENT:
                run.sent += 1
            elif delivery is Delivery.CLOSED:
                run.closed += 1
                await self._fall_back(digest)
            else:
                run.failed += 1
        except Exception as exc:  # a database fault on one player must not stop the others
            run.failed += 1
            log_failure("could not send a digest", exc, user_id=digest.user_id)

    async def _fall_back(self, digest: Digest) -> None:
        """Closed DMs: mention the player once, in the game that has waited longest on them,
        with how to fix it; from now on their turns ping them in each channel.  Only a
        server's channel will do: the bot cannot post in a DM game's conversation."""
        in_servers = [w.game for w in digest.games if not w.game.outside_servers]
        if not in_servers:
            return
        game = in_servers[0]
        total = len(digest.games) + digest.more
        tr = of_server(self.bot, game.guild_id)  # a post the channel reads
        text = tr.ngettext(
            "{who}, {n} game waits on your move, this one the longest. {fix}",
            "{who}, {n} games wait on your move, this one the longest. {fix}",
            total,
            who=mention(digest.user_id),
            fix=tr.gettext(FIX_DMS),
        )
        channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
        try:
            await channel.send(text, allowed_mentions=only(digest.user_id))
        except discord.HTTPException:
            log.warning("could not post a digest's fallback", extra={"game_id": game.id})
