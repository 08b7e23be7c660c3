"""Abuse replay: the attacks of issue 14 against a real server, one line each.

Starts ``parlour serve`` on loopback with a fresh SQLite database and its default limits
(in a process given 1,024 open files, a common default), then runs each attack in
:data:`ATTACKS`, bounded in count and time, and prints one line per attack: what it tried,
whether the server held, and the figures. Loopback has a whole /8, so an attack from one
address binds 127.0.0.2 while the victim, another client, stays on 127.0.0.1.

    python bench/abuse.py                     # every attack
    python bench/abuse.py --only slowloris    # some of them (comma-separated names)

An attack is a small function ``(Server) -> Outcome``; add one by appending it to ATTACKS.
The exit status is 1 if any attack got through.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
ATTACKER = "127.0.0.2"
BOTS3 = [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3
PEOPLE4 = [{"kind": "person"}] * 4
CREATE = {"game": "spades", "seats": BOTS3, "name": "Ann"}


@dataclass
class Outcome:
    tried: str
    held: bool
    figures: str


@dataclass
class Server:
    """``parlour serve`` in a subprocess on loopback."""

    flags: list[str] = field(default_factory=list)
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        work = Path(tempfile.mkdtemp(prefix="parlour-abuse-"))
        self.log = work / "server.log"

        def few_files() -> None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port), "--db",
             f"sqlite:///{work / 'abuse.sqlite3'}", "--bot-pause", "0.05", *self.flags],
            cwd=ROOT, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
            preexec_fn=few_files)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def client(self, address: str = "127.0.0.1", **kwargs: object) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10,
                            transport=httpx.HTTPTransport(local_address=address),
                            **kwargs)  # type: ignore[arg-type]

    def tracebacks(self) -> int:
        assert self.log is not None
        return self.log.read_text().count("Traceback")


def codes(responses: list[httpx.Response]) -> str:
    seen: dict[int, int] = {}
    for r in responses:
        seen[r.status_code] = seen.get(r.status_code, 0) + 1
    return " ".join(f"{n}x{code}" for code, n in sorted(seen.items()))


def is_error_shape(res: httpx.Response) -> bool:
    try:
        body = res.json()
    except ValueError:
        return False
    return set(body) == {"error"} and set(body["error"]) == {"code", "message"}


# ----------------------------------------------------------------------------- item 1
def chunked_body(srv: Server) -> Outcome:
    """A 100 MB chunked create, streamed 64 KB at a time until the server answers."""
    before = srv.rss_mb()
    sent, answer = 0, b""
    chunk = b"x" * 65536
    deadline = time.monotonic() + 60
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        try:
            s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: parlour\r\nContent-Type: "
                      b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"1c\r\n{\"game\": \"spades\", \"name\": \"\r\n")
            while sent < 100 * 2**20 and time.monotonic() < deadline:
                s.sendall(b"10000\r\n" + chunk + b"\r\n")  # blocking, 10 s at most
                sent += len(chunk)
                if select.select([s], [], [], 0)[0]:
                    answer = s.recv(4096)
                    break
            if not answer:
                s.sendall(b"0\r\n\r\n")  # the last chunk: the body ends here
                answer = s.recv(4096)
        except OSError:
            pass  # the server closed the connection (after answering, or not)
    status = answer.split(b" ")[1].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
    grew = srv.rss_mb() - before
    held = status == "413" and grew < 32 and sent < 100 * 2**20
    return Outcome("chunked POST /api/tables of 100 MB", held,
                   f"answer {status} after {sent // 1024} KB sent (socket buffers "
                   f"included); server memory {grew:+.0f} MB")


def echoed_excerpt(srv: Server) -> Outcome:
    """An unknown option name of 15 KB: the error must not echo it whole."""
    with srv.client() as http:
        res = http.post("/api/tables", json=CREATE | {"options": {"x" * 15_000: 1}})
    return Outcome("create with a 15 KB unknown option name", res.status_code == 400
                   and len(res.content) < 1024 and is_error_shape(res),
                   f"answer {res.status_code}, {len(res.content)} bytes")


# ----------------------------------------------------------------------------- item 2
def create_flood(srv: Server) -> Outcome:
    """One address opens tables as fast as it can (200 tries)."""
    with srv.client(ATTACKER) as http:
        started = time.monotonic()
        got = [http.post("/api/tables", json=CREATE | {"seats": PEOPLE4}) for _ in range(200)]
        took = time.monotonic() - started
    created = sum(r.status_code == 201 for r in got)
    refused = [r for r in got if r.status_code == 429]
    retry = refused[0].headers.get("retry-after") if refused else None
    with srv.client() as http:
        other = http.post("/api/tables", json=CREATE | {"seats": PEOPLE4}).status_code
    return Outcome("one address creates 200 tables", created <= 20 and other == 201
                   and retry is not None, f"{codes(got)} in {took:.1f} s, Retry-After "
                   f"{retry} s; another address then: {other}")


def forged_forwarding(srv: Server) -> Outcome:
    """The same, each request claiming another address in X-Forwarded-For."""
    with srv.client("127.0.0.3") as http:
        got = [http.post("/api/tables", json=CREATE | {"seats": PEOPLE4},
                         headers={"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(40)]
    created = sum(r.status_code == 201 for r in got)
    return Outcome("40 creates each forging X-Forwarded-For", created <= 10,
                   f"{codes(got)} (no proxy is trusted by default)")


def cap_race(srv: Server) -> Outcome:
    """60 addresses create at once against a server whose cap is 50 open tables."""
    racing = Server(["--open-tables", "50", "--open-tables-per-client", "5"]).start()
    try:
        async def one(address: str) -> list[int]:
            transport = httpx.AsyncHTTPTransport(local_address=address)
            async with httpx.AsyncClient(base_url=racing.base, transport=transport,
                                         timeout=30) as http:
                answers = await asyncio.gather(*(
                    http.post("/api/tables", json=CREATE | {"seats": PEOPLE4})
                    for _ in range(5)))
                return [r.status_code for r in answers]

        async def everyone() -> list[int]:
            lists = await asyncio.gather(*(one(f"127.0.1.{i}") for i in range(1, 61)))
            return [c for answers in lists for c in answers]

        got = asyncio.run(everyone())
        listed = len(httpx.get(f"{racing.base}/api/tables").json()["tables"])
    finally:
        racing.stop()
    created = got.count(201)
    return Outcome("60 addresses x 5 concurrent creates, cap 50", created == listed == 50,
                   f"{created} created, {got.count(503)} busy, {got.count(429)} over the "
                   f"per-client cap; {listed} open")


def join_flood(srv: Server) -> Outcome:
    """One address takes every free seat it can find (60 tries)."""
    with srv.client("127.0.0.4") as owner:
        tables = [owner.post("/api/tables", json=CREATE | {"seats": PEOPLE4}).json()
                  for _ in range(5)]
    with srv.client("127.0.0.5") as http:
        got = [http.post(f"/api/tables/{t['table']['id']}/join", json={"name": f"sq{i}"})
               for i in range(20) for t in tables[:3]]
    taken = sum(r.status_code == 200 for r in got)
    return Outcome("one address joins 60 times", taken <= 20 and any(
        r.status_code == 429 for r in got), f"{codes(got)}")


def socket_flood(srv: Server) -> Outcome:
    """One address opens 40 websockets to one table, then 100 across tables."""
    with srv.client("127.0.0.6") as http:
        tables = [http.post("/api/tables", json=CREATE | {"seats": PEOPLE4}).json()["table"]["id"]
                  for _ in range(10)]
    url = srv.base.replace("http", "ws")

    async def attempt(table: str, held: list[object]) -> int:
        try:
            ws = await connect(f"{url}/ws/tables/{table}", local_addr=("127.0.0.7", 0),
                               open_timeout=10)
        except InvalidStatus as err:
            return err.response.status_code
        held.append(ws)
        return 101

    async def run() -> tuple[list[int], list[int]]:
        held: list[object] = []
        one = [await attempt(tables[0], held) for _ in range(40)]
        many = [await attempt(tables[1 + i % 9], held) for i in range(100)]
        for ws in held:
            await ws.close()  # type: ignore[attr-defined]
        return one, many

    one, many = asyncio.run(run())
    held = one.count(101) <= 8 and one.count(101) + many.count(101) <= 64
    return Outcome("one address: 40 websockets to a table, 100 more across tables", held,
                   f"one table: {one.count(101)} open, {one.count(429)} refused; in all: "
                   f"{one.count(101) + many.count(101)} open")


# ----------------------------------------------------------------------------- item 3
def slowloris(srv: Server) -> Outcome:
    """2,000 connections from one address, each with half a request header, held open."""
    held = []
    for _ in range(2000):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", srv.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: parlour\r\nUser-Agent: slow")
            held.append(s)
        except OSError:
            s.close()
    try:
        time.sleep(0.5)
        started = time.monotonic()
        try:
            status = httpx.get(f"{srv.base}/", timeout=30).status_code
        except httpx.HTTPError:
            status = 0
        took = time.monotonic() - started
        time.sleep(11)  # past the 10 s header deadline
        still = 0
        for s in held:
            s.settimeout(0.01)
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    continue
            except TimeoutError:
                still += 1
            except OSError:
                continue
    finally:
        for s in held:
            s.close()
    return Outcome("2,000 half-header sockets from one address", status == 200 and
                   took < 1.0 and still == 0,
                   f"another client's GET / answered {status} in {took * 1000:.0f} ms; "
                   f"open after the header deadline: {still}")


# ----------------------------------------------------------------------------- items 13, 14
def foreign_origin(srv: Server) -> Outcome:
    """A page on another site opens a websocket to a table; the page's CSP."""
    with srv.client() as http:
        table = http.post("/api/tables", json=CREATE).json()["table"]["id"]
        policy = http.get("/").headers["content-security-policy"]
    connect_src = next(d for d in policy.split(";") if "connect-src" in d).strip()

    async def run() -> int:
        try:
            ws = await connect(f"{srv.base.replace('http', 'ws')}/ws/tables/{table}",
                               origin="https://evil.example")  # type: ignore[arg-type]
        except InvalidStatus as err:
            return err.response.status_code
        await ws.close()
        return 101

    status = asyncio.run(run())
    return Outcome("websocket from Origin https://evil.example", status == 403
                   and " ws: " not in f" {connect_src} ",
                   f"handshake {status}; CSP {connect_src}")


def lax_input(srv: Server) -> Outcome:
    """Wrong types, deep nesting, a 5,000-digit number, an Arabic-Indic digit."""
    bodies = [CREATE | {"seat": "0"}, CREATE | {"seat": True},
              {"game": "foursquare", "seats": [{"kind": "person"}], "name": "A", "deal": True}]
    raws = [b"[" * 8000 + b"]" * 8000,
            b'{"game": "spades", "seat": ' + b"7" * 5000 + b"}"]
    with srv.client("127.0.0.8") as http:
        got = [http.post("/api/tables", json=b) for b in bodies]
        got += [http.post("/api/tables", content=r, headers={"content-type":
                                                              "application/json"})
                for r in raws]
        res = http.post("/api/tables", json=CREATE).json()

    async def bid() -> str:
        url = f"{srv.base.replace('http', 'ws')}/ws/tables/{res['table']['id']}"
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": res["token"]}))
            while (msg := json.loads(await ws.recv()))["type"] != "view":
                pass
            await ws.send(json.dumps({"type": "act", "action": "bid \u0661",
                                      "version": msg["version"]}))
            while (msg := json.loads(await ws.recv()))["type"] not in ("error", "view"):
                pass
            return str(msg.get("code", "accepted"))

    answer = asyncio.run(bid())
    shaped = all(r.status_code == 400 and is_error_shape(r) for r in got)
    return Outcome("seat \"0\", seat true, deal true, deep nesting, 5,000 digits, bid \u0661",
                   shaped and answer == "unknown_action",
                   f"HTTP {codes(got)}, all in the error shape: {shaped}; bid \u0661: {answer}")


ATTACKS: list[Callable[[Server], Outcome]] = [
    chunked_body, echoed_excerpt, create_flood, forged_forwarding, cap_race, join_flood,
    socket_flood, slowloris, foreign_origin, lax_input,
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated attack names")
    args = parser.parse_args()
    chosen = [a for a in ATTACKS if not args.only or a.__name__ in args.only.split(",")]
    srv = Server().start()
    failed = 0
    try:
        for attack in chosen:
            started = time.monotonic()
            try:
                out = attack(srv)
            except Exception as err:  # an attack that breaks is reported, not hidden
                out = Outcome(attack.__name__, False, f"the attack itself failed: {err!r}")
            failed += not out.held
            print(f"{'held' if out.held else 'FAILED':6} {attack.__name__:18} {out.tried}: "
                  f"{out.figures} ({time.monotonic() - started:.1f} s)", flush=True)
    finally:
        srv.stop()
    print(f"server tracebacks logged: {srv.tracebacks()}")
    return 1 if failed or srv.tracebacks() else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
