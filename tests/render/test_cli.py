"""``crosspath render``: records in, images out, clear errors for bad records."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from render.cli import main
from render.layout import board_layout


def test_renders_moves_to_png_and_gif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, replay = tmp_path / "board.png", tmp_path / "replay.gif"
    argv = ["--game", "minefield", "--size", "9", "--moves", "e5 d4 c3", "--out", str(out)]
    assert main([*argv, "--gif", str(replay), "--show-illegal"]) == 0
    image = Image.open(io.BytesIO(out.read_bytes()))
    lay = board_layout(9)
    assert image.format == "PNG" and image.size == (lay.width, lay.height)
    assert Image.open(replay).n_frames == 4
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "White to move" in printed


def test_writes_svg_for_svg(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    argv = ["--record", "minefield 9: e5 d4", "--out", str(out), "--name", "black=<b>Ann</b>"]
    assert main(argv) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == str(board_layout(9).width)
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "Black: <b>Ann</b>" in texts
    # an image type it cannot write is a usage error, as docs/rendering.md says (status 2)
    assert main(["--record", "minefield 9: e5", "--out", str(tmp_path / "b.bmp")]) == 2


def test_accepts_a_whole_record(tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    assert main(["--record", "clearcut 7: d4 c3", "--out", str(out), "--name", "red=Ann"]) == 0
    assert Image.open(out).size == (board_layout(7).width, board_layout(7).height)


def test_a_bad_record_names_the_first_bad_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bad.png"
    moves = "e5 d4 c3 d5 d6 c4 z9"
    code = main(["--game", "minefield", "--size", "9", "--moves", moves, "--out", str(out)])
    assert code == 1
    err = capsys.readouterr().err
    assert "move 5 'd6'" in err and "hard corner" in err
    assert not out.exists()


def test_a_bad_record_text_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bad.png"
    assert main(["--record", "minefield 9: e5 e5", "--out", str(out)]) == 1
    assert "move 2 'e5'" in capsys.readouterr().err
    assert main(["--record", "chess 8: e4", "--out", str(out)]) == 1
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["--game", "crosscut", "--size", "30", "--out", str(out)]) == 1
    assert "30×30" in capsys.readouterr().err
    assert not out.exists()


def test_conflicting_or_missing_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "x.png")
    for usage_error, says in (
        (["--record", "minefield 9: e5", "--game", "minefield", "--out", out], "not both"),
        (["--out", out], "say which game"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(usage_error)
        assert exc.value.code == 2
        assert says in capsys.readouterr().err
    assert main(["--game", "minefield", "--name", "black", "--out", out]) == 2
    assert "COLOUR=NAME" in capsys.readouterr().err
    # a colour this game does not have: Minefield is black and white
    assert main(["--game", "minefield", "--name", "red=Ann", "--out", out]) == 2
    assert "red" in capsys.readouterr().err
    assert not Path(out).exists()
    with pytest.raises(SystemExit) as exc:
        main(["--game", "minefield"])
    assert exc.value.code == 2
    assert "nothing to write" in capsys.readouterr().err


def test_unwritable_output_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "missing-dir" / "b.png"
    assert main(["--game", "minefield", "--out", str(target)]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_reached_through_the_crosspath_command(tmp_path: Path) -> None:
    from bot.cli import main as crosspath

    out = tmp_path / "c.png"
    assert crosspath(["render", "--record", "crosscut 8: d4 e5", "--out", str(out)]) == 0
    assert Image.open(out).format == "PNG"
