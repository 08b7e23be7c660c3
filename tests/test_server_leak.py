"""No message to a seat ever carries a card of another seat's hand, nor the seed.

Many Spades matches are played through the server: two seats by websocket clients playing
random legal actions (each in its own thread), two by the server's rule bots, with a
spectator watching. Afterwards each match is replayed from the database's seed and log,
and every message each client received is checked against the true hands at the version
it was sent for.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading

from server_kit import CARD, Player, app_client, create, join, numbers, strings

from parlour.cards import card_text
from parlour.games import get_game

MATCHES = 20
SEATS = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "rule"},
         {"kind": "bot", "bot": "rule"}]


def play_out(player: Player, rng: random.Random) -> None:
    while True:
        msg = player.recv()
        if msg["type"] != "view":
            continue
        if msg["status"] == "finished":
            return
        view = msg["view"]
        if player.seat is not None and player.seat in view["to_act"] and view["legal"]:
            player.act(rng.choice(view["legal"]), msg["version"])


def truth(db, table_id: str) -> tuple[int, list[tuple[int, str]]]:
    with sqlite3.connect(db) as conn:
        seed = conn.execute("SELECT seed FROM parlour_matches WHERE table_id=? AND match=1",
                            (table_id,)).fetchone()[0]
        log = conn.execute("SELECT seat, action FROM parlour_actions WHERE table_id=? "
                           "AND match=1 ORDER BY idx", (table_id,)).fetchall()
    return seed, log


def test_no_message_leaks_another_seats_cards(tmp_path):
    db = tmp_path / "leak.sqlite3"
    game = get_game("spades")
    checked = 0
    with app_client(db) as client:
        for m in range(MATCHES):
            seat_a, seat_b = (0, 1) if m % 2 == 0 else (1, 2)
            layout = SEATS if m % 2 == 0 else [SEATS[2], SEATS[0], SEATS[1], SEATS[3]]
            res = create(client, layout, options={"target": 200, "max_deals": 3}, name="A",
                         seat=seat_a)
            tid = res["table"]["id"]
            b = join(client, tid, "B", seat_b)
            players = [Player(client, tid, res["token"]), Player(client, tid, b["token"]),
                       Player(client, tid, None)]
            threads = [threading.Thread(target=play_out, args=(p, random.Random(m * 10 + i)))
                       for i, p in enumerate(players)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
                assert not t.is_alive(), "a match did not finish"
            for p in players:
                p.close()
            seed, log = truth(db, tid)
            state = game.new(seed, 4, **res["table"]["options"])
            hands_at = [[card_text(c) for c in state.hand(s)] for s in range(4)]
            hands_by_version = [hands_at]
            for seat, text in log:
                state.apply(state.parse_action(text), seat)
                hands_by_version.append([[card_text(c) for c in state.hand(s)]
                                         for s in range(4)])
            assert state.is_over
            for p in players:
                for msg in p.messages:
                    assert seed not in numbers(msg), "the seed was sent to a client"
                    text = json.dumps(msg)
                    assert "seed" not in text.lower() and "token" not in text.lower()
                    if msg["type"] != "view":
                        continue
                    view, version = msg["view"], msg["version"]
                    assert view["seat"] == p.seat, "a seat was sent someone else's view"
                    hands = hands_by_version[version]
                    hidden = {c for s in range(4) if s != p.seat for c in hands[s]}
                    current = dict(view)
                    if view["last_trick"] and view["last_trick"]["deal"] != view["deal"]:
                        current.pop("last_trick")  # cards of a finished deal, all public
                    seen = {c for s in strings(current) for c in CARD.findall(s)}
                    leaked = seen & hidden
                    assert not leaked, f"seat {p.seat} was shown {leaked} at version {version}"
                    if p.seat is not None:
                        assert view["hand"] == sorted_hand(hands[p.seat], view["hand"])
                    checked += 1
    assert checked > MATCHES * 200


def sorted_hand(truth_hand: list[str], shown: list[str] | None) -> list[str] | None:
    """The true hand in the order shown (the view's order is the engine's own)."""
    if shown is None:
        return None
    assert sorted(truth_hand) == sorted(shown)
    return shown
