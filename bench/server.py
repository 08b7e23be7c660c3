"""Load benchmark of the web parlour: N websocket clients playing at M Spades tables.

Starts ``parlour serve`` in a subprocess on loopback with a fresh SQLite database, opens M
tables with N/M people each (at most 4; the other seats are rule bots, which act after
``--bot-pause``), connects one websocket client per person seat, and lets them play: a
client whose seat is to act waits ``--think`` seconds and sends the first legal action.
It measures, over ``--seconds``
after a warm-up, every action applied (people's and bots', from the versions the clients
see) and, for each intent, the time from sending it to receiving the view that includes
it. The clients run in this process, the server in its own; both share the machine, so the
latencies include the clients' own event-loop delays (an upper bound): each run also
reports the clients' loop lag (how late a 5 ms sleep wakes, p99) and the CPU per action of
the server and of the clients. ``--repeat N`` runs each pair N times, each on a fresh
server, and prints the median of each figure.

    .venv/bin/python bench/server.py                        # 20/10, 100/50, 500/250, 1000/250
    .venv/bin/python bench/server.py --runs 1000/250 --seconds 15 --repeat 5 --write
    .venv/bin/python bench/server.py --runs 1000/250 --seconds 30 --json

The instructions an action costs the server, counted by valgrind's callgrind around the
measured time (start-up uncounted; the server runs some fifty times slower, so a light
load): repeatable within about 1% on a busy machine, where the CPU time of the runs above
moves by a fifth from run to run (issue 36)::

    .venv/bin/python bench/server.py --callgrind --runs 8/2 --seconds 20 --warmup 5

Several processes (issue 19): ``--processes 1,2,3 --db postgresql+psycopg://.../postgres``
runs each clients/tables pair on today's single SQLite process, then on 1, 2 and 3
processes sharing a fresh PostgreSQL database (made from the URL given, dropped after) and
Redis (``--redis``, with a key prefix of the run's own). Tables are opened on the
processes in turn and client ``i`` connects to process ``i % N``, so with N processes most
clients are relayed to their table's owner. Each run also reports the CPU seconds per
thousand actions spent by the server processes, by PostgreSQL's backends serving the
run's database, and by Redis (from ``INFO cpu``; a Redis shared with other work adds
theirs).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import httpx
    import orjson
    from rich.console import Console
    from rich.table import Table
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

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
    lags: list[float] = field(default_factory=list)  # the clients' event loop: how late


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path | str, port: int, bot_pause: float, flags: list[str] = (),  # type: ignore[assignment]
                 wait: bool = True, prefix: list[str] = ()  # type: ignore[assignment]
                 ) -> subprocess.Popen[bytes]:
    """``parlour serve`` on ``port`` (``prefix``: a command it runs under, e.g. valgrind)."""
    url = db if isinstance(db, str) else f"sqlite:///{db}"
    proc = subprocess.Popen(
        [*prefix, sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db",
         url, "--bot-pause", str(bot_pause), "--rate", "50", *LOAD_LIMITS, *flags],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if wait:
        wait_for(proc, port, 600 if prefix else 60)
    return proc


def wait_for(proc: subprocess.Popen[bytes], port: int, seconds: float = 60) -> None:
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by these processes (and their waited-for
    children: the bots' workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / tick
    return total


def backends_of(database: str) -> list[int]:
    """PostgreSQL's backend processes serving ``database`` (their title names it)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if title.startswith("postgres: ") and f" {database} " in title:
                pids.append(int(entry.name))
    return pids


def redis_cpu(url: str) -> float:
    import redis

    info = redis.Redis.from_url(url).info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def open_tables(bases: list[str], clients: int, tables: int) -> list[tuple[str, str]]:
    """(table id, token) for every person seat; table ``j`` opened on process ``j % N``."""
    per = [min(4, clients // tables + (1 if i < clients % tables else 0)) for i in range(tables)]
    seats_out: list[tuple[str, str]] = []
    for j, people in enumerate(per):
        async with httpx.AsyncClient(base_url=bases[j % len(bases)], timeout=30) as http:
            seats = [{"kind": "person"}] * people + [{"kind": "bot", "bot": "rule"}] * (4 - people)
            if not people:
                continue
            res = (await http.post("/api/tables", json={
                "game": "spades", "options": {"target": 5000}, "seats": seats,
                "name": "p0", "public": True})).json()
            tid = res["table"]["id"]
            seats_out.append((tid, res["token"]))
            for k in range(1, people):
                for _ in range(50):  # a table moving to another process: try again
                    joined = (await http.post(f"/api/tables/{tid}/join",
                                              json={"name": f"p{k}"})).json()
                    if joined.get("error", {}).get("code") != "unavailable":
                        break
                    await asyncio.sleep(0.1)
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

    async def run(self, ready: asyncio.Event) -> None:
        """Play until cancelled (or the server closes the connection). No timeout on the
        receive: a thousand clients each waking twice a second would spend the shared
        cores on the load generator's own work."""
        async with connect(self.url, max_size=2**20, ping_interval=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ready.set()
            try:
                async for raw in ws:
                    self.receive(ws, orjson.loads(raw))
            except ConnectionClosed:
                pass
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


LAG_TICK = 0.005  # seconds between the looks at the clients' own event loop


async def watch_lag(stats: Stats, stop: asyncio.Event) -> None:
    """How late the clients' event loop wakes from a short sleep, while measuring: the
    share of the latencies that is the load generator's own delay, not the server's."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        began = loop.time()
        await asyncio.sleep(LAG_TICK)
        if stats.measuring:
            stats.lags.append(loop.time() - began - LAG_TICK)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def run_one(base: str | list[str], clients: int, tables: int, seconds: float,
                  warmup: float, think: float, cpu: Any = None) -> dict[str, object]:
    """One run; client ``i`` connects to process ``i % N`` of ``base``. ``cpu`` (if given)
    returns the CPU seconds used so far by each part (a dict), read around the measured
    time."""
    bases = [base] if isinstance(base, str) else base
    seats = await open_tables(bases, clients, tables)
    stats = Stats()
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in seats]
    tasks = [asyncio.create_task(BenchClient(bases[i % len(bases)], tid, token, think,
                                             stats).run(r))
             for i, ((tid, token), r) in enumerate(zip(seats, readies, strict=True))]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 120)
    lag = asyncio.create_task(watch_lag(stats, stop))
    await asyncio.sleep(warmup)
    stats.start_versions = dict(stats.versions)
    stats.measuring = True
    used_before = (cpu() if cpu is not None else {}) | {"clients": time.process_time()}
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    used_after = (cpu() if cpu is not None else {}) | {"clients": time.process_time()}
    actions = sum(v - stats.start_versions.get(t, 0) for t, v in stats.versions.items())
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, lag, return_exceptions=True)
    lat = stats.latencies
    per_k = {f"cpu_ms_per_action_{part}": round(
        (used_after[part] - used_before[part]) / max(actions, 1) * 1000, 3)
        for part in used_before}
    return per_k | {
        "processes": len(bases),
        "clients": len(seats), "tables": tables, "seconds": round(elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "intents_per_second": round(stats.intents / elapsed, 1),
        "p50_ms": round(percentile(lat, 50) * 1000, 1),
        "p99_ms": round(percentile(lat, 99) * 1000, 1),
        "max_ms": round(max(lat, default=math.nan) * 1000, 1),
        "client_lag_p50_ms": round(percentile(stats.lags, 50) * 1000, 1),
        "client_lag_p99_ms": round(percentile(stats.lags, 99) * 1000, 1),
        "intents": stats.intents, "errors": stats.errors,
    }


def tear_down(servers: list[subprocess.Popen[bytes]], redis_url: str, name: str,
              admin: Any) -> None:
    """Stop a bench's cluster: its server processes, its Redis keys (prefix ``bench-<name>:``)
    and its PostgreSQL database ``name`` (``admin``: an engine on the server's admin base)."""
    import redis
    from sqlalchemy import text

    for server in servers:
        stop_server(server)
    keys = redis.Redis.from_url(redis_url)
    for key in keys.scan_iter(match=f"bench-{name}:*"):
        keys.delete(key)
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    admin.dispose()


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()


@contextmanager
def cluster_of(args: argparse.Namespace, count: int
               ) -> Iterator[tuple[list[str], Callable[[], dict[str, float]]]]:
    """``count`` processes sharing a fresh PostgreSQL database and Redis (a prefix of their
    own), started and ready: their base URLs and a reading of the CPU used so far by the
    servers, PostgreSQL's backends and Redis. Stopped and the database dropped after."""
    import secrets

    from sqlalchemy import create_engine, text

    from parlour.server.storage.store import Store

    name = f"parlour_bench_{secrets.token_hex(5)}"
    admin = create_engine(args.db, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = args.db.rsplit("/", 1)[0] + f"/{name}"
    servers: list[subprocess.Popen[bytes]] = []
    try:
        Store(url).close()  # the schema, once
        flags = ["--redis", args.redis, "--redis-prefix", f"bench-{name}:"]
        ports = [free_port() for _ in range(count)]
        servers = [start_server(url, port, args.bot_pause, flags, wait=False) for port in ports]
        for server, port in zip(servers, ports, strict=True):
            wait_for(server, port)

        def cpu() -> dict[str, float]:
            return {"server": cpu_seconds([s.pid for s in servers]),
                    "postgres": cpu_seconds(backends_of(name)),
                    "redis": redis_cpu(args.redis)}

        yield [f"http://127.0.0.1:{p}" for p in ports], cpu
    finally:
        tear_down(servers, args.redis, name, admin)


def cluster_run(args: argparse.Namespace, count: int, clients: int, tables: int
                ) -> dict[str, object]:
    """One run on ``count`` processes sharing a fresh PostgreSQL database and Redis."""
    with cluster_of(args, count) as (bases, cpu):
        return asyncio.run(run_one(bases, clients, tables, args.seconds, args.warmup,
                                   args.think, cpu))


#: The p99 of intent-to-view a load must stay under to count as held (issue 31).
HELD_P99_MS = 100.0


def curve(args: argparse.Namespace, console: Console, count: int) -> list[dict[str, object]]:
    """The capacity curve of ``count`` processes on PostgreSQL + Redis: one cluster,
    started once, then each load of ``--loads`` in turn (clients at clients/2 tables: two
    people and two rule bots each), until two in a row pass :data:`HELD_P99_MS` at p99."""
    rows: list[dict[str, object]] = []
    with cluster_of(args, count) as (bases, cpu):
        for clients in (int(x) for x in args.loads.split(",")):
            console.print(f"{count} processes, {clients} clients ...")
            row = asyncio.run(run_one(bases, clients, max(1, clients // 2), args.seconds,
                                      args.warmup, args.think, cpu))
            rows.append(row | {"setup": f"postgresql x{count}",
                               "held": float(row["p99_ms"]) < HELD_P99_MS})  # type: ignore[arg-type]
            if len(rows) >= 2 and not rows[-1]["held"] and not rows[-2]["held"]:
                break  # two loads in a row over the limit (one may be a busy moment)
    return rows


def curve_section(rows: list[dict[str, Any]], args: argparse.Namespace, png: Path | None
                  ) -> report.Section:
    """docs/benchmarks.md's capacity section: each load of each process count, then what
    each count held and what the CPU per action predicts for one process per core."""
    columns = {"processes": "processes", "clients": "clients", "actions_per_second": "actions/s",
               "p50_ms": "p50 ms", "p99_ms": "p99 ms", "cpu_ms_per_action_server":
               "servers' CPU ms/action", "cpu_ms_per_action_postgres": "PostgreSQL",
               "cpu_ms_per_action_redis": "Redis", "cpu_ms_per_action_clients": "clients"}
    table = [list(columns.values())]
    table += [[str(r.get(k, "")) for k in columns] for r in rows]
    notes = []
    for count in sorted({int(r["processes"]) for r in rows}):
        mine = [r for r in rows if r["processes"] == count]
        held = [r for r in mine if r["held"]]
        best = max(held, key=lambda r: float(r["actions_per_second"]), default=None)
        # the CPU an action costs at the heaviest load run, where the fixed costs (the
        # heartbeats, the relay's refreshes) weigh least; summed over the processes, so N
        # processes on N cores of their own hold N cores' worth of it
        heaviest = max(mine, key=lambda r: float(r["actions_per_second"]))
        cpu = float(heaviest["cpu_ms_per_action_server"])
        per_core = 1000.0 / cpu * count if cpu > 0 else math.nan
        notes.append(
            f"- **{count} process{'es' if count > 1 else ''}**: " + (
                f"held {best['clients']} clients ({best['actions_per_second']} actions/s) with "
                f"p99 under {HELD_P99_MS:.0f} ms" if best else "held none of the loads")
            + f"; {cpu:.2f} ms of the servers' CPU an action at {heaviest['clients']} "
              f"clients, so with a core of its own for each process about "
              f"{per_core:,.0f} actions/s before the servers' cores are full.")
    if png is not None:
        notes.append(f"\n![actions a second and p99 against clients, per process count]"
                     f"({png.name})")
    return report.Section(
        "capacity", "Capacity by process count (PostgreSQL + Redis)",
        "Each process count gets one cluster (a fresh PostgreSQL database, Redis with a prefix "
        "of its own), then more and more websocket clients, each load on tables of two people "
        f"and two rule bots ({args.bot_pause:g} s pause), a client acting {args.think:g} s "
        f"after its turn comes, its process chosen in turn (so with N processes (N-1)/N of "
        f"them are relayed); {args.seconds:g} s measured after {args.warmup:g} s, until the "
        f"p99 from intent to view passes {HELD_P99_MS:.0f} ms at two loads in a row. On a "
        "machine with fewer cores than processes (plus PostgreSQL, Redis and the clients) "
        "the processes share cores: "
        "the actions a second then stop growing with processes, and the CPU an action costs "
        "is the figure that predicts one process per core.", table, notes)


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """The curve as a PNG: actions a second and p99 against clients, a line per count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    for count in sorted({int(r["processes"]) for r in rows}):
        mine = [r for r in rows if r["processes"] == count]
        xs = [int(r["clients"]) for r in mine]
        left.plot(xs, [float(r["actions_per_second"]) for r in mine], marker="o",
                  label=f"{count} process{'es' if count > 1 else ''}")
        right.plot(xs, [float(r["p99_ms"]) for r in mine], marker="o")
    right.axhline(HELD_P99_MS, color="grey", linestyle="--", linewidth=1)
    left.set(xlabel="clients", ylabel="actions/s")
    right.set(xlabel="clients", ylabel="p99 ms, intent to view", yscale="log")
    left.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


class Instructions:
    """The instructions the server runs, counted by callgrind: it starts with counting off
    (imports and start-up run faster, uncounted), and each reading turns it on (the first)
    or dumps what was counted since (the next), as ``{"server": instructions}``; the run's
    difference over its actions is the instructions an action cost (issue 36: a figure
    that does not move with the machine's load, beside the CPU time that does)."""

    def __init__(self, folder: Path) -> None:
        self.out = folder / "callgrind.out"
        self.prefix = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
                       f"--callgrind-out-file={self.out}.%p"]
        self.pid = 0
        self.on = False
        self.last: Path | None = None  # the last dump read

    def __call__(self) -> dict[str, float]:
        if not self.on:
            self.on = True
            subprocess.run(["callgrind_control", "-i", "on", str(self.pid)], check=True,
                           capture_output=True, timeout=60)
            return {"server": 0.0}
        subprocess.run(["callgrind_control", "-d", str(self.pid)], check=True,
                       capture_output=True, timeout=120)
        dumps = sorted(self.out.parent.glob(f"{self.out.name}.{self.pid}*"),
                       key=lambda f: f.stat().st_mtime)
        self.last = dumps[-1]
        for line in dumps[-1].read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return {"server": float(line.split()[1])}
        raise RuntimeError(f"no totals in {dumps[-1]}")


def callgrind_pair(args: argparse.Namespace, console: Console, clients: int, tables: int
                   ) -> dict[str, object]:
    """One run with the server under callgrind: the instructions an action cost it."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        counted = Instructions(Path(tmp))
        console.print(f"[bold]{clients} clients at {tables} tables[/], the server under "
                      "callgrind (its start takes a minute) ...")
        server = start_server(Path(tmp) / "bench.sqlite3", port, args.bot_pause,
                              prefix=counted.prefix)
        counted.pid = server.pid
        try:
            row = asyncio.run(run_one(f"http://127.0.0.1:{port}", clients, tables,
                                      args.seconds, args.warmup, args.think, counted))
        finally:
            stop_server(server)
        if args.keep is not None and counted.last is not None:
            shutil.copy(counted.last, args.keep)
    # run_one's figure is the reading's difference per action times 1,000 (ms from s)
    per_action = float(row.pop("cpu_ms_per_action_server")) / 1000
    return {"setup": "sqlite x1, callgrind", "clients": clients, "tables": tables,
            "actions": round(float(row["actions_per_second"]) * float(row["seconds"])),
            "instructions_per_action": round(per_action)}


def one_pair(args: argparse.Namespace, console: Console, clients: int, tables: int,
             run: int) -> list[dict[str, object]]:
    """Run ``run`` of one clients/tables pair: on one SQLite process (or ``--base``), then
    on each process count of ``--processes``; each result carries the load average."""
    results: list[dict[str, object]] = []
    what = f"[bold]{clients} clients at {tables} tables[/]" + (
        f" (run {run} of {args.repeat})" if args.repeat > 1 else "")
    if args.base:
        console.print(f"{what} ...")
        results.append(asyncio.run(run_one(args.base, clients, tables, args.seconds,
                                           args.warmup, args.think)))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            server = start_server(Path(tmp) / "bench.sqlite3", port, args.bot_pause)
            try:
                console.print(f"{what} ...")
                results.append({"setup": "sqlite x1"} | asyncio.run(run_one(
                    f"http://127.0.0.1:{port}", clients, tables, args.seconds, args.warmup,
                    args.think, lambda pid=server.pid: {"server": cpu_seconds([pid])})))
            finally:
                stop_server(server)
    for count in (int(x) for x in (args.processes or "").split(",") if x):
        console.print(f"{what}, {count} processes on PostgreSQL + Redis ...")
        results.append({"setup": f"postgresql x{count}"} | cluster_run(
            args, count, clients, tables))
    load = round(os.getloadavg()[0], 1)
    return [r | {"run": run, "load": load} for r in results]


#: The figures of which ``--repeat`` prints the median.
MEDIAN_OF = ("actions_per_second", "p50_ms", "p99_ms", "client_lag_p99_ms",
             "cpu_ms_per_action_server", "cpu_ms_per_action_clients", "load")


def medians(results: list[dict[str, object]]) -> list[dict[str, object]]:
    """For each setup and clients/tables pair, the median of each figure over its runs."""
    groups: dict[tuple[object, ...], list[dict[str, object]]] = {}
    for r in results:
        groups.setdefault((r.get("setup"), r["clients"], r["tables"]), []).append(r)
    out = []
    for (setup, clients, tables), runs in groups.items():
        row: dict[str, object] = {"setup": setup, "clients": clients, "tables": tables,
                                  "run": f"median of {len(runs)}"}
        for key in MEDIAN_OF:
            values = [float(v) for r in runs if isinstance(v := r.get(key), int | float)]
            if values:
                row[key] = round(statistics.median(values), 3 if key.startswith("cpu") else 1)
        out.append(row)
    return out


def section(rows: list[dict[str, Any]], args: argparse.Namespace) -> report.Section:
    """docs/benchmarks.md's table of this run: each run, then the medians."""
    columns = {"setup": "setup", "clients": "clients", "tables": "tables", "run": "run",
               "actions_per_second": "actions/s", "p50_ms": "p50 ms", "p99_ms": "p99 ms",
               "cpu_ms_per_action_server": "server CPU ms/action",
               "cpu_ms_per_action_clients": "clients' CPU ms/action", "load": "load"}
    table = [list(columns.values())]
    table += [[str(r.get(k, "")) for k in columns] for r in rows]
    return report.Section(
        "server", "The web server under load",
        "Websocket clients playing Spades tables against one `parlour serve` (SQLite) started "
        "for the run, in a process of their own beside it on the same machine: a client whose "
        f"seat is to act waits {args.think:g} s and sends its first legal action; the other "
        f"seats are rule bots ({args.bot_pause:g} s pause). Over {args.seconds:g} s after a "
        f"{args.warmup:g} s warm-up: the actions applied a second, and for each intent the "
        "time from sending it to receiving the view that includes it (p50, p99), with the CPU "
        "an action cost the server and the clients. The latencies include the clients' own "
        "delays on a shared machine: they are the machine's as much as the server's.", table)


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
    parser.add_argument("--repeat", type=int, default=1, help="runs of each pair (each on a "
                        "fresh server); with more than one, the median of each figure too")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--processes", help="process counts to compare on PostgreSQL + "
                        "Redis, comma-separated (e.g. 1,2,3), after the single SQLite process")
    parser.add_argument("--db", help="with --processes: a PostgreSQL URL to make each run's "
                        "fresh database from (postgresql+psycopg://postgres@127.0.0.1/postgres)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0",
                        help="with --processes: the Redis the processes share")
    parser.add_argument("--curve", help="process counts whose capacity curve to measure on "
                        "PostgreSQL + Redis (e.g. 1,2,3): each count's cluster takes the "
                        "loads of --loads in turn until its p99 passes 100 ms; with --write, "
                        "the curve and its PNG go to docs/benchmarks.md")
    parser.add_argument("--loads", default="20,40,70,100,150,200,300,400,600",
                        help="with --curve: clients, comma-separated, in rising order")
    parser.add_argument("--callgrind", action="store_true", help="count the instructions an "
                        "action costs the server instead (valgrind's callgrind; --runs 8/2 "
                        "or so: the server runs some fifty times slower)")
    parser.add_argument("--keep", type=Path, help="with --callgrind: copy the counted part's "
                        "callgrind file here (for callgrind_annotate: where the instructions "
                        "of an action go, function by function)")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.callgrind:
        console = Console(stderr=True)
        rows = [callgrind_pair(args, console, *(int(x) for x in pair.split("/")))
                for pair in args.runs.split(",") for _ in range(args.repeat)]
        print(json.dumps(rows) if args.json else "\n".join(
            f"{r['clients']} clients at {r['tables']} tables: {r['instructions_per_action']:,} "
            f"instructions an action ({r['actions']} actions counted)" for r in rows))
        return 0
    if (args.processes or args.curve) and not (args.db or "").startswith("postgresql"):
        parser.error("--processes and --curve need --db postgresql+psycopg://...")
    # A thousand clients in one process: the same collector settings as the server, so the
    # clients' own pauses add as little as they can to the latencies measured.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    results = []
    console = Console(stderr=True)
    if args.curve:
        rows = [r for count in (int(x) for x in args.curve.split(","))
                for r in curve(args, console, count)]
        png = args.doc.parent / "capacity.png" if args.write else None
        if png is not None:
            plot(rows, png)
        drawn = curve_section(rows, args, png)
        if args.write:
            report.write(drawn, args.doc)
        print("\n".join(["| " + " | ".join(r) + " |" for r in drawn.rows] + drawn.notes))
        return 0
    for pair in args.runs.split(","):
        clients, tables = (int(x) for x in pair.split("/"))
        for run in range(1, args.repeat + 1):
            results.extend(one_pair(args, console, clients, tables, run))
    load = os.getloadavg()
    summary = {"runs": results, "medians": medians(results) if args.repeat > 1 else [],
               "think": args.think, "bot_pause": args.bot_pause,
               "cores": os.cpu_count(), "loadavg": [round(x, 2) for x in load]}
    if args.write:
        report.write(section(results + summary["medians"], args), args.doc)
    if args.json:
        print(json.dumps(summary))
        return 0
    table = Table(title=f"Web parlour load (think {args.think}s, bot pause "
                        f"{args.bot_pause}s, load average {load[0]:.1f})")
    columns = {"setup": "Setup", "clients": "Clients", "tables": "Tables", "run": "Run",
               "actions_per_second": "Actions/s", "intents_per_second": "Intents/s",
               "p50_ms": "p50 ms", "p99_ms": "p99 ms", "max_ms": "max ms", "errors": "Errors",
               "client_lag_p99_ms": "Clients' lag p99 ms", "load": "Load",
               "cpu_ms_per_action_server": "CPU ms/action: server",
               "cpu_ms_per_action_clients": "clients",
               "cpu_ms_per_action_postgres": "PostgreSQL", "cpu_ms_per_action_redis": "Redis"}
    rows = results + summary["medians"]
    keys = [k for k in columns if any(k in r for r in rows)]
    for key in keys:
        table.add_column(columns[key], justify="right")
    for r in rows:
        table.add_row(*(str(r.get(k, "")) for k in keys))
    Console(width=max(160, Console().width)).print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
