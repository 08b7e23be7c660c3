"""The life of a table and its faults: private tables, tables that expire or close, the
turn timer and its stand-in bot, leaving and freeing seats, retention, a database that
refuses writes, and tables whose rows cannot be replayed."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from server_kit import BOTS3, PEOPLE4, Clock, Player, app_client, connect, create, join
from sqlalchemy import select, text, update
from waits import next_json, wait_until

from parlour.server.storage.store import tables_t

BOTS4 = [{"kind": "bot", "bot": "rule"}] * 4


def hub_of(client: Any) -> Any:
    return client.app.state.hub


def tidy(client: Any) -> dict[str, int]:
    return client.portal.call(hub_of(client).tidy)


def four_people(client: Any) -> tuple[str, list[str]]:
    res = create(client, PEOPLE4, name="P0")
    tid = res["table"]["id"]
    return tid, [res["token"]] + [join(client, tid, f"P{s}", s)["token"] for s in (1, 2, 3)]


# ----------------------------------------------------------------------------- private tables
def test_a_table_with_a_seat_for_a_friend_is_private_unless_public(tmp_path):
    with app_client(tmp_path / "p.sqlite3") as client:
        friends = [{"kind": "person"}, {"kind": "person"}, *BOTS3[1:3]]
        private = create(client, friends)["table"]
        public = client.post("/api/tables", json={"game": "spades", "seats": friends,
                                                  "name": "Ann", "public": True}).json()
        alone = create(client, BOTS3)["table"]
        listed = {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert private["listed"] is False and private["id"] not in listed
        assert public["table"]["listed"] is True and public["table"]["id"] in listed
        assert alone["listed"] is True and alone["id"] in listed
        # the invite still reaches the private table's free seat
        assert join(client, private["id"], "Bo")["seat"] == 1


# ----------------------------------------------------------------------------- life cycle
def test_a_waiting_table_nobody_joins_expires(tmp_path):
    clock = Clock()
    with app_client(tmp_path / "e.sqlite3", waiting_expiry=3600, **clock.settings()) as client:
        tid = client.post("/api/tables", json={"game": "spades", "name": "Ann", "public": True,
                                               "seats": PEOPLE4}).json()["table"]["id"]
        clock.advance(3600)
        assert tidy(client)["expired"] == 0  # an hour to the second: not yet
        clock.advance(1)
        assert tidy(client)["expired"] == 1
        summary = client.get(f"/api/tables/{tid}").json()["table"]
        assert summary["status"] == "closed" and summary["note"] == "nobody joined in time"
        assert tid not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        late = client.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
        assert late.status_code == 409 and late.json()["error"]["code"] == "closed"
    with app_client(tmp_path / "e.sqlite3") as client:  # closed for good, after a restart
        assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == "closed"


def test_a_table_its_players_left_closes_and_keeps_its_log(tmp_path):
    clock = Clock()
    with app_client(tmp_path / "a.sqlite3", absent_close=3600, **clock.settings()) as client:
        tid, tokens = four_people(client)
        south = Player(client, tid, tokens[0])
        south.view()
        south.act("bid 3")
        south.view()
        clock.advance(7200)
        assert tidy(client)["abandoned"] == 0  # South is there
        south.close()
        wait_until(lambda: not hub_of(client).tables[tid].conns, "South's socket to close")
        clock.advance(3600)
        assert tidy(client)["abandoned"] == 0  # gone an hour to the second: not yet
        clock.advance(1)
        assert tidy(client)["abandoned"] == 1
        summary = client.get(f"/api/tables/{tid}").json()["table"]
        assert summary["status"] == "closed" and summary["version"] == 1
        actions = hub_of(client).store.load_actions(tid, 1)
        assert [a for _, a in actions] == ["bid 3"]


def test_a_table_of_bots_nobody_watches_stops(tmp_path):
    clock = Clock()
    with app_client(tmp_path / "u.sqlite3", bot_pause=0.02, unwatched_close=300,
                    **clock.settings()) as client:
        tid = create(client, BOTS4)["table"]["id"]
        table = hub_of(client).tables[tid]
        watcher = Player(client, tid, None)
        watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 2,
                           "the bots' view at version 2")
        clock.advance(600)
        assert tidy(client)["unwatched"] == 0  # watched
        watcher.close()
        wait_until(lambda: not table.conns, "the watcher's socket to close")
        assert tidy(client)["unwatched"] == 0  # just left
        playing = table.version
        clock.advance(300)
        assert tidy(client)["unwatched"] == 0  # five minutes to the second: not yet
        wait_until(lambda: table.version > playing, "the bots to play on unwatched")
        clock.advance(1)  # playing is not being watched
        assert tidy(client)["unwatched"] == 1
        wait_until(lambda: not table.bot_tasks, "the bots to stop")
        summary = client.get(f"/api/tables/{tid}").json()["table"]
        assert summary["status"] == "closed"
        assert summary["version"] == table.version  # the bots stopped
        refused = client.post(f"/api/tables/{tid}/again")
        assert refused.status_code == 409


def finished(msg: dict) -> bool:
    """The table is over: said by its last view, a table update, or the welcome of a
    watcher who came after the bots had already finished."""
    if msg["type"] == "view":
        return msg["status"] == "finished"
    return msg["type"] in ("table", "welcome") and msg["table"]["status"] == "finished"


def test_finished_casual_tables_are_deleted_after_their_retention(tmp_path):
    clock = Clock()
    with app_client(tmp_path / "r.sqlite3", **clock.settings()) as client:
        tid = create(client, BOTS4, options={"target": 10})["table"]["id"]
        watcher = Player(client, tid, None)
        watcher.recv_until(finished, "the bots to finish the match")
        watcher.close()
        kept = create(client, BOTS4, options={"target": 10})["table"]["id"]
        watcher = Player(client, kept, None)
        watcher.recv_until(finished, "the bots to finish the second match")
        watcher.close()
        with connect(tmp_path / "r.sqlite3") as conn:  # a compared (rated) table
            conn.execute(update(tables_t).where(tables_t.c.id == kept).values(compared=True))
        assert tid not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        assert client.get(f"/api/tables/{tid}/matches/1/record").status_code == 200
        clock.advance(14 * 24 * 3600)
        assert tidy(client)["deleted"] == 0  # within its retention (two weeks)
        clock.advance(1)
        assert tidy(client)["deleted"] == 1
        assert client.get(f"/api/tables/{tid}").status_code == 404
        assert client.get(f"/api/tables/{kept}/matches/1/record").status_code == 200


# ----------------------------------------------------------------------------- turn timer
def test_a_silent_seat_gets_a_stand_in_and_takes_it_back(tmp_path):
    """The timer's logic by the server's clock (the deadline it sends); the timer itself
    runs on the event loop's, shortened to 50 ms here: the wiring, in real time."""
    clock = Clock()
    with app_client(tmp_path / "t.sqlite3", **clock.settings()) as client:
        res = client.post("/api/tables", json={"game": "spades", "seats": BOTS3, "name": "Ann",
                                               "turn_seconds": 30}).json()
        tid = res["table"]["id"]
        assert res["table"]["turn_seconds"] == 30
        south = Player(client, tid, res["token"])
        first = south.view()
        assert first["view"]["to_act"] == [0]
        turn = first["turn"]
        assert turn["seats"] == [0] and turn["seconds"] == 30
        assert turn["deadline"] == (clock.now() + 30) * 1000
        hub = hub_of(client)
        table = hub.tables[tid]

        def hurry() -> None:
            table.turn_seconds = 0.05
            hub.turns.restart(table)

        client.portal.call(hurry)
        stood = south.recv_until(lambda m: m["type"] == "table"
                                 and m["table"]["seats"][0]["stand_in"],
                                 "the stand-in to take South's seat")
        assert stood["table"]["seats"][0]["name"] == "Ann"
        played = south.recv_until(lambda m: m["type"] == "view" and m["version"] >= 1,
                                  "the stand-in's bid")
        assert played["view"]["bids"][0] is not None  # the stand-in bid for South
        table.turn_seconds = 0
        south.send({"type": "sync"})  # South speaks: the seat is South's again
        back = south.recv_until(lambda m: m["type"] == "table"
                                and not m["table"]["seats"][0]["stand_in"],
                                "South's seat back from the stand-in")
        assert back["table"]["seats"][0]["taken"]
        south.close()


@pytest.mark.parametrize("seconds", [None, 0, 60])
def test_a_solitaire_has_no_turn_timer(tmp_path, seconds):
    """Nobody waits for a solitaire's player: whatever the table asks for, no clock runs,
    the views carry none and the table says so (no stand-in would ever play it)."""
    with app_client(tmp_path / "s.sqlite3") as client:
        asked = {} if seconds is None else {"turn_seconds": seconds}
        res = client.post("/api/tables", json={"game": "foursquare", "name": "Ann",
                                               "seats": [{"kind": "person"}], **asked}).json()
        assert res["table"]["turn_seconds"] == 0
        player = Player(client, res["table"]["id"], res["token"])
        first = player.view()
        assert first["view"]["to_act"] == [0] and "turn" not in first
        assert hub_of(client).tables[res["table"]["id"]].turn_timer is None
        player.close()


@pytest.mark.parametrize("seconds", [5, 3601, True, "60", 1.5])
def test_a_bad_turn_timer_is_refused(tmp_path, seconds):
    with app_client(tmp_path / "b.sqlite3") as client:
        res = client.post("/api/tables", json={"game": "spades", "seats": BOTS3, "name": "A",
                                               "turn_seconds": seconds})
        assert res.status_code == 400 and res.json()["error"]["code"] in ("bad_options",
                                                                            "bad_request")
        assert client.get("/api/tables").json()["tables"] == []


def test_a_person_leaves_a_stand_in_plays_and_a_newcomer_takes_over(tmp_path):
    with app_client(tmp_path / "l.sqlite3") as client:
        tid, tokens = four_people(client)
        south = Player(client, tid, tokens[0])
        south.view()
        gone = client.post(f"/api/tables/{tid}/leave",
                           headers={"Authorization": f"Bearer {tokens[0]}"})
        assert gone.status_code == 200
        seat = gone.json()["table"]["seats"][0]
        assert seat["stand_in"] and not seat["taken"] and seat["name"] is None
        south.recv_until(lambda m: m["type"] == "view" and m["version"] >= 1,
                         "the stand-in's bid")  # bot bid
        stale = client.post(f"/api/tables/{tid}/leave",
                            headers={"Authorization": f"Bearer {tokens[0]}"})
        assert stale.status_code == 403  # the old token holds nothing now
        newcomer = join(client, tid, "Cy")
        assert newcomer["seat"] == 0 and not newcomer["table"]["seats"][0]["stand_in"]
        south.close()


def test_the_creator_frees_the_seat_of_a_friend_who_has_gone(tmp_path):
    with app_client(tmp_path / "f.sqlite3") as client:
        res = create(client, [{"kind": "person"}] * 3 + BOTS3[1:2])  # waits for a third
        tid, creator = res["table"]["id"], res["token"]
        friend = join(client, tid, "Bo")
        url = f"/api/tables/{tid}/seats/1/free"
        assert client.post(url).status_code == 403  # no token
        not_creator = client.post(url, headers={"Authorization": f"Bearer {friend['token']}"})
        assert not_creator.json()["error"]["code"] == "not_creator"
        bo = Player(client, tid, friend["token"])
        here = client.post(url, headers={"Authorization": f"Bearer {creator}"})
        assert here.status_code == 409 and here.json()["error"]["code"] == "still_there"
        bo.close()
        wait_until(lambda: not client.portal.call(lambda: hub_of(client).tables[tid].connected(1)),
                   "Bo's socket to close on the server")
        freed = client.post(url, headers={"Authorization": f"Bearer {creator}"})
        assert freed.status_code == 200, freed.text
        seat = freed.json()["table"]["seats"][1]
        assert not seat["taken"] and seat["name"] is None
        assert join(client, tid, "Cy", 1)["seat"] == 1  # someone else may sit there now


# ----------------------------------------------------------------------------- faults
@contextmanager
def refused_inserts(db, *tables: str) -> Iterator[None]:
    """The database refuses every insert into ``tables`` (as a full disk would) until the
    block ends."""
    with connect(db) as conn:
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            conn.execute(text("CREATE OR REPLACE FUNCTION refuse() RETURNS trigger "
                              "LANGUAGE plpgsql AS 'BEGIN RAISE EXCEPTION ''disk full''; END'"))
        for table in tables:
            conn.execute(text(
                f"CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} FOR EACH ROW "
                f"EXECUTE FUNCTION refuse()" if postgres else
                f"CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} "
                f"BEGIN SELECT RAISE(ABORT, 'disk full'); END"))
    try:
        yield
    finally:
        with connect(db) as conn:
            for table in tables:
                conn.execute(text(f"DROP TRIGGER refuse_{table}"
                                  + (f" ON {table}" if postgres else "")))
            if postgres:
                conn.execute(text("DROP FUNCTION refuse()"))


def test_bots_resume_once_the_database_takes_writes_again(tmp_path, caplog):
    db = tmp_path / "d.sqlite3"
    with app_client(db, bot_pause=0.02) as client:
        tid = create(client, BOTS4)["table"]["id"]
        watcher = Player(client, tid, None)
        watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 2,
                           "the bots' view at version 2")
        with refused_inserts(db, "parlour_actions", "parlour_tables"):
            refused = client.post("/api/tables", json={"game": "spades", "seats": BOTS4})
            assert refused.status_code == 503
            assert refused.json()["error"]["code"] == "unavailable"
            wait_until(lambda: "refused" in caplog.text, "the database to refuse a bot's move")
            stuck = hub_of(client).tables[tid].version
        resumed = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] > stuck + 2,
                                     "the bots to play on once the database takes writes")
        assert resumed["version"] > stuck
        assert client.post("/api/tables", json={"game": "spades",
                                                "seats": BOTS4}).status_code == 201
        watcher.close()


BREAKS = {
    "missing action": "DELETE FROM parlour_actions WHERE table_id = :t AND idx = 0",
    "garbled action": "UPDATE parlour_actions SET action = 'bid banana' WHERE table_id = :t",
    "bad options": "UPDATE parlour_tables SET options = '{not json' WHERE id = :t",
    "options not an object": "UPDATE parlour_tables SET options = '[1]' WHERE id = :t",
    "unknown game": "UPDATE parlour_tables SET game = 'chess' WHERE id = :t",
    "wrong seat count": "UPDATE parlour_tables SET num_seats = 5 WHERE id = :t",
    "deleted match": "DELETE FROM parlour_matches WHERE table_id = :t",
    "deleted seat": "DELETE FROM parlour_seats WHERE table_id = :t AND seat = 2",
}


def test_an_unreplayable_table_is_closed_and_the_rest_start(tmp_path, caplog):
    db = tmp_path / "q.sqlite3"
    with app_client(db) as client:
        tables = {}
        for name in [*BREAKS, "healthy"]:
            tid, tokens = four_people(client)
            south, west = Player(client, tid, tokens[0]), Player(client, tid, tokens[1])
            south.view()
            south.act("bid 3")
            west.recv_until(lambda m: m["type"] == "view" and m["version"] == 1,
                            "West's view of South's bid")
            west.act("bid 2")
            south.recv_until(lambda m: m["type"] == "view" and m["version"] == 2,
                             "South's view of West's bid")
            south.close()
            west.close()
            tables[name] = tid
    with connect(db) as conn:
        for name, sql in BREAKS.items():
            conn.execute(text(sql), {"t": tables[name]})
    with app_client(db) as client:
        healthy = client.get(f"/api/tables/{tables['healthy']}").json()["table"]
        assert healthy["status"] == "playing" and healthy["version"] == 2
        for name in BREAKS:
            res = client.get(f"/api/tables/{tables[name]}")
            assert res.status_code == 410, name
            assert res.json()["error"] == {"code": "unrestorable", "message":
                                           "this table is closed: it could not be restored"}
            assert f"table {tables[name]} could not be restored" in caplog.text, name
        with client.websocket_connect(f"/ws/tables/{tables['deleted match']}") as ws:
            assert next_json(ws, "the refusal")["code"] == "unrestorable"
    gc.collect()  # a failed load's future, dropped, logs its exception unless it was taken
    assert "Traceback" not in caplog.text and "never retrieved" not in caplog.text
    with connect(db) as conn:
        rows = dict(conn.execute(select(tables_t.c.id, tables_t.c.status)).all())
    assert all(rows[tables[name]] == "closed" for name in BREAKS)
    assert rows[tables["healthy"]] == "playing"


def test_a_deal_the_database_refused_is_dealt_once_it_takes_writes(tmp_path):
    """The seats are committed, the deal is refused: the creator keeps the seat (201 and a
    token), and the match is dealt once the database takes writes again."""
    db = tmp_path / "s.sqlite3"
    with app_client(db) as client:
        create(client, BOTS3)  # the schema exists
        with refused_inserts(db, "parlour_matches"):
            res = client.post("/api/tables", json={"game": "spades", "seats": BOTS3,
                                                   "name": "A"})
            assert res.status_code == 201 and res.json()["token"]
            tid = res.json()["table"]["id"]
            assert res.json()["table"]["status"] == "waiting"
        south = Player(client, tid, res.json()["token"])
        dealt = south.recv_until(lambda m: m["type"] == "view",
                                 "the view of the deal once the database takes it")
        assert dealt["status"] == "playing" and dealt["view"]["seat"] == 0
        south.close()
