"""The per-client limits that every process shares through Redis (with ``--redis``).

A process checks a client against its own limits first (:class:`~parlour.server.edge.limits.
ClientGuard`), then against these, which count the client on every process at once:

* **Token buckets** (creates, joins, log-ins, hints, ...): one hash per client and kind,
  ``<prefix>limit:<kind>:<client>``, refilled by Redis' clock (:data:`BUCKET`).
* **Open websockets**: one sorted set per client, ``<prefix>sockets:<client>``, a member
  per socket open on any process (``<process>/<n>@<table>``) scored by the moment it
  stops counting, by Redis' clock. Opening a socket drops the members past that moment,
  counts the rest (in all, and at that table) and adds its own in one script
  (:data:`SOCKETS`), so concurrent openings cannot pass a cap. Closing it removes the
  member. The process that holds the socket pushes that moment :data:`SOCKET_TTL`
  seconds on at every refresh of its relay (:meth:`SharedLimits.renew`), so the sockets
  of a process that dies stop counting within :data:`SOCKET_TTL` seconds.

``<client>`` is :func:`~parlour.server.edge.limits.client_hash` of the client's key: no address
is written to Redis. Nothing here is needed to recover state: a lost key only gives a
client its allowance back (and a process's next renewal writes its sockets again). With
Redis out of reach, each process's own limits stand.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Literal

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from parlour.server.cluster.outages import REDIS, Outages

log = logging.getLogger("parlour.server")

SOCKET_TTL = 6.0  # seconds a socket counts without being renewed (three relay refreshes)

#: A token bucket in Redis, by Redis's clock (one clock for every process): takes a token
#: for KEYS[1] if there is one; returns the seconds to wait for one (0: taken). ARGV: the
#: rate (tokens a second) and the burst.
BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(b[1]) or burst
local stamp = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return tostring(wait)
"""

#: One more open socket for the client KEYS[1]: ARGV is its member, its table, the caps
#: per table and in all, and the seconds it counts for. Returns '' (counted), or the cap
#: it would pass ('table' or 'client').
SOCKETS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local open = redis.call('ZRANGE', KEYS[1], 0, -1)
if #open >= tonumber(ARGV[4]) then return 'client' end
local here = 0
for _, member in ipairs(open) do
  if string.sub(member, string.find(member, '@', 1, true) + 1) == ARGV[2] then
    here = here + 1
  end
end
if here >= tonumber(ARGV[3]) then return 'table' end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[5])) + 1)
return ''
"""

#: Renew this process's sockets of the client KEYS[1] (ARGV: the seconds they count for,
#: then the members), adding back any that had lapsed while Redis was out of reach.
RENEW = """
local t = redis.call('TIME')
local expires = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expires, ARGV[i]) end
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[1])) + 1)
return #ARGV - 1
"""

Refusal = Literal["table", "client"]


class SharedLimits:
    """This process's side of the shared limits (made by the relay, on its connection)."""

    def __init__(self, redis: aioredis.Redis, prefix: str, process: str,
                 outages: Outages | None = None, ttl: float = SOCKET_TTL) -> None:
        self.redis = redis
        self.outages = outages or Outages()  # Redis's refusals, logged once an outage
        self.prefix = prefix
        self.me = process
        self.ttl = ttl  # seconds a socket counts without being renewed
        self._bucket = redis.register_script(BUCKET)
        self._sockets = redis.register_script(SOCKETS)
        self._renew = redis.register_script(RENEW)
        self.open: dict[str, str] = {}  # member -> its key: the sockets open here
        #: Count-outs under way (held here: the loop keeps only weak references to tasks).
        self.counting_out: set[asyncio.Task[None]] = set()
        self._ids = itertools.count(1)

    async def wait(self, kind: str, client: str, rate: float, burst: int) -> float:
        """Take a token from ``client``'s bucket ``kind`` (``rate`` a second, ``burst`` at
        once; ``client`` is a client hash): 0, or the seconds until there is one."""
        try:
            waited = await self._bucket(keys=[f"{self.prefix}limit:{kind}:{client}"],
                                        args=[rate, burst])
        except RedisError as err:
            self.outages.failed(REDIS, err)  # logged once per outage
            return 0.0
        return float(waited)

    async def open_socket(self, client: str, table_id: str, per_table: int, per_client: int
                          ) -> tuple[Refusal | None, str | None]:
        """Count one more socket of ``client`` (a client hash) at ``table_id``: (None, the
        member to close it with), or (the cap it would pass, None)."""
        member = f"{self.me}/{next(self._ids)}@{table_id}"
        key = f"{self.prefix}sockets:{client}"
        self.open[member] = key  # renewed from now on, even if Redis does not answer now
        try:
            refused = await self._sockets(keys=[key], args=[member, table_id, per_table,
                                                            per_client, self.ttl])
        except RedisError as err:
            self.outages.failed(REDIS, err)
            return None, member
        except BaseException:  # cancelled: never renewed, it lapses
            del self.open[member]
            raise
        if refused:
            del self.open[member]
            return ("table" if refused == "table" else "client"), None
        return None, member

    async def close_socket(self, member: str) -> None:
        key = self.open.pop(member, None)
        if key is None:
            return
        # Shielded: a connection whose task is cancelled as it closes (a server stopping,
        # a test client) is still counted out at once rather than lapsing.
        task = asyncio.ensure_future(self._count_out(key, member))
        self.counting_out.add(task)
        task.add_done_callback(self.counting_out.discard)
        await asyncio.shield(task)

    async def _count_out(self, key: str, member: str) -> None:
        with contextlib.suppress(RedisError):  # else it lapses within ttl seconds
            await self.redis.zrem(key, member)

    async def renew(self) -> None:
        """Keep this process's open sockets counted for another ``ttl`` seconds."""
        by_key: dict[str, list[str]] = {}
        for member, key in self.open.items():
            by_key.setdefault(key, []).append(member)
        if not by_key:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for key, members in by_key.items():
                await self._renew(keys=[key], args=[self.ttl, *members], client=pipe)
            await pipe.execute()
