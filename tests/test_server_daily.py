"""Daily deals: the same cards for everyone that day, one counted try per account, a
leaderboard compared duplicate-style, a streak, and nothing of today's cards reachable
from another table, a spectator's seat or a record until the day is over."""

from __future__ import annotations

import pytest
from players_kit import play_out, sign_up, signed_in
from server_kit import Player, app_client, db_url_for, seed_of
from sqlalchemy import insert
from starlette.websockets import WebSocketDisconnect

from parlour.registry import spec
from parlour.server.people import daily
from parlour.server.people.daily import day_of
from parlour.server.play.match import MAX_DEAL
from parlour.server.storage.store import Store, accounts_t, daily_t

DAY = 86_400.0
NOON = 1_796_126_400.0  # 2026-12-01 12:00 UTC


def test_every_game_deals_one_daily_deal_a_day_the_same_for_everyone(tmp_path):
    """Every counted try of a game's day deals the same cards (the compared deal);
    anything else plays a practice deal of its own."""
    db = tmp_path / "same.sqlite3"
    clock = [NOON]
    with app_client(db, now=lambda: clock[0]) as client:
        ana = sign_up(db, "Ana", now=NOON, created=NOON - DAY)[1]
        ben = sign_up(db, "Ben", now=NOON, created=NOON - DAY)[1]
        deal_key = client.app.state.hub.store.deal_key
        for game in ("foursquare", "spades"):
            tables = []
            for token in (ana, ben):
                signed_in(client, token)
                res = client.post(f"/api/daily/{game}", json={})
                assert res.status_code == 201 and res.json()["counted"], res.text
                tables.append(res.json()["table"])
            ta, tb = tables
            assert ta["daily"] == day_of(NOON) and ta["compared"] and not ta["listed"]
            assert len(ta["seats"]) == spec(game).daily_seats and ta["deal"] is None
            assert not ta["hints"]
            compared = daily.daily_seed(deal_key, game, day_of(NOON))
            assert seed_of(db, ta["id"]) == seed_of(db, tb["id"]) == compared
            signed_in(client, None)
            guest = client.post(f"/api/daily/{game}", json={"name": "Gus"}).json()
            assert not guest["counted"] and guest["why"] == "guest"
            assert guest["table"]["daily"] is None and seed_of(db, guest["table"]["id"]) \
                != compared
        clock[0] += DAY
        signed_in(client, sign_up(db, "Cy", now=clock[0], created=NOON - DAY)[1])
        c = client.post("/api/daily/foursquare", json={}).json()["table"]
        assert seed_of(db, c["id"]) != seed_of(db, ta["id"])  # the next day, the next deal


def test_nobody_sees_the_compared_deal_before_their_counted_try(tmp_path):
    """Issue 30 item 1: a guest's try, another try, an account made during the day: each
    plays a practice deal, never the compared one; the counted table's record, replay,
    review, hints, watching and the lobby give nothing away until the day is over; and the
    bots' choices at two counted tries are seeded apart."""
    db = tmp_path / "peek.sqlite3"
    with app_client(db, now=lambda: NOON) as client:
        compared = daily.daily_seed(client.app.state.hub.store.deal_key, "spades",
                                    day_of(NOON))
        seeds = []
        signed_in(client, None)
        peek = client.post("/api/daily/spades", json={"name": "Peeker"}).json()
        assert (peek["counted"], peek["why"]) == (False, "guest")
        seeds.append(seed_of(db, peek["table"]["id"]))
        _, fresh = sign_up(db, "Fresh", now=NOON)  # made today: may have peeked as a guest
        signed_in(client, fresh)
        new = client.post("/api/daily/spades", json={}).json()
        assert (new["counted"], new["why"]) == (False, "new_account")
        seeds.append(seed_of(db, new["table"]["id"]))
        _, old = sign_up(db, "Olga", now=NOON, created=NOON - DAY)
        signed_in(client, old)
        first = client.post("/api/daily/spades", json={}).json()
        assert first["counted"] and first["why"] is None
        tid = first["table"]["id"]
        assert seed_of(db, tid) == compared
        again = client.post("/api/daily/spades", json={}).json()
        assert (again["counted"], again["why"]) == (False, "tried")
        seeds.append(seed_of(db, again["table"]["id"]))
        assert compared not in seeds and len(set(seeds)) == 3
        # the counted table: nothing before the day is over
        assert tid not in {t["id"] for t in client.get("/api/tables").json()["tables"]}
        player = Player(client, tid, first["token"])
        player.view()
        player.send({"type": "hint"})
        assert player.error()["code"] == "no_hint"  # hints are off
        player.close()
        play_out(client, tid, first["token"])  # finished: still shut until the day ends
        for path in ("record", "replay"):
            got = client.get(f"/api/tables/{tid}/matches/1/{path}")
            assert got.json()["error"]["code"] == "daily_secret"
        review = client.post(f"/api/tables/{tid}/matches/1/review", json={"seat": 0})
        assert review.json()["error"]["code"] == "daily_secret", review.text
        watcher = Player.__new__(Player)
        with pytest.raises(WebSocketDisconnect):
            Player.__init__(watcher, client, tid, None)
        # a second counted try (another old account): same cards, its bots seeded apart
        _, other = sign_up(db, "Otto", now=NOON, created=NOON - DAY)
        signed_in(client, other)
        second = client.post("/api/daily/spades", json={}).json()
        assert second["counted"] and seed_of(db, second["table"]["id"]) == compared
        hub = client.app.state.hub
        one, two = hub.tables[tid], hub.tables[second["table"]["id"]]
        assert one.bot_rng.getstate() != two.bot_rng.getstate()


def test_one_counted_try_a_day_a_board_and_the_records_open_the_next_day(tmp_path):
    db = tmp_path / "daily.sqlite3"
    clock = [NOON]
    with app_client(db, now=lambda: clock[0]) as client:
        results = {}
        for i, name in enumerate(["Ana", "Ben", "Cy"]):
            _, token = sign_up(db, name, now=clock[0], created=clock[0] - DAY)
            signed_in(client, token)
            res = client.post("/api/daily/foursquare", json={})
            assert res.status_code == 201 and res.json()["counted"]
            table_id = res.json()["table"]["id"]
            play_out(client, table_id, res.json()["token"], pick=i)
            results[name] = table_id
            again = client.post("/api/daily/foursquare", json={})
            assert again.status_code == 201 and not again.json()["counted"]
            play_out(client, again.json()["table"]["id"], again.json()["token"], pick=i + 5)
            mine = client.get("/api/daily").json()
            four = next(g for g in mine["games"] if g["game"] == "foursquare")
            assert four["mine"]["table"] == table_id  # the first try is the one that counts
        today = day_of(NOON)
        board = client.get(f"/api/daily/foursquare/{today}").json()
        assert board["players"] == 3 and not board["over"] and board["best"] is None
        values = [p["result"] for p in board["places"]]
        assert values == sorted(values, reverse=True)
        assert board["places"][0]["beat"] >= board["places"][-1]["beat"]
        # today: no record, no replay, no watching of a daily deal
        table_id = results["Ana"]
        ana = client.get("/api/players/Ana").json()["recent"]
        counted = [r for r in ana if r.get("daily")]  # and the practice try, a casual one
        assert len(ana) == 2 and len(counted) == 1
        assert counted[0]["table"] == table_id and not counted[0]["replay"]
        for path in ("record", "replay"):
            got = client.get(f"/api/tables/{table_id}/matches/1/{path}")
            assert got.status_code == 403 and got.json()["error"]["code"] == "daily_secret"
        watcher = Player.__new__(Player)
        with pytest.raises(WebSocketDisconnect):
            Player.__init__(watcher, client, table_id, None)
        # and no deal number deals it: daily tables refuse numbers, numbered tables differ
        refused = client.post("/api/tables", json={"game": "foursquare", "name": "x",
                                                   "seats": [{"kind": "person"}],
                                                   "rated": True, "deal": 7})
        assert refused.status_code == 400
        # the next day: yesterday's records open, with its best to replay, and a streak
        clock[0] += DAY
        assert client.get(f"/api/tables/{table_id}/matches/1/record").status_code == 200
        daily = client.get("/api/daily").json()
        four = next(g for g in daily["games"] if g["game"] == "foursquare")
        assert four["yesterday"]["result"] == values[0]
        best = four["yesterday"]["table"]
        assert client.get(f"/api/tables/{best}/matches/1/replay").status_code == 200
        cy = client.get("/api/players/Cy").json()
        assert cy["streak"] == 1
        assert cy["recent"][0]["daily"] == today and cy["recent"][0]["replay"]
        assert client.get(f"/api/daily/foursquare/{today}").json()["over"]


def test_a_daily_deal_is_not_dealt_again_at_its_table(tmp_path):
    db = tmp_path / "again.sqlite3"
    with app_client(db, now=lambda: NOON) as client:
        signed_in(client, sign_up(db, "Ana", now=NOON, created=NOON - DAY)[1])
        res = client.post("/api/daily/foursquare", json={}).json()
        assert res["counted"]
        play_out(client, res["table"]["id"], res["token"])
        again = client.post(f"/api/tables/{res['table']['id']}/again",
                            headers={"Authorization": f"Bearer {res['token']}"})
        assert again.status_code == 409 and again.json()["error"]["code"] == "daily_once"


def test_bad_days_and_games_are_refused(tmp_path):
    with app_client(tmp_path / "bad.sqlite3", now=lambda: NOON) as client:
        assert client.get("/api/daily/foursquare/2026-13-01").status_code == 404
        assert client.get("/api/daily/foursquare/yesterday").status_code == 404
        assert client.get("/api/daily/chess/2026-12-01").status_code == 404
        assert client.post("/api/daily/chess", json={}).status_code == 404
        assert client.post("/api/daily/foursquare", json={"name": 5}).status_code == 400
        assert client.post("/api/daily/foursquare", json={"x": 1}).status_code == 400
        assert MAX_DEAL  # the numbered deals are a separate namespace (docs/players.md)


def test_a_result_reads_in_words_and_the_first_beats_nobody(tmp_path):
    """Alone on a day's board, a result beats no share of anybody (None: the page says
    nobody else has played it yet, not "beat 100% of the others"); each result comes in
    words in the reader's language ("1 penalty spade", not -1)."""
    db = tmp_path / "words.sqlite3"
    with app_client(db, now=lambda: NOON) as client:
        store = client.app.state.hub.store  # the server's own database
        with store.engine.begin() as conn:
            aid = conn.execute(insert(accounts_t).values(
                name="Ana", name_key="ana", password_hash="!", created=0.0)
            ).inserted_primary_key[0]
            conn.execute(insert(daily_t).values(day=day_of(NOON), game="clockwork-spades",
                                                account_id=aid, table_id="t1", started=0.0,
                                                result=-1.0, finished=1.0))
        url = f"/api/daily/clockwork-spades/{day_of(NOON)}"
        board = client.get(url).json()
        assert board["places"] == [{"rank": 1, "name": "Ana", "result": -1.0, "beat": None,
                                    "said": "1 penalty spade"}]
        pt = client.get(url, headers={"Accept-Language": "pt-BR"}).json()
        assert pt["places"][0]["said"] == "1 espada de castigo"


def test_a_crowded_day_ranks_everyone_and_lists_the_best_hundred(tmp_path):
    store = Store(db_url_for(tmp_path / "crowd.sqlite3"))
    day = day_of(NOON)
    scores = [i // 3 for i in range(150)]  # ties in threes
    try:
        with store.engine.begin() as conn:
            for i, score in enumerate(scores):
                aid = conn.execute(insert(accounts_t).values(
                    name=f"P{i:03}", name_key=f"p{i:03}", password_hash="!", created=0.0,
                    deleted=1.0 if i == 0 else None)).inserted_primary_key[0]
                conn.execute(insert(daily_t).values(day=day, game="spades", account_id=aid,
                                                    table_id=f"t{i}", started=0.0,
                                                    result=float(score), finished=float(i)))
        got = daily.board(store.engine, day, "spades", NOON)
        live = scores[1:]  # the deleted account is left out
        assert got["players"] == len(live) == daily.players(store.engine, day)["spades"]
        assert len(got["places"]) == daily.BOARD and got["best"] is None
        for place in got["places"]:
            mine = place["result"]
            assert place["rank"] == 1 + sum(x > mine for x in live)
            beaten = sum(x < mine for x in live) + 0.5 * (live.count(mine) - 1)
            assert place["beat"] == round(beaten / (len(live) - 1), 4)
        assert [p["name"] for p in got["places"][:3]] == ["P147", "P148", "P149"]
        best = daily.best(store.engine, day, "spades", NOON + DAY)
        assert best == {"table": "t147", "match": 1, "result": 49.0}
        assert daily.best(store.engine, day, "spades", NOON) is None  # not before it ends
    finally:
        store.close()
