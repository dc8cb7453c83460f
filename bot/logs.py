"""Structured logging for every long-running command: one JSON object per line (or plain
text), token-proof.

``crosspath run`` and ``crosspath web`` share it, so it lives beside the settings rather than in
the Discord adapter.  In JSON mode every line a command writes to standard error is JSON,
including the one sentence it ends with (:func:`say`), so a log collector never meets a plain
line it cannot parse.

Log lines carry the context passed as ``extra=`` (guild, channel, user, command), so an
operator can find an interaction again.  The token is masked in every formatted line as a
last line of defence, even if some library logs it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def extras_of(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    def __init__(self, secret: str = "") -> None:
        super().__init__()
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update(extras_of(record))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return mask(json.dumps(entry, default=str, ensure_ascii=False), self.secret)


class TextFormatter(logging.Formatter):
    def __init__(self, secret: str = "") -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.secret = secret

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        extras = extras_of(record)
        if extras:
            text += " " + " ".join(f"{k}={v}" for k, v in extras.items())
        return mask(text, self.secret)


def mask(text: str, secret: str) -> str:
    return text.replace(secret, "[redacted token]") if secret else text


def format_in_env() -> str:
    """``CROSSPATH_LOG_FORMAT`` as given, for a sentence written before the settings loaded
    (the setting that failed may be another one): JSON only when it says ``json``, since a
    person at a terminal is the likelier reader of a setting that did not load."""
    raw = os.environ.get("CROSSPATH_LOG_FORMAT", "").strip().lower()
    return "json" if raw == "json" else "text"


def say(
    command: str,
    message: str,
    fmt: str | None = None,
    *,
    level: int = logging.ERROR,
    secret: str = "",
) -> None:
    """The one sentence a command tells the person who ran it: ``crosspath <command>: ...``.

    ``fmt`` is the configured log format (None: :func:`format_in_env`).  In text mode a plain
    line; in JSON mode one JSON object whose ``msg`` is that sentence, written straight to
    standard error so it appears even before logging is configured.
    """
    text = f"crosspath {command}: {message}"
    if (fmt or format_in_env()) != "json":
        print(text, file=sys.stderr, flush=True)
        return
    record = logging.makeLogRecord(
        {
            "name": "crosspath",
            "levelno": level,
            "levelname": logging.getLevelName(level),
            "msg": text,
            "command": command,
        }
    )
    print(JsonFormatter(secret).format(record), file=sys.stderr, flush=True)


def configure(level: str, fmt: str, secret: str = "", stream: TextIO | None = None) -> None:
    """Install one handler on the root logger (discord.py logs through it too)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter(secret) if fmt == "json" else TextFormatter(secret))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.http").setLevel(max(logging.INFO, root.level))
