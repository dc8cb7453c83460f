"""Domain errors of the game service, each with a message written for the player who caused it.

``str(exc)`` is the English sentence (it never mentions Discord): logs, the console and tests
read it.  Each error also carries it as ``exc.wording`` (:class:`rules.errors.Wording`): a
template marked with ``N_`` for ``pybabel extract``, and its parameters (names, ids, points;
never formatted into the template), so a front end shows it in the reader's language with
``Tongue.refusal(exc)``.  Front ends may branch on the class to choose how to show it (for
example an ephemeral reply for :class:`NotYourTurn`).  A service call that raises has changed
nothing in the store, with one documented exception: :class:`OutOfTime` is raised after the
loss on time it reports has been recorded.

A few templates are not marked with ``N_``: those only a front end's bug or a broken stored
tournament can cause (a page cursor, a claimant, ``now`` not a datetime, a pairing that fits no
game).  No player can reach them, so translators are not asked for them; they read English.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.errors import N_ as N_  # re-exported: the service marks its templates with it
from rules.errors import Wording

from ..store.errors import ChannelTaken, StoreError, WriteConflict

if TYPE_CHECKING:
    from .types import GameEnded

QUOTE_LIMIT = 100
"""At most this many characters of what was given are quoted in a message."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters.

    Here, beside the errors, so that everything that words a refusal (the checks, and
    ``TimeControl.parse`` which front ends call before the service) quotes the same way.

    >>> quote("c3")
    "'c3'"
    >>> len(quote("x" * 5000)) <= 110
    True
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    return f"'{text}'"


class ServiceError(Exception):
    """Base of every refusal by the service.  ``str(exc)`` is a sentence for players, in
    English; ``wording`` is the same sentence to translate.

    ``template`` is marked with ``N_`` and filled from ``params``; a :class:`Wording` (an
    engine's refusal passed on) is taken as it is."""

    def __init__(self, template: str | Wording, /, **params: Any) -> None:
        self.wording = template if isinstance(template, Wording) else Wording(template, params)
        self.message = str(self.wording)
        super().__init__(self.message)


class InvalidInput(ServiceError):
    """An option or value a player typed is not acceptable (size, time control, settings)."""


class InvalidId(InvalidInput):
    """An id (user, server, channel, game, challenge) is missing, not a whole number, or
    outside 1..2^63-1: a front end passed something that cannot be an id."""


class InvalidChallenge(InvalidInput):
    """A challenge cannot be created or acted on as asked (self-challenge, bad size, ...)."""


class InvalidSettings(InvalidInput):
    """A server setting value is not acceptable."""


class InvalidTimeControl(InvalidInput):
    """A time control text such as ``3d`` or ``12h`` could not be read."""


class ChallengeNotFound(ServiceError):
    """No challenge with that id exists (in this server)."""


class ChallengeExpired(ServiceError):
    """The challenge ran past its expiry time; nobody can accept it any more."""


class ChannelBusy(ServiceError):
    """The channel (or thread) already has an active game; one game per channel."""


class NoGameHere(ServiceError):
    """There is no game in this channel (or with that id in this server)."""


class GameFinished(ServiceError):
    """The game has ended; the action needs an active game."""


class OutOfTime(GameFinished):
    """The player to move ran out of time.  The loss on time HAS been recorded.

    ``ended`` describes the finished game so the front end can announce the result.
    """

    def __init__(self, template: str | Wording, ended: GameEnded, /, **params: Any) -> None:
        super().__init__(template, **params)
        self.ended = ended


class NotAPlayer(ServiceError):
    """The user is not one of the two players of this game (or challenge)."""


class NotYourTurn(ServiceError):
    """The user is a player, but it is the opponent's turn."""


class IllegalMoveError(ServiceError):
    """The rules engine refused the move; the message is the engine's own explanation."""

    def __init__(self, template: str | Wording, move: str, /, **params: Any) -> None:
        super().__init__(template, **params)
        self.move = move


class StaleAction(ServiceError):
    """The action was made against an older state (an old button); nothing was changed."""


class PermissionDenied(ServiceError):
    """The user may not do this (cancel someone else's challenge, answer their own request)."""


class VacationRefused(ServiceError):
    """A vacation can't start or end (one running, none running, no days left, a clock
    already out of time)."""


class SoftTimeRefused(ServiceError):
    """A soft-time claim that does not apply (a timed game, your own turn, not long enough)."""


class AnalysisRefused(ServiceError):
    """A game's analysis cannot be given or started: the game is still running (analysis must
    never help a game being played), was aborted or has no move, or the server's or the
    player's queue of analyses is full."""


class NoTakeback(ServiceError):
    """A takeback cannot be requested or answered now."""


def database_fault(error: BaseException) -> str | None:
    """The store's own sentence when ``error`` says the database itself failed, else None.

    A fault is an operational store error reaching the caller as it is (the database is down,
    full, damaged, locked, read-only or closed): nothing of the failed call was recorded, and
    no player caused it.  The store's refusals (``WriteConflict``, ``ChannelTaken``) never
    count: the service turns them into :class:`StaleAction` and :class:`ChannelBusy`.  Front
    ends ask this instead of importing ``bot.store``, to tell players the database is
    unavailable and log the sentence for the operator, with no traceback (it is no bug).

    >>> from bot.store.errors import DiskFull
    >>> database_fault(DiskFull("the disk holding the database is full"))
    'the disk holding the database is full'
    >>> database_fault(KeyError("boom")) is None
    True
    """
    if isinstance(error, StoreError) and not isinstance(error, WriteConflict | ChannelTaken):
        return str(error)
    return None


class NoHint(ServiceError):
    """A hint is refused: the game does not allow hints (a rated game never does), or the
    position moved on while the computer thought (ask again)."""


class NoAbort(ServiceError):
    """An abort cannot be made, offered or answered now (no offer waiting, one already
    waiting, or both players have made two turns and the opponent must agree)."""


class PuzzleNotFound(ServiceError):
    """No such puzzle or puzzle attempt, or it belongs to someone else; nothing was changed."""


class PuzzleOver(ServiceError):
    """The puzzle attempt is finished (solved, failed, given up) or expired."""
