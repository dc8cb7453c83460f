"""The deploy kit's files, read as the tests of deploy/ need them (compose.yaml without PyYAML)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"


def parse_block_yaml(text: str) -> Any:
    """The block-style YAML subset compose.yaml is written in: mappings, lists, scalars and
    JSON-style flow lists.  Anything else (anchors, multi-line strings) fails loudly, so the
    file stays in a subset that any YAML parser reads the same way."""
    lines = []
    for raw in text.splitlines():
        stripped = raw.split(" #", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if stripped:
            assert "\t" not in raw, f"tab in: {raw!r}"
            assert not re.search(r"(^|\s)[&*!|>]", stripped.lstrip("- ")), f"unsupported: {raw!r}"
            lines.append((len(stripped) - len(stripped.lstrip()), stripped.strip()))

    def scalar(value: str) -> Any:
        if value.startswith("["):
            return json.loads(value)
        if value[:1] in "\"'":
            assert value[-1] == value[0], value
            return value[1:-1]
        return value

    def block(i: int, indent: int) -> tuple[Any, int]:
        if lines[i][1].startswith("- "):
            items: list[Any] = []
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(scalar(lines[i][1][2:]))
                i += 1
            return items, i
        mapping: dict[str, Any] = {}
        while i < len(lines) and lines[i][0] == indent:
            key, _, value = lines[i][1].partition(":")
            assert key not in mapping, f"duplicate key {key}"
            i += 1
            if value.strip():
                mapping[key] = scalar(value.strip())
            elif i < len(lines) and lines[i][0] > indent:
                mapping[key], i = block(i, lines[i][0])
            else:
                mapping[key] = None
        return mapping, i

    parsed, end = block(0, 0)
    assert end == len(lines), f"could not read past: {lines[end][1]!r}"
    return parsed


def load_compose() -> Any:
    text = (DEPLOY / "compose.yaml").read_text()
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        return parse_block_yaml(text)
    return yaml.safe_load(text)
