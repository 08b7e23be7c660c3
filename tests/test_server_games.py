"""The server is generic over the engine contract: every installed game plays through it,
bots included, simultaneous phases (several seats in ``to_act``) too."""

from __future__ import annotations

import json
import time

import pytest
from server_kit import Player, app_client

from parlour.games import game_ids, get_game

ACTIONS = 150  # enough to cross several turns and rounds of any game


@pytest.fixture(scope="module")
def client(tmp_path_factory):
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
        m["status"] == "finished" or m["version"] >= ACTIONS))
    versions = [m["version"] for m in watcher.messages if m["type"] == "view"]
    assert versions == sorted(versions) and msg["version"] > 0
    for m in watcher.messages:
        if m["type"] == "view":
            assert m["view"]["seat"] is None and m["view"]["legal"] == []
            assert "seed" not in json.dumps(m)
    watcher.close()


@pytest.mark.skipif("hit-the-deck" not in game_ids(), reason="Hit the Deck is not installed")
def test_a_simultaneous_phase_orders_intents_and_answers_the_late_one_stale(client):
    """Hit the Deck: when several seats may act at once, two intents made on the same
    view are taken in turn: the first applies, the second is answered ``stale`` with the
    new view (and the bots among the seats to act think in parallel)."""
    n = 3
    res = client.post("/api/tables", json={
        "game": "hit-the-deck", "name": "A",
        "seats": [{"kind": "person"}] * n})
    tid = res.json()["table"]["id"]
    tokens = [res.json()["token"]]
    for s in range(1, n):
        tokens.append(client.post(f"/api/tables/{tid}/join",
                                  json={"name": f"P{s}"}).json()["token"])
    players = [Player(client, tid, t) for t in tokens]
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
        actor.act(actor.last["view"]["legal"][0], players[0].last["version"])
        for p in players:
            p.view()
    else:
        pytest.fail("no simultaneous phase came up")
    version = players[0].last["version"]
    pair = [players[s] for s in to_act[:2]]
    for p in pair:
        p.act(p.last["view"]["legal"][0], version)
    stale = []
    for p in pair:  # a sync is answered after the intent before it: read up to its reply
        seen = len(p.messages)
        p.send({"type": "sync"})
        p.recv_until(lambda m: m["type"] == "table")
        after = p.view()
        errors = [m for m in p.messages[seen:] if m["type"] == "error"]
        stale.extend(e["code"] for e in errors)
        assert after["version"] == version + 1, "exactly one of the two intents applies"
    assert stale == ["stale"], stale
    for p in players:
        p.close()


def test_searching_bots_think_in_a_worker_process(client):
    """ISMCTS bots (``needs_sample``) play from a process pool, off the event loop."""
    seats = [{"kind": "bot", "bot": "ismcts:easy"}, {"kind": "bot", "bot": "rule"}] * 2
    res = client.post("/api/tables", json={"game": "spades", "seats": seats})
    assert res.status_code == 201, res.text
    watcher = Player(client, res.json()["table"]["id"], None)
    msg = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] >= 12)
    assert msg["view"]["bids"].count(None) == 0  # all four bid, two of them by search
    hub = client.app.state.hub
    assert hub.procs is not None
    watcher.close()
