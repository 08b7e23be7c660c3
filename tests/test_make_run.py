"""Parlour as a person starts it: the command ``make run`` runs (the venv's ``parlour serve``
console script, from the project's folder, with the build ``make run`` leaves and no setting
of the tests'), driven over HTTP and websockets as the web page drives it.

For every game: a table of each bot kind the lobby offers (at its lowest level here, every
level in ``make test-long``) plays until each of its bots has moved at least three times;
a person's seat gets an answer to a hint; and a finished match gets a whole review. Bots that
search, hints and reviews run in worker processes, which is what the other server tests (a
server started with ``python -m parlour.cli``) could not show: started from the console
script, the workers once died at start and none of the three worked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from children import child_setup
from server_kit import free_port
from waits import wait_until
from websockets.sync.client import ClientConnection, connect

from parlour import native
from parlour.games import game_ids

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "parlour"  # the venv's console script
MOVES = 3  # moves each bot makes at least
START_WITHIN = 90.0  # seconds for the server to answer (a loaded machine starts slowly)
MOVES_WITHIN = 150.0  # seconds for every bot of a table to make its moves
HINT_WITHIN = 90.0
TABLES_FOR_A_TURN = 4  # matches tried for one with a turn for the person
REVIEW_WITHIN = 150.0


def until(what: str, seconds: float, check: Callable[[], Any], every: float = 0.1) -> Any:
    """Poll ``check`` until it returns something true; fail saying ``what`` after ``seconds``."""
    return wait_until(check, what, seconds, every)


@dataclass
class Served:
    """``parlour serve`` as ``make run`` starts it, and what it printed."""

    base: str
    log: Path
    proc: subprocess.Popen[bytes]
    host_of_client: Iterator[str] = field(default_factory=lambda: iter(
        f"127.0.0.{n}" for n in range(2, 250)))

    def client(self) -> httpx.Client:
        """An HTTP client from an address of its own (each is one client to the server's
        per-client limits, as different people are)."""
        transport = httpx.HTTPTransport(local_address=next(self.host_of_client))
        return httpx.Client(base_url=self.base, transport=transport, timeout=30)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if not SCRIPT.exists():
        pytest.skip(f"no console script {SCRIPT}: Parlour is not installed in this venv")
    folder = tmp_path_factory.mktemp("make-run")
    port = free_port()
    log = folder / "serve.log"
    # as a person's shell runs it: no build chosen by this process, no test settings
    env = {k: v for k, v in os.environ.items()
           if k not in (native.BUILD_VARIABLE, native.PURE_VARIABLE, "PYTHONPATH")}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", f"sqlite:///{folder / 'parlour.sqlite3'}"],
            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, env=env,
            preexec_fn=child_setup(os.getpid(), None))
    server = Served(f"http://127.0.0.1:{port}", log, proc)

    def up() -> bool:
        if proc.poll() is not None:
            pytest.fail(f"parlour serve exited ({proc.returncode}):\n{server.text()[-3000:]}")
        try:
            return httpx.get(server.base + "/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        until("parlour serve to answer /health", START_WITHIN, up, every=0.2)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    text = server.text()
    assert "Traceback" not in text, f"the server logged an error:\n{text[-4000:]}"
    # the fallback to threads must not hide workers that cannot run
    assert "worker processes broke" not in text, text[-4000:]


def games(served: Served) -> list[dict[str, Any]]:
    with served.client() as http:
        found: list[dict[str, Any]] = http.get("/api/games").json()
    return found


def bot_choices(game: dict[str, Any], every_level: bool) -> list[str]:
    """The bots the lobby offers for ``game``: each kind at its lowest level, or at each."""
    choices = []
    for bot in game["bots"]:
        levels = bot["levels"] if every_level else bot["levels"][:1]
        choices += [f"{bot['kind']}:{level}" for level in levels] or [bot["kind"]]
    return choices


@contextmanager
def watching(served: Served, table: str, token: str | None = None) -> Iterator[Watcher]:
    """A :class:`Watcher` of ``table`` (a player, with its seat's ``token``)."""
    with connect(served.base.replace("http", "ws") + f"/ws/tables/{table}",
                 open_timeout=30) as ws:
        yield Watcher(ws, token)


class Watcher:
    """A websocket to a table, reading views as the page does and counting who moved."""

    def __init__(self, ws: ClientConnection, token: str | None = None) -> None:
        self.ws = ws
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.match = 0
        self.status = ""
        self.moves: dict[int, int] = {}

    def receive(self, seconds: float) -> dict[str, Any] | None:
        """The next message, or None if none comes within ``seconds``."""
        try:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=seconds))
        except TimeoutError:
            return None
        if message["type"] == "view":
            before, acting = self.view, (self.view or {}).get("to_act") or []
            if before is not None and message["match"] == self.match \
                    and message["version"] == self.version + 1 and len(acting) == 1:
                self.moves[acting[0]] = self.moves.get(acting[0], 0) + 1
            self.view, self.version = message["view"], message["version"]
            self.match, self.status = message["match"], message["status"]
        elif message["type"] == "error":
            pytest.fail(f"the server answered an error: {message}")
        return message

    def wait_for(self, what: str, seconds: float,
                 done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            message = self.receive(max(0.05, deadline - time.monotonic()))
            if message is not None and done(message):
                return message
        pytest.fail(f"waited {seconds:.0f} s for {what} (last version {self.version}, "
                    f"moves {self.moves})")


def bots_move(served: Served, game: dict[str, Any], bot: str) -> None:
    """A table of ``bot`` at every seat plays until each has moved :data:`MOVES` times (a
    match over sooner is followed by another, as a watcher's "play again" asks)."""
    seats = game["seats"][0]
    with served.client() as http:
        answer = http.post("/api/tables", json={
            "game": game["id"], "name": "Watcher", "speed": "fast",
            "seats": [{"kind": "bot", "bot": bot}] * seats})
        assert answer.status_code == 201, answer.text
        table = answer.json()["table"]["id"]
        with watching(served, table) as watcher:
            deadline = time.monotonic() + MOVES_WITHIN
            while min(watcher.moves.get(s, 0) for s in range(seats)) < MOVES:
                if time.monotonic() > deadline:
                    pytest.fail(f"{game['id']}: a table of {bot} bots made the moves "
                                f"{watcher.moves} in {MOVES_WITHIN:.0f} s, not {MOVES} each "
                                f"(version {watcher.version})")
                watcher.receive(1.0)
                if watcher.status == "finished":
                    again = http.post(f"/api/tables/{table}/again")
                    assert again.status_code == 200, again.text
                    watcher.status = "again"


@pytest.mark.parametrize("every_level", [
    False, pytest.param(True, marks=pytest.mark.long)], ids=["lowest-level", "every-level"])
def test_every_bot_the_lobby_offers_plays(served: Served, every_level: bool) -> None:
    health = httpx.get(served.base + "/health", timeout=10).json()
    assert health["build"] == ("compiled" if native.current_build() is not None else "pure")
    assert ("Build: compiled" if health["build"] == "compiled" else "Build: pure Python") \
        in served.text()
    work = [(game, bot) for game in games(served) for bot in bot_choices(game, every_level)]
    assert len(work) >= 3 * len(games(served))
    # one table at a time per game (a client may keep only so many searching tables open),
    # the games side by side
    by_game: dict[str, list[str]] = {}
    for game, bot in work:
        by_game.setdefault(game["id"], []).append(bot)
    specs = {game["id"]: game for game, _ in work}

    def play(game_id: str) -> None:
        for bot in by_game[game_id]:
            bots_move(served, specs[game_id], bot)

    with ThreadPoolExecutor(len(by_game)) as pool:
        for done in [pool.submit(play, game_id) for game_id in by_game]:
            done.result()


@pytest.mark.parametrize("game_id", game_ids())
def test_a_hint_is_answered_at_every_game(served: Served, game_id: str) -> None:
    game = {g["id"]: g for g in games(served)}[game_id]
    assert game["hints"]
    seats = game["seats"][0]

    def my_turn_or_over(message: dict[str, Any]) -> bool:
        view = message.get("view") or {}
        return message["type"] == "view" and (message["status"] == "finished" or (
            message.get("timed") is None and view.get("to_act") == [0]
            and bool(view.get("legal"))))

    # The server deals at random, as people meet it: in a few percent of Clockwork Spades'
    # matches the bot wins before the person has moved (test_a_finished_match_is_reviewed),
    # so a match over before the person's turn means another table.
    for _ in range(TABLES_FOR_A_TURN):
        with served.client() as http:
            answer = http.post("/api/tables", json={
                "game": game_id, "name": "Ann", "seat": 0, "speed": "fast",
                "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * (seats - 1)})
            assert answer.status_code == 201, answer.text
            table, token = answer.json()["table"]["id"], answer.json()["token"]
        with watching(served, table, token) as player:
            turn = player.wait_for("the person's first turn or the match's end", MOVES_WITHIN,
                                   my_turn_or_over)
            if turn["status"] == "finished":
                continue
            player.ws.send(json.dumps({"type": "hint", "version": turn["version"]}))
            hint = player.wait_for("the hint's answer", HINT_WITHIN,
                                   lambda m: m["type"] == "hint")
            assert hint["version"] == turn["version"]
            legal = turn["view"]["legal"]
            assert hint["action"] in legal, (hint, legal)
            player.ws.send(json.dumps({"type": "act", "action": hint["action"],
                                       "version": turn["version"]}))
            played: int = turn["version"]

            def after_it(message: dict[str, Any], since: int = played) -> bool:
                return message["type"] == "view" and message["version"] > since

            player.wait_for("the hinted move to be played", 30, after_it)
            return
    pytest.fail(f"{TABLES_FOR_A_TURN} matches in a row ended before the person's turn")


def test_a_finished_match_is_reviewed(served: Served) -> None:
    """Clockwork Spades' matches are short: two rule bots finish one in seconds."""
    with served.client() as http:
        answer = http.post("/api/tables", json={
            "game": "clockwork-spades", "name": "Watcher", "speed": "fast",
            "seats": [{"kind": "bot", "bot": "rule"}] * 2})
        assert answer.status_code == 201, answer.text
        table = answer.json()["table"]["id"]
        with watching(served, table) as watcher:
            watcher.wait_for("the match to finish", MOVES_WITHIN,
                             lambda m: m["type"] == "view" and m["status"] == "finished")
        # the seat that made the last move (in about 3% of matches one seat wins before
        # the other has moved: a review of that one would judge nothing)
        last = http.get(f"/api/tables/{table}/matches/1/replay")  # the last step
        assert last.status_code == 200, last.text
        seat = last.json()["action"]["seat"]
        started = http.post(f"/api/tables/{table}/matches/1/review", json={"seat": seat})
        assert started.status_code == 200, started.text

        def review() -> dict[str, Any] | None:
            found = http.get(f"/api/tables/{table}/matches/1/review", params={"seat": seat})
            assert found.status_code == 200, found.text
            state: dict[str, Any] = found.json()
            assert state["status"] in ("queued", "running", "done"), state
            return state if state["status"] == "done" else None

        done = until("the review to be done", REVIEW_WITHIN, review, every=0.5)
    assert done["total"] >= 1 and done["done"] == done["total"]
    assert done["review"]["decisions"], done["review"]


def test_the_shipped_puzzles_are_there_and_answered(served: Served) -> None:
    """The server a person starts keeps the puzzles the games ship as it starts, and a
    puzzle asked for is answered with its verdict."""
    from parlour.puzzles.shipped import every_shipped

    with served.client() as http:
        catalogue = http.get("/api/puzzles").json()
        assert sum(g["puzzles"] for g in catalogue["games"]) == len(every_shipped()) > 0
        shown = http.get("/api/puzzles/next").json()["puzzle"]
        move = shown["view"]["legal"][0]
        got = http.post(f"/api/puzzles/{shown['id']}/answer", json={"move": move})
        assert got.status_code == 200, got.text
        assert got.json()["played"] == move and got.json()["chances"]
