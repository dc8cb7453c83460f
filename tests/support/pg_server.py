"""A throwaway PostgreSQL server for the tests, started from the installed binaries.

``PgServer.start()`` runs ``initdb`` and ``pg_ctl`` from the newest
``/usr/lib/postgresql/<version>/bin`` in a fresh temporary directory.  The server listens on a
Unix socket in that directory only (``listen_addresses = ''``: no TCP at all), trusts local
connections, and runs with ``fsync``, ``synchronous_commit`` and ``full_page_writes`` off: the
data is thrown away anyway, and the tests then spend their time in Crosspath, not in fsync.

PostgreSQL refuses to run as root.  When this process is root (these machines and CI), the
server's commands run as the ``postgres`` system user (``subprocess``'s ``user=``/``group=``)
and the temporary directory is handed to it; the tests themselves stay root and connect through
the socket, which any local user may open.

``create_database()`` gives each test its own database (``CREATE DATABASE`` copies a template,
a few milliseconds with fsync off) and ``drop_database()`` removes it afterwards, so hundreds
of tests do not fill the disk.  ``stop()`` is idempotent and also registered with ``atexit``.

Usable on its own for manual work::

    python tests/support/pg_server.py [--durable]   # prints a database URL; stops on Enter or EOF

(``--durable`` keeps fsync and synchronous commits on, for honest benchmark figures.)
"""

from __future__ import annotations

import asyncio
import atexit
import os
import pwd
import re
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

SEARCH_ROOT = Path("/usr/lib/postgresql")
SYSTEM_USER = "postgres"
SUPERUSER = "postgres"
ENABLE_HINT = (
    "PostgreSQL tests skipped: no initdb under /usr/lib/postgresql/*/bin;"
    " install the server to run them (apt-get install postgresql)"
)


class PgUnavailable(RuntimeError):
    """No usable PostgreSQL binaries, or the server would not start."""


BINDIR_ENV = "CROSSPATH_TEST_PG_BINDIR"
"""Names the directory holding ``initdb``/``pg_ctl``/``postgres`` when they live elsewhere."""

TOOLS = ("initdb", "pg_ctl", "postgres")


def find_bindir(root: Path = SEARCH_ROOT) -> Path | None:
    """The ``bin`` directory of the newest installed major version that has initdb and pg_ctl.

    ``$CROSSPATH_TEST_PG_BINDIR``, when set, is the only place looked at.
    """
    chosen = os.environ.get(BINDIR_ENV)
    if chosen:
        bindir = Path(chosen)
        return bindir if all(os.access(bindir / tool, os.X_OK) for tool in TOOLS) else None
    found: list[tuple[int, Path]] = []
    if root.is_dir():
        for entry in root.iterdir():
            bindir = entry / "bin"
            if re.fullmatch(r"\d+", entry.name) and all(
                os.access(bindir / tool, os.X_OK) for tool in TOOLS
            ):
                found.append((int(entry.name), bindir))
    return max(found)[1] if found else None


def ci_required() -> bool:
    """Whether PostgreSQL must be present (``CI`` set to anything but empty, 0 or false)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@dataclass
class PgServer:
    bindir: Path
    base: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="crosspath-pg-")))
    port: int = 5432  # only names the socket file; nothing listens on TCP
    durable: bool = False
    """Keep PostgreSQL's default fsync and synchronous_commit (for benchmarks, not tests)."""
    running: bool = False
    _counter: int = 0

    @property
    def datadir(self) -> Path:
        return self.base / "data"

    @property
    def socket_dir(self) -> Path:
        return self.base

    @property
    def logfile(self) -> Path:
        return self.base / "server.log"

    def url(self, database: str = "postgres") -> str:
        """An asyncpg/libpq URL reaching ``database`` through the Unix socket."""
        return (
            f"postgresql://{SUPERUSER}@/{database}"
            f"?host={quote(str(self.socket_dir), safe='/')}&port={self.port}"
        )

    def _as_server_user(self) -> dict[str, Any]:
        if os.geteuid() != 0:
            return {}
        try:
            entry = pwd.getpwnam(SYSTEM_USER)
        except KeyError as exc:
            raise PgUnavailable(
                f"running as root, and there is no '{SYSTEM_USER}' user to run PostgreSQL as"
            ) from exc
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
        env.pop("PGDATA", None)
        return subprocess.run(
            args,
            cwd=self.base,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=check,
            **self._as_server_user(),
        )

    def start(self) -> PgServer:
        if self.running:
            return self
        self.base.chmod(0o700)
        identity = self._as_server_user()
        if identity:
            os.chown(self.base, identity["user"], identity["group"])
        try:
            self._run(
                str(self.bindir / "initdb"),
                "--pgdata",
                str(self.datadir),
                "--username",
                SUPERUSER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync",
            )
            options = " ".join(
                (
                    "-c listen_addresses=''",
                    f"-c unix_socket_directories='{self.socket_dir}'",
                    "-c unix_socket_permissions=0777",
                    f"-p {self.port}",
                    *(
                        ()
                        if self.durable
                        else (
                            "-c fsync=off",
                            "-c synchronous_commit=off",
                            "-c full_page_writes=off",
                        )
                    ),
                    "-c max_connections=200",
                    "-c shared_buffers=32MB",
                )
            )
            self._run(
                str(self.bindir / "pg_ctl"),
                "--pgdata",
                str(self.datadir),
                "--log",
                str(self.logfile),
                "--options",
                options,
                "--wait",
                "--timeout",
                "60",
                "start",
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            output = getattr(exc, "stderr", "") or ""
            log = self.logfile.read_text(errors="replace")[-2000:] if self.logfile.exists() else ""
            self.stop()
            raise PgUnavailable(f"PostgreSQL did not start: {output.strip()}\n{log}") from exc
        self.running = True
        atexit.register(self.stop)
        return self

    def stop(self) -> None:
        """Stop the server (immediately: the data is thrown away) and delete its directory."""
        if self.running:
            self.running = False
            self._run(
                str(self.bindir / "pg_ctl"),
                "--pgdata",
                str(self.datadir),
                "--mode",
                "immediate",
                "--wait",
                "stop",
                check=False,
            )
        shutil.rmtree(self.base, ignore_errors=True)

    def next_name(self, prefix: str = "test") -> str:
        self._counter += 1
        return f"{prefix}_{os.getpid()}_{self._counter}"


async def create_database(server: PgServer, name: str, template: str = "template0") -> str:
    """Create database ``name`` (an identifier made by ``next_name``) and return its URL."""
    import asyncpg

    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return server.url(name)


async def drop_database(server: PgServer, name: str) -> None:
    """Drop ``name``, disconnecting anyone still attached (a test that leaked a connection)."""
    import asyncpg

    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def table_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table in ``url``'s public schema, in a stable order.

    Synchronous, for tests that compare snapshots from inside a running event loop: it runs
    its own loop (and connection) on a short-lived thread.
    """
    import asyncpg

    async def read() -> dict[str, list[tuple[Any, ...]]]:
        conn = await asyncpg.connect(url)
        try:
            names = [
                r[0]
                for r in await conn.fetch(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = 'public' ORDER BY table_name"
                )
            ]
            return {
                n: sorted((tuple(r) for r in await conn.fetch(f'SELECT * FROM "{n}"')), key=repr)
                for n in names
            }
        finally:
            await conn.close()

    result: dict[str, list[tuple[Any, ...]]] = {}
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.update(asyncio.run(read()))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if failure:
        raise failure[0]
    return result


def start_server(*, durable: bool = False) -> PgServer:
    """Find the binaries and start a server, or raise :class:`PgUnavailable`."""
    bindir = find_bindir()
    if bindir is None:
        raise PgUnavailable(ENABLE_HINT)
    return PgServer(bindir, durable=durable).start()


if __name__ == "__main__":
    import signal
    import sys

    def _stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)  # runs the finally below: the server never outlives us

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, _stop)
    durable = "--durable" in sys.argv[1:]
    server = start_server(durable=durable)
    try:
        asyncio.run(create_database(server, "crosspath"))
        print(server.url("crosspath"), flush=True)
        print("PostgreSQL is running; press Enter (or close stdin) to stop it.", file=sys.stderr)
        sys.stdin.read() if not sys.stdin.isatty() else input()
    finally:
        server.stop()
