"""A Hypothesis state machine drives several websocket clients at one table: the four
seated players, a spectator, and strangers with forged tokens, sending legal intents and
random or malformed messages (and malformed HTTP joins). After every step: no server error
was logged and no answer was a 500; a refused message changed nothing (the table's version
and history are as they were); every client's last view is its own seat's view of the
table's state as it is now."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from server_kit import PEOPLE4, Player, app_client, create, join
from starlette.testclient import TestClient
from waits import Deadline, next_json

from parlour.i18n import localize

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the protocol, not the database

TYPES = ["hello", "act", "sync", "ping", "react", "teleport", "", "ACT"]  # no hint: its
# answer comes whenever the hint bot is done, so it cannot be checked step by step
FIELDS = ["action", "version", "seat", "token", "phase", "type", "state", "ms", "lang"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["bid 3", "nil", "QS", "bid \u0661", "look", "id", "pt-BR", "x" * 40]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=6)
MESSAGES = st.one_of(
    st.builds(lambda t, f: {"type": t, **f}, st.sampled_from(TYPES),
              st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=3)),
    JSON_VALUES.map(json.dumps),
    st.text(max_size=40),
    st.sampled_from(["[" * 3000, '{"type": "act", "action": "nil", "version": Infinity}',
                     '{"type": "ping", "type": "act"}', '{"type": "act", "version": 1e400}']),
    st.binary(max_size=20),
)
JOIN_BODIES = st.dictionaries(st.sampled_from(["name", "seat", "token", "x"]), JSON_VALUES,
                              max_size=3)


class Errors(logging.Handler):
    """Every record at ERROR or above that the server logs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def shared(tmp_path_factory, database):
    errors = Errors()
    logging.getLogger().addHandler(errors)
    with app_client(tmp_path_factory.mktemp("stateful") / "ws.sqlite3") as client:
        yield client, errors
    logging.getLogger().removeHandler(errors)


SHARED: dict[str, Any] = {}


class OneTable(RuleBasedStateMachine):
    @initialize()
    def sit_everyone(self) -> None:
        self.client: TestClient = SHARED["client"]
        self.errors: Errors = SHARED["errors"]
        res = create(self.client, PEOPLE4, name="P0")
        self.table_id = res["table"]["id"]
        tokens = [res["token"]] + [join(self.client, self.table_id, f"P{s}", s)["token"]
                                   for s in (1, 2, 3)]
        self.players = [Player(self.client, self.table_id, t) for t in tokens]
        self.players.append(Player(self.client, self.table_id, None))  # a spectator
        for p in self.players:
            p.view()
        self.seen_errors = len(self.errors.records)

    # ------------------------------------------------------------------ the server's truth
    def table(self) -> Any:
        return self.client.app.state.hub.tables[self.table_id]

    def settle(self, player: Player) -> list[dict[str, Any]]:
        """Everything ``player`` gets until the answer to a ping: the server has dealt with
        all it sent before."""
        got = []
        player.send({"type": "ping"})
        deadline = Deadline("the pong after everything sent before the ping")
        while (msg := player.recv(deadline))["type"] != "pong":
            got.append(msg)
        return got

    # ------------------------------------------------------------------ rules
    @precondition(lambda self: self.table().status == "playing")
    @rule(data=st.data())
    def a_seated_player_acts_legally(self, data: st.DataObject) -> None:
        table = self.table()
        seat = table.state.to_act[0]
        player = self.players[seat]
        self.settle(player)
        legal = player.last["view"]["legal"]
        before = table.version
        player.act(data.draw(st.sampled_from(legal)))
        got = self.settle(player)
        assert not [m for m in got if m["type"] == "error"], got
        assert self.table().version == before + 1

    @rule(who=st.integers(0, 4), message=MESSAGES)
    def anyone_sends_anything(self, who: int, message: Any) -> None:
        player = self.players[who]
        self.settle(player)
        table = self.table()
        version, history = table.version, list(table.state.history)
        if isinstance(message, bytes):
            player.ws.send_bytes(message)
        else:
            player.send(message)
        got = self.settle(player)
        refused = [m for m in got if m["type"] == "error"]
        if refused:
            assert all(m["code"] != "internal" for m in refused), refused
            assert self.table().version == version
            assert list(self.table().state.history) == history
        else:  # it was a valid message: at most one action, and it was this seat's
            moved = self.table().state.history[len(history):]
            assert len(moved) <= 1 and all(seat == player.seat for seat, _ in moved)

    @rule(token=st.text(max_size=30) | st.sampled_from(["", "x" * 22, "a" * 65]))
    def a_stranger_cannot_take_a_seat(self, token: str) -> None:
        with self.client.websocket_connect(f"/ws/tables/{self.table_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            answer = next_json(ws, "the answer to the stranger's hello")
            assert answer["type"] == "error" and answer["code"] == "bad_token", answer

    @rule(body=JOIN_BODIES)
    def a_stranger_posts_a_join(self, body: dict[str, Any]) -> None:
        res = self.client.post(f"/api/tables/{self.table_id}/join", json=body)
        assert res.status_code in (400, 409), res.text
        assert set(res.json()) == {"error"}

    # ------------------------------------------------------------------ after every step
    @invariant()
    def nothing_crashed(self) -> None:
        assert self.errors.records[self.seen_errors:] == []

    @invariant()
    def every_client_sees_its_own_seat(self) -> None:
        table = self.table()
        for player in self.players:
            self.settle(player)
            player.sync()
            last = player.last
            assert last["version"] == table.version
            assert last["view"] == json.loads(json.dumps(localize(table.state.view(player.seat),
                                                                  "en")))
            assert last["view"]["seat"] == player.seat

    def teardown(self) -> None:
        for p in getattr(self, "players", []):
            p.close()


def test_several_clients_with_random_and_malformed_messages(shared):
    SHARED["client"], SHARED["errors"] = shared
    run_state_machine_as_test(OneTable, settings=settings(
        max_examples=10, stateful_step_count=15, deadline=None,
        suppress_health_check=[HealthCheck.too_slow]))
