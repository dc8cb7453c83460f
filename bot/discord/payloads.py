"""``crosspath commands --json``: the exact payloads a sync would send, built offline.

The tree is built the same way the running bot builds it (same cogs, same decorators, same
translator), then each top-level command is serialised with ``get_translated_payload``, which
is what ``CommandTree.sync`` puts on the wire, localisations included.  No token and no
network are needed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from bot.discord.app import CrosspathBot


async def _build() -> list[dict[str, Any]]:
    bot = CrosspathBot(service=None, run_clock=False)
    await bot.install_commands()
    translator = bot.tree.translator
    assert translator is not None  # install_commands sets it
    return [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]


def command_payloads() -> list[dict[str, Any]]:
    """The list of ApplicationCommandCreateRequest bodies, in registration order."""
    return asyncio.run(_build())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="crosspath commands", description="Print the slash-command payloads a sync would send."
    )
    parser.add_argument("--json", action="store_true", help="print the payloads as JSON (default)")
    parser.add_argument("--names", action="store_true", help="print only the command names")
    args = parser.parse_args(argv)
    payloads = command_payloads()
    if args.names:
        for payload in payloads:
            print(payload["name"])
    else:
        print(json.dumps(payloads, indent=2, ensure_ascii=False))
    return 0
