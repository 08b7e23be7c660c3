"""Rejoin links (issue 15, item 10): a seat's private secret, traded on another device for
a token of the same seat; refused for anything else, limited per client, never shown to
anyone but its holder."""

from __future__ import annotations

import json
import logging

from server_kit import PEOPLE4, Player, app_client, create, join
from test_server_edge import as_client, error_of, proxied


def link_of(client, table_id: str, token: str) -> str:
    res = client.post(f"/api/tables/{table_id}/rejoin-link",
                      headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["link"] == f"/t/{table_id}#rejoin={body['secret']}"
    return body["secret"]


def trade(client, table_id: str, secret: object):
    return client.post(f"/api/tables/{table_id}/rejoin", json={"secret": secret})


def test_a_rejoin_secret_trades_for_the_same_seat_which_can_act(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    with app_client(tmp_path / "r.sqlite3") as client:
        made = create(client)  # Ann at seat 0 against three bots: the game starts
        table, token = made["table"]["id"], made["token"]
        secret = link_of(client, table, token)
        assert secret != token and len(secret) == 22
        res = trade(client, table, secret)
        assert res.status_code == 200, res.text
        body = res.json()
        assert body["seat"] == 0 and body["token"] != token
        # both devices hold seat 0: the first is not logged out, the second can act
        first, second = Player(client, table, token), Player(client, table, body["token"])
        assert first.seat == second.seat == 0
        view = second.recv_until(lambda m: m["type"] == "view" and bool(m["view"].get("legal")),
                                 "a view where seat 0 may act")
        second.act(view["view"]["legal"][0])
        after = second.recv_until(lambda m: m["type"] in ("view", "error"),
                                  "the answer to the move made with the traded token")
        assert after["type"] == "view" and after["version"] > view["version"]
        # the traded token asks for the same link, and trading again gives the same token
        assert link_of(client, table, body["token"]) == secret
        assert trade(client, table, secret).json()["token"] == body["token"]
    assert caplog.records and secret not in caplog.text  # the server logs, never the secret


def test_wrong_malformed_and_other_tables_secrets_are_refused_and_change_nothing(tmp_path):
    with app_client(tmp_path / "r.sqlite3") as client:
        one = create(client, PEOPLE4)
        two = create(client, PEOPLE4)
        secret_two = link_of(client, two["table"]["id"], two["token"])
        table = one["table"]["id"]
        before = client.get(f"/api/tables/{table}").json()
        error_of(trade(client, table, secret_two), 403, "bad_secret")
        error_of(trade(client, table, "A" * 22), 403, "bad_secret")
        for bad in ("short", "A" * 23, "A" * 21 + "!", 12345, None, True, ["x"], "é" * 22):
            msg = error_of(trade(client, table, bad), 400, "bad_request")
            assert str(bad) not in msg or bad is None
        error_of(client.post(f"/api/tables/{table}/rejoin", json={"secret": "A" * 22,
                                                                 "seat": 1}), 400,
                 "bad_request")
        error_of(client.post(f"/api/tables/{table}/rejoin", content=b"{",
                             headers={"Content-Type": "application/json"}), 400, "bad_request")
        error_of(client.post(f"/api/tables/{table}/rejoin", content=b"{}"), 415,
                 "bad_content_type")  # a body that does not say it is JSON
        error_of(trade(client, "nosuchtable", secret_two), 404, "not_found")
        assert client.get(f"/api/tables/{table}").json() == before
        # no link without a seat, nor with a wrong token
        error_of(client.post(f"/api/tables/{table}/rejoin-link"), 403, "not_seated")
        error_of(client.post(f"/api/tables/{table}/rejoin-link",
                             headers={"Authorization": "Bearer nope"}), 403, "bad_token")


def test_a_seat_that_changes_hands_kills_its_old_links(tmp_path):
    with app_client(tmp_path / "r.sqlite3") as client:
        made = create(client, PEOPLE4)
        table = made["table"]["id"]
        secret = link_of(client, table, made["token"])
        device = trade(client, table, secret).json()["token"]
        assert client.post(f"/api/tables/{table}/leave",
                           headers={"Authorization": f"Bearer {made['token']}"}
                           ).status_code == 200
        error_of(trade(client, table, secret), 403, "bad_secret")
        error_of(client.post(f"/api/tables/{table}/leave",
                             headers={"Authorization": f"Bearer {device}"}), 403, "bad_token")
        newcomer = join(client, table, "Cy", 0)
        assert link_of(client, table, newcomer["token"]) != secret


def test_the_secret_survives_a_restart(tmp_path):
    db = tmp_path / "r.sqlite3"
    with app_client(db) as client:
        made = create(client, PEOPLE4)
        table = made["table"]["id"]
        secret = link_of(client, table, made["token"])
    with app_client(db) as client:
        assert trade(client, table, secret).json()["seat"] == 0


def test_the_secret_reaches_nobody_else(tmp_path):
    with app_client(tmp_path / "r.sqlite3") as client:
        made = create(client, PEOPLE4)
        table = made["table"]["id"]
        others = [join(client, table, name) for name in ("Bo", "Cy")]
        watcher = Player(client, table, None)
        seated = [Player(client, table, o["token"]) for o in others]
        secret = link_of(client, table, made["token"])
        device = trade(client, table, secret).json()["token"]
        ann = Player(client, table, device)  # connects: a broadcast to everyone
        last = join(client, table, "Di")  # the table fills and the game starts
        last_player = Player(client, table, last["token"])
        for p in [watcher, *seated, ann, last_player]:
            p.sync()
        assert ann.seat == 0
        lobby = client.get("/api/tables").text + client.get(f"/api/tables/{table}").text
        seen = lobby + "".join(json.dumps(m) for p in [watcher, *seated, last_player, ann]
                               for m in p.messages)
        assert secret not in seen and device not in seen


def test_trading_is_limited_per_client(tmp_path):
    with proxied(tmp_path, join_burst=2, joins_per_minute=1) as client:
        made = create(client, PEOPLE4)
        table = made["table"]["id"]
        secret = link_of(client, table, made["token"])
        codes = [trade_as(client, table, secret, "192.0.2.60") for _ in range(3)]
        assert codes == [200, 200, 429]
        assert trade_as(client, table, secret, "192.0.2.61") == 200  # others are not held up
        res = client.post(f"/api/tables/{table}/rejoin", json={"secret": secret},
                          headers=as_client("192.0.2.60"))
        error_of(res, 429, "rate_limited")
        assert res.headers["retry-after"]


def trade_as(client, table: str, secret: str, ip: str) -> int:
    return client.post(f"/api/tables/{table}/rejoin", json={"secret": secret},
                       headers=as_client(ip)).status_code
