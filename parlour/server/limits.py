"""What one client may take of the server, and who a client is.

Every limit is a setting (:class:`Limits`): ``parlour serve --<name>`` or the environment
variable ``PARLOUR_<NAME>``, with the defaults below (docs/operations.md lists them).

A client is known by a :data:`ClientKey`: its address, ``ip:203.0.113.7`` (IPv6 counted per
/64, ``ip:2001:db8:1:2::/64``, since one host holds a whole /64), and once accounts exist
``account:<id>``. The address is the TCP peer's, or the one a configured trusted proxy
forwards (``--trusted-proxies``); a forwarding header from anyone else is ignored.

Rates are token buckets per client (:class:`PerClient`); counts (open tables, open
websockets) are checked and taken in one step with no ``await`` between, so concurrent
requests cannot all slip under a cap.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from parlour.message import Message as Text
from parlour.message import Param
from parlour.server.protocol import ProtocolError

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


@dataclass
class PerClient:
    """A token bucket per client: ``rate`` per second on average, ``burst`` at once."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    buckets: dict[ClientKey, Bucket] = field(default_factory=dict)

    def wait(self, key: ClientKey) -> float:
        """Take one token for ``key``: 0 if it had one, else the seconds until it will."""
        now = self.clock()
        if len(self.buckets) > 10_000:
            self._forget_full(now)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled up again (they are as good as new)."""
        full = [k for k, b in self.buckets.items()
                if b.tokens + (now - b.stamp) * self.rate >= self.burst]
        for k in full:
            del self.buckets[k]


class TableQuota:
    """The open-table caps: ``open_tables`` for the server, ``open_tables_per_client`` for
    each client. A slot is checked and held in one step (no ``await`` between), and held
    until the new table is counted among the open ones, so concurrent creates cannot pass
    the caps."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pending: Counter[ClientKey | None] = Counter()

    @contextmanager
    def slot(self, open_owners: Iterable[ClientKey | None], owner: ClientKey | None
             ) -> Iterator[None]:
        """Hold a slot for ``owner``'s new table, given the owners of the open tables."""
        owners = Counter(open_owners)
        total = sum(owners.values()) + sum(self.pending.values())
        if total >= self.limits.open_tables:
            raise TooMany("busy", "the parlour is full: try again later", 60)
        if owner is not None and owners[owner] + self.pending[owner] \
                >= self.limits.open_tables_per_client:
            raise TooMany("rate_limited", "you have {n} tables open already: finish or leave "
                                          "one first", 60, n=self.limits.open_tables_per_client)
        self.pending[owner] += 1
        try:
            yield
        finally:
            self.pending[owner] -= 1
            if not self.pending[owner]:
                del self.pending[owner]


class ClientGuard:
    """The per-client limits of the HTTP API and the websocket, for one app."""

    SOCKET_RETRY = 10.0  # seconds to wait before retrying a refused websocket

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.creates = PerClient(limits.creates_per_minute / 60, limits.create_burst, clock)
        self.joins = PerClient(limits.joins_per_minute / 60, limits.join_burst, clock)
        self.logins = PerClient(limits.logins_per_minute / 60, limits.login_burst, clock)
        self.signups = PerClient(limits.signups_per_hour / 3600, limits.signup_burst, clock)
        self.recoveries = PerClient(limits.recoveries_per_hour / 3600, limits.recovery_burst,
                                    clock)
        self.reports = PerClient(limits.reports_per_hour / 3600, limits.report_burst, clock)
        self.reviews = PerClient(limits.reviews_per_minute / 60, limits.review_burst, clock)
        self.hints = PerClient(limits.hints_per_minute / 60, limits.hint_burst, clock)
        self.sockets: Counter[ClientKey] = Counter()
        self.table_sockets: Counter[tuple[ClientKey, str]] = Counter()

    def create(self, key: ClientKey) -> None:
        wait = self.creates.wait(key)
        if wait:
            raise TooMany("rate_limited", "you are opening tables too fast: wait a little",
                          wait)

    def join(self, key: ClientKey) -> None:
        wait = self.joins.wait(key)
        if wait:
            raise TooMany("rate_limited", "you are taking seats too fast: wait a little", wait)

    async def shared(self, kind: str, key: ClientKey,
                     wait: Callable[[str, str, float, int], Awaitable[float]] | None) -> None:
        """``create`` or ``join`` for ``key`` (this process's bucket), then the same bucket
        shared by every process (``wait``: :meth:`parlour.server.relay.Relay.wait`), if
        there are several."""
        if kind == "create":
            self.create(key)
            rate, burst = self.limits.creates_per_minute, self.limits.create_burst
        else:
            self.join(key)
            rate, burst = self.limits.joins_per_minute, self.limits.join_burst
        if wait is not None:
            seconds = await wait(kind, key, rate, burst)
            if seconds:
                if kind == "create":
                    raise TooMany("rate_limited", "you are opening tables too fast: wait a "
                                  "little", seconds)
                raise TooMany("rate_limited", "you are taking seats too fast: wait a little",
                              seconds)

    @staticmethod
    def take(bucket: PerClient, keys: Iterable[ClientKey], message: str) -> None:
        """Take a token of ``bucket`` for each of ``keys`` (an address and an account, say):
        ``rate_limited`` with the longest wait if any of them has none left."""
        wait = max((bucket.wait(key) for key in keys), default=0.0)
        if wait:
            raise TooMany("rate_limited", message, wait)

    def review(self, key: ClientKey) -> None:
        wait = self.reviews.wait(key)
        if wait:
            raise TooMany("rate_limited", "you are asking for reviews too fast: wait a "
                                          "little", wait)

    def hint(self, key: ClientKey) -> None:
        wait = self.hints.wait(key)
        if wait:
            raise TooMany("rate_limited", "you are asking for hints too fast: think a "
                                          "little first", wait)

    def open_socket(self, key: ClientKey, table_id: str) -> Callable[[], None]:
        """Count one more websocket of ``key`` at ``table_id``; returns the function that
        counts it out when it closes (call it once)."""
        if self.sockets[key] >= self.limits.sockets_per_client:
            raise TooMany("rate_limited", "you have {n} connections open already",
                          self.SOCKET_RETRY, n=self.limits.sockets_per_client)
        if self.table_sockets[key, table_id] >= self.limits.sockets_per_table:
            raise TooMany("rate_limited", "you have {n} connections to this table already",
                          self.SOCKET_RETRY, n=self.limits.sockets_per_table)
        self.sockets[key] += 1
        self.table_sockets[key, table_id] += 1

        def release() -> None:
            self.sockets[key] -= 1
            if not self.sockets[key]:
                del self.sockets[key]
            self.table_sockets[key, table_id] -= 1
            if not self.table_sockets[key, table_id]:
                del self.table_sockets[key, table_id]

        return release
