"""Abuse replay for the life of tables (issue 14, items 4 to 12): one line per attack.

Starts ``parlour serve`` on loopback with a fresh SQLite database and its default settings,
runs each attack in :data:`ATTACKS` (bounded in count and time) and prints what it tried,
whether the server held, and the figures. Loopback has a whole /8, so the attacker binds
127.0.0.2 while the victim stays on 127.0.0.1.

    python bench/abuse_life.py                    # every attack
    python bench/abuse_life.py --only orphans     # some (comma-separated names)

An attack is a small function ``(Server) -> Outcome``, the shape of ``bench/abuse.py`` (the
HTTP edge's attacks), so the two lists can be one. The exit status is 1 if any got through.
"""

from __future__ import annotations

import argparse
import json
import os
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

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
ATTACKER = "127.0.0.2"
HARD = [{"kind": "bot", "bot": "ismcts:hard"}] * 4
RULE4 = [{"kind": "bot", "bot": "rule"}] * 4


@dataclass
class Outcome:
    tried: str
    held: bool
    figures: str


@dataclass
class Server:
    """``parlour serve`` in a subprocess on loopback, on a database of its own."""

    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="parlour-life-")))
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def db(self) -> Path:
        return self.work / "life.sqlite3"

    def start(self) -> Server:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve", "--port", str(self.port), "--db",
             f"sqlite:///{self.db}", "--bot-pause", "0.05"],
            cwd=ROOT, stdout=(self.work / "server.log").open("a"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not come up")

    def stop(self, how: int = signal.SIGTERM) -> float:
        """Stop the server; returns the seconds it took to exit."""
        assert self.proc is not None
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(how)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return time.monotonic() - started

    def client(self, address: str = "127.0.0.1") -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=10,
                            transport=httpx.HTTPTransport(local_address=address))

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


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# ----------------------------------------------------------------------------- attacks
def endless_tables(srv: Server) -> Outcome:
    """Bot tables that never end: huge targets and safety stops, then `again` forever."""
    with srv.client(ATTACKER) as c:
        codes = [c.post("/api/tables", json={"game": game, "seats": seats,
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
    held = codes == [400] * 4 and again == 409
    return Outcome("4 endless-option bot tables, then `again` at an unwatched bot table",
                   held, f"creates {codes}, again {again}")


def search_hog(srv: Server) -> Outcome:
    """One address opens 10 tables of hard search bots; another's table plays on."""
    with srv.client(ATTACKER) as c:
        codes = [c.post("/api/tables", json={"game": "spades", "seats": HARD}).status_code
                 for _ in range(10)]
    with srv.client() as v:
        seats = [{"kind": "bot", "bot": "ismcts:normal"}] * 4
        tid = v.post("/api/tables", json={"game": "spades", "seats": seats}).json()["table"]["id"]
        started = time.monotonic()
        degraded = False
        with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            version = 0
            while version < 12 and time.monotonic() - started < 120:
                msg = json.loads(ws.recv(timeout=120))
                if msg["type"] == "view":
                    version = msg["version"]
                elif msg["type"] == "table":
                    degraded = degraded or msg["table"]["degraded"]
        took = time.monotonic() - started
    accepted = codes.count(201)
    held = accepted <= 2 and codes.count(429) == 10 - accepted and version >= 12
    return Outcome("10 ismcts:hard tables from one address, beside another's ismcts:normal",
                   held, f"accepted {accepted}, refused {codes.count(429)} (429); the other "
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
    with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
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


ATTACKS: list[Callable[[Server], Outcome]] = [endless_tables, search_hog, squatter, orphans,
                                              bad_row]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated attack names")
    args = parser.parse_args()
    chosen = [a for a in ATTACKS if not args.only or a.__name__ in args.only.split(",")]
    failed = 0
    for attack in chosen:
        srv = Server().start()
        try:
            out = attack(srv)
        except Exception as err:  # an attack that breaks the harness is a failure too
            out = Outcome(attack.__name__, False, f"{type(err).__name__}: {err}")
        finally:
            srv.stop()
        failed += not out.held
        print(f"{attack.__name__:15} {'held' if out.held else 'BROKE':5}  {out.tried}: "
              f"{out.figures}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
