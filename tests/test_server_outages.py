"""Outages of a dependency, on PostgreSQL + Redis with two processes (issue 31): every
process answers the documented 503 (a socket: an error, then close 1013), ``/health``
names the dependency that is down and is 503 only when the process cannot serve at all,
the log says once that it went and once that it came back (no tracebacks), ``/metrics``
counts it. The outage is a proxy the test cuts (tests/outage_kit.py): the shared
PostgreSQL and Redis keep running."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from outage_kit import cuttable, lines
from server_kit import AppClient, Player, app_client
from services import PG_ADMIN, pg_database, redis_or_skip, redis_prefix
from starlette.websockets import WebSocketDisconnect
from waits import Deadline, wait_until

ANN_AND_BOTS = [{"kind": "person"}, {"kind": "bot", "bot": "rule"}, {"kind": "person"},
                {"kind": "bot", "bot": "rule"}]


@pytest.fixture
def outage(tmp_path, caplog):  # type: ignore[no-untyped-def]
    """Two apps on one PostgreSQL database and one Redis, each reached through a proxy
    the test cuts; yields (the apps, the database's proxy, Redis's proxy)."""
    redis_url = redis_or_skip()
    caplog.set_level(logging.INFO)
    with pg_database("outage") as url, redis_prefix() as prefix, \
            cuttable(PG_ADMIN) as (db_proxy, _), cuttable(redis_url) as (redis_proxy, _):
        opts = dict(db_url=db_proxy.url(url), redis_url=redis_proxy.url(redis_url),
                    redis_prefix=prefix, bot_pause=0.0)
        with app_client(tmp_path / "x", **opts) as one, \
                app_client(tmp_path / "x", **opts) as two:
            yield (one, two), db_proxy, redis_proxy


def refused_socket(client: AppClient, table: str) -> tuple[dict[str, Any], int]:
    """A hello at ``table`` through ``client`` that is refused: the error, the close code."""
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        error = json.loads(ws.receive_text())
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
    return error, closed.value.code


def metric(client: AppClient, name: str) -> float:
    text = client.get("/metrics").text
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in /metrics"
    return float(found.group(1))


def quiet(records: list[logging.LogRecord]) -> Iterator[str]:
    """What an outage must not log: tracebacks, tasks whose failure nobody read."""
    gc.collect()  # a task nobody awaited reports its exception when it is collected
    for record in records:
        if record.exc_info or "never retrieved" in record.getMessage() \
                or record.levelno >= logging.ERROR:
            yield f"{record.name}: {record.getMessage()}"


def make_table(one: AppClient) -> tuple[str, str]:
    res = one.post("/api/tables", json={"game": "spades", "seats": ANN_AND_BOTS,
                                        "name": "Ann", "public": True})
    assert res.status_code == 201, res.text
    return res.json()["table"]["id"], res.json()["token"]


@pytest.mark.databases("postgresql")  # several processes: PostgreSQL
def test_a_redis_outage_is_answered_on_every_process_and_logged_once(outage, caplog):
    (one, two), _, redis_proxy = outage
    table, _ = make_table(one)
    assert [t["id"] for t in two.get("/api/tables").json()["tables"]] == [table]
    caplog.clear()
    redis_proxy.cut()
    for client, listed in ((one, [table]), (two, [])):  # each lists its own tables
        res = client.get("/api/tables")
        assert res.status_code == 200, res.text
        assert [t["id"] for t in res.json()["tables"]] == listed
        health = client.get("/health")  # still serving: the balancer keeps it
        assert health.status_code == 200, health.text
        assert health.json()["status"] == "degraded"
        assert health.json()["dependencies"] == {"database": "up", "redis": "down"}
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 503 and joined.json()["error"]["code"] == "unavailable"
    error, code = refused_socket(two, table)
    assert (error["type"], error["code"], code) == ("error", "unavailable", 1013)
    assert "cannot reach each other" in error["message"]
    redis_proxy.restore()
    wait_until(lambda: two.get(f"/api/tables/{table}").status_code == 200,
               "the second process to reach the table's owner again", 10)
    for client in (one, two):
        wait_until(lambda c=client: c.get("/health").json()["status"] == "ok",
                   "each process to find Redis back")
        assert metric(client, 'parlour_dependency_outages_total{dependency="redis"}') == 1
        assert metric(client, 'parlour_dependency_up{dependency="redis"}') == 1
        assert metric(client, 'parlour_dependency_refusals_total{dependency="redis"}') >= 1
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 200, joined.text
    assert len(lines(caplog.records, "lost redis")) == 2  # one a process
    assert len(lines(caplog.records, "redis is back after")) == 2
    assert list(quiet(caplog.records)) == []


@pytest.mark.databases("postgresql")
def test_a_database_outage_is_answered_on_every_process_and_logged_once(outage, caplog):
    (one, two), db_proxy, _ = outage
    table, _ = make_table(one)
    caplog.clear()
    db_proxy.cut()
    # the process that does not own the table cannot read it: 503, and 1013 on a socket
    summary = two.get(f"/api/tables/{table}")
    assert summary.status_code == 503, summary.text
    assert summary.json()["error"]["code"] == "unavailable"
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 503 and joined.json()["error"]["code"] == "unavailable"
    error, code = refused_socket(two, table)
    assert (error["code"], code) == ("unavailable", 1013)
    # its owner shows it from memory, and refuses what it cannot save
    assert one.get(f"/api/tables/{table}").status_code == 200
    joined = one.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 503 and joined.json()["error"]["code"] == "unavailable"
    assert two.post("/api/tables", json={"game": "spades", "seats": ANN_AND_BOTS,
                                         "name": "Cy"}).status_code == 503
    for client in (one, two):  # it cannot serve: out of the balancer
        health = client.get("/health")
        assert health.status_code == 503, health.text
        assert health.json()["dependencies"]["database"] == "down"
        assert health.json()["error"]["code"] == "unavailable"
    db_proxy.restore()
    for client in (one, two):
        wait_until(lambda c=client: c.get("/health").status_code == 200,
                   "each process to find its database back")
        assert metric(client, 'parlour_dependency_outages_total{dependency="database"}') == 1
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 200, joined.text
    assert len(lines(caplog.records, "lost the database")) == 2
    assert len(lines(caplog.records, "the database is back after")) == 2
    assert list(quiet(caplog.records)) == []


def connect_until_welcomed(client: AppClient, table: str, token: str, seconds: float
                           ) -> Player:
    """The page's reconnecting: hello after hello until one is welcomed."""
    deadline = Deadline("a hello to be welcomed again", seconds)
    while True:
        try:
            return Player(client, table, token)
        except WebSocketDisconnect as refused:
            assert refused.code == 1013, refused.code
            client.players[-1].close()  # the refused one's socket, closed on this side too
        time.sleep(min(0.3, deadline.left()))


@pytest.mark.databases("postgresql")
def test_play_goes_on_through_a_redis_outage_and_everyone_plays_once_it_is_back(outage):
    (one, two), _, redis_proxy = outage
    res = one.post("/api/tables", json={"game": "spades", "seats": ANN_AND_BOTS,
                                        "name": "Ann", "turn_seconds": 0})  # no turn timer
    assert res.status_code == 201, res.text
    table, ann_token = res.json()["table"]["id"], res.json()["token"]
    bea_token = two.post(f"/api/tables/{table}/join", json={"name": "Bea"}).json()["token"]
    ann = Player(one, table, ann_token)
    bea = Player(two, table, bea_token)  # relayed to the owner
    owned = one.app.state.hub.tables[table]
    redis_proxy.cut()
    # Bea's page is told why, and closed so that it reconnects
    error = bea.recv_until(lambda m: m["type"] == "error", "why Bea's page must wait")
    assert error["code"] == "unavailable" and "cannot reach each other" in error["message"]
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            bea.recv()
    assert closed.value.code == 1013
    bea.close()
    # Ann plays on: Bea's seat is stood in for, as a seat whose time ran out
    start = owned.version
    deadline = Deadline("Ann and the stand-in for Bea to play two rounds")
    while owned.version < start + 8:
        view = ann.recv_until(lambda m: m["type"] == "view", "Ann's next view",
                              deadline.left())
        if view["status"] == "playing" and 0 in view["view"]["to_act"] \
                and view["version"] == owned.version:
            ann.act(view["view"]["legal"][0])
    assert 2 in owned.standins
    assert any(seat == 2 for seat, _ in one.portal.call(played_since, one, table, start))
    # Redis is back: within 10 s Bea is back at her seat, and plays
    redis_proxy.restore()
    bea = connect_until_welcomed(two, table, bea_token, 10)
    assert bea.seat == 2
    wait_until(lambda: 2 not in owned.standins, "Bea's seat to be hers again")
    deadline = Deadline("Bea's turn, Ann playing hers meanwhile")
    while True:
        deadline.left()
        view = bea.sync()
        if view["status"] == "playing" and 2 in view["view"]["to_act"]:
            break
        mine = ann.sync()
        if mine["status"] == "playing" and 0 in mine["view"]["to_act"]:
            ann.act(mine["view"]["legal"][0])
        time.sleep(0.05)
    bea.act(view["view"]["legal"][0])
    bea.recv_until(lambda m: m["type"] == "view" and m["version"] > view["version"],
                   "the view after Bea's move")
    ann.close()
    bea.close()


async def played_since(client: AppClient, table: str, start: int) -> list[tuple[int, str]]:
    """The seats and actions of ``table``'s current match from version ``start`` on."""
    hub = client.app.state.hub
    owned = hub.tables[table]
    row = await asyncio.to_thread(hub.store.load_table, table)
    return list(row.matches[owned.match].actions[start:])
