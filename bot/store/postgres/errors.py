"""Turn asyncpg's and the socket layer's exceptions into the store's own errors.

Nothing from asyncpg crosses the store's boundary (see :mod:`bot.store.errors`): the service
catches ``WriteConflict`` and ``ChannelTaken``, and an operator reads the others.  Messages
name the server by its URL without the password and quote at most ~100 characters of what
PostgreSQL said.
"""

from __future__ import annotations

import socket

import asyncpg

from .. import errors
from ..errors import StoreError, quoted

ONE_ACTIVE_INDEX = "games_one_active_per_channel"
MOVES_KEY = "moves_pkey"
HISTORY_KEY = "rating_history_pkey"


def unusable(exc: BaseException) -> bool:
    """Whether ``exc`` says asyncpg left the connection in an error state: it read the
    server's last message (the server ended the session) while no statement was waiting, so
    the next statement found "another operation in progress".  Such a connection must be
    closed, or the pool would hand it out again."""
    return isinstance(exc, asyncpg.InternalClientError)


def translate(exc: BaseException, where: str) -> StoreError:
    """The store error for ``exc``, raised while talking to the database at ``where``."""
    if isinstance(exc, StoreError):
        return exc
    if unusable(exc):
        return errors.DatabaseFailure(
            f"lost the connection to PostgreSQL at {where}: the server ended the session"
        )
    if isinstance(exc, asyncpg.UniqueViolationError):
        if exc.constraint_name == ONE_ACTIVE_INDEX:
            return errors.ChannelTaken("that channel already has an active game")
        if exc.constraint_name == MOVES_KEY:
            return errors.WriteConflict("another command stored a move for this turn first")
        if exc.constraint_name == HISTORY_KEY:
            return errors.WriteConflict("another command finished this game first")
        return errors.DatabaseFailure(f"PostgreSQL at {where} refused a duplicate: {quoted(exc)}")
    if isinstance(exc, asyncpg.SerializationError | asyncpg.DeadlockDetectedError):
        return errors.WriteConflict("another command changed the same game at the same time")
    if isinstance(exc, asyncpg.LockNotAvailableError | asyncpg.QueryCanceledError):
        return errors.DatabaseBusy(
            f"PostgreSQL at {where} kept a row locked for longer than the lock timeout;"
            " another process is holding a long transaction"
        )
    if isinstance(exc, asyncpg.DiskFullError):
        return errors.DiskFull(
            f"the disk of PostgreSQL at {where} is full; the write was rolled back"
        )
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return errors.ReadOnlyDatabase(
            f"PostgreSQL at {where} is read-only (a standby?); point Crosspath at the primary"
        )
    if isinstance(exc, asyncpg.InsufficientPrivilegeError):
        return errors.ReadOnlyDatabase(
            f"the PostgreSQL user lacks a privilege at {where}: {quoted(exc)};"
            " grant it ownership of the database"
        )
    if isinstance(exc, asyncpg.ConnectionDoesNotExistError | asyncpg.ConnectionFailureError):
        return errors.DatabaseFailure(
            f"lost the connection to PostgreSQL at {where}: {quoted(exc)}"
        )
    if isinstance(exc, asyncpg.InterfaceError) and "pool is closing" in str(exc).lower():
        return errors.StoreClosed("the store is closed")
    if isinstance(exc, asyncpg.PostgresError):
        return errors.DatabaseFailure(f"PostgreSQL at {where} failed: {quoted(exc)}")
    if isinstance(exc, OSError):
        return errors.DatabaseFailure(
            f"lost the connection to PostgreSQL at {where}: {quoted(exc)}"
        )
    return errors.DatabaseFailure(f"PostgreSQL at {where} failed: {quoted(exc)}")


def translate_connect(exc: BaseException, where: str) -> StoreError:
    """The store error for a failure to connect to (or open) the database at ``where``."""
    if isinstance(exc, StoreError):
        return exc
    if isinstance(exc, ValueError | asyncpg.ClientConfigurationError):
        return errors.NotADatabase(f"{where} is not a usable PostgreSQL URL: {quoted(exc)}")
    if isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        return errors.DatabaseUnusable(
            f"PostgreSQL at {where} refused the login: {quoted(exc)}; check the user and password"
        )
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        return errors.DatabaseUnusable(
            f"PostgreSQL at {where} has no such database: {quoted(exc)}; create it first (createdb)"
        )
    if isinstance(exc, asyncpg.CannotConnectNowError | asyncpg.TooManyConnectionsError):
        return errors.DatabaseUnusable(
            f"PostgreSQL at {where} is not accepting connections: {quoted(exc)}"
        )
    if isinstance(exc, socket.gaierror):
        return errors.DatabaseUnusable(f"cannot find the PostgreSQL host of {where}: {quoted(exc)}")
    if isinstance(exc, OSError | TimeoutError | asyncpg.ClientCannotConnectError):
        return errors.DatabaseUnusable(
            f"cannot reach PostgreSQL at {where}: {quoted(exc)}; is the server running there?"
        )
    if isinstance(exc, asyncpg.PostgresError):
        return errors.DatabaseUnusable(f"PostgreSQL at {where} refused to open: {quoted(exc)}")
    return translate(exc, where)
