"""Turning stored rows plus a live engine into the service's frozen domain objects.

Kept apart from the service so the rules of play read without conversion noise.  Times are
stored as integer microseconds since the epoch; here they become aware UTC datetimes.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import cast

from rules import Game, MoveRecord, game_class, new_game
from rules.base import PIE_OPTION, pie_title

from ..store import AuditRow, ChallengeRow, GameRow, SettingsRow
from .challenge_types import Challenge, ChallengeStatus, FirstChoice
from .clocks.timebank import live_pause, stored, time_control_from, time_left
from .moderation_types import AuditEntry, GuildSettings
from .play.types import MoveEvent, TakebackRequest
from .types import (
    OUTSIDE_SERVERS,
    VENUE_OPTION,
    GameInfo,
    GameResult,
    GameStatus,
    GameSummary,
    ResultReason,
    Seat,
)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_us(moment: datetime) -> int:
    """Exact integer microseconds since the epoch; naive datetimes are taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(us: int) -> datetime:
    return EPOCH + timedelta(microseconds=us)


def maybe_dt(us: int | None) -> datetime | None:
    return None if us is None else from_us(us)


def title_of(game: str, options: Iterable[tuple[str, str]] = ()) -> str:
    """The title players see: the game's, marked when the pie rule was chosen."""
    title = game_class(game).title
    return pie_title(title) if pie_of(options) else title


def settings(row: SettingsRow | None, guild_id: int) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id)
    return GuildSettings(
        guild_id=row.guild_id,
        allowed_channels=row.allowed_channels,
        use_threads=row.use_threads,
        default_time_control=time_control_from(row),
        default_sizes=row.default_sizes,
        challenge_expiry=row.challenge_expiry,
        ratings_enabled=row.ratings_enabled,
        **{
            name: value
            for name, value in (("vacation_days", row.vacation_days), ("soft_time", row.soft_time))
            if value is not None
        },
        web_listing=row.web_listing,
        language=row.language,
    )


def settings_row(settings: GuildSettings, updated_at: int) -> SettingsRow:
    """The stored form of a server's settings (the time control is the columns of
    :func:`~.timebank.stored`)."""
    return SettingsRow(
        guild_id=settings.guild_id,
        allowed_channels=settings.allowed_channels,
        use_threads=settings.use_threads,
        **stored(settings.default_time_control),
        default_sizes=settings.default_sizes,
        challenge_expiry=settings.challenge_expiry,
        updated_at=updated_at,
        ratings_enabled=settings.ratings_enabled,
        vacation_days=settings.vacation_days,
        soft_time=settings.soft_time,
        web_listing=settings.web_listing,
        language=settings.language,
    )


def challenge(row: ChallengeRow) -> Challenge:
    return Challenge(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        challenger_id=row.challenger_id,
        opponent_id=row.opponent_id,
        game=row.game,
        title=title_of(row.game, row.options),
        size=row.size,
        first=cast(FirstChoice, row.first),
        time_control=time_control_from(row),
        status=cast(ChallengeStatus, row.status),
        created_at=from_us(row.created_at),
        expires_at=from_us(row.expires_at),
        game_id=row.game_id,
        accepted_by=row.accepted_by,
        options=dict(row.options),
        rated=row.rated,
        message_id=row.message_id,
        public=row.public,
        challenger_name=row.challenger_name,
    )


PIE_ON = "on"
"""The stored value of the ``pie`` game option: a game of Minefield, Clearcut or Naked
Diagonal played with the pie rule (Clear Path always has it, so its games never store it)."""


def pie_of(options: Iterable[tuple[str, str]]) -> bool | None:
    """The pie choice stored in a game's or challenge's options (a row's pairs, or a dict's
    ``items()``): True, or None (the rule sheet's own choice)."""
    return True if dict(options).get(PIE_OPTION) == PIE_ON else None


def engine(game: str, size: int, options: Iterable[tuple[str, str]]) -> Game:
    """A fresh engine for a stored game or challenge, with its pie choice."""
    return new_game(game, size, pie=pie_of(options))


def swapped(game: Game) -> bool:
    """True when Clear Path's swap has exchanged who owns which colour (derived from moves)."""
    return sum(1 for r in game.history if r.swap) % 2 == 1


def seats(row: GameRow, game: Game) -> tuple[Seat, Seat]:
    first, second = game.players
    a, b = (row.second_id, row.first_id) if swapped(game) else (row.first_id, row.second_id)
    return (Seat(a, first), Seat(b, second))


def user_of(seat_pair: tuple[Seat, Seat], colour: str | None) -> int | None:
    for seat in seat_pair:
        if seat.colour == colour:
            return seat.user_id
    return None


def result(row: GameRow) -> GameResult | None:
    if row.result_reason is None:
        return None
    return GameResult(
        reason=cast(ResultReason, row.result_reason),
        winner_id=row.winner_id,
        winner_colour=row.winner_colour,
        loser_id=row.loser_id,
        loser_colour=row.loser_colour,
        actor_id=row.result_actor,
        rated=row.rated,
        unrated_reason=row.unrated_reason,
    )


def game_info(row: GameRow, game: Game, now: int | None = None) -> GameInfo:
    """The game as stored; ``time_left`` as at ``now`` (microseconds; default: the row's
    last change, which is now for a row just written)."""
    pair = seats(row, game)
    moment = row.updated_at if now is None else now
    active = row.status == "active"
    colour = game.to_move if active else None
    takeback = None
    if row.takeback_by is not None and row.takeback_at is not None:
        takeback = TakebackRequest(
            row.takeback_by, from_us(row.takeback_at), row.takeback_version or 0
        )
    return GameInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        title=game.variant_title,
        size=row.size,
        status=cast(GameStatus, row.status),
        seats=pair,
        to_move_colour=colour,
        to_move_id=user_of(pair, colour),
        turn_number=game.turn_number,
        version=row.version,
        record=game.record(),
        moves=tuple(game.moves),
        time_control=time_control_from(row),
        turn_started_at=from_us(row.turn_started_at),
        deadline=maybe_dt(row.deadline_at),
        takeback=takeback,
        result=result(row),
        created_at=from_us(row.created_at),
        updated_at=from_us(row.updated_at),
        challenge_id=row.challenge_id,
        options=dict(row.options),
        rated=row.rated,
        tournament_id=row.tournament_id,
        time_left=time_left(row, moment),
        paused_until=maybe_dt(live_pause(row.paused_until, moment)),
        public=row.public,
        web_token=row.web_token,
        names=names(row),
        hints=hint_counts(row),
    )


COMPUTER_OPTIONS = ("ai_level", "console_computer_seat")
"""Game options that mark a game against the computer.  Every front end that seats the
computer stores one of them (the Discord adapter and the console store ``ai_level``, the
console also ``console_computer_seat``), so the service needs no user id for the computer."""
HINTS_OPTION = "hints"
"""The option a challenge with ``hints=True`` stores (``on``): its game allows hints and is
unrated (issue 48)."""


def computer_game(options: Iterable[tuple[str, str]]) -> bool:
    return any(key in COMPUTER_OPTIONS for key, _ in options)


def hints_allowed(row: GameRow) -> bool:
    """Whether the game allows hints: its challenge said ``hints``, or it is against the
    computer (never rated).  A rated game with neither never does."""
    if computer_game(row.options):
        return True
    # ``rated`` too: a row written by hand with the option on a rated game gets no hints.
    return dict(row.options).get(HINTS_OPTION) == "on" and not row.rated


def hint_counts(row: GameRow) -> dict[int, int] | None:
    """Each player's hints by user id, for a game that allows them (else None)."""
    if not hints_allowed(row):
        return None
    return {row.first_id: row.first_hints, row.second_id: row.second_hints}


def names(row: GameRow) -> dict[int, str]:
    """The players' stored display names by user id (those known)."""
    stored = ((row.first_id, row.first_name), (row.second_id, row.second_name))
    return {user: name for user, name in stored if name is not None}


def summary(row: GameRow, now: int | None = None) -> GameSummary:
    """A list entry from the stored columns alone (``time_left`` as in ``game_info``)."""
    active = row.status == "active"
    return GameSummary(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        game=row.game,
        title=title_of(row.game, row.options),
        size=row.size,
        status=cast(GameStatus, row.status),
        first_id=row.first_id,
        second_id=row.second_id,
        to_move_id=row.to_move_id if active else None,
        to_move_colour=row.to_move if active else None,
        deadline=maybe_dt(row.deadline_at),
        updated_at=from_us(row.updated_at),
        result=result(row),
        version=row.version,
        time_left=time_left(row, row.updated_at if now is None else now),
        outside_servers=dict(row.options).get(VENUE_OPTION) == OUTSIDE_SERVERS,
    )


def move_event(rec: MoveRecord, user_id: int, pair: tuple[Seat, Seat]) -> MoveEvent:
    return MoveEvent(
        ply=rec.ply,
        turn=rec.turn,
        move=rec.move,
        colour=rec.player,
        user_id=user_id,
        point=rec.point,
        swap=rec.swap,
        continues=rec.continues,
        flipped=rec.flipped,
        removed=rec.removed,
        stays=rec.stays,
        skipped_colour=rec.skipped,
        skipped_id=user_of(pair, rec.skipped),
        winner_colour=rec.winner,
        draw=rec.draw,
    )


def audit(row: AuditRow) -> AuditEntry:
    return AuditEntry(
        id=row.id,
        guild_id=row.guild_id,
        actor_id=row.actor_id,
        action=row.action,
        game_id=row.game_id,
        target_id=row.target_id,
        detail=row.detail,
        at=from_us(row.at),
    )
