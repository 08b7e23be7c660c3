"""The server is generic over the engine contract: every installed game plays through it,
bots included, simultaneous phases (several seats in ``to_act``) too."""

from __future__ import annotations

import time

import pytest
from server_kit import Player, app_client, assert_no_secret

from parlour.games import game_ids, get_game

# The subject is the engine contract through the server, not the database: PostgreSQL in make
# test-long only.
pytestmark = pytest.mark.long_on("postgresql")

ACTIONS = 150  # enough to cross several turns and rounds of any game


@pytest.fixture(scope="module")
def client(tmp_path_factory, database):
    with app_client(tmp_path_factory.mktemp("games") / "games.sqlite3") as c:
        yield c


@pytest.mark.parametrize("game_id", game_ids())
def test_bots_play_every_game_through_the_server(client, game_id):
    game = get_game(game_id)
    seats = [{"kind": "bot", "bot": "random"}] * game.default_seats
    res = client.post("/api/tables", json={"game": game_id, "seats": seats})
    assert res.status_code == 201, res.text
    watcher = Player(client, res.json()["table"]["id"], None)
    msg = watcher.recv_until(lambda m: m["type"] == "view" and (
        m["status"] == "finished" or m["version"] >= ACTIONS),
                             "the view that ends the match or reaches the last action")
    versions = [m["version"] for m in watcher.messages if m["type"] == "view"]
    assert versions == sorted(versions) and msg["version"] > 0
    for m in watcher.messages:
        if m["type"] == "view":
            assert m["view"]["seat"] is None and m["view"]["legal"] == []
            assert_no_secret(m)
    watcher.close()


@pytest.mark.skipif("hit-the-deck" not in game_ids(), reason="Hit the Deck is not installed")
def test_a_timed_simultaneous_phase_takes_one_answer_from_each_seat(client):
    """Hit the Deck: when several seats act at once against the clock (the slap), each
    seat's ``react`` is taken in turn, whatever the version its view had reached; an
    ``act`` naming a time of its own is refused (``test_server_timed.py`` has the rest)."""
    n = 3
    res = client.post("/api/tables", json={
        "game": "hit-the-deck", "name": "A", "options": {"hit_hands": 12},
        "seats": [{"kind": "person"}] * n})
    tid = res.json()["table"]["id"]
    tokens = [res.json()["token"]]
    for s in range(1, n):
        tokens.append(client.post(f"/api/tables/{tid}/join",
                                  json={"name": f"P{s}"}).json()["token"])
    players = [Player(client, tid, t) for t in tokens]
    try:
        for p in players:
            p.view()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            view = players[0].last["view"]
            to_act = view["to_act"]
            if len(to_act) > 1:
                break
            if not to_act:
                pytest.skip("the match ended before a simultaneous phase")
            actor = players[to_act[0]]
            legal = actor.last["view"]["legal"]
            actor.act("hit hand!" if "hit hand!" in legal else legal[0],
                      players[0].last["version"])
            for p in players:
                p.view()
        else:
            pytest.fail("no simultaneous phase came up")
        version = players[0].last["version"]
        timed = players[0].last["timed"]
        assert all(p.last["timed"] == timed for p in players)
        players[1].act("slap 0ms", version)
        assert players[1].error()["code"] == "timed"
        for p in reversed(players):  # all on the same view, each taken
            p.send({"type": "react", "phase": timed["phase"]})
        for p in players:
            last = p.recv_until(lambda m: m["type"] == "view" and m["version"] == version + n,
                                "the view after every seat slapped")
            assert "timed" not in last and last["view"]["last_slap"]["player"] in range(n)
        assert not [m for p in players for m in p.messages if m.get("code") == "stale"]
    finally:
        for p in players:
            p.close()


def test_searching_bots_think_in_a_worker_process(client):
    """ISMCTS bots (``needs_sample``) play from a process pool, off the event loop."""
    seats = [{"kind": "bot", "bot": "ismcts:easy"}, {"kind": "bot", "bot": "rule"}] * 2
    res = client.post("/api/tables", json={"game": "spades", "seats": seats})
    assert res.status_code == 201, res.text
    watcher = Player(client, res.json()["table"]["id"], None)
    msg = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 12,
                             "the view at version 12 (every seat bid)")
    assert msg["view"]["bids"].count(None) == 0  # all four bid, two of them by search
    hub = client.app.state.hub
    assert hub.procs is not None
    watcher.close()


def test_a_bot_that_cannot_choose_is_stood_in_for_and_play_goes_on(client, monkeypatch):
    """A fault in a bot's choice (an exception) must not leave its table waiting forever:
    a random legal move stands in for that move, and the fault is logged."""
    from parlour.bots import bot_kinds

    def fails(self, obs):
        raise RuntimeError("a bot's fault")

    monkeypatch.setattr(bot_kinds("spades")["rule"], "act", fails)
    seats = [{"kind": "bot", "bot": "rule"}] * 4
    res = client.post("/api/tables", json={"game": "spades", "seats": seats})
    assert res.status_code == 201, res.text
    watcher = Player(client, res.json()["table"]["id"], None)
    msg = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 8,
                             "eight moves, the failing bot's stood in for")
    assert msg["view"]["bids"].count(None) == 0
    watcher.close()
