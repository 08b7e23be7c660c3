"""The websocket protocol: views per seat, intents checked by the engine, stale versions,
reconnects, and every bad message answered with a clear error that changes nothing."""

from __future__ import annotations

import json

import pytest
from server_kit import CARD, PEOPLE4, Clock, Player, app_client, assert_no_secret, create, join
from waits import next_json

from parlour.i18n import localize
from parlour.message import Message, message_to_json
from parlour.server.edge.protocol import (
    MAX_MESSAGE,
    Encoded,
    ProtocolError,
    encode,
    encode_bytes,
    joined,
    localized,
    parse_message,
)

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the protocol, not the database


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "ws.sqlite3") as c:
        yield c


@pytest.fixture
def four(client):
    """A table of four people (nothing moves unless a test acts), all connected."""
    res = create(client, PEOPLE4, name="P0")
    tid = res["table"]["id"]
    tokens = [res["token"]] + [join(client, tid, f"P{s}", s)["token"] for s in (1, 2, 3)]
    players = [Player(client, tid, t) for t in tokens]
    for p in players:
        p.view()
    yield tid, tokens, players
    for p in players:
        p.close()


def test_a_message_means_what_the_standard_librarys_json_reads():
    message = {"type": "x", 3: "caf\u00e9", "big": 2**70, "pair": (1, 2), "f": 0.1,
               "none": None, "nested": [{"a": [True, False]}]}
    assert json.loads(encode(message)) == json.loads(json.dumps(message))


def test_a_view_is_localized_where_it_carries_a_message_and_nowhere_else():
    note = message_to_json(Message.of("the {count} tricks", {"count": 3}))
    view = {"hand": ["AS"], "events": [{"note": note}], "said": 'a "$message" b'}
    sent = json.loads(encode({"view": localized(view, "en")}))["view"]
    assert sent == localize(view, "en") and sent["events"][0]["note"] == "the 3 tricks"
    plain = {"hand": ["AS"], "said": '"$message"', "deep": [{"k": [1]}]}
    encoded = localized(plain, "en")
    assert encoded.data is plain  # nothing to render: not walked, not copied
    assert json.loads(encode({"view": encoded}))["view"] == plain


def unchanged(players, version):
    for p in players:
        assert p.sync()["version"] == version


def test_each_seat_gets_its_own_view(four):
    _, _, players = four
    hands = []
    for s, p in enumerate(players):
        v = p.last["view"]
        assert p.seat == s and v["seat"] == s and len(v["hand"]) == 13
        assert_no_secret(p.messages, tokens=[q.token for q in players])
        hands.append(set(v["hand"]))
    assert len(set.union(*hands)) == 52


def test_an_accepted_intent_reaches_every_seat_once(four):
    _, _, (south, *others) = four
    assert south.last["view"]["to_act"] == [0]
    south.act("bid 3")
    for p in (south, *others):
        msg = p.view()
        assert msg["version"] == 1 and msg["view"]["bids"][0] == 3 and msg["view"]["seat"] == p.seat


def test_an_illegal_intent_gets_the_engines_message_and_changes_nothing(four):
    _, _, players = four
    south = players[0]
    card = south.last["view"]["hand"][0]
    south.act(card)
    err = south.error()
    assert err["code"] == "illegal"
    assert err["message"] == "bidding is not over: bid before playing a card"
    west = players[1]
    west.act("bid 2")
    err = west.error()
    assert err["code"] == "illegal" and "not West's turn" in err["message"]
    unchanged(players, 0)


def test_a_stale_version_gets_a_fresh_view_instead(four):
    _, _, players = four
    south, west = players[0], players[1]
    south.act("bid 3")
    for p in players:
        p.view()
    west.act("bid 2", version=0)  # made on the view before South's bid
    err = west.error()
    assert err["code"] == "stale" and "version 0" in err["message"]
    fresh = west.view()
    assert fresh["version"] == 1 and fresh["view"]["bids"] == [3, None, None, None]
    unchanged(players, 1)
    west.act("bid 2")
    assert west.view()["version"] == 2


def test_an_intent_for_another_seat_is_refused(four):
    _, _, players = four
    west = players[1]
    west.send({"type": "act", "action": "bid 4", "version": 0, "seat": 0})
    err = west.error()
    assert err["code"] == "not_your_seat" and "seat 1, not seat 0" in err["message"]
    unchanged(players, 0)


def test_a_spectator_cannot_act(client, four):
    tid, _, players = four
    watcher = Player(client, tid, None)
    v = watcher.view()
    assert watcher.seat is None and v["view"]["seat"] is None and v["view"]["hand"] is None
    assert not CARD.search(json.dumps(v["view"]))
    watcher.act("bid 3")
    err = watcher.error()
    assert err["code"] == "spectator" and "cannot act" in err["message"]
    unchanged(players, 0)
    watcher.close()


@pytest.mark.parametrize(("raw", "code", "words"), [
    ("not json", "bad_message", "not valid JSON"),
    ("[1, 2]", "bad_message", "JSON object"),
    ('{"type": "teleport"}', "bad_message", "unknown message type 'teleport'"),
    ('{"action": "bid 3", "version": 0}', "bad_message", "unknown message type"),
    ('{"type": "act", "version": 0}', "bad_message", "needs 'action'"),
    ('{"type": "act", "action": "bid 3"}', "bad_message", "needs 'version'"),
    ('{"type": "act", "action": 55, "version": 0}', "bad_message", "act.action must be text"),
    ('{"type": "act", "action": "bid 3", "version": "0"}', "bad_message", "whole number"),
    ('{"type": "act", "action": "bid 3", "version": true}', "bad_message", "whole number"),
    ('{"type": "act", "action": "bid 3", "version": -1}', "bad_message", "0 or more"),
    ('{"type": "act", "action": "bid 3", "version": 0, "state": 1}', "bad_message",
     "no field 'state'"),
    ('{"type": "act", "action": "bid 14", "version": 0}', "unknown_action", "1 to 13"),
    ('{"type": "act", "action": "castle kingside", "version": 0}', "unknown_action",
     "not a Spades action"),
    ('{"type": "act", "action": "' + "Q" * 100 + '", "version": 0}', "unknown_action",
     "too long"),
    ('{"type": "hello"}', "bad_message", "already said hello"),
    # issue 30 item 8: a field given twice is refused, not read as its last value
    ('{"type": "act", "action": "castle", "action": "bid 3", "version": 0}', "bad_message",
     "the field 'action' is given twice"),
    ('{"type": "act", "action": "bid 3", "version": 0, "version": 0}', "bad_message",
     "the field 'version' is given twice"),
])
def test_malformed_messages_get_clear_errors_and_change_nothing(four, raw, code, words):
    _, _, players = four
    south = players[0]
    south.send(raw)
    err = south.error()
    assert err["code"] == code and words in err["message"], err
    assert "Traceback" not in err["message"] and "parlour/" not in err["message"]
    unchanged(players, 0)


@pytest.mark.parametrize(("first", "then"), [({"a": 1}, {"b": [2, {"c": None}]}),
                                             ({}, {"b": 2}), ({"a": "x"}, {}), ({}, {})])
def test_two_encoded_objects_joined_read_as_their_entries_together(first, then):
    both = joined(Encoded(first, encode_bytes(first)), Encoded(then, encode_bytes(then)))
    assert json.loads(both.json) == both.data == first | then


@pytest.mark.parametrize(("raw", "twice"), [
    ('{"type":"act","action":"bid 3","version":0}', None),
    ('{"type" : "act", "action" :"bid 3",\n "version"\t: 0}', None),
    ('{"type":"act","action":"bid 3\\": \\"","version":0}', None),  # '":' in a value
    ('{"type":"act","action":"bid 3","version":0,"version" :1}', "version"),
    ('{"type":"act","action":"a","type":"act","version":0}', "type"),
])
def test_a_field_given_twice_is_refused_however_the_text_is_spaced(raw, twice):
    """The quick look (orjson's fields against the places a name may end) passes only a
    text with no field given twice: one that may repeat is read field by field."""
    if twice is None:
        assert parse_message(raw).type == "act"  # type: ignore[union-attr]
        return
    with pytest.raises(ProtocolError, match=f"the field '{twice}' is given twice"):
        parse_message(raw)


def test_oversized_and_binary_messages_are_refused(four):
    _, _, players = four
    south = players[0]
    south.send(json.dumps({"type": "act", "action": "bid 3", "version": 0,
                           "pad": "x" * MAX_MESSAGE}))
    err = south.error()
    assert err["code"] == "too_big" and f"{MAX_MESSAGE:,}" in err["message"]
    south.ws.send_bytes(b'{"type": "act", "action": "bid 3", "version": 0}')
    err = south.error()
    assert err["code"] == "bad_message" and "binary" in err["message"]
    unchanged(players, 0)


def test_reconnecting_with_the_token_gives_the_current_view(client, four):
    tid, tokens, players = four
    south = players[0]
    south.act("bid 3")
    south.view()
    south.close()
    players[1].view()
    players[1].act("bid 2")
    assert players[1].view()["version"] == 2  # the bid is in before South comes back
    back = Player(client, tid, tokens[0])
    assert back.seat == 0
    v = back.view()
    assert v["version"] == 2 and v["view"]["bids"][:2] == [3, 2] and len(v["view"]["hand"]) == 13
    players[0] = back


def test_a_wrong_token_is_refused(client, four):
    tid, _, _ = four
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "A" * 22}))
        err = next_json(ws, "the refusal of the token")
        assert err["code"] == "bad_token" and "not valid" in err["message"]
    with client.websocket_connect("/ws/tables/nosuch") as ws:
        assert next_json(ws, "the refusal of the table")["code"] == "not_found"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "sync"}))
        assert "hello" in next_json(ws, "the refusal of a sync before hello")["message"]


def test_too_many_messages_are_refused(tmp_path):
    """By the server's clock: the burst, then one message per fifth of a second."""
    clock = Clock()
    with app_client(tmp_path / "rate.sqlite3", rate=5.0, burst=10, **clock.settings()) as client:
        res = create(client, PEOPLE4, name="P0")
        p = Player(client, res["table"]["id"], res["token"])  # a table still waiting
        for _ in range(13):
            p.send({"type": "ping"})
        replies = [p.recv()["type"] for _ in range(13)]
        assert replies == ["pong"] * 10 + ["error"] * 3
        assert p.messages[-1]["code"] == "rate_limited"
        clock.advance(0.2)  # one more
        p.send({"type": "ping"})
        p.send({"type": "ping"})
        assert [p.recv()["type"] for _ in range(2)] == ["pong", "error"]
        p.close()
