"""Any process serves any table: two apps on one PostgreSQL database and one Redis, a
table owned by the first, played through the second (parlour.server.cluster.relay)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from server_kit import ROOMY, Player, app_client
from services import pg_database, redis_or_skip, redis_prefix
from waits import Deadline, wait_until

from parlour.i18n import localize, render
from parlour.message import Message
from parlour.server.edge.limits import Limits

BOTS2 = [{"kind": "bot", "bot": "rule"}] * 2
TWO_AND_BOTS = [{"kind": "person"}, {"kind": "bot", "bot": "rule"}, {"kind": "person"},
                {"kind": "bot", "bot": "rule"}]


@pytest.fixture
def two_apps(tmp_path):  # type: ignore[no-untyped-def]
    redis_url = redis_or_skip()
    with pg_database("scale_relay") as url, redis_prefix() as prefix:
        opts = dict(db_url=url, redis_url=redis_url, redis_prefix=prefix, bot_pause=0.0)
        with app_client(tmp_path / "x", **opts) as one, \
                app_client(tmp_path / "x", **opts) as two:
            yield one, two


def test_a_table_owned_by_one_process_is_played_through_another(two_apps):
    one, two = two_apps
    res = one.post("/api/tables", json={"game": "spades", "seats": TWO_AND_BOTS,
                                        "name": "Ann", "public": True})
    assert res.status_code == 201, res.text
    made = res.json()
    table = made["table"]["id"]
    assert table in one.app.state.hub.tables
    # The second process does not own it: the lobby, the table and a join go through Redis.
    listed = two.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table]
    assert two.get(f"/api/tables/{table}").json()["table"]["status"] == "waiting"
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 2 and joined.json()["token"]
    assert table not in two.app.state.hub.tables
    ann = Player(one, table, made["token"])
    bea = Player(two, table, joined.json()["token"])  # relayed to the owner
    assert bea.seat == 2 and bea.welcome["table"]["status"] == "playing"
    assert bea.view()["match"] == 1
    # Play a few turns; both see the same versions, each its own hand.
    hubs = (one.app.state.hub, two.app.state.hub)

    def owned() -> Any:
        """The table where its owner holds it: a new table may yet be handed to the process
        owning fewer (the room's rebalance), and is in neither's memory for a moment."""
        return wait_until(lambda: next((h.tables[table] for h in hubs if table in h.tables),
                                       None), f"a process to hold table {table}")

    deadline = Deadline("twelve moves played through both processes")
    while owned().version < 12:
        deadline.left()
        for p in (ann, bea):
            view = p.sync()
            if p.seat in view["view"]["to_act"]:
                p.act(view["view"]["legal"][0])
        time.sleep(0.02)
    assert {p.seat for p in (ann, bea)} == {0, 2}
    owned_now = owned()
    wait_until(lambda: set(owned_now.state.to_act) & {0, 2},
               "the bots to play on to a person's turn")
    seen = bea.recv_until(lambda m: m["type"] == "view" and m["version"] == owned_now.version,
                          "Bea's view at the owner's version")
    # built by the owner, for Bea's seat (its reasons in her language)
    assert seen["view"] == localize(owned_now.state.view(2), "en")
    # A stale intent through the relay gets the owner's refusal.
    bea.send({"type": "act", "action": "nonsense", "version": 0})
    assert bea.error()["code"] in ("stale", "unknown_action")
    # Requests that change the table are forwarded to its owner, with the seat's hash.
    bad = two.post(f"/api/tables/{table}/leave", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"
    left = two.post(f"/api/tables/{table}/leave",
                    headers={"Authorization": f"Bearer {joined.json()['token']}"})
    assert left.status_code == 200, left.text
    assert owned().seats[2].token_hash is None and 2 in owned().standins
    ann.close()
    bea.close()


def test_a_clients_create_and_join_limits_hold_across_processes(tmp_path):
    redis_url = redis_or_skip()
    limits = Limits(**ROOMY | {"create_burst": 3, "creates_per_minute": 1,
                               "join_burst": 2, "joins_per_minute": 1})
    with pg_database("scale_relay") as url, redis_prefix() as prefix, \
            app_client(tmp_path / "x", db_url=url, redis_url=redis_url, redis_prefix=prefix,
                       limits=limits) as one, \
            app_client(tmp_path / "x", db_url=url, redis_url=redis_url, redis_prefix=prefix,
                       limits=limits) as two:
        answers = [(one if i % 2 else two).post("/api/tables", json={
            "game": "spades", "seats": [{"kind": "person"}] * 4, "name": "Ann"})
            for i in range(4)]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert int(answers[-1].headers["retry-after"]) >= 1
        table = answers[0].json()["table"]["id"]
        joins = [(one if i % 2 else two).post(f"/api/tables/{table}/join",
                                              json={"name": f"P{i}"}) for i in range(3)]
        assert [j.status_code for j in joins] == [200, 200, 429]


def test_a_relaying_process_that_loses_redis_catches_its_clients_up(two_apps):
    import redis

    one, two = two_apps
    res = one.post("/api/tables", json={"game": "spades", "name": "Ann", "public": True,
                                        "seats": [{"kind": "person"}] * 2 + BOTS2})
    table = res.json()["table"]["id"]
    watcher = Player(two, table, None)  # relayed: the table waits for its second person
    assert watcher.welcome["table"]["status"] == "waiting"
    name = f"parlour-{two.app.state.relay.me}"
    admin = redis.Redis.from_url(redis_or_skip())
    killed = [admin.client_kill_filter(_id=c["id"]) for c in admin.client_list("pubsub")
              if c["name"] == name]
    assert killed == [1]
    again = watcher.recv_until(lambda m: m["type"] == "table",
                               "the table's summary, sent again once it is back")
    assert again["table"]["id"] == table and again["table"]["status"] == "waiting"
    watcher.close()


def test_a_refusal_forwarded_from_the_owner_reads_in_the_askers_language(two_apps):
    one, two = two_apps
    res = one.post("/api/tables", json={"game": "spades", "name": "Ann",
                                        "seats": [{"kind": "person"}] * 2 + BOTS2})
    table = res.json()["table"]["id"]
    refused = two.post(f"/api/tables/{table}/join", json={"name": "Bea", "seat": 0},
                       headers={"Accept-Language": "pt-BR"})  # forwarded to the owner
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "seat_taken"
    assert refused.json()["error"]["message"].startswith("o lugar ")


def test_table_talk_travels_through_the_relay_both_ways(two_apps):
    """Issue 34: a relayed player's phrase reaches the owner's players in their language,
    a local one's reaches the relayed player in hers, and a relayed spectator's stays among
    the spectators; the owner keeps the limits."""
    one, two = two_apps
    res = one.post("/api/tables", json={"game": "spades", "name": "Ann",
                                        "seats": [{"kind": "person"}] * 2 + BOTS2})
    table = res.json()["table"]["id"]
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea", "seat": 1})
    assert joined.status_code == 200, joined.text
    ann = Player(one, table, res.json()["token"], lang="en")
    bea = Player(two, table, joined.json()["token"], lang="pt-BR")  # relayed
    watcher = Player(two, table, None, lang="id")  # relayed too

    def talk(p: Player) -> dict:
        return p.recv_until(lambda m: m["type"] in ("talk", "error"), "talk")

    bea.send({"type": "talk", "phrase": "nice_play"})
    assert talk(ann) == {"type": "talk", "channel": "players", "seat": 1,
                         "phrase": "nice_play", "text": "Nice play!"}
    assert talk(watcher)["text"] == render(Message("Nice play!"), "id") != "Nice play!"
    assert talk(bea)["text"] == render(Message("Nice play!"), "pt_BR")  # her own, echoed
    ann.send({"type": "talk", "phrase": "thanks"})
    assert talk(ann)["phrase"] == "thanks"
    assert talk(bea)["text"] == render(Message("Thank you!"), "pt_BR") != "Thank you!"
    assert talk(watcher)["seat"] == 0
    watcher.send({"type": "talk", "phrase": "hello"})
    assert talk(watcher)["channel"] == "spectators"
    bea.send({"type": "talk", "phrase": "oops"})
    for p in (ann, bea):  # the players never read the spectator: their next talk is this
        assert talk(p)["phrase"] == "oops"
    for p in (ann, bea, watcher):
        p.close()


def test_a_message_published_as_soon_as_a_table_is_taken_over_reaches_its_new_owner(
        two_apps):
    import redis

    one, two = two_apps
    res = one.post("/api/tables", json={"game": "spades", "name": "Ann",
                                        "seats": [{"kind": "person"}] * 4})
    table = res.json()["table"]["id"]
    two.app.state.cluster.draining = True  # takes no table on its own (its heartbeat)
    one.portal.call(one.app.state.cluster.stop)  # as on SIGTERM: the heartbeat first,
    one.portal.call(one.app.state.cluster.drain)  # then the lease is handed over
    prefix = two.app.state.relay.prefix
    listener = redis.Redis.from_url(redis_or_skip(), decode_responses=True)
    inbox = listener.pubsub(ignore_subscribe_messages=True)
    inbox.subscribe(f"{prefix}p:test")

    async def take_over_and_publish() -> int:
        assert await two.app.state.hub.get(table) is not None
        # published at once, blocking the owner's loop: nothing of it runs meanwhile
        return int(listener.publish(f"{prefix}t:{table}", json.dumps(
            {"op": "seat", "cid": "test/1", "from": "test", "seat": None, "hash": None})))

    # the new owner listens to the table's channel before the takeover returns
    assert two.portal.call(take_over_and_publish) == 1
    deadline = Deadline("the owner's welcome on the table's channel", 10)
    while (message := inbox.get_message(timeout=min(1.0, deadline.left()))) is None:
        pass
    greeting = json.loads(json.loads(message["data"])["text"])  # the owner's welcome
    assert greeting["type"] == "welcome" and greeting["table"]["id"] == table
    inbox.close()
    listener.close()


def test_a_relayed_client_of_a_table_found_unrestorable_at_takeover_gets_4410(two_apps):
    from sqlalchemy import update
    from starlette.websockets import WebSocketDisconnect

    from parlour.server.storage.store import tables_t

    one, two = two_apps
    made = one.post("/api/tables", json={"game": "spades", "name": "Ann",
                                         "seats": TWO_AND_BOTS}).json()
    table = made["table"]["id"]
    joined = two.post(f"/api/tables/{table}/join", json={"name": "Bea"}).json()
    bea = Player(two, table, joined["token"])  # relayed to the owner
    assert bea.welcome["table"]["status"] == "playing"
    hub = one.app.state.hub
    with hub.store.engine.begin() as conn:  # its rows no longer make a table
        conn.execute(update(tables_t).where(tables_t.c.id == table).values(game="nogame"))
    one.portal.call(hub.lose, hub.tables[table])  # its owner lets it go (as if it died)
    hub.leases.release([table])
    error = bea.recv_until(lambda m: m["type"] == "error", "the owner's refusal", 10)
    assert error["code"] == "unrestorable"
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            bea.recv()
    assert closed.value.code == 4410
    bea.close()


def test_play_resumes_at_once_when_the_lease_moves(tmp_path):
    """Issue 31 item 6: after a takeover the next bot moves at once (its pace counted
    from the last action, at the old owner) and a relayed client is greeted by the new
    owner at once (it announces itself), not at the relaying process's next refresh."""
    redis_url = redis_or_skip()
    with pg_database("scale_relay") as url, redis_prefix() as prefix:
        opts = dict(db_url=url, redis_url=redis_url, redis_prefix=prefix, bot_pause=1.0)
        with app_client(tmp_path / "x", **opts) as one, \
                app_client(tmp_path / "x", **opts) as two:
            made = one.post("/api/tables", json={
                "game": "spades", "name": "Ann", "turn_seconds": 0,
                "seats": [{"kind": "person"}, *BOTS2, {"kind": "bot", "bot": "rule"}]})
            table = made.json()["table"]["id"]
            if table not in one.app.state.hub.tables:  # a process that owns fewer took it
                one, two = two, one
            ann = Player(two, table, made.json()["token"])  # relayed to the owner
            hub = one.app.state.hub
            owned = hub.tables[table]
            one.portal.call(one.app.state.cluster.stop)  # the owner dies, as far as the
            view = ann.sync()  # room can tell: no beats; Ann plays her turn if it is hers
            if 0 in view["view"]["to_act"]:
                ann.act(view["view"]["legal"][0])
            wait_until(lambda: owned.version > 0 and 0 not in owned.state.to_act,
                       "a bot's turn", 10, every=0.005)
            early = table in two.app.state.hub.tables  # taken before the test let it go?
            lost_at = time.monotonic()
            one.portal.call(hub.lose, owned)
            hub.leases.release([table])
            version = owned.version
            wait_until(lambda: table in two.app.state.hub.tables,
                       "the other process to take the table over", 5, every=0.005)
            taken = time.monotonic()
            ann.recv_until(lambda m: m["type"] == "welcome", "the new owner's welcome", 5)
            greeted = time.monotonic() - taken
            moved = two.app.state.hub.tables[table]
            wait_until(lambda: moved.version > version, "the next action", 5, every=0.005)
            resumed = time.monotonic() - taken
            # (what a failure needs to be read: it happened once in this stop's runs, with
            # the welcome at once and the next move after one bot pause)
            assert greeted < 0.5 and resumed < 0.5, {
                "greeted": greeted, "resumed": resumed, "taken after the release":
                taken - lost_at, "taken before it": early, "version at release": version,
                "version now": moved.version, "to act at release": owned.state.to_act}
            ann.close()
