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

``create_database()`` gives each test its own empty database and ``drop_database()`` takes it
back, so hundreds of tests do not fill the disk.  ``CREATE DATABASE`` copies all of
``template0``'s catalogs (0.1 s on an idle machine, close to a second on a busy one), which made
it most of a PostgreSQL test's time; so a database that is given back is emptied instead and
kept as a spare: every session attached to it is ended, the ``public`` schema (where the store
keeps everything) is dropped with everything in it and made again as a new database has it, and
the next ``create_database()`` renames the spare rather than copying ``template0``.  A database
with anything a schema reset would not remove (another schema, large objects, extensions,
per-database settings), or that cannot be reset, is dropped as before.  Each ``PgServer`` keeps
its own spares, and each test process (each pytest-xdist worker) starts its own server.

``table_rows()`` reads a whole database for before/after comparisons through one connection per
database, kept open until the database is given back: opening a connection for every snapshot
made the snapshot tests spend most of their time connecting.

``stop()`` is idempotent and also registered with ``atexit``.

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
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
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

_T = TypeVar("_T")


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
    _spares: list[str] = field(default_factory=list)
    """Emptied databases waiting to be handed out again (see :func:`drop_database`)."""

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
        _close_readers(lambda url: url.endswith(self.url("")))
        self._spares.clear()
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
        """A database name no other test process on this machine uses (the pid is in it)."""
        self._counter += 1
        return f"{prefix}_{os.getpid()}_{self._counter}"


async def create_database(server: PgServer, name: str, template: str = "template0") -> str:
    """Create database ``name`` (an identifier made by ``next_name``) and return its URL.

    An empty copy of ``template0`` is a spare emptied by :func:`drop_database` when there is
    one (renamed to ``name``), else a new copy."""
    import asyncpg

    conn = await asyncpg.connect(server.url())
    try:
        while template == "template0" and server._spares:
            spare = server._spares.pop()
            try:
                await conn.execute(f'ALTER DATABASE "{spare}" RENAME TO "{name}"')
                return server.url(name)
            except asyncpg.PostgresError:  # someone reconnected to it: not empty for sure
                await conn.execute(f'DROP DATABASE IF EXISTS "{spare}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return server.url(name)


async def drop_database(server: PgServer, name: str) -> None:
    """Give ``name`` back: empty it and keep it as a spare for :func:`create_database`, or drop
    it when it holds more than a schema reset would remove.  Anyone still attached (a test that
    leaked a connection) is disconnected either way."""
    import asyncpg

    _close_readers(lambda url: url == server.url(name))
    conn = await asyncpg.connect(server.url())
    try:
        if await _empty_for_reuse(server, conn, name):
            server._spares.append(name)
            return
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


async def set_connections(server: PgServer, url: str, allowed: bool) -> None:
    """Let the database of ``url`` take connections or not; refusing also ends the open ones
    (what a PostgreSQL shutting down or failing over does to the bot's pool)."""
    import asyncpg

    name = url.split("?")[0].rsplit("/", 1)[1]
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {allowed}')
        if not allowed:
            await conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
            )
    finally:
        await conn.close()


SESSIONS_GONE_SECONDS = 10.0
"""How long :func:`drop_database` waits for the sessions it ended to be gone."""

LEFTOVERS = """
SELECT (SELECT count(*) FROM pg_namespace
         WHERE nspname <> 'public' AND nspname <> 'information_schema' AND nspname !~ '^pg_')
     + (SELECT count(*) FROM pg_extension WHERE extname <> 'plpgsql')
     + (SELECT count(*) FROM pg_largeobject_metadata)
     + (SELECT count(*) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
        WHERE d.datname = current_database())
"""
"""What a reset of the ``public`` schema would leave behind in a database: other schemas,
extensions, large objects and per-database settings.  Temporary schemas (``pg_temp_N``) are
emptied by PostgreSQL when their session ends."""


def public_schema_sql(server_version: int) -> str:
    """Statements that make the ``public`` schema again exactly as ``template0`` has it.

    Since PostgreSQL 15 it belongs to ``pg_database_owner`` and everyone may only use it;
    before, it belonged to the bootstrap superuser and everyone could also create in it."""
    if server_version >= 150000:
        owner, grant = " AUTHORIZATION pg_database_owner", "USAGE"
    else:
        owner, grant = "", "USAGE, CREATE"
    return (
        "DROP SCHEMA public CASCADE;"
        f" CREATE SCHEMA public{owner};"
        f" GRANT {grant} ON SCHEMA public TO PUBLIC;"
        " COMMENT ON SCHEMA public IS 'standard public schema'"
    )


async def _empty_for_reuse(server: PgServer, admin: Any, name: str) -> bool:
    """End every session on ``name`` and reset its ``public`` schema; False when it must be
    dropped instead (see :data:`LEFTOVERS`) or the reset failed."""
    import asyncpg

    attached = "SELECT count(*) FROM pg_stat_activity WHERE datname = $1"
    await admin.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
    )
    deadline = asyncio.get_running_loop().time() + SESSIONS_GONE_SECONDS
    while await admin.fetchval(attached, name):
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.005)
    try:
        conn = await asyncpg.connect(server.url(name))
    except (OSError, asyncpg.PostgresError):
        return False  # dropped or renamed by the test itself: DROP ... IF EXISTS copes
    try:
        if await conn.fetchval(LEFTOVERS):
            return False
        version = int(await conn.fetchval("SHOW server_version_num"))
        await conn.execute(public_schema_sql(version))  # one implicit transaction: all or none
    except asyncpg.PostgresError:
        return False
    finally:
        await conn.close()
    return True


class _RowReader:
    """One open connection to one database, on a thread of its own with its own event loop,
    so that synchronous callers (tests inside a running loop) can read through it."""

    def __init__(self, url: str) -> None:
        import asyncpg

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        try:
            # No statement cache: tests alter tables between snapshots (migrations, damage).
            self.conn = self.run(asyncpg.connect(url, statement_cache_size=0))
        except BaseException:
            self._stop_loop()
            raise

    def run(self, work: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=60)

    async def read(self) -> dict[str, list[tuple[Any, ...]]]:
        names = [
            r[0]
            for r in await self.conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' ORDER BY table_name"
            )
        ]
        return {
            n: sorted((tuple(r) for r in await self.conn.fetch(f'SELECT * FROM "{n}"')), key=repr)
            for n in names
        }

    def close(self) -> None:
        try:
            self.run(self.conn.close(timeout=5))
        except Exception:
            pass  # the server already ended the session: nothing left to close
        finally:
            self._stop_loop()

    def _stop_loop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


_readers: dict[str, _RowReader] = {}
_readers_lock = threading.Lock()


def _close_readers(which: Callable[[str], bool]) -> None:
    with _readers_lock:
        chosen = [url for url in _readers if which(url)]
        closing = [_readers.pop(url) for url in chosen]
    for reader in closing:
        reader.close()


def table_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table in ``url``'s public schema, in a stable order.

    Synchronous, for tests that compare snapshots from inside a running event loop: it reads
    through a connection of its own that lives on its own thread (kept for the next snapshot of
    the same database until :func:`drop_database` gives the database back), never through the
    caller's loop or the store's connections.
    """
    with _readers_lock:
        reader = _readers.get(url)
    if reader is None:
        reader = _RowReader(url)
        with _readers_lock:
            _readers[url] = reader
    try:
        return reader.run(reader.read())
    except BaseException:
        _close_readers(lambda known: known == url)  # the next snapshot starts afresh
        raise


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
