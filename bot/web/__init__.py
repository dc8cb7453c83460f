"""The bot's HTTP side: health, readiness and Prometheus metrics (no game pages yet).

``metrics`` holds every metric object in one registry per process (or per test);
``server`` serves ``/healthz``, ``/readyz`` and ``/metrics`` with aiohttp, for ``crosspath
run`` (when ``CROSSPATH_WEB_PORT`` is set) and ``crosspath web``.  Neither imports discord:
the bot hands in its readiness checks and its gateway latencies as plain callables.
"""
