"""The life of a table in a real browser (Debian's Chromium): the turn timer shows whose
turn it is and how long is left, a player leaves the seat and a bot plays it, and a
spectator takes the free seat back during play."""

from __future__ import annotations

import re

import pytest
from browser_kit import open_table, page_of, shot

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]


def test_turn_timer_leaving_and_taking_a_free_seat(browser, base):
    page = page_of(browser)  # its errors fail the test (conftest.py)
    page.on("dialog", lambda d: d.accept())  # "leave your seat?"
    open_table(page, base, "spades", fields={"new-turn": 45})
    page.wait_for_selector(".turn-clock:has-text('Your turn')")
    left = int(re.search(r"(\d+) s", page.text_content(".turn-clock")).group(1))
    assert 35 <= left <= 45
    shot(page, "life-turn-timer")

    page.click("text=Leave my seat")
    page.wait_for_selector(".lifebar:has-text('A bot is playing for South')")
    page.wait_for_selector("text=Sit at South")
    shot(page, "life-stand-in")
    page.click("text=Sit at South")
    page.wait_for_selector(".lifebar:has-text('Leave my seat')")
    assert page.locator(".lifebar:has-text('A bot is playing')").count() == 0
