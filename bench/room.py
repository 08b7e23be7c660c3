"""What the room's streams cost (issue 34): one ``parlour serve`` on SQLite with ``--people``
signed-in pages, each holding its room stream (``GET /api/people/events``).

Makes the accounts and their sessions straight in the database (no Argon2: the bench is
about the streams), pairs them up as friends, opens every stream, waits ``--warmup``
seconds, reads the server's CPU over ``--seconds`` of quiet (the streams' comment lines,
their looks every 60 s, the presence beats), then has one of each pair challenge the other
and times each challenge from the request to the challenged page's stream showing it.

    .venv/bin/python bench/room.py --people 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import httpx
    from server import cpu_seconds, free_port, percentile, start_server, stop_server
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

ROOMY = ["--sockets-per-table", "100000", "--sockets-per-client", "100000",
         "--connections-per-address", "100000", "--challenge-burst", "1000"]


def people(db: Path, count: int) -> list[str]:
    """``count`` accounts, friends in pairs (0 and 1, 2 and 3...); their session tokens."""
    from sqlalchemy import create_engine, insert

    from parlour.server.people.account_names import name_key
    from parlour.server.people.identity import session_hash
    from parlour.server.storage.store import accounts_t, follows_t, sessions_t

    engine = create_engine(f"sqlite:///{db}")
    tokens = []
    with engine.begin() as conn:
        now = time.time()
        for n in range(count):
            name = f"Person {n}"
            aid = conn.execute(insert(accounts_t).values(
                name=name, name_key=name_key(name), password_hash="unused", created=now
            )).inserted_primary_key[0]
            token = secrets.token_urlsafe(32)
            conn.execute(insert(sessions_t).values(token_hash=session_hash(token),
                                                   account_id=aid, created=now,
                                                   expires=now + 3600))
            tokens.append(token)
        for n in range(0, count - 1, 2):
            conn.execute(insert(follows_t), [{"follower": n + 1, "followed": n + 2,
                                              "created": now},
                                             {"follower": n + 2, "followed": n + 1,
                                              "created": now}])
    engine.dispose()
    return tokens


async def listen(base: str, token: str, seen: dict[int, float], ready: asyncio.Event
                 ) -> None:
    """One page's stream, until cancelled: notes when each challenge made to it first
    shows."""
    async with httpx.AsyncClient(base_url=base, timeout=None,
                                 cookies={"parlour_session": token}) as http, \
            http.stream("GET", "/api/people/events") as res:
        res.raise_for_status()
        async for line in res.aiter_lines():
            if not line.startswith("data: "):
                continue
            msg = json.loads(line[6:])
            if msg.get("type") == "room":
                ready.set()
                for c in msg["challenges"]["incoming"]:
                    seen.setdefault(c["id"], time.perf_counter())


async def measure(base: str, pid: int, tokens: list[str], warmup: float, seconds: float
                  ) -> tuple[float, list[float]]:
    seen: dict[int, float] = {}
    readies = [asyncio.Event() for _ in tokens]
    tasks = [asyncio.create_task(listen(base, t, seen, r))
             for t, r in zip(tokens, readies, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    await asyncio.sleep(warmup)
    before, started = cpu_seconds([pid]), time.monotonic()
    await asyncio.sleep(seconds)
    share = (cpu_seconds([pid]) - before) / (time.monotonic() - started)
    latencies = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for n in range(0, len(tokens) - 1, 2):
            sent = time.perf_counter()
            res = await http.post("/api/people/challenges", cookies={
                "parlour_session": tokens[n]}, json={"to": f"Person {n + 1}", "game": "spades"})
            res.raise_for_status()
            made = res.json()["challenge"]
            deadline = time.monotonic() + 30
            while made not in seen and time.monotonic() < deadline:
                await asyncio.sleep(0.001)
            latencies.append(1000 * (seen[made] - sent))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return share, latencies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200, help="pages, each with its stream")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="parlour-room-"))
    db = work / "room.sqlite3"
    port = free_port()
    server = start_server(db, port, 0.5, ROOMY)
    try:
        tokens = people(db, args.people)
        share, latencies = asyncio.run(measure(f"http://127.0.0.1:{port}", server.pid,
                                               tokens, args.warmup, args.seconds))
    finally:
        stop_server(server)
    median, p99 = percentile(latencies, 50), percentile(latencies, 99)
    print(json.dumps({"people": args.people, "idle_cpu_percent": round(100 * share, 2),
                      "challenges": len(latencies), "median_ms": round(median, 1),
                      "p99_ms": round(p99, 1)}))
    if args.write:
        report.write(report.Section(
            "room", "The room's streams: idle cost and a challenge's way to the friend",
            f"One `parlour serve` on SQLite with {args.people} signed-in pages, each holding "
            "its room stream (`GET /api/people/events`), friends in pairs: the server's CPU "
            f"over {args.seconds:g} s of quiet after a warm-up, then one of each pair "
            "challenges the other, one at a time, timed from the request to the challenged "
            "page's stream showing it.",
            [["figure", "value"],
             ["idle CPU, share of one core", f"{100 * share:.1f}%"],
             ["challenge to the friend's page, median", f"{median:.0f} ms"],
             ["challenge to the friend's page, 99th percentile", f"{p99:.0f} ms"]]),
            args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
