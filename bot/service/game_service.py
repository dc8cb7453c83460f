"""The game service: every rule of play around the engine, over plain ids and a SQLite store.

Front ends (Discord, the console) call these coroutines and turn the frozen results into
messages.  Every state change runs in one ``BEGIN IMMEDIATE`` transaction that checks the
game's version, so two racing commands can never both succeed against the same turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime

from rules import Game

from ..store import Store
from .types import (
    AuditEntry,
    Challenge,
    DueAction,
    DueOutcome,
    FirstChoice,
    GameEnded,
    GameInfo,
    GameRecord,
    GameStarted,
    GuildSettings,
    MoveResult,
    TakebackAnswer,
    TakebackRequest,
    TimeControl,
)

_UNSET: object = object()


class GameService:
    """Challenges, games, clocks and moderation.  Knows nothing of Discord.

    ``clock`` returns the current time as an aware UTC datetime (inject a fake in tests);
    ``rng`` decides random first players.  Admin methods trust the caller to have checked
    that ``actor_id`` is a server admin; they record who acted in the audit log.
    """

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        raise NotImplementedError

    # ----- challenges ---------------------------------------------------------------------
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
    ) -> Challenge:
        """Create a direct (``opponent_id``) or open (None) challenge.

        ``size``/``time_control`` default to the server's settings, then the game's default.
        Raises InvalidChallenge (self-challenge, unknown game, size the game does not allow,
        channel not allowed), InvalidTimeControl, ChannelBusy (no threads and the channel
        already has a game).
        """
        raise NotImplementedError

    async def accept_challenge(
        self, challenge_id: int, user_id: int, game_channel_id: int | None = None
    ) -> GameStarted:
        """Accept and start the game in ``game_channel_id`` (a thread; default: the channel).

        Raises ChallengeNotFound, ChallengeExpired, InvalidChallenge (not open any more, own
        challenge), PermissionDenied (a direct challenge to someone else), ChannelBusy.
        """
        raise NotImplementedError

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines a direct challenge."""
        raise NotImplementedError

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws their challenge."""
        raise NotImplementedError

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """Raises ChallengeNotFound."""
        raise NotImplementedError

    async def open_challenges(self, guild_id: int, user_id: int | None = None) -> list[Challenge]:
        """Unanswered challenges in a server; with ``user_id``: those by or to that user."""
        raise NotImplementedError

    # ----- play ---------------------------------------------------------------------------
    async def play_move(
        self, channel_id: int, user_id: int, move: str, expected_version: int | None = None
    ) -> MoveResult:
        """Play ``move`` (a point like ``c3``, or ``swap``) for ``user_id`` in the channel's game.

        Raises NoGameHere, GameFinished, NotAPlayer, StaleAction, OutOfTime (recorded),
        NotYourTurn, IllegalMoveError (engine message).
        """
        raise NotImplementedError

    async def swap(
        self, channel_id: int, user_id: int, expected_version: int | None = None
    ) -> MoveResult:
        """Clear Path's pie rule: the second player takes over the first colour."""
        return await self.play_move(channel_id, user_id, "swap", expected_version)

    async def resign(
        self, channel_id: int, user_id: int, expected_version: int | None = None
    ) -> GameEnded:
        """Either player may resign at any time while the game is active."""
        raise NotImplementedError

    async def request_takeback(self, channel_id: int, user_id: int) -> TakebackRequest:
        """Ask the opponent to undo the requester's own last turn (the last turn only).

        Raises NoTakeback if the last turn was not the requester's, nothing was played, or a
        request is already pending.
        """
        raise NotImplementedError

    async def answer_takeback(self, channel_id: int, user_id: int, accept: bool) -> TakebackAnswer:
        """The opponent accepts (the turn is undone) or declines the pending request."""
        raise NotImplementedError

    # ----- queries ------------------------------------------------------------------------
    async def get_game(self, channel_id: int) -> GameInfo | None:
        """The active game in a channel or thread, if any."""
        raise NotImplementedError

    async def get_game_by_id(self, game_id: int) -> GameInfo:
        """Any game, active or not.  Raises NoGameHere."""
        raise NotImplementedError

    async def games_for_player(
        self, guild_id: int, user_id: int, active_only: bool = False, limit: int = 25
    ) -> list[GameInfo]:
        """A player's games in a server, most recently updated first."""
        raise NotImplementedError

    async def active_games(self, guild_id: int) -> list[GameInfo]:
        raise NotImplementedError

    async def game_record(self, game_id: int) -> GameRecord:
        """Full record: every move with who and when, plus takebacks and endings."""
        raise NotImplementedError

    async def position(self, game_id: int) -> Game:
        """A fresh rules-engine ``Game`` at the stored position (for rendering; yours to mutate)."""
        raise NotImplementedError

    # ----- moderation and settings --------------------------------------------------------
    async def admin_abort(
        self, guild_id: int, actor_id: int, channel_id: int, reason: str = ""
    ) -> GameEnded:
        """End the channel's game with no result."""
        raise NotImplementedError

    async def admin_award(
        self, guild_id: int, actor_id: int, channel_id: int, winner_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``winner_id`` (a player) the winner."""
        raise NotImplementedError

    async def admin_forfeit(
        self, guild_id: int, actor_id: int, channel_id: int, loser_id: int, reason: str = ""
    ) -> GameEnded:
        """Declare ``loser_id`` (a player) the loser by forfeit."""
        raise NotImplementedError

    async def audit_log(self, guild_id: int, limit: int = 50) -> list[AuditEntry]:
        raise NotImplementedError

    async def get_settings(self, guild_id: int) -> GuildSettings:
        raise NotImplementedError

    async def update_settings(
        self,
        guild_id: int,
        actor_id: int,
        *,
        allowed_channels: Sequence[int] | None = None,
        use_threads: bool | None = None,
        default_time_control: TimeControl | str | None = None,
        default_sizes: dict[str, int | None] | None = None,
        challenge_expiry: int | None = None,
    ) -> GuildSettings:
        """Change the given settings (None leaves one as it is); audited.

        ``default_sizes`` merges: ``{"minefield": 11}`` sets one, ``{"minefield": None}``
        clears it.
        """
        raise NotImplementedError

    # ----- clocks -------------------------------------------------------------------------
    async def due(self, now: datetime | None = None, limit: int = 100) -> list[DueAction]:
        """Reminders, losses on time and challenge expiries due at ``now`` (default: clock)."""
        raise NotImplementedError

    async def apply_due(self, action: DueAction) -> DueOutcome | None:
        """Carry out a due action; None if it no longer applies (a move was made meanwhile)."""
        raise NotImplementedError

    async def run_due(self, now: datetime | None = None) -> list[DueOutcome]:
        """``due`` then ``apply_due`` for each; the outcomes that applied."""
        raise NotImplementedError

    async def next_due_at(self) -> datetime | None:
        """The earliest future deadline, reminder or expiry, so a scheduler can sleep."""
        raise NotImplementedError
