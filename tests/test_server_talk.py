"""Table talk (issue 34, item 1): a quick phrase sent as an id reaches every reader in the
reader's own language; unknown phrases, talking too fast and the same phrase over and over
are refused; the spectators' channel never reaches the players; markup never passes; and
nothing of it is written anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from server_kit import PEOPLE4, AppClient, Clock, Player, app_client, create, join

import parlour
from parlour.i18n import render
from parlour.message import Message
from parlour.server.people.identity import SESSION_COOKIE
from parlour.server.play.talk import AT_MOST, PHRASES, WINDOW

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the socket, not the database

TWO_PEOPLE = [{"kind": "person"}, {"kind": "bot", "bot": "rule"}, {"kind": "person"},
              {"kind": "bot", "bot": "rule"}]


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(tmp_path, clock):
    with app_client(tmp_path / "talk.sqlite3", **clock.settings()) as c:
        yield c


@pytest.fixture
def table(client):
    """A waiting table of four people, two of them seated (Ana in English, Wayan in
    Indonesian), and a spectator in Brazilian Portuguese: nothing moves."""
    res = create(client, PEOPLE4, name="Ana")
    tid = res["table"]["id"]
    ana = Player(client, tid, res["token"], lang="en")
    wayan = Player(client, tid, join(client, tid, "Wayan", 1)["token"], lang="id")
    watcher = Player(client, tid, None, lang="pt-BR")
    yield tid, ana, wayan, watcher
    for p in (ana, wayan, watcher):
        p.close()


def talk(player: Player) -> dict:
    return player.recv_until(lambda m: m["type"] in ("talk", "error"), "talk or a refusal")


def nothing_more(player: Player) -> None:
    """No talk came (or is queued) for ``player``: a ping's pong comes next."""
    player.send({"type": "ping"})
    msg = player.recv_until(lambda m: m["type"] in ("talk", "pong"), "the pong")
    assert msg["type"] == "pong", msg


def words(phrase: str, lang: str) -> str:
    return render(Message(PHRASES[phrase]), lang)


def test_a_phrase_reaches_everyone_in_their_own_language(table):
    _, ana, wayan, watcher = table
    ana.send({"type": "talk", "phrase": "nice_play"})
    got = {p.seat: talk(p) for p in (ana, wayan, watcher)}
    for p, lang in ((ana, "en"), (wayan, "id"), (watcher, "pt_BR")):
        msg = got[p.seat]
        assert msg == {"type": "talk", "channel": "players", "seat": 0, "phrase": "nice_play",
                       "text": words("nice_play", lang)}
    assert got[0]["text"] == "Nice play!"
    assert len({m["text"] for m in got.values()}) == 3  # three languages, three wordings


@pytest.mark.parametrize(("phrase", "code"), [
    ("teleport", "unknown_phrase"),
    ("Nice play!", "unknown_phrase"),  # the words are not the id
    ("<img src=x onerror=alert(1)>", "unknown_phrase"),  # markup never reaches a reader
    ("x" * 40, "unknown_phrase"),
])
def test_a_phrase_that_is_not_one_is_refused_and_reaches_nobody(table, phrase, code):
    _, ana, wayan, watcher = table
    ana.send({"type": "talk", "phrase": phrase})
    err = talk(ana)  # its only answer
    assert err["type"] == "error" and err["code"] == code, err
    for p in (wayan, watcher):
        nothing_more(p)


@pytest.mark.parametrize("raw", [
    {"type": "talk"},
    {"type": "talk", "phrase": 3},
    {"type": "talk", "phrase": "hello", "text": "<b>hi</b>"},  # no free text here
])
def test_a_malformed_talk_is_a_bad_message(table, raw):
    _, ana, wayan, _ = table
    ana.send(raw)
    assert talk(ana)["code"] == "bad_message"  # its only answer
    nothing_more(wayan)


def test_a_seat_says_at_most_five_phrases_in_ten_seconds(table, client, clock):
    tid, ana, wayan, _ = table
    second_tab = Player(client, tid, ana.token)  # the seat's limit, not the connection's
    said = ["hello", "nice_play", "oops", "thanks", "good_game"]
    assert len(said) == AT_MOST
    for i, phrase in enumerate(said):
        (ana if i % 2 else second_tab).send({"type": "talk", "phrase": phrase})
        assert talk(wayan)["phrase"] == phrase
    ana.send({"type": "talk", "phrase": "bye"})
    err = ana.error()  # after the echoes of what was said
    assert err["code"] == "talk_limited" and "too fast" in err["message"]
    nothing_more(wayan)
    clock.advance(WINDOW)
    ana.send({"type": "talk", "phrase": "bye"})
    assert talk(wayan)["phrase"] == "bye"
    second_tab.close()


def test_the_same_phrase_three_times_running_is_refused(table):
    _, ana, wayan, _ = table
    for _ in range(2):
        ana.send({"type": "talk", "phrase": "one_more"})
        assert talk(wayan)["phrase"] == "one_more"
    ana.send({"type": "talk", "phrase": "one_more"})
    assert ana.error()["code"] == "talk_repeated"
    nothing_more(wayan)
    ana.send({"type": "talk", "phrase": "hello"})  # something else, then it again
    ana.send({"type": "talk", "phrase": "one_more"})
    assert [talk(wayan)["phrase"] for _ in range(2)] == ["hello", "one_more"]


def test_the_spectators_talk_among_themselves_and_the_players_never_see_it(table, client):
    tid, ana, wayan, watcher = table
    other = Player(client, tid, None, lang="id")
    watcher.send({"type": "talk", "phrase": "good_luck"})
    for p, lang in ((watcher, "pt_BR"), (other, "id")):
        assert talk(p) == {"type": "talk", "channel": "spectators", "seat": None,
                           "phrase": "good_luck", "text": words("good_luck", lang)}
    for p in (ana, wayan):
        nothing_more(p)
    wayan.send({"type": "talk", "phrase": "thanks"})  # and they read the players
    assert talk(other)["channel"] == "players" and talk(watcher)["seat"] == 1
    other.close()


def test_a_spectators_limit_is_its_own(table):
    _, ana, _, watcher = table
    for phrase in ["hello", "nice_play", "oops", "thanks", "good_game"]:
        watcher.send({"type": "talk", "phrase": phrase})
        assert talk(watcher)["phrase"] == phrase
    watcher.send({"type": "talk", "phrase": "bye"})
    assert watcher.error()["code"] == "talk_limited"
    ana.send({"type": "talk", "phrase": "bye"})  # a player's allowance is untouched
    assert talk(ana)["phrase"] == "bye"


def test_a_talk_carries_no_name_and_nothing_of_it_is_written(table, tmp_path):
    _, ana, wayan, _ = table
    ana.send({"type": "talk", "phrase": "sorry_partner"})
    msg = talk(wayan)
    assert set(msg) == {"type", "channel", "seat", "phrase", "text"}  # who: a seat, no name
    wayan.send({"type": "sync"})  # not an action: the table is as it was
    assert wayan.recv_until(lambda m: m["type"] == "table", "the table")["table"]["version"] == 0
    for f in tmp_path.iterdir():  # the database (and its journal) hold none of it
        data = f.read_bytes()
        assert b"sorry_partner" not in data and b"Sorry, partner" not in data, f


def test_the_page_offers_the_phrases_the_server_knows_in_the_same_words():
    """talk.js lists the phrases (its buttons' words come from the catalog): the same ids,
    each with the msgid the server renders."""
    script = (Path(parlour.__file__).parent / "web" / "talk.js").read_text(encoding="utf-8")
    listed = re.search(r"PHRASE_IDS = \[([^\]]*)\]", script)
    assert listed is not None
    assert re.findall(r'"(\w+)"', listed.group(1)) == list(PHRASES)
    worded = dict(re.findall(r'case "(\w+)": return t\("([^"]+)"\);', script))
    assert worded == PHRASES


def signed(client: AppClient) -> dict[str, str]:
    """The headers of ``client``'s websocket, opened through the app's first client (whose
    event loop holds the tables): its session cookie if it signed in, else none at all."""
    session = client.cookies.get(SESSION_COOKIE)
    return {"cookie": f"{SESSION_COOKIE}={session}" if session else "guest=1"}


def test_a_reader_who_muted_a_player_with_an_account_does_not_hear_them(tmp_path):
    """The mutes of the account (POST /api/account/mutes) hold in talk, on the server: a
    signed-in player muted everywhere, a guest at that seat; the others are heard, and an
    unmute is heard at once."""
    with app_client(tmp_path / "mutes.sqlite3") as ana:
        bea, guest, other = AppClient(ana.app), AppClient(ana.app), AppClient(ana.app)
        for client, name in ((ana, "Ana"), (bea, "Bea")):
            res = client.post("/api/account/signup", json={"name": name,
                                                           "password": "correct horse 7"})
            assert res.status_code == 201, res.text
        made = create(ana, PEOPLE4, name="Ana")
        tid = made["table"]["id"]
        tokens = [made["token"], join(bea, tid, "Bea", 1)["token"],
                  join(guest, tid, "Gus", 2)["token"], join(other, tid, "Cid", 3)["token"]]
        for seat in (1, 2):
            res = ana.post("/api/account/mutes", json={"table": tid, "seat": seat})
            assert res.status_code == 200, res.text
        people = [Player(ana, tid, tok, headers=signed(c))
                  for c, tok in zip((ana, bea, guest, other), tokens, strict=True)]
        me, b, g, c = people
        b.send({"type": "talk", "phrase": "hello"})  # muted by account
        assert talk(c)["phrase"] == "hello"  # heard by the others
        g.send({"type": "talk", "phrase": "oops"})  # a guest, muted at this seat
        assert talk(c)["phrase"] == "oops"
        assert talk(b)["phrase"] == "hello" and talk(g)["phrase"] == "hello"  # and themselves
        c.send({"type": "talk", "phrase": "thanks"})
        assert talk(me)["phrase"] == "thanks"  # the first Ana hears: neither before it
        ana.post("/api/account/mutes", json={"table": tid, "seat": 1, "muted": False})
        b.send({"type": "talk", "phrase": "bye"})
        assert talk(me) == {"type": "talk", "channel": "players", "seat": 1, "phrase": "bye",
                            "text": "Bye!"}
        for p in people:
            p.close()
