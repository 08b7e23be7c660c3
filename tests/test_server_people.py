"""Friends, presence, blocks and challenges through the server's API (issue 34, items 2 and
3): following both ways makes friends; who sees whom online; a block ends the follows,
hides the blocked person's talk and refuses their challenges; a challenge is seen by its
friend, accepted (both seated at a new table), declined or left to expire, and says so;
"your turn" and a rematch reach a person's room wherever they are."""

from __future__ import annotations

import pytest
from players_kit import sign_up
from server_kit import (
    BOTS3,
    PEOPLE4,
    AppClient,
    Clock,
    Player,
    app_client,
    create,
    join,
    ok,
    refused,
)
from waits import wait_until

from parlour.server.people.challenges import CHALLENGE_SECONDS
from parlour.server.people.identity import SESSION_COOKIE
from parlour.server.people.presence import Stream
from parlour.server.people.social import blocks_among


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def room(tmp_path, clock):
    """Ana, Bea and Cid, each signed in on a client of their own (one app)."""
    db = tmp_path / "people.sqlite3"
    with app_client(db, **clock.settings()) as first:
        clients = {}
        for name in ("Ana", "Bea", "Cid"):
            client = first if not clients else AppClient(first.app)
            _, token = sign_up(db, name, now=clock.now())
            client.cookies.set(SESSION_COOKIE, token)
            clients[name] = client
        yield clients


def follow(client, name, on=True):
    return ok(client.post("/api/people/follow", json={"name": name, "on": on}))["relation"]


def befriend(room, a, b):
    follow(room[a], b)
    follow(room[b], a)


def account_id(client) -> int:
    hub = client.app.state.hub
    from parlour.server.people.identity import account_for_session

    return account_for_session(hub.store, client.cookies.get(SESSION_COOKIE),
                               hub.settings.now()).id


def online(client) -> None:
    """``client``'s person has a page of the parlour open (their stream's presence row)."""
    client.app.state.hub.people.mark_seen([account_id(client)])


def test_two_people_who_follow_each_other_are_friends(room):
    ana, bea = room["Ana"], room["Bea"]
    assert follow(ana, "bea") == {"following": True, "follows_you": False, "friends": False,
                                  "blocking": False}  # any case
    seen = ok(ana.get("/api/people"))
    assert seen["friends"] == [] and [p["name"] for p in seen["following"]] == ["Bea"]
    assert ok(bea.get("/api/people"))["followers"] == 1
    assert follow(bea, "Ana")["friends"] is True
    for client, other in ((ana, "Bea"), (bea, "Ana")):
        mine = ok(client.get("/api/people"))
        assert [f["name"] for f in mine["friends"]] == [other] and mine["following"] == []
        assert mine["friends"][0]["online"] is False
    assert follow(ana, "Bea", on=False)["friends"] is False
    assert ok(bea.get("/api/people"))["friends"] == []
    refused(ana.post("/api/people/follow", json={"name": "Nobody"}), 404, "not_found")
    refused(ana.post("/api/people/follow", json={"name": "Ana"}), 400, "bad_request")


def test_friends_see_each_other_online_at_their_tables_and_others_as_allowed(room):
    ana, bea, cid = room["Ana"], room["Bea"], room["Cid"]
    befriend(room, "Ana", "Bea")
    follow(cid, "Bea")  # Cid follows Bea, who does not follow back
    made = ok(bea.post("/api/tables", json={"game": "spades", "seats": PEOPLE4, "name": "Bea",
                                            "public": True}), 201)
    create(bea, PEOPLE4, name="Bea")  # and a private one: watched, never joined from here
    online(bea)
    friend = ok(ana.get("/api/people"))["friends"][0]
    assert friend["online"] is True
    assert sorted((t["id"] == made["table"]["id"], t["free_seat"])
                  for t in friend["tables"]) == [(False, False), (True, True)]
    assert {"id": made["table"]["id"], "game": "spades", "game_name": "Spades",
            "status": "waiting", "free_seat": True} in friend["tables"]
    followed = ok(cid.get("/api/people"))["following"][0]
    assert followed == {"name": "Bea", "online": True, "tables": []}  # no tables: not a friend
    assert ok(cid.get("/api/people/relation/Bea"))["online"] is True
    ok(bea.post("/api/people/settings", json={"show_online": False}))
    assert ok(cid.get("/api/people"))["following"][0]["online"] is None  # not told
    assert ok(cid.get("/api/people/relation/Bea"))["online"] is None
    assert ok(ana.get("/api/people"))["friends"][0]["online"] is True  # friends always see
    guest = AppClient(ana.app)
    assert ok(guest.get("/api/people/relation/Bea")) == {"name": "Bea", "online": None,
                                                        "you": False, "relation": None}
    refused(guest.get("/api/people"), 403, "not_signed_in")


def test_a_block_ends_following_refuses_challenges_and_hides_talk(room):
    ana, bea, cid = room["Ana"], room["Bea"], room["Cid"]
    befriend(room, "Ana", "Bea")
    made = ok(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 201)
    assert len(ok(bea.get("/api/people"))["challenges"]["incoming"]) == 1
    rel = ok(bea.post("/api/people/block", json={"name": "Ana"}))["relation"]
    assert ok(bea.get("/api/people"))["challenges"]["incoming"] == []  # withdrawn
    assert rel == {"following": False, "follows_you": False, "friends": False,
                   "blocking": True}
    assert ok(bea.get("/api/people"))["blocked"] == ["Ana"]
    refused(ana.post("/api/people/follow", json={"name": "Bea"}), 403, "blocked")
    refused(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 403,
            "not_friends")
    refused(bea.post(f"/api/people/challenges/{made['challenge']}/accept"), 409,
            "challenge_cancelled")
    # at a table, Bea does not hear Ana's phrases; Cid does
    table = create(ana, PEOPLE4, name="Ana")
    tid = table["table"]["id"]
    tokens = [table["token"], join(bea, tid, "Bea", 1)["token"], join(cid, tid, "Cid", 2)["token"]]
    heads = [{"cookie": f"{SESSION_COOKIE}={c.cookies.get(SESSION_COOKIE)}"}
             for c in (ana, bea, cid)]
    a, b, c = (Player(ana, tid, tok, headers=h) for tok, h in zip(tokens, heads, strict=True))
    a.send({"type": "talk", "phrase": "hello"})
    assert c.recv_until(lambda m: m["type"] == "talk", "Ana's hello")["phrase"] == "hello"
    c.send({"type": "talk", "phrase": "thanks"})
    assert b.recv_until(lambda m: m["type"] == "talk", "Cid's thanks")["phrase"] == "thanks"
    ok(bea.post("/api/people/block", json={"name": "Ana", "on": False}))
    a.send({"type": "talk", "phrase": "bye"})
    assert b.recv_until(lambda m: m["type"] == "talk", "Ana's bye")["phrase"] == "bye"
    for p in (a, b, c):
        p.close()


def test_a_seating_that_chooses_finds_the_blocks_among_its_people(room):
    """What quick play asks before seating people together: the blocks between them."""
    store = room["Ana"].app.state.hub.store
    ana, bea, cid = (account_id(room[n]) for n in ("Ana", "Bea", "Cid"))
    assert blocks_among(store, [ana, bea, cid]) == set()
    ok(room["Cid"].post("/api/people/block", json={"name": "Ana"}))
    assert blocks_among(store, [ana, bea, cid]) == {(cid, ana)}
    assert blocks_among(store, [ana, bea]) == set()  # Bea may sit with either
    assert blocks_among(store, [cid]) == set()


def test_a_challenge_accepted_seats_both_at_a_new_table(room):
    ana, bea = room["Ana"], room["Bea"]
    befriend(room, "Ana", "Bea")
    refused(ana.post("/api/people/challenges", json={"to": "Cid", "game": "spades"}), 403,
            "not_friends")
    made = ok(ana.post("/api/people/challenges", json={
        "to": "Bea", "game": "spades", "options": {"target": 100}, "speed": "fast"}), 201)
    refused(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 409,
            "already_challenged")
    incoming = ok(bea.get("/api/people"))["challenges"]["incoming"]
    assert [(c["from"], c["game"], c["options"]["target"], c["status"]) for c in incoming] \
        == [("Ana", "spades", 100, "open")]
    refused(ana.post(f"/api/people/challenges/{made['challenge']}/accept"), 404, "not_found")
    seated = ok(bea.post(f"/api/people/challenges/{made['challenge']}/accept"))
    table = seated["table"]
    assert seated["seat"] == 1 and table["options"]["target"] == 100
    assert [s["name"] for s in table["seats"][:2]] == ["Ana", "Bea"]
    assert [s["kind"] for s in table["seats"]] == ["person", "person", "bot", "bot"]
    assert table["status"] == "playing" and not table["listed"]
    outgoing = ok(ana.get("/api/people"))["challenges"]["outgoing"]
    assert [(c["to"], c["status"], c["table"]) for c in outgoing] == \
        [("Bea", "accepted", table["id"])]
    assert ok(bea.get("/api/people"))["challenges"]["incoming"] == []
    refused(bea.post(f"/api/people/challenges/{made['challenge']}/accept"), 409,
            "challenge_accepted")
    claimed = ok(ana.post(f"/api/account/seats/{table['id']}/claim"))  # Ana's seat, her device
    assert claimed["seat"] == 0
    p = Player(ana, table["id"], claimed["token"])
    assert p.welcome["seat"] == 0
    p.close()


def test_a_declined_or_expired_challenge_says_so(room, clock):
    ana, bea = room["Ana"], room["Bea"]
    befriend(room, "Ana", "Bea")
    first = ok(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 201)
    ok(bea.post(f"/api/people/challenges/{first['challenge']}/decline"))
    second = ok(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spite-and-malice"}),
                201)
    clock.at += CHALLENGE_SECONDS + 1
    statuses = [(c["game"], c["status"]) for c in
                ok(ana.get("/api/people"))["challenges"]["outgoing"]]
    assert statuses == [("spades", "declined"), ("spite-and-malice", "expired")]
    assert ok(bea.get("/api/people"))["challenges"]["incoming"] == []
    refused(bea.post(f"/api/people/challenges/{second['challenge']}/accept"), 409,
            "challenge_expired")
    third = ok(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 201)
    ok(ana.post(f"/api/people/challenges/{third['challenge']}/cancel"))
    refused(bea.post(f"/api/people/challenges/{third['challenge']}/decline"), 409,
            "challenge_cancelled")


@pytest.mark.long_on("postgresql")  # the subject is the input, not the database
@pytest.mark.parametrize(("body", "status", "code"), [
    ({"to": "Bea", "game": "chess"}, 400, "bad_game"),
    ({"to": "Bea", "game": "foursquare"}, 400, "bad_game"),  # played alone
    ({"to": "Bea", "game": "spades", "options": {"target": "lots"}}, 400, "bad_options"),
    ({"to": "Bea", "game": "spades", "seats": 2}, 400, "bad_request"),  # no such field
    ({"to": "Bea", "game": "spades", "speed": "warp"}, 400, "bad_request"),
    ({"to": "Bea", "game": "spades", "options": {"target": True}}, 400, "bad_options"),
    ({"to": ["Bea"], "game": "spades"}, 400, "bad_request"),
])
def test_a_challenge_takes_strict_input_and_changes_nothing_when_refused(room, body, status,
                                                                          code):
    befriend(room, "Ana", "Bea")
    res = room["Ana"].post("/api/people/challenges", json=body)
    assert res.status_code == status, res.text
    assert res.json()["error"]["code"] == code
    assert ok(room["Bea"].get("/api/people"))["challenges"]["incoming"] == []


@pytest.mark.long_on("postgresql")  # the subject is the room's bus, not the database
def test_your_turn_and_a_rematch_reach_the_room(room):
    """The owner of a table tells a person's streams when it becomes their turn (once a
    turn) and when someone there deals again."""
    ana, bea = room["Ana"], room["Bea"]
    hub = ana.app.state.hub
    hub.people.turn_grace = 0  # told at once: nobody connects to the new table here
    streams = {name: Stream(account_id(room[name])) for name in ("Ana", "Bea")}
    for stream in streams.values():
        hub.people.streams[stream.account_id] = {stream}
    befriend(room, "Ana", "Bea")
    made = ok(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 201)
    seated = ok(bea.post(f"/api/people/challenges/{made['challenge']}/accept"))
    table = seated["table"]
    turns = lambda name: [e for e in streams[name].events if e["type"] == "turn"]  # noqa: E731
    wait_until(lambda: turns("Ana"), "Ana's turn told (seat 0 bids first)")
    assert turns("Ana") == [{"type": "turn", "table": table["id"], "game": "spades"}]
    assert turns("Bea") == []  # not hers
    # told only while nobody is at the seat: Ana's page at the table hears nothing
    live = hub.tables[table["id"]]
    ana_id, seat = account_id(ana), 0  # the challenger's seat, still to bid
    streams["Ana"].events.clear()
    claimed = ok(ana.post(f"/api/account/seats/{table['id']}/claim"))
    here = Player(ana, table["id"], claimed["token"])
    ana.portal.call(hub.people.tell_turn, live, {ana_id: seat}, live.match)
    assert turns("Ana") == []
    here.close()
    wait_until(lambda: not live.connected(seat), "Ana's page gone from the table")
    ana.portal.call(hub.people.tell_turn, live, {ana_id: seat}, live.match)
    wait_until(lambda: turns("Ana"), "Ana told, away from the table")
    hub.people.streams.clear()
    # a rematch: whoever deals again, the other is told (the match is made over first)
    hub.tables[table["id"]].status = "finished"
    stream = Stream(account_id(ana))
    hub.people.streams[stream.account_id] = {stream}
    ok(bea.post(f"/api/tables/{table['id']}/again",
                headers={"Authorization": f"Bearer {seated['token']}"}))
    told = lambda: [e for e in stream.events if e["type"] == "rematch"]  # noqa: E731
    wait_until(told, "the rematch told")
    assert told() == [{"type": "rematch", "table": table["id"], "game": "spades"}]
    hub.people.streams.clear()


@pytest.mark.long_on("postgresql")  # the subject is the limit, not the database
def test_per_account_limits_hold(tmp_path, clock):
    from parlour.server.edge.limits import Limits

    db = tmp_path / "limits.sqlite3"
    with app_client(db, limits=Limits(follow_burst=2, challenge_burst=1),
                    **clock.settings()) as ana:
        _, token = sign_up(db, "Ana", now=clock.now())
        sign_up(db, "Bea", now=clock.now())
        ana.cookies.set(SESSION_COOKIE, token)
        ok(ana.post("/api/people/follow", json={"name": "Bea"}))
        ok(ana.post("/api/people/follow", json={"name": "Bea", "on": False}))
        refused(ana.post("/api/people/follow", json={"name": "Bea"}), 429, "rate_limited")
        refused(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 403,
                "not_friends")  # took the one token
        refused(ana.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}), 429,
                "rate_limited")


@pytest.mark.databases("postgresql")  # two processes share a database: leases and Redis
def test_the_room_crosses_processes_on_redis_and_polls_while_it_is_away(tmp_path):
    """Ana's requests land on one process and Bea's page stream on another: a follow and a
    challenge made on the first nudge Bea's stream on the second through Redis; the turn
    at the table her accepting opened reaches Ana's stream on the first; while Redis is
    away a stream polls (every POLL_SECONDS), and quietly again once it is back."""
    import secrets

    from services import pg_database, redis_or_skip, redis_prefix
    from sqlalchemy import create_engine, insert

    from parlour.server.cluster.outages import REDIS
    from parlour.server.people.account_names import name_key
    from parlour.server.people.identity import session_hash
    from parlour.server.people.presence import POLL_SECONDS, QUIET_SECONDS
    from parlour.server.storage.store import accounts_t, sessions_t

    redis_url = redis_or_skip()
    with pg_database("people_relay") as url, redis_prefix() as prefix:
        opts = dict(db_url=url, redis_url=redis_url, redis_prefix=prefix, bot_pause=0.0)
        with app_client(tmp_path / "x", **opts) as one, \
                app_client(tmp_path / "x", **opts) as two:
            ids = {}
            engine = create_engine(url)
            for name, client in (("Ana", one), ("Bea", two)):
                token = secrets.token_urlsafe(32)
                with engine.begin() as conn:
                    ids[name] = conn.execute(insert(accounts_t).values(
                        name=name, name_key=name_key(name), password_hash="unused",
                        created=0.0)).inserted_primary_key[0]
                    conn.execute(insert(sessions_t).values(
                        token_hash=session_hash(token), account_id=ids[name], created=0.0,
                        expires=4e9))
                client.cookies.set(SESSION_COOKIE, token)
            engine.dispose()
            streams = {"Ana": Stream(ids["Ana"]), "Bea": Stream(ids["Bea"])}
            for client in (one, two):
                client.app.state.hub.people.turn_grace = 0
            one.app.state.hub.people.streams[ids["Ana"]] = {streams["Ana"]}
            two.app.state.hub.people.streams[ids["Bea"]] = {streams["Bea"]}
            ok(one.post("/api/people/follow", json={"name": "Bea"}))
            wait_until(streams["Bea"].wake.is_set, "Bea's stream on the other process nudged")
            streams["Bea"].wake.clear()
            ok(two.post("/api/people/follow", json={"name": "Ana"}))
            made = ok(one.post("/api/people/challenges", json={"to": "Bea", "game": "spades"}),
                      201)
            wait_until(streams["Bea"].wake.is_set, "the challenge nudging Bea's stream")
            seated = ok(two.post(f"/api/people/challenges/{made['challenge']}/accept"))
            # Spades opens with seat 0's bid: Ana's, told to her page on the other process
            turns = lambda: [e for e in streams["Ana"].events  # noqa: E731
                             if e["type"] == "turn"]
            wait_until(turns, "Ana's turn told to her process")
            assert turns() == [{"type": "turn", "table": seated["table"]["id"],
                                "game": "spades"}]
            bus = two.app.state.hub.people
            assert bus.poll_seconds() == QUIET_SECONDS
            two.app.state.hub.outages.failed(REDIS, "cut for the test")
            assert bus.poll_seconds() == POLL_SECONDS
            two.app.state.hub.outages.answered(REDIS)
            assert bus.poll_seconds() == QUIET_SECONDS
            for client in (one, two):
                client.app.state.hub.people.streams.clear()


def test_a_turn_redis_did_not_take_reaches_the_other_processes_pages_as_they_poll(
        room, clock):
    """While Redis is away a page on another process polls the room (GET /api/people): a
    turn or rematch told then is kept as a notice the room holds for ten minutes, for the
    accounts it was for; one Redis took is not kept."""
    from parlour.server.people.presence import NOTICE_SECONDS

    ana, bea = room["Ana"], room["Bea"]
    people = ana.app.state.hub.people
    taken: list[bool] = []

    async def publish(data):
        return bool(taken)  # Redis away until the test says it took one

    people.publish = publish
    turn = {"type": "turn", "table": "tbl00042", "game": "spades"}
    ana.portal.call(people.notify, [account_id(ana)], turn)
    notices = ok(ana.get("/api/people"))["notices"]
    assert [{k: v for k, v in n.items() if k != "id"} for n in notices] == [turn]
    assert ok(bea.get("/api/people"))["notices"] == []
    taken.append(True)  # Redis back: it carries the next one, nothing is kept
    ana.portal.call(people.notify, [account_id(ana)], {**turn, "type": "rematch"})
    assert ok(ana.get("/api/people"))["notices"] == notices
    clock.advance(NOTICE_SECONDS + 1)
    assert ok(ana.get("/api/people"))["notices"] == []


def test_a_friend_who_only_watches_a_table_is_shown_at_it(room):
    """A friend's page that watches a table (a spectator, signed in) puts them at it in the
    friends list, marked as watching; when the page goes, so does the table."""
    ana, bea = room["Ana"], room["Bea"]
    befriend(room, "Ana", "Bea")
    online(ana)
    online(bea)
    table_id = create(room["Cid"], BOTS3)["table"]["id"]
    # (through the app's running client, as Bea: a socket of a client of its own runs on an
    # event loop of its own, which stops with the socket before the server notes it gone)
    watcher = Player(ana, table_id, None,
                     headers={"cookie": f"{SESSION_COOKIE}={bea.cookies.get(SESSION_COOKIE)}"})
    wait_until(lambda: any(t.get("watching") for f in ok(ana.get("/api/people"))["friends"]
                           for t in f["tables"]), "Bea shown at the table she watches", 10)
    friend = ok(ana.get("/api/people"))["friends"][0]
    assert friend["name"] == "Bea" and friend["tables"] == [{
        "id": table_id, "game": "spades", "game_name": "Spades", "status": "playing",
        "free_seat": False, "watching": True}]
    watcher.close()
    wait_until(lambda: ok(ana.get("/api/people"))["friends"][0]["tables"] == [],
               "Bea no longer at the table", 10)
