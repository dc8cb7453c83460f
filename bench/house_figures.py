"""The shape of the house, for one or more source trees: lines per package, the widest classes,
the longest modules, and the row and service types with the converters between them.

"One feature, one place" is measured by these figures: no class over about 30 public
methods, no module over 700 lines (``rules/nd_area.py`` aside), one type per thing where one
will do.  Each tree is inspected in its own Python process (its own ``bot`` package first on
the path), so an old tree and a new one can be compared in one run.  Prints figures; never
fails on them.  Example::

    python bench/house_figures.py --tree /work/before --tree .
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import cast

PACKAGES = (
    "bot/service",
    "bot/store",
    "bot/discord",
    "bot/web",
    "bot/console",
    "bot/cli",
    "rules",
    "render",
    "ai",
    "tests",
)

# Run inside the measured tree: public methods of every class defined under bot/, counted on
# the class as callers see it (inherited methods included: a mixin facade is as wide as its MRO).
CHILD = r"""
import importlib, inspect, json, pkgutil, sys
import bot
widths = {}
for info in pkgutil.walk_packages(bot.__path__, "bot."):
    if info.name.endswith("__main__"):
        continue
    try:
        module = importlib.import_module(info.name)
    except BaseException:
        continue
    for name, cls in vars(module).items():
        if not inspect.isclass(cls) or cls.__module__ != module.__name__:
            continue
        foreign = ("discord", "aiohttp", "enum", "typing")
        if any(b.__module__.startswith(foreign) for b in cls.__mro__[1:-1]):
            continue
        public = [
            n for n in dir(cls)
            if not n.startswith("_") and callable(getattr(cls, n, None)) and not hasattr(object, n)
        ]
        widths[f"{module.__name__}.{name}"] = len(public)
print(json.dumps(widths))
"""


def lines(path: Path) -> int:
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in path.rglob("*.py"))


def types_and_converters(tree: Path) -> tuple[int, int, int]:
    """(row dataclasses, service dataclasses, converter functions) by a plain count of the
    modules that define them."""
    rows = (tree / "bot/store/rows.py").read_text(encoding="utf-8").count("@dataclass")
    service = 0
    for path in (tree / "bot/service").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "store" in path.parts:
            continue
        service += text.count("@dataclass")
    convert = (tree / "bot/service/convert.py").read_text(encoding="utf-8")
    converters = sum(1 for line in convert.splitlines() if line.startswith("def "))
    return rows, service, converters


def figures(tree: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=tree, capture_output=True, text=True, check=True
    )
    widths: dict[str, int] = json.loads(done.stdout)
    modules = sorted(
        ((len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(tree)))
         for top in ("bot", "rules", "render", "ai", "tests", "bench")
         for p in (tree / top).rglob("*.py")),
        reverse=True,
    )  # fmt: skip
    return {
        "lines": {pkg: lines(tree / pkg) for pkg in PACKAGES if (tree / pkg).exists()},
        "widest": sorted(widths.items(), key=lambda kv: -kv[1])[:8],
        "long_modules": [(n, m) for n, m in modules if n > 700],
        "types": types_and_converters(tree),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", action="append", type=Path, required=True)
    trees = [t.resolve() for t in p.parse_args().tree]
    found = {tree: figures(tree) for tree in trees}
    print("lines per package:")
    print(f"  {'':<14}" + "".join(f"{t.name or str(t):>14}" for t in trees))
    for pkg in PACKAGES:
        row = [found[t]["lines"].get(pkg, 0) for t in trees]  # type: ignore[attr-defined]
        print(f"  {pkg:<14}" + "".join(f"{n:>14,}" for n in row))
    for tree in trees:
        f = found[tree]
        rows, service, converters = cast(tuple[int, int, int], f["types"])
        print(f"\n{tree}:")
        print("  widest classes (public methods, inherited included):")
        for name, width in f["widest"]:  # type: ignore[attr-defined]
            print(f"    {width:>4}  {name}")
        print("  modules over 700 lines:", f["long_modules"] or "none")
        print(f"  row dataclasses {rows}, service dataclasses {service}, converters {converters}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
