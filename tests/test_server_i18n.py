"""The server in the reader's language: the page's ``<html lang>`` and its first words, the
websocket's narration, reasons and errors, HTTP errors and replays, chosen from the hello's
``lang``, the ``parlour_lang`` cookie or ``Accept-Language``; and the new inputs fuzzed."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import Player, app_client
from waits import next_json

from parlour.games.clockwork_spades.rules import narrate_event
from parlour.i18n import LANGUAGES, cards_as_codes, render, translate
from parlour.message import YOU, Message, Term
from parlour.server.edge.language import chosen

# The subject is the reader's language, not the database: PostgreSQL in make test-long only.
pytestmark = pytest.mark.long_on("postgresql")

RULE = {"kind": "bot", "bot": "rule"}

GUEST_ANN = Message("{name} (guest)", name="Ann")  # a guest's seat is marked


def say(message, lang: str) -> str:
    """A narration line as the server sends it: in ``lang``, cards as codes for the page."""
    return render(cards_as_codes(message), lang)


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "i18n.sqlite3", new_seed=lambda: 1) as c:
        yield c


def html_lang(client, headers=None, path="/") -> str:
    res = client.get(path, headers=headers or {})
    assert res.status_code == 200 and "accept-language" in res.headers["vary"].lower()
    found = re.search(r'<html lang="([^"]*)">', res.text)
    assert found is not None
    return found.group(1)


def spades_table(client, name="Ann") -> dict:
    res = client.post("/api/tables", json={"game": "spades", "name": name,
                                           "seats": [{"kind": "person"}, RULE, RULE, RULE]})
    assert res.status_code == 201, res.text
    return res.json()


def test_the_page_answers_in_the_language_of_accept_language_or_the_cookie(client):
    assert html_lang(client) == "en"
    assert html_lang(client, {"Accept-Language": "id"}) == "id"
    assert html_lang(client, {"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}) == "id"
    assert html_lang(client, {"Accept-Language": "pt"}) == "pt-BR"  # plain pt is pt-BR here
    assert html_lang(client, {"Accept-Language": "fr-FR, de;q=0.5"}) == "en"
    assert html_lang(client, {"Accept-Language": "id"}, "/t/abc123") == "id"  # every page
    page = client.get("/", headers={"Accept-Language": "pt-BR"}).text
    assert "Abrindo o salão…" in page and "Loading the parlour" not in page
    client.cookies.set("parlour_lang", "pt-BR")  # the reader's own choice wins
    assert html_lang(client, {"Accept-Language": "id"}) == "pt-BR"
    client.cookies.set("parlour_lang", "<script>")  # a bad cookie is ignored
    assert html_lang(client, {"Accept-Language": "id"}) == "id"
    client.cookies.clear()


def test_http_errors_come_in_the_readers_language_with_the_same_code(client):
    en = client.get("/api/tables/nosuch").json()["error"]
    pt = client.get("/api/tables/nosuch", headers={"Accept-Language": "pt-BR"}).json()["error"]
    assert en == {"code": "not_found", "message": "there is no table with that id"}
    assert pt == {"code": "not_found", "message": "não existe mesa com esse id"}
    bad = client.post("/api/tables", content="{", headers={"Accept-Language": "id",
                                                           "Content-Type": "application/json"})
    assert bad.json()["error"] == {"code": "bad_request",
                                   "message": "isi permintaan bukan JSON yang sah"}


def test_the_websocket_speaks_the_hellos_language(client):
    table = spades_table(client)
    tid, token = table["table"]["id"], table["token"]
    ann = Player(client, tid, token, lang="id")
    ann.view()
    ann.act("QS")  # a card while bidding: the engine's reason, in Indonesian
    err = ann.error()
    assert err == {"type": "error", "code": "illegal",
                   "message": "penawaran belum selesai: tawar dulu sebelum memainkan kartu"}
    ann.act("zz")  # not notation at all
    err = ann.error()
    assert err["code"] == "unknown_action" and "Spades" in err["message"] \
        and "unknown" not in err["message"]
    ann.send({"type": "act", "action": "bid 3", "version": 99})
    assert ann.error()["message"].startswith("permainan sudah berlanjut")
    ann.close()
    # The cookie when the hello names none; a hello naming a language Parlour lacks falls
    # back to the cookie or Accept-Language.
    bo = Player(client, tid, None, headers={"Cookie": "parlour_lang=pt-BR"})
    bo.send({"type": "act", "action": "bid 3", "version": 0})
    assert bo.error()["message"] == translate("pt_BR", "spectators cannot act: take a free "
                                                       "seat to play")
    bo.close()
    cy = Player(client, tid, None, lang="fr", headers={"Accept-Language": "id"})
    cy.send({"type": "ping", "x": 1})
    assert cy.error()["message"] == "pesan ping tidak punya kolom 'x' (kolomnya: tanpa kolom)"
    cy.close()


def test_spades_why_not_comes_rendered_in_each_connections_language(client):
    table = spades_table(client)
    tid, token = table["table"]["id"], table["token"]
    ann = Player(client, tid, token, lang="pt-BR")
    why: dict[str, str] = {}
    for _ in range(20):  # play on (first legal card) until a card in hand cannot be played
        view = ann.recv_until(lambda m: m["type"] == "view" and 0 in m["view"]["to_act"]
                              and bool(m["view"]["legal"]), "a view where Ann is to play")["view"]
        why = view["why_not"]
        if why:
            break
        ann.act("bid 3" if view["phase"] == "bid" else view["legal"][0])
    assert why and all(isinstance(text, str) for text in why.values())
    for text in why.values():  # each reason in Portuguese, suits as Brazilian players say them
        assert re.fullmatch(r"é preciso seguir (copas|ouros|paus|espadas)|espadas ainda não "
                            r"foram quebradas: abra com outro naipe", text), why
    ann.close()


def test_clockwork_narration_per_connection_in_its_language(client):
    res = client.post("/api/tables", json={"game": "clockwork-spades", "name": "Ann",
                                           "seats": [{"kind": "person"}, RULE]})
    tid, token = res.json()["table"]["id"], res.json()["token"]
    ann_id = Player(client, tid, token, lang="id")
    watcher_pt = Player(client, tid, None, lang="pt-BR")
    seen_id, seen_pt = ann_id.view(), watcher_pt.view()
    bot = res.json()["table"]["seats"][1]["name"]
    # told to Ann, she is "You" (Indonesian "Kamu"); a watcher hears her name
    assert seen_id["narration"] == [say(narrate_event(ev, [YOU, bot]), "id")
                                    for ev in seen_id["view"]["events"]]
    assert seen_pt["narration"] == [say(narrate_event(ev, [GUEST_ANN, bot]), "pt_BR")
                                    for ev in seen_pt["view"]["events"]]
    assert seen_id["narration"] != seen_pt["narration"]
    ann_id.close()
    watcher_pt.close()


@pytest.mark.parametrize("lang", ["", "x" * 36, "pt BR", "../etc", "id;", "1d", "<b>", "é"])
def test_a_malformed_hello_lang_is_refused_clearly(client, lang):
    tid = spades_table(client)["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_text(json.dumps({"type": "hello", "lang": lang}))
        err = next_json(ws, "the refusal of the hello")
        assert err["type"] == "error" and err["code"] == "bad_message"
        assert "hello.lang" in err["message"]


def test_a_hello_lang_of_another_type_is_refused(client):
    tid = spades_table(client)["table"]["id"]
    for value in (1, True, ["id"], {"id": 1}):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "lang": value}))
            err = next_json(ws, "the refusal of the hello")
            assert err["code"] == "bad_message" and "hello.lang must be text" in err["message"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
def test_any_tag_is_a_language_parlour_speaks_or_none(tag):
    lang = chosen(tag)
    assert lang is None or lang in LANGUAGES


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(cookie=st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7e,
                                             exclude_characters=';,"\\'), max_size=50),
       accept=st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e),
                      max_size=80))
def test_any_cookie_and_accept_language_give_a_page_in_a_language_parlour_speaks(
        client, cookie, accept):
    client.cookies.set("parlour_lang", cookie)
    try:
        res = client.get("/", headers={"Accept-Language": accept})
    finally:
        client.cookies.clear()
    assert res.status_code == 200
    tag = re.search(r'<html lang="([^"]*)">', res.text).group(1)
    assert tag.replace("-", "_") in LANGUAGES


def test_every_protocol_error_message_renders_in_every_language():
    """The fields of the server's own messages are all given (a missing one would raise)."""
    msg = Message("{field} must be at most {limit}", field="act.version", limit=2**31 - 1)
    assert render(msg, "id") == "act.version paling banyak 2.147.483.647"
    assert render(msg, "pt_BR") == "act.version deve ser no máximo 2.147.483.647"


def test_a_message_goes_through_json_and_back_and_renders_in_a_view():
    """A view carries messages as plain JSON; localize renders them and leaves the rest."""
    from parlour.games.hit_the_deck.rules import card_named
    from parlour.i18n import localize, render_json
    from parlour.message import (
        Code,
        Many,
        PlayingCard,
        message_from_json,
        message_to_json,
        plural_message,
    )

    inner = plural_message("{n} card", "{n} cards", "n", n=3)
    msg = Message("{card} does not match {top} in colour or number", card=card_named(11),
                  top=card_named(2))
    mixed = Message("{a} {b} {c} {d} {e} {f}", a=PlayingCard(51), b=Term("suit", "hearts"),
                    c=Code("QS"), d=Many((1, 2)), e=inner, f="Ann")
    for m in (msg, mixed):
        data = json.loads(json.dumps(message_to_json(m)))
        assert message_from_json(data) == m and str(message_from_json(data)) == str(m)
    assert str(msg) == "G2 does not match R3 in colour or number"  # English text: codes
    view = {"why_not": {"G2": message_to_json(msg)}, "hand": ["G2"], "n": 1}
    assert localize(view, "en") == {"why_not": {"G2": "green 2 does not match red 3 in "
                                                      "colour or number"},
                                    "hand": ["G2"], "n": 1}
    assert localize(view, "pt_BR")["why_not"]["G2"].startswith("2 verde")
    shared = message_to_json(msg)  # one reason for several cards (Spades'): rendered once
    rendered: list[object] = []

    def render_counted(data: object, lang: str) -> str:
        rendered.append(data)
        return render_json(data, lang)

    hand = {"G2": shared, "G4": shared, "B1": message_to_json(mixed), "R3": shared}
    assert localize({"why_not": hand}, "en", render_counted) == {"why_not": {
        "G2": "green 2 does not match red 3 in colour or number",
        "G4": "green 2 does not match red 3 in colour or number",
        "B1": localize(hand["B1"], "en"),
        "R3": "green 2 does not match red 3 in colour or number"}}
    assert len(rendered) == 3  # the first two entries share one; the fourth is rendered again
    plain = {"hand": ["G2"], "scores": [1, 2]}
    assert localize(plain, "id") is plain  # nothing to render: the same object
    with pytest.raises(ValueError):
        message_from_json({"$message": 3})
