"""People's pages in a real browser (Debian's Chromium): a signed-in person plays the daily
Foursquare deal, sees it on the daily leaderboard, cannot count a second try, and sees
their profile's figures change; a profile draws its rating chart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_kit import open_table, page_of, shot, version, wait_moved_on
from players_kit import sign_up

from parlour.server.people.identity import SESSION_COOKIE

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

TURN = ".fs-frame.live .fs-cell.legal, .endbar:not([hidden])"
LEGAL = "[data-action]:not([disabled])"


def db_of(tmp_path: Path) -> Path:
    return tmp_path / "browser.sqlite3"  # browser_kit.parlour's database


def signed_in_page(browser, base: str, token: str):
    page = page_of(browser, 1280, 1000)
    page.context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": base,
                               "httpOnly": True, "sameSite": "Lax"}])
    return page


def play_foursquare(page) -> None:
    for _ in range(60):
        page.wait_for_selector(TURN)
        if page.locator(".endbar:not([hidden])").count():
            return
        before = version(page)
        page.click(".fs-frame.live .fs-cell.legal >> nth=0")
        wait_moved_on(page, before)
    raise AssertionError("the deal did not end")


def test_the_daily_foursquare_deal_its_board_one_counted_try_and_the_profile(browser, base,
                                                                           tmp_path):
    _, token = sign_up(db_of(tmp_path), "Sam", created=0.0)  # made before today
    page = signed_in_page(browser, base, token)

    page.goto(base + "/u/Sam")
    page.wait_for_selector("text=No finished matches yet.")
    assert page.inner_text(".streak") == "No daily streak yet"  # zero said on its own

    page.goto(base + "/")
    page.click("a:has-text(\"Today's daily deals\")")
    page.wait_for_url(re.compile(r"/daily$"))
    four = ".daily-game[data-game='foursquare']"
    page.wait_for_selector(f"{four} .daily-play")
    # zero said on its own
    assert page.inner_text(f"{four} .daily-players") == "Nobody counted today yet"
    page.click(f"{four} .daily-play")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#toasts >> text=This try counts for today's leaderboard.")
    assert page.locator(".fs-hint-button:visible").count() == 0  # no hints at a daily deal
    play_foursquare(page)
    shot(page, "players-01-daily-played")
    # no dealing again and no record yet: back to the daily deals
    assert page.locator(".endbar a:has-text('Download the record')").count() == 0
    assert page.locator(".endbar button:has-text('New deal')").count() == 0
    assert page.locator(".endbar .review-link").count() == 0  # its records are shut today
    page.click(".endbar a.daily-back")
    page.wait_for_url(re.compile(r"/daily$"))
    page.wait_for_selector(f"{four} .daily-mine")
    # the result in words (never the ranking number), and nobody else beaten yet
    said = r"(won, \d+ cards? left in the stock|lost after \d+ cards? placed)"
    assert re.fullmatch("Your counted result: " + said, page.inner_text(f"{four} .daily-mine"))
    assert page.inner_text(f"{four} .daily-players") == "1 player counted today"
    page.click(f"{four} .daily-show-board")
    page.wait_for_selector(f"{four} .daily-board li")
    entry = page.inner_text(f"{four} .daily-board li")
    assert re.fullmatch(f"Sam {said} nobody else has played it yet", entry), entry
    shot(page, "players-02-daily-board")

    # a second try is a practice deal, not counted (issue 30 item 1)
    assert page.inner_text(f"{four} .daily-play") == "Play a practice deal (not counted)"
    page.click(f"{four} .daily-play")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#toasts >> text=A practice deal: your first try of the day was "
                           "today's deal, and it is the one counted.")
    page.wait_for_selector(TURN)

    page.goto(base + "/u/Sam")
    section = ".profile-game[data-game='foursquare']"
    page.wait_for_selector(section)
    assert page.inner_text(f"{section} .figure[data-figure='matches'] dd") == "1"
    assert page.inner_text(".streak") == "Daily streak: 1 day"
    assert page.locator(".recent-matches tbody tr").count() == 1
    shot(page, "players-03-profile")


def test_a_rated_match_draws_the_rating_chart_and_the_leaderboard_page(browser, base,
                                                                      tmp_path):
    _, token = sign_up(db_of(tmp_path), "Lee")
    page = signed_in_page(browser, base, token)
    open_table(page, base, "clockwork-spades", name="Lee", rated=True)
    table_id = page.url.rsplit("/", 1)[1]
    # play the match out: the page plays what is legal until the results show
    for _ in range(200):
        page.wait_for_selector(f"{LEGAL}, .endbar:not([hidden])")
        if page.locator(".endbar:not([hidden])").count():
            break
        before = version(page)
        page.locator(LEGAL).first.click()
        wait_moved_on(page, before)
    else:
        raise AssertionError("the match did not end")
    summary = page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
    assert summary["table"]["status"] == "finished"
    page.goto(base + "/u/Lee")
    section = ".profile-game[data-game='clockwork-spades']"
    page.wait_for_selector(f"{section} svg.rating-chart polyline", state="attached")
    assert page.locator(f"{section} svg.rating-chart circle").count() == 1
    assert re.fullmatch(r"Rating \d+ \(1 rated match\)", page.inner_text(f"{section} .rating-line"))
    page.click(f"{section} a:has-text('Leaderboard')")
    page.wait_for_url(re.compile(r"/leaderboards/clockwork-spades$"))
    page.wait_for_selector("text=Nobody yet.")
