"""Abuse replay: the attacks of issue 14 against a real server, one line each.

Starts ``parlour serve`` on loopback with a fresh SQLite database and its default limits
(in a process given 1,024 open files, a common default), then runs each attack in
:data:`ATTACKS`, bounded in count and time, and prints one line per attack: what it tried,
whether the server held, and the figures; last, how many tracebacks the servers logged.
Loopback has a whole /8, so an attack from one address binds 127.0.0.2 while the victim,
another client, stays on 127.0.0.1.

The attacks on the HTTP edge (items 1 to 3, 13 and 14) and on the people's endpoints
(issue 34: follows, challenges, the room's streams) share one server; those on the life
of tables (items 4 to 12) each get a server of their own (:data:`OWN_SERVER`), since they
kill or restart it, garble its database or fill its bot capacity.

    .venv/bin/python bench/abuse.py                     # every attack
    .venv/bin/python bench/abuse.py --only slowloris    # some of them (comma-separated names)

An attack is a small function ``(Server) -> Outcome``; add one by appending it to ATTACKS
(and to OWN_SERVER if it must not share the server). The exit status is 1 if any attack
got through or any server logged a traceback.
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
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import httpx
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect as connect_sync
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

ROOT = Path(__file__).resolve().parent.parent
ATTACKER = "127.0.0.2"
PEEKER = "127.0.0.29"  # the daily-deal attack, whose first create must pass
BOTS3 = [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3
PEOPLE4 = [{"kind": "person"}] * 4
CREATE = {"game": "spades", "seats": BOTS3, "name": "Ann"}
HARD = [{"kind": "bot", "bot": "ismcts:hard"}] * 4
RULE4 = [{"kind": "bot", "bot": "rule"}] * 4
PUBLIC4 = {"seats": PEOPLE4, "public": True}  # a table the lobby lists (most are private)


@dataclass
class Outcome:
    tried: str
    held: bool
    figures: str


@dataclass
class Server:
    """``parlour serve`` in a subprocess on loopback, on a database of its own.

    Started again after a stop, it keeps its database and log (on a new port)."""

    flags: list[str] = field(default_factory=list)
    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="parlour-abuse-")))
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> Path:
        return self.work / "abuse.sqlite3"

    @property
    def log(self) -> Path:
        return self.work / "server.log"

    def start(self) -> Server:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]

        def few_files() -> None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port), "--db",
             f"sqlite:///{self.db}", "--bot-pause", "0.05", *self.flags],
            cwd=ROOT, stdout=self.log.open("a"), stderr=subprocess.STDOUT,
            preexec_fn=few_files)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self, how: int = signal.SIGTERM) -> float:
        """Stop the server (if it runs); returns the seconds it took to exit."""
        started = time.monotonic()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(how)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return time.monotonic() - started

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

    def workers(self) -> list[int]:
        """The server's worker processes (its children but the resource tracker)."""
        assert self.proc is not None
        found = []
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except (OSError, NotADirectoryError):
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid \
                    and b"resource_tracker" not in cmd:
                found.append(int(entry.name))
        return found

    def tracebacks(self) -> int:
        return self.log.read_text().count("Traceback") if self.log.exists() else 0


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


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


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
                    http.post("/api/tables", json=CREATE | PUBLIC4)
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


# ----------------------------------------------------------------------------- accounts
def password_guessing(srv: Server) -> Outcome:
    """One address guesses a person's password (60 tries), then a second address goes on
    (20 more): the limits per address and per account name both hold, and no password
    reaches the server's log."""
    with srv.client() as http:
        http.post("/api/account/signup", json={"name": "Victim", "password": "victim's secret"})
    guesses = [f"guess number {i}" for i in range(80)]
    with srv.client("127.0.0.12") as http:
        first = [http.post("/api/account/login", json={"name": "Victim", "password": g})
                 for g in guesses[:60]]
    with srv.client("127.0.0.13") as http:
        second = [http.post("/api/account/login", json={"name": "vıctım", "password": g})
                  for g in guesses[60:]]
    tried = sum(r.status_code == 403 for r in first + second)
    logged = srv.log.read_text() if srv.log.exists() else ""
    leaked = any(g in logged for g in guesses) or "victim's secret" in logged
    retry = next((r.headers.get("retry-after") for r in first if r.status_code == 429), None)
    return Outcome("80 password guesses from two addresses", tried <= 12 and not leaked
                   and retry is not None and all(is_error_shape(r) for r in first + second),
                   f"first address {codes(first)}, second {codes(second)}: {tried} checked, "
                   f"Retry-After {retry} s; a password in the log: {leaked}")


def recovery_names(srv: Server) -> Outcome:
    """Recovery tries with a new account name each (2,000, from one address, six
    connections at once): refused at the address's limit, the server keeps no bucket per
    name, and another client's ``GET /api/games`` stays as quick as before."""
    def games_ms() -> float:
        with srv.client() as http:
            started = time.monotonic()
            http.get("/api/games")
            return (time.monotonic() - started) * 1000

    before = min(games_ms() for _ in range(5))

    async def flood() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=srv.base, timeout=10, transport=
                                     httpx.AsyncHTTPTransport(local_address="127.0.0.14")) as c:
            async def one(n: int) -> httpx.Response:
                return await c.post("/api/account/recover", json={
                    "name": f"Name{n}", "code": "aaaa-aaaa-aaaa-aaaa",
                    "password": "new password 1"})
            got: list[httpx.Response] = []
            for start in range(0, 2000, 6):
                got += await asyncio.gather(*(one(n) for n in range(start, min(2000, start + 6))))
            return got

    got = asyncio.run(flood())
    during = max(games_ms() for _ in range(5))
    refused = sum(r.status_code == 429 for r in got)
    return Outcome("2,000 recovery tries, a new name each", refused >= 1990
                   and during < max(50.0, 5 * before),
                   f"{codes(got)}; another client's GET /api/games {before:.1f} ms before, "
                   f"at most {during:.1f} ms after")


def banned_oracle(srv: Server) -> Outcome:
    """A banned account's log-in and recovery, with the right and a wrong password or
    code: the answers must not tell which was right."""
    with srv.client("127.0.0.15") as http:
        codes_ = http.post("/api/account/signup", json={
            "name": "Banned One", "password": "banned's secret"}).json()["recovery_codes"]
    subprocess.run([sys.executable, "-m", "parlour.cli", "admin", "ban", "Banned One",
                    "--db", f"sqlite:///{srv.db}"], cwd=ROOT, check=True, capture_output=True)
    with srv.client("127.0.0.15") as http:
        got = [http.post("/api/account/login", json={"name": "Banned One", "password": p})
               for p in ("banned's secret", "a wrong guess")]
        got += [http.post("/api/account/recover", json={"name": "Banned One", "code": code,
                                                        "password": "new password 1"})
                for code in (codes_[0], "aaaa-aaaa-aaaa-aaaa")]
    bodies = {(r.status_code, r.text) for r in got}
    return Outcome("a banned account's right and wrong password and code", len(bodies) == 1,
                   f"{codes(got)}; distinct answers: {len(bodies)}")


def play_seat_out(srv: Server, table_id: str, token: str, moves: int = 60,
                  seen: list[object] | None = None) -> str:
    """Play a seat by its first legal action until the match ends; its last status (and
    in ``seen``, the first full hand its views showed)."""
    status = "playing"
    with connect_sync(f"ws://127.0.0.1:{srv.port}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 60
        while moves and time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=20))
            if msg.get("type") != "view":
                continue
            status = msg["status"]
            if status != "playing":
                return str(status)
            view = msg["view"]
            if seen is not None and not seen and len(view.get("hand") or []) >= 7:
                seen.append(sorted(map(str, view["hand"])))
            if msg.get("seat", 0) in view.get("to_act", [0]) and view.get("legal"):
                ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                    "version": msg["version"]}))
                moves -= 1
    return str(status)


def record_names(srv: Server) -> Outcome:
    """A guest sits as ``Ann #1 "x" \\, y`` (a comment mark, a quote, a backslash, a comma),
    plays a one-deal match out and downloads its record: it must read back and replay, with
    the name as given (marked a guest's)."""
    from parlour.record import parse_record, record_players, replay

    name = 'Ann #1 "x" \\, y'
    with srv.client("127.0.0.16") as http:
        made = http.post("/api/tables", json={"game": "spades", "seats": BOTS3, "name": name,
                                              "options": {"max_deals": 1}}).json()
        status = play_seat_out(srv, made["table"]["id"], made["token"])
        got = http.get(f"/api/tables/{made['table']['id']}/matches/1/record")
    try:
        record = parse_record(got.text)
        replay(record)
        players = record_players(record)
    except ValueError as err:
        return Outcome("a record of a player named with # \" \\ ,", False,
                       f"match {status}, record {got.status_code}: {err}")
    return Outcome("a record of a player named with # \" \\ ,",
                   players[0] == f"{name} (guest)",
                   f"match {status}, record {got.status_code}, read back as {players[0]!r}")


def shape_leaks(srv: Server) -> Outcome:
    """A table opened with ``application/csp-report+json`` (and with ``text/plain``), and a
    websocket ``act`` that names its action twice: all refused, nothing applied."""
    body = json.dumps(CREATE)
    with srv.client("127.0.0.17") as http:
        typed = [http.post("/api/tables", content=body, headers=h) for h in (
            {"content-type": "application/csp-report+json"}, {"content-type": "text/plain"})]
        made = http.post("/api/tables", json={**CREATE, "seats": [{"kind": "person"}] * 4})
    tid, token = made.json()["table"]["id"], made.json()["token"]
    with connect_sync(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send('{"type": "act", "action": "castle", "action": "bid 3", "version": 0}')
        answer: dict[str, object] = {}
        while answer.get("type") != "error":
            answer = json.loads(ws.recv(timeout=10))
    held = all(r.status_code == 415 and is_error_shape(r) for r in typed) \
        and answer.get("code") == "bad_message"
    return Outcome("a +json body, a text/plain one, an act with its action twice", held,
                   f"HTTP {codes(typed)}; the doubled act: {answer.get('code')}")


def talk_flood(srv: Server) -> Outcome:
    """A seat says 9 quick phrases at once (the socket's burst), markup among them, a
    spectator talks to the players, and the other seat's guest writes its own words (markup,
    too long, a right-to-left override): the other seat reads at most 5 phrases (a seat's 10 s
    allowance), no markup, nothing of the spectator's, none of the guest's own words
    (parlour/server/play/talk.py)."""
    with srv.client("127.0.0.20") as http:
        made = http.post("/api/tables", json={**CREATE, "seats": [{"kind": "person"}] * 4})
        tid, token = made.json()["table"]["id"], made.json()["token"]
        other = http.post(f"/api/tables/{tid}/join", json={"name": "Reader"}).json()["token"]
    url = f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}"
    with connect_sync(url) as talker, connect_sync(url) as reader, \
            connect_sync(url) as watcher:
        for ws, tok in ((talker, token), (reader, other), (watcher, None)):
            ws.send(json.dumps({"type": "hello", "token": tok}))
            while json.loads(ws.recv(timeout=10)).get("type") != "welcome":
                pass
        watcher.send(json.dumps({"type": "talk", "phrase": "good_luck"}))
        # the other seat's guest reads players' own words, and tries to write some: were
        # one taken, it would read it back
        reader.send(json.dumps({"type": "listen", "words": True}))
        for text in ("<img src=x onerror=alert(1)>", "x" * 600, "\u202egnp.exe"):
            reader.send(json.dumps({"type": "talk", "text": text}))
        for n in range(9):
            phrase = "<script>alert(1)</script>" if n % 3 == 0 else ["hello", "oops"][n % 2]
            talker.send(json.dumps({"type": "talk", "phrase": phrase}))
        talker.send(json.dumps({"type": "ping"}))  # the talker's answers end with its pong
        while json.loads(talker.recv(timeout=10)).get("type") != "pong":
            pass
        reader.send(json.dumps({"type": "ping"}))
        heard: list[dict[str, object]] = []
        while (msg := json.loads(reader.recv(timeout=10))).get("type") != "pong":
            if msg.get("type") == "talk":
                heard.append(msg)
    held = len(heard) <= 5 and all(m.get("channel") == "players" and m.get("seat") == 0
                                   and "<" not in str(m.get("text")) and not m.get("own")
                                   for m in heard)
    return Outcome("9 phrases in a burst (markup among them), a spectator's, and a guest's "
                   "own words", held,
                   f"the other seat read {len(heard)}: "
                   f"{sorted({str(m.get('phrase')) for m in heard})}")


def invisible_names(srv: Server) -> Outcome:
    """Names that draw as an existing or reserved one: "Ana" plus a character that shows
    as nothing (U+034F, variation selectors, Mongolian and Khmer fillers, the Hangul
    fillers...), and "Admin" or "Bill" plus U+034F: none becomes a new account."""
    marks = ["\u034f", "\ufe00", "\ufe0f", "\U000e0100", "\u180b", "\u17b4", "\u3164",
             "\u115f"]
    with srv.client("127.0.0.18") as http:
        http.post("/api/account/signup", json={"name": "Ana Real", "password": "p" * 12})
    got = []
    for n, name in enumerate([f"Ana Real{m}" for m in marks] + ["Admin\u034f", "Bill\u034f"]):
        with srv.client(f"127.0.1.{n + 1}") as http:  # an address each: the sign-up limit
            got.append(http.post("/api/account/signup", json={"name": name,
                                                              "password": "p" * 12}))
    made = [r for r in got if r.status_code == 201]
    why = sorted({r.json()["error"]["code"] for r in got if r.status_code != 201})
    return Outcome("10 sign-ups that draw as 'Ana Real', 'Admin' or 'Bill'", not made,
                   f"{codes(got)} ({', '.join(why)})")


def guest_impostor(srv: Server) -> Outcome:
    """A guest sits under an account's name (and a look-alike of it), "Admin" and "Bill" (a
    bot's): all refused; under a name of its own it sits, marked a guest's in the
    summary."""
    with srv.client("127.0.0.19") as http:
        http.post("/api/account/signup", json={"name": "Bob Real", "password": "p" * 12})
        table = http.post("/api/tables", json={**CREATE, "seats": PEOPLE4}).json()["table"]
    with srv.client("127.0.0.19") as guest:
        got = [guest.post(f"/api/tables/{table['id']}/join", json={"name": n})
               for n in ("Bob Real", "B0b Rea1", "Admin", "Bill")]
        sat = guest.post(f"/api/tables/{table['id']}/join", json={"name": "Bob Fake"})
    seat = sat.json()["table"]["seats"][sat.json()["seat"]] if sat.status_code == 200 else {}
    held = all(r.status_code in (400, 409) for r in got) and seat.get("guest") is True
    return Outcome("a guest as 'Bob Real' (an account), 'B0b Rea1', 'Admin', 'Bill'", held,
                   f"{codes(got)}; as 'Bob Fake': {sat.status_code}, marked a guest: "
                   f"{seat.get('guest')}")


#: How long rating_farm waits, at most, for the deserted match's end to be recorded.
FORFEIT_WAIT = 90


def rating_farm(srv: Server) -> Outcome:
    """Farm a rating (issue 30 item 4): a rated table with no clock, then two new accounts
    from one address opposite each other in a rated Clockwork match, the victim leaving
    at once: no clock is refused, and the farmer gains nothing (a win over a seat taken from
    its own address moves no rating). The match ends one of two ways, both by the rules
    (docs/players.md), and which comes first is a race of two timers of the same length:
    the leaver's seat forfeits a turn's time after the leave (the table closes, the farmer
    wins, unrated), or the farmer's own turn timer runs out first and stand-ins for both
    seats play the match out before that (it finishes: a win unrated, or a loss)."""
    clockwork = [{"kind": "person"}, {"kind": "person"}]
    with srv.client("127.0.0.20") as farmer, srv.client("127.0.0.20") as puppet:
        for who, name in ((farmer, "Farmer One"), (puppet, "Farmer Two")):
            who.post("/api/account/signup", json={"name": name, "password": "p" * 12})
        body = {"game": "clockwork-spades", "seats": clockwork, "rated": True}
        no_clock = farmer.post("/api/tables", json={**body, "turn_seconds": 0})
        made = farmer.post("/api/tables", json={**body, "turn_seconds": 10}).json()
        tid = made["table"]["id"]
        joined = puppet.post(f"/api/tables/{tid}/join", json={"name": "x"}).json()
        puppet.post(f"/api/tables/{tid}/leave",
                    headers={"Authorization": f"Bearer {joined['token']}"})
        # the end comes on the live server's clock (a turn's 10 s): about 10 s on a quiet
        # machine, later under load; waited for until the farmer's record of it is there
        started, status, note, won = time.monotonic(), "", None, {}
        while time.monotonic() < started + FORFEIT_WAIT:
            time.sleep(0.5)
            table = farmer.get(f"/api/tables/{tid}").json()["table"]
            status, note = table["status"], table.get("note")
            won = farmer.get("/api/players/Farmer One").json()
            if status in ("closed", "finished") and won.get("recent"):
                break
        waited = time.monotonic() - started
    recent = won.get("recent") or [{}]
    moved = (won.get("games", {}).get("clockwork-spades") or {}).get("rating")
    ended = status in ("closed", "finished") and bool(won.get("recent"))
    gained = bool(recent[0].get("won")) and (bool(recent[0].get("rated")) or moved is not None)
    held = no_clock.status_code == 400 and ended and not gained
    return Outcome("a clockless rated table; two new accounts from one address", bool(held),
                   f"no clock: {no_clock.status_code}; the match {status} ({note}) after "
                   f"{waited:.0f} s (waited at most {FORFEIT_WAIT} s for its record), the "
                   f"farmer won: {recent[0].get('won')}, rated: {recent[0].get('rated')}, "
                   f"rating {moved}")


def account_input(srv: Server) -> Outcome:
    """Wrong types, unknown fields, 5,000-character names and passwords, 1,000 seats, a
    role smuggled in, and a cookie-carrying request from another site."""
    long = "x" * 5000
    bodies = [{"name": "Eve", "password": 12345678}, {"name": ["Eve"], "password": "p" * 9},
              {"name": "Eve", "password": "p" * 9, "role": "admin"},
              {"name": long, "password": "p" * 9}, {"name": "Eve", "password": long},
              {"name": "Eve", "password": "p" * 9,
               "seats": [{"table": "abc", "token": "t"}] * 1000},
              {"name": "Eve", "password": "p" * 9, "seats": [{"table": "../../x", "token": 1}]},
              {"name": "\u202eEve", "password": "p" * 9},
              {"name": "Еve\u200d", "password": "p" * 9}]
    with srv.client("127.0.0.11") as http:
        got = [http.post("/api/account/signup", json=b) for b in bodies]
        got += [http.post("/api/account/recover", json={"name": "Eve", "code": long,
                                                        "password": "p" * 9})]
        made = http.post("/api/account/signup", json={"name": "Eve", "password": "p" * 9})
        foreign = http.post("/api/account/delete", json={"password": "p" * 9},
                            headers={"Origin": "https://evil.example"})
        still = http.get("/api/account").json().get("account")
    shaped = all(r.status_code in (400, 413) and is_error_shape(r) for r in got)
    return Outcome("bad sign-ups and a cross-site delete", shaped and made.status_code == 201
                   and foreign.status_code == 403 and still == {"name": "Eve", "role": "player"},
                   f"bad bodies {codes(got)}, all in the error shape: {shaped}; cross-site "
                   f"delete {foreign.status_code}, account still there: {still is not None}")


def rules_probe(srv: Server) -> Outcome:
    """The rules endpoint (How to play) with hostile queries: a 10 KB language, markup,
    a long Accept-Language and cookie, unknown parameters, a table of another game, and 300
    guessed table ids. Each is a clear 400 or 404 in the error shape; a good ask still reads
    its table's options."""
    rules = "/api/games/spades/rules"
    with srv.client("127.0.0.9") as http:
        table = http.post("/api/tables", json=CREATE | {"options": {"target": 300}}).json()
        tid = table["table"]["id"]
        asks = [({"lang": "x" * 10_000}, {}), ({"lang": "<script>alert(1)</script>"}, {}),
                ({"lang": "pt", "colour": "red"}, {}), ({"full": "perhaps"}, {}),
                ({"table": "../../etc/passwd"}, {}), ({"table": "x" * 300}, {})]
        got = [http.get(rules, params=q, headers=h) for q, h in asks]
        got.append(http.get("/api/games/foursquare/rules", params={"table": tid}))
        started = time.monotonic()
        guessed = [http.get(rules, params={"table": f"guess{i:04d}"}) for i in range(300)]
        took = time.monotonic() - started
        odd = http.get(rules, headers={"accept-language": "xx;q=0.5, " * 95 + "pt"},
                       cookies={"parlour_lang": "y" * 4000})
        good = http.get(rules, params={"lang": "id", "table": tid})
    shaped = all(r.status_code in (400, 404) and is_error_shape(r) for r in got + guessed)
    read = good.status_code == 200 and "300 poin" in good.json()["html"]
    return Outcome("rules: 10 KB lang, markup, unknown keys, 300 guessed tables",
                   shaped and read and odd.status_code == 200
                   and all(r.status_code == 404 for r in guessed),
                   f"{codes(got)}; guesses {codes(guessed)} in {took:.1f} s; a 1 KB "
                   f"Accept-Language and 4 KB cookie: {odd.status_code} "
                   f"({odd.json().get('lang')}); the table's own page read: {read}")


# ----------------------------------------------------------------------------- items 4 to 12
def endless_tables(srv: Server) -> Outcome:
    """Bot tables that never end: huge targets and safety stops, then `again` forever."""
    with srv.client(ATTACKER) as c:
        answers = [c.post("/api/tables", json={"game": game, "seats": seats,
                                             "options": {name: 10**9}}).status_code
                 for game, seats, name in [("spades", RULE4, "target"),
                                           ("spades", RULE4, "max_deals"),
                                           ("hit-the-deck", RULE4, "max_rounds"),
                                           ("spite-and-malice", RULE4[:2], "max_turns")]]
        tid = c.post("/api/tables", json={"game": "spades", "seats": RULE4,
                                          "options": {"target": 10}}).json()["table"]["id"]
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{tid}").json()["table"]["status"] != "finished" \
                and time.monotonic() < deadline:
            time.sleep(0.2)
        again = c.post(f"/api/tables/{tid}/again").status_code  # nobody watches it
    held = answers == [400] * 4 and again == 409
    return Outcome("4 endless-option bot tables, then `again` at an unwatched bot table",
                   held, f"creates {answers}, again {again}")


def search_hog(srv: Server) -> Outcome:
    """One address opens 10 tables of hard search bots; another's table plays on."""
    with srv.client(ATTACKER) as c:
        answers = [c.post("/api/tables", json={"game": "spades", "seats": HARD}).status_code
                 for _ in range(10)]
    with srv.client() as v:
        seats = [{"kind": "bot", "bot": "ismcts:normal"}] * 4
        tid = v.post("/api/tables", json={"game": "spades", "seats": seats}).json()["table"]["id"]
        started = time.monotonic()
        degraded = False
        with connect_sync(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            version = 0
            while version < 12 and time.monotonic() - started < 120:
                msg = json.loads(ws.recv(timeout=120))
                if msg["type"] == "view":
                    version = msg["version"]
                elif msg["type"] == "table":
                    degraded = degraded or msg["table"]["degraded"]
        took = time.monotonic() - started
    accepted = answers.count(201)
    held = accepted <= 2 and answers.count(429) == 10 - accepted and version >= 12
    return Outcome("10 ismcts:hard tables from one address, beside another's ismcts:normal",
                   held, f"accepted {accepted}, refused {answers.count(429)} (429); the other "
                         f"table's 12 bot moves took {took:.1f} s"
                         f"{' (a level lower, said so)' if degraded else ''}")


def squatter(srv: Server) -> Outcome:
    """A script watches the lobby to sit in a seat kept for someone's friend."""
    with srv.client() as host:
        seats = [{"kind": "person"}] * 2 + RULE4[:2]
        res = host.post("/api/tables", json={"game": "spades", "seats": seats, "name": "Ann"})
        tid = res.json()["table"]["id"]
    with srv.client(ATTACKER) as c:
        listed = c.get("/api/tables").json()["tables"]
    seen = [t for t in listed if t["id"] == tid]
    return Outcome("find a friend's seat in the lobby list and sit first", not seen,
                   f"{len(listed)} listed tables, the private one {'listed' if seen else 'not'}")


def orphans(srv: Server) -> Outcome:
    """kill -9 the server while hard searches run: do its workers live on?"""
    with srv.client() as c:
        c.post("/api/tables", json={"game": "spades", "seats": HARD})
    deadline = time.monotonic() + 30
    while not (workers := srv.workers()) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)
    srv.stop(signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    srv.start()
    with srv.client() as c:
        c.post("/api/tables", json={"game": "spades", "seats": HARD})
    while not (workers := srv.workers()) and time.monotonic() < deadline + 30:
        time.sleep(0.1)
    time.sleep(1.0)
    took = srv.stop(signal.SIGTERM)
    term_left = [w for w in workers if alive(w)]
    srv.start()
    return Outcome("kill -9, then SIGTERM, with hard searches running", not left and
                   not term_left and took < 10,
                   f"workers alive after kill -9: {len(left)}; after SIGTERM: "
                   f"{len(term_left)} (exit in {took:.1f} s)")


def bad_row(srv: Server) -> Outcome:
    """One garbled action in one unfinished table, then a restart."""
    with srv.client() as c:
        people = [{"kind": "person"}] * 4
        broken = c.post("/api/tables", json={"game": "spades", "seats": people[:1] + RULE4[:3],
                                             "name": "A", "turn_seconds": 0}).json()
        fine = c.post("/api/tables", json={"game": "spades", "seats": people, "name": "B",
                                           "public": True}).json()
    tid = broken["table"]["id"]
    with connect_sync(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": broken["token"]}))
        while json.loads(ws.recv(timeout=10))["type"] != "view":
            pass
        ws.send(json.dumps({"type": "act", "action": "bid 3", "version": 0}))
        time.sleep(0.5)
    srv.stop()
    with sqlite3.connect(srv.db) as db:
        db.execute("UPDATE parlour_actions SET action = 'bid banana' WHERE table_id = ?", (tid,))
    srv.start()
    with srv.client() as c:
        bad = c.get(f"/api/tables/{tid}")
        good = c.get(f"/api/tables/{fine['table']['id']}")
    held = bad.status_code == 410 and good.status_code == 200
    return Outcome("a garbled action in one table, then a restart", held,
                   f"server up; broken table {bad.status_code}, the other {good.status_code}")


def review_flood(srv: Server) -> Outcome:
    """One address asks for post-game reviews of every seat of a finished match, again
    and again (40 tries); another address then asks for one."""
    with srv.client() as c:
        tid = c.post("/api/tables", json={"game": "spades", "seats": RULE4,
                                          "options": {"target": 10}}).json()["table"]["id"]
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{tid}").json()["table"]["status"] != "finished":
            if time.monotonic() > deadline:
                return Outcome("review flood", False, "the match did not finish")
            time.sleep(0.2)
    path = f"/api/tables/{tid}/matches/1/review"
    with srv.client(ATTACKER) as http:
        got = [http.post(path, json={"seat": i % 4}) for i in range(40)]
        started = time.monotonic()
        lobby = http.get("/api/tables").status_code
        answered = time.monotonic() - started
    jobs = {r.json()["status"] for r in got if r.status_code == 200}
    with srv.client() as http:
        other = http.post(path, json={"seat": 3})
    refused = sum(r.status_code in (429, 503) for r in got)
    seats = {i % 4 for i, r in enumerate(got) if r.status_code == 200}  # reviews started
    held = refused >= 20 and len(seats) <= 2 and other.status_code in (200, 503) \
        and lobby == 200 and answered < 1.0
    return Outcome("one address asks 40 reviews of a finished match", held,
                   f"{codes(got)} ({', '.join(sorted(jobs))}; {len(seats)} reviews "
                   f"started, the rest answered as they stand); the lobby answered in "
                   f"{answered * 1000:.0f} ms meanwhile; another address then: "
                   f"{other.status_code}")


def daily_peek(srv: Server) -> Outcome:
    """Learn today's compared deal before the counted try (issue 30 item 1): a guest plays
    today's Spades deal to the end and reads its record; a new account's try, then an old
    account's counted one (an account made before the day: its row aged in the database),
    must not hold the guest's cards; the counted table's record, replay, watching and
    dealing again stay shut, and a flood of tries is limited."""
    with srv.client(PEEKER) as c:  # an address of its own: the others' floods spent theirs
        guest = c.post("/api/daily/spades", json={"name": "peek"}).json()
        peeked: list[object] = []
        play_seat_out(srv, guest["table"]["id"], guest["token"], seen=peeked)
        noted = c.get(f"/api/tables/{guest['table']['id']}/matches/1/record").status_code
        c.post("/api/account/signup", json={"name": "Peeker Two", "password": "p" * 12})
        new = c.post("/api/daily/spades", json={}).json()
        new_hand: list[object] = []
        play_seat_out(srv, new["table"]["id"], new["token"], moves=1, seen=new_hand)
        with sqlite3.connect(srv.db) as db:  # a sock puppet made long ago
            db.execute("UPDATE parlour_accounts SET created = 0 WHERE name = 'Peeker Two'")
        counted = c.post("/api/daily/spades", json={})
        res = counted.json()
        if counted.status_code != 201 or not res.get("counted"):  # the puppet's day is used
            return Outcome("peek at today's daily deal", False,
                           f"the old account's try: {counted.status_code} {res}")
        tid = res["table"]["id"]
        counted_hand: list[object] = []
        play_seat_out(srv, tid, res["token"], moves=1, seen=counted_hand)
        record = c.get(f"/api/tables/{tid}/matches/1/record").status_code
        replay = c.get(f"/api/tables/{tid}/matches/1/replay?seat=0").status_code
        again = c.post(f"/api/tables/{tid}/again",
                       headers={"Authorization": f"Bearer {res['token']}"}).status_code
        tries = [c.post("/api/daily/spades", json={}) for _ in range(60)]
    with connect_sync(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": None}))
        watched = json.loads(ws.recv(timeout=10))
    refused = sum(r.status_code == 429 for r in tries)
    apart = bool(peeked) and peeked != new_hand and peeked != counted_hand
    held = (apart and not new["counted"] and record == replay == 403 and again == 409
            and watched.get("code") == "daily_secret" and refused > 0)
    return Outcome("peek at today's daily deal (a guest's try, a new account, record, "
                   "replay, watch, again, 60 tries)", held,
                   f"guest's record {noted}; new account counted {new['counted']} "
                   f"({new.get('why')}); the counted hand is the guest's: "
                   f"{peeked == counted_hand}; record {record}, replay {replay}, again "
                   f"{again}, watch {watched.get('code')}; tries: {codes(tries)}")


def signed_up(http: httpx.Client, name: str) -> None:
    res = http.post("/api/account/signup", json={"name": name, "password": "p" * 12})
    if res.status_code != 201:
        raise RuntimeError(f"signing up {name}: {res.status_code} {res.text[:200]}")


def follow_flood(srv: Server) -> Outcome:
    """Follow and unfollow as fast as a script can (40 times), follow 5,000-character and
    markup names, and follow yourself: the account's follow limit stops the flood (20 at
    once, then 429 with Retry-After), every bad name is a clear 400 or 404 in the error
    shape, and nobody gained a follower from the junk (issue 34, item 2)."""
    with srv.client("127.0.0.21") as http, srv.client("127.0.0.22") as target:
        signed_up(http, "Flood Follower")
        signed_up(target, "Flood Target")
        bad = [http.post("/api/people/follow", json={"name": n}) for n in (
            "x" * 5000, "<img src=x onerror=alert(1)>", "Flood Follower", "\x00")]
        got = [http.post("/api/people/follow", json={"name": "Flood Target",
                                                      "on": n % 2 == 0}) for n in range(40)]
        room = target.get("/api/people").json()
    limited = [r for r in got if r.status_code == 429]
    shaped = all(r.status_code in (400, 404) and is_error_shape(r) for r in bad)
    held = shaped and bool(limited) and all("Retry-After" in r.headers for r in limited) \
        and len([r for r in got if r.status_code == 200]) <= 20 and room["followers"] <= 1
    return Outcome("40 follows and unfollows in a burst; junk names", held,
                   f"{codes(got)}; junk {codes(bad)}, shaped: {shaped}; the target's "
                   f"followers: {room['followers']}")


def challenge_spam(srv: Server) -> Outcome:
    """A stranger challenges an account 15 times, and guesses challenge ids 1 to 30 to
    accept or decline others' challenges: a stranger is refused (403, only friends
    challenge) until the challenge limit answers 429; every guessed id is a 404; the
    victim sees no challenge and sits at no table (issue 34, item 3)."""
    with srv.client("127.0.0.23") as spammer, srv.client("127.0.0.24") as victim:
        signed_up(spammer, "Spam Challenger")
        signed_up(victim, "Spam Victim")
        got = [spammer.post("/api/people/challenges", json={"to": "Spam Victim",
                                                            "game": "spades"})
               for _ in range(15)]
        with srv.client("127.0.0.25") as guesser:
            signed_up(guesser, "Id Guesser")
            guessed = [guesser.post(f"/api/people/challenges/{n}/{verb}")
                       for n in range(1, 31) for verb in ("accept", "decline")]
        room = victim.get("/api/people").json()
        seats = victim.get("/api/account").json()["seats"]
    refused = {r.status_code for r in got}
    held = refused <= {403, 429} and 429 in refused \
        and all(r.status_code in (404, 429) for r in guessed) \
        and not room["challenges"]["incoming"] and not seats
    return Outcome("15 challenges from a stranger; 60 guessed challenge ids", held,
                   f"{codes(got)}; guesses {codes(guessed)}; the victim's challenges: "
                   f"{len(room['challenges']['incoming'])}, seats: {len(seats)}")


def quick_play_spam(srv: Server) -> Outcome:
    """One address starts 20 quick-play waits, another guesses wait ids 1 to 30 with made-up
    secrets to look at and cancel others' waits, and junk bodies come from both: the first
    keeps 4 waits (then 429), every guess is a 404 (or 429), junk is a 400 with the error's
    shape, and a third person's wait is untouched, still waiting, nobody's but theirs
    (issue 34, item 5)."""
    with srv.client("127.0.0.26") as spammer, srv.client("127.0.0.27") as guesser, \
            srv.client("127.0.0.28") as player:
        mine = player.post("/api/quick", json={"game": "hit-the-deck", "preset": "classic",
                                               "name": "Quick Player"}).json()["wait"]
        got = [spammer.post("/api/quick", json={"game": "spades", "preset": "classic",
                                                "name": f"Spammer {n}"}) for n in range(20)]
        guessed = [guesser.post(f"/api/quick/{n}{verb}", json={"secret": "a" * 22})
                   for n in range(1, 31) for verb in ("", "/cancel")]
        bad = [guesser.post("/api/quick", json=body) for body in (
            {"game": "spades", "preset": "classic", "name": "x" * 5000},
            {"game": "spades", "preset": "classic", "name": "\x00"},
            {"game": "spades", "preset": "classic", "name": "x", "seat": 2},
            {"game": ["spades"], "preset": "classic", "name": "x"})] + \
            [guesser.post("/api/quick/1", json={"secret": "x" * 500})]
        looked = player.post(f"/api/quick/{mine['id']}", json={"secret": mine["secret"]})
    kept = [r for r in got if r.status_code == 201]
    shaped = all(r.status_code == 400 and is_error_shape(r) for r in bad)
    held = len(kept) == 4 and all(r.status_code == 429 for r in got[4:]) \
        and all(r.status_code in (404, 429) for r in guessed) and shaped \
        and looked.status_code == 200 and looked.json()["status"] == "waiting" \
        and looked.json()["found"] == 1
    return Outcome("20 quick-play waits from one address; 60 guessed waits; junk", held,
                   f"{codes(got)}; guesses {codes(guessed)}; junk {codes(bad)}, shaped: "
                   f"{shaped}; the player's wait: {looked.status_code} {looked.text[:80]}")


def turns_probe(srv: Server) -> Outcome:
    """A stranger asks "whose turn is it" of a correspondence table with 40 made-up seat
    tokens, and with junk (51 seats, a table id that is not one, an extra field): no guess
    finds the table, junk is a 400 with the error's shape, and the players' own asks find it
    (issue 34, item 4)."""
    with srv.client("127.0.0.29") as ann, srv.client("127.0.0.30") as stranger:
        made = ann.post("/api/tables", json={
            "game": "spite-and-malice", "name": "Post Ann", "seat": 0,
            "seats": [{"kind": "person"}, {"kind": "person"}], "move_seconds": 3600}).json()
        table = made["table"]["id"]
        bob = ann.post(f"/api/tables/{table}/join", json={"name": "Post Bob"}).json()
        guessed = [stranger.post("/api/turns", json={"seats": [
            {"table": table, "token": f"guess-{n}-{'x' * 16}"}]}) for n in range(40)]
        bad = [stranger.post("/api/turns", json=body) for body in (
            {"seats": [{"table": table, "token": "x"}] * 51},
            {"seats": [{"table": "../../etc", "token": "x"}]},
            {"seats": [], "account": 1}, {"seats": "all"})]
        own = ann.post("/api/turns", json={"seats": [
            {"table": table, "token": made["token"]}, {"table": table, "token": bob["token"]}]})
    found = [r for r in guessed if r.status_code == 200 and r.json()["turns"]]
    shaped = all(r.status_code == 400 and is_error_shape(r) for r in bad)
    held = not found and all(r.status_code in (200, 429) for r in guessed) and shaped \
        and own.status_code == 200 and len(own.json()["turns"]) == 1
    return Outcome("40 guessed seat tokens for a correspondence table; junk", held,
                   f"guesses {codes(guessed)}, found {len(found)}; junk {codes(bad)}, shaped: "
                   f"{shaped}; the players' own: {own.status_code} {own.text[:60]}")


def puzzle_probe(srv: Server) -> Outcome:
    """One address asks for 80 puzzles at once; a stranger guesses 14 puzzle ids and
    answers with junk: the first address is slowed with 429s after its burst, a puzzle
    shown carries no answer, deal or line, guesses find nothing, junk is a 400 with the
    error's shape (issue 35, item 1)."""
    with srv.client("127.0.0.31") as greedy, srv.client("127.0.0.32") as stranger:
        asked = [greedy.get("/api/puzzles/next") for _ in range(80)]
        shown = next((r.json()["puzzle"] for r in asked if r.status_code == 200), None)
        guessed = [stranger.get(f"/api/puzzles/{n:012x}") for n in range(14)]
        junk = [] if shown is None else [
            stranger.post(f"/api/puzzles/{shown['id']}/answer", json=body) for body in (
                {"move": "ZZ"}, {"move": "x" * 500}, {"move": 7}, {"move": "7H", "as": 1},
                {})]
        after = None if shown is None else stranger.get(f"/api/puzzles/{shown['id']}")
    secrets = {"answer", "seed", "moves", "line", "chances", "source"} & set(shown or {})
    counted = {code: [r.status_code for r in asked].count(code) for code in
               {r.status_code for r in asked}}
    shaped = all(r.status_code == 400 and is_error_shape(r) for r in junk)
    held = shown is not None and not secrets and counted.get(429, 0) > 0 \
        and set(counted) <= {200, 429} and all(r.status_code in (404, 429) for r in guessed) \
        and shaped and after is not None and after.status_code == 200
    return Outcome("80 puzzles asked at once; 14 guessed puzzle ids; junk answers", held,
                   f"asked {counted}; secrets shown: {sorted(secrets) or 'none'}; guesses "
                   f"{codes(guessed)}; junk {codes(junk)}, shaped: {shaped}")


def room_streams(srv: Server) -> Outcome:
    """One account opens 12 of the room's event streams at once (a page has one), and a
    guest and a forged cookie open one each: the account gets 8 (its client's cap of
    sockets in one place), the rest a 429 with Retry-After; the guest and the forgery a
    403; and the server still answers (issue 34, item 2)."""
    from contextlib import ExitStack

    with srv.client("127.0.0.26") as http:
        signed_up(http, "Stream Hoarder")
        statuses, waits = [], []
        with ExitStack() as open_streams:
            for _ in range(12):
                res = open_streams.enter_context(http.stream("GET", "/api/people/events"))
                statuses.append(res.status_code)
                if res.status_code == 429:
                    waits.append(res.headers.get("Retry-After"))
            with srv.client("127.0.0.27") as guest:
                anon = guest.get("/api/people/events")
                forged = guest.get("/api/people/events",
                                   cookies={"parlour_session": "x" * 43})
            alive = http.get("/api/games").status_code
    counted = {code: statuses.count(code) for code in set(statuses)}
    held = counted == {200: 8, 429: 4} and all(waits) and anon.status_code == 403 \
        and forged.status_code == 403 and alive == 200
    return Outcome("12 room streams for one account; a guest's; a forged cookie's", held,
                   f"streams {counted}; guest {anon.status_code}, forged "
                   f"{forged.status_code}; the server answers: {alive}")


ATTACKS: list[Callable[[Server], Outcome]] = [
    chunked_body, echoed_excerpt, create_flood, forged_forwarding, cap_race, join_flood,
    socket_flood, slowloris, foreign_origin, lax_input, rules_probe, password_guessing,
    account_input, recovery_names, banned_oracle, record_names, shape_leaks, talk_flood,
    invisible_names, guest_impostor, rating_farm, follow_flood, challenge_spam, room_streams,
    quick_play_spam, turns_probe, puzzle_probe,
    endless_tables, search_hog, squatter, orphans, bad_row, review_flood, daily_peek,
]
OWN_SERVER = {endless_tables, search_hog, squatter, orphans, bad_row, review_flood}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated attack names")
    args = parser.parse_args()
    names = {a.__name__ for a in ATTACKS}
    wanted = set(args.only.split(",")) if args.only else names
    if unknown := wanted - names:
        parser.error(f"no such attack: {', '.join(sorted(unknown))} "
                     f"(known: {', '.join(a.__name__ for a in ATTACKS)})")
    shared = Server()
    servers = [shared]
    failed = 0
    try:
        for attack in (a for a in ATTACKS if a.__name__ in wanted):
            srv = Server() if attack in OWN_SERVER else shared
            started = time.monotonic()
            try:
                if srv is not shared:
                    servers.append(srv)
                if srv.proc is None:
                    srv.start()
                out = attack(srv)
            except Exception as err:  # an attack that breaks is reported, not hidden
                out = Outcome(attack.__name__, False, f"the attack itself failed: {err!r}")
            finally:
                if srv is not shared:
                    srv.stop()
            failed += not out.held
            print(f"{'held' if out.held else 'FAILED':6} {attack.__name__:18} {out.tried}: "
                  f"{out.figures} ({time.monotonic() - started:.1f} s)", flush=True)
    finally:
        shared.stop()
    tracebacks = sum(srv.tracebacks() for srv in servers)
    print(f"server tracebacks logged: {tracebacks}")
    return 1 if failed or tracebacks else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
