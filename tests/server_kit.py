"""Helpers for the server tests: an in-process app, tables, websocket players, and a real
server in a subprocess or a thread."""

from __future__ import annotations

import atexit
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from children import child_setup
from fastapi.testclient import TestClient
from services import StandIns
from sqlalchemy import Connection, create_engine, select
from sqlalchemy.pool import NullPool
from waits import WAIT, Deadline, ended, joined, receive_json

from parlour.server.app import create_app, server_config
from parlour.server.edge.limits import Limits
from parlour.server.settings import Settings
from parlour.server.storage.schema import check
from parlour.server.storage.store import actions_t, matches_t, metadata

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
CARD = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")
BOTS3 = [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3
PEOPLE4 = [{"kind": "person"}] * 4
#: Per-client limits far above what the tests of other things take from one client (the
#: tests of the limits set their own).
ROOMY = {"open_tables_per_client": 2000, "create_burst": 10_000, "join_burst": 10_000,
         "sockets_per_table": 1000, "sockets_per_client": 10_000, "login_burst": 10_000,
         "signup_burst": 10_000, "recovery_burst": 10_000, "report_burst": 10_000,
         "follow_burst": 10_000, "challenge_burst": 10_000}
ROOMY_FLAGS = [arg for name, value in ROOMY.items()
               for arg in ("--" + name.replace("_", "-"), str(value))]


#: When the test running now runs on PostgreSQL (tests/conftest.py's ``database``): the
#: databases that stand in for the SQLite files it names.
DATABASES: StandIns | None = None


def db_url_for(db: Path) -> str:
    """The database of the server whose SQLite file would be ``db``."""
    return DATABASES.url_for(db) if DATABASES is not None else f"sqlite:///{db}"


@contextmanager
def connect(db: Path) -> Iterator[Connection]:
    """A connection to the database of ``db`` (:func:`db_url_for`), in a transaction
    committed at the end: what a test reads or changes behind the server's back."""
    engine = create_engine(db_url_for(db), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            yield conn
    finally:
        engine.dispose()


def seed_of(db: Path, table_id: str, match: int = 1) -> int:
    """The seed of a table's match, as its database holds it."""
    with connect(db) as conn:
        return int(conn.execute(select(matches_t.c.seed).where(
            matches_t.c.table_id == table_id, matches_t.c.match == match)).scalar_one())


def seed_and_log(db: Path, table_id: str, match: int = 1) -> tuple[int, list[tuple[int, str]]]:
    """A table's match as its database holds it: the seed, and the actions in order as
    (seat, action)."""
    with connect(db) as conn:
        log = [(seat, action) for seat, action in conn.execute(
            select(actions_t.c.seat, actions_t.c.action)
            .where(actions_t.c.table_id == table_id, actions_t.c.match == match)
            .order_by(actions_t.c.idx))]
    return seed_of(db, table_id, match), log


def stored_bytes(db: Path) -> bytes:
    """Everything the database of ``db`` keeps, to look for what must never be stored:
    every row of every table as text and, on SQLite, the file and its write-ahead log as
    they lie on disk (where a deleted row may linger)."""
    with connect(db) as conn:
        rows = [repr(tuple(row)) for table in metadata.sorted_tables
                for row in conn.execute(select(table))]
    kept = "\n".join(rows).encode()
    if DATABASES is None:
        for path in (db, db.with_name(db.name + "-wal")):
            if path.exists():
                kept += path.read_bytes()
    return kept


_HEAD_TEMPLATE: list[Path] = []  # a SQLite file at the newest schema, made once per process


def fresh_database(db: Path) -> None:
    """Give a server's new SQLite file the newest schema at once: a copy of an empty file
    this process migrated once (Alembic takes about half a second a file, the copy a
    millisecond, and the result is the same file). The server makes its secrets at start,
    so each file still has its own. An existing file, as a test of upgrades makes, is left
    as it is, and so are the PostgreSQL stand-ins."""
    if DATABASES is not None or db.exists():
        return
    if not _HEAD_TEMPLATE:
        folder = tempfile.mkdtemp(prefix="parlour-head-")
        atexit.register(shutil.rmtree, folder, True)
        template = Path(folder) / "head.sqlite3"
        check(f"sqlite:///{template}", auto_upgrade=True)
        _HEAD_TEMPLATE.append(template)
    shutil.copyfile(_HEAD_TEMPLATE[0], db)


#: The tables of this process's test servers, counted: ids a test can read anywhere in a
#: message's text, where a random id can spell a card (``3C-aNB_V``: 1 in 2,500 ids).
TABLE_IDS = itertools.count(1)


def counted_table_id() -> str:
    return f"tbl{next(TABLE_IDS):05d}"


class Clock:
    """A test server's clocks (``Settings.now`` and ``Settings.monotonic``), standing
    still until the test moves them: the life of tables, retention, expiry, rate limits
    and sessions tested by the clock and not by sleeping. ``app_client(db,
    **clock.settings())``."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:  # a day in 2027, UTC
        self.at = start
        self.timers: list[ClockTimer] = []  # the turn timers and forfeits pending

    def now(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds

    def call_later(self, seconds: float, callback: Callable[[], None]) -> ClockTimer:
        """``Settings.call_later``: the timer fires when :meth:`elapse` passes its time."""
        timer = ClockTimer(self.at + seconds, callback)
        self.timers.append(timer)
        return timer

    def elapse(self, client: TestClient, seconds: float) -> int:
        """Move the clock ``seconds`` on and fire, on ``client``'s event loop and in the
        order they are due, the timers whose time has come; returns how many fired."""
        self.at += seconds

        def fire() -> int:
            fired = 0
            while due := sorted((t for t in self.timers if t.due <= self.at
                                 and not t.cancelled), key=lambda t: t.due):
                self.timers.remove(due[0])
                due[0].callback()
                fired += 1
            self.timers = [t for t in self.timers if not t.cancelled]
            return fired

        return int(client.portal.call(fire))

    def settings(self, timers: bool = False) -> dict[str, Any]:
        """The clocks as settings; with ``timers``, the turn timers and forfeits too (they
        fire only by :meth:`elapse`)."""
        clocks: dict[str, Any] = {"now": self.now, "monotonic": self.now}
        return clocks | ({"call_later": self.call_later} if timers else {})


@dataclass
class ClockTimer:
    """One timer a test's :class:`Clock` holds."""

    due: float
    callback: Callable[[], None]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


def settings_for(db: Path, **settings: Any) -> Settings:
    """Test settings: no bot pause, no message rate limit, roomy per-client limits,
    counted table ids."""
    limits = settings.pop("limits", None) or Limits(**ROOMY)
    fresh_database(db)
    opts = {"db_url": db_url_for(db), "bot_pause": 0.0, "rate": 1000.0,
            "burst": 1000, "new_table_id": counted_table_id, "puzzles_shipped": False
            } | settings
    return Settings(limits=limits, **opts)


class AppClient(TestClient):
    """The in-process app. On exit it first closes every websocket a test left open (a
    failed assertion skips a test's own close): the app's shutdown waits for open
    sessions, so one forgotten socket would hang the run instead of reporting the
    failure."""

    players: list[Player]

    def __exit__(self, *exc: Any) -> None:
        for player in getattr(self, "players", []):
            player.close()
        super().__exit__(*exc)


def app_client(db: Path, **settings: Any) -> AppClient:
    return AppClient(create_app(settings_for(db, **settings)))


def ok(res: Any, status: int = 200) -> Any:
    """The JSON of an answer that has ``status``; else the test fails with its text."""
    assert res.status_code == status, res.text
    return res.json()


def refused(res: Any, status: int, code: str) -> None:
    """The answer is the error ``code`` with ``status``."""
    assert res.status_code == status, res.text
    assert res.json()["error"]["code"] == code, res.text


def create(client: TestClient | httpx.Client, seats: list[dict[str, Any]] = BOTS3,
           options: dict[str, Any] | None = None, name: str = "Ann",
           seat: int | None = None, game: str = "spades") -> dict[str, Any]:
    res = client.post("/api/tables", json={"game": game, "options": options or {},
                                           "seats": seats, "name": name, "seat": seat})
    assert res.status_code == 201, res.text
    return res.json()


def join(client: TestClient | httpx.Client, table_id: str, name: str,
         seat: int | None = None) -> dict[str, Any]:
    res = client.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
    assert res.status_code == 200, res.text
    return res.json()


class Player:
    """One websocket client of the in-process app."""

    def __init__(self, client: TestClient, table_id: str, token: str | None,
                 lang: str | None = None, headers: dict[str, str] | None = None) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table_id}", headers=dict(headers or {}))
        self.ws = self._cm.__enter__()
        self.open = True
        self.token = token
        if isinstance(client, AppClient):
            client.__dict__.setdefault("players", []).append(self)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if lang is not None:
            hello["lang"] = lang
        self.ws.send_text(json.dumps(hello))
        self.messages: list[dict[str, Any]] = []
        self.welcome = self.recv_until(lambda m: m["type"] == "welcome", "the welcome")
        self.seat = self.welcome["seat"]
        self.last: dict[str, Any] | None = None

    def recv(self, deadline: Deadline | None = None) -> dict[str, Any]:
        """The next message, before ``deadline`` (by default :data:`waits.WAIT` seconds
        for any message)."""
        msg = receive_json(self.ws, deadline or Deadline("a message"), self.messages)
        self.messages.append(msg)
        if msg["type"] == "view":
            self.last = msg
        return msg

    def recv_until(self, pred: Callable[[dict[str, Any]], bool], what: str,
                   seconds: float = WAIT) -> dict[str, Any]:
        """The first message ``pred`` accepts (``what`` it is, for the failure), within
        ``seconds`` for them all."""
        deadline = Deadline(what, seconds)
        while True:
            msg = self.recv(deadline)
            if pred(msg):
                return msg

    def view(self) -> dict[str, Any]:
        """The next view message."""
        return self.recv_until(lambda m: m["type"] == "view", "a view")

    def send(self, obj: Any) -> None:
        self.ws.send_text(obj if isinstance(obj, str) else json.dumps(obj))

    def act(self, action: str, version: int | None = None) -> None:
        assert self.last is not None
        self.send({"type": "act", "action": action,
                   "version": self.last["version"] if version is None else version})

    def error(self) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == "error", "an error")

    def sync(self) -> dict[str, Any]:
        self.send({"type": "sync"})
        return self.view()

    def close(self) -> None:
        if self.open:
            self.open = False
            self._cm.__exit__(None, None, None)


def strings(obj: Any, values: bool = True) -> Iterator[str]:
    """Every key of every object in ``obj`` and, with ``values``, every text value too."""
    if isinstance(obj, str):
        if values:
            yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from strings(v, values)
    elif isinstance(obj, list):
        for v in obj:
            yield from strings(v, values)


def assert_no_secret(msg: Any, seed: int | None = None, tokens: Iterable[str | None] = ()) -> None:
    """A message a client gets holds no field for a seed or a token, not the table's seed,
    and no seat's token. (Fields are checked by name, not the whole text: ids are random
    text that can spell "seed", as a slap's phase id "uvseed6ocp0o" once did.)"""
    named = [k for k in strings(msg, values=False) if "seed" in k.lower() or "token" in k.lower()]
    assert not named, f"a message has the fields {named}"
    if seed is not None:
        assert seed not in numbers(msg), "the seed was sent to a client"
    text = json.dumps(msg)
    for token in tokens:
        assert token is None or token not in text, "a seat's token was sent to a client"


def numbers(obj: Any) -> Iterator[int]:
    if isinstance(obj, bool):
        return
    if isinstance(obj, int):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from numbers(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from numbers(v)


# ----------------------------------------------------------------------------- real servers
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Seconds a server subprocess may take to answer: a loaded machine (two busy programs
#: beside the suite) took over 60 to import and start one.
SERVER_START = 120.0


def wait_up(base: str, seconds: float = SERVER_START) -> None:
    """Wait for the server at ``base`` to answer (a loaded machine starts one slowly)."""
    deadline = Deadline(f"the server at {base} to come up", seconds)
    while True:
        try:
            if httpx.get(f"{base}/api/games", timeout=min(1.0, deadline.left())
                         ).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(min(0.05, deadline.left()))




class ServerProcess:
    """``parlour serve`` in a subprocess."""

    def __init__(self, db: Path, port: int, bot_pause: float = 0.02,
                 flags: list[str] | None = None, max_files: int | None = None,
                 db_url: str | None = None, wait: bool = True) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.log_path = db.with_suffix(f".{port}.log")
        self.log = open(self.log_path, "w")  # noqa: SIM115
        fresh_database(db)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parlour.cli", "serve", "--port", str(port), "--db",
             db_url or db_url_for(db), "--bot-pause", str(bot_pause), "--rate", "1000",
             *(ROOMY_FLAGS if flags is None else flags)],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
            preexec_fn=child_setup(os.getpid(), max_files))
        if wait:
            try:
                wait_up(self.base)
            except BaseException:
                self.stop()  # a server that comes up late must not serve the next test
                raise

    def log_text(self) -> str:
        return self.log_path.read_text()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        ended(self.proc, f"the killed server on port {self.port} to end", 10)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                ended(self.proc, f"the server on port {self.port} to end when killed", 10)
        self.log.close()


@contextmanager
def server_thread(db: Path, port: int | None = None, **settings: Any) -> Iterator[str]:
    """The app under uvicorn in a thread of this process, on ``port`` (default: a free
    one; a server started again on the same port keeps the pages' origin, and so their
    storage); yields its base URL."""
    import uvicorn

    app = create_app(settings_for(db, **settings))
    port = port or free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, app.state.settings.limits))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    wait_up(base)
    try:
        yield base
    finally:
        server.should_exit = True
        joined(thread, f"the server thread at {base} to stop", 15)


@contextmanager
def seated_socket(db: Path, **settings: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A person's real websocket (``websockets``' client) at a Spades table of three rule
    bots on a :func:`server_thread`, having said hello: the connection and the welcome."""
    from waits import next_frame
    from websockets.sync.client import connect

    with server_thread(db, **settings) as base:
        with httpx.Client(base_url=base) as http:
            opened = create(http, BOTS3)
        url = base.replace("http", "ws") + f"/ws/tables/{opened['table']['id']}"
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": opened["token"]}))
            welcome = next_frame(ws, "the welcome")
            assert welcome["type"] == "welcome", welcome
            yield ws, welcome
