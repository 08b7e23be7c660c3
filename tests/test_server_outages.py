"""Outages of a dependency, on PostgreSQL + Redis with two processes (issue 31): every
process answers the documented 503 (a socket: an error, then close 1013), ``/health``
names the dependency that is down and is 503 only when the process cannot serve at all,
the log says once that it went and once that it came back (no tracebacks), ``/metrics``
counts it. The outage is a proxy the test cuts (tests/outage_kit.py): the shared
PostgreSQL and Redis keep running."""

from __future__ import annotations

import gc
import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from outage_kit import cuttable, lines
from server_kit import AppClient, app_client
from services import PG_ADMIN, pg_database, redis_or_skip, redis_prefix
from starlette.websockets import WebSocketDisconnect
from waits import wait_until

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
