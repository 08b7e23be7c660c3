"""The full rules in every language: each game's page translated into Indonesian and
Brazilian Portuguese, kept in step with the English page (a changed English page fails
here until its translations follow), every heading, list item, table row and example kept;
served by the rules endpoint and ``parlour rules --full`` in the reader's language, titled
as the full rules; reachable as package data."""

from __future__ import annotations

import html
import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from server_kit import app_client

from parlour import fullrules
from parlour.cli import main
from parlour.games import game_ids, get_game
from parlour.i18n import translate
from parlour.registry import spec

#: The languages the full rules are translated into (a catalog's name each).
TRANSLATED = ("id", "pt_BR")
#: What a translated page is titled (its first heading, and the terminal's header).
TITLE = {"id": "Aturan lengkap {game}", "pt_BR": "Regras completas de {game}"}


def own_sentence(game_id: str, lang: str) -> str:
    """A sentence of the translation's body in its own words: the first line of prose (no
    markup) that the English page does not hold, which the served page must show."""
    english = fullrules.markdown(fullrules.page(game_id, "en")[0])
    for line in fullrules.markdown(fullrules.translation(game_id, lang)).splitlines():
        line = line.strip()
        if len(line) > 30 and re.fullmatch(r"[^\W\d_][\w ,.;:'’()-]+", line) \
                and line not in english:
            return line
    raise AssertionError(f"{game_id}'s {lang} page has no line of plain prose")


#: The terminal's notice before an untranslated page, in each language.
ENGLISH_NOTICE = {lang: translate(lang, "[dim]The full specification is written in English.[/]")
                  .removeprefix("[dim]").removesuffix("[/]") for lang in TRANSLATED}
PAGES = [(game, lang) for game in game_ids() for lang in TRANSLATED]
ROOT = Path(__file__).resolve().parent.parent


def structure(markdown: str) -> Counter[str]:
    """What a page is made of, counted: headings by level, list items, table rows, code
    blocks, emphasised phrases and inline code (a translation keeps every one)."""
    counts: Counter[str] = Counter()
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type in ("heading_open", "list_item_open", "tr_open", "fence",
                          "code_block"):
            counts[f"{token.type} {token.tag}"] += 1
        for child in token.children or ():
            if child.type in ("strong_open", "em_open", "code_inline"):
                counts[child.type] += 1
    return counts


def code_of(markdown: str) -> Counter[str]:
    """Every inline code span, fenced block and indented block of a page, counted by its
    exact text: commands, options and notation, which a translation keeps as they are."""
    found: Counter[str] = Counter()
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type in ("fence", "code_block"):
            found[f"{token.type}: {token.content}"] += 1
        for child in token.children or ():
            if child.type == "code_inline":
                found[f"code: {child.content}"] += 1
    return found


def text_of(page_html: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page_html)).split())


# ----------------------------------------------------------------------------- in step
@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_every_translation_follows_todays_english_page(game_id, lang):
    problem = fullrules.stale(game_id, lang)
    assert problem is None, problem


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_a_translation_keeps_every_heading_item_row_and_example(game_id, lang):
    english = fullrules.markdown(fullrules.page(game_id, "en")[0])
    translated = fullrules.markdown(fullrules.translation(game_id, lang))
    assert structure(translated) == structure(english)
    blocks = re.compile(r"```.*?```", re.S)  # the examples' text is notation: kept as it is
    assert blocks.findall(translated) == blocks.findall(english)
    translated_code, english_code = code_of(translated), code_of(english)
    assert translated_code == english_code, (  # a command with a translated word fails
        f"code changed in translation: {sorted((translated_code - english_code).elements())} "
        f"instead of {sorted((english_code - translated_code).elements())}")
    assert translated.startswith("# " + TITLE[lang].format(game=get_game(game_id).name))


def test_a_changed_english_page_makes_its_translations_stale(tmp_path, monkeypatch):
    pages = tmp_path / "spades" / fullrules.RULES
    pages.mkdir(parents=True)
    for name in ("en.md", "id.md"):
        shutil.copy(fullrules.folder("spades") / name, pages / name)
    monkeypatch.setattr(fullrules, "GAMES", tmp_path)
    monkeypatch.setattr(fullrules, "_shown", lambda path: f"spades/full-rules/{path.name}")
    assert fullrules.stale("spades", "id") is None
    with (pages / "en.md").open("a", encoding="utf-8") as page:
        page.write("\nA new decision.\n")
    problem = fullrules.stale("spades", "id")
    assert problem is not None and \
        "spades/full-rules/en.md changed since spades/full-rules/id.md" in problem
    assert fullrules.follows_line("spades") in problem  # says what the line must become
    (pages / "id.md").write_text("# Aturan lengkap Spades\n", encoding="utf-8")
    problem = fullrules.stale("spades", "id")
    assert problem is not None and "does not say which version" in problem
    problem = fullrules.stale("spades", "pt_BR")
    assert problem is not None and "no full rules page in pt_BR" in problem


def test_every_file_of_a_games_folder_is_package_data():
    """An installed copy holds each game's pages and web table: pyproject's package data
    names every file of every game's folder that is not a Python module, and the lookups
    read the pages in the folder."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package = ROOT / "parlour"
    shipped = {path for pattern in config["tool"]["setuptools"]["package-data"]["parlour"]
               for path in package.glob(pattern)}
    for game_id in game_ids():
        found = spec(game_id)
        files = {p for p in found.folder.rglob("*") if p.is_file() and p.suffix != ".py"
                 and "__pycache__" not in p.parts}
        assert files - shipped == set(), f"add {files - shipped} to pyproject's package-data"
        assert {found.full_rules(lang)[0] for lang in ("en", "id", "pt_BR")} <= shipped
        assert set(found.web_files()) <= shipped


# ----------------------------------------------------------------------------- served
@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with app_client(tmp_path_factory.mktemp("fullrules") / "fullrules.sqlite3") as c:
        yield c


@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_the_full_rules_are_served_in_the_readers_language(client, game_id, lang):
    tag = lang.replace("_", "-")
    res = client.get(f"/api/games/{game_id}/rules", params={"full": "true", "lang": tag})
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["full"] is True and body["lang"] == tag
    title = TITLE[lang].format(game=get_game(game_id).name)
    assert body["html"].startswith(f"<h1>{html.escape(title, quote=False)}</h1>")
    text = text_of(body["html"])
    assert own_sentence(game_id, lang) in text
    assert "translated from" not in text and "sha256" not in text


def test_the_full_rules_follow_the_pages_negotiation(client):
    client.cookies.clear()
    asked = {"params": {"full": "true"}}
    by_header = client.get("/api/games/spades/rules", headers={"Accept-Language": "pt"},
                           **asked).json()
    assert by_header["lang"] == "pt-BR" and "Regras completas de Spades" in by_header["html"]
    client.cookies.set("parlour_lang", "id")
    by_cookie = client.get("/api/games/spades/rules", headers={"Accept-Language": "pt"},
                           **asked).json()
    client.cookies.clear()
    assert by_cookie["lang"] == "id" and "Aturan lengkap Spades" in by_cookie["html"]
    english = client.get("/api/games/spades/rules", headers={"Accept-Language": "de"},
                         **asked).json()
    assert english["lang"] == "en" and english["html"].startswith("<h1>Spades</h1>")


# ----------------------------------------------------------------------------- terminal
@pytest.mark.parametrize(("game_id", "lang"), PAGES)
def test_parlour_rules_full_in_the_terminals_language(capsys, game_id, lang):
    assert main(["rules", game_id, "--full", "--lang", lang.replace("_", "-")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    title = TITLE[lang].format(game=get_game(game_id).name)
    assert out.count(title) >= 2  # the header and the page's own title
    assert own_sentence(game_id, lang) in out
    assert ENGLISH_NOTICE[lang] not in out
    assert "translated from" not in out


def test_parlour_rules_full_reads_lang(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["rules", "spades", "--full"]) == 0
    assert "Regras completas de Spades" in capsys.readouterr().out


def test_an_untranslated_page_is_the_english_one_under_a_notice(client, capsys, tmp_path,
                                                                 monkeypatch):
    (tmp_path / "spades" / fullrules.RULES).mkdir(parents=True)
    shutil.copy(fullrules.folder("spades") / "en.md", tmp_path / "spades" / fullrules.RULES)
    monkeypatch.setattr(fullrules, "GAMES", tmp_path)
    body = client.get("/api/games/spades/rules", params={"full": "true", "lang": "id"}).json()
    assert body["lang"] == "en" and body["html"].startswith("<h1>Spades</h1>")
    assert main(["rules", "spades", "--full", "--lang", "id"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ENGLISH_NOTICE["id"] in out and "Aturan lengkap Spades" in out  # the header
