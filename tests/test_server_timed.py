"""Timed phases are timed by the server: the slap of Hit the Deck.

The seed is fixed (``Settings.new_seed``) so that seat 0 plays first and holds a With a
Hand: its first move opens the slap. Every client gets the same signal at once (one phase
id); a person's ``react`` is timed by the server from the moment the signal went out to
the moment the react came in; a seat silent for the whole window gets the slowest slap; a
client cannot claim a time, cannot slap twice, and a spectator cannot slap at all; bots
slap at their own seeded times; a slap in progress survives a restart.
"""

from __future__ import annotations

import json
import random
import time
from contextlib import contextmanager, suppress

import pytest
from server_kit import Player, app_client, create, join

from parlour.bots import make_bot, observe_for
from parlour.engine import derive_seed
from parlour.games import get_game
from parlour.server.play.clock import ReactionClock

# The subject is the server's timing, not the database: PostgreSQL in make test-long only.
pytestmark = pytest.mark.long_on("postgresql")

SEED = 0  # seat 0 holds a With a Hand and plays first (checked below)
OPTIONS = {"hand_size": 3, "hit_hands": 8, "target": 1}
PERSON = {"kind": "person"}
RULE = {"kind": "bot", "bot": "rule"}
WINDOW = 3.0
GAME = get_game("hit-the-deck")


def test_the_seed_opens_with_a_with_a_hand():
    state = GAME.new(SEED, 2, **OPTIONS)
    assert state.to_act == (0,) and "hit hand!" in state.view(0)["legal"]


OPEN: list[Player] = []  # closed after each test, failed or not (else the app waits)


def close_all() -> None:
    while OPEN:
        with suppress(Exception):
            OPEN.pop().close()


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "timed.sqlite3", new_seed=lambda: SEED) as c:
        try:
            yield c
        finally:
            close_all()


@contextmanager
def closing():
    try:
        yield
    finally:
        close_all()


def connect(client, tid, token):
    player = Player(client, tid, token)
    OPEN.append(player)
    return player


def seat_table(client, seats, options=None):
    """A Hit the Deck table; a connected Player for each person seat (by seat)."""
    res = create(client, seats, options=options or OPTIONS, name="P0", seat=0,
                 game="hit-the-deck")
    tid = res["table"]["id"]
    tokens = {0: res["token"]}
    for s, spec in enumerate(seats):
        if spec["kind"] == "person" and s:
            tokens[s] = join(client, tid, f"P{s}", s)["token"]
    players = {s: connect(client, tid, t) for s, t in tokens.items()}
    for p in players.values():
        p.view()
    return tid, players, tokens


def open_slap(players, window_ms=3000):
    """Seat 0 plays its With a Hand, with the shout; every player gets the signal (which
    gives the window's length on the wall clock, ``window_ms``). Returns the ``timed`` part
    of the view and, per seat, when its player saw the signal (``sent``: when seat 0 sent
    its play, surely before the server's signal)."""
    seen = {"sent": time.monotonic()}
    players[0].act("hit hand!")
    timed = None
    for s, p in players.items():
        msg = p.recv_until(lambda m: m["type"] == "view" and "timed" in m,
                           "the view that opens the slap")
        seen[s] = time.monotonic()
        assert msg["view"]["phase"] == "slap"
        assert timed in (None, msg["timed"]), "every client gets the same signal"
        timed = msg["timed"]
    assert timed["name"] == "slap" and timed["window_ms"] == window_ms
    assert len(timed["phase"]) >= 12
    return timed, seen


def react(player, timed, at=None):
    if at is not None:
        time.sleep(max(0.0, at - time.monotonic()))
    player.send({"type": "react", "phase": timed["phase"]})


def resolved(player):
    return player.recv_until(lambda m: m["type"] == "view" and m["view"]["last_slap"]
                             is not None, "the view that shows the last slap")["view"]


def logged(client, tid):
    """The table's action log, as the database holds it."""
    return [tuple(row) for row in client.app.state.hub.store.load_actions(tid, 1)]


def test_a_slap_is_timed_by_the_server_from_its_signal(client):
    tid, players, _ = seat_table(client, [PERSON, PERSON])
    timed, seen = open_slap(players)
    react(players[0], timed, seen[0] + 0.25)
    mine = players[0].recv_until(lambda m: m["type"] == "view" and m["view"]["to_act"] == [1],
                                 "seat 0's view of the slap's end (seat 1 to play)")
    other = players[1].recv_until(lambda m: m["type"] == "view" and m["view"]["to_act"] == [1],
                                  "seat 1's view of the slap's end (seat 1 to play)")
    first = mine["view"]["slap"]["mine"]
    assert 250 <= first < 2000, "seat 0 sees its own measured time"
    assert other["view"]["slap"]["mine"] is None and other["view"]["last_slap"] is None
    shown = {k: v for k, v in other["view"].items() if k != "legal"}  # its own 300 slaps
    assert f"{first}" not in json.dumps(shown["slap"]) and "ms" not in json.dumps(shown["events"])
    react(players[1], timed, seen[1] + 0.8)
    last = resolved(players[1])["last_slap"]
    assert last["ms"][0] == first and last["ms"][1] >= 800 and last["ms"][1] < 2990
    assert last["slowest"] == 1 and last["cards"] == 4
    assert resolved(players[0])["hand_sizes"][1] == 3 + 4
    slaps = [(s, a) for s, a in logged(client, tid) if a.startswith("slap")]
    assert slaps == [(0, f"slap {first}ms"), (1, f"slap {last['ms'][1]}ms")]


def test_a_reconnecting_slapper_gets_the_time_left_and_its_clock_runs_from_the_signal(
        client):
    """Issue 30 item 8 (docs/protocol.md, Timed phases 7): a sync or a new connection during
    a slap gets the same phase with ``remaining_ms``, the window's time left; its slap is
    still timed from the signal, not from the reconnection."""
    tid, players, tokens = seat_table(client, [PERSON, PERSON])
    timed, seen = open_slap(players)
    assert "remaining_ms" not in timed  # the signal itself: the whole window
    time.sleep(max(0.0, seen[1] + 0.3 - time.monotonic()))
    players[1].send({"type": "sync"})
    synced = players[1].recv_until(lambda m: m["type"] == "view", "the view after a sync")
    assert synced["timed"]["phase"] == timed["phase"]
    assert 0 < synced["timed"]["remaining_ms"] <= 2700
    players[1].close()
    again = connect(client, tid, tokens[1])
    view = again.view()
    assert view["timed"]["phase"] == timed["phase"]
    assert view["timed"]["remaining_ms"] <= synced["timed"]["remaining_ms"]
    react(again, timed)
    react(players[0], timed)
    last = resolved(again)["last_slap"]
    assert last["ms"][1] >= 300  # from the signal: the time away counts


def test_a_seat_silent_for_the_window_slaps_slowest(client):
    tid, players, _ = seat_table(client, [PERSON, PERSON])
    timed, seen = open_slap(players)
    react(players[0], timed)
    view = resolved(players[1])
    waited = time.monotonic() - seen[1]
    assert WINDOW - 0.2 <= waited < WINDOW + 2.0, waited
    last = view["last_slap"]
    assert last["ms"][1] == 2990 and last["slowest"] == 1 and last["ms"][0] < 2000
    assert view["hand_sizes"][1] == 3 + 4 and len(view["hand"]) == 7
    assert (1, "slap 2990ms") in logged(client, tid)


def test_a_client_cannot_claim_its_own_time(client):
    _, players, _ = seat_table(client, [PERSON, PERSON])
    timed, seen = open_slap(players)
    version = players[0].last["version"]
    players[0].act("slap 0ms")
    err = players[0].error()
    assert err["code"] == "timed" and "server times the slap" in err["message"]
    players[0].send({"type": "react", "phase": timed["phase"], "ms": 0})
    err = players[0].error()
    assert err["code"] == "bad_message" and "no field 'ms'" in err["message"]
    assert players[0].sync()["version"] == version, "nothing changed"
    react(players[1], timed)
    react(players[0], timed, seen[0] + 0.3)
    last = resolved(players[0])["last_slap"]
    assert last["ms"][0] >= 300, "the server's measure, not the claimed 0 ms"
    assert last["slowest"] == 0


def test_one_slap_each_and_only_for_the_phase_open(client):
    tid, players, _ = seat_table(client, [PERSON, PERSON])
    players[0].send({"type": "react", "phase": "nothing-open"})
    assert players[0].error()["code"] == "no_reaction"
    timed, _ = open_slap(players)
    players[0].send({"type": "react", "phase": "x" * 12})
    err = players[0].error()
    assert err["code"] == "wrong_phase" and "not the slap now open" in err["message"]
    players[0].send({"type": "react", "phase": "x" * 40})
    assert players[0].error()["code"] == "wrong_phase"
    react(players[0], timed)
    version = players[0].recv_until(lambda m: m["type"] == "view" and m["view"]["to_act"]
                                    == [1],
                                    "the view of the slap's end (seat 1 to play)")["version"]
    react(players[0], timed)
    err = players[0].error()
    assert err["code"] == "answered" and "one slap each" in err["message"]
    assert players[0].sync()["version"] == version
    react(players[1], timed)
    resolved(players[1])
    react(players[1], timed)  # the phase is over
    assert players[1].error()["code"] == "no_reaction"
    slaps = [s for s, a in logged(client, tid) if a.startswith("slap")]
    assert slaps == [0, 1]


def test_a_spectator_cannot_slap(client):
    tid, players, _ = seat_table(client, [PERSON, PERSON])
    watcher = connect(client, tid, None)
    watcher.view()
    timed, _ = open_slap(players)
    msg = watcher.recv_until(lambda m: m["type"] == "view" and "timed" in m,
                             "the spectator's view that opens the slap")
    assert msg["timed"] == timed, "spectators get the signal too"
    watcher.send({"type": "react", "phase": timed["phase"]})
    assert watcher.error()["code"] == "spectator"
    watcher.act("slap 0ms")
    assert watcher.error()["code"] == "spectator"
    assert players[0].sync()["view"]["to_act"] == [0, 1]


def test_bots_slap_at_their_seeded_times_and_the_record_keeps_them(client):
    tid, players, _ = seat_table(client, [PERSON, RULE, RULE])
    timed, seen = open_slap(players)
    react(players[0], timed)
    left = {}
    while len(left) < 2:
        msg = players[0].recv_until(lambda m: m["type"] == "view", "a view")
        for s in (1, 2):
            if s not in left and s not in msg["view"]["to_act"]:
                left[s] = time.monotonic() - seen["sent"]
    slaps = dict((s, a) for s, a in logged(client, tid) if a.startswith("slap"))
    state = GAME.new(SEED, 3, **OPTIONS)
    state.apply(GAME.parse_action("hit hand!"), 0)
    for s in (1, 2):
        bot = make_bot(GAME, "rule", s, derive_seed(SEED, "bot", s))
        chosen = bot.act(observe_for(bot, state, s, random.Random(0)))
        assert slaps[s] == GAME.action_text(chosen), "the record holds the bot's own time"
        ms = int(slaps[s].split()[1].removesuffix("ms"))
        assert left[s] >= ms / 1000, f"bot {s} slapped before its time ({left[s]})"


def test_a_slowed_clock_stretches_the_window_and_divides_the_times(tmp_path):
    """``reaction_slowdown`` (a test server's setting, so that slow pages on a loaded machine
    still answer inside the window): at 2, the window lasts 6 s on the wall clock, a person's
    time is half the wall's, and a bot slaps at twice its chosen time."""
    with app_client(tmp_path / "slow.sqlite3", new_seed=lambda: SEED,
                    reaction_slowdown=2.0) as client, closing():
        tid, players, _ = seat_table(client, [PERSON, PERSON, RULE])
        timed, seen = open_slap(players, window_ms=6000)
        react(players[0], timed, seen[0] + 0.3)
        bot_left = None
        while bot_left is None:
            msg = players[0].recv_until(lambda m: m["type"] == "view", "a view")
            if 2 not in msg["view"]["to_act"]:
                bot_left = time.monotonic() - seen["sent"]
        react(players[1], timed, seen[1] + 3.3)  # past the rules' 3 s, inside the 6 s
        last = resolved(players[1])["last_slap"]
        assert 150 <= last["ms"][0] < 1500, last
        # its own slap, at half its wall time (a loaded machine may add up to 2.6 s)
        assert 1650 <= last["ms"][1] < 2990, last
        assert last["slowest"] == 1
        slaps = dict((s, a) for s, a in logged(client, tid) if a.startswith("slap"))
        assert slaps[1] == f"slap {last['ms'][1]}ms"
        bot_ms = int(slaps[2].split()[1].removesuffix("ms"))
        assert bot_ms == last["ms"][2] and bot_ms > 400  # (the seed's: so the check below
        assert bot_left >= 2 * bot_ms / 1000, bot_left  # could not pass at the wall's pace)


@pytest.mark.parametrize("slowdown", [0, -1.0, float("nan")])
def test_a_slowdown_that_is_not_above_zero_is_refused(slowdown):
    async def submit(*_args):
        return None

    with pytest.raises(ValueError, match="reaction_slowdown"):
        ReactionClock(submit, slowdown)


def test_the_table_slap_setting_reaches_the_bots(client):
    # bot_slap is a table option: the server's bots read it from their views and slap at
    # that pace (quick: 0.85 x the same seeded draw), timed from the signal as ever.
    quick = {**OPTIONS, "bot_slap": "quick"}
    tid, players, _ = seat_table(client, [PERSON, RULE], quick)
    assert client.get(f"/api/tables/{tid}").json()["table"]["options"]["bot_slap"] == "quick"
    timed, seen = open_slap(players)
    react(players[0], timed)
    players[0].recv_until(lambda m: m["type"] == "view" and 1 not in m["view"]["to_act"],
                          "the view after seat 1 slapped")
    left = time.monotonic() - seen["sent"]
    slap = next(a for s, a in logged(client, tid) if s == 1 and a.startswith("slap"))
    chosen = {}
    for pace in ("quick", "normal"):
        state = GAME.new(SEED, 2, **{**OPTIONS, "bot_slap": pace})
        state.apply(GAME.parse_action("hit hand!"), 0)
        bot = make_bot(GAME, "rule", 1, derive_seed(SEED, "bot", 1))
        chosen[pace] = GAME.action_text(bot.act(observe_for(bot, state, 1, random.Random(0))))
    assert slap == chosen["quick"] != chosen["normal"]
    assert left >= int(slap.split()[1].removesuffix("ms")) / 1000


def test_a_slap_in_progress_survives_a_restart(tmp_path):
    """The pending slap is in the log; the phase reopens with a new id and a full window."""
    db = tmp_path / "restart.sqlite3"
    with app_client(db, new_seed=lambda: SEED) as client:
        try:
            tid, players, tokens = seat_table(client, [PERSON, PERSON])
            timed, seen = open_slap(players)
            react(players[0], timed, seen[0] + 0.2)
            msg = players[0].recv_until(lambda m: m["type"] == "view" and m["view"]["to_act"]
                                        == [1], "the view of the slap's end (seat 1 to play)")
            first = msg["view"]["slap"]["mine"]
        finally:
            close_all()
    with app_client(db, new_seed=lambda: SEED) as client, closing():
        back = {s: connect(client, tid, tokens[s]) for s in (0, 1)}
        views = {s: p.view() for s, p in back.items()}
        again = views[1]["timed"]
        assert views[1]["view"]["to_act"] == [1] and again["phase"] != timed["phase"]
        assert views[0]["view"]["slap"]["mine"] == first
        react(back[1], again)
        last = resolved(back[0])["last_slap"]
        assert last["ms"][0] == first
        assert first >= 200 and logged(client, tid) == [
            (0, "hit hand!"), (0, f"slap {first}ms"), (1, f"slap {last['ms'][1]}ms")]
