"""Applying ratings when a game ends, and recomputing them all (``crosspath ratings rebuild``).

Both sides go through the same helpers here and :func:`bot.service.ratings.model.apply_game`, in
the same order (``games.rating_seq``) and with the same inputs (the first seat as ``a``), so a
rebuild writes rows equal, floats bit for bit, to the incremental ones.

Concurrency: :func:`rate_result` runs inside the write block that finishes the game. It first
locks both players' rating rows (``tx.ratings.lock_ratings``: on PostgreSQL ``SELECT … FOR
UPDATE`` in user-id order after inserting missing rows; on SQLite ``BEGIN IMMEDIATE`` already
serialises every writer), only then takes the game's ``rating_seq``, reads the ratings, updates
them and writes the history, and the caller writes the game's result with that ``rating_seq``;
all of it commits or rolls back together. A second game finishing for one of the players waits
for the lock and reads the committed rating, so no update is lost, and its ``rating_seq`` is
larger, so a rebuild applies the two games in the order they really were."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import cast

from rules import Game
from rules.base import PIE_OPTION

from ...store import GameRow, RatedResult, RatingHistoryRow, RatingRow, ResultRow, Tx
from .. import convert
from ..types import ResultReason
from .model import (
    INITIAL_MU,
    INITIAL_SIGMA,
    RatedGame,
    Rating,
    RatingChange,
    apply_game,
    outcome_for,
    rated_verdict,
    unrated_text,
)
from .types import GameRating, Outcome, RatingLine, UnratedReason

_FLIP: dict[str, Outcome] = {"win": "loss", "loss": "win", "draw": "draw"}


def rating_pool(game: str, options: Iterable[tuple[str, str]]) -> str:
    """The pool a game is rated in: its rules variant, so a game with the pie rule chosen is
    rated apart from the rule sheet's game (``minefield+pie``).  A seat's chances differ
    between the two, so one rating across both would mean neither."""
    return f"{game}+{PIE_OPTION}" if convert.pie_of(options) else game


def against_computer(row: GameRow) -> bool:
    return convert.computer_game(row.options)


def turns_made(row: GameRow, game: Game) -> tuple[int, int]:
    """Whole turns each seat's user made (first seat's user, second's): a Clear Path chain is
    one turn; the swap is a turn of the user who made it, after which the users own the other
    colours."""
    first_colour = game.players[0]
    swapped = False
    turns: dict[int, set[int]] = {row.first_id: set(), row.second_id: set()}
    for record in game.history:
        first_owner = row.second_id if swapped else row.first_id
        second_owner = row.first_id if swapped else row.second_id
        user = first_owner if record.player == first_colour else second_owner
        turns[user].add(record.turn)
        if record.swap:
            swapped = not swapped
    return len(turns[row.first_id]), len(turns[row.second_id])


def rating_of(row: RatingRow) -> Rating:
    return Rating(
        mu=row.mu,
        sigma=row.sigma,
        wins=row.wins,
        losses=row.losses,
        draws=row.draws,
        streak=row.streak,
        best_streak=row.best_streak,
    )


def rating_row(
    guild_id: int, game: str, user_id: int, rating: Rating, seq: int, at: int
) -> RatingRow:
    return RatingRow(
        guild_id=guild_id,
        game=game,
        user_id=user_id,
        mu=rating.mu,
        sigma=rating.sigma,
        wins=rating.wins,
        losses=rating.losses,
        draws=rating.draws,
        games=rating.games,
        streak=rating.streak,
        best_streak=rating.best_streak,
        last_seq=seq,
        updated_at=at,
    )


def _rows_for(
    guild_id: int,
    game_name: str,
    game_id: int,
    seq: int,
    at: int,
    outcome: Outcome,
    change_a: RatingChange,
    change_b: RatingChange,
) -> tuple[list[RatingRow], list[RatingHistoryRow]]:
    """The two rating rows and two history rows one rated game writes (both paths)."""
    ratings = [
        rating_row(guild_id, game_name, c.user_id, c.after, seq, at) for c in (change_a, change_b)
    ]
    history = [
        RatingHistoryRow(
            game_id=game_id,
            user_id=mine.user_id,
            guild_id=guild_id,
            game=game_name,
            seq=seq,
            opponent_id=theirs.user_id,
            outcome=result,
            mu_before=mine.before.mu,
            sigma_before=mine.before.sigma,
            mu_after=mine.after.mu,
            sigma_after=mine.after.sigma,
            at=at,
        )
        for mine, theirs, result in (
            (change_a, change_b, outcome),
            (change_b, change_a, _FLIP[outcome]),
        )
    ]
    return ratings, history


def line_of(change: RatingChange) -> RatingLine:
    return RatingLine(
        user_id=change.user_id,
        before=change.before.shown,
        after=change.after.shown,
        rating=change.after.rating,
        uncertainty=change.after.uncertainty,
        games=change.after.games,
        provisional=change.after.provisional,
    )


def unrated(reason: UnratedReason) -> GameRating:
    return GameRating(False, reason, unrated_text(reason))


async def rate_result(
    tx: Tx, row: GameRow, game: Game, result: ResultRow, at: int
) -> tuple[ResultRow, GameRating]:
    """Decide whether the game ``result`` ends is rated and, if so, apply it to both players'
    ratings in ``tx`` (the transaction that writes ``result``).  Returns ``result`` with
    ``rated``/``unrated_reason``/``rating_seq`` filled in, and what players are shown."""
    settings = convert.settings(await tx.moderation.settings(row.guild_id), row.guild_id)
    verdict = rated_verdict(
        reason=cast(ResultReason, result.reason),
        ratings_enabled=settings.ratings_enabled,
        created_rated=row.rated,
        against_computer=against_computer(row),
        turns_made=turns_made(row, game),
    )
    if verdict.reason is not None:
        return (
            replace(result, rated=False, unrated_reason=verdict.reason, rating_seq=None),
            unrated(verdict.reason),
        )
    a, b = row.first_id, row.second_id
    pool_name = rating_pool(row.game, row.options)
    locked = await tx.ratings.lock_ratings(
        row.guild_id, pool_name, [a, b], initial=(INITIAL_MU, INITIAL_SIGMA), at=at
    )
    seq = await tx.ratings.next_rating_seq()  # after the locks: see the module notes
    current = {r.user_id: rating_of(r) for r in locked}
    outcome = outcome_for(result.winner_id, a, b)
    change_a, change_b = apply_game(current, RatedGame(a, b, outcome, row.id))
    ratings, history = _rows_for(
        row.guild_id, pool_name, row.id, seq, at, outcome, change_a, change_b
    )
    await tx.ratings.save_ratings(ratings)
    await tx.ratings.add_rating_history(history)
    return (
        replace(result, rated=True, unrated_reason=None, rating_seq=seq),
        GameRating(True, None, "rated", (line_of(change_a), line_of(change_b))),
    )


def rebuilt(results: Iterable[RatedResult]) -> tuple[list[RatingRow], list[RatingHistoryRow]]:
    """Every rating and history row from the rated games in ``rating_seq`` order: exactly
    what the incremental updates wrote (pure; run it off the event loop)."""
    pools: dict[tuple[int, str], dict[int, Rating]] = {}
    last: dict[tuple[int, str, int], RatingRow] = {}
    history: list[RatingHistoryRow] = []
    for game in results:
        pool_name = rating_pool(game.game, game.options)
        pool = pools.setdefault((game.guild_id, pool_name), {})
        a, b = game.first_id, game.second_id
        outcome = outcome_for(game.winner_id, a, b)
        change_a, change_b = apply_game(pool, RatedGame(a, b, outcome, game.game_id))
        pool[a] = change_a.after
        pool[b] = change_b.after
        ratings, rows = _rows_for(
            game.guild_id,
            pool_name,
            game.game_id,
            game.rating_seq,
            game.finished_at,
            outcome,
            change_a,
            change_b,
        )
        for rating in ratings:
            last[(rating.guild_id, rating.game, rating.user_id)] = rating
        history.extend(rows)
    return [last[key] for key in sorted(last)], history


def recent_outcome(row: GameRow, user_id: int) -> Outcome:
    """The game's result from ``user_id``'s side (no winner, an abort included: draw)."""
    if row.winner_id is None:
        return "draw"
    return "win" if row.winner_id == user_id else "loss"
