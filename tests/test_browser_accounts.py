"""Accounts in a real browser (Debian's Chromium): a guest opens a table, signs up in the
same browser and keeps the seat; the recovery codes are shown once; a second browser
(another device) signs in and takes the seat back, playing it; signing out forgets the
seat on that device; the account page changes the password."""

from __future__ import annotations

import re

import pytest
from browser_kit import open_table, page_of, shot
from playwright.sync_api import expect
from test_browser import take_turn

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

PASSWORD = "a long secret phrase"
PEOPLE2 = [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "rule"}] * 2


def sign_up(page, base, name):
    page.goto(base + "/")
    page.click("#account-control >> text=Sign up")
    page.wait_for_url(re.compile(r"/signup$"))
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-again", PASSWORD)
    page.click(".account-form button[type=submit]")
    page.wait_for_selector(".recovery-codes li")
    return [c.strip() for c in page.locator(".recovery-codes code").all_inner_texts()]


def signed_up(page, base, name):
    """A new account whose recovery codes were seen and put away (back in the lobby)."""
    sign_up(page, base, name)
    page.click("text=I have kept them")
    page.wait_for_url(base + "/")


def watches(page, table_url):
    """The page opens the table as a spectator: no seat of its own there."""
    page.goto(table_url)
    page.wait_for_selector(".bid-panel, .hand", state="attached")
    assert page.locator(".lifebar:has-text('Leave my seat')").count() == 0


def sign_in(page, base, name, password=PASSWORD):
    page.goto(base + "/signin")
    page.fill("#signin-name", name)
    page.fill("#signin-password", password)
    page.click(".account-form button[type=submit]")
    page.wait_for_selector(f"#account-control .account-name:has-text('{name}')")


def test_a_guest_signs_up_keeps_the_seat_and_takes_it_back_on_another_device(browser, base):
    first = page_of(browser)
    table_url = open_table(first, base, "spades", name="Sam")
    first.wait_for_selector(".bid-panel:not([hidden]) .bid")
    assert first.locator("#account-control >> text=Sign in").count() == 1

    codes = sign_up(first, base, "Samantha")
    assert len(codes) == 8 and all(re.fullmatch(r"[a-z2-9]{4}(-[a-z2-9]{4}){3}", c) for c in codes)
    first.wait_for_selector("text=Your account keeps the seat you had.")
    shot(first, "account-recovery-codes")
    first.click("text=I have kept them")
    first.wait_for_url(base + "/")
    expect(first.locator("#account-control .account-name")).to_have_text("Samantha")
    cookies = first.context.cookies()
    session = next(c for c in cookies if c["name"] == "parlour_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    assert first.evaluate("document.cookie") == ""  # the page's scripts never see it

    first.click("#account-control .account-name")
    first.click("text=My account")
    first.wait_for_selector(".account-seats a")
    table_id = table_url.rsplit("/", 1)[1]
    assert first.locator(".account-seats a").get_attribute("href") == f"/t/{table_id}"
    shot(first, "account-page")

    second = page_of(browser)  # another device: no seat token, no cookie
    watches(second, table_url)
    sign_in(second, base, "samantha")  # any case
    second.goto(table_url)
    second.wait_for_selector(".lifebar:has-text('Leave my seat')")
    expect(second.locator(".hand .card")).to_have_count(13)
    second.wait_for_selector(".bid-panel:not([hidden]) .bid")
    assert take_turn(second) == "bid 3"
    first.goto(table_url)  # the first browser still holds it too
    first.wait_for_selector(".lifebar:has-text('Leave my seat')")
    shot(second, "account-seat-on-another-device")

    second.click("#account-control .account-name")
    second.click("#account-control >> text=Sign out")
    second.wait_for_selector("#account-control >> text=Sign in")
    assert table_id not in (second.evaluate("localStorage.getItem('parlour.seats')") or "")
    watches(second, table_url)


def test_a_device_signed_in_earlier_takes_a_seat_opened_since(browser, base):
    laptop = page_of(browser)
    signed_up(laptop, base, "Ravi")
    phone = page_of(browser, 390, 844)
    sign_in(phone, base, "Ravi")  # signed in on the phone before the table exists
    phone.goto(base + "/")
    table_url = open_table(laptop, base, "spades", name="Ravi")
    table_id = table_url.rsplit("/", 1)[1]
    phone.click(f"a[href='/t/{table_id}']", timeout=20000)  # from the lobby's list
    phone.wait_for_selector(".lifebar:has-text('Leave my seat')")
    expect(phone.locator(".hand .card")).to_have_count(13)
    watcher = page_of(browser)  # signed in, holding no seat there: watches, no error
    signed_up(watcher, base, "Tess")
    watches(watcher, table_url)


def test_sign_in_errors_and_a_password_change(browser, base):
    page = page_of(browser)
    signed_up(page, base, "Dara")
    other = page_of(browser)
    other.expect_errors(r"status of 403")  # the refused log-in, as Chromium logs it
    other.goto(base + "/signin")
    other.fill("#signin-name", "Dara")
    other.fill("#signin-password", "not the password")
    other.click(".account-form button[type=submit]")
    other.wait_for_selector(".account-form .error:has-text('that name and password do not match')")
    sign_in(other, base, "Dara")

    page.goto(base + "/account")
    page.fill("#account-current", PASSWORD)
    page.fill("#account-new", "another long phrase")
    page.click("text=Change the password >> nth=-1")
    page.wait_for_selector("text=Your password is changed.")
    other.goto(base + "/")  # the other device was signed out
    other.wait_for_selector("#account-control >> text=Sign in")
    sign_in(other, base, "Dara", "another long phrase")


def test_mute_and_report_a_player_at_the_table(browser, base):
    ana = page_of(browser)
    signed_up(ana, base, "Ana")
    # Ana (signed in) opens a table for two people and two bots, as the page would.
    made = ana.evaluate("""async (seats) => {
      const res = await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'spades', name: 'Ana', seats})});
      const body = await res.json();
      const held = {[body.table.id]: {seat: body.seat, token: body.token}};
      localStorage.setItem('parlour.seats', JSON.stringify(held));
      return body;
    }""", PEOPLE2)
    table_url = f"{base}/t/{made['table']['id']}"
    guest = page_of(browser)
    guest.goto(table_url)
    guest.fill("#join-name", "Rude Guest")
    guest.click("text=Sit down")
    guest.wait_for_selector(".lifebar:has-text('Leave my seat')")
    assert guest.locator(".players-menu").count() == 0  # a guest has no such control

    ana.goto(table_url)
    ana.wait_for_selector(".lifebar .players-menu")
    # a guest's name is marked wherever it shows (issue 30 item 3): the table's plates
    expect(ana.locator(".board .bot-badge", has_text="guest")).to_have_count(1)
    ana.click(".players-menu summary")
    row = ana.locator(".players-list li")
    expect(row.locator(".player-name")).to_contain_text("Rude Guest")
    row.locator("button:has-text('Mute')").click()
    expect(row.locator(".player-name")).to_contain_text("Muted player")
    expect(row.locator("button:has-text('Unmute')")).to_have_count(1)
    expect(ana.locator(".board")).not_to_contain_text("Rude Guest")  # hidden for Ana
    summary = ana.evaluate(f"fetch('/api/tables/{made['table']['id']}').then((r) => r.json())")
    assert summary["table"]["seats"][1]["name"] == "Rude Guest"  # for the others, as it was
    row.locator("select").select_option("name")
    row.locator("input").fill("a rude name")
    row.locator("button:has-text('Report')").click()
    ana.wait_for_selector("text=Thank you: the parlour's operators will read your report.")
    shot(ana, "account-mute-report")
    ana.reload()  # the mute is kept
    ana.wait_for_selector(".lifebar .players-menu")
    ana.click(".players-menu summary")
    expect(ana.locator(".players-list .player-name")).to_contain_text("Muted player")
    expect(ana.locator(".board")).not_to_contain_text("Rude Guest")
