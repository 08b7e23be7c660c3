"""A server killed with SIGKILL mid-play loses nothing: restarted on the same database,
every table is rebuilt by replay exactly as it was, its bots carry on, and its players
reconnect with their tokens.

Several tables play at once in a ``parlour serve`` subprocess: three of four bots and one
where a websocket client plays South. Every view a client receives is an acknowledgement
(the server broadcasts only committed actions). After the kill the database must hold
every acknowledged action, and replaying its log must reproduce every view that was sent,
before and after the restart.
"""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Any

import httpx
from server_kit import BOTS3, ServerProcess, create, free_port, seed_and_log
from waits import joined, wait_until
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from parlour.games import get_game
from parlour.i18n import localize
from parlour.server.cluster.outages import TRY_LATER

BOTS4 = [{"kind": "bot", "bot": "rule"}] * 4
LONG = {"target": 5000}


class Client(threading.Thread):
    """A websocket client that records every view it gets; it plays its seat, if any. A
    client of a restarted server comes back when told to try again in a moment (1013), as
    the page does: the killed process's lease may not have run out yet when it says hello."""

    def __init__(self, base: str, table_id: str, token: str | None = None,
                 acts: int = 10**9, seconds: float = 30.0, again: bool = False) -> None:
        super().__init__(daemon=True)
        self.again = again
        self.url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
        self.token = token
        self.acts = acts
        self.deadline = time.monotonic() + seconds
        self.views: list[tuple[int, dict[str, Any]]] = []
        self.seat: int | None = None
        self.acted = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while self._session() and self.again and not self.stop.is_set() \
                and time.monotonic() < self.deadline:
            time.sleep(0.2)  # told to try again in a moment

    def _session(self) -> bool:
        """One connection; whether it ended with "try again in a moment" (1013)."""
        try:
            with connect(self.url) as ws:
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                while not self.stop.is_set() and time.monotonic() < self.deadline:
                    try:
                        msg = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    if msg["type"] == "welcome":
                        self.seat = msg["seat"]
                    if msg["type"] != "view":
                        continue
                    self.views.append((msg["version"], msg["view"]))
                    view = msg["view"]
                    if self.seat in view["to_act"] and self.acted < self.acts:
                        ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                            "version": msg["version"]}))
                        self.acted += 1
        except ConnectionClosed as closed:
            return closed.rcvd is not None and closed.rcvd.code == TRY_LATER
        except OSError:
            pass  # the server was killed
        return False

    @property
    def acknowledged(self) -> int:
        return max((v for v, _ in self.views), default=0)




def check_views(seed: int, options: dict[str, Any], log: list[tuple[int, str]],
                client: Client) -> None:
    """Every view the client got is the replay of the log at that version."""
    wanted: dict[int, list[dict[str, Any]]] = {}
    for version, view in client.views:
        assert version <= len(log), f"a view at version {version} beyond the log"
        wanted.setdefault(version, []).append(view)
    game = get_game("spades")
    state = game.new(seed, 4, **options)
    for version in range(max(wanted, default=0) + 1):
        for view in wanted.get(version, []):
            assert localize(state.view(client.seat), "en") == view, \
                f"view at version {version} differs"
        if version < len(log):
            seat, text = log[version]
            state.apply(state.parse_action(text), seat)


def test_sigkill_mid_play_then_restart_resumes_every_table(tmp_path):
    db = tmp_path / "restart.sqlite3"
    first = ServerProcess(db, free_port(), bot_pause=0.01)
    try:
        http = httpx.Client(base_url=first.base, timeout=10)
        bots = [create(http, BOTS4, options=LONG) for _ in range(3)]
        person = create(http, BOTS3, options=LONG)
        tables = [t["table"] for t in bots] + [person["table"]]
        clients = [Client(first.base, t["id"]) for t in tables]
        player = Client(first.base, person["table"]["id"], person["token"])
        for c in [*clients, player]:
            c.start()
        wait_until(lambda: player.acted >= 3 and all(c.acknowledged > 10 for c in clients),
                   "three moves of the person and ten of each bot table")
    finally:
        first.kill()  # SIGKILL: no shutdown, no flush, mid-play
    for c in [*clients, player]:
        joined(c, "a client to see the server go", 10)

    before = {t["id"]: seed_and_log(db, t["id"]) for t in tables}
    for t, c in zip(tables, clients, strict=True):
        seed, log = before[t["id"]]
        assert len(log) >= c.acknowledged, "an acknowledged action was lost"
        check_views(seed, t["options"], log, c)
    seed, log = before[person["table"]["id"]]
    assert len(log) >= player.acknowledged
    check_views(seed, person["table"]["options"], log, player)

    second = ServerProcess(db, free_port(), bot_pause=0.01)
    try:
        clients2 = [Client(second.base, t["id"], again=True) for t in tables]
        player2 = Client(second.base, person["table"]["id"], person["token"], acts=3,
                         again=True)
        for c in [*clients2, player2]:
            c.start()
        wait_until(lambda: player2.acted == 3 and all(
            c.acknowledged > len(before[t["id"]][1]) + 10 for t, c in zip(tables, clients2,
                                                                          strict=True)
            if t["id"] != person["table"]["id"]),
            "three more moves of the person and ten more of each bot table, restored")
    finally:
        for c in [*clients2, player2]:
            c.stop.set()
            joined(c, "a client to stop", 10)
        second.stop()

    restored = dict(re.findall(r"table (\S+) restored: spades, match 1, (\d+) actions",
                               second.log_text()))
    for t, c in zip(tables, clients2, strict=True):
        seed, log = seed_and_log(db, t["id"])
        old = before[t["id"]][1]
        assert int(restored[t["id"]]) == len(old), "the table was not rebuilt as it was"
        assert log[:len(old)] == old, "history was rewritten by the restart"
        check_views(seed, t["options"], log, c)
        if t["id"] != person["table"]["id"]:
            assert len(log) > len(old) + 10, "the bots did not carry on"
    seed, log = seed_and_log(db, person["table"]["id"])
    assert player2.seat == 0 and player2.views, "the player could not reconnect"
    assert player2.views[0][0] >= len(before[person["table"]["id"]][1])
    assert player2.acted == 3 and len(log) > len(before[person["table"]["id"]][1])
    check_views(seed, person["table"]["options"], log, player2)
