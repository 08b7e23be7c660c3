"""How soon play resumes when a table's owner dies (issue 31, item 6).

Starts ``--processes`` ``parlour serve`` processes on a fresh PostgreSQL database (made
from ``--db``, dropped after) and Redis (a key prefix of the run's own), opens ``--tables``
Spades tables of rule bots and one table with two people, whose clients play from the
processes that do not own it (relayed, reconnecting to the next process when theirs dies)
and act as soon as it is their turn. Then, ``--kills`` times, it kills the process owning
most tables (``kill -9``) and, for each table that moved, reads from the database:

* **lease move**: the new owner's claim minus the dead owner's last heartbeat (the
  database's clock): what the leases give (``TTL + BEAT`` at most);
* **resume**: the first action written after the claim minus the claim (the same
  machine's clock): the gap this benchmark is about (issue 31 asks for 0.5 s at most);
* **from kill**: the first action after the kill, minus the kill.

    .venv/bin/python bench/failover.py --db postgresql+psycopg://postgres@127.0.0.1:5432/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import httpx
from server import free_port, start_server, wait_for
from sqlalchemy import create_engine, select, text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from parlour.server.storage.store import Store, actions_t, leases_t

BOTS = [{"kind": "bot", "bot": "rule"}] * 4
PEOPLE = [{"kind": "person"}, {"kind": "bot", "bot": "rule"}, {"kind": "person"},
          {"kind": "bot", "bot": "rule"}]


def owner_pid(owner: str) -> int:
    return int(owner.split("-")[-2])


def leases(engine: Any, tables: list[str]) -> dict[str, tuple[str, float, float]]:
    """Each table's lease: owner, when it runs out, when its owner took it."""
    with engine.connect() as conn:
        rows = conn.execute(select(leases_t.c.table_id, leases_t.c.owner, leases_t.c.expires,
                                   leases_t.c.taken).where(leases_t.c.table_id.in_(tables)))
        return {r[0]: (r[1], float(r[2]), float(r[3] or 0)) for r in rows}


def first_action_after(engine: Any, table: str, after: float) -> float | None:
    with engine.connect() as conn:
        return conn.execute(select(actions_t.c.at).where(actions_t.c.table_id == table,
                                                         actions_t.c.at > after)
                            .order_by(actions_t.c.at).limit(1)).scalar()


def person_wait(engine: Any, table: str, after: float) -> float | None:
    """How long the first person to act after ``after`` took: from when its turn came
    (the action before it, or ``after``) to its action; its client acts at once, so this
    is how soon the new owner heard from it."""
    with engine.connect() as conn:
        rows = conn.execute(select(actions_t.c.seat, actions_t.c.at)
                            .where(actions_t.c.table_id == table, actions_t.c.at > after)
                            .order_by(actions_t.c.at)).all()
    ready = after
    for seat, at in rows:
        if seat in (0, 2):
            return float(at) - ready
        ready = float(at)
    return None


async def person(bases: list[str], at: int, table: str, token: str,
                 stop: asyncio.Event) -> None:
    """A person's page: plays its seat at once, reconnects to the next process if its
    own goes."""
    while not stop.is_set():
        base = bases[at % len(bases)].replace("http", "ws")
        try:
            async with connect(f"{base}/ws/tables/{table}", open_timeout=3) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                seat = None
                while not stop.is_set():
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if msg["type"] == "welcome":
                        seat = msg["seat"]
                    elif msg["type"] == "view" and msg["status"] == "playing" \
                            and seat in msg["view"]["to_act"] and msg["view"]["legal"]:
                        await ws.send(json.dumps({"type": "act", "version": msg["version"],
                                                  "action": msg["view"]["legal"][0]}))
        except (OSError, ConnectionClosed, TimeoutError):
            at += 1
            await asyncio.sleep(0.3)  # the page's first retry


async def run(args: argparse.Namespace) -> list[dict[str, float]]:
    name = f"failover_{uuid.uuid4().hex[:10]}"
    admin = create_engine(args.db, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = args.db.rsplit("/", 1)[0] + f"/{name}"
    Store(url).close()
    engine = create_engine(url)
    flags = ["--redis", args.redis, "--redis-prefix", f"bench-{name}:",
             "--open-tables-per-client", "1000", "--create-burst", "1000"]
    ports = [free_port() for _ in range(args.processes)]
    procs = [start_server(url, port, args.bot_pause, flags, wait=False) for port in ports]
    results: list[dict[str, float]] = []
    stop = asyncio.Event()
    try:
        for proc, port in zip(procs, ports, strict=True):
            wait_for(proc, port)
        bases = [f"http://127.0.0.1:{p}" for p in ports]
        async with httpx.AsyncClient(timeout=10) as http:
            tables = []
            for i in range(args.tables):
                res = await http.post(f"{bases[i % len(bases)]}/api/tables",
                                      json={"game": "spades", "seats": BOTS})
                tables.append(res.json()["table"]["id"])
            made = (await http.post(f"{bases[0]}/api/tables", json={
                "game": "spades", "seats": PEOPLE, "name": "Ann", "turn_seconds": 0})).json()
            shared = made["table"]["id"]
            joined = (await http.post(f"{bases[1]}/api/tables/{shared}/join",
                                      json={"name": "Bea"})).json()
        tables.append(shared)
        people = [asyncio.create_task(person(bases, 1, shared, made["token"], stop)),
                  asyncio.create_task(person(bases, 2, shared, joined["token"], stop))]
        await asyncio.sleep(3)  # the room settles (tables spread, play under way)
        alive = {p.pid: p for p in procs}
        for _ in range(args.kills):
            held = leases(engine, tables)
            counts: dict[int, int] = {}
            for owner, _, _ in held.values():
                if owner_pid(owner) in alive:
                    counts[owner_pid(owner)] = counts.get(owner_pid(owner), 0) + 1
            victim = max(counts, key=lambda pid: counts[pid])
            owned = [t for t, (o, _, _) in held.items() if owner_pid(o) == victim]
            last_beat = {t: held[t][1] - 2.5 for t in owned}
            alive.pop(victim).send_signal(signal.SIGKILL)
            killed = time.time()
            await asyncio.sleep(8)  # the leases run out, the tables move, play resumes
            moved = leases(engine, owned)
            for table in owned:
                _, _, taken = moved[table]
                first = first_action_after(engine, table, taken)
                if first is None:
                    continue  # finished, or not resumed in the time given
                results.append({"table_kind": table == shared, "lease_move": taken
                                - last_beat[table], "resume": first - taken,
                                "from_kill": first - killed,
                                "person": person_wait(engine, table, taken) or -1.0})
        stop.set()
        for task in people:
            task.cancel()
        await asyncio.gather(*people, return_exceptions=True)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL to make the run's "
                        "database from")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=9, help="tables of bots")
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--bot-pause", type=float, default=0.8)
    args = parser.parse_args(argv)
    results = asyncio.run(run(args))
    if not results:
        print("no table moved and resumed")
        return 1
    for key in ("lease_move", "resume", "from_kill"):
        values = sorted(r[key] for r in results)
        print(f"{key:>10}: n={len(values)} median {statistics.median(values):.2f} s, "
              f"max {values[-1]:.2f} s")
    people = [r for r in results if r["table_kind"]]
    for r in people:
        print(f"the people's table: lease move {r['lease_move']:.2f} s, resume "
              f"{r['resume']:.2f} s, from kill {r['from_kill']:.2f} s, first person's "
              f"move {r['person']:.2f} s after its turn came")
    return 0


if __name__ == "__main__":
    sys.exit(main())
