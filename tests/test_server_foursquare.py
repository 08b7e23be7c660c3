"""Foursquare through the server: deals by number (the same number, the same deal, on this
server and after a restart; the number and the messages tell nothing of the stock), and
hints from the solver over the websocket."""

from __future__ import annotations

import json

from server_kit import CARD, Player, app_client, assert_no_secret, create, numbers, seed_of

from parlour.cards import card_text
from parlour.games import get_game
from parlour.games.foursquare.rules import deal_order
from parlour.server.play.match import MAX_DEAL

ME = [{"kind": "person"}]


def play_first_legal(client, deal: int | None, moves: int = 40) -> tuple[dict, list[dict]]:
    """A table dealt ``deal``, played by always taking the first legal placement; returns
    its summary and every message the player got."""
    res = create(client, ME, game="foursquare", **({} if deal is None else {"deal": deal}))
    p = Player(client, res["table"]["id"], res["token"])
    try:
        msg = p.view()
        for _ in range(moves):
            if msg["status"] == "finished":
                break
            p.act(msg["view"]["legal"][0])
            msg = p.view()
    finally:
        p.close()
    return res["table"], p.messages


def create(client, seats, game, deal=None, **kw):  # noqa: F811 (adds the deal number)
    body = {"game": game, "options": {}, "seats": seats, "name": "Ann", "seat": None}
    if deal is not None:
        body["deal"] = deal
    res = client.post("/api/tables", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def views(messages: list[dict]) -> list[dict]:
    return [m["view"] for m in messages if m["type"] == "view"]


def test_the_same_deal_number_deals_the_same_game_on_this_server_and_after_a_restart(tmp_path):
    db = tmp_path / "deals.sqlite3"
    with app_client(db) as client:
        a, seen_a = play_first_legal(client, 4242)
        b, seen_b = play_first_legal(client, 4242)
        c, _ = play_first_legal(client, 4243, moves=1)
        assert a["deal"] == b["deal"] == 4242 and c["deal"] == 4243
        assert views(seen_a) == views(seen_b) and len(views(seen_a)) > 5
        assert seed_of(db, a["id"]) == seed_of(db, b["id"]) != seed_of(db, c["id"])
        assert seen_a[-1]["status"] == "finished"  # 40 placements at most: a whole game
        replay = client.get(f"/api/tables/{a['id']}/matches/1/replay?step=1&seat=0").json()
        assert replay["deal"] == 4242 and replay["narration"][0].startswith("Ann (guest) places")
        # the step's move in words, its card as a code the page draws as a chip
        first = views(seen_a)[0]["card"]
        assert replay["action"] == {"seat": 0, "text": "place at d4",
                                    "words": f"placing {first} at d4, a new pile"}
        pt = client.get(f"/api/tables/{a['id']}/matches/1/replay?step=1",
                        headers={"Accept-Language": "pt-BR"}).json()
        assert pt["action"]["words"] == f"pôr {first} em d4, formando uma pilha nova"
        random_deal, _ = play_first_legal(client, None, moves=1)
        assert 1 <= random_deal["deal"] <= MAX_DEAL
    with app_client(db) as client:  # a restarted server keeps its deal key
        again, seen_again = play_first_legal(client, 4242)
        assert views(seen_again) == views(seen_a)
        assert seed_of(db, again["id"]) == seed_of(db, a["id"])
    with app_client(tmp_path / "other.sqlite3") as client:  # another server, another key
        other, _ = play_first_legal(client, 4242, moves=1)
        assert seed_of(tmp_path / "other.sqlite3", other["id"]) != seed_of(db, a["id"])


def test_no_message_carries_the_seed_or_a_card_of_the_stock_before_it_is_drawn(tmp_path):
    db = tmp_path / "secret.sqlite3"
    game = get_game("foursquare")
    with app_client(db) as client:
        for deal in (7, 99_999, None):
            table, messages = play_first_legal(client, deal)
            seed = seed_of(db, table["id"])
            order = [card_text(c) for c in deal_order(seed)]
            state = game.new(seed)
            assert [card_text(c) for c in state.deal()] == order
            for msg in messages:
                text = json.dumps(msg)
                assert_no_secret(msg, seed)
                named = set(CARD.findall(text))
                if msg["type"] != "view":
                    assert not named, f"a {msg['type']} message names a card"
                    continue
                drawn = set(order[:msg["version"] + 1])  # placed, and the card in hand
                assert named <= drawn, f"{named - drawn} named before it was drawn"
            # the table's summary (deal number included) is all the lobby shows
            listed = client.get(f"/api/tables/{table['id']}").json()["table"]
            assert seed not in numbers(listed) and not CARD.findall(json.dumps(listed))


def test_deal_numbers_are_checked(tmp_path):
    with app_client(tmp_path / "bad.sqlite3") as client:
        for deal in (0, -3, MAX_DEAL + 1, "twelve", 2.5):
            res = client.post("/api/tables", json={"game": "foursquare", "seats": ME,
                                                   "name": "Ann", "deal": deal})
            assert res.status_code in (400, 422) and "error" in res.json(), (deal, res.text)
        res = client.post("/api/tables", json={"game": "spades", "name": "Ann", "deal": 5,
                                               "seats": [{"kind": "bot", "bot": "rule"}] * 4})
        assert res.status_code == 400
        assert res.json()["error"] == {"code": "bad_deal",
                                       "message": "Spades is not dealt by number"}
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games["foursquare"]["deals"] == MAX_DEAL and games["spades"]["deals"] is None
        assert games["foursquare"]["hints"] is True and games["spades"]["hints"] is True


def test_a_hint_is_the_solvers_choice_from_the_seats_view_only(tmp_path):
    with app_client(tmp_path / "hint.sqlite3") as client:
        res = create(client, ME, game="foursquare", deal=31)
        tid = res["table"]["id"]
        p = Player(client, tid, res["token"])
        watcher = Player(client, tid, None)
        try:
            msg = p.view()
            p.act(msg["view"]["legal"][0])  # d4: the first card has one place
            msg = p.view()
            p.send({"type": "hint", "version": msg["version"]})
            answer = p.recv_until(lambda m: m["type"] in ("hint", "error"),
                                  "the hint or its refusal")
            assert answer["type"] == "hint", answer
            assert answer["action"] in msg["view"]["legal"]
            assert answer["version"] == msg["version"] and answer["match"] == 1
            assert 0.0 <= answer["chance"] <= 1.0 and "chance" in answer["unit"]
            assert next(iter(answer["values"])) == answer["action"]
            assert answer["values"][answer["action"]] == answer["chance"]
            # the move in words, from the seat's view: the card in hand and where it goes
            verb, cell = answer["action"].split()[0], answer["action"].split()[-1]
            card = msg["view"]["card"]
            assert answer["words"] == (f"placing {card} at {cell}, a new pile" if verb == "place"
                                       else f"stacking {card} on {cell}")
            ana = Player(client, tid, res["token"], lang="id")  # the seat on a second device
            ana.send({"type": "hint", "version": msg["version"]})
            said = ana.recv_until(lambda m: m["type"] == "hint", "the hint on the second device")
            assert said["action"] == answer["action"]
            assert said["words"] == (f"meletakkan {card} di {cell}, tumpukan baru"
                                     if verb == "place" else f"menumpuk {card} di {cell}")
            ana.close()
            # the same question again gets the same answer; a stale one gets the view
            p.send({"type": "hint"})
            assert p.recv_until(lambda m: m["type"] == "hint", "the same hint again") == answer
            p.send({"type": "hint", "version": 0})
            assert p.error()["code"] == "stale"
            watcher.view()
            watcher.send({"type": "hint"})
            err = watcher.error()
            assert err["code"] == "spectator" and "hint" in err["message"]
            p.send({"type": "hint", "seat": 0})
            assert p.error()["code"] == "bad_message"
            for m in p.messages + watcher.messages:
                assert seed_of(tmp_path / "hint.sqlite3", tid) not in numbers(m)
        finally:
            p.close()
            watcher.close()


def test_no_hints_at_a_table_that_turned_them_off(tmp_path):
    with app_client(tmp_path / "nohint.sqlite3") as client:
        seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3
        res = client.post("/api/tables", json={"game": "spades", "seats": seats,
                                               "name": "Ann", "hints": False}).json()
        assert res["table"]["hints"] is False
        p = Player(client, res["table"]["id"], res["token"])
        try:
            p.view()
            p.send({"type": "hint"})
            err = p.error()
            assert err == {"type": "error", "code": "no_hint",
                           "message": "this table gives no hints"}
        finally:
            p.close()
