"""Every place the service writes a game's ending also calls ``_game_ended`` in the same
block, so a tournament sees every result (resignation, time, moderation, moves, and any
ending added later).  A source check: an ending written without the hook would leave a
tournament waiting for a result it never gets."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[3] / "bot" / "service"


def writes_an_ending(call: ast.Call) -> bool:
    if not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr == "finish_game":
        return True
    return call.func.attr == "record_moves" and any(k.arg == "result" for k in call.keywords)


def calls(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == name
        for n in ast.walk(node)
    )


def test_every_function_that_ends_a_game_calls_the_hook() -> None:
    enders = []
    for path in sorted(SERVICE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            inner = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and writes_an_ending(n)]
            if inner:
                enders.append(f"{path.name}:{fn.name}")
                assert calls(fn, "_game_ended"), f"{path.name}:{fn.name} ends a game unhooked"
    # The two places that write endings today: moves, and every other ending.
    assert {"core.py:_finish", "play.py:act"} <= set(enders)
