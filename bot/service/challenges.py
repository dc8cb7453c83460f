"""Challenges: create, accept (which starts a game), decline, cancel, and look them up."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime

from rules import Game, UnknownGame, game_class
from rules.base import PIE_OPTION
from rules.errors import N_, Wording

from ..store import (
    ChannelTaken,
    NewChallenge,
    NewGame,
    Tx,
)
from . import convert
from .challenge_types import Challenge, FirstChoice, GameStarted
from .checks import (
    MAX_GAME_NAME,
    check_bool,
    check_id,
    check_limit,
    check_optional_id,
    check_text,
    check_time_control,
    is_int,
    quote,
)
from .clocks.timebank import first_clock, stored
from .clocks.types import TimeControl
from .clocks.vacations import paused_until
from .convert import HINTS_OPTION, PIE_ON, to_us
from .core import (
    Feature,
    board_size,
)
from .errors import (
    ChallengeExpired,
    ChallengeNotFound,
    ChannelBusy,
    InvalidChallenge,
    InvalidInput,
    PermissionDenied,
)
from .types import OUTSIDE_SERVERS, VENUE_OPTION

FIRST_CHOICES = ("me", "them", "random")
MAX_OPTIONS = 8
MAX_OPTION_KEY = 32
MAX_OPTION_VALUE = 64


class Challenges(Feature):
    """Challenges between players; accepting one starts its game."""

    async def create_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        game: str,
        size: int | None = None,
        first: FirstChoice = "me",
        time_control: TimeControl | str | None = None,
        *,
        options: Mapping[str, str] | None = None,
        rated: bool = True,
        pie: bool | None = None,
        public: bool = False,
        challenger_name: str | None = None,
        hints: bool = False,
        outside_servers: bool = False,
    ) -> Challenge:
        """Create a direct (``opponent_id``) or open (None) challenge.

        ``size``/``time_control`` default to the server's settings, then the game's default.
        ``options`` are per-game settings a front end needs back later (the computer's level),
        stored with the challenge and copied to its game; the service reads only whether they
        mark a game against the computer (never rated).  ``rated=False`` makes the game
        unrated.  ``pie=True`` plays Minefield, Clearcut or Naked Diagonal with the pie rule
        (stored as the ``pie`` option, :func:`pie_options`); Clear Path always has it.
        unrated.  ``public=True``: the channel can be read by everyone, so the game may be
        shown on the web (the front end decides; the server's listing setting still
        applies).  ``challenger_name``: the challenger's display name, kept for the game's
        page (:data:`MAX_NAME` characters at most).  ``hints=True``: the players may ask
        the computer for hints (``service.hints``); the game is then unrated whatever
        ``rated`` says (stored as the ``hints`` option, so the challenge shows it).
        ``outside_servers=True``: the challenge is made in a DM or group DM (``guild_id``
        is then the front end's pool for that conversation, conventionally its channel
        id); the game is unrated and never public whatever ``rated`` and ``public`` say,
        and it keeps that fact (the ``venue`` option, ``GameInfo.outside_servers``).
        Raises InvalidChallenge (self-challenge, unknown game, size the game does not allow,
        channel not allowed, bad options, a pie choice the game does not allow),
        InvalidTimeControl, ChannelBusy (no threads and the channel already has a game).
        """
        check_id(guild_id, "server id")
        check_id(channel_id, "channel id")
        check_id(challenger_id, "challenger id")
        check_optional_id(opponent_id, "opponent id")
        check_text(game, "game name", MAX_GAME_NAME, InvalidChallenge)
        if size is not None and not is_int(size):
            raise InvalidChallenge(
                N_("The board size must be a whole number, not {size}."), size=quote(size)
            )
        time_control = check_time_control(time_control)
        checked = checked_options(options)
        check_bool(rated, "rated option", InvalidChallenge)
        check_bool(public, "public flag", InvalidChallenge)
        check_bool(hints, "hints option", InvalidChallenge)
        if checked.get(HINTS_OPTION, "on") != "on":
            raise InvalidChallenge("The hints option can only be on: use hints=True.")
        if hints or HINTS_OPTION in checked:
            checked[HINTS_OPTION] = "on"
            rated = False  # a game where the computer may advise a player is never rated
        check_bool(outside_servers, "outside servers flag", InvalidChallenge)
        if outside_servers or VENUE_OPTION in checked:
            # a DM has no server pool to rate in and nobody agreed to be on the web: the
            # front end cannot opt out of this, so a forged option cannot either
            checked[VENUE_OPTION] = OUTSIDE_SERVERS
            rated = public = False
        challenger_name = checked_name(challenger_name)
        if opponent_id is not None and opponent_id == challenger_id:
            raise InvalidChallenge(N_("You can't challenge yourself."))
        try:
            cls = game_class(game)
        except UnknownGame as exc:
            raise InvalidChallenge(exc.wording) from exc
        if not isinstance(first, str) or first not in FIRST_CHOICES:
            raise InvalidChallenge(N_("Choose who moves first: me, them or random."))
        checked = pie_options(cls, checked, pie)
        now = self._now()
        async with self._write() as tx:
            guild = convert.settings(await tx.moderation.settings(guild_id), guild_id)
            if not guild.allows(channel_id):
                raise InvalidChallenge(
                    N_(
                        "Games can't be started in this channel; ask an admin which channels "
                        "allow games."
                    )
                )
            chosen = board_size(guild, cls, size, InvalidChallenge)
            tc = time_control if time_control is not None else guild.default_time_control
            if time_control is None:
                # A server default stored before defaults were checked must not start a clock
                # that can never work: refuse now, not at the first move.
                check_time_control(tc)
            # a DM has no threads: its one game at a time lives in the DM itself
            alone = not guild.use_threads or outside_servers
            if alone and await tx.games.active_game_in(channel_id) is not None:
                raise ChannelBusy(
                    N_(
                        "This channel already has a game in progress; finish it or use another "
                        "channel."
                    )
                )
            stamp = to_us(now)
            row = await tx.challenges.insert_challenge(
                NewChallenge(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    game=cls.name,
                    size=chosen,
                    first=first,
                    **stored(tc),
                    created_at=stamp,
                    expires_at=stamp + guild.challenge_expiry * 1_000_000,
                    options=tuple(sorted(checked.items())),
                    rated=rated,
                    public=public,
                    challenger_name=challenger_name,
                )
            )
        return convert.challenge(row)

    async def _open_challenge(self, tx: Tx, challenge_id: int, now: datetime) -> Challenge:
        row = await tx.challenges.challenge(challenge_id)
        if row is None:
            raise ChallengeNotFound(N_("That challenge doesn't exist."))
        found = convert.challenge(row)
        if found.status == "expired" or (found.status == "open" and now >= found.expires_at):
            raise ChallengeExpired(N_("That challenge has expired."))
        if found.status == "accepted" and found.opponent_id is None:
            raise InvalidChallenge(N_("Too late: another player already took this open challenge."))
        if found.status != "open":
            raise InvalidChallenge(already(found.status))
        return found

    async def accept_challenge(
        self,
        challenge_id: int,
        user_id: int,
        game_channel_id: int | None = None,
        *,
        name: str | None = None,
    ) -> GameStarted:
        """Accept and start the game in ``game_channel_id`` (a thread; default: the channel).
        ``name``: the accepting player's display name, kept for the game's page.

        Raises ChallengeNotFound, ChallengeExpired, InvalidChallenge (not open any more, own
        challenge), PermissionDenied (a direct challenge to someone else), ChannelBusy.
        """
        check_id(challenge_id, "challenge id")
        check_id(user_id, "user id")
        check_optional_id(game_channel_id, "game channel id")
        name = checked_name(name)
        now = self._now()
        stamp = to_us(now)
        async with self._write() as tx:
            found = await self._open_challenge(tx, challenge_id, now)
            if user_id == found.challenger_id:
                raise InvalidChallenge(N_("You can't accept your own challenge."))
            if found.opponent_id is not None and found.opponent_id != user_id:
                raise PermissionDenied(N_("This challenge is for another player."))
            channel = found.channel_id if game_channel_id is None else game_channel_id
            if await tx.games.active_game_in(channel) is not None:
                raise ChannelBusy(
                    N_(
                        "That channel already has a game in progress; finish it or use another "
                        "channel."
                    )
                )
            challenger_first = {
                "me": True,
                "them": False,
                "random": self.rng.random() < 0.5,
            }[found.first]
            first_id, second_id = (
                (found.challenger_id, user_id)
                if challenger_first
                else (user_id, found.challenger_id)
            )
            game = convert.engine(found.game, found.size, found.options.items())
            tc = found.time_control
            stored_names = {found.challenger_id: found.challenger_name, user_id: name}
            new = NewGame(
                guild_id=found.guild_id,
                channel_id=channel,
                game=found.game,
                size=found.size,
                first_id=first_id,
                second_id=second_id,
                record=game.record(),
                to_move=game.to_move,
                to_move_id=first_id,  # the first colour moves first; no swap yet
                **stored(tc),
                clock=first_clock(tc, stamp, await paused_until(tx, (first_id, second_id), stamp)),
                challenge_id=found.id,
                created_at=stamp,
                options=tuple(sorted(found.options.items())),
                rated=found.rated,
                public=found.public,
                web_token=new_web_token(),
                first_name=stored_names[first_id],
                second_name=stored_names[second_id],
            )
            try:
                row = await tx.games.insert_game(new)
            except ChannelTaken as exc:
                raise ChannelBusy(N_("That channel already has a game in progress.")) from exc
            accepted = await tx.challenges.resolve_challenge(
                found.id, "accepted", stamp, user_id, row.id
            )
            await tx.games.add_event(row.id, stamp, "started", user_id, f"challenge {found.id}")
        assert accepted is not None  # the challenge was open in this same transaction
        self._remember(row.id, row.version, game)
        return GameStarted(convert.challenge(accepted), convert.game_info(row, game, stamp))

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines a direct challenge."""
        check_id(challenge_id, "challenge id")
        check_id(user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            found = await self._open_challenge(tx, challenge_id, now)
            if found.opponent_id is None:
                raise InvalidChallenge(
                    N_(
                        "An open challenge can't be declined; just leave it, or the challenger "
                        "can cancel it."
                    )
                )
            if found.opponent_id != user_id:
                raise PermissionDenied(N_("Only the challenged player can decline this challenge."))
            row = await tx.challenges.resolve_challenge(found.id, "declined", to_us(now))
        assert row is not None
        return convert.challenge(row)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws their challenge."""
        check_id(challenge_id, "challenge id")
        check_id(user_id, "user id")
        now = self._now()
        async with self._write() as tx:
            row = await tx.challenges.challenge(challenge_id)
            if row is None:
                raise ChallengeNotFound(N_("That challenge doesn't exist."))
            if row.challenger_id != user_id:
                raise PermissionDenied(N_("Only the challenger can cancel this challenge."))
            if row.status != "open":
                raise InvalidChallenge(already(row.status))
            resolved = await tx.challenges.resolve_challenge(row.id, "cancelled", to_us(now))
        assert resolved is not None
        row = resolved
        return convert.challenge(row)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """Raises ChallengeNotFound."""
        check_id(challenge_id, "challenge id")
        async with self.store.read() as tx:
            row = await tx.challenges.challenge(challenge_id)
        if row is None:
            raise ChallengeNotFound(N_("That challenge doesn't exist."))
        return convert.challenge(row)

    async def record_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message the challenge was posted in, so that its buttons can refuse
        a press on any other message; False if it already has one (the first is kept).
        Raises ChallengeNotFound."""
        check_id(challenge_id, "challenge id")
        check_id(message_id, "message id")
        async with self.store.write() as tx:
            if await tx.challenges.record_challenge_message(challenge_id, message_id):
                return True
            if await tx.challenges.challenge(challenge_id) is None:
                raise ChallengeNotFound(N_("That challenge doesn't exist."))
        return False

    async def open_challenges(self, guild_id: int, user_id: int | None = None) -> list[Challenge]:
        """Unanswered challenges in a server; with ``user_id``: those by or to that user."""
        check_id(guild_id, "server id")
        check_optional_id(user_id, "user id")
        async with self.store.read() as tx:
            rows = await tx.challenges.open_challenges(guild_id, user_id)
        return [convert.challenge(r) for r in rows]

    async def pending_challenges(
        self,
        guild_id: int,
        user_id: int,
        limit: int = 25,
        *,
        after_id: int | None = None,
        before_id: int | None = None,
    ) -> list[Challenge]:
        """The challenges ``user_id`` can act on in a server, oldest first: theirs, those to
        them and open ones anyone may accept (none already past their expiry).  A page: those
        after the challenge ``after_id``, or the ``limit`` just before ``before_id``."""
        check_id(guild_id, "server id")
        check_id(user_id, "user id")
        check_limit(limit)
        check_optional_id(after_id, "challenge id")
        check_optional_id(before_id, "challenge id")
        if after_id is not None and before_id is not None:
            raise InvalidInput("Ask for the challenges after one id or before one, not both.")
        now = self._now()
        async with self.store.read() as tx:
            rows = await tx.challenges.challenges_for(
                guild_id, user_id, limit, after_id=after_id, before_id=before_id
            )
        found = [convert.challenge(r) for r in rows]
        return [c for c in found if now < c.expires_at]


MAX_NAME = 100
"""The longest display name kept (Discord's are at most 32 characters)."""


def checked_name(name: object) -> str | None:
    """A display name as stored: text of at most :data:`MAX_NAME` characters, or None."""
    if name is None:
        return None
    return check_text(name, "player name", MAX_NAME, InvalidChallenge)


def new_web_token() -> str:
    """A game page's key: 128 random bits (22 URL-safe characters), never derived from ids."""
    return secrets.token_urlsafe(16)


def checked_options(options: Mapping[str, str] | None) -> dict[str, str]:
    """Per-game options as stored: a few short strings, refused whole before anything is
    written so a bad front end cannot bloat rows or half-store a challenge."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidChallenge("Game options must be a mapping of names to text values.")
    if len(options) > MAX_OPTIONS:
        raise InvalidChallenge(
            N_("A challenge can have at most {most} game options, not {options_count}."),
            most=MAX_OPTIONS,
            options_count=len(options),
        )
    checked: dict[str, str] = {}
    for key, value in options.items():
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_OPTION_KEY:
            raise InvalidChallenge(
                N_("Game option names must be text of 1 to {most} characters, not {key}."),
                most=MAX_OPTION_KEY,
                key=repr(key),
            )
        if not isinstance(value, str) or len(value) > MAX_OPTION_VALUE:
            raise InvalidChallenge(
                N_("Game option {key} must be text of at most {most} characters."),
                key=repr(key),
                most=MAX_OPTION_VALUE,
            )
        checked[key] = value
    return checked


PIE_GAMES_TEXT = "Minefield, Clearcut and Naked Diagonal"


def pie_options(cls: type[Game], options: dict[str, str], pie: bool | None) -> dict[str, str]:
    """``options`` with the pie choice as stored: ``pie: on`` for a game that takes the option
    and has it chosen, nothing otherwise (the rule sheet's choice: Clear Path always has the
    pie rule, the others not).  A ``pie`` already in ``options`` (``on`` or ``off``) counts as
    the choice too.  Raises InvalidChallenge for a choice the game cannot make."""
    options = dict(options)
    stored = options.pop(PIE_OPTION, None)
    if pie is not None and not isinstance(pie, bool):
        raise InvalidChallenge(
            N_("The pie option must be true or false, not {pie}."), pie=quote(pie)
        )
    if stored is not None:
        if stored not in (PIE_ON, "off"):
            raise InvalidChallenge(
                N_("The pie option must be on or off, not {stored}."), stored=quote(stored)
            )
        if pie is not None and pie != (stored == PIE_ON):
            raise InvalidChallenge(N_("The pie option was given twice, with different values."))
        pie = stored == PIE_ON
    if pie is None:
        return options
    if cls.pie_rule == "never" and pie:
        raise InvalidChallenge(
            N_("{title} has no pie rule: the pie option is for {games}."),
            title=cls.title,
            games=PIE_GAMES_TEXT,
        )
    if cls.pie_rule == "always" and not pie:
        raise InvalidChallenge(
            N_("{title} is always played with the pie rule: it can't be turned off."),
            title=cls.title,
        )
    if pie and cls.pie_rule == "option":
        options[PIE_OPTION] = PIE_ON
    return options


ALREADY = {
    "accepted": N_("That challenge was already accepted."),
    "declined": N_("That challenge was already declined."),
    "cancelled": N_("That challenge was already cancelled."),
    "expired": N_("That challenge has expired."),
}
"""Why a challenge can't be answered: one whole sentence per state, to translate."""


def already(status: str) -> Wording:
    return Wording(ALREADY.get(status, ALREADY["cancelled"]))
