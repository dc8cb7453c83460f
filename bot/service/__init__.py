"""The game service: challenges, play, clocks and moderation over plain ids.

>>> from bot.store import Store
>>> from bot.service import GameService
>>> # store = await Store.open("crosspath.db"); service = GameService(store)

Front ends depend on this package only (plus ``bot.store`` to open the database).
"""

from __future__ import annotations

from ..store import ShardFilter
from .analysis import MAX_PER_PLAYER, MAX_PER_SERVER, StoredAnalysis, Viewer
from .challenge_types import Challenge, ChallengeStatus, FirstChoice, GameStarted
from .checks import quote
from .claims import CLAIM_SECONDS
from .clocks.timebank import short_duration, short_duration_wording, time_left_text
from .clocks.types import (
    DueAction,
    DueKind,
    DueOutcome,
    Reminder,
    SoftTimeNotice,
    TimeControl,
    format_duration,
)
from .clocks.vacations import PausedGame, Vacation
from .convert import pie_of
from .errors import (
    AnalysisRefused,
    ChallengeExpired,
    ChallengeNotFound,
    ChannelBusy,
    GameFinished,
    IllegalMoveError,
    InvalidChallenge,
    InvalidId,
    InvalidInput,
    InvalidSettings,
    InvalidTimeControl,
    NoAbort,
    NoGameHere,
    NoHint,
    NoTakeback,
    NotAPlayer,
    NotYourTurn,
    OutOfTime,
    PermissionDenied,
    PuzzleNotFound,
    PuzzleOver,
    ServiceError,
    SoftTimeRefused,
    StaleAction,
    VacationRefused,
    database_fault,
)
from .events import (
    EVENTS,
    AnalysisReady,
    Event,
    EventBus,
    GameOver,
    RoundPaired,
    SeasonOpened,
    TournamentFinished,
)
from .game_service import GameService
from .hints import HINT_SETTINGS, Hint
from .moderation_types import AuditEntry, GuildSettings
from .notices import DIGEST_BATCH, NOTICE_MODES, Digest, NoticeMode, NoticePrefs, Waiting
from .play.types import (
    AbortAnswer,
    AbortOffer,
    MoveEvent,
    MoveResult,
    TakebackAnswer,
    TakebackRequest,
)
from .puzzles import DailyPuzzle, DailySolution, PuzzleAnswer, PuzzleStanding, PuzzleView
from .ratings.model import unrated_wording
from .ratings.service import RebuildReport
from .ratings.types import GameRating, Profile, Standing
from .types import (
    GameEnded,
    GameInfo,
    GameRecord,
    GameResult,
    GameStatus,
    GameSummary,
    HistoryEvent,
    PlayedMove,
    ResultReason,
    Seat,
    SummaryPage,
)
from .web import ServedGame, ServedTournament, WebReads

__all__ = [
    "CLAIM_SECONDS",
    "NOTICE_MODES",
    "AbortAnswer",
    "AbortOffer",
    "AuditEntry",
    "Challenge",
    "ChallengeExpired",
    "ChallengeNotFound",
    "ChallengeStatus",
    "ChannelBusy",
    "DailyPuzzle",
    "DailySolution",
    "Digest",
    "DueAction",
    "DueKind",
    "DueOutcome",
    "FirstChoice",
    "GameEnded",
    "GameFinished",
    "GameInfo",
    "GameRecord",
    "GameResult",
    "GameService",
    "GameStarted",
    "GameStatus",
    "GameSummary",
    "GuildSettings",
    "HistoryEvent",
    "IllegalMoveError",
    "InvalidChallenge",
    "InvalidId",
    "InvalidInput",
    "InvalidSettings",
    "InvalidTimeControl",
    "MoveEvent",
    "MoveResult",
    "NoAbort",
    "NoGameHere",
    "NoTakeback",
    "NotAPlayer",
    "NotYourTurn",
    "NoticeMode",
    "NoticePrefs",
    "OutOfTime",
    "PausedGame",
    "PermissionDenied",
    "PlayedMove",
    "PuzzleAnswer",
    "PuzzleNotFound",
    "PuzzleOver",
    "PuzzleStanding",
    "PuzzleView",
    "Reminder",
    "ResultReason",
    "Seat",
    "ServiceError",
    "ShardFilter",
    "SoftTimeNotice",
    "SoftTimeRefused",
    "StaleAction",
    "SummaryPage",
    "TakebackAnswer",
    "TakebackRequest",
    "TimeControl",
    "Vacation",
    "VacationRefused",
    "Waiting",
    "database_fault",
    "format_duration",
]

# Tournaments and leagues (see bot/service/tournaments/service.py).
from .tournaments import TournamentError
from .tournaments.tables import PROVISIONAL_CHANNEL_BASE, is_provisional
from .tournaments.types import (
    PairingInfo,
    StandingRow,
    TournamentInfo,
    TournamentUpdate,
)

__all__ += [
    "PROVISIONAL_CHANNEL_BASE",
    "PairingInfo",
    "StandingRow",
    "TournamentError",
    "TournamentInfo",
    "TournamentUpdate",
    "is_provisional",
]

# What front ends show of clocks, the web's read models, and the service's events.

__all__ += [
    "DIGEST_BATCH",
    "EVENTS",
    "HINT_SETTINGS",
    "Event",
    "EventBus",
    "GameOver",
    "GameRating",
    "Hint",
    "NoHint",
    "Profile",
    "RebuildReport",
    "RoundPaired",
    "SeasonOpened",
    "ServedGame",
    "ServedTournament",
    "Standing",
    "TournamentFinished",
    "WebReads",
    "pie_of",
    "quote",
    "short_duration",
    "short_duration_wording",
    "time_left_text",
    "unrated_wording",
]

# Stored analyses (issue 48).
__all__ += [
    "MAX_PER_PLAYER",
    "MAX_PER_SERVER",
    "AnalysisReady",
    "AnalysisRefused",
    "StoredAnalysis",
    "Viewer",
]
