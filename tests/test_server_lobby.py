"""The lobby API: create, join, list, watch, start when filled, play again, records."""

from __future__ import annotations

import pytest
from server_kit import BOTS3, PEOPLE4, Clock, Player, app_client, assert_no_secret, create, join

from parlour.record import parse_record, replay
from parlour.server.play.table import Table


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "lobby.sqlite3") as c:
        yield c


def test_games_lists_spades_with_options_and_bots(client):
    games = client.get("/api/games").json()
    spades = next(g for g in games if g["id"] == "spades")
    assert {o["name"] for o in spades["options"]} >= {"target", "blind_nil", "nil_value"}
    kinds = {b["kind"]: b for b in spades["bots"]}
    assert {"random", "rule"} <= set(kinds) and kinds["rule"]["levels"] == []
    if "ismcts" in kinds:
        assert kinds["ismcts"]["levels"] == ["easy", "normal", "hard"]
    assert spades["seat_names"]["4"] == ["South", "West", "North", "East"]


def test_create_with_three_bots_starts_at_once(client):
    res = create(client, BOTS3)
    table = res["table"]
    assert res["seat"] == 0 and len(res["token"]) >= 22  # 128 bits, URL-safe
    assert res["invite"] == f"/t/{table['id']}"
    assert table["status"] == "playing" and table["match"] == 1
    assert [s["kind"] for s in table["seats"]] == ["person", "bot", "bot", "bot"]
    assert_no_secret(table, tokens=[res["token"]])


def test_table_waits_for_friends_then_starts(client):
    res = create(client, [{"kind": "person"}, {"kind": "person"},
                          {"kind": "bot", "bot": "rule"}, {"kind": "bot", "bot": "random"}])
    tid = res["table"]["id"]
    assert res["table"]["status"] == "waiting"
    assert res["table"]["listed"] is False  # a seat for a friend: private, by invite
    listed = client.get("/api/tables").json()["tables"]
    assert not any(t["id"] == tid for t in listed)
    host = Player(client, tid, res["token"])
    assert host.seat == 0 and host.welcome["table"]["status"] == "waiting"
    friend = join(client, tid, "  Bo \n ")
    assert friend["seat"] == 1 and friend["table"]["seats"][1]["name"] == "Bo"
    assert friend["table"]["status"] == "playing"
    view = host.view()
    assert view["view"]["seat"] == 0 and view["version"] == 0
    host.close()


def test_join_errors_name_the_problem(client):
    res = create(client, [{"kind": "person"}, {"kind": "person"}, *BOTS3[1:3]])
    tid = res["table"]["id"]
    taken = client.post(f"/api/tables/{tid}/join", json={"name": "Bo", "seat": 0})
    assert taken.status_code == 409 and "not free" in taken.json()["error"]["message"]
    noname = client.post(f"/api/tables/{tid}/join", json={"name": "   "})
    assert noname.status_code == 400 and "name" in noname.json()["error"]["message"]
    long = client.post(f"/api/tables/{tid}/join", json={"name": "x" * 30})
    assert long.status_code == 400 and "24" in long.json()["error"]["message"]
    join(client, tid, "Bo")
    full = client.post(f"/api/tables/{tid}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "watch" in full.json()["error"]["message"]
    missing = client.post("/api/tables/nosuchtable/join", json={"name": "Cy"})
    assert missing.status_code == 404
    bad_id = client.get("/api/tables/..%2F..%2Fetc")
    assert bad_id.status_code == 404


def test_create_errors(client):
    def post(body):
        r = client.post("/api/tables", json=body)
        return r.status_code, r.json()["error"]["message"]

    code, msg = post({"game": "chess", "seats": BOTS3, "name": "A"})
    assert code == 400 and "unknown game" in msg
    code, msg = post({"game": "spades", "seats": BOTS3[:3], "name": "A"})
    assert code == 400 and "4 seats" in msg
    code, msg = post({"game": "spades", "seats": BOTS3, "name": "A", "options": {"target": 5}})
    assert code == 400 and "target" in msg
    code, msg = post({"game": "spades", "seats": BOTS3, "name": "A", "options": {"colour": 1}})
    assert code == 400 and "no option 'colour'" in msg
    code, msg = post({"game": "spades", "seats": [{"kind": "bot", "bot": "genius"}] * 4})
    assert code == 400 and "genius" in msg and "rule" in msg
    code, msg = post({"game": "spades", "seats": BOTS3, "name": "A", "seat": 2})
    assert code == 400 and "seat" in msg
    code, msg = post({"game": "spades", "seats": BOTS3})
    assert code == 400 and "name" in msg
    code, msg = post({"game": "spades", "seats": "all"})
    assert code == 400 and msg.startswith("seats")
    big = client.post("/api/tables", content=b"{" + b" " * 20000 + b"}",
                      headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert client.get("/api/tables").json()["tables"] == []  # nothing was created


def test_spectator_watches_bots_and_play_again_record_and_replay(client):
    res = create(client, [{"kind": "bot", "bot": "rule"}] * 4, options={"target": 10})
    assert res["token"] is None and res["seat"] is None
    tid = res["table"]["id"]
    watcher = Player(client, tid, None)
    assert watcher.seat is None
    final = watcher.recv_until(lambda m: m["type"] == "view" and m["status"] == "finished",
                               "the view that ends the match")
    assert final["view"]["outcome"] is not None and final["view"]["hand"] is None
    table = client.get(f"/api/tables/{tid}").json()["table"]
    assert table["status"] == "finished" and table["finished_matches"] == [1]
    assert table["result"].startswith("points")

    record = client.get(f"/api/tables/{tid}/matches/1/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    state = replay(parse_record(record.text))
    assert state.outcome is not None and state.outcome.to_json() == final["view"]["outcome"]
    assert len(state.history) == final["version"]

    first = client.get(f"/api/tables/{tid}/matches/1/replay?step=0&seat=2").json()
    assert first["step"] == 0 and first["action"] is None and len(first["view"]["hand"]) == 13
    five = client.get(f"/api/tables/{tid}/matches/1/replay?step=5").json()
    assert five["action"]["seat"] == state.history[4][0] and five["view"]["hand"] is None
    end = client.get(f"/api/tables/{tid}/matches/1/replay").json()
    assert end["step"] == end["steps"] == final["version"] and end["view"]["outcome"]

    again = client.post(f"/api/tables/{tid}/again")  # a table of bots: anyone may
    assert again.status_code == 200 and again.json()["table"]["match"] == 2
    nxt = watcher.recv_until(lambda m: m["type"] == "view" and m["match"] == 2,
                             "the first view of match 2")
    assert nxt["version"] <= 2 and nxt["view"]["deal"] == 1
    watcher.close()


def test_record_of_a_match_in_play_is_refused(client):
    res = create(client, PEOPLE4[:1] + BOTS3[1:])
    tid = res["table"]["id"]
    r = client.get(f"/api/tables/{tid}/matches/1/record")
    assert r.status_code == 409 and "over" in r.json()["error"]["message"]
    r = client.get(f"/api/tables/{tid}/matches/1/replay")
    assert r.status_code == 409
    r = client.get(f"/api/tables/{tid}/matches/7/record")
    assert r.status_code == 404


def test_play_again_needs_a_seat_token_and_a_finished_match(client):
    res = create(client, BOTS3, options={"target": 10})
    tid, token = res["table"]["id"], res["token"]
    r = client.post(f"/api/tables/{tid}/again", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 409 and "still being played" in r.json()["error"]["message"]
    p = Player(client, tid, token)
    while True:
        msg = p.view()
        if msg["status"] == "finished":
            break
        if 0 in msg["view"]["to_act"]:
            p.act(msg["view"]["legal"][0])
    r = client.post(f"/api/tables/{tid}/again")
    assert r.status_code == 403 and "player" in r.json()["error"]["message"]
    r = client.post(f"/api/tables/{tid}/again", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{tid}/again", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    again = p.recv_until(lambda m: m["type"] == "view" and m["match"] == 2,
                         "the first view of match 2")
    assert again["status"] == "playing" and again["view"]["scores"] == [0, 0]
    assert r.json()["table"]["seats"][0]["name"] == "Ann"
    p.close()


def test_page_and_static_files_are_served_with_security_headers(client):
    for path in ("/", "/t/abc", "/t/abc/replay/1"):
        r = client.get(path)
        assert r.status_code == 200 and "<main" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
    for path in ("/static/app.js", "/static/style.css", "/static/games/spades/table.js",
                 "/static/tables/generic.js", "/static/dom.js"):
        assert client.get(path).status_code == 200
    assert client.get("/static/../server/app.py").status_code == 404


def test_bots_take_their_pause_and_idle_finished_tables_are_let_go(tmp_path, monkeypatch):
    """The pause each bot move asks for, and what the runner is asked to wait (not the
    gaps a loaded machine's client sees); the idle time by the server's clock."""
    asked: list[float] = []
    paced = Table.bot_wait
    monkeypatch.setattr(Table, "bot_wait", lambda table: asked.append(paced(table)) or asked[-1])
    clock = Clock()
    with app_client(tmp_path / "pause.sqlite3", bot_pause=0.12, **clock.settings()) as client:
        hub = client.app.state.hub
        waits: list[float] = []

        async def record(seconds: float) -> None:
            waits.append(seconds)
        hub.runner.wait = record
        res = create(client, [{"kind": "bot", "bot": "rule"}] * 4, options={"target": 10})
        tid = res["table"]["id"]
        watcher = Player(client, tid, None)
        msg = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 6,
                                 "the bots' sixth move")
        # each bot move asks for the pause and waits it out, less its thinking
        assert len(asked) >= 6 and asked == [pytest.approx(0.12)] * len(asked), asked
        assert all(0 < w <= 0.12 for w in waits), waits
        watcher.close()
        clock.advance(1)
        assert hub.sweep(idle=0) == 0  # still playing: kept
        table = hub.tables[tid]
        table.status = "finished"
        table.bot_tasks.clear()
        assert hub.sweep(idle=0) == 1 and tid not in hub.tables
        again = client.get(f"/api/tables/{tid}")  # loads again from the database
        assert again.status_code == 200 and again.json()["table"]["id"] == tid
        assert msg["version"] >= 5


def test_the_page_catalog_in_each_language_and_a_clear_refusal_for_others(client):
    pt = client.get("/api/i18n/pt").json()  # a plain pt is Brazilian Portuguese here
    assert pt["locale"] == "pt-BR" and pt["messages"]["\u0004".join(("suit", "hearts"))] == "copas"
    assert client.get("/api/i18n/id").json()["locale"] == "id"
    en = client.get("/api/i18n/en-GB").json()
    assert en["locale"] == "en" and en["messages"] == {}
    assert en["languages"] == [{"tag": "en", "name": "English"},
                               {"tag": "id", "name": "Bahasa Indonesia"},
                               {"tag": "pt-BR", "name": "Português (Brasil)"}]
    for tag in ("xx", "../etc", "a" * 40):
        res = client.get(f"/api/i18n/{tag}")
        assert res.status_code == 404 and res.json()["error"]["code"] == "not_found"


def test_an_abandoned_table_leaves_the_lobby_list_and_does_not_come_back(tmp_path):
    """Issue 15: abandoned tables stayed "playing" in the list. A listed table whose people
    have all gone is closed by the tidy-up, and the list (after a restart too) no longer
    shows it."""
    db = tmp_path / "gone.sqlite3"
    with app_client(db, absent_close=3600) as client:
        res = client.post("/api/tables", json={"game": "spades", "name": "Ann", "public": True,
                                               "seats": PEOPLE4[:2] + BOTS3[1:3]})
        tid = res.json()["table"]["id"]
        join(client, tid, "Bo", 1)
        ann = Player(client, tid, res.json()["token"])
        ann.view()
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        assert listed[tid]["status"] == "playing"
        ann.close()
        hub = client.app.state.hub
        hub.settings.absent_close = 0
        assert client.portal.call(hub.tidy)["abandoned"] == 1
        assert tid not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "closed"
    with app_client(db) as client:
        assert tid not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
