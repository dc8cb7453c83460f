"""A puzzle's seed difficulty: the level-3 search's effort to find the move, mapped to mu."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ai.levels import LEVELS
from ai.moves import legal_moves, move_name, play
from ai.puzzles import Puzzle
from ai.puzzles.difficulty import (
    BASE_MU,
    MISSED,
    MISSED_MU,
    MU_PER_DECADE,
    level3_effort,
    rungs,
    seed_mu,
)
from ai.puzzles.starter import load_starter, starter_path
from ai.search import Budget, search
from ai.tactics import wins_at_once
from rules import game_names

SHIPPED = [name for name in game_names() if starter_path(name).exists()]


def sample(count: int) -> list[Puzzle]:
    rng = random.Random(3)
    picked: list[Puzzle] = []
    for name in SHIPPED:
        puzzles = list(load_starter(name))
        picked += rng.sample(puzzles, min(count, len(puzzles)))
    return picked


def test_the_mapping_rises_with_the_effort_and_tops_out_when_missed() -> None:
    assert seed_mu(1) == BASE_MU
    assert seed_mu(10) == pytest.approx(BASE_MU + MU_PER_DECADE)
    efforts = [1, 3, 10, 30, 100, 300, 1000]
    mus = [seed_mu(e) for e in efforts]
    assert mus == sorted(mus) and len(set(mus)) == len(mus)
    assert seed_mu(MISSED) == MISSED_MU > mus[-1]
    with pytest.raises(ValueError):
        seed_mu(0)


def test_the_ladder_ends_at_level_threes_cap_on_the_board() -> None:
    assert rungs("minefield", 7)[-1] == 200  # level 3's board cap there (ai.levels)
    assert rungs("clearcut", 7)[-1] == LEVELS[3].budget.playouts
    for game, size in (("minefield", 7), ("crosscut", 6)):
        ladder = rungs(game, size)
        assert list(ladder) == sorted(set(ladder)) and ladder[0] == 1


@pytest.mark.parametrize("puzzle", sample(2), ids=lambda p: f"{p.game}-{p.size}-{p.id}")
def test_the_shipped_effort_is_the_first_rung_where_level_three_finds_the_move(
    puzzle: Puzzle,
) -> None:
    assert puzzle.effort is not None, "the miner measures every starter puzzle"
    assert level3_effort(replace(puzzle, effort=None)) == puzzle.effort  # reproducible
    game, config = puzzle.position(), LEVELS[3].config
    ladder = rungs(puzzle.game, puzzle.size)
    if puzzle.effort == MISSED:
        tried = ladder
    else:
        found = search(game, Budget(playouts=puzzle.effort), seed=puzzle.id, config=config)
        assert found.move == puzzle.solution[0]
        tried = ladder[: ladder.index(puzzle.effort)]
    for playouts in tried:  # every cheaper rung chose another move
        found = search(game, Budget(playouts=playouts), seed=puzzle.id, config=config)
        assert found.move != puzzle.solution[0]


def test_a_move_level_three_never_plays_is_missed() -> None:
    """A "solution" that hands the opponent a win at once: level 3 blocks, never plays it."""
    for puzzle in sample(6):
        game = puzzle.position()
        for move in legal_moves(game):
            play(game, move)
            gives_away = not game.is_over and any(
                wins_at_once(game, reply) for reply in legal_moves(game)
            )
            game.pop()
            if gives_away:
                blunder = replace(puzzle, solution=(move_name(game, move),), effort=None)
                assert level3_effort(blunder) == MISSED
                assert seed_mu(level3_effort(blunder)) == MISSED_MU
                return
    pytest.skip("no sampled puzzle has a move that loses at once")
