"""The post-game review in a real browser: from the results screen, the review of a seat
is worked out (a small budget here), drawn as a chart of its chance to win with the
marked decisions, and a jump to a marked mistake sets the replay there, as that seat saw
it, with the better move marked on its cards; there another choice is tried, from the
keyboard, and its chance to win is shown beside the move played and the better one.

The match's seed is fixed (``Settings.new_seed``) and the bots are seeded from it, so the
match and its review are the same on every run."""

from __future__ import annotations

import re

import httpx
import pytest
from browser_kit import page_of, shot
from server_kit import server_thread

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

SEED = 11
#: South plays at random (its review has marks to jump to), the others by the rules (so
#: one deal or two end the match).
SEATS = [{"kind": "bot", "bot": "random"}] + [{"kind": "bot", "bot": "rule"}] * 3


@pytest.fixture
def base(tmp_path):
    with server_thread(tmp_path / "review.sqlite3", new_seed=lambda: SEED, review_budget=24,
                       review_processes=0) as url:
        yield url


def test_a_review_jumps_to_a_marked_mistake_and_tries_another_move(browser, base):
    with httpx.Client(base_url=base) as http:
        res = http.post("/api/tables", json={"game": "spades", "seats": SEATS,
                                             "options": {"target": 10}})
        assert res.status_code == 201, res.text
        tid = res.json()["table"]["id"]
    page = page_of(browser)
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector(".endbar:not([hidden]) .results-title", timeout=60_000)
    page.click(".endbar >> text=Review the game")
    page.wait_for_url(re.compile(rf"/t/{tid}/replay/1\?review=0$"))
    page.wait_for_selector(".review-status, .review-summary")
    page.wait_for_selector(".review-summary", timeout=120_000)
    assert re.search(r"Accuracy: \d+%", page.inner_text(".review-summary"))
    chart = page.locator("svg.review-chart")
    assert chart.locator("polyline.review-line").count() == 1
    dots = chart.locator("circle.review-dot")
    items = page.locator(".review-item")
    assert dots.count() == items.count() >= 1
    shot(page, "review-01-chart")

    # The first marked decision: the replay goes there, as the reviewed seat saw it, and
    # the better move (a card in hand, or a bid) is marked, the one played beside it.
    item = items.first
    index = int(item.get_attribute("data-index"))
    better, played = item.get_attribute("data-best"), item.get_attribute("data-played")
    assert better != played and "Better:" in item.inner_text()
    # the moves said in words ("bidding 3 tricks", "playing 9♥"), not in the notation
    said = item.inner_text()
    assert re.search(r"Chosen: (bidding|playing|leading)", said), said
    assert f"Chosen: {played} (" not in said and f"Better: {better} (" not in said, said
    item.click()
    page.wait_for_selector(f".replay-caption:has-text('Step {index} of')")
    assert page.input_value("#replay-seat") == "0"
    best = page.locator(".board .review-best")
    best.first.wait_for()
    assert best.count() == 1
    assert better in (best.get_attribute("data-card"), best.get_attribute("data-action"))
    chosen = page.locator(".board .review-played")
    assert chosen.count() == 1
    assert played in (chosen.get_attribute("data-card"), chosen.get_attribute("data-action"))
    assert page.locator(".review-item.current").count() == 1
    assert page.locator(".review-cursor").get_attribute("visibility") == "visible"
    shot(page, "review-02-jump")

    # Try another move: the decision's choices, one reached and picked from the keyboard;
    # the server judges it and its chance to win shows beside the played and better moves.
    panel = page.locator(".review-try")
    panel.wait_for()
    choices = panel.locator("button.review-choice")
    texts = [choices.nth(i).get_attribute("data-action") for i in range(choices.count())]
    assert played in texts and better in texts and len(texts) >= 2
    other = next((a for a in texts if a not in (played, better)), better)
    target = panel.locator(f"button.review-choice[data-action='{other}']")
    choices.first.focus()
    for _ in range(texts.index(other)):
        page.keyboard.press("Tab")
    assert target.evaluate("b => b === document.activeElement")
    page.keyboard.press("Enter")
    tried = panel.locator(".review-tried")
    tried.wait_for(timeout=60_000)
    assert target.get_attribute("aria-pressed") == "true"
    result = panel.locator(".review-try-result").inner_text()
    assert re.search(r"Tried: .+\(\d+% to win\)", result), result
    assert re.search(r"Chosen: .+\(\d+% to win\)", result), result
    assert re.search(r"Better: .+\(\d+% to win\)", result), result
    if other != better:
        assert page.locator(".board .review-tried-card").count() == 1
    shot(page, "review-03-try")
    # Another step clears the marks on the cards; the review stays.
    page.click("button[aria-label='Next step']")
    page.wait_for_selector(f".replay-caption:has-text('Step {index + 1} of')")
    assert page.locator(".board .review-best").count() == 0
    assert page.locator(".board .review-tried-card").count() == 0
    assert panel.is_hidden() or panel.locator(".review-tried").count() == 0

    # A second look is instant: the stored review, straight away.
    page.reload()
    page.wait_for_selector(".review-summary", timeout=5000)
    assert not page.errors
