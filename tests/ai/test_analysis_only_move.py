""" "Only move": a proven-won position where exactly one legal move keeps the win.  Checked
against an independent exact solve of every legal move, in random late 5×5 Minefield games."""

from __future__ import annotations

import random

from ai.analysis import Settings, analyse, judge
from ai.endgame import Endgame, Verdict, empty_points
from rules import Game, new_game

SMALL = Settings(playouts=30)


def winning_moves(game: Game) -> list[str]:
    """The mover's moves that keep a forced win, each decided by a full solve."""
    found = []
    for move in game.legal_moves():
        child = game.copy()
        child.play(move)
        if child.is_over:
            keeps = child.winner == game.to_move
        else:
            verdict = Endgame(child, empty_points(child)).verdict(child, 10**7, None)
            same = child.to_move == game.to_move
            keeps = verdict is (Verdict.MOVER_WINS if same else Verdict.MOVER_LOSES)
        if keeps:
            found.append(move)
    return found


def test_only_move_agrees_with_an_exact_solve_of_every_move() -> None:
    rng = random.Random(3)
    checked = only = 0
    for _ in range(15):
        game = new_game("minefield", size=5)
        while not game.is_over:
            if empty_points(game) <= 10:
                judged = judge(game, SMALL, 0)
                if judged.proven == "win":
                    wins = winning_moves(game)
                    assert judged.only_move == (len(wins) == 1), (game.record(), wins)
                    if judged.only_move:
                        assert wins == [judged.best]
                    checked += 1
                    only += judged.only_move
            game.play(rng.choice(game.legal_moves()))
    assert checked > 20 and 0 < only < checked


def test_only_moves_reach_the_plies_and_the_summary() -> None:
    """A ply is an only move when its position was and the player kept the win."""
    rng = random.Random(5)
    for _ in range(20):
        game = new_game("minefield", size=5)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        result = analyse(game.record(), SMALL)
        for ply in result.moves:
            if ply.only_move:
                assert ply.proven_before == "win" and ply.proven_after == "win"
                assert ply.move == ply.best and ply.mark is None
        for player in result.players:
            assert player.only_move == sum(
                1 for p in result.moves if p.seat == player.seat and p.only_move
            )
        if any(p.only_move for p in result.moves):
            assert result.as_json()["moves"][0]["only_move"] in (True, False)  # type: ignore[index]
            return
    raise AssertionError("no only move in 20 random games")


def test_the_exact_table_of_a_solved_board_agrees_and_forgets_nothing_that_matters() -> None:
    """On a board with a shipped proof (the exact table, ``ai.exact_table``): the only-move
    answer agrees with a full solve of every move, the winning move shown is the first one in
    legal-move order, and a fresh table gives the same judgement as a used one (so a pool may
    judge positions in any order)."""
    from ai import exact_table

    rng = random.Random(11)
    checked = 0
    for _ in range(6):
        game = new_game("minefield", size=4)
        while not game.is_over:
            if empty_points(game) <= 9:
                judged = judge(game, SMALL, 0)
                if judged.proven == "win":
                    wins = winning_moves(game)
                    assert judged.only_move == (len(wins) == 1), (game.record(), wins)
                    assert judged.best in wins
                    checked += 1
                exact_table._TABLES.clear()
                assert judge(game, SMALL, 0) == judged, game.record()
            game.play(rng.choice(game.legal_moves()))
    assert checked > 5
