"""Ratings as players and admins see them: the leaderboard, a player's profile, an admin's
reset, and the rebuild of every rating from the games (``crosspath ratings rebuild``).

Ratings change only inside the transaction that finishes a game (:mod:`.apply`);
everything here reads them, except the audited reset and the rebuild.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import cast

from rules import UnknownGame, split_variant
from rules.base import PIE_OPTION
from rules.errors import N_

from ...store import RatingHistoryRow, RatingRow
from .. import convert
from ..checks import MAX_GAME_NAME, check_id, check_limit, check_text, quote
from ..convert import from_us, to_us
from ..core import Feature
from ..errors import InvalidInput, NoGameHere
from ..types import ResultReason
from .apply import rating_of, rating_pool, rebuilt, recent_outcome
from .model import (
    display_rating,
    display_uncertainty,
    game_profile,
    is_provisional,
    standing_of,
    unrated_text,
)
from .types import (
    GameProfile,
    GameRating,
    Profile,
    RatingLine,
    RatingPoint,
    RecentGame,
    Standing,
    UnratedReason,
)

MAX_OFFSET = 1_000_000
PROFILE_HISTORY = 200
"""Rating-history points a profile carries per game (the newest ones)."""
PROFILE_RECENT = 10
"""Finished games a profile lists."""


@dataclass(frozen=True, slots=True)
class RebuildReport:
    """What ``rebuild_ratings`` did: games replayed, ratings written, and how many of them
    differed from the stored ones (0 when incremental updates and the rebuild agree)."""

    games: int
    players: int
    changed: int
    history: int


def check_game(name: object) -> str:
    """A rating pool's name from what a user typed: a game's registry name, or a variant
    such as ``minefield+pie`` (games with the pie rule chosen are rated apart; see
    :func:`.apply.rating_pool`).  ``InvalidInput`` if unknown."""
    check_text(name, "game name", MAX_GAME_NAME)
    assert isinstance(name, str)
    try:
        cls, pie = split_variant(name)
    except UnknownGame as exc:
        raise InvalidInput(N_("There is no game called {name}."), name=quote(name)) from exc
    return f"{cls.name}+{PIE_OPTION}" if pie else cls.name


def _point(row: RatingHistoryRow) -> RatingPoint:
    return RatingPoint(
        game_id=row.game_id,
        at=from_us(row.at),
        rating=display_rating(row.mu_after),
        uncertainty=display_uncertainty(row.sigma_after),
    )


class Ratings(Feature):
    """Leaderboards, profiles, and the ratings maintenance admins and the CLI need."""

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 25, offset: int = 0
    ) -> list[Standing]:
        """One page of a server's leaderboard for ``game``: highest rating first (then more
        games, then the lower user id), players without rated games left out; ``rank``
        counts from 1 over the whole board.  Raises InvalidId, InvalidInput."""
        check_id(guild_id, "server id")
        name = check_game(game)
        check_limit(limit)
        if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= MAX_OFFSET:
            raise InvalidInput(
                N_("The offset must be a whole number from 0 to {most}."),
                most=MAX_OFFSET,
            )
        async with self.store.read() as tx:
            rows = await tx.ratings.leaderboard(guild_id, name, limit, offset)
        return standings_of(rows, offset)

    async def profile(
        self,
        guild_id: int,
        user_id: int,
        *,
        history_limit: int = PROFILE_HISTORY,
        recent_limit: int = PROFILE_RECENT,
    ) -> Profile:
        """A player's ratings in every game of a server (rating, rank, record, streaks and
        the last ``history_limit`` rating points each) and their last finished games, each
        with its rating change or why it was unrated.  Raises InvalidId, InvalidInput."""
        check_id(guild_id, "server id")
        check_id(user_id, "user id")
        check_limit(history_limit, "history limit")
        check_limit(recent_limit, "recent games limit")
        async with self.store.read() as tx:
            settings = convert.settings(await tx.moderation.settings(guild_id), guild_id)
            ratings = await tx.ratings.player_ratings(guild_id, user_id)
            games: list[GameProfile] = []
            for row in ratings:
                rank = await tx.ratings.rank_of(row)
                history = await tx.ratings.rating_history(
                    guild_id, user_id, row.game, history_limit
                )
                games.append(
                    game_profile(
                        row.game, user_id, rating_of(row), rank, [_point(h) for h in history]
                    )
                )
            finished = await tx.games.finished_games_for_player(guild_id, user_id, recent_limit)
            changes = {
                h.game_id: h
                for h in await tx.ratings.rating_changes(user_id, [g.id for g in finished])
            }
        recent = []
        for game in finished:
            change = changes.get(game.id)
            recent.append(
                RecentGame(
                    game_id=game.id,
                    game=game.game,
                    channel_id=game.channel_id,
                    opponent_id=game.second_id if game.first_id == user_id else game.first_id,
                    outcome=recent_outcome(game, user_id),
                    reason=cast(ResultReason, game.result_reason or "abort"),
                    finished_at=from_us(game.finished_at or game.updated_at),
                    rated=change is not None,
                    rating_after=None if change is None else display_rating(change.mu_after),
                    change=None
                    if change is None
                    else round(display_rating(change.mu_after))
                    - round(display_rating(change.mu_before)),
                    unrated_reason=None
                    if change is not None
                    else cast(UnratedReason | None, game.unrated_reason),
                )
            )
        return Profile(
            guild_id=guild_id,
            user_id=user_id,
            ratings_enabled=settings.ratings_enabled,
            games=tuple(games),
            recent=tuple(recent),
        )

    async def game_rating(self, game_id: int) -> GameRating | None:
        """What a finished game did to ratings, as its game-over message shows it (the same
        :class:`GameRating` the ending returned; read back from the history, so a board
        posted again after a restart shows it too).  None while the game is active.  Raises
        InvalidId, NoGameHere."""
        check_id(game_id, "game id")
        async with self.store.read() as tx:
            row = await tx.games.game(game_id)
            if row is None:
                raise NoGameHere(N_("There is no game number {game_id}."), game_id=game_id)
            if row.status == "active":
                return None
            if row.rating_seq is None:
                reason = cast(UnratedReason, row.unrated_reason or "before_ratings")
                return GameRating(False, reason, unrated_text(reason))
            lines = []
            for user in (row.first_id, row.second_id):
                [change] = await tx.ratings.rating_changes(user, [row.id])
                pool = rating_pool(row.game, row.options)
                games = await tx.ratings.rated_games_until(row.guild_id, pool, user, row.rating_seq)
                lines.append(
                    RatingLine(
                        user_id=user,
                        before=round(display_rating(change.mu_before)),
                        after=round(display_rating(change.mu_after)),
                        rating=display_rating(change.mu_after),
                        uncertainty=display_uncertainty(change.sigma_after),
                        games=games,
                        provisional=is_provisional(games, change.sigma_after),
                    )
                )
        return GameRating(True, None, "rated", tuple(lines))

    async def ratings_reset(self, guild_id: int, game: str, actor_id: int) -> int:
        """Forget a server's ratings in one game (audited): every player starts again at
        1500, and the games played so far become unrated (``reset``), so a rebuild does not
        bring them back.  Returns how many players had a rating.  Raises InvalidId,
        InvalidInput."""
        check_id(guild_id, "server id")
        check_id(actor_id, "admin id")
        name = check_game(game)
        now = to_us(self._now())
        async with self._write() as tx:
            players = await tx.ratings.reset_ratings(guild_id, name)
            await tx.moderation.add_audit(
                guild_id=guild_id,
                actor_id=actor_id,
                action="ratings_reset",
                at=now,
                detail=f'{{"game": "{name}", "players": {players}}}',
            )
        return players

    async def rebuild_ratings(self) -> RebuildReport:
        """Recompute every rating and history row from the games that changed ratings, in
        ``rating_seq`` order, and store them (all servers and games, one transaction).  The
        computation runs off the event loop.  Raises the store's WriteConflict if games
        finished meanwhile (nothing is written; run it again)."""
        async with self.store.read() as tx:
            results = await tx.ratings.rated_results()
            before = {(r.guild_id, r.game, r.user_id): r for r in await tx.ratings.all_ratings()}
        ratings, history = await asyncio.to_thread(rebuilt, results)
        expect = (len(results), results[-1].rating_seq if results else None)
        await self.store.replace_ratings(ratings, history, expect=expect)
        changed = sum(1 for r in ratings if before.get((r.guild_id, r.game, r.user_id)) != r) + len(
            set(before) - {(r.guild_id, r.game, r.user_id) for r in ratings}
        )
        return RebuildReport(len(results), len(ratings), changed, len(history))


def standings_of(rows: list[RatingRow], offset: int = 0) -> list[Standing]:
    """Leaderboard rows as :class:`Standing` (ranks from ``offset + 1``)."""
    return [standing_of(r.user_id, rating_of(r), offset + i) for i, r in enumerate(rows, 1)]
