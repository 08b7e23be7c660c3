"""What one client may take of the server, and who a client is.

Every limit is a setting (:class:`Limits`): ``parlour serve --<name>`` or the environment
variable ``PARLOUR_<NAME>``, with the defaults below (docs/operations.md lists them).

A client is known by a :data:`ClientKey`: its address, ``ip:203.0.113.7`` (IPv6 counted per
/64, ``ip:2001:db8:1:2::/64``, since one host holds a whole /64), and once accounts exist
``account:<id>``. The address is the TCP peer's, or the one a configured trusted proxy
forwards (``--trusted-proxies``); a forwarding header from anyone else is ignored.

Rates are token buckets per client (:class:`PerClient`). Open websockets are counted in
memory, checked and taken in one step with no ``await`` between, so concurrent requests
cannot all slip under a cap. With several processes (``--redis``) the buckets and the
socket counts are then checked again in Redis, where every process counts
(:mod:`parlour.server.cluster.shared_limits`). Open tables are counted in the database, by the
transaction that creates one (:class:`TableQuota`), so that cap holds for every process
sharing the database.
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy import ColumnElement, Connection, func, select

from parlour.message import N_, Param
from parlour.message import Message as Text
from parlour.server.cluster.shared_limits import Refusal, SharedLimits
from parlour.server.edge.protocol import ProtocolError
from parlour.server.storage.store import Op, tables_t

ClientKey = str

Networks = Annotated[list[str], NoDecode]


class Limits(BaseSettings):
    """The limits and timeouts of the server's edge (each a CLI flag and an env variable)."""

    model_config = SettingsConfigDict(env_prefix="PARLOUR_", extra="forbid",
                                      validate_assignment=True)

    max_body: int = Field(16 * 1024, ge=256, description="bytes a request body may have")
    open_tables: int = Field(2000, ge=1, description="tables waiting or playing on the "
                                                       "server at once")
    open_tables_per_client: int = Field(20, ge=1, description="of those, opened by one "
                                                               "client")
    creates_per_minute: float = Field(10.0, gt=0, description="tables one client may open "
                                                               "a minute, on average")
    create_burst: int = Field(10, ge=1, description="and at once")
    joins_per_minute: float = Field(30.0, gt=0, description="seats one client may take a "
                                                             "minute, on average")
    join_burst: int = Field(20, ge=1, description="and at once")
    reviews_per_minute: float = Field(2.0, gt=0, description="post-game reviews one client "
                                                             "may start a minute, on average")
    review_burst: int = Field(4, ge=1, description="and at once")
    hints_per_minute: float = Field(30.0, gt=0, description="hints one client may ask for a "
                                                             "minute, on average")
    hint_burst: int = Field(10, ge=1, description="and at once")
    sockets_per_table: int = Field(8, ge=1, description="websockets one client may hold "
                                                         "open at one table")
    sockets_per_client: int = Field(64, ge=1, description="websockets one client may hold "
                                                           "open in all")
    connections_per_address: int = Field(256, ge=1, description="TCP connections one "
                                                                 "address may hold open")
    header_timeout: float = Field(10.0, gt=0, description="seconds a connection has to send "
                                                           "a request's headers")
    body_timeout: float = Field(15.0, gt=0, description="seconds a connection has to send "
                                                         "a request's body, after its headers")
    logins_per_minute: float = Field(4.0, gt=0, description="log-in attempts a minute, on "
                                     "average, per address and per account name")
    login_burst: int = Field(8, ge=1, description="and at once")
    signups_per_hour: float = Field(10.0, gt=0, description="accounts one address may make "
                                                             "an hour, on average")
    signup_burst: int = Field(5, ge=1, description="and at once")
    recoveries_per_hour: float = Field(6.0, gt=0, description="recovery-code tries an hour, "
                                       "on average, per address and per account name")
    recovery_burst: int = Field(5, ge=1, description="and at once")
    reports_per_hour: float = Field(10.0, gt=0, description="reports of players one account "
                                                             "may file an hour, on average")
    report_burst: int = Field(5, ge=1, description="and at once")
    follows_per_minute: float = Field(20.0, gt=0, description="follows, blocks and their "
                                      "undoing one account may make a minute, on average")
    follow_burst: int = Field(20, ge=1, description="and at once")
    challenges_per_hour: float = Field(60.0, gt=0, description="challenges (made, answered "
                                       "or withdrawn) one account may send an hour, on "
                                       "average")
    challenge_burst: int = Field(10, ge=1, description="and at once")
    quick_per_minute: float = Field(240.0, gt=0, description="quick-play requests (starting, "
                                    "asking how a wait stands, cancelling) one address may "
                                    "send a minute, on average (a waiting page asks every "
                                    "1.5 s)")
    quick_burst: int = Field(30, ge=1, description="and at once")
    puzzles_per_minute: float = Field(60.0, gt=0, description="puzzle requests (a puzzle "
                                      "asked for, an answer given) one address may send a "
                                      "minute, on average")
    puzzle_burst: int = Field(20, ge=1, description="and at once")
    trusted_proxies: Networks = Field(default_factory=list, description="addresses or "
                                      "networks (comma-separated) whose X-Forwarded-For is "
                                      "believed")
    allowed_origins: Networks = Field(default_factory=list, description="websocket origins "
                                      "allowed besides the page's own host (comma-separated; "
                                      "* for any)")

    @field_validator("trusted_proxies", "allowed_origins", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for net in value:
            ipaddress.ip_network(net, strict=False)  # ValueError names the bad one
        return value


def client_key(host: str | None) -> ClientKey:
    """The key a peer address counts under: the IPv4 address, or the IPv6 /64."""
    if not host:
        return "ip:unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return f"ip:{host[:64]}"  # not an IP (a test client, a unix socket): as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return f"ip:{ip.ipv4_mapped}"
        return f"ip:{ipaddress.IPv6Network((ip, 64), strict=False)}"
    return f"ip:{ip}"


class TooMany(ProtocolError):
    """A per-client limit reached: HTTP 429 (503 for the server's own cap) with
    ``Retry-After``."""

    def __init__(self, code: str, message: Text | str, retry_after: float,
                 **params: Param) -> None:
        super().__init__(code, message, **params)
        self.retry_after = max(1, math.ceil(retry_after))


@dataclass
class Bucket:
    tokens: float
    stamp: float


#: The most buckets one limiter keeps (each about 200 bytes): past it, the one used least
#: recently is dropped, so memory stays bounded whatever names an attacker sends.
MAX_BUCKETS = 100_000


@dataclass
class PerClient:
    """A token bucket per client: ``rate`` per second on average, ``burst`` at once.

    Every :meth:`wait` costs O(1) and the buckets are bounded (``capacity``): they are
    kept least recently used first, so the ones that have filled up again (as good as
    new) are dropped from the front as they are met, and past ``capacity`` the least
    recently used one goes, full or not (a client silent for that long, while
    ``capacity`` others were counted, gets its allowance back)."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    capacity: int = MAX_BUCKETS
    buckets: OrderedDict[ClientKey, Bucket] = field(default_factory=OrderedDict)

    def wait(self, key: ClientKey) -> float:
        """Take one token for ``key``: 0 if it had one, else the seconds until it will."""
        now = self.clock()
        bucket = self.buckets.pop(key, None)
        self._forget_full(now)
        if bucket is None:
            bucket = Bucket(float(self.burst), now)
        self.buckets[key] = bucket  # now the most recently used
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        """Drop, from the least recently used end, the buckets that have filled up again
        (each is met once after its last use, so this is O(1) a call amortised), then the
        oldest ones past the capacity."""
        while self.buckets:
            key, oldest = next(iter(self.buckets.items()))
            if oldest.tokens + (now - oldest.stamp) * self.rate < self.burst \
                    and len(self.buckets) < self.capacity:
                return
            del self.buckets[key]


HASHED = "hash:"  # the key of a client known by its hash only (relayed from another process)


def client_hash(client: ClientKey) -> str:
    """A client as it is kept outside this process (Redis' keys and messages, the rows of
    the tables it opened): a hash of its key, never its address in the clear."""
    if client.startswith(HASHED):
        return client[len(HASHED):]
    return hashlib.sha256(client.encode()).hexdigest()[:32]


#: The transaction-scoped advisory lock that makes PostgreSQL take creates one at a time,
#: each counting the open tables after the one before it committed.
QUOTA_LOCK = 0x7061726C6F7572  # "parlour"
OPEN = ("waiting", "playing")


class TableQuota:
    """The open-table caps: ``open_tables`` for the server; for each client,
    ``open_tables_per_client``, and ``searching`` of them with searching bots. They are
    counted in the database, by the transaction that creates the table (:meth:`capped`),
    so they hold for every process sharing it, concurrent creates cannot pass them, and a
    table stops counting the moment the database says it finished or closed."""

    def __init__(self, limits: Limits, searching: int) -> None:
        self.limits = limits
        self.searching = searching

    def capped(self, create: Op, client: str | None, searches: bool) -> Capped:
        """``create`` (a new table's write, by ``client``: its :func:`client_hash`), done
        only within the caps; after the write, its ``refusal`` says if it was not."""
        return Capped(self, create, client, searches)

    def refusal(self, conn: Connection, client: str | None, searches: bool
                ) -> TooMany | None:
        """Whether one more table by ``client`` would pass a cap, counted in ``conn``'s
        transaction."""
        def count(*where: ColumnElement[bool]) -> int:
            return int(conn.scalar(select(func.count()).select_from(tables_t)
                                   .where(tables_t.c.status.in_(OPEN), *where)) or 0)

        if count() >= self.limits.open_tables:
            return TooMany("busy", "the parlour is full: try again later", 60)
        if client is None:
            return None
        if count(tables_t.c.client == client) >= self.limits.open_tables_per_client:
            return TooMany("rate_limited", "you have {n} tables open already: finish or leave "
                                           "one first", 60, n=self.limits.open_tables_per_client)
        if searches:
            mine = count(tables_t.c.client == client, tables_t.c.searches.is_(True))
            if mine >= self.searching:
                return TooMany("too_many", "you have {n} open tables with searching bots "
                                           "already, the most one player may have: finish one "
                                           "first", 60, n=mine)
        return None


@dataclass
class Capped:
    """A table's creation within the open-table caps (:meth:`TableQuota.capped`)."""

    quota: TableQuota
    create: Op
    client: str | None
    searches: bool
    refusal: TooMany | None = None  # set by the write: the cap it would have passed

    def __call__(self, conn: Connection) -> None:
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_advisory_xact_lock(QUOTA_LOCK)))
        # A refused create writes nothing and raises nothing, so that the other writes
        # committed with it (group commit) are not rolled back for it.
        self.refusal = self.quota.refusal(conn, self.client, self.searches)
        if self.refusal is None:
            self.create(conn)


#: The per-client token buckets, and what a client is told when one is empty (a caller
#: may say it its own way).
Kind = Literal["create", "join", "review", "hint", "login", "signup", "recovery", "report",
               "follow", "challenge", "quick", "puzzle"]
TOO_FAST: dict[Kind, str] = {
    "create": N_("you are opening tables too fast: wait a little"),
    "join": N_("you are taking seats too fast: wait a little"),
    "review": N_("you are asking for reviews too fast: wait a little"),
    "hint": N_("you are asking for hints too fast: think a little first"),
    "login": N_("too many log-in attempts: wait a little"),
    "signup": N_("too many new accounts from here: wait a while"),
    "recovery": N_("too many recovery attempts: wait a while"),
    "report": N_("you have sent many reports: wait a while"),
    "follow": N_("you are following and blocking too fast: wait a little"),
    "challenge": N_("you are sending challenges too fast: wait a little"),
    "quick": N_("you are asking to play too fast: wait a little"),
    "puzzle": N_("you are asking for puzzles too fast: wait a little"),
}


class ClientGuard:
    """The per-client limits of the HTTP API and the websocket, for one app: this
    process's own, and, with several processes (``--redis``), the ones they share
    (``shared``, :mod:`parlour.server.cluster.shared_limits`), checked after this process's."""

    SOCKET_RETRY = 10.0  # seconds to wait before retrying a refused websocket

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits

        def per_minute(rate: float, burst: int) -> PerClient:
            return PerClient(rate / 60, burst, clock)

        self.buckets: dict[Kind, PerClient] = {
            "create": per_minute(limits.creates_per_minute, limits.create_burst),
            "join": per_minute(limits.joins_per_minute, limits.join_burst),
            "review": per_minute(limits.reviews_per_minute, limits.review_burst),
            "hint": per_minute(limits.hints_per_minute, limits.hint_burst),
            "login": per_minute(limits.logins_per_minute, limits.login_burst),
            "signup": per_minute(limits.signups_per_hour / 60, limits.signup_burst),
            "recovery": per_minute(limits.recoveries_per_hour / 60, limits.recovery_burst),
            "report": per_minute(limits.reports_per_hour / 60, limits.report_burst),
            "follow": per_minute(limits.follows_per_minute, limits.follow_burst),
            "challenge": per_minute(limits.challenges_per_hour / 60, limits.challenge_burst),
            "quick": per_minute(limits.quick_per_minute, limits.quick_burst),
            "puzzle": per_minute(limits.puzzles_per_minute, limits.puzzle_burst),
        }
        self.shared: SharedLimits | None = None  # set by the app's lifespan with --redis
        self.sockets: Counter[ClientKey] = Counter()
        self.table_sockets: Counter[tuple[ClientKey, str]] = Counter()

    async def take(self, kind: Kind, *keys: ClientKey, message: str | None = None) -> None:
        """Take a token of the ``kind`` bucket for each of ``keys`` in turn (an address,
        then an account name, say), from this process's buckets and then from the shared
        ones: ``rate_limited`` at the first that has none left, whose wait it tells; the
        keys after it are not counted (so a refused address makes no bucket per name)."""
        bucket = self.buckets[kind]
        for key in keys:  # the first key refused stops it: the others are not counted
            wait = bucket.wait(key)
            if wait:
                raise TooMany("rate_limited", message or TOO_FAST[kind], wait)
        if self.shared is not None:
            for key in keys:
                wait = await self.shared.wait(kind, client_hash(key), bucket.rate,
                                              bucket.burst)
                if wait:
                    raise TooMany("rate_limited", message or TOO_FAST[kind], wait)

    def _too_many_sockets(self, cap: Refusal) -> TooMany:
        if cap == "client":
            return TooMany("rate_limited", "you have {n} connections open already",
                           self.SOCKET_RETRY, n=self.limits.sockets_per_client)
        return TooMany("rate_limited", "you have {n} connections to this table already",
                       self.SOCKET_RETRY, n=self.limits.sockets_per_table)

    async def open_socket(self, key: ClientKey, table_id: str
                          ) -> Callable[[], Awaitable[None]]:
        """Count one more websocket of ``key`` at ``table_id``, here and then on every
        process; returns the coroutine function that counts it out when it closes (await
        it once)."""
        if self.sockets[key] >= self.limits.sockets_per_client:
            raise self._too_many_sockets("client")
        if self.table_sockets[key, table_id] >= self.limits.sockets_per_table:
            raise self._too_many_sockets("table")
        self.sockets[key] += 1
        self.table_sockets[key, table_id] += 1

        def count_out() -> None:
            self.sockets[key] -= 1
            if not self.sockets[key]:
                del self.sockets[key]
            self.table_sockets[key, table_id] -= 1
            if not self.table_sockets[key, table_id]:
                del self.table_sockets[key, table_id]

        shared, member = self.shared, None
        if shared is not None:
            try:
                cap, member = await shared.open_socket(client_hash(key), table_id,
                                                       self.limits.sockets_per_table,
                                                       self.limits.sockets_per_client)
            except BaseException:  # cancelled (the client went): not counted here either
                count_out()
                raise
            if cap is not None:
                count_out()
                raise self._too_many_sockets(cap)

        async def release() -> None:
            count_out()
            if shared is not None and member is not None:
                await shared.close_socket(member)

        return release
