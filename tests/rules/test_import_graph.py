"""The rules package's own imports form no cycle, and ``rules.base`` is a leaf of them.

Why: ``base.py`` used to import ``record.py`` inside ``Game.record()`` while ``record.py``
imported ``base.py``: a cycle that only a late import kept from failing.  Every import counts
here, at any depth of the module (late ones included), so a new late import that closes a
cycle fails this test instead of waiting for an import-order accident.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rules
from rules import base, record
from rules.record_text import PIE_OPTION, SKIP_TOKEN

RULES = Path(rules.__file__).parent


def _imports(path: Path) -> set[str]:
    """The sibling modules of ``rules`` that the module at ``path`` imports anywhere."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("rules."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("rules."))
    return found


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) for p in RULES.glob("*.py") if p.stem != "__init__"}


def test_rules_modules_import_each_other_without_a_cycle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        assert name not in path, f"import cycle: {' -> '.join([*path, name])}"
        if name in done:
            return
        for nxt in sorted(graph.get(name, set())):
            visit(nxt, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_base_imports_only_modules_that_import_nothing_from_rules_back() -> None:
    graph = _graph()
    assert "record" not in graph["base"] and "registry" not in graph["base"]
    # Everything base reaches is itself below base: none of it can reach base again.
    seen: set[str] = set()
    todo = list(graph["base"])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, set()))
    assert "base" not in seen


def test_every_public_name_still_answers_from_where_it_was() -> None:
    assert base.SKIP_TOKEN == SKIP_TOKEN == "-"
    assert base.PIE_OPTION == PIE_OPTION == "pie"
    assert rules.format_record is record.format_record
    game = rules.new_game("minefield", 9, pie=True)
    game.play("e5")
    game.play("swap")
    assert game.record() == record.format_record(game) == "minefield 9 pie: e5 swap"
    assert record.header(game) == "minefield 9 pie"
    assert rules.parse_record(game.record()).record() == game.record()
