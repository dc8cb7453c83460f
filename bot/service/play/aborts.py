"""Aborts by the players: alone early in a game, by agreement at any time.

Early on (before each side has made :data:`ALONE_TURNS` whole turns) either player may abort
alone, as on chess sites: a game abandoned at the start should not sit on a channel or a
record.  After that an abort needs the opponent's yes: one player offers, the other accepts or
declines.  An aborted game is unrated and recorded with the reason ``abort``.

An offer is a game event (``abort_offered``, its detail naming the version it was made at), not
a column of the game: it changes nothing about the position, and the game's version is what
makes it stale.  Any move, swap or takeback bumps the version, so an offer made before it can
no longer be accepted; accepting is the versioned write that ends the game, so an accept
racing a move (or a second accept) succeeds at most once.  A declined offer cannot be repeated
at the same position, so the opponent is not pinged again until the game moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules import Game
from rules.errors import N_

from ...store import GameRow, Tx
from .. import convert
from ..checks import check_bool, check_version
from ..convert import to_us
from ..core import Feature
from ..errors import NoAbort, PermissionDenied, StaleAction
from ..ratings.apply import turns_made
from ..types import GameEnded
from .types import AbortAnswer, AbortOffer

ALONE_TURNS = 2
"""While either player has made fewer whole turns than this, either may abort alone."""

OFFERED = "abort_offered"
DECLINED = "abort_declined"
_VERSION_PREFIX = "at version "


@dataclass(frozen=True, slots=True)
class _OfferState:
    """The abort offer events of one game, as they stand at its current version."""

    pending: AbortOffer | None
    declined: bool
    """An offer at this version was already declined."""


def _version_of(detail: str) -> int | None:
    if not detail.startswith(_VERSION_PREFIX):
        return None
    digits = detail[len(_VERSION_PREFIX) :]
    return int(digits) if digits.isdigit() else None


async def _offer_state(tx: Tx, row: GameRow, game: Game) -> _OfferState:
    pending: AbortOffer | None = None
    declined = False
    for event in await tx.games.events(row.id):
        if event.kind not in (OFFERED, DECLINED) or _version_of(event.detail) != row.version:
            continue
        if event.kind == DECLINED:
            pending, declined = None, True
        elif event.user_id is not None:
            info = convert.game_info(row, game)
            pending = AbortOffer(event.user_id, row.version, info)
    return _OfferState(pending, declined)


def may_abort_alone(row: GameRow, game: Game) -> bool:
    """True while either player has made fewer than :data:`ALONE_TURNS` whole turns."""
    return min(turns_made(row, game)) < ALONE_TURNS


class Aborts(Feature):
    """A player's abort: alone early on, else an offer the opponent answers."""

    async def _abort_now(
        self, tx: Tx, row: GameRow, game: Game, now: datetime, user_id: int, detail: str
    ) -> tuple[GameRow, GameEnded]:
        return await self._finish(tx, row, game, "abort", now, actor_id=user_id, detail=detail)

    async def _offer(
        self, tx: Tx, row: GameRow, game: Game, now: datetime, user_id: int
    ) -> tuple[GameRow, AbortOffer]:
        state = await _offer_state(tx, row, game)
        if state.pending is not None:
            if state.pending.offered_by == user_id:
                raise NoAbort(N_("Your abort offer is already waiting for your opponent's answer."))
            raise NoAbort(
                N_("Your opponent has already offered to abort this game: accept their offer.")
            )
        if state.declined:
            raise NoAbort(
                N_(
                    "An abort was declined at this position; you can offer again after the "
                    "next move."
                )
            )
        await tx.games.add_event(
            row.id, to_us(now), OFFERED, user_id, f"{_VERSION_PREFIX}{row.version}"
        )
        return row, AbortOffer(user_id, row.version, convert.game_info(row, game))

    async def abort(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> GameEnded | AbortOffer:
        """Abort the channel's game at once while a player has made fewer than two turns;
        after that, offer the abort to the opponent and return the offer.

        Raises NoGameHere, GameFinished, NotAPlayer, StaleAction (``game_id`` is not the
        channel's game), OutOfTime (recorded), NoAbort (an offer is already waiting or was
        declined at this position).
        """

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, GameEnded | AbortOffer]:
            if may_abort_alone(row, game):
                return await self._abort_now(tx, row, game, now, user_id, "early abort")
            return await self._offer(tx, row, game, now, user_id)

        return await self._game_action(channel_id, user_id, None, act, game_id)

    async def abort_alone(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> GameEnded:
        """Abort the channel's game without the opponent, which only the start allows.

        Raises NoAbort once both players have made two turns (offer an abort instead), and
        what :meth:`abort` raises.
        """

        async def act(tx: Tx, row: GameRow, game: Game, now: datetime) -> tuple[GameRow, GameEnded]:
            if not may_abort_alone(row, game):
                raise NoAbort(
                    N_(
                        "Both players have made {turns} turns, so this game can only be "
                        "aborted if your opponent agrees: offer an abort instead."
                    ),
                    turns=ALONE_TURNS,
                )
            return await self._abort_now(tx, row, game, now, user_id, "early abort")

        return await self._game_action(channel_id, user_id, None, act, game_id)

    async def offer_abort(
        self, channel_id: int, user_id: int, *, game_id: int | None = None
    ) -> AbortOffer:
        """Offer the opponent to abort the game, at any point of it.

        Raises NoAbort if an offer is already waiting, or one was declined at this position,
        and what :meth:`abort` raises.
        """

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, AbortOffer]:
            return await self._offer(tx, row, game, now, user_id)

        return await self._game_action(channel_id, user_id, None, act, game_id)

    async def answer_abort(
        self,
        channel_id: int,
        user_id: int,
        accept: bool,
        *,
        version: int,
        game_id: int | None = None,
    ) -> AbortAnswer:
        """The opponent accepts (the game ends, aborted and unrated) or declines the offer
        made at ``version``.

        Raises StaleAction (the game moved since the offer, or ``game_id`` is not the
        channel's game), NoAbort (no offer waiting at that version), PermissionDenied (your
        own offer), and NoGameHere, GameFinished, NotAPlayer, OutOfTime.
        """
        check_bool(accept, "abort answer")
        check_version(version)

        async def act(
            tx: Tx, row: GameRow, game: Game, now: datetime
        ) -> tuple[GameRow, AbortAnswer]:
            if row.version != version:
                raise StaleAction(
                    N_(
                        "That abort offer is out of date: the game has moved on since. Offer "
                        "again if you both still want to stop."
                    )
                )
            offer = (await _offer_state(tx, row, game)).pending
            if offer is None:
                raise NoAbort(N_("There is no abort offer waiting for an answer."))
            if offer.offered_by == user_id:
                raise PermissionDenied(N_("You can't answer your own abort offer."))
            if accept:
                row, ended = await self._abort_now(tx, row, game, now, user_id, "by agreement")
                return row, AbortAnswer(True, offer.offered_by, user_id, ended.game, ended)
            await tx.games.add_event(
                row.id, to_us(now), DECLINED, user_id, f"{_VERSION_PREFIX}{version}"
            )
            info = convert.game_info(row, game)
            return row, AbortAnswer(False, offer.offered_by, user_id, info)

        return await self._game_action(channel_id, user_id, None, act, game_id)
