"""What this process knows of its dependencies' outages: the database and Redis.

A dependency that stops answering is a known failure, not a fault of the server: every
request it was needed for is answered with the documented 503 ``unavailable`` (a socket
is closed with 1013, "try again later"), and the log gets one line when it goes and one
when it comes back, however many requests and heartbeats it refused in between
(:meth:`Outages.failed`, :meth:`Outages.answered`). ``/metrics`` counts the outages and
the refusals; ``/health`` names the dependency that is down. Tracebacks stay for the
unexpected.

Which errors are an outage (:func:`outage_of`): the driver could not reach the server or
lost its connection (SQLAlchemy's ``OperationalError``/``InterfaceError``, or any DBAPI
error that invalidated the connection; redis-py's ``ConnectionError``/``TimeoutError``;
the socket's own ``OSError``). Anything else the database or Redis refuses is a bug and
is logged with its traceback.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

from redis import exceptions as redis_errors
from sqlalchemy import exc as sql_errors

from parlour.server.edge.protocol import ProtocolError

log = logging.getLogger("parlour.server")

TRY_LATER = 1013  # a websocket's close code while a dependency is out of reach: "try again"
DATABASE = "database"
REDIS = "redis"
DEPENDENCIES = (DATABASE, REDIS)


#: The errors a dependency out of reach raises (:func:`outage_of` tells which are outages):
#: the app answers each where it is raised, not only past every handler (errors.install).
DEPENDENCY_ERRORS: tuple[type[Exception], ...] = (
    sql_errors.DBAPIError, sql_errors.TimeoutError, redis_errors.ConnectionError,
    redis_errors.TimeoutError)


def outage_of(err: BaseException) -> str | None:
    """The dependency ``err`` says is out of reach, or None (a fault to log in full)."""
    if isinstance(err, sql_errors.DBAPIError) and (
            err.connection_invalidated
            or isinstance(err, (sql_errors.OperationalError, sql_errors.InterfaceError))):
        return DATABASE
    if isinstance(err, sql_errors.TimeoutError):  # the pool: every connection is stuck
        return DATABASE
    if isinstance(err, (redis_errors.ConnectionError, redis_errors.TimeoutError)):
        return REDIS
    return None


def unavailable(dependency: str) -> ProtocolError:
    """The refusal of a request that needed ``dependency`` while it is out of reach."""
    if dependency == DATABASE:
        return ProtocolError("unavailable", "the parlour's database does not answer: try "
                                            "again in a moment")
    return ProtocolError("unavailable", "the parlour's servers cannot reach each other: "
                                        "try again in a moment")


class Outages:
    """The state of each dependency as this process last found it; thread-safe (the
    database is written from the store's own thread)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.down_since: dict[str, float] = {}
        self.outages: Counter[str] = Counter()  # times each went out of reach (a metric)
        self.refused: Counter[str] = Counter()  # operations it refused meanwhile (a metric)
        self._lock = threading.Lock()

    def down(self, dependency: str) -> bool:
        return dependency in self.down_since

    def failed(self, dependency: str, err: BaseException | str) -> None:
        """``dependency`` did not answer: logged once per outage, counted always."""
        with self._lock:
            self.refused[dependency] += 1
            if dependency in self.down_since:
                return
            self.down_since[dependency] = self.clock()
            self.outages[dependency] += 1
        log.warning("lost %s: %s", "the database" if dependency == DATABASE else "redis",
                    _first_line(err))

    def answered(self, dependency: str) -> None:
        """``dependency`` answered: if it was out of reach, one line says it is back."""
        if dependency not in self.down_since:  # the common case: no lock taken
            return
        with self._lock:
            since = self.down_since.pop(dependency, None)
        if since is not None:
            log.warning("%s is back after %.1f s",
                        "the database" if dependency == DATABASE else "redis",
                        self.clock() - since)

    def note(self, err: BaseException) -> bool:
        """Count ``err`` if it is an outage (True), else leave it to the caller (False)."""
        dependency = outage_of(err)
        if dependency is None:
            return False
        self.failed(dependency, err)
        return True


def _first_line(err: BaseException | str) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0][:200]
