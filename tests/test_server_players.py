"""Rated tables, statistics, profiles and leaderboards through the server's API."""

from __future__ import annotations

from players_kit import play_out, sign_up, signed_in
from server_kit import Player, app_client, connect
from sqlalchemy import select

from parlour.server import ratings as R
from parlour.server.players import leaderboard
from parlour.server.store import Store, seats_t, tables_t

CLOCKWORK = [{"kind": "person"}, {"kind": "bot", "bot": "rule"}]
SPADES = [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3


def open_rated(client, game="clockwork-spades", seats=CLOCKWORK, **extra):
    return client.post("/api/tables", json={"game": game, "seats": seats, "name": "me",
                                            "rated": True, **extra})


def test_a_rated_match_rates_its_signed_in_person_and_fills_their_profile(tmp_path):
    db = tmp_path / "rated.sqlite3"
    with app_client(db) as client:
        _, token = sign_up(db, "Ana")
        signed_in(client, token)
        for pick in range(3):
            res = open_rated(client)
            assert res.status_code == 201, res.text
            table = res.json()["table"]
            assert table["rated"] and table["compared"] and not table["hints"]
            last = play_out(client, table["id"], res.json()["token"], pick)
            assert last["status"] == "finished"
        profile = client.get("/api/players/ANA").json()  # any case
        game = profile["games"]["clockwork-spades"]
        assert game["figures"]["matches"] == 3
        assert game["rating"]["matches"] == 3
        assert len(game["history"]) == 3
        assert game["rating"]["rating"] == game["history"][-1]["value"]
        assert game["rating"]["sigma"] < R.SIGMA  # three matches: surer than a newcomer
        assert "penalty_spades" in game["figures"]
        assert [m["rated"] for m in profile["recent"]] == [True] * 3
        assert all(m["table"] and m["match"] == 1 for m in profile["recent"])
        # the recent matches link to replays anyone may open
        first = profile["recent"][0]
        replay = client.get(f"/api/tables/{first['table']}/matches/1/replay")
        assert replay.status_code == 200
        # the leaderboard lists people with enough rated matches only
        engine = client.app.state.hub.store.engine
        assert leaderboard(engine, "clockwork-spades", least=4) == []
        board = leaderboard(engine, "clockwork-spades", least=3)
        assert [p["name"] for p in board] == ["Ana"]
        api = client.get("/api/leaderboards/clockwork-spades").json()
        assert api["least"] == R.LEADERBOARD_MIN and api["places"] == []
        assert client.get("/api/players/nobody").status_code == 404
        for page in ("/u/Ana", "/u/Ana%20Maria", "/daily", "/leaderboards/spades"):
            got = client.get(page)
            assert got.status_code == 200 and "text/html" in got.headers["content-type"], page
        assert client.get("/u/a/b").status_code == 404
        assert client.get("/u/" + "x" * 41).status_code == 404


def test_a_casual_match_counts_in_the_figures_but_not_the_rating(tmp_path):
    db = tmp_path / "casual.sqlite3"
    with app_client(db) as client:
        aid, token = sign_up(db, "Bea")
        signed_in(client, token)
        res = client.post("/api/tables", json={"game": "foursquare", "seats": [{"kind": "person"}],
                                               "name": "Bea"})
        assert res.status_code == 201 and not res.json()["table"]["rated"]
        # a casual table does not know its person's account unless the accounts' join says so
        table_id = res.json()["table"]["id"]
        with connect(db) as conn:
            Store.op_link_seat(table_id, 0, aid)(conn)
        play_out(client, table_id, res.json()["token"])
        profile = client.get("/api/players/Bea").json()
        assert profile["games"]["foursquare"]["figures"]["matches"] == 1
        assert profile["games"]["foursquare"]["rating"] is None


def test_rated_tables_need_a_signed_in_person_full_rules_and_rated_bots(tmp_path):
    db = tmp_path / "rules.sqlite3"
    with app_client(db) as client:
        res = open_rated(client)
        assert res.status_code == 403 and res.json()["error"]["code"] == "sign_in"
        _, token = sign_up(db, "Cid")
        signed_in(client, token)
        res = open_rated(client, "spades", SPADES, options={"target": 100})
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_options"
        res = open_rated(client, "spades", [{"kind": "person"}]
                         + [{"kind": "bot", "bot": "ismcts:hard"}] * 3)
        assert res.status_code == 400 and "fixed rating" in res.json()["error"]["message"]
        res = open_rated(client, "foursquare", [{"kind": "person"}], deal=5)
        assert res.status_code == 400 and res.json()["error"]["code"] == "bad_deal"
        res = open_rated(client, "foursquare", [{"kind": "person"}])
        assert res.status_code == 201
        p = Player(client, res.json()["table"]["id"], res.json()["token"])
        try:
            p.view()
            p.send({"type": "hint"})
            assert p.error()["code"] == "no_hint"
        finally:
            p.close()
        with connect(db) as conn:  # kept like every compared table
            assert conn.execute(select(tables_t.c.compared, tables_t.c.rated).where(
                tables_t.c.id == res.json()["table"]["id"])).one() == (True, True)
        # Foursquare is rated by its own measure: the win rate and mean score of recent deals
        last = play_out(client, res.json()["table"]["id"], res.json()["token"])
        won = last["view"]["result"] == "won"
        rating = client.get("/api/players/Cid").json()["games"]["foursquare"]["rating"]
        assert rating == {"win_rate": float(won), "matches": 1,
                          "mean_score": float(last["view"]["score"] or 0)}


def test_leaving_a_rated_match_is_its_loss_and_leaving_again_pauses_rated_play(tmp_path):
    db = tmp_path / "leave.sqlite3"
    clock = [1_800_000_000.0]
    with app_client(db, now=lambda: clock[0]) as client:
        _aid, token = sign_up(db, "Dee")
        signed_in(client, token)
        ratings = []
        for _ in range(2):
            res = open_rated(client, "spades", SPADES)
            assert res.status_code == 201, res.text
            left = client.post(f"/api/tables/{res.json()['table']['id']}/leave",
                               headers={"Authorization": f"Bearer {res.json()['token']}"})
            assert left.status_code == 200, left.text
            profile = client.get("/api/players/Dee").json()
            ratings.append(profile["games"]["spades"]["rating"])
            assert profile["recent"][0]["abandoned"]
            clock[0] += 60
        assert ratings[0]["mu"] < R.MU and ratings[1]["mu"] < ratings[0]["mu"]
        assert ratings[1]["matches"] == 2
        res = open_rated(client, "spades", SPADES)
        assert res.status_code == 403 and res.json()["error"]["code"] == "paused"
        assert "min" in res.json()["error"]["message"]
        # a casual table is open to them all the while
        assert client.post("/api/tables", json={"game": "spades", "seats": SPADES,
                                                "name": "Dee"}).status_code == 201
        clock[0] += R.PLAYBAN[1] + 1  # the second leave's pause is over
        assert open_rated(client, "spades", SPADES).status_code == 201


def test_a_guest_may_not_sit_at_a_rated_table_but_a_signed_in_friend_may(tmp_path):
    db = tmp_path / "join.sqlite3"
    with app_client(db) as client:
        _, ann = sign_up(db, "Ann")
        fid, friend = sign_up(db, "Fay")
        signed_in(client, ann)
        res = open_rated(client, "clockwork-spades", [{"kind": "person"}, {"kind": "person"}])
        assert res.status_code == 201, res.text
        table_id = res.json()["table"]["id"]
        signed_in(client, None)
        guest = client.post(f"/api/tables/{table_id}/join", json={"name": "guest"})
        assert guest.status_code == 403
        signed_in(client, friend)
        joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Fay"})
        assert joined.status_code == 200, joined.text
        with connect(db) as conn:
            assert conn.execute(select(seats_t.c.account_id).where(
                seats_t.c.table_id == table_id, seats_t.c.seat == 1)).one() == (fid,)


def test_a_rated_table_closed_for_want_of_its_people_is_their_loss(tmp_path):
    db = tmp_path / "gone.sqlite3"
    with app_client(db, absent_close=0.0) as client:
        _, token = sign_up(db, "Gus")
        signed_in(client, token)
        res = open_rated(client, "spades", SPADES)
        assert res.status_code == 201
        hub = client.app.state.hub
        done = client.portal.call(hub.tidy)  # nobody has connected since it opened
        assert done["abandoned"] == 1
        profile = client.get("/api/players/Gus").json()
        assert profile["recent"][0]["abandoned"]
        assert profile["games"]["spades"]["rating"]["mu"] < R.MU
