"""Checks on real tournament standings PNGs: size, one row per player, pages, names in any
script through the fallback fonts, the alt text and the text table.

The rows come from the real tournament core (``bot.service.tournaments``): a Swiss played with
seeded random results, so the figures are those the bot will really draw.
"""

from __future__ import annotations

import random

import pytest
from PIL import Image
from png_probe import colours_in, pixel, png

import render
from bot.service.tournaments import (
    Entrant,
    Format,
    Outcome,
    Result,
    TournamentConfig,
    is_finished,
    new_tournament,
    next_pairings,
    standings,
)
from render import fonts
from render.reports import standings as S
from render.reports.leaderboard import stripe_colour
from render.themes import RGB, get_theme

HEADINGS = ("BH-1", "BH", "SB", "H2H")


def played_swiss(players: int, seed: int = 3) -> list[S.StandingsLine]:
    """A finished Swiss with random results, as the rows the adapter would draw."""
    rng = random.Random(seed)
    state = new_tournament(
        TournamentConfig(Format.SWISS), [Entrant(i, 1500 + 7 * i) for i in range(1, players + 1)]
    )
    while not is_finished(state):
        pairings = next_pairings(state)
        state = state.with_pairings(pairings)
        for p in pairings:
            if p.second is not None:
                outcome = rng.choice([Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW])
                state = state.with_result(Result(p.id, outcome))
    return [
        S.StandingsLine(
            rank=row.rank,
            name=f"Player {row.player_id}",
            points=row.points,
            tiebreaks=(row.buchholz_cut1, row.buchholz, row.sonneborn_berger, row.head_to_head),
            games_left=0,
            withdrawn=row.withdrawn,
        )
        for row in standings(state)
    ]


def rank_bands(image: Image.Image, colour: RGB, body_top: int) -> int:
    """Separate runs of ``colour`` in the rank column below the header: rows drawn, found
    without the layout's row boxes."""
    bands, inside = 0, False
    for y in range(body_top, image.height - 4):
        hit = any(pixel(image, x, y) == colour for x in range(S.PAD, S.RANK_RIGHT + 1))
        bands += hit and not inside
        inside = hit
    return bands


@pytest.mark.parametrize("theme", render.THEMES)
def test_a_page_has_one_striped_row_per_player_and_nothing_after(theme: str) -> None:
    rows = played_swiss(9)
    image = png(S.render_standings(rows, title="Weekend Swiss", headings=HEADINGS, theme=theme))
    lay = S.standings_layout(len(rows), len(HEADINGS))
    palette = get_theme(theme).palette(S.PLAYERS)
    assert image.size == (lay.width, lay.height) == (960, lay.body_top + 9 * S.ROW_H + S.PAD)
    assert rank_bands(image, palette.text, lay.body_top) == 9
    stripe = stripe_colour(palette)
    for index in range(len(rows)):
        left, top, _, bottom = lay.row_box(index)
        assert pixel(image, left + 4, top + S.ROW_H // 2) == (
            stripe if index % 2 else palette.panel
        )
        # points in the text colour, tiebreaks muted, each in its own column
        points = colours_in(image, (lay.name_right + 8, top + 4, lay.points_right + 1, bottom - 4))
        assert palette.text in points, index
        first_break = (lay.tiebreak_right(0) - S.TIEBREAK_W + 8, top + 4, lay.tiebreak_right(0) + 1)
        assert palette.muted in colours_in(image, (*first_break, bottom - 4)), index
    below = colours_in(image, (4, lay.row_box(8)[3], lay.width - 4, lay.height - 4))
    assert below == {palette.panel}


def test_a_large_field_is_paged_and_each_page_is_bounded() -> None:
    rows = played_swiss(45)
    paged = S.pages(rows)
    assert [len(p) for p in paged] == [20, 20, 5]
    assert [r.rank for p in paged for r in p] == [r.rank for r in rows]
    heights = []
    for number, page in enumerate(paged, 1):
        data = S.render_standings(
            page, title="Big Swiss", headings=HEADINGS, page=number, page_count=3, total=45
        )
        heights.append(png(data).height)
        alt = S.standings_alt_text(
            page, title="Big Swiss", headings=HEADINGS, page=number, page_count=3, total=45
        )
        assert f"page {number} of 3" in alt
        assert f"Ranks {page[0].rank}–{page[-1].rank} of 45 players" in alt
    assert heights[0] == heights[1] > heights[2]
    with pytest.raises(ValueError, match="at most 20 rows, not 45"):
        S.render_standings(rows, title="Big Swiss", headings=HEADINGS)
    assert S.pages([]) == [[]]


def test_withdrawn_players_are_muted_and_marked() -> None:
    rows = played_swiss(6)
    rows[2] = S.StandingsLine(rows[2].rank, "Quitter", rows[2].points, rows[2].tiebreaks, 3, True)
    image = png(S.render_standings(rows, title="T", headings=HEADINGS))
    lay = S.standings_layout(len(rows), len(HEADINGS))
    palette = get_theme(render.THEMES[0]).palette(S.PLAYERS)
    _, top, _, bottom = lay.row_box(2)
    name_cells = colours_in(image, (S.NAME_LEFT, top + 4, lay.name_right, bottom - 4))
    assert palette.muted in name_cells and palette.text not in name_cells
    _, top, _, bottom = lay.row_box(1)
    assert palette.text in colours_in(image, (S.NAME_LEFT, top + 4, lay.name_right, bottom - 4))
    assert "3. Quitter" in S.standings_alt_text(rows, title="T", headings=HEADINGS)
    assert "withdrawn." in S.standings_alt_text(rows, title="T", headings=HEADINGS)
    assert "Quitter (w)" in S.standings_text(rows, headings=HEADINGS)


def test_columns_follow_the_number_of_tiebreaks() -> None:
    rows = [S.StandingsLine(1, "Ann", 2, (1.5, 1), 0), S.StandingsLine(2, "Bob", 1, (0.5, 0), 1)]
    two = S.standings_layout(2, 2)
    assert two.name_right > S.standings_layout(2, 4).name_right
    image = png(S.render_standings(rows, title="Round robin", headings=("SB", "H2H")))
    palette = get_theme(render.THEMES[0]).palette(S.PLAYERS)
    _, top, _, bottom = two.row_box(0)
    # the gap between the name and the points column is empty
    gap = colours_in(image, (S.NAME_LEFT + 80, top + 2, two.name_right - 2, bottom - 2))
    assert gap == {palette.panel}
    with pytest.raises(ValueError, match="rank 1 has 2 tiebreak values for 1 headings"):
        S.render_standings(rows, title="x", headings=("SB",))


def test_bytes_depend_only_on_the_page() -> None:
    rows = played_swiss(8)
    first = S.render_standings(rows, title="Cup", headings=HEADINGS, total=8)
    assert S.render_standings(list(rows), title="Cup", headings=HEADINGS, total=8) == first
    assert S.render_standings(rows, title="Cup", headings=HEADINGS, total=9) != first
    renamed = [S.StandingsLine(1, "Someone else", *_rest(rows[0])), *rows[1:]]
    assert S.render_standings(renamed, title="Cup", headings=HEADINGS, total=8) != first


def _rest(row: S.StandingsLine) -> tuple[float, tuple[float, ...], int, bool]:
    return row.points, row.tiebreaks, row.games_left, row.withdrawn


def test_an_empty_table_says_so() -> None:
    image = png(S.render_standings([], title="Empty cup"))
    lay = S.standings_layout(0, 0)
    palette = get_theme(render.THEMES[0]).palette(S.PLAYERS)
    message = colours_in(image, (S.PAD, lay.body_top, lay.width - S.PAD, lay.height - S.PAD))
    assert palette.muted in message and palette.text not in message
    assert S.standings_alt_text([], title="Empty cup") == "Empty cup standings: no players yet."


NO_FONT = "\U00018b00\U00018b01"  # Khitan Small Script: printable, but in no installed face
NAMES_IN_ANY_SCRIPT = ("張偉", "さくら", "김민", "🐉 Drake", "👨‍👩‍👧 family", "नमस्ते")


def test_names_in_any_script_are_drawn_with_the_fallback_fonts() -> None:
    missing = fonts.missing_fallbacks()
    if missing:
        pytest.skip(f"fallback fonts missing ({missing[0].file}): apt-get install fonts-noto-*")
    rows = [S.StandingsLine(i + 1, n, 3 - i / 2) for i, n in enumerate(NAMES_IN_ANY_SCRIPT)]
    for name in NAMES_IN_ANY_SCRIPT:  # every character has a face that draws it
        drawn = "".join(run.text for run in fonts.runs(name))
        assert drawn == name and any(run.face is not None for run in fonts.runs(name)), name
    image = png(S.render_standings(rows, title="世界杯 🏆"))
    blank = png(
        S.render_standings([S.StandingsLine(r.rank, NO_FONT, r.points) for r in rows], title="x")
    )
    lay = S.standings_layout(len(rows), 0)
    palette = get_theme(render.THEMES[0]).palette(S.PLAYERS)
    for index in range(len(rows)):
        _, top, _, bottom = lay.row_box(index)
        box = (S.NAME_LEFT, top + 4, S.NAME_LEFT + 200, bottom - 4)
        inked = [p for p in colours_in(image, box) if p == palette.text]
        assert inked, f"{NAMES_IN_ANY_SCRIPT[index]!r} left no ink"
        assert palette.text not in colours_in(blank, box), "a name no face has leaves no ink"


def test_the_text_table_lines_up_and_keeps_every_row() -> None:
    rows = played_swiss(25)
    text = S.standings_text(rows, headings=HEADINGS)
    lines = text.splitlines()
    assert len(lines) == 26 and lines[0].split() == ["#", "Player", "Points", *HEADINGS, "Left"]
    for row, line in zip(rows, lines[1:], strict=True):
        cells = line.split()
        assert cells[0] == str(row.rank) and f"Player {cells[2]}" == row.name
        assert cells[3] == S.format_score(row.points)
        assert cells[4:8] == [S.format_score(v) for v in row.tiebreaks]
    long = [S.StandingsLine(1, "N" * 80, 1)]
    assert len(S.standings_text(long).splitlines()[1]) < 60


def test_alt_text_reads_each_row_and_stays_short() -> None:
    rows = [
        S.StandingsLine(1, "Ann\n\x00Bot", 2.5, (3.25,), 1),
        S.StandingsLine(2, "Bob", 1, (0.5,), 0),
    ]
    alt = S.standings_alt_text(rows, title="Cup", headings=("SB",))
    assert alt == (
        "Cup standings, Ranks 1–2. 1. Ann Bot: 2½ points (SB 3.25), 1 left. "
        "2. Bob: 1 point (SB ½), 0 left."
    )
    many = S.standings_alt_text(played_swiss(20), title="Cup", headings=HEADINGS)
    assert len(many) <= 1000 and many.endswith("…")


def test_the_standings_speak_the_readers_language() -> None:
    """Headings, the subtitle and the alt text come from the caller's language."""
    from bot.i18n import tongue
    from render.reports.standings import (
        StandingsLine,
        render_standings,
        standings_alt_text,
        standings_text,
    )

    rows = [StandingsLine(1, "Anna", 2.5, (), 1), StandingsLine(2, "Борис", 1, (), 0)]
    german, russian = tongue("de"), tongue("ru")
    alt = standings_alt_text(rows, title="Herbst", total=2, tr=german)
    assert alt.startswith("Tabelle: Herbst, Plätze 1–2 von 2 Spielern.")
    assert "1. Anna: 2½ Punkte, 1 offen." in alt and "2. Борис: 1 Punkt, 0 offen." in alt
    assert "Punkte" in standings_text(rows, tr=german)
    assert "очко" in standings_alt_text(rows, title="Осень", tr=russian)
    english = render_standings(rows, title="Herbst", total=2)
    assert render_standings(rows, title="Herbst", total=2, tr=german) != english
