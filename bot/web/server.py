"""``/healthz``, ``/readyz`` and ``/metrics`` over aiohttp (which discord.py already brings).

- ``/healthz``: 200 while the process runs and its event loop answers (a liveness probe).
- ``/readyz``: 200 only when every readiness check passes, else 503 with one line per
  failing check saying why (a load balancer or ``HEALTHCHECK`` reads it).  The checks run
  together, each within :data:`CHECK_TIMEOUT`, so a hung database answers 503 in about a
  second instead of hanging the probe.
- ``/metrics``: Prometheus's text format (:mod:`bot.web.metrics`).

The server knows nothing of Discord: ``crosspath run`` hands in a check for its shards, and
both it and ``crosspath web`` a check for the database (:func:`database_check`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .metrics import CONTENT_TYPE, Metrics

log = logging.getLogger("crosspath.web")

if TYPE_CHECKING:
    from .pages import GamePages

Check = Callable[[], Awaitable[str | None]]
"""A readiness check: None when ready, else one sentence saying what is not."""

CHECK_TIMEOUT = 1.0
REASON_LIMIT = 200


def database_check(store: Any, timeout: float = CHECK_TIMEOUT) -> Check:
    """Ready when the database answers a query (its schema version) within ``timeout``."""

    logged: list[str] = []

    async def check() -> str | None:
        try:
            await asyncio.wait_for(store.schema_version(), timeout)
        except TimeoutError:
            return f"the database did not answer within {timeout:g} s"
        except Exception as exc:  # the store's sentences name the target without a password
            sentence = str(exc)
            if sentence not in logged:  # the operator reads where it is, once per fault
                log.warning("the database is unavailable: %s", sentence)
                logged[:] = [sentence]
            # /readyz may be on a public port: it says what is wrong, never where the file is
            target = str(getattr(store, "target", "") or "")
            if target and "://" not in target:
                sentence = sentence.replace(target, "the database file")
            return f"the database is unavailable: {sentence}"
        logged.clear()
        return None

    return check


async def _run_check(check: Check) -> str | None:
    try:
        # a check with its own, shorter timeout reports it better; this one is the backstop
        return await asyncio.wait_for(check(), CHECK_TIMEOUT + 0.5)
    except TimeoutError:
        return "a readiness check did not finish in time"
    except Exception as exc:
        return f"a readiness check failed: {type(exc).__name__}: {exc}"


async def readiness(checks: Sequence[Check]) -> list[str]:
    """Why the process is not ready (empty: it is), each reason cut to a bounded length."""
    results = await asyncio.gather(*(_run_check(check) for check in checks))
    return [reason[:REASON_LIMIT] for reason in results if reason is not None]


def make_app(
    metrics: Metrics, checks: Sequence[Check], pages: GamePages | None = None
) -> web.Application:
    async def healthz(request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readyz(request: web.Request) -> web.Response:
        reasons = await readiness(checks)
        if reasons:
            return web.Response(status=503, text="not ready\n" + "".join(f"{r}\n" for r in reasons))
        return web.Response(text="ready\n")

    async def metrics_page(request: web.Request) -> web.Response:
        await metrics.refresh()
        # a few milliseconds of formatting: on a thread, so interactions keep their turns
        body = await asyncio.to_thread(metrics.render)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
    if pages is not None:
        pages.install(app)
    return app


class WebServer:
    """The three pages on ``host:port`` (port 0: any free port, see :attr:`port`), and the
    game pages when ``pages`` is given."""

    def __init__(
        self,
        metrics: Metrics,
        checks: Sequence[Check],
        host: str = "127.0.0.1",
        port: int = 0,
        pages: GamePages | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self._runner = web.AppRunner(make_app(metrics, checks, pages), access_log=None)

    async def start(self) -> int:
        """Listen; returns the port (the one chosen when asked for port 0)."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self.port

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._runner.cleanup()
