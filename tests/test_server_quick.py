"""Quick play through the server's API (issue 34, item 5): "Play now" seats people waiting
for the same game and preset together, bots take the seats nobody came for once the first
has waited BOTS_AFTER seconds (the server's clock, moved by the test), signed-in players are
seated near their rating in a window that widens while they wait, a block keeps two apart,
and bad requests are refused and change nothing."""

from __future__ import annotations

import pytest
from players_kit import sign_up
from server_kit import AppClient, Clock, Player, app_client, connect, ok, refused
from sqlalchemy import insert, select

from parlour.server.people import quick
from parlour.server.people.identity import SESSION_COOKIE
from parlour.server.people.ratings import MU, SIGMA
from parlour.server.storage.store import ratings_t, seeks_t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "quick.sqlite3"


@pytest.fixture
def server(db, clock):
    with app_client(db, **clock.settings()) as client:
        yield client


def wait_for(client, game="spite-and-malice", preset="classic", name="Pat"):
    return ok(client.post("/api/quick", json={"game": game, "preset": preset, "name": name}),
              201)["wait"]


def look(client, wait):
    return ok(client.post(f"/api/quick/{wait['id']}", json={"secret": wait["secret"]}))


def keep_asking(clock, seconds, *waits):
    """``seconds`` pass, each of the ``waits`` (client, wait) asking once a second as its
    page does; what each was told last."""
    told = []
    for _ in range(round(seconds)):
        clock.advance(1)
        told = [look(client, wait) for client, wait in waits]
    return told


def signed_in(server, db, clock, name, rating=None):
    """A client of ``server``'s app signed in as a new account ``name`` (shown with
    ``rating`` in Spite & Malice, if given)."""
    account, token = sign_up(db, name, now=clock.now())
    if rating is not None:
        with connect(db) as conn:
            conn.execute(insert(ratings_t).values(
                account_id=account, game="spite-and-malice", sigma=SIGMA,
                mu=MU + (rating - 1500) * SIGMA / 200, matches=10, updated=clock.now()))
    client = AppClient(server.app)
    client.cookies.set(SESSION_COOKIE, token)
    return client


def seated_view(client, table_id, secret):
    """The view a seat's token (the wait's secret) opens at its table."""
    player = Player(client, table_id, secret)
    try:
        return player.view()["view"]
    finally:
        player.close()


def test_two_people_waiting_for_the_same_game_are_seated_together(server):
    ann = wait_for(server, name="Ann")
    assert look(server, ann) == {"status": "waiting", "found": 1, "seats": 2,
                                 "bots_in": quick.BOTS_AFTER}
    bob = wait_for(server, name="Bob")
    bob_seated = look(server, bob)  # Bob's look finds Ann: the table is full of people
    ann_seated = look(server, ann)
    assert bob_seated["status"] == ann_seated["status"] == "seated"
    assert bob_seated["table"] == ann_seated["table"]
    assert (ann_seated["seat"], bob_seated["seat"]) == (0, 1)  # who waited first sits first
    table = ok(server.get(f"/api/tables/{ann_seated['table']}"))["table"]
    assert [s["kind"] for s in table["seats"]] == ["person", "person"]
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bob"]
    assert table["status"] == "playing" and table["listed"] is False
    # each wait's secret is its seat's token there, and nothing else's
    assert seated_view(server, ann_seated["table"], ann["secret"])["seat"] == 0
    assert seated_view(server, ann_seated["table"], bob["secret"])["seat"] == 1
    assert look(server, ann) == ann_seated  # asking again says the same


def test_bots_take_the_empty_seats_once_the_first_has_waited(server, clock):
    ann = wait_for(server, game="spades", name="Ann")
    clock.advance(5)
    bob = wait_for(server, game="spades", name="Bob")
    assert look(server, bob) == {"status": "waiting", "found": 2, "seats": 4,
                                 "bots_in": quick.BOTS_AFTER - 5}
    told = keep_asking(clock, quick.BOTS_AFTER - 5 - 1, (server, ann), (server, bob))
    assert [t["status"] for t in told] == ["waiting", "waiting"]
    clock.advance(0.5)
    assert look(server, bob)["bots_in"] == 0.5
    clock.advance(0.5)
    seated = look(server, ann)
    assert seated["status"] == "seated" and seated["seat"] == 0
    assert look(server, bob) == {"status": "seated", "table": seated["table"], "seat": 1}
    table = ok(server.get(f"/api/tables/{seated['table']}"))["table"]
    assert [s["kind"] for s in table["seats"]] == ["person", "person", "bot", "bot"]
    assert table["status"] == "playing"


def test_other_games_and_presets_and_closed_pages_are_not_matched(server, clock):
    ann = wait_for(server, name="Ann")
    for game, preset in (("spades", "classic"), ("spades", "quick")):
        other = wait_for(server, game=game, preset=preset)
        assert look(server, other)["found"] == 1
    clock.advance(quick.STALE_SECONDS + 1)  # Ann's page closed: she asks no more
    bob = wait_for(server, name="Bob")
    assert look(server, bob)["found"] == 1
    back = look(server, ann)  # her page asks again: she is found, and both are seated
    assert back["status"] == "seated" and look(server, bob)["table"] == back["table"]


def test_signed_in_players_are_seated_near_their_rating_in_a_widening_window(
        server, db, clock):
    ana = signed_in(server, db, clock, "Ana", rating=1500)
    bea = signed_in(server, db, clock, "Bea", rating=1900)  # 400 apart
    a, b = wait_for(ana), wait_for(bea)
    assert look(ana, a)["found"] == look(bea, b)["found"] == 1
    wider = (400 - quick.WINDOW_START) / quick.WINDOW_GROWTH  # 10 s: the window is 400
    assert [t["found"] for t in keep_asking(clock, wider - 1, (ana, a), (bea, b))] == [1, 1]
    clock.advance(1)
    seated = look(ana, a)
    assert seated["status"] == "seated"
    assert look(bea, b) == {"status": "seated", "table": seated["table"], "seat": 1}
    table = ok(server.get(f"/api/tables/{seated['table']}"))["table"]
    assert [s["name"] for s in table["seats"]] == ["Ana", "Bea"]  # their accounts' names
    with connect(db) as conn:
        assert {r.rating for r in conn.execute(select(seeks_t.c.rating))} == {1500, 1900}


def test_a_guest_is_seated_with_anyone(server, db, clock):
    ana = signed_in(server, db, clock, "Ana", rating=2400)
    a = wait_for(ana)
    guest = wait_for(server, name="Cid")
    assert look(server, guest)["status"] == "seated"
    assert look(ana, a)["status"] == "seated"


def test_a_block_keeps_two_apart_even_when_bots_come(server, db, clock):
    ana = signed_in(server, db, clock, "Ana")
    bea = signed_in(server, db, clock, "Bea")
    ok(ana.post("/api/people/block", json={"name": "Bea"}))
    a, b = wait_for(ana), wait_for(bea)
    assert look(bea, b)["found"] == 1
    one, other = keep_asking(clock, quick.BOTS_AFTER, (ana, a), (bea, b))
    assert one["status"] == other["status"] == "seated"
    assert one["table"] != other["table"]


def test_one_wait_per_account_the_newest_page_takes_it_over(server, db, clock):
    ana = signed_in(server, db, clock, "Ana")
    first = wait_for(ana)
    second = wait_for(ana, game="spades")
    refused(ana.post(f"/api/quick/{first['id']}", json={"secret": first["secret"]}),
            409, "wait_over")
    assert look(ana, second)["status"] == "waiting"


def test_cancelled_waits_end_and_bad_requests_change_nothing(server, db):
    ann = wait_for(server, name="Ann")
    with connect(db) as conn:
        before = conn.execute(select(seeks_t)).all()
    bad = [({"game": "chess", "preset": "classic", "name": "x"}, 400, "bad_game"),
           ({"game": "foursquare", "preset": "classic", "name": "x"}, 400, "bad_game"),
           ({"game": "spades", "preset": "blitz", "name": "x"}, 400, "bad_options"),
           ({"game": "spades", "preset": "classic"}, 400, "bad_request"),
           ({"game": "spades", "preset": "classic", "name": "x", "seat": 1}, 400, "bad_request"),
           ({"game": "spades", "preset": 1, "name": "x"}, 400, "bad_request")]
    for body, status, code in bad:
        res = server.post("/api/quick", json=body)
        assert res.status_code == status, (body, res.text)
        assert res.json()["error"]["code"] == code, (body, res.text)
    refused(server.post(f"/api/quick/{ann['id']}", json={"secret": "not-" + ann["secret"]}),
            404, "not_found")
    refused(server.post(f"/api/quick/{ann['id'] + 1}", json={"secret": ann["secret"]}),
            404, "not_found")
    refused(server.post(f"/api/quick/{ann['id']}/cancel", json={"secret": "x"}),
            404, "not_found")
    with connect(db) as conn:
        assert conn.execute(select(seeks_t)).all() == before
    assert ok(server.post(f"/api/quick/{ann['id']}/cancel",
                          json={"secret": ann["secret"]})) == {"cancelled": True}
    refused(server.post(f"/api/quick/{ann['id']}", json={"secret": ann["secret"]}),
            409, "wait_over")
    bob = wait_for(server, name="Bob")  # the cancelled wait is nobody's match
    assert look(server, bob)["found"] == 1


def test_one_address_may_keep_only_a_few_waits(server):
    for n in range(quick.WAITING_MOST):
        wait_for(server, game="spades", name=f"Guest {n}")
    refused(server.post("/api/quick", json={"game": "spades", "preset": "classic",
                                            "name": "One more"}), 429, "too_many")
