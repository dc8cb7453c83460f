"""The opening book (ai/book.py): its mirrors are true symmetries of the games, lookups find
every mirror image of a line and nothing else, the shipped book is legal and complete, level 5
plays it, and ``bench/build_book.py`` writes a book that reads back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ai.book import (
    SYMMETRIES,
    BookError,
    BookKey,
    BookLine,
    book,
    book_reply,
    canonical,
    mirror,
    mirrored,
    parse_book,
)
from ai.levels import LEVELS
from ai.pool import think
from ai.search import CONFIGS, Budget, search
from bench import build_book
from rules import Game, game_names, new_game

Lines = dict[BookKey, BookLine]


def as_lines(text: str) -> Lines:
    return {line.key: line for line in parse_book(text)}


def mirrored_game(game: Game, symmetry: tuple[bool, bool]) -> Game:
    """``game`` replayed with every placement mirrored (special moves such as ``swap`` kept)."""
    names = set(game.grid.names)
    copy = new_game(game.name, game.size)
    for move in game.moves:
        copy.play(mirror(move, game.size, symmetry) if move in names else move)
    return copy


def test_mirror_moves_points_as_the_docstring_says() -> None:
    assert [mirror("b6", 7, s) for s in SYMMETRIES] == ["b6", "f6", "b2", "f2"]
    assert [mirror("d4", 7, s) for s in SYMMETRIES] == ["d4"] * 4
    for symmetry in SYMMETRIES:
        assert mirror(mirror("c2", 8, symmetry), 8, symmetry) == "c2"


@pytest.mark.parametrize("name", sorted(game_names()))
def test_the_mirrors_are_symmetries_of_every_game(name: str) -> None:
    """Along random games, every mirrored position has exactly the mirrored legal placements and
    the same result; a mirror that swapped a side's edges or broke a rule would differ."""
    rng = random.Random(name)
    size = 6
    compared = 0
    for _ in range(3):
        game = new_game(name, size)
        while not game.is_over and len(game.moves) < 24:
            for symmetry in SYMMETRIES[1:]:
                image = mirrored_game(game, symmetry)
                assert image.to_move == game.to_move
                expected = {
                    mirror(p, size, symmetry)
                    for p in game.legal_moves()
                    if p[0].isalpha() and p[1:].isdigit()
                }
                got = {p for p in image.legal_moves() if p[0].isalpha() and p[1:].isdigit()}
                assert got == expected
                compared += 1
            game.play(rng.choice(game.legal_moves()))
        for symmetry in SYMMETRIES[1:]:
            image = mirrored_game(game, symmetry)
            assert (image.is_over, image.winner) == (game.is_over, game.winner)
    assert compared >= 60


def test_canonical_is_the_same_for_all_mirror_images() -> None:
    line = ("d4", "b6", "e3")
    images = {mirrored(line, 7, s) for s in SYMMETRIES}
    assert len(images) == 4
    assert {canonical(image, 7) for image in images} == {min(images)}


BOOK_TEXT = """
# a comment line
nakeddiagonal 7 |  | d4 | 0.560 | 20000   # the empty board
nakeddiagonal 7 | d4 b6 | b5 | 0.571 | 20000
clearpath 5 | c3 | b2 | 0.5 | 10
"""


def test_a_book_file_reads_lines_and_skips_comments() -> None:
    lines = list(parse_book(BOOK_TEXT))
    assert lines[0] == BookLine("nakeddiagonal", 7, (), "d4", 0.56, 20000)
    assert lines[1].moves == ("d4", "b6")
    assert [line.format() for line in lines[:2]] == [
        "nakeddiagonal 7 |  | d4 | 0.560 | 20000",
        "nakeddiagonal 7 | d4 b6 | b5 | 0.571 | 20000",
    ]
    assert list(parse_book(lines[1].format())) == [lines[1]]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("nakeddiagonal 7 | d4 | c5 | 0.5", "line 1 is malformed"),
        ("nakeddiagonal seven | d4 | c5 | 0.5 | 10", "line 1 is malformed"),
        ("\nnakeddiagonal 7 | d4 | c5 | lots | 10", "line 2 is malformed"),
        ("nakeddiagonal 7 | d4 | h8 | 0.5 | 10", "line 1 names a point off the board"),
        ("nakeddiagonal 27 | d4 | c5 | 0.5 | 10", "line 1 has a board size outside 1 to 26"),
        ("nakeddiagonal 0 |  | a1 | 0.5 | 10", "line 1 has a board size outside 1 to 26"),
    ],
)
def test_a_malformed_book_line_is_refused_with_its_number(text: str, reason: str) -> None:
    with pytest.raises(BookError, match=reason):
        list(parse_book(text))


@pytest.mark.parametrize("symmetry", SYMMETRIES)
def test_a_line_answers_each_of_its_mirror_images(symmetry: tuple[bool, bool]) -> None:
    lines = as_lines(BOOK_TEXT)
    game = new_game("nakeddiagonal", 7)
    for move in mirrored(("d4", "b6"), 7, symmetry):
        game.play(move)
    found = book_reply(game, lines)
    assert found is not None
    assert found == (mirror("b5", 7, symmetry), lines[("nakeddiagonal", 7, ("d4", "b6"))])


def test_positions_outside_the_book_get_no_move() -> None:
    lines = as_lines(BOOK_TEXT)
    other = new_game("nakeddiagonal", 7)
    other.play("d4")
    assert book_reply(other, lines) is None  # no line for this position
    smaller = new_game("nakeddiagonal", 6)
    assert book_reply(smaller, lines) is None  # another board size
    swapped = new_game("clearpath", 5)
    swapped.play("c3")
    assert book_reply(swapped, lines) == ("b2", lines[("clearpath", 5, ("c3",))])
    swapped.play("swap")
    assert book_reply(swapped, lines) is None  # a special move leaves the book


def test_a_book_move_that_is_not_legal_is_not_played() -> None:
    lines = as_lines("nakeddiagonal 7 | d4 b6 | d4 | 0.5 | 10")
    game = new_game("nakeddiagonal", 7)
    game.play("d4")
    game.play("b6")
    assert book_reply(game, lines) is None


def test_the_shipped_book_is_legal_canonical_and_covers_every_reply() -> None:
    shipped = book()
    assert shipped, "the shipped book is empty"
    sections = {(game, size) for game, size, _ in shipped}
    for game_name, size in sections:
        empty = new_game(game_name, size)
        first = book_reply(empty)
        assert first is not None, f"{game_name} {size}: no line for the empty board"
        after = new_game(game_name, size)
        after.play(first[0])
        for reply in after.legal_moves():
            game = after.copy()
            game.play(reply)
            found = book_reply(game)
            assert found is not None, f"{game_name} {size}: no answer to {first[0]} {reply}"
            assert game.is_legal(found[0])
        for opening in empty.legal_moves():  # the second player's answers
            game = empty.copy()
            game.play(opening)
            assert book_reply(game) is not None, f"{game_name} {size}: no answer to {opening}"
    for (game_name, size, moves), line in shipped.items():
        assert moves == canonical(moves, size)
        game = new_game(game_name, size)
        for move in moves:
            game.play(move)
        assert game.is_legal(line.reply)
        assert 0.0 <= line.value <= 1.0
        assert line.playouts >= 10_000


def test_the_book_config_plays_book_moves_at_once_and_no_level_uses_it() -> None:
    """The book was tried for level 5 and not kept (docs/ai.md); ``--config book`` plays it."""
    config = CONFIGS["book"]
    game = new_game("nakeddiagonal", 7)
    result = search(game, Budget(playouts=5_000), seed=1, config=config)
    expected = book_reply(game)
    assert expected is not None
    assert (result.move, result.reason, result.playouts) == (expected[0], "opening book", 0)
    game.play(result.move)
    game.play("b2")
    answer = search(game, Budget(playouts=5_000), seed=1, config=config)
    assert answer.reason == "opening book"
    assert answer.move == book_reply(game)[0]  # type: ignore[index]
    assert not any(level.config.book for level in LEVELS.values())
    searched = think(new_game("nakeddiagonal", 7), 5, seed=1, budget=Budget(playouts=50))
    assert searched.reason != "opening book"
    assert searched.playouts == 50


@pytest.mark.slow
def test_the_builder_writes_a_book_that_reads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "nakeddiagonal-5.txt"
    argv = ["--size", "5", "--playouts", "20", "--first", "c3", "--jobs", "1", "--out", str(out)]
    assert build_book.main(argv) == 0
    text = out.read_text(encoding="utf-8")
    assert (
        "# bench/build_book.py --game nakeddiagonal --size 5 --playouts 20 --seed 1 --first c3"
        in text
    )
    lines = as_lines(text)
    replies = build_book.replies("nakeddiagonal", 5, "c3")
    assert len(lines) == 1 + len(replies) == 9  # c3 is the centre: 24 replies, 8 up to mirrors
    empty = new_game("nakeddiagonal", 5)
    assert book_reply(empty, lines) == ("c3", lines[("nakeddiagonal", 5, ())])
    empty.play("c3")
    for reply in empty.legal_moves():
        game = empty.copy()
        game.play(reply)
        assert book_reply(game, lines) is not None
    assert build_book.main(argv) == 0
    assert out.read_text(encoding="utf-8") == text  # seeded and counted in playouts: reproducible
    assert "wrote 9 lines" in capsys.readouterr().out


def test_the_builder_refuses_an_illegal_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_book.main(["--size", "5", "--first", "z9", "--dry-run"])
    assert exit_info.value.code == 2
    assert "--first 'z9' is not a legal first move" in capsys.readouterr().err
