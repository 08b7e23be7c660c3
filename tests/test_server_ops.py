"""What the operator and the load balancer read: /health and /metrics."""

from __future__ import annotations

import re

import pytest
from server_kit import BOTS3, Player, app_client, create


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in /metrics"
    return float(found.group(1))


@pytest.mark.databases("postgresql")  # draining hands leases over: none on SQLite
def test_health_says_ok_then_draining_so_the_balancer_sends_no_one_new(tmp_path):
    with app_client(tmp_path / "h.sqlite3") as client:
        res = client.get("/health")
        assert res.status_code == 200 and res.json()["status"] == "ok"
        assert metric(client.get("/metrics").text, "parlour_draining") == 0
        client.app.state.cluster.draining = True  # what SIGTERM does first
        res = client.get("/health")
        assert res.status_code == 503 and res.json()["error"]["code"] == "unavailable"
        assert metric(client.get("/metrics").text, "parlour_draining") == 1


def test_metrics_count_tables_connections_actions_and_intent_to_view(tmp_path):
    with app_client(tmp_path / "m.sqlite3") as client:
        before = client.get("/metrics")
        assert before.status_code == 200
        assert before.headers["content-type"].startswith("text/plain")
        assert metric(before.text, 'parlour_tables{status="playing"}') == 0
        made = create(client, BOTS3)
        player = Player(client, made["table"]["id"], made["token"])
        view = player.recv_until(lambda m: m["type"] == "view" and 0 in m["view"]["to_act"],
                                 "my turn")
        player.act(view["view"]["legal"][0])
        player.recv_until(lambda m: m["type"] == "view" and m["version"] > view["version"],
                          "a view after my move")
        text = client.get("/metrics").text
        assert metric(text, 'parlour_tables{status="playing"}') == 1
        assert metric(text, 'parlour_connections{kind="local"}') == 1
        assert metric(text, "parlour_actions_total") >= 1
        assert metric(text, "parlour_intent_to_view_seconds_count") == 1
        assert metric(text, "parlour_bot_queue_depth") == 0
        assert metric(text, "parlour_lease_moves_total") == 0  # one process: no table moved
        player.close()
