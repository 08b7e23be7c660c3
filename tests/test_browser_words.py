"""The words a reader of Indonesian or Brazilian Portuguese meets first (issue 32), in the
page: the new-table button deals the cards (it is no "part" and no "hand"), the language
switch names Bahasa Indonesia, the daily deals' day is written as the reader writes a day,
and the replay's Play button plays the recording back."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_kit import page_of, shot

pytestmark = [pytest.mark.browser]

WORDS = {
    "id": {"deal": "Bagikan kartu", "play": "Putar", "month": "Desember"},
    "pt-BR": {"deal": "Dar as cartas", "play": "Reproduzir", "month": "dezembro"},
}


def in_language(browser: Any, base: str, lang: str, width: int = 1280, height: int = 900) -> Any:
    page = page_of(browser, width, height)
    page.context.add_cookies([{"name": "parlour_lang", "value": lang, "url": base}])
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', {json.dumps(lang)})")
    return page


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_new_table_button_deals_and_the_replay_plays_in_the_readers_words(browser, base,
                                                                                lang):
    page = in_language(browser, base, lang)
    page.goto(base + "/new/spades?deal=7")
    button = page.wait_for_selector("form.join button[type=submit]")
    assert button.inner_text() == WORDS[lang]["deal"]
    assert page.evaluate("document.documentElement.lang") == lang
    # the replay's button, through the page's own catalog (what app.js calls for it)
    play = page.evaluate("async () => (await import('/static/i18n.js')).p('replay', 'Play')")
    assert play == WORDS[lang]["play"]
    names = page.eval_on_selector_all("#lang-switch option", "os => os.map(o => o.textContent)")
    assert names == ["English", "Bahasa Indonesia", "Português (Brasil)"]
    day = page.evaluate("async () => (await import('/static/i18n.js')).day('2026-12-04')")
    assert day.startswith("4") and WORDS[lang]["month"] in day and "2026" in day, day
    shot(page, f"words-deal-{lang}")


def test_the_daily_deals_say_the_day_in_the_readers_words(browser, base):
    page = in_language(browser, base, "pt-BR")
    page.goto(base + "/daily")
    text = page.wait_for_selector("main h1 + p").inner_text()
    assert re.search(r"\(\d{1,2} de \w+ de \d{4}, UTC\)", text), text  # not 2026-12-04



def test_the_replays_play_button_in_the_readers_words(browser, base):
    """A finished Foursquare deal played by a bot (one seat, the fastest speed), replayed in
    each language: the button that plays the recording back says so in the reader's words
    (it is no "Main" nor "Jogar")."""
    first = in_language(browser, base, "id")
    res = first.request.post(base + "/api/tables", data=json.dumps(
        {"game": "foursquare", "seats": [{"kind": "bot", "bot": "rule"}], "options": {},
         "name": "Sam", "speed": "fast", "public": False}),
        headers={"Content-Type": "application/json"})
    assert res.ok, res.text()
    table = res.json()["table"]["id"]
    first.goto(f"{base}/t/{table}")
    first.wait_for_selector(".endbar:not([hidden])", timeout=60_000)
    for lang, words in WORDS.items():
        page = first if lang == "id" else in_language(browser, base, lang)
        page.goto(f"{base}/t/{table}/replay/1")
        button = page.wait_for_selector(".replay-controls button:nth-child(3)")
        assert button.get_attribute("aria-label") == words["play"]
        assert button.inner_text().strip() == words["play"]
        shot(page, f"words-replay-{lang}")
