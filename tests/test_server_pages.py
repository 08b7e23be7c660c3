"""What the server adds for every table: rules pages, the game's own sentence for each
event of a view (Clockwork Spades), and matches that are over at the deal."""

from __future__ import annotations

import pytest
from server_kit import Player, app_client

from parlour.games import game_ids, get_game
from parlour.games.clockwork_spades.rules import ClockworkGame, narrate_event
from parlour.i18n import cards_as_codes, render
from parlour.message import YOU, Message
from parlour.registry import spec
from parlour.server.play import life, pages
from parlour.server.play.names import BOT_NAMES

# The subject is what the pages say, not the database: PostgreSQL in make test-long only.
pytestmark = pytest.mark.long_on("postgresql")

BOTS2 = [{"kind": "bot", "bot": "rule"}, {"kind": "bot", "bot": "random"}]

GUEST_ANN = Message("{name} (guest)", name="Ann")  # a guest's seat is marked


def say(message, lang: str) -> str:
    """A narration line as the server sends it: in ``lang``, cards as codes for the page."""
    return render(cards_as_codes(message), lang)


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path / "pages.sqlite3") as c:
        yield c


def table_of(client, game: str, seats, options=None, name=None) -> dict:
    res = client.post("/api/tables", json={"game": game, "seats": seats,
                                           "options": options or {}, "name": name})
    assert res.status_code == 201, res.text
    return res.json()


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_serves_how_to_play_and_its_full_rules_as_html(client, game_id):
    body = client.get(f"/api/games/{game_id}/rules").json()
    assert body["game"] == game_id and body["name"] == get_game(game_id).name
    assert body["lang"] == "en" and body["full"] is False
    assert body["html"].startswith("<h1>How to play")
    assert f'<img src="/static/games/{spec(game_id).folder.name}/howto/' in body["html"]
    res = client.get(f"/api/games/{game_id}/rules", params={"full": "true"})
    assert res.status_code == 200
    body = res.json()
    assert body["full"] is True and body["lang"] == "en"
    assert body["html"].startswith("<h1>") and "<h2>" in body["html"]
    if "| --- |" in pages.rules_path(get_game(game_id)).read_text():
        assert "<table>" in body["html"]  # GitHub tables are rendered


def test_rules_errors_and_raw_html_is_escaped(client, tmp_path, monkeypatch):
    res = client.get("/api/games/chess/rules")
    assert res.status_code == 404 and res.json()["error"]["code"] == "not_found"
    assert client.get("/api/games/..%2Fetc/rules").status_code == 404
    (tmp_path / "spades" / "full-rules").mkdir(parents=True)
    (tmp_path / "spades" / "full-rules" / "en.md").write_text(
        "# Spades\n\n<script>alert(1)</script> [x](javascript:alert(1)) <b>bold</b>\n")
    monkeypatch.setattr("parlour.fullrules.GAMES", tmp_path)
    html = client.get("/api/games/spades/rules?full=true").json()["html"]
    assert "<script" not in html and "<b>" not in html and "href=\"javascript" not in html
    assert "&lt;script&gt;" in html
    no_page = client.get("/api/games/clockwork-spades/rules?full=1")
    assert no_page.status_code == 404 and "no rules page" in no_page.json()["error"]["message"]


def test_the_rules_page_is_the_app(client):
    res = client.get("/rules/spite-and-malice")
    assert res.status_code == 200 and "/static/app.js" in res.text


@pytest.fixture
def seeded(tmp_path):
    """A server whose matches are all dealt from seed 1 (Ann draws in her first view)."""
    with app_client(tmp_path / "seeded.sqlite3", new_seed=lambda: 1) as c:
        yield c


def test_clockwork_views_carry_the_games_own_sentence_for_each_event(seeded):
    client = seeded
    res = table_of(client, "clockwork-spades", [{"kind": "person"}, BOTS2[0]], name="Ann")
    tid = res["table"]["id"]
    ann = Player(client, tid, res["token"])
    watcher = Player(client, tid, None)
    msg = ann.view()
    bot = res["table"]["seats"][1]["name"]
    assert bot in BOT_NAMES and res["table"]["seats"][1]["level"] == "normal"
    assert msg["narration"] == [say(narrate_event(ev, [YOU, bot]), "en")
                                for ev in msg["view"]["events"]]
    assert any(line.startswith("You draw ") for line in msg["narration"])
    assert not any("Ann" in line or line.startswith("You draws") for line in msg["narration"])
    seen = watcher.view()
    assert seen["narration"] == [say(narrate_event(ev, [GUEST_ANN, bot]), "en")
                                 for ev in seen["view"]["events"]]
    assert any(line.startswith("Ann (guest) draws a card.") for line in seen["narration"])
    assert len(seen["narration"]) == len(seen["view"]["events"])
    # a card drawn is told only to its drawer
    for ev, line in zip(seen["view"]["events"], seen["narration"], strict=True):
        if ev["kind"] == "draw":
            assert "card" not in ev and line.endswith("draws a card.")
    ann.close()
    watcher.close()


def test_replays_carry_the_sentences_too_and_spades_has_none(client):
    res = table_of(client, "clockwork-spades", BOTS2)
    tid = res["table"]["id"]
    watcher = Player(client, tid, None)
    watcher.recv_until(lambda m: m["type"] == "view" and m["status"] == "finished",
                       "the view that ends the match")
    watcher.close()
    step = client.get(f"/api/tables/{tid}/matches/1/replay?step=0&seat=1").json()
    bots = [s["name"] for s in res["table"]["seats"]]
    assert len(set(bots)) == 2 and set(bots) <= set(BOT_NAMES)
    assert step["narration"] == [say(narrate_event(e, bots), "en") for e in step["view"]["events"]]
    # in the reader's language (its cookie, else Accept-Language)
    told = client.get(f"/api/tables/{tid}/matches/1/replay?step=0&seat=1",
                      headers={"Accept-Language": "id"}).json()["narration"]
    assert told == [say(narrate_event(e, bots), "id") for e in step["view"]["events"]]
    assert told != step["narration"]
    client.cookies.set("parlour_lang", "pt-BR")
    told = client.get(f"/api/tables/{tid}/matches/1/replay?step=0&seat=1",
                      headers={"Accept-Language": "id"}).json()["narration"]
    client.cookies.clear()
    assert told[0] == say(narrate_event(step["view"]["events"][0], bots), "pt_BR")
    end = client.get(f"/api/tables/{tid}/matches/1/replay").json()
    assert end["view"]["events"][-1]["kind"] == "end" and end["narration"][-1]
    spades = table_of(client, "spades", [{"kind": "bot", "bot": "rule"}] * 4,
                      options={"target": 10})
    watcher = Player(client, spades["table"]["id"], None)
    assert "narration" not in watcher.view()
    watcher.close()


def test_a_match_over_at_the_deal_is_finished_at_once(client, monkeypatch):
    """Clockwork Spades can end before anyone decides: the table must not wait for a move
    that never comes."""
    class OverAtOnce(ClockworkGame):  # a plain subclass: the compiled class stays as it is
        def _new(self, seed, seats, options):
            state = super()._new(seed, seats, options)
            while state.to_act:
                state.apply(state.legal_actions()[0])
            return state

    game = OverAtOnce()
    real = life.get_game
    monkeypatch.setattr(life, "get_game",
                        lambda game_id: game if game_id == game.id else real(game_id))
    res = table_of(client, "clockwork-spades", BOTS2)
    table = res["table"]
    assert table["status"] == "finished" and table["result"].startswith("points ")
    assert table["finished_matches"] == [1]
    watcher = Player(client, table["id"], None)
    msg = watcher.view()
    assert msg["status"] == "finished" and msg["view"]["outcome"] is not None
    again = client.post(f"/api/tables/{table['id']}/again")
    assert again.status_code == 200 and again.json()["table"]["match"] == 2
    assert again.json()["table"]["status"] == "finished"
    watcher.close()


def test_narration_names_tell_people_apart_and_call_the_reader_you():
    assert pages.seat_names(["South", "North"], ["Ann", None]) == ["Ann", "North"]
    assert [str(n) for n in pages.seat_names(["South", "North"], ["Bo", "Bo"])] \
        == ["Bo (South)", "Bo (North)"]
    assert pages.seat_names(["South", "North"], ["Ann", "Mia"], you=0) == [YOU, "Mia"]
    assert pages.seat_names(["South", "North"], ["Ann", "Mia"], you=1) == ["Ann", YOU]
