"""How to play in a real browser (Debian's Chromium): the rules opened from a table, in
Indonesian and Brazilian Portuguese, show that table's own options, draw their figures,
link the full rules and fit a 1280 x 800 laptop screen without scrolling."""

from __future__ import annotations

import httpx
import pytest
from browser_kit import page_of, shot, wait_until_js, watched
from server_kit import create

from parlour.games import game_ids, get_game

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

#: Ann (who opened the table, and never plays: the table holds still) and rule bots.
SEATS = {"spades": [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3,
         "spite-and-malice": [{"kind": "person"}, {"kind": "bot", "bot": "rule"}]}
LAPTOP = {"width": 1280, "height": 800}
#: Nothing to scroll in an element (a pixel of rounding allowed).
FITS = "el => el.scrollHeight <= el.clientHeight + 1"
FIGURES_DRAWN = ("() => [...document.querySelectorAll('.howto img')].every("
                 "img => img.complete && img.naturalWidth > 0)")


def in_language(browser, tag: str):
    page = page_of(browser, **LAPTOP)
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', '{tag}')")
    return page


@pytest.mark.parametrize(("tag", "game", "options", "title", "says"), [
    ("id", "spades", {"target": 300, "blind_nil": True}, "Cara bermain Spades",
     ("300 poin", "nil buta")),
    ("pt-BR", "spite-and-malice", {"target": 75, "centre_piles": 4, "king_starts": True},
     "Como jogar Spite & Malice", ("75 pontos", "4 pilhas centrais", "começar uma pilha")),
])
def test_the_rules_of_a_table_in_its_readers_language(browser, base, tag, game, options,
                                                      title, says):
    with httpx.Client(base_url=base) as client:
        table = create(client, SEATS[game], options, game=game)["table"]["id"]
    page = in_language(browser, tag)
    page.goto(f"{base}/t/{table}")
    page.click("button.rules-button")
    page.wait_for_selector("#rules-dialog[open] .rules-text.howto img")
    wait_until_js(page, "the figures drawn", FIGURES_DRAWN)
    assert page.inner_text("#rules-dialog-title") == title
    text = " ".join(page.inner_text("#rules-dialog .rules-scroll").split())
    for words in says:
        assert words in text
    assert page.get_attribute("#rules-dialog .rules-text", "lang") == tag
    assert page.eval_on_selector("#rules-dialog .rules-scroll", FITS), "the rules scroll"
    box = page.locator("#rules-dialog").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]
    shot(page, f"howto-{game}-{tag}", full_page=False)
    full = page.get_attribute("#rules-dialog a.rules-full", "href")
    assert full == f"/rules/{game}/full"
    own = page.get_attribute("#rules-dialog a.rules-tab", "href")
    assert own == f"/rules/{game}?table={table}"
    page.click("#rules-dialog button.button")
    page.wait_for_selector("#rules-dialog", state="hidden")
    page.goto(base + own)  # the page by itself: the same options, one screen
    page.wait_for_selector(".rules-page .howto h1")
    assert all(words in " ".join(page.inner_text(".rules-page").split()) for words in says)
    page.click(".rules-more a")
    page.wait_for_selector(".rules-page .rules-text:not(.howto) h2")
    assert page.get_attribute(".rules-page .rules-text", "lang") == tag  # translated
    assert page.locator(".rules-page .rules-text > p.muted").count() == 0  # no English notice
    assert page.url.endswith(f"/rules/{game}/full")


@pytest.mark.parametrize("tag", [pytest.param("en", marks=pytest.mark.long), "id", "pt-BR"])
def test_every_how_to_page_fits_a_laptop_screen(browser, base, tag):
    """Over a table (the Rules button) and by itself, every game's page in every language
    fits 1280 x 800: nothing to scroll. English, whose pages the translations lengthen
    (the six pages' text: Indonesian 13% longer, Portuguese 6%), in make test-long only."""
    page = in_language(browser, tag)
    with httpx.Client(base_url=base) as client:
        tables = {game: create(client, [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}]
                               * (get_game(game).default_seats - 1), game=game)["table"]["id"]
                  for game in game_ids()}
    for game, table in tables.items():
        page.goto(f"{base}/t/{table}")
        page.click("button.rules-button")
        page.wait_for_selector("#rules-dialog[open] .rules-text.howto img")
        wait_until_js(page, "the figures drawn in the dialog", FIGURES_DRAWN)
        if not page.eval_on_selector("#rules-dialog .rules-scroll", FITS):
            shot(page, f"howto-dialog-too-tall-{game}-{tag}", full_page=False)
            pytest.fail(f"{game} in {tag} scrolls in the dialog")
        page.goto(f"{base}/rules/{game}")
        page.wait_for_selector(".rules-page .howto h1")
        wait_until_js(page, "the figures drawn on the page", FIGURES_DRAWN)
        assert page.get_attribute(".rules-page .rules-text", "lang") == tag
        height = page.evaluate("document.documentElement.scrollHeight")
        if height > LAPTOP["height"]:
            shot(page, f"howto-too-tall-{game}-{tag}")
        assert height <= LAPTOP["height"], f"{game} in {tag} is {height}px tall"


def test_the_dialogs_full_rules_open_translated_on_a_phone(browser, base):
    """On a phone, in Indonesian, the Rules dialog's "Aturan lengkap" opens the full rules in
    a new tab, translated and titled as the full rules, with no English-page notice."""
    page = page_of(browser, 390, 844, touch=True)
    page.context.add_init_script("try { localStorage.setItem('parlour.lang', 'id') } catch {}")
    page.context.on("page", watched)  # the new tab's errors count too
    with httpx.Client(base_url=base) as client:
        table = create(client, SEATS["spite-and-malice"], game="spite-and-malice")["table"]["id"]
    page.goto(f"{base}/t/{table}")
    page.click("button.rules-button")
    page.wait_for_selector("#rules-dialog[open] .rules-text.howto")
    link = page.locator("#rules-dialog a.rules-full")
    assert link.inner_text() == "Aturan lengkap"
    with page.context.expect_page() as opened:
        link.click()
    full = opened.value
    full.wait_for_selector(".rules-page .rules-text:not(.howto) h2")
    assert full.url.endswith("/rules/spite-and-malice/full")
    assert full.get_attribute(".rules-page .rules-text", "lang") == "id"
    assert full.inner_text(".rules-page h1") == "Aturan lengkap Spite & Malice"
    assert full.title() == "Aturan lengkap Spite & Malice · Parlour"
    text = " ".join(full.inner_text(".rules-page").split())
    assert "Raja tidak boleh memulai tumpukan tengah yang kosong" in text
    assert full.locator(".rules-page .rules-text > p.muted").count() == 0  # no English notice
    shot(full, "full-rules-id-phone")
