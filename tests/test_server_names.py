"""Every seat is named: people by their own names, bots by a name of the table's own and
a level; the lines told to a seat call it "You"."""

from __future__ import annotations

import pytest
from server_kit import Player, app_client

from parlour.games.foursquare.rules import describe_event as foursquare_line
from parlour.message import YOU
from parlour.server.play.names import BOT_NAMES, bot_level, bot_names, is_bot_name
from parlour.server.play.seating import clean_name

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the seats' names, not the database


def test_bot_names_are_the_tables_own_and_never_a_persons_at_it():
    bots = [False, True, True, True]
    first = bot_names("abc", bots, ["Ann", None, None, None])
    assert first == bot_names("abc", bots, ["Ann", None, None, None])  # deterministic
    assert first[0] is None and len(set(first[1:])) == 3 and set(first[1:]) <= set(BOT_NAMES)
    others = {tuple(bot_names(t, bots, ["Ann", None, None, None])) for t in ("a", "b", "c", "d")}
    assert len(others) > 1  # another table, another order
    # a person going by a bot's name (any case) pushes the bots to other names
    taken = bot_names("abc", bots, [first[1].upper(), None, None, None])
    assert first[1] not in taken and all(n in BOT_NAMES for n in taken[1:])
    assert bot_names("t", [True] * 6, [None] * 6) == bot_names("t", [True] * 6, [None] * 6)
    assert len(set(bot_names("t", [True] * 6, [None] * 6))) == 6
    assert is_bot_name("bill") and not is_bot_name("Ann")


def test_guest_and_bot_names_fold_as_account_names_do():
    """Issue 30 item 2: a guest's name loses the characters that show as nothing, and a
    bot's name is kept from a person whose name looks like it (look-alikes, invisible
    characters), as account names are compared."""
    assert clean_name("Ana\u034f") == "Ana" and clean_name("\u3164Bo\ufe0fb") == "Bob"
    bots = [False, True, True, True]
    first = bot_names("abc", bots, ["Ann", None, None, None])
    for lookalike in (first[1] + "\u034f", first[1].replace("i", "1").replace("l", "I"),
                      first[1].replace("o", "0")):
        taken = bot_names("abc", bots, [lookalike, None, None, None])
        assert first[1] not in taken, lookalike
        assert is_bot_name(lookalike)


def test_bot_levels_read_as_easy_normal_or_hard():
    assert [bot_level(b) for b in ("random", "rule", "ismcts:easy", "ismcts:hard",
                                   "solver:fast", "solver:strong", "clairvoyant", None)] == \
        ["easy", "normal", "easy", "hard", "easy", "hard", "hard", "normal"]


def test_hit_the_deck_summaries_name_every_seat_and_give_bots_a_level(tmp_path):
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "rule"},
             {"kind": "bot", "bot": "ismcts:hard"}, {"kind": "person"}]
    with app_client(tmp_path / "names.sqlite3") as client:
        res = client.post("/api/tables", json={"game": "hit-the-deck", "seats": seats,
                                               "name": "Ann", "seat": 0,
                                               "public": True}).json()
        table = res["table"]
        got = [(s["name"], s["kind"], s["level"]) for s in table["seats"]]
        assert got[0] == ("Ann", "person", None) and got[3] == (None, "person", None)
        assert got[1][1:] == ("bot", "normal") and got[2][1:] == ("bot", "hard")
        assert {got[1][0], got[2][0]} <= set(BOT_NAMES)
        assert not any(s["label"] == s["name"] for s in table["seats"])
        client.post(f"/api/tables/{table['id']}/join", json={"name": "Bo", "seat": 3})
        listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
        names = [s["name"] for s in listed[table["id"]]["seats"]]
        assert names[0] == "Ann" and names[3] == "Bo" and names[1:3] == [got[1][0], got[2][0]]


def test_the_foursquare_player_reads_you_and_a_watcher_their_name(tmp_path):
    with app_client(tmp_path / "you.sqlite3") as client:
        res = client.post("/api/tables", json={"game": "foursquare", "seats": [{"kind": "person"}],
                                               "name": "Ann", "seat": 0, "deal": 7}).json()
        me = Player(client, res["table"]["id"], res["token"])
        watcher = Player(client, res["table"]["id"], None)
        mine = me.view()
        me.send({"type": "act", "action": mine["view"]["legal"][0], "version": mine["version"]})
        mine = me.recv_until(lambda m: m["type"] == "view" and m["version"] == 1,
                             "my view of my first move")
        seen = watcher.recv_until(lambda m: m["type"] == "view" and m["version"] == 1,
                                  "the spectator's view of the first move")
        assert mine["narration"][0].startswith("You place ")
        assert mine["narration"] == [foursquare_line(e, [YOU]) for e in mine["view"]["events"]]
        assert seen["narration"][0].startswith("Ann (guest) places ")  # issue 30 item 3
        me.close()
        watcher.close()
