"""A seat on another device (issue 15, item 10) in a real browser (Debian's Chromium): the
holder reveals the seat's private rejoin link, a second browser opens it and holds the same
seat (not a spectator), the secret leaves the address bar at once, never goes to the server
in a URL, and the second browser plays; a spectator is never offered the link."""

from __future__ import annotations

import re

import pytest
from browser_kit import page_of, shot
from playwright.sync_api import expect
from test_browser import take_turn

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

BUTTON = ".lifebar button:has-text('Play on another device')"


def seated_at_a_new_table(browser, base):
    """Sam opens a Spades table with three bots and waits for the bid: the page and the
    table's address."""
    page = page_of(browser)
    page.goto(base + "/")
    page.fill("#new-name", "Sam")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    return page, page.url


def test_a_rejoin_link_moves_the_seat_to_another_browser(browser, base):
    first, table_url = seated_at_a_new_table(browser, base)
    first.click(BUTTON)
    link = first.input_value(".rejoin-link")
    secret = link.split("#rejoin=")[1]
    assert link == f"{table_url}#rejoin={secret}" and re.fullmatch(r"[\w-]{22}", secret)
    shot(first, "rejoin-link")

    watcher = page_of(browser)  # a spectator sees no link and no button
    watcher.goto(table_url)
    watcher.wait_for_selector(".bid-panel, .hand", state="attached")
    watcher.wait_for_selector(".lifebar", state="attached")
    assert watcher.locator(BUTTON).count() == 0 and secret not in watcher.content()

    second = page_of(browser)  # a fresh context: another device, no seat stored
    urls: list[str] = []
    second.on("request", lambda r: urls.append(r.url))
    second.goto(link)
    second.wait_for_selector(".lifebar:has-text('Leave my seat')")
    assert second.url == table_url  # the fragment is gone from the address bar...
    assert second.evaluate("location.hash") == ""
    # ...and from history: the tab's entries are its first blank page and the table, whose
    # entry replaceState rewrote (a link followed would add one more)
    assert second.evaluate("history.length") == 2
    assert not any(secret in u for u in urls)  # and was never sent in a URL
    # the seat's hand (not a spectator's view), drawn once the view has come
    expect(second.locator(".hand .card")).to_have_count(13)
    second.wait_for_selector(".bid-panel:not([hidden]) .bid")
    assert take_turn(second) == "bid 3"
    first.wait_for_selector(".bid-panel[hidden], .hand .card.playable", state="attached")
    assert secret not in watcher.content()
    shot(second, "rejoin-second-device")


def test_a_wrong_rejoin_link_leaves_a_spectator_and_says_so(browser, base):
    first, table_url = seated_at_a_new_table(browser, base)

    stranger = page_of(browser)
    stranger.expect_errors(r"status of 403")  # the refused trade, as Chromium logs it
    stranger.goto(f"{table_url}#rejoin={'A' * 22}")
    stranger.wait_for_selector("text=that rejoin link is not valid for this table")
    assert stranger.url == table_url
    stranger.wait_for_selector(".hand, .bid-panel", state="attached")
    assert stranger.locator(".lifebar:has-text('Leave my seat')").count() == 0
    assert stranger.evaluate("localStorage.getItem('parlour.seats')") in (None, "{}")
    first.wait_for_selector(".lifebar:has-text('Leave my seat')")  # Sam still holds it
