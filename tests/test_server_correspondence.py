"""Correspondence tables through the server's API (issue 34, item 4): each person has a
chosen time per move (an hour to three days); a table awaiting a person is a row (whose
move, due when), let go of when nobody is at it and loaded again when someone comes; no
stand-in plays a seat; an overdue move frees a casual seat, or loses a rated match; a game
finishes across a restart; "your turn" lists the tables waiting on you. The server's clock
is the test's (tests/server_kit.Clock)."""

from __future__ import annotations

import json

import pytest
from players_kit import sign_up
from server_kit import AppClient, Clock, Player, app_client, connect, join, ok
from sqlalchemy import select

from parlour.server.people.identity import SESSION_COOKIE
from parlour.server.play.correspondence import IDLE_LET_GO, MAX_MOVE_SECONDS
from parlour.server.storage.store import tables_t

HOUR = 3600


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "post.sqlite3"


def open_for_two(client, game="spite-and-malice", move_seconds=HOUR, options=None,
                 rated=False):
    """A correspondence table of two people: Ann opens it, Bob takes the other seat."""
    made = ok(client.post("/api/tables", json={
        "game": game, "options": options or {}, "name": "Ann", "seat": 0,
        "seats": [{"kind": "person"}, {"kind": "person"}], "move_seconds": move_seconds,
        "rated": rated}), 201)
    bob = join(client, made["table"]["id"], "Bob")
    return made["table"]["id"], {0: made["token"], 1: bob["token"]}


def row(db, table_id):
    with connect(db) as conn:
        found = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).one()
    return found.status, found.deadline, json.loads(found.waiting_on or "null")


def to_act(client, table_id, tokens):
    """The seat to act, its player (connected now) and the view message it has."""
    first = Player(client, table_id, tokens[0])
    message = first.view()
    seat = message["view"]["to_act"][0]
    if seat == 0:
        return seat, first, message
    first.close()
    player = Player(client, table_id, tokens[seat])
    return seat, player, player.view()


def test_a_correspondence_table_awaits_a_move_as_a_row(db, clock):
    with app_client(db, **clock.settings()) as client:
        table_id, tokens = open_for_two(client)
        hub = client.app.state.hub
        seat, player, view = to_act(client, table_id, tokens)
        # the move awaited, whose and by when, are the row's; the view shows the time
        assert row(db, table_id) == ("playing", clock.now() + HOUR, [seat])
        assert view["turn"] == {"seats": [seat], "seconds": HOUR,
                                "deadline": int((clock.now() + HOUR) * 1000)}
        player.close()
        clock.advance(IDLE_LET_GO + 1)  # nobody at it: the table waits as a row
        assert client.portal.call(hub.tidy)["let go"] == 1
        assert table_id not in hub.tables
        # someone comes: it is loaded again, with the same time left (not a new hour)
        seat, player, view = to_act(client, table_id, tokens)
        assert view["turn"]["deadline"] == int((clock.now() - IDLE_LET_GO - 1 + HOUR) * 1000)
        assert table_id in hub.tables and not hub.tables[table_id].standins
        player.act(view["view"]["legal"][0])
        after = player.recv_until(lambda m: m["type"] == "error" or (
            m["type"] == "view" and m["version"] > view["version"]), "the move's view")
        assert after["type"] == "view", after
        _status, deadline, waiting = row(db, table_id)
        assert waiting == after["view"]["to_act"] and deadline == clock.now() + HOUR
        player.close()


def test_no_stand_in_plays_a_correspondence_seat_and_an_overdue_move_frees_it(db, clock):
    with app_client(db, **clock.settings(timers=True)) as client:
        table_id, tokens = open_for_two(client)
        hub = client.app.state.hub
        seat, player, _ = to_act(client, table_id, tokens)
        player.close()
        assert clock.elapse(client, HOUR - 1) == 0  # no turn timer runs
        assert client.portal.call(hub.tidy)["overdue"] == 0
        clock.advance(2)
        assert client.portal.call(hub.tidy)["overdue"] == 1
        table = ok(client.get(f"/api/tables/{table_id}"))["table"]
        assert table["status"] == "playing"
        assert table["seats"][seat]["taken"] is False and not table["seats"][seat]["stand_in"]
        assert row(db, table_id) == ("playing", None, None)  # nobody's move is awaited
        again = join(client, table_id, "Cid", seat)  # someone takes it: its move, an hour
        assert row(db, table_id) == ("playing", clock.now() + HOUR, [seat])
        player = Player(client, table_id, again["token"])
        assert player.view()["view"]["legal"]  # Cid plays the seat on
        player.close()


def test_an_overdue_move_loses_a_rated_correspondence_match(db, clock):
    with app_client(db, **clock.settings()) as client:
        for name in ("Ann", "Bob"):
            _, cookie = sign_up(db, name, now=clock.now())
            if name == "Ann":
                client.cookies.set(SESSION_COOKIE, cookie)
        made = ok(client.post("/api/tables", json={
            "game": "spite-and-malice", "seats": [{"kind": "person"}, {"kind": "person"}],
            "move_seconds": 8 * HOUR, "rated": True, "seat": 0}), 201)
        table_id = made["table"]["id"]
        other = AppClient(client.app)
        other.cookies.set(SESSION_COOKIE, sign_up(db, "Bea", now=clock.now())[1])
        ok(other.post(f"/api/tables/{table_id}/join", json={"name": "Bea"}))
        clock.advance(8 * HOUR + 1)
        assert client.portal.call(client.app.state.hub.tidy)["overdue"] == 1
        table = ok(client.get(f"/api/tables/{table_id}"))["table"]
        assert table["status"] == "closed" and table["rated"] is True
        assert row(db, table_id)[0] == "closed"


def status(client, table_id):
    return ok(client.get(f"/api/tables/{table_id}"))["table"]["status"]


def play_one(client, table_id, players):
    """The seat to act plays its first legal move; waits for the view after it."""
    version = ok(client.get(f"/api/tables/{table_id}"))["table"]["version"]
    views = {}
    for seat, player in players.items():
        player.send({"type": "sync"})
        views[seat] = player.recv_until(lambda m: m["type"] == "view"
                                        and m["version"] >= version, f"view {version}")
    seat = views[0]["view"]["to_act"][0]
    before = views[seat]
    players[seat].act(before["view"]["legal"][0], before["version"])
    after = players[seat].recv_until(lambda m: m["type"] == "error" or (
        m["type"] == "view" and m["version"] > before["version"]), "the view after a move")
    assert after["type"] == "view", after


def test_a_correspondence_game_finishes_across_a_restart(db, clock):
    """Cangkul's quick game between two people: half of it on one server, the rest on
    the next (the table is not restored at start: it waits as a row until someone comes)."""
    table_id, tokens = None, {}
    for server in (1, 2):
        with app_client(db, **clock.settings()) as client:
            hub = client.app.state.hub
            if table_id is None:
                table_id, tokens = open_for_two(client, "cangkul", options={"losses": 1})
            else:
                assert table_id not in hub.tables  # a row, until Ann or Bob comes
            players = {s: Player(client, table_id, tokens[s]) for s in (0, 1)}
            for _ in range(40 if server == 1 else 2000):
                if status(client, table_id) != "playing":
                    break
                play_one(client, table_id, players)
                clock.advance(600)  # ten minutes a move: far inside the hour
            for player in players.values():
                player.close()
    assert row(db, table_id)[0] == "finished"


def test_your_turn_lists_the_tables_waiting_on_you(db, clock):
    with app_client(db, **clock.settings()) as client:
        table_id, tokens = open_for_two(client)
        seat, player, _ = to_act(client, table_id, tokens)
        player.close()
        asked = [{"table": table_id, "token": tokens[s]} for s in (0, 1)]
        turns = ok(client.post("/api/turns", json={"seats": asked}))["turns"]
        assert turns == [{"table": table_id, "game": "spite-and-malice", "seat": seat,
                          "deadline": clock.now() + HOUR, "game_name": "Spite & Malice"}]
        other = 1 - seat
        assert ok(client.post("/api/turns", json={"seats": [asked[other]]}))["turns"] == []
        forged = {"table": table_id, "token": "not-" + tokens[seat]}
        assert ok(client.post("/api/turns", json={"seats": [forged]}))["turns"] == []


@pytest.mark.parametrize("body, why", [
    ({"game": "spite-and-malice", "move_seconds": 60}, "seconds a move"),
    ({"game": "spite-and-malice", "move_seconds": MAX_MOVE_SECONDS + 1}, "seconds a move"),
    ({"game": "hit-the-deck", "move_seconds": HOUR}, "has a timed phase"),
    ({"game": "foursquare", "move_seconds": HOUR}, "played alone"),
    ({"game": "spades", "move_seconds": HOUR, "turn_seconds": 60}, "not a turn timer"),
    ({"game": "spades", "move_seconds": "3600"}, None),
])
def test_bad_correspondence_tables_are_refused(db, body, why):
    with app_client(db) as client:
        res = client.post("/api/tables", json={"name": "Ann", **body})
        assert res.status_code == 400, res.text
        if why is not None:
            assert why in res.json()["error"]["message"], res.text
        assert ok(client.get("/api/tables"))["tables"] == []


def test_the_invite_to_a_correspondence_game_waits_as_long_as_a_move(db, clock):
    with app_client(db, **clock.settings()) as client:
        hub = client.app.state.hub
        made = ok(client.post("/api/tables", json={
            "game": "spite-and-malice", "name": "Ann", "seat": 0, "move_seconds": 8 * HOUR,
            "seats": [{"kind": "person"}, {"kind": "person"}]}), 201)
        table_id = made["table"]["id"]
        clock.advance(client.app.state.settings.waiting_expiry + 1)  # a live table's wait
        assert client.portal.call(hub.tidy)["expired"] == 0
        clock.advance(8 * HOUR)
        assert client.portal.call(hub.tidy)["expired"] == 1
        assert ok(client.get(f"/api/tables/{table_id}"))["table"]["status"] == "closed"


def test_a_signed_in_persons_room_counts_the_tables_awaiting_their_move(db, clock):
    """The room (the stream's message, and GET /api/people, which a page polls while Redis
    is away) lists the correspondence tables awaiting the account's move, and only those."""
    with app_client(db, **clock.settings()) as ann:
        ann.cookies.set(SESSION_COOKIE, sign_up(db, "Ann", now=clock.now())[1])
        bob = AppClient(ann.app)
        bob.cookies.set(SESSION_COOKIE, sign_up(db, "Bob", now=clock.now())[1])
        made = ok(ann.post("/api/tables", json={
            "game": "spite-and-malice", "seat": 0, "move_seconds": HOUR,
            "seats": [{"kind": "person"}, {"kind": "person"}]}), 201)
        table_id = made["table"]["id"]
        joined = ok(bob.post(f"/api/tables/{table_id}/join", json={"name": "Bob"}))
        seat, player, _ = to_act(ann, table_id, {0: made["token"], 1: joined["token"]})
        player.close()
        rooms = {0: ok(ann.get("/api/people"))["awaiting"],
                 1: ok(bob.get("/api/people"))["awaiting"]}
        assert rooms[seat] == [{"table": table_id, "game": "spite-and-malice", "seat": seat,
                                "deadline": clock.now() + HOUR}]
        assert rooms[1 - seat] == []
