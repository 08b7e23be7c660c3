"""The page in the reader's language, in Debian's Chromium.

* A pseudo-locale run (``qps``, tests/pseudo_locale.py: every catalog string decorated and
  its letters accented) of each of the five tables, live at a seat and at the end of a
  match of bots with its results and replay, finds no visible undecorated text: a string
  that skipped the catalogs cannot hide.
* A Spades trick in Indonesian and a Spite & Malice turn in Brazilian Portuguese: the
  narration and an illegal move's reason read in that language.
* The same pseudo-locale check over the lobby, the daily deals, a leaderboard, a profile,
  the account page and the sign-in, sign-up and recovery forms.
* The language switch in the header: a choice reloads the page in it and is remembered.
"""

from __future__ import annotations

import datetime
import json
import re
import sqlite3
import time
from typing import Any

import pseudo_locale
import pytest
from browser_kit import page_of, shot, version, wait_moved_on, wait_until_js
from game_checks import piece
from players_kit import sign_up
from waits import wait_until

from parlour.registry import game_ids
from parlour.server.people.identity import SESSION_COOKIE
from parlour.server.play.names import BOT_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

NAME = "Sam"
RULE = {"kind": "bot", "bot": "rule"}

# What the pseudo-locale check does not read, and why (each a thing that is the same in
# every language): card faces (ranks, suits and the words printed on Hit the Deck's cards:
# a card is drawn, not written), card chips in sentences ("Q♠", read out by their
# localized names), notation in a <code>, key
# names (<kbd>), the brand, the language switch (each language listed by its own name), and
# Hit the Deck's colour disc (the colour's letter as the cards print it, R Y G B, beside its
# shape; the sentence next to it names the colour in the reader's language).
UNREAD = (".card, .card-back, .hcard, .cardref, code, kbd, .brand, #lang-switch, .ob-disc, "
          "script, style")

# Text that may show in ASCII letters in any language: names (the player's, the bots'
# kinds, the table's id: data, not words), card and rank codes ("QS", "A", "Jkr"), the
# grid's cells and column letters (Foursquare's notation), and the tables' key names in a
# label ("Draw a card (key D)"). Everything else (numbers and punctuation carry no
# letters) must come from the catalog.
CODES = [r"\b(?:10|[2-9AJQK])[CDHS]\b", r"\b(?:10|[2-9AJQK]|Jkr)\b", r"\b[a-g][1-7]?\b",
         r"\b[CDHPS]\b"]

COLLECT = """(unread) => {
  const out = [];
  const shown = (el) => !el.closest(unread) && el.checkVisibility({ visibilityProperty: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (node.textContent.trim() && el && shown(el)) out.push(node.textContent.trim());
  }
  for (const select of document.body.querySelectorAll("select")) {  // every choice it offers
    if (shown(select)) for (const o of select.options) out.push(o.textContent.trim());
  }
  for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!shown(el)) continue;
    for (const a of ["aria-label", "title", "placeholder"]) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  }
  return out;
}"""


def undecorated(page: Any, names: set[str]) -> list[str]:
    """The visible texts of the page (and the labels a screen reader reads) with an ASCII
    letter left once names and codes are taken out: a string that skipped the catalogs."""
    allowed = re.compile("|".join([*(re.escape(n) for n in sorted(names, key=len, reverse=True)),
                                   *CODES]))
    found = []
    for text in page.evaluate(COLLECT, UNREAD):
        if re.search(r"[A-Za-z]", allowed.sub(" ", text)):
            found.append(text)
    return sorted(set(found))


def open_at(browser: Any, base: str, lang: str, game: str, seats: list[dict[str, Any]],
            options: dict[str, Any] | None = None, finished: bool = False
            ) -> tuple[Any, str]:
    """A page in ``lang`` (its cookie and its choice on this device, as the language switch
    sets them) at a new table of ``game``; the page holds seat 0 if it is a person's. With
    ``finished`` (bots only), the page opens once the bots have played the match to its end
    (no page draws every step of it: the results and the replay are what is read)."""
    page = page_of(browser, 1280, 900)
    page.context.add_cookies([{"name": "parlour_lang", "value": lang, "url": base}])
    res = page.request.post(base + "/api/tables", data=json.dumps(
        {"game": game, "seats": seats, "options": options or {}, "name": NAME,
         "public": False}), headers={"Content-Type": "application/json"})
    assert res.ok, res.text()
    body = res.json()
    tid = body["table"]["id"]
    if finished:
        wait_until(lambda: page.request.get(f"{base}/api/tables/{tid}").json()["table"][
            "status"] == "finished", f"the bots to finish the match at {tid}", 90, every=0.25)
    held = {tid: {"seat": body["seat"], "token": body["token"]}} if body["token"] else {}
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', {json.dumps(lang)});"
                                 f"localStorage.setItem('parlour.seats', "
                                 f"{json.dumps(json.dumps(held))})")
    page.goto(f"{base}/t/{tid}")
    wait_until_js(page, "the page in another language",
                  "document.documentElement.lang !== 'en'")
    return page, tid


def table(game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A quick match of the game with rule bots, and what shows when the page's seat has
    something to do (from its folder's checks.py, BROWSER_I18N)."""
    found = piece(game_id, "BROWSER_I18N")
    return found["options"], [RULE] * found["rule_bots"], found["ready"]


@pytest.fixture
def qps(monkeypatch):
    pseudo_locale.install(monkeypatch)
    return pseudo_locale.TAG


@pytest.mark.parametrize("game", game_ids())
def test_the_pseudo_locale_leaves_no_visible_text_undecorated(browser, base, qps, game):
    options, bots, ready = table(game)
    names = {NAME, "Parlour", "rule", *BOT_NAMES}  # names are names in every language
    page, tid = open_at(browser, base, qps, game, [{"kind": "person"}, *bots], options)
    names.add(tid)
    page.wait_for_selector(ready, timeout=30_000)  # a bot may play its turn first
    page.wait_for_timeout(300)  # the first view's motion and narration settle
    assert page.evaluate("document.documentElement.lang") == qps
    assert "[!! " in page.inner_text(".board")
    shot(page, f"qps-{game}")
    assert undecorated(page, names) == []


#: The results and the replay, in make test for three kinds of table (tricks, shedding, the
#: grid); the other games' in make test-long (their own words on these screens are their
#: event lines: message ids, which tests/test_i18n.py finds translated in every catalog).
RESULTS_IN_MAKE_TEST = ("spades", "hit-the-deck", "foursquare")


@pytest.mark.parametrize("game", [
    pytest.param(g, marks=[] if g in RESULTS_IN_MAKE_TEST else [pytest.mark.long])
    for g in game_ids()])
def test_the_pseudo_locale_leaves_the_results_and_the_replay_decorated(browser, base, qps,
                                                                       game):
    """A match of bots to its end: the results over the table, then the replay."""
    options, bots, _ = table(game)
    names = {NAME, "Parlour", "rule", *BOT_NAMES}
    watch, tid = open_at(browser, base, qps, game, [RULE, *bots], options, finished=True)
    names.add(tid)
    watch.wait_for_selector(".endbar:not([hidden]) .results-title", timeout=90_000)
    assert undecorated(watch, names) == []
    watch.click(".endbar a[href*='/replay/']")
    watch.wait_for_selector(".replay-caption:not(:empty)")
    caption = watch.inner_text(".replay-caption")
    watch.locator(".replay-controls button").nth(4).click()  # the last step
    wait_until_js(watch, "the replay's last step",
                  "(c) => document.querySelector('.replay-caption').textContent !== c", caption)
    watch.wait_for_timeout(300)
    shot(watch, f"qps-{game}-replay")
    assert undecorated(watch, names) == []


def test_a_spades_trick_in_indonesian(browser, base):
    page, _ = open_at(browser, base, "id", "spades", [{"kind": "person"}, RULE, RULE, RULE])
    assert page.evaluate("document.documentElement.lang") == "id"
    page.wait_for_selector(".bid-panel:not([hidden]) button")
    assert "Berapa trik yang akan kamu ambil?" in page.inner_text(".bid-panel")
    page.click(".bid-panel button[data-action='bid 3']")
    # A trick: our card, the narration of the plays, and who took it (the side panel).
    page.wait_for_selector(".hand .card.playable")
    assert re.search(r"\b(sekop|hati|wajik|keriting)$", page.locator(".hand .card").first
                     .get_attribute("aria-label").split(",")[0])
    before = version(page)
    page.locator(".hand .card.playable").first.click()
    wait_moved_on(page, before)
    wait_until_js(page, "the narration of the card played, in Indonesian",
                  "/memainkan/.test(document.querySelector('.play-area p.sr-only').textContent)")
    narration = page.inner_text(".play-area p.sr-only")
    assert re.search(r"memainkan \S+ (sekop|hati|wajik|keriting)\.", narration), narration
    page.wait_for_selector(".last-trick p:has-text('Diambil')")
    # Then play on until a card in hand may not be played: clicked, the page says why, in
    # Indonesian (the engine's reason, rendered by the server), and sends nothing.
    # (A deal may end with every card South held playable when South played: then the next
    # deal's bid, and on.)
    reason = None
    for _ in range(40):
        page.wait_for_selector(".hand .card.playable, .bid-panel:not([hidden]) button")
        if page.locator(".bid-panel:not([hidden])").count():
            before = version(page)
            page.click(".bid-panel button[data-action='bid 3']")
            wait_moved_on(page, before)
            continue
        blocked = page.locator(".hand .card.illegal")
        if blocked.count():
            reason = blocked.first.get_attribute("title")
            blocked.first.click(force=True)  # aria-disabled: a click still asks why
            assert reason in page.wait_for_selector(".toast-error").inner_text()
            break
        before = version(page)
        page.locator(".hand .card.playable").first.click()
        wait_moved_on(page, before)
    assert reason is not None
    assert re.fullmatch(r"harus mengikuti (sekop|hati|wajik|keriting)|sekop belum pecah: "
                        r"buka dengan jenis lain", reason), reason
    shot(page, "spades-id")


def test_a_spite_and_malice_turn_in_portuguese(browser, base):
    page, _ = open_at(browser, base, "pt-BR", "spite-and-malice", [{"kind": "person"}, RULE],
                      {"payoff_size": 5})
    page.wait_for_selector(".snm-plate.mine.turn", timeout=30_000)
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    # An illegal move first: a hand card onto a centre pile that does not take it. The page
    # names the pile, the rank it needs and the card, in Portuguese.
    sources = dict(page.eval_on_selector_all(
        ".snm [data-key^='h'][data-targets]",
        "els => els.map(e => [e.dataset.key, e.dataset.targets])"))
    wrong = [(src, f"c{c}") for src, targets in sources.items() for c in (1, 2, 3)
             if f"c{c}" not in targets.split()]
    assert wrong
    src, dst = wrong[0]
    page.click(f"[data-key='{src}']")
    page.click(f"[data-key='{dst}']")
    toast = page.wait_for_selector(".toast-error").inner_text()
    # (an empty pile, as every pile is when the person plays first, takes only an ace)
    rank = r"(ás|dois|três|quatro|cinco|seis|sete|oito|nove|dez|valete|dama|rei)"
    needs = rf"(um (?!dama){rank}|uma dama)"  # the article agrees: "uma dama", "um ás"
    assert re.search(rf"A pilha central \d precisa de {needs}, não ", toast) or \
        re.search(rf"Um {rank} não pode começar uma pilha central: ela precisa de um ás", toast), \
        toast
    # Then the turn: a card onto a side pile ends it; the log says so in Portuguese.
    page.keyboard.press("Escape")
    hand = sorted(k for k in sources)
    sides = [t for t in sources[hand[0]].split() if t.startswith("s")]
    page.click(f"[data-key='{hand[0]}']")
    page.click(f"[data-key='{sides[0]}']")
    # (the bot's own turn may have ended with the same words: wait for the person's line)
    page.wait_for_selector(".snm-log li:has-text('Você põe'):has-text('fim da vez')")
    log = page.inner_text(".snm-log")
    assert re.search(r"Você põe \S+ na pilha lateral \d: fim da vez\.", log), log
    assert "registro das jogadas" in log.lower()  # the heading (in capitals by its style)
    shot(page, "snm-pt-BR")


def test_the_language_switch_reloads_the_page_in_the_chosen_language(browser, base):
    page = page_of(browser, 1280, 900)
    page.goto(base + "/rules/spades")
    switch = page.wait_for_selector("#lang-switch")
    assert page.evaluate("document.documentElement.lang") == "en"
    options = page.eval_on_selector_all("#lang-switch option", "os => os.map(o => o.value)")
    assert options == ["en", "id", "pt-BR"]
    with page.expect_navigation():
        switch.select_option("pt-BR")
    page.wait_for_selector("#lang-switch")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    assert page.inner_text("#crumbs a") == "Salão"
    page.goto(base + "/rules/spades")  # remembered: the cookie tells the server, too
    page.wait_for_selector("#lang-switch")
    assert page.evaluate("document.documentElement.lang") == "pt-BR"
    assert page.locator("#lang-switch").input_value() == "pt-BR"


def test_the_pseudo_locale_reaches_the_players_and_account_pages(browser, base, qps, tmp_path):
    db = tmp_path / "browser.sqlite3"  # browser_kit.parlour's database
    aid, token = sign_up(db, NAME)
    now = time.time()
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()
    counts = json.dumps({"bids_made": 1, "bids": 1, "nils_made": 0, "nils_failed": 0,
                         "bags": 2, "deals": 3})
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO parlour_player_matches (account_id, table_id, match, game, "
                     "seat, finished, rated, abandoned, won, points, counts) VALUES "
                     "(?, 'gone', 1, 'spades', 0, ?, 1, 0, 1, 310, ?)", (aid, now, counts))
        conn.execute("INSERT INTO parlour_ratings (account_id, game, mu, sigma, matches, "
                     "updated) VALUES (?, 'spades', 27, 6, 5, ?)", (aid, now))
        for step, mu in enumerate((25.5, 27.0)):
            conn.execute("INSERT INTO parlour_rating_history (account_id, game, at, mu, sigma) "
                         "VALUES (?, 'spades', ?, ?, 6)", (aid, now - 10 + step, mu))
        conn.execute("INSERT INTO parlour_daily (day, game, account_id, table_id, started, "
                     "result, finished) VALUES (?, 'spades', ?, 'gone', ?, 12, ?)",
                     (day, aid, now, now))
    page = page_of(browser, 1280, 900)
    page.context.add_cookies([{"name": "parlour_lang", "value": qps, "url": base},
                              {"name": SESSION_COOKIE, "value": token, "url": base}])
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', {json.dumps(qps)})")
    names = {NAME, "Parlour", "gone"}
    pages = {"/": ".game-tile", "/daily": ".daily-game", "/leaderboards/spades": ".board td",
             "/u/" + NAME: ".profile-game .figures", "/account": ".account-seats",
             "/signin": "#signin-name", "/signup": "#signup-name", "/recover": "#recover-code"}
    for path, ready in pages.items():
        page.goto(base + path)
        page.wait_for_selector(ready)
        if path == "/daily":
            # the day, written by Intl.DateTimeFormat, which knows no pseudo-locale
            names.add(page.evaluate("async (d) => (await import('/static/i18n.js')).day(d)", day))
            page.click(".daily-game[data-game='spades'] .daily-show-board")
            page.wait_for_selector(".daily-board li")
        assert page.evaluate("document.documentElement.lang") == qps
        assert undecorated(page, names) == [], path
