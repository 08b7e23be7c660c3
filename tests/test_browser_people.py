"""Friends and challenges (issue 34, items 2 and 3) in Debian's Chromium: Ana (English, a
computer) and Wayan (Indonesian, a phone) follow each other from their profiles and so
become friends; Ana sees Wayan online on her friends page and challenges him; he sees the
challenge on the page he is on, declines it, and Ana is told; she challenges again, he
accepts, and both pages land at the new table, each in its own seat. Few page loads: the
room's one stream per page carries everything after the first."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_kit import page_of, shot
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

PASSWORD = "correct horse 7"


def signed_up(page: Any, base: str, name: str, lang: str) -> None:
    """``name`` signed up in this page's browser, reading ``lang``."""
    page.context.add_cookies([{"name": "parlour_lang", "value": lang, "url": base}])
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', {json.dumps(lang)})")
    res = page.request.post(base + "/api/account/signup", data=json.dumps(
        {"name": name, "password": PASSWORD}), headers={"Content-Type": "application/json"})
    assert res.ok, res.text()


def notice(page: Any, text: str) -> Any:
    return page.locator(".room-notice", has_text=text)


def test_two_people_follow_each_other_and_one_challenges_the_other(browser, base):
    ana = page_of(browser, 1280, 900)
    wayan = page_of(browser, 390, 844, touch=True)
    signed_up(ana, base, "Ana", "en")
    signed_up(wayan, base, "Wayan", "id")

    # Each follows the other from the other's profile: then they are friends.
    ana.goto(f"{base}/u/Wayan")
    ana.locator(".profile-people button", has_text="Follow").click()
    expect(ana.locator(".profile-people button", has_text="Unfollow")).to_be_visible()
    wayan.goto(f"{base}/u/Ana")
    expect(wayan.locator(".profile-people")).to_contain_text("Mengikutimu")  # follows you
    wayan.locator(".profile-people button", has_text="Ikuti").click()
    expect(wayan.locator(".profile-people .badge")).to_have_text("Teman")  # friend

    # Ana's friends page: Wayan online (his page is open), and the header counts him.
    ana.locator("#friends-link").click()
    friend = ana.locator(".friends-list li[data-name='Wayan']")
    expect(friend).to_contain_text("online")
    expect(ana.locator("#friends-link .friends-online")).to_have_text("1")
    shot(ana, "friends-page", full_page=False)

    # A challenge: Wayan sees it on the page he is on, in his language, and declines.
    def challenge() -> None:
        friend.locator("button", has_text="Challenge").click()
        dialog = ana.locator(".challenge-dialog")
        expect(dialog).to_be_visible()
        dialog.locator("#challenge-game").select_option("spades")
        dialog.locator("button[type=submit]").click()
        expect(dialog).to_have_count(0)

    challenge()
    offer = notice(wayan, "Ana menantangmu bermain Spades")
    expect(offer).to_be_visible()
    box = offer.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 \
        and box["y"] + box["height"] <= 844  # all of it on the phone's screen
    shot(wayan, "challenge-phone", full_page=False)
    offer.locator("button", has_text="Tolak").click()
    expect(notice(ana, "Wayan declined your challenge to Spades.")).to_be_visible()
    expect(ana.locator(".challenge-list")).to_contain_text("declined")

    # Again, and accepted: both are seated at the new table, each at their own seat.
    challenge()
    notice(wayan, "Ana menantangmu bermain Spades").locator("button", has_text="Terima").click()
    for page in (ana, wayan):
        page.wait_for_url(lambda url: "/t/" in url)
        page.wait_for_selector(".hand .card")
    assert ana.url.rsplit("/", 1)[1] == wayan.url.rsplit("/", 1)[1]
    for page, seat in ((ana, 0), (wayan, 1)):  # each page holds its own seat's token
        held = page.evaluate("JSON.parse(localStorage.getItem('parlour.seats'))")
        assert [one["seat"] for one in held.values()] == [seat]

    # Friends at one table read each other's own words from the start (off with strangers).
    for page in (ana, wayan):
        page.click(".talk-button")
        expect(page.locator(".talk-listen input")).to_be_checked()
    ana.fill(".talk-input", "Selamat datang!")
    ana.keyboard.press("Enter")
    expect(wayan.locator(".talk-log .talk-line").last).to_contain_text("Ana: Selamat datang!")
