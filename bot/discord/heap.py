"""The heap after start-up: collect once, then freeze what survives (``gc.freeze``).

A bot's long-lived objects (modules, discord.py's caches of servers, channels and members, the
rules' tables) are most of its heap, and every full garbage collection scans all of them, on
the event loop's thread, inside whatever callback happens to allocate.  With a large heap that
scan alone held the loop past 50 ms during the daily digest.  Frozen objects are left out of
every later collection (they are still freed by reference counting; only cycles among them
would stay), so a full collection costs what was allocated since: docs/operations.md has the
measurements.  Done once, when the first READY has filled the caches.
"""

from __future__ import annotations

import gc


def settle_heap() -> int:
    """Collect the start-up garbage, then freeze the survivors; how many are now frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
