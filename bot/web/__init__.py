"""The bot's HTTP side: the public game and tournament pages, health, readiness and
Prometheus metrics.

``pages`` serves the game pages, their boards, replays and live updates (``live``) and the
tournament pages (``tournament_pages``); ``metrics`` holds every metric object in one registry
per process (or per test); ``server`` puts them together with ``/healthz``, ``/readyz`` and
``/metrics`` on aiohttp, for ``crosspath run`` (when ``CROSSPATH_WEB_PORT`` is set) and
``crosspath web``.  Nothing here imports discord: the bot hands in its readiness checks and
its gateway latencies as plain callables.
"""
