"""No message to a seat ever carries a card of another seat's hand, nor the seed.

All five games: Spades, Spite & Malice, Clockwork Spades and Hit the Deck matches are played
through the server: seats held by websocket clients playing random legal actions (each in its own
thread), the others by the server's rule bots, with a spectator watching. Afterwards each
match is replayed from the database's seed and log, and every message each client received
is checked against the true hands at the version it was sent for (for Hit the Deck also
the pile order and the other seats' pending slap times, by a stronger check: every view is
compared with the engine's, and with a determinization's, at the version it was sent for).
Foursquare, a solitaire, has one secret, the order of the stock: no message names a stock
card before it is drawn, and every view equals a determinization's (the stock reshuffled).
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter

import pytest
from server_kit import (
    CARD,
    Player,
    app_client,
    assert_no_secret,
    create,
    join,
    seed_and_log,
    seed_of,
    strings,
)
from soak import soak
from waits import Deadline, joined

from parlour.cards import card_text
from parlour.games import get_game
from parlour.i18n import localize

# What a message shows does not depend on the database: PostgreSQL's runs are make
# test-long's (tests/conftest.py).
pytestmark = pytest.mark.long_on("postgresql")

MATCH_WITHIN = 120.0  # seconds a client waits for its match to finish
SEATS = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "rule"},
         {"kind": "bot", "bot": "rule"}]


def play_out(player: Player, rng: random.Random) -> None:
    deadline = Deadline("the match to finish", MATCH_WITHIN)
    while True:
        msg = player.recv(deadline)
        if msg["type"] != "view":
            continue
        if msg["status"] == "finished":
            return
        view = msg["view"]
        if player.seat is not None and player.seat in view["to_act"] and view["legal"]:
            player.act(rng.choice(view["legal"]), msg["version"])


def play_all(players: list[Player], play, seed: int) -> None:
    """Each player plays in its own thread (``play(player, rng)``) until the match ends;
    then every connection is closed."""
    failed: list[BaseException] = []

    def run(player: Player, rng: random.Random) -> None:
        try:
            play(player, rng)
        except BaseException as err:  # told by the test's own thread, below
            failed.append(err)

    threads = [threading.Thread(target=run, args=(p, random.Random(seed * 10 + i)))
               for i, p in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        joined(t, "a client's thread to see the match finish", MATCH_WITHIN + 10)
    if failed:
        raise failed[0]
    for p in players:
        p.close()


@pytest.mark.parametrize("matches", soak(6, 20))
def test_no_message_leaks_another_seats_cards(tmp_path, matches):
    db = tmp_path / "leak.sqlite3"
    game = get_game("spades")
    checked = 0
    with app_client(db) as client:
        for m in range(matches):
            seat_a, seat_b = (0, 1) if m % 2 == 0 else (1, 2)
            layout = SEATS if m % 2 == 0 else [SEATS[2], SEATS[0], SEATS[1], SEATS[3]]
            res = create(client, layout, options={"target": 200, "max_deals": 3}, name="A",
                         seat=seat_a)
            tid = res["table"]["id"]
            b = join(client, tid, "B", seat_b)
            players = [Player(client, tid, res["token"]), Player(client, tid, b["token"]),
                       Player(client, tid, None)]
            play_all(players, play_out, m)
            seed, log = seed_and_log(db, tid)
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
                    assert_no_secret(msg, seed, [p.token for p in players])
                    text = json.dumps(msg)
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
    assert checked > matches * 200


def sorted_hand(truth_hand: list[str], shown: list[str] | None) -> list[str] | None:
    """The true hand in the order shown (the view's order is the engine's own)."""
    if shown is None:
        return None
    assert sorted(truth_hand) == sorted(shown)
    return shown


# ----------------------------------------------------------------------------- two-seat games
# Spite & Malice plays with two decks, so a face can be public (on a centre or side pile, a
# payoff top, in the log) while its twin lies in the other hand or the stock. Two checks
# cover that: the faces a message shows about the table now never outnumber the copies in
# public places, and each view equals the view of a determinization (every card the seat
# has not seen dealt again at random), so no field depends on a hidden card.
JOKER = re.compile(r"\bJoker\b")


def play_match(client, game: str, layout: list[dict], options: dict, seed: int
               ) -> tuple[list[Player], dict]:
    people = [i for i, s in enumerate(layout) if s["kind"] == "person"]
    res = client.post("/api/tables", json={"game": game, "seats": layout, "options": options,
                                           "name": "A", "seat": people[0]})
    assert res.status_code == 201, res.text
    tid = res.json()["table"]["id"]
    tokens = [res.json()["token"]] + [join(client, tid, f"P{s}", s)["token"]
                                      for s in people[1:]]
    players = [Player(client, tid, t) for t in tokens] + [Player(client, tid, None)]
    play_all(players, play_out, seed)
    return players, res.json()["table"]


def states_by_version(game_id: str, db, table: dict) -> list:
    game = get_game(game_id)
    seed, log = seed_and_log(db, table["id"])
    state = game.new(seed, len(table["seats"]), **table["options"])
    states = [state.clone()]
    for seat, text in log:
        state.apply(state.parse_action(text), seat)
        states.append(state.clone())
    assert state.is_over
    return states


def faces(obj) -> Counter:
    found: Counter = Counter()
    for s in strings(obj):
        found.update(CARD.findall(s))
        found.update(JOKER.findall(s))
    return found


def check_view_is_determinized_view(state, seat, view, rng) -> None:
    """The view the seat got equals the view of a world redealt from what it knows."""
    assert view == localize(state.determinize(seat, rng).view(seat), "en"), \
        f"seat {seat}'s view depends on cards it has not seen"


def test_spite_and_malice_messages_show_no_hidden_card(tmp_path):
    from parlour.games.spite_and_malice.rules import EMPTY, face_text

    db = tmp_path / "leak-snm.sqlite3"
    person, bot = {"kind": "person"}, {"kind": "bot", "bot": "rule"}
    checked = 0
    rng = random.Random(5)
    with app_client(db) as client:
        for m in range(4):
            layout = [person, person] if m % 2 == 0 else [bot, person] if m == 1 else \
                [person, bot]
            options = {"payoff_size": 5, "target": 5, "max_rounds": 2, "max_turns": 60,
                       "jokers": 2 if m >= 2 else 0, "king_starts": m == 3}
            players, table = play_match(client, "spite-and-malice", layout, options, m)
            states = states_by_version("spite-and-malice", db, table)
            for p in players:
                for msg in p.messages:
                    if msg["type"] != "view":
                        assert not faces(msg), f"a {msg['type']} message names a card"
                        continue
                    state, view, seat = states[msg["version"]], msg["view"], p.seat
                    assert view["seat"] == seat
                    public: Counter = Counter()
                    for pile in state.centre:
                        public.update(face_text(f) for f in pile)
                    for s in (0, 1):
                        for pile in state.side[s]:
                            public.update(face_text(f) for f in pile)
                        if state.payoff[s]:
                            public[face_text(state.payoff[s][-1])] += 1
                    if seat is not None:
                        public.update(face_text(f) for f in state.hands[seat] if f != EMPTY)
                        assert view["hand"] == [None if f == EMPTY else face_text(f)
                                                for f in state.hands[seat]]
                    now = {k: v for k, v in msg.items() if k != "view"} | {
                        "view": {k: v for k, v in view.items() if k not in ("log", "rounds")}}
                    shown = faces(now)
                    over = {f: n for f, n in shown.items() if n > public[f]}
                    assert not over, f"seat {seat} was shown hidden copies {over} at " \
                                     f"version {msg['version']}"
                    check_view_is_determinized_view(state, seat, view, rng)
                    checked += 1
    assert checked > 400


def test_clockwork_spades_messages_show_no_hidden_card(tmp_path):
    from parlour.games.clockwork_spades.rules import KING_OF_SPADES

    db = tmp_path / "leak-cw.sqlite3"
    person, bot = {"kind": "person"}, {"kind": "bot", "bot": "rule"}
    checked = told = 0
    rng = random.Random(7)
    with app_client(db) as client:
        for m in range(12):
            layout = [[person, person], [person, bot], [bot, person]][m % 3]
            players, table = play_match(client, "clockwork-spades", layout, {}, m)
            states = states_by_version("clockwork-spades", db, table)
            for p in players:
                for msg in p.messages:
                    if msg["type"] != "view":
                        continue
                    state, view, seat = states[msg["version"]], msg["view"], p.seat
                    assert view["seat"] == seat
                    hidden = {card_text(c) for c in state.stock if c != KING_OF_SPADES}
                    for s in (0, 1):
                        if s != seat:
                            hidden |= {card_text(c) for c in state.hands[s]}
                    leaked = set(faces(msg)) & hidden
                    assert not leaked, f"seat {seat} was shown {leaked} at {msg['version']}"
                    if seat is not None:
                        assert sorted(view["hand"]) == sorted(card_text(c)
                                                              for c in state.hands[seat])
                    check_view_is_determinized_view(state, seat, view, rng)
                    told += len(msg.get("narration") or ())
                    checked += 1
    assert checked > 50 and told > checked


# ----------------------------------------------------------------------------- Hit the Deck
HTD_MATCHES = 4
HTD_OPTIONS = {"target": 25, "hand_size": 5, "hit_hands": 10}
HTD_CARD = re.compile(r"\b(?:[RYGB][1-5]|[RYGB] (?:cut|flip)|hit (?:[1-5RYGB]|hand))\b")
TIMED_KEYS = {"phase", "name", "window_ms"}


def play_out_htd(player: Player, rng: random.Random) -> None:
    """Random legal moves; a slap (``react``) after a short random pause."""
    reacted = None
    deadline = Deadline("the match to finish", MATCH_WITHIN)
    while True:
        msg = player.recv(deadline)
        if msg["type"] != "view":
            continue
        if msg["status"] == "finished":
            return
        view = msg["view"]
        if player.seat is None or player.seat not in view["to_act"]:
            continue
        timed = msg.get("timed")
        if timed is not None:
            if reacted != timed["phase"]:
                reacted = timed["phase"]
                time.sleep(rng.random() * 0.12)
                player.send({"type": "react", "phase": timed["phase"]})
        elif view["legal"]:
            player.act(rng.choice(view["legal"]), msg["version"])


def test_hit_the_deck_messages_hold_nothing_a_seat_may_not_see(tmp_path):
    """Hit the Deck through the server: people (random moves and slaps), rule bots and a
    spectator. Every view a client got is exactly the engine's view for its seat at that
    version, and the same view a determinization gives (other hands, the pile order and
    other seats' pending slaps redealt), so it depends on nothing the seat may not know;
    no other message names a card at all."""
    db = tmp_path / "leak-htd.sqlite3"
    game = get_game("hit-the-deck")
    checked = slap_views = 0
    with app_client(db) as client:
        for m in range(HTD_MATCHES):
            n = 3 + m % 3
            people = (0, 1) if m % 2 == 0 else (1, n - 1)
            layout = [{"kind": "person"} if s in people else {"kind": "bot", "bot": "rule"}
                      for s in range(n)]
            res = create(client, layout, options=HTD_OPTIONS, name="A", seat=people[0],
                         game="hit-the-deck")
            tid = res["table"]["id"]
            b = join(client, tid, "B", people[1])
            players = [Player(client, tid, res["token"]), Player(client, tid, b["token"]),
                       Player(client, tid, None)]
            play_all(players, play_out_htd, m)
            seed, log = seed_and_log(db, tid)
            wanted: dict[int, list[tuple[Player, dict]]] = {}
            for p in players:
                for msg in p.messages:
                    assert_no_secret(msg, seed, [p.token for p in players])
                    text = json.dumps(msg)
                    if msg["type"] == "view":
                        wanted.setdefault(msg["version"], []).append((p, msg))
                    else:
                        assert msg["type"] in ("welcome", "table", "error", "pong"), msg
                        assert not HTD_CARD.search(text), f"a card in {msg}"
            state = game.new(seed, n, **res["table"]["options"])
            rng = random.Random(m)
            for version in range(len(log) + 1):
                for p, msg in wanted.get(version, ()):
                    view = msg["view"]
                    assert view["seat"] == p.seat, "a seat was sent someone else's view"
                    # the engine's view, its messages (why_not) in the client's language
                    assert view == localize(state.view(p.seat), "en"), \
                        f"not the engine's view at {version}"
                    blind = state.determinize(p.seat, random.Random(rng.random()))
                    assert view == localize(blind.view(p.seat), "en"), \
                        "the view depends on hidden facts"
                    timed = msg.get("timed")
                    assert (timed is not None) == (state.reaction() is not None)
                    if timed is not None:
                        # a view sent after the signal also says the time left (public)
                        assert set(timed) - {"remaining_ms"} == TIMED_KEYS \
                            and timed["window_ms"] == 3000
                        assert 0 <= timed.get("remaining_ms", 0) <= 3000
                        slap_views += 1
                        if p.seat is not None and view["slap"]["mine"] is not None:
                            assert p.seat not in view["to_act"]
                    checked += 1
                if version < len(log):
                    seat, action = log[version]
                    state.apply(state.parse_action(action), seat)
            assert state.is_over
    # Clients may skip versions when actions come fast (a view carries the latest state),
    # so how many views arrive depends on the machine's load: the bound only makes sure
    # the test saw whole matches, slaps included.
    assert checked > HTD_MATCHES * 50 and slap_views > HTD_MATCHES * 5, (checked, slap_views)


# ----------------------------------------------------------------------------- Foursquare
def test_foursquare_messages_name_no_stock_card_before_it_is_drawn(tmp_path):
    """Foursquare through the server: a person placing at random (with a spectator), and
    the solver bot watched by a spectator, under both flip readings. Every view is the
    engine's at its version and a determinization's (the stock below the card in hand
    reshuffled), so it depends on nothing unseen; no message names a card of the stock
    before it is drawn, nor carries the seed."""
    db = tmp_path / "leak-fs.sqlite3"
    game = get_game("foursquare")
    checked = 0
    with app_client(db) as client:
        for m in range(8):
            options = {"flip": "seed" if m % 2 else "designer"}
            if m < 6:
                players, table = play_match(client, "foursquare", [{"kind": "person"}],
                                            options, m)
            else:
                res = client.post("/api/tables", json={
                    "game": "foursquare", "options": options,
                    "seats": [{"kind": "bot", "bot": "solver:fast"}]})
                assert res.status_code == 201, res.text
                table = res.json()["table"]
                watcher = Player(client, table["id"], None)
                play_out(watcher, random.Random(m))
                watcher.close()
                players = [watcher]
            seed = seed_of(db, table["id"])
            states = states_by_version("foursquare", db, table)
            order = [card_text(c) for c in states[0].deal()]
            rng = random.Random(m)
            for p in players:
                for msg in p.messages:
                    assert_no_secret(msg, seed, [p.token for p in players])
                    text = json.dumps(msg)
                    named = set(CARD.findall(text))
                    if msg["type"] != "view":
                        assert not named, f"a {msg['type']} message names a card"
                        continue
                    state, view = states[msg["version"]], msg["view"]
                    drawn = set(order[:min(40, msg["version"] + 1)])
                    assert named <= drawn, f"{named - drawn} named before it was drawn"
                    assert view["seat"] == p.seat
                    assert view == state.view(p.seat), "not the engine's view"
                    assert view == state.determinize(p.seat, rng).view(p.seat), \
                        "the view depends on the order of the stock"
                    assert len(msg.get("narration") or ()) == len(view["events"])
                    checked += 1
            assert game.new(seed, 1, **table["options"]).deal() == states[0].deal()
    assert checked > 60, checked
