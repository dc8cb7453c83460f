"""Every third-party package the shipped code imports is declared in pyproject.toml.

``aiohttp`` was imported by the web server and the runner but came only through discord.py: a
discord.py release that dropped or re-pinned it would have broken the bot at import time.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ("rules", "render", "bot", "ai")


def imported_top_levels() -> set[str]:
    found: set[str] = set()
    for package in SHIPPED:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - set(SHIPPED) - {"__future__"}


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_imported_package_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {normal(re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0]) for d in project["dependencies"]}
    owners = packages_distributions()
    missing = {
        name: sorted(owners.get(name, [name]))
        for name in imported_top_levels()
        if not declared & {normal(d) for d in owners.get(name, [name])}
    }
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"
