"""The Foursquare table in a real browser (Debian's Chromium): a whole game played through
the page, by clicks, the keyboard and the hint; the deal number shown and shared; the best
scores kept in this browser. Screenshots go to ``artifacts/browser/`` (with ``PARLOUR_SHOTS=1``)."""

from __future__ import annotations

import json
import re

import pytest
from browser_kit import (
    check_record_and_replay,
    check_results_over_the_table,
    check_rules_dialog,
    page_of,
    shot,
    version,
    wait_moved_on,
)

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

DEAL = 777
TURN = ".fs-frame.live .fs-cell.legal, .endbar:not([hidden])"
COLS = "abcdefg"
#: The moves played by the hint (the solver's search is the test's dearest step); the
#: others by a click or the keyboard.
HINTED = (2, 4, 5, 6)


def score_line(left: int) -> str:
    """A won game's score line as the page words it (English plurals, and none left)."""
    if left == 0:
        return "Score: no card left in the stock"
    return f"Score: {left} card left in the stock" if left == 1 \
        else f"Score: {left} cards left in the stock"


def no_score_line(stock: int) -> str:
    """A lost game's line: the stock it left, in English plurals (a game can end with one
    card left, as this test's once did)."""
    return f"No score: {stock} card was still in the stock" if stock == 1 \
        else f"No score: {stock} cards were still in the stock"


def by_keys(page, target: str) -> None:
    """Move the cursor to ``target`` with the arrow keys from where it is, press Enter."""
    page.focus(".fs-cell.cursor")
    here = page.get_attribute(".fs-cell.cursor", "data-cell")
    dc = COLS.index(target[0]) - COLS.index(here[0])
    dr = int(target[1]) - int(here[1])
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    assert page.get_attribute(".fs-cell.cursor", "data-cell") == target
    assert page.evaluate("document.activeElement.dataset.cell") == target
    page.keyboard.press("Enter")


def test_a_whole_foursquare_game_with_hints_a_shared_deal_and_best_scores(browser, base):
    page = page_of(browser, 1280, 1000)
    page.goto(base + "/")
    page.click(".game-tile[data-game='foursquare']")
    page.click("summary")  # the deal number is among the folded options
    assert page.is_visible("#new-deal")
    page.fill("#new-name", "Sam")
    page.fill("#new-deal", str(DEAL))
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_url = page.url
    page.wait_for_selector(TURN)
    assert page.inner_text(".fs-deal-no") == f"Deal #{DEAL}"
    shared = page.get_attribute(".fs-copy", "data-url")
    assert shared == f"{base}/new/foursquare?deal={DEAL}"
    assert page.locator(".fs-cell").count() == 49
    assert page.get_attribute(".fs-cell.legal", "data-cell") == "d4"
    first_card = page.get_attribute(".fs-in-hand", "data-card")
    assert page.inner_text(".fs-stock-count") == "39"
    assert page.inner_text(".fs-down-count") == "0 of 4"
    assert page.inner_text(".turn-clock") == "", "a solitaire has no turn clock"
    shot(page, "fs-01-deal")

    hints: list[tuple[str, int]] = []
    ways: set[str] = set()
    turned_seen = 0
    for move in range(41):  # 40 cards: the 41st look sees the end
        page.wait_for_selector(TURN)
        if page.locator(".endbar:not([hidden])").count():
            break
        before = version(page)
        legal = page.eval_on_selector_all(".fs-cell.legal", "els => els.map(e => e.dataset.cell)")
        if move == 1:
            by_keys(page, legal[-1])
            ways.add("keys")
        elif move not in HINTED:
            page.click(f".fs-cell.legal[data-cell='{legal[0]}']")
            ways.add("click")
        else:
            # the hint: the solver's cell lit, its chance shown; then play it
            page.click(".fs-hint-button")
            page.wait_for_selector(".fs-hint-chance")
            text = page.inner_text(".fs-hint")
            # the move in words, the card in hand as a chip (not "place at c3")
            held = page.get_attribute(".fs-in-hand", "data-card")
            chip = held[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[held[-1]]
            m = re.search(rf"Hint: (placing {chip} at|stacking {chip} on) ([a-g][1-7])"
                          r"(, a new pile)? · estimated chance to win (\d+)%", text)
            assert m and bool(m.group(3)) == m.group(1).startswith("placing"), text
            assert page.inner_text(".fs-hint-action .cardref") == chip
            cell = page.get_attribute(".fs-cell.hinted", "data-cell")
            verb = "place at" if m.group(1).startswith("placing") else "stack on"
            assert cell == m.group(2) and page.get_attribute(".fs-cell.hinted", "data-action") \
                == f"{verb} {cell}"
            hints.append((cell, int(m.group(4))))
            if len(hints) == 2:
                shot(page, "fs-02-hint")
            page.click(".fs-cell.hinted")
            ways.add("hint")
        wait_moved_on(page, before)
        last = page.evaluate("() => [...document.querySelectorAll('.fs-log-list li')]"
                             ".map(li => li.textContent).slice(-2).join(' | ')")
        assert re.search(r"You (place|stack) \S+ (at|on) [a-g][1-7]", last), last
        if "It turns" in last.split(" | ")[-1] or "It turns" in last:
            turned = page.locator(".fs-cell.turned").count()
            if turned:
                turned_seen += 1
                if turned_seen == 1:
                    shot(page, "fs-03-flips")
    else:
        pytest.fail("the game did not end")
    assert {"keys", "click", "hint"} <= ways, ways
    assert len(hints) >= 3 and all(0 <= c <= 100 for _, c in hints)
    assert turned_seen >= 1, "no flip was shown"

    page.wait_for_selector(".endbar .results .results-score")
    title = page.inner_text(".results-title")
    won = re.fullmatch(r"You won with (\d+) cards? left", title)
    assert won or re.fullmatch(r"You lost: .+", title), title
    # a solitaire's result: the score, your best, the same deal again or a new one
    assert page.locator(".endbar .standings").count() == 0
    assert "1st" not in page.inner_text(".endbar")
    # the score line tells what is true: a won game's score, a lost game's stock left
    stock = page.inner_text(".fs-stock-count")
    assert page.inner_text(".results-score") == (score_line(int(won.group(1))) if won
                                                 else no_score_line(int(stock)))
    down = int(page.inner_text(".fs-down-count").split()[0].rstrip(","))
    assert page.inner_text(".fs-down-count") == (
        f"{down}, over the limit of 4" if down > 4 else f"{down} of 4")
    assert page.locator(".endbar button:has-text('New deal')").count() == 1
    assert page.get_attribute(".endbar a:has-text('Deal again')", "href") == \
        f"/new/foursquare?deal={DEAL}"
    check_results_over_the_table(page, ".fs-felt")
    record = page.inner_text(".results-history .fs-record")
    assert "Best score" in record and "Wins" in record and f"Deal #{DEAL}" in record
    assert page.inner_text(".fs-best-wins") == f"{1 if won else 0} of 1 game"
    best = json.loads(page.evaluate("localStorage.getItem('parlour.foursquare.best')"))
    assert best["Sam"]["games"] == 1 and best["Sam"]["deals"][str(DEAL)]["games"] == 1
    if won:
        assert best["Sam"]["best"] == int(won.group(1))
        assert page.inner_text(".fs-best-score") == f"{won.group(1)} cards left"
    assert page.locator(".fs-log-list li.ev-end").count() == 1
    shot(page, "fs-04-results")
    page.reload()  # a reloaded page does not count the game twice
    page.wait_for_selector(".endbar .results .results-score")
    best = json.loads(page.evaluate("localStorage.getItem('parlour.foursquare.best')"))
    assert best["Sam"]["games"] == 1

    check_rules_dialog(page, "Foursquare", "fs-05")
    text = check_record_and_replay(page, "foursquare", "fs-06")
    assert re.search(r"^0 place at d4$", text, re.M)
    page.wait_for_selector(".fs-deal-no")
    assert page.inner_text(".fs-deal-no") == f"Deal #{DEAL}"
    assert not page.errors, page.errors

    # The shared link deals the same cards again, at a new table.
    page.goto(shared)
    page.wait_for_selector("#new-name")
    assert page.input_value("#new-name") == "Sam"
    page.click("button:has-text('Deal')")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    assert page.url != table_url
    page.wait_for_selector(TURN)
    assert page.inner_text(".fs-deal-no") == f"Deal #{DEAL}"
    assert page.get_attribute(".fs-in-hand", "data-card") == first_card
    here = page.inner_text(".fs-best-deal")
    assert here.endswith("(1 game)") if won else here == "1 game, no win"
    shot(page, "fs-07-shared-deal")
    assert not page.errors, page.errors

    phone = page_of(browser, 390, 844, touch=True)
    phone.goto(base + "/")
    phone.evaluate("s => localStorage.setItem('parlour.seats', s)",
                   page.evaluate("localStorage.getItem('parlour.seats')"))
    phone.goto(page.url)
    phone.wait_for_selector(TURN)
    before = version(phone)
    phone.tap(".fs-cell.legal[data-cell='d4']")
    wait_moved_on(phone, before)
    assert phone.locator(".fs-cell.pile").count() == 1
    # a pile of two shows its cards below it while it is hovered, as a phone's last tap
    # leaves it; the fan covers the cell below, and a tap there is that cell's, not the
    # pile's (the fan once took it, stacking the card on the pile instead)
    before = version(phone)
    phone.tap(".fs-cell.legal[data-cell='d4']")
    wait_moved_on(phone, before)
    # Chromium hands a mouse move to the page at its next frame, after hover() returns:
    # under load the fan showed a moment after (CI once looked before it did)
    phone.hover(".fs-cell[data-cell='d4']")
    phone.wait_for_selector(".fs-cell[data-cell='d4'] .fs-fan", state="visible", timeout=5000)
    before = version(phone)
    phone.tap(".fs-cell.legal[data-cell='d5']")
    wait_moved_on(phone, before)
    assert phone.locator(".fs-cell.pile").count() == 2
    shot(phone, "fs-08-phone")
    assert not phone.errors, phone.errors
