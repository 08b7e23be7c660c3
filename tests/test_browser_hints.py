"""Hints at every table in a real browser: Spades (whose hints come from ismcts, the game
names no hint bot of its own) shows a Hint button beside the turn clock during your turn;
the answer names a legal move and marks it on the table."""

from __future__ import annotations

import re

import pytest
from browser_kit import open_table, page_of, shot, wait_until_js

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]


def test_a_hint_at_a_spades_table_marks_the_suggested_bid_then_card(browser, base):
    page = page_of(browser)
    open_table(page, base, "spades", {"target": 10})
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    button = page.locator(".lifebar .hint-button")
    button.wait_for()
    assert button.is_visible() and button.inner_text() == "Hint"
    button.click()
    answer = page.locator(".lifebar .hint-answer")
    wait_until_js(page, "the bot's suggestion", "() => /The bot suggests/.test("
                  "document.querySelector('.lifebar .hint-answer').textContent)",
                  timeout=30_000)
    marked = page.locator(".board .hint-best")
    assert marked.count() == 1
    suggested = marked.get_attribute("data-action")
    # said in words ("bidding 3 tricks"), not in the notation ("bid 3")
    words = {"nil": "bidding nil", "bid 1": "bidding 1 trick"}.get(
        suggested, re.sub(r"bid (\d+)", r"bidding \1 tricks", suggested or ""))
    assert suggested and re.fullmatch(rf"The bot suggests {words}( \(\d+% to win\))?",
                                      answer.inner_text()), answer.inner_text()
    legal = page.locator(".bid-panel .bid").evaluate_all("els => els.map(e => e.dataset.action)")
    assert suggested in legal
    shot(page, "hint-01-bid")
    # Taking the suggestion moves the game on; the hint goes with the position it was for.
    marked.click()
    page.wait_for_selector(".hand .card.playable", timeout=30_000)
    assert page.locator(".board .hint-best").count() == 0
    assert page.inner_text(".lifebar .hint-answer") == ""
    button.click()
    page.wait_for_selector(".board .hint-best[data-card]", timeout=30_000)
    card = page.locator(".board .hint-best").get_attribute("data-card")
    chip = card[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[-1]]
    assert re.fullmatch(rf"The bot suggests playing {chip}( \(\d+% to win\))?",
                        answer.inner_text()), answer.inner_text()
    playable = page.locator(".hand .card.playable").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert card in playable
    shot(page, "hint-02-card")
    assert not page.errors
