"""Load benchmark of the web parlour: N websocket clients playing at M Spades tables.

Starts ``parlour serve`` in a subprocess on loopback with a fresh SQLite database, opens M
tables with N/M people each (at most 4; the other seats are rule bots, which act after
``--bot-pause``), connects one websocket client per person seat, and lets them play: a
client whose seat is to act waits ``--think`` seconds and sends the first legal action.
It measures, over ``--seconds``
after a warm-up, every action applied (people's and bots', from the versions the clients
see) and, for each intent, the time from sending it to receiving the view that includes
it. Clients and server share the machine, so the latencies include the clients' own
event-loop delays: they are an upper bound.

    python bench/server.py                        # 20/10, 100/50, 500/250, 1000/250
    python bench/server.py --runs 1000/250 --seconds 30 --json
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
#: One loopback address plays every client here, so the per-client limits are lifted.
LOAD_LIMITS = ["--create-burst", "100000", "--open-tables-per-client", "100000",
               "--join-burst", "100000", "--sockets-per-client", "100000",
               "--connections-per-address", "100000"]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    intents: int = 0
    errors: int = 0
    measuring: bool = False
    versions: dict[str, int] = field(default_factory=dict)  # table -> highest version seen
    start_versions: dict[str, int] = field(default_factory=dict)
    finished: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, port: int, bot_pause: float) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{db}", "--bot-pause", str(bot_pause), "--rate", "50", *LOAD_LIMITS],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


async def open_tables(base: str, clients: int, tables: int) -> list[tuple[str, str]]:
    """(table id, token) for every person seat."""
    per = [min(4, clients // tables + (1 if i < clients % tables else 0)) for i in range(tables)]
    seats_out: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for people in per:
            seats = [{"kind": "person"}] * people + [{"kind": "bot", "bot": "rule"}] * (4 - people)
            if not people:
                continue
            res = (await http.post("/api/tables", json={
                "game": "spades", "options": {"target": 5000}, "seats": seats,
                "name": "p0"})).json()
            tid = res["table"]["id"]
            seats_out.append((tid, res["token"]))
            for k in range(1, people):
                joined = (await http.post(f"/api/tables/{tid}/join",
                                          json={"name": f"p{k}"})).json()
                seats_out.append((tid, joined["token"]))
    return seats_out


class BenchClient:
    """One person seat: acts on its turn after ``think`` seconds, times each intent."""

    def __init__(self, base: str, tid: str, token: str, think: float, stats: Stats) -> None:
        self.url = base.replace("http", "ws") + f"/ws/tables/{tid}"
        self.tid, self.token, self.think, self.stats = tid, token, think, stats
        self.seat: int | None = None
        self.sent_at: float | None = None
        self.sent_version = -1
        self.pending: asyncio.Task[None] | None = None

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        async with connect(self.url, max_size=2**20, ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ready.set()
            try:
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue
                    self.receive(ws, json.loads(raw))
            finally:
                if self.pending is not None:
                    self.pending.cancel()

    def receive(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        stats = self.stats
        kind = msg["type"]
        if kind == "welcome":
            self.seat = msg["seat"]
        elif kind == "error":
            stats.errors += msg["code"] != "stale"
            self.sent_at = None
        elif kind == "view":
            version = msg["version"] + 10**6 * (msg["match"] - 1)
            if version > stats.versions.get(self.tid, -1):
                stats.versions[self.tid] = version
            if self.sent_at is not None and msg["version"] > self.sent_version:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - self.sent_at)
                    stats.intents += 1
                self.sent_at = None
            view = msg["view"]
            if msg["status"] == "finished":
                stats.finished += 1
            elif self.seat in view["to_act"] and view["legal"] and self.sent_at is None and (
                    self.pending is None or self.pending.done()):
                self.pending = asyncio.create_task(
                    self.act(ws, view["legal"][0], msg["version"]))

    async def act(self, ws: ClientConnection, action: str, version: int) -> None:
        if self.think:
            await asyncio.sleep(self.think)
        self.sent_at, self.sent_version = time.perf_counter(), version
        try:
            await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
        except ConnectionClosed:
            self.sent_at = None


def percentile(values: list[float], p: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run_one(base: str, clients: int, tables: int, seconds: float, warmup: float,
                  think: float) -> dict[str, object]:
    seats = await open_tables(base, clients, tables)
    stats = Stats()
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in seats]
    tasks = [asyncio.create_task(BenchClient(base, tid, token, think, stats).run(stop, r))
             for (tid, token), r in zip(seats, readies, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    await asyncio.sleep(warmup)
    stats.start_versions = dict(stats.versions)
    stats.measuring = True
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    actions = sum(v - stats.start_versions.get(t, 0) for t, v in stats.versions.items())
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = stats.latencies
    return {
        "clients": len(seats), "tables": tables, "seconds": round(elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "intents_per_second": round(stats.intents / elapsed, 1),
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "max_ms": round(max(lat, default=math.nan) * 1000, 1),
        "intents": stats.intents, "errors": stats.errors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="20/10,100/50,500/250,1000/250",
                        help="clients/tables pairs, comma-separated")
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.2,
                        help="seconds a client waits before acting on its turn")
    parser.add_argument("--bot-pause", type=float, default=0.2)
    parser.add_argument("--base", help="use the server already running at this URL (e.g. "
                        "one started under a profiler) instead of starting one")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    # A thousand clients in one process: the same collector settings as the server, so the
    # clients' own pauses add as little as they can to the latencies measured.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    results = []
    console = Console(stderr=True)
    for pair in args.runs.split(","):
        clients, tables = (int(x) for x in pair.split("/"))
        if args.base:
            console.print(f"[bold]{clients} clients at {tables} tables[/] ...")
            results.append(asyncio.run(run_one(args.base, clients, tables, args.seconds,
                                               args.warmup, args.think)))
            continue
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            server = start_server(Path(tmp) / "bench.sqlite3", port, args.bot_pause)
            try:
                console.print(f"[bold]{clients} clients at {tables} tables[/] ...")
                results.append(asyncio.run(run_one(f"http://127.0.0.1:{port}", clients,
                                                   tables, args.seconds, args.warmup,
                                                   args.think)))
            finally:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(15)
                except subprocess.TimeoutExpired:
                    server.kill()
    load = os.getloadavg()
    summary = {"runs": results, "think": args.think, "bot_pause": args.bot_pause,
               "cores": os.cpu_count(), "loadavg": [round(x, 2) for x in load]}
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"Web parlour load (think {args.think}s, bot pause "
                        f"{args.bot_pause}s, load average {load[0]:.1f})")
    for col in ("Clients", "Tables", "Actions/s", "Intents/s", "p50 ms", "p99 ms", "max ms",
                "Errors"):
        table.add_column(col, justify="right")
    for r in results:
        table.add_row(*(str(r[k]) for k in ("clients", "tables", "actions_per_second",
                                            "intents_per_second", "p50_ms", "p99_ms",
                                            "max_ms", "errors")))
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
