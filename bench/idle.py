"""What two idle ``parlour serve`` processes on one PostgreSQL database and one Redis cost.

Starts two processes (``--redis``), opens one table on the first (it waits for its second
person, so nothing is played), connects a spectator to it through each process (the
second one's is relayed over Redis), waits ``--warmup`` seconds, then reads each
process's CPU seconds from ``/proc/<pid>/stat`` over ``--seconds``. What is left is the
background work of a quiet parlour: the lease heartbeats, the relay's "still here" and the
lobby's refresh, and reading Redis.

    .venv/bin/python bench/idle.py --db postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import httpx
    from server import cpu_seconds, free_port, start_server, tear_down, wait_for
    from websockets.asyncio.client import connect
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


async def watch(base: str, table: str, stop: asyncio.Event) -> None:
    """A spectator of ``table`` through the process at ``base``, until ``stop``."""
    async with connect(base.replace("http", "ws") + f"/ws/tables/{table}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
        await stop.wait()


async def measure(bases: list[str], pids: list[int], warmup: float, seconds: float
                  ) -> list[float]:
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
        res = await http.post("/api/tables", json={
            "game": "spades", "name": "Ann",
            "seats": [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "rule"}] * 2})
        res.raise_for_status()
        table = res.json()["table"]["id"]
    stop = asyncio.Event()
    watchers = [asyncio.create_task(watch(base, table, stop)) for base in bases]
    await asyncio.sleep(warmup)
    before = [cpu_seconds([pid]) for pid in pids]
    started = time.monotonic()
    await asyncio.sleep(seconds)
    after = [cpu_seconds([pid]) for pid in pids]
    elapsed = time.monotonic() - started
    stop.set()
    await asyncio.gather(*watchers)
    return [(b - a) / elapsed for a, b in zip(before, after, strict=True)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL to make a database from")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    report.add_write_flags(parser)
    args = parser.parse_args(argv)

    from sqlalchemy import create_engine, text

    from parlour.server.storage.store import Store

    name = f"parlour_idle_{secrets.token_hex(5)}"
    admin = create_engine(args.db, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = args.db.rsplit("/", 1)[0] + f"/{name}"
    servers = []
    try:
        Store(url).close()
        flags = ["--redis", args.redis, "--redis-prefix", f"bench-{name}:"]
        ports = [free_port() for _ in range(2)]
        servers = [start_server(url, port, 0.5, flags, wait=False) for port in ports]
        for server, port in zip(servers, ports, strict=True):
            wait_for(server, port)
        shares = asyncio.run(measure([f"http://127.0.0.1:{p}" for p in ports],
                                     [s.pid for s in servers], args.warmup, args.seconds))
    finally:
        tear_down(servers, args.redis, name, admin)
    print(json.dumps({"seconds": args.seconds, "owner_cpu_percent": round(100 * shares[0], 2),
                      "relaying_cpu_percent": round(100 * shares[1], 2),
                      "loadavg": [round(x, 2) for x in os.getloadavg()]}))
    if args.write:
        report.write(report.Section(
            "idle", "Two idle server processes on PostgreSQL and Redis",
            "Two `parlour serve --redis` processes sharing one fresh PostgreSQL database, one "
            "table waiting for its second person (nothing played) watched through each "
            "process (the second one's socket relayed over Redis); each process's CPU over "
            f"{args.seconds:g} s, after a warm-up: the lease heartbeats, the relay's \"still "
            "here\", the lobby's refresh and reading Redis.",
            [["process", "share of one core"],
             ["owner of the table", f"{100 * shares[0]:.1f}%"],
             ["relaying a spectator", f"{100 * shares[1]:.1f}%"]]), args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
