"""How to play: each game's short page in each language, for a table's options; the
figures; the full rules free of repository paths; the rules endpoint's language, table and
errors; ``parlour rules``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from server_kit import app_client, create

from parlour import fullrules
from parlour.cli import main
from parlour.engine import Option, OptionError
from parlour.games import game_ids, get_game
from parlour.howto import PAGES, howto_html, howto_markdown, page_path
from parlour.howto.figures import drawings
from parlour.i18n import LANGUAGES
from parlour.registry import spec

#: What a player must never be sent to: the repository's paths.
REPOSITORY_PATH = re.compile(r"\b(?:shared/(?:seeds|references)|tests/|parlour/|docs/|bench/|"
                             r"examples/)|\w\.py\b")
#: Options a page leaves out: safety stops (a real game ends long before) and how quickly
#: the bots slap; and options shown only with another (blind nil's value and deficit).
NOT_SHOWN = {"max_deals", "max_turns", "max_rounds", "bot_slap"}
SHOWN_WITH = {"blind_nil_value": {"blind_nil": True}, "blind_nil_deficit": {"blind_nil": True}}
#: A 300-point Spades table in each language's words.
SPADES_TO_300 = {"en": "**300 points**", "id": "**300 poin**", "pt_BR": "**300 pontos**"}
PAGES_OF = [(game, lang) for game in game_ids() for lang in LANGUAGES]


@pytest.mark.parametrize(("game_id", "lang"), PAGES_OF)
def test_every_game_has_a_short_page_in_every_language(game_id, lang):
    text = howto_markdown(game_id, lang)
    html = howto_html(game_id, lang)
    assert html.startswith("<h1>") and "<strong>" in html
    words = len(re.findall(r"\w+", re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)))
    assert 120 <= words <= 340, f"{game_id} in {lang}: {words} words (one screen: ~200-300)"
    folder = spec(game_id).folder
    figures = re.findall(rf"<img src=\"/static/games/{folder.name}/howto/([\w-]+)\.svg\" "
                         r"alt=\"([^\"]{20,})\"", html)
    assert figures, "every page draws the game"
    assert all((folder / "howto" / f"{name}.svg").is_file() for name, _ in figures)
    assert not REPOSITORY_PATH.search(text)
    assert "{{" not in html and "{%" not in html and "Decision" not in text


@pytest.mark.parametrize(("game_id", "lang"), PAGES_OF)
def test_a_page_is_written_markdown_without_raw_html(game_id, lang):
    """Raw HTML would be escaped and shown as text (markdown-it, html off)."""
    source = page_path(game_id, lang).read_text(encoding="utf-8")
    assert "<" not in source.replace("<!--", "")
    assert "&lt;" not in howto_html(game_id, lang, {})


def template_names(path) -> set[str]:
    """The option values a template names (``{{ target }}``, ``{% if raw.jokers %}``)."""
    text = path.read_text(encoding="utf-8")
    found = set(re.findall(r"\{\{\s*(\w+)", text))
    found |= {re.sub(r"^raw\.", "", n) for n in re.findall(r"\{%\s*if\s+([\w.]+)", text)}
    found |= set(re.findall(r"raw\.(\w+)", text))
    return found


@pytest.mark.parametrize("game_id", game_ids())
def test_every_language_shows_the_same_option_values(game_id):
    """A translation that forgot an option would tell its players another game."""
    english = template_names(page_path(game_id, "en"))
    for lang in LANGUAGES:
        assert template_names(page_path(game_id, lang)) == english, lang
    assert {p.stem for p in (spec(game_id).folder / PAGES).glob("*.md")} == set(LANGUAGES)


def other_value(option: Option) -> Any:
    """A value of the option other than its default."""
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.kind is bool:
        return not option.default
    if option.default is None:
        return -200 if option.minimum is not None and option.minimum < 0 else 7
    value = option.default + 1
    return value if option.maximum is None or value <= option.maximum else option.default - 1


OPTIONS = [(game, option) for game in game_ids() for option in get_game(game).options
           if option.name not in NOT_SHOWN]


@pytest.mark.parametrize(("game_id", "option"), OPTIONS,
                         ids=[f"{g}-{o.name}" for g, o in OPTIONS])
def test_a_tables_option_changes_what_the_page_says(game_id, option):
    base = SHOWN_WITH.get(option.name, {})
    for lang in LANGUAGES:
        plain = howto_markdown(game_id, lang, base)
        changed = howto_markdown(game_id, lang, {**base, option.name: other_value(option)})
        assert changed != plain, f"{game_id} in {lang} does not show {option.name}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_spades_to_300_says_300_and_numbers_read_as_the_language_writes_them(lang):
    assert SPADES_TO_300[lang] in howto_markdown("spades", lang, {"target": 300})
    assert "**500 " in howto_markdown("spades", lang)
    thousand = howto_markdown("spades", lang, {"target": 1000})
    assert ("1.000" if lang != "en" else "1,000") in thousand
    blind = howto_markdown("spades", lang, {"blind_nil": True, "blind_nil_value": 250})
    assert "250" in blind and "250" not in howto_markdown("spades", lang)
    scoring = howto_html("spades", lang, {"mercy": -300})  # one tight list of five rules
    assert scoring.count("<li>") == 5 and "<li><p>" not in scoring


def test_the_tables_own_options_in_each_language():
    deck = {lang: howto_markdown("hit-the-deck", lang, {"copies": 2, "hand_size": 5})
            for lang in LANGUAGES}
    assert "70" in deck["en"] and "110" not in deck["en"]  # 110 cards less 40 numbers
    assert all("70" in text and " 5 " in text for text in deck.values())
    seed = {lang: howto_markdown("foursquare", lang, {"flip": "seed"}) for lang in LANGUAGES}
    assert "your card turns over too" in seed["en"]
    assert "ikut terbalik" in seed["id"] and "também vira" in seed["pt_BR"]
    assert "your card turns over too" not in howto_markdown("foursquare", "en")
    snm = howto_markdown("spite-and-malice", "pt_BR", {"centre_piles": 4, "jokers": 2})
    assert "4 pilhas centrais" in snm and "2 curingas" in snm


def test_card_names_are_the_players_own():
    assert "hati" in howto_markdown("spades", "id") and "sekop" in howto_markdown("spades", "id")
    assert "trik" in howto_markdown("spades", "id")
    pt = howto_markdown("spades", "pt_BR")
    assert "vaza" in pt and "copas" in pt and "espadas" in pt
    assert "valete" in howto_markdown("clockwork-spades", "pt_BR")
    assert "ratu" in howto_markdown("clockwork-spades", "id")


def test_a_bad_option_is_refused_with_its_reason():
    with pytest.raises(OptionError, match="target"):
        howto_markdown("spades", "en", {"target": "lots"})
    with pytest.raises(OptionError, match=r"spades has no option .colour."):
        howto_markdown("spades", "en", {"colour": 3})


# ----------------------------------------------------------------------------- figures
def test_the_figures_are_what_the_code_draws_and_obey_the_csp():
    found = drawings()
    for path, draw in found.items():
        drawn = draw()
        assert path.read_text(encoding="utf-8") == drawn, (
            f"{path} is stale: run python -m parlour.howto.figures")
        assert "style=" not in drawn and "<script" not in drawn and "href" not in drawn
        assert not re.search(r">[A-Za-z]{2,}<", drawn), "a figure holds no words"
    for game_id in game_ids():  # no figure left over from an older drawing
        assert set((spec(game_id).folder / "howto").glob("*.svg")) <= set(found)


# ----------------------------------------------------------------------------- full rules
@pytest.mark.parametrize(("game_id", "lang"), PAGES_OF)
def test_the_full_rules_name_no_repository_path(game_id, lang):
    page, _ = spec(game_id).full_rules(lang)
    text = fullrules.markdown(page)
    found = sorted({m.group(0) for m in REPOSITORY_PATH.finditer(text)})
    assert not found, f"{page} names {found}"


# ----------------------------------------------------------------------------- the endpoint
@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with app_client(tmp_path_factory.mktemp("howto") / "howto.sqlite3") as c:
        yield c


def rules(client, game: str = "spades", headers: dict[str, str] | None = None,
          cookies: dict[str, str] | None = None, **params: str):
    client.cookies.clear()
    for key, value in (cookies or {}).items():
        client.cookies.set(key, value)
    return client.get(f"/api/games/{game}/rules", params=params, headers=headers or {})


def test_the_language_from_lang_then_the_cookie_then_accept_language(client):
    assert rules(client, lang="pt").json()["lang"] == "pt-BR"
    assert rules(client, lang="id-ID").json()["html"].startswith("<h1>Cara bermain Spades")
    assert rules(client, headers={"Accept-Language": "pt;q=0.9, de"}).json()["lang"] == "pt-BR"
    assert rules(client, headers={"Accept-Language": "de"}).json()["lang"] == "en"
    by_cookie = rules(client, headers={"Accept-Language": "pt"}, cookies={"parlour_lang": "id"})
    assert by_cookie.json()["lang"] == "id"
    asked = rules(client, lang="en", cookies={"parlour_lang": "pt-BR"})
    assert asked.json()["lang"] == "en"
    odd = rules(client, headers={"Accept-Language": "id"}, cookies={"parlour_lang": "x" * 90})
    assert odd.json()["lang"] == "id"
    full = rules(client, lang="id", full="true").json()
    assert full["full"] is True and full["lang"] == "id" and "<h2>" in full["html"]


def test_a_tables_rules_show_its_options_in_every_language(client):
    table = create(client, options={"target": 300, "blind_nil": True})["table"]["id"]
    for lang, words in (("en", "300 points"), ("id", "300 poin"), ("pt-BR", "300 pontos")):
        body = rules(client, lang=lang, table=table).json()
        html = body["html"].replace("nil às cegas", "blind nil").replace("nil buta", "blind nil")
        assert words in body["html"] and "blind nil" in html
    assert "300" not in rules(client, lang="en").json()["html"]


def test_bad_requests_get_clear_errors_and_change_nothing(client):
    table = create(client)["table"]["id"]
    before = client.get(f"/api/tables/{table}").json()
    cases = [
        (rules(client, lang="tlh"), 400, "Parlour does not speak that language"),
        (rules(client, lang="x" * 36), 400, "lang"),
        (rules(client, lang="<script>"), 400, "Parlour does not speak"),
        (rules(client, table="nosuchtable"), 404, "there is no table with that id"),
        (rules(client, table="../../etc"), 400, "table"),
        (rules(client, table="x" * 17), 400, "table"),
        (rules(client, "foursquare", table=table), 400, "that table plays Spades, not "
                                                        "Foursquare"),
        (rules(client, colour="red"), 400, "colour"),
        (rules(client, full="perhaps"), 400, "full"),
        (rules(client, "chess"), 404, "there is no game with that id"),
    ]
    for res, status, words in cases:
        assert res.status_code == status, res.text
        error = res.json()["error"]
        assert words in error["message"] and len(error["message"]) <= 300
    assert client.get(f"/api/tables/{table}").json() == before


# ----------------------------------------------------------------------------- the terminal
def test_parlour_rules_in_the_terminals_language(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "id_ID.UTF-8")
    assert main(["rules", "spades", "--option", "target=300"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Cara bermain Spades" in out and "300 poin" in out
    assert "Aturan lengkap: parlour rules spades --full" in out
    assert "/static/" not in out and "tiga sekop" in out  # a figure is its caption
    assert main(["rules", "hit-the-deck", "--lang", "pt", "--option", "copies=2"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Como jogar Hit the Deck" in out and "70 cartas" in out
    assert main(["rules", "foursquare", "--full", "--lang", "en"]) == 0
    assert "The flip rule" in capsys.readouterr().out


def test_the_rules_pages_are_the_app(client):
    for path in ("/rules/spades", "/rules/spades/full", "/rules/hit-the-deck?table=abc"):
        res = client.get(path)
        assert res.status_code == 200 and "/static/app.js" in res.text, path
    assert client.get("/rules/spades/full/more").status_code == 404
    assert client.get("/rules/spades/short").status_code == 404
    svg = client.get("/static/games/spades/howto/trick.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    # a game's folder serves its web files only, never its modules or pages
    for hidden in ("rules.py", "spec.py", "howto/en.md", "full-rules/en.md", "../registry.py"):
        assert client.get(f"/static/games/spades/{hidden}").status_code == 404, hidden
    script = client.get("/static/games/spades/table.js")
    assert script.status_code == 200 and "export function mount(" in script.text
    assert client.get("/static/games/spades/table.css").status_code == 200
