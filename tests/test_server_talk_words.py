"""Players' own words at the table (issue 34, item 1): signed-in players who chose to read
them write at most 200 characters, within the talk's limits, through the word filter of
published lists (English, Indonesian, Portuguese) that moderators extend; only those who
listen read them, never those who muted the writer; markup stays text; a report attaches a
line by its seal; nothing of it is written but what a report keeps."""

from __future__ import annotations

import sqlite3

import pytest
from server_kit import PEOPLE4, AppClient, Clock, Player, app_client, create, join
from test_server_talk import nothing_more, signed, talk

from parlour.cli import main as parlour_main
from parlour.server.play import talk_words
from parlour.server.play.talk import AT_MOST, TEXT_MAX, WINDOW, seal
from parlour.server.play.talk_words import MASK, REFRESH, WordFilter, fold, listed_words

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the socket, not the database

PASSWORD = "correct horse 7"


class Room:
    """Ana and Bea signed in at seats 0 and 1, Gus a guest at seat 2, Vic a guest
    watching; Ana, Bea and Vic read the players' own words, Gus does not."""

    def __init__(self, client: AppClient, clock: Clock) -> None:
        self.client, self.clock = client, clock
        ana, bea, gus = client, AppClient(client.app), AppClient(client.app)
        for c, name in ((ana, "Ana"), (bea, "Bea")):
            res = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
            assert res.status_code == 201, res.text
        made = create(ana, PEOPLE4, name="Ana")
        self.tid = tid = made["table"]["id"]
        tokens = [made["token"], join(bea, tid, "Bea", 1)["token"],
                  join(gus, tid, "Gus", 2)["token"]]
        self.bea_client = bea
        self.ana, self.bea, self.gus = (Player(ana, tid, tok, headers=signed(c))
                                        for c, tok in zip((ana, bea, gus), tokens, strict=True))
        self.vic = Player(ana, tid, None, headers={"cookie": "guest=1"})
        for p in (self.ana, self.bea, self.vic):
            p.send({"type": "listen", "words": True})
        nothing_more(self.vic)  # the listens are in (each connection's messages in order)
        nothing_more(self.ana)
        nothing_more(self.bea)

    def close(self) -> None:
        for p in (self.ana, self.bea, self.gus, self.vic):
            p.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def room(tmp_path, clock):
    with app_client(tmp_path / "words.sqlite3", **clock.settings()) as client:
        r = Room(client, clock)
        yield r
        r.close()


def test_those_who_listen_read_a_players_words_as_sent_markup_and_links_as_text(room):
    said = "<img src=x onerror=alert(1)> see https://example.org/x  now"
    room.ana.send({"type": "talk", "text": said})
    shown = "<img src=x onerror=alert(1)> see https://example.org/x now"  # spaces folded
    for p in (room.ana, room.bea, room.vic):
        msg = talk(p)
        assert msg["text"] == shown and msg["own"] is True and msg["seat"] == 0
        assert msg["channel"] == "players" and msg["phrase"] is None
        assert len(msg["seal"]) == 32
    nothing_more(room.gus)  # a player who did not turn them on


def test_who_may_not_write_is_told_why_and_nobody_reads_it(room):
    room.gus.send({"type": "listen", "words": True})
    room.gus.send({"type": "talk", "text": "hello all"})
    assert talk(room.gus)["code"] == "talk_needs_account"  # a guest has the phrases
    room.vic.send({"type": "talk", "text": "hello all"})
    assert talk(room.vic)["code"] == "spectator"
    room.bea.send({"type": "listen", "words": False})
    room.bea.send({"type": "talk", "text": "hello all"})
    assert talk(room.bea)["code"] == "talk_not_listening"
    for p in (room.ana, room.gus):
        nothing_more(p)


@pytest.mark.parametrize(("text", "code"), [
    ("", "talk_empty"),
    ("   \n\t ", "talk_empty"),
    ("x" * (TEXT_MAX + 1), "talk_too_long"),
    ("x" * 601, "talk_too_long"),  # refused by the protocol before it is read
    ("evil \u202e txet", "talk_bad_text"),  # a right-to-left override
    ("bell \x07", "talk_bad_text"),
])
def test_bad_words_in_form_are_refused_and_reach_nobody(room, text, code):
    room.ana.send({"type": "talk", "text": text})
    err = talk(room.ana)
    assert err["type"] == "error" and err["code"] == code, err
    nothing_more(room.bea)


def test_two_hundred_characters_and_emoji_sequences_pass(room):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined by zero-width joiners
    text = family + "y" * (TEXT_MAX - len(family))
    room.ana.send({"type": "talk", "text": text})
    assert talk(room.bea)["text"] == text


def test_words_share_the_seats_limits_with_the_phrases(room):
    for i in range(AT_MOST - 1):
        room.ana.send({"type": "talk", "text": f"message {i}"})
        assert talk(room.bea)["text"] == f"message {i}"
    room.ana.send({"type": "talk", "phrase": "hello"})
    assert talk(room.bea)["phrase"] == "hello"
    room.ana.send({"type": "talk", "text": "one too many"})
    assert room.ana.error()["code"] == "talk_limited"
    nothing_more(room.bea)
    room.clock.advance(WINDOW)
    room.ana.send({"type": "talk", "text": "again"})
    assert talk(room.bea)["text"] == "again"


def test_the_same_words_three_times_running_are_refused_whatever_their_case(room):
    for text in ("gg", "GG"):
        room.ana.send({"type": "talk", "text": text})
        assert talk(room.bea)["text"] == text
    room.ana.send({"type": "talk", "text": "Gg"})
    assert room.ana.error()["code"] == "talk_repeated"
    nothing_more(room.bea)


def test_the_filter_masks_listed_words_of_each_language_whole_words_only(room):
    said = "Fuck, bangsat! CARALHÓ... the assassin passed the ass in Scunthorpe"
    room.ana.send({"type": "talk", "text": said})
    assert talk(room.bea)["text"] == (f"{MASK * 4}, {MASK * 7}! {MASK * 7}... the assassin "
                                      f"passed the {MASK * 3} in Scunthorpe")


def test_a_moderators_words_hold_on_every_server_within_a_minute(room):
    engine = room.client.app.state.hub.store.engine
    room.ana.send({"type": "talk", "text": "pinguim and merda"})
    assert talk(room.bea)["text"] == f"pinguim and {MASK * 5}"
    talk_words.choose(engine, "Pinguim", False, "mod")
    talk_words.choose(engine, "merda", True, "mod")
    room.ana.send({"type": "talk", "text": "pinguim and merda!"})
    assert talk(room.bea)["text"] == f"pinguim and {MASK * 5}!"  # read a minute apart
    room.clock.advance(REFRESH)
    room.ana.send({"type": "talk", "text": "pinguim and merda?"})
    assert talk(room.bea)["text"] == f"{MASK * 7} and merda?"


def test_a_reader_who_muted_the_writer_does_not_read_them(room):
    res = room.bea_client.post("/api/account/mutes", json={"table": room.tid, "seat": 0})
    assert res.status_code == 200, res.text
    room.ana.send({"type": "talk", "text": "can you hear me"})
    assert talk(room.vic)["text"] == "can you hear me"
    nothing_more(room.bea)


def test_a_report_attaches_a_line_by_its_seal_and_a_forged_one_is_refused(room, tmp_path):
    room.ana.send({"type": "talk", "text": "you play like a potato"})
    line = talk(room.bea)
    body = {"table": room.tid, "seat": 0, "reason": "abuse"}
    forged = room.bea_client.post("/api/account/reports", json={
        **body, "message": {"text": "something Ana never said", "seal": line["seal"]}})
    assert forged.status_code == 400 and forged.json()["error"]["code"] == "bad_seal", forged.text
    elsewhere = room.bea_client.post("/api/account/reports", json={  # another seat's line
        **body, "seat": 2, "message": {"text": line["text"], "seal": line["seal"]}})
    assert elsewhere.status_code == 400, elsewhere.text
    res = room.bea_client.post("/api/account/reports", json={
        **body, "message": {"text": line["text"], "seal": line["seal"]}})
    assert res.status_code == 201, res.text
    rows = sqlite3.connect(tmp_path / "words.sqlite3").execute(
        "select seat, reason, message from parlour_reports").fetchall()
    assert rows == [(0, "abuse", "you play like a potato")]


def test_nothing_said_is_written_but_what_a_report_keeps(room, tmp_path):
    room.ana.send({"type": "talk", "text": "a secret plan of ours"})
    assert talk(room.bea)["text"] == "a secret plan of ours"
    room.bea.send({"type": "sync"})
    room.bea.recv_until(lambda m: m["type"] == "table", "the table")
    for f in tmp_path.iterdir():
        assert b"secret plan" not in f.read_bytes(), f


def test_the_seal_is_the_servers_and_names_the_table_seat_and_words():
    assert seal("k", "T1", 0, "hi") == seal("k", "T1", 0, "hi")
    assert len({seal("k", "T1", 0, "hi"), seal("k", "T2", 0, "hi"), seal("k", "T1", 1, "hi"),
                seal("k", "T1", 0, "ho"), seal("j", "T1", 0, "hi")}) == 5


def test_the_lists_are_loaded_and_masking_keeps_every_other_character():
    words = listed_words()
    assert {"fuck", "bangsat", "caralho"} <= words and len(words) > 1500
    choices: tuple[set[str], set[str]] = ({fold("Straße")}, set())  # as the database keeps it
    f = WordFilter(lambda: choices, lambda: 0.0)
    assert fold("STRASSE") == fold("Straße") == "strasse"
    assert f.mask("Die STRAßE, nicht die Straßenbahn") == f"Die {MASK * 6}, nicht die Straßenbahn"
    assert f.mask("Plain words stay") == "Plain words stay"


def test_parlour_admin_keeps_the_moderators_words(room, tmp_path, capsys):
    db = f"sqlite:///{tmp_path / 'words.sqlite3'}"
    assert parlour_main(["admin", "word-add", "Pinguim Rosa", "--db", db]) == 0
    assert parlour_main(["admin", "word-allow", "merda", "--db", db]) == 0
    assert parlour_main(["admin", "word-add", "   ", "--db", db]) == 2
    assert parlour_main(["admin", "words", "--db", db]) == 0
    out = capsys.readouterr()
    assert "pinguim rosa is filtered" in out.out and "merda is let through" in out.out
    assert "filtered  pinguim rosa" in out.out and "allowed  merda" in out.out
    assert "letters or digits" in out.err
    assert parlour_main(["admin", "word-drop", "merda", "--db", db]) == 0
    room.clock.advance(REFRESH)
    room.ana.send({"type": "talk", "text": "pinguim  rosa e merda"})
    assert talk(room.bea)["text"] == f"{MASK * 7} {MASK * 4} e {MASK * 5}"
