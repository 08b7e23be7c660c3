"""Table talk (issue 34, item 1) in Debian's Chromium: two people at one table, one reading
English on a computer and one reading Brazilian Portuguese on a phone, say quick phrases
and each reads the other's in their own language; a name made of markup shows as text; the
talk panel and its log leave the phone's hand in sight; the keyboard opens and closes the
panel; a person hidden in the page is not heard."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_kit import page_of, shot, wait_until_js
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

RULE = {"kind": "bot", "bot": "rule"}
SEATS = [{"kind": "person"}, RULE, {"kind": "person"}, RULE]
MARKUP = "<i>Ann</i>"  # the host's name: it must show as these characters, never as markup


def in_language(page: Any, base: str, lang: str) -> None:
    page.context.add_cookies([{"name": "parlour_lang", "value": lang, "url": base}])
    page.context.add_init_script(f"localStorage.setItem('parlour.lang', {json.dumps(lang)})")


def seated(page: Any, base: str, tid: str, seat: int, token: str) -> None:
    """Open the table at ``tid`` holding ``seat`` (as the page keeps a seat it took)."""
    held = json.dumps({tid: {"seat": seat, "token": token}})
    page.context.add_init_script(f"localStorage.setItem('parlour.seats', {json.dumps(held)})")
    page.goto(f"{base}/t/{tid}")


def two_at_a_table(browser: Any, base: str) -> tuple[Any, Any]:
    """The host (English, a computer) at seat 0 and Bia (Brazilian Portuguese, a phone)
    at seat 2 of a Spades table with two bots, the deal on both screens."""
    host = page_of(browser, 1280, 900)
    in_language(host, base, "en")
    res = host.request.post(base + "/api/tables", data=json.dumps(
        {"game": "spades", "seats": SEATS, "name": MARKUP}),
        headers={"Content-Type": "application/json"})
    assert res.ok, res.text()
    made = res.json()
    tid = made["table"]["id"]
    phone = page_of(browser, 390, 844, touch=True)
    in_language(phone, base, "pt-BR")
    joined = phone.request.post(f"{base}/api/tables/{tid}/join", data=json.dumps(
        {"name": "Bia", "seat": 2}), headers={"Content-Type": "application/json"})
    assert joined.ok, joined.text()
    seated(host, base, tid, 0, made["token"])
    seated(phone, base, tid, 2, joined.json()["token"])
    for page in (host, phone):
        page.wait_for_selector(".hand .card")
        page.wait_for_selector(".talk-button")
    wait_until_js(phone, "the page in Portuguese", "document.documentElement.lang === 'pt-BR'")
    return host, phone


def say(page: Any, phrase: str) -> None:
    page.click(".talk-button")
    page.click(f".talk-panel [data-phrase='{phrase}']")
    expect(page.locator(".talk-panel")).to_be_hidden()  # a phrase said closes the panel


def last_line(page: Any) -> Any:
    return page.locator(".talk-log .talk-line").last


def boxes_apart(page: Any, one: str, other: str) -> bool:
    """Whether every element of ``one`` lies clear of every element of ``other``."""
    return page.evaluate("""([one, other]) => {
      const rects = (sel) => [...document.querySelectorAll(sel)]
        .map((e) => e.getBoundingClientRect()).filter((r) => r.width && r.height);
      const a = rects(one), b = rects(other);
      if (!a.length || !b.length) throw new Error(`nothing of ${one} or ${other} on screen`);
      return a.every((r) => b.every((s) =>
        r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top));
    }""", [one, other])


def test_two_people_talk_each_in_their_own_language(browser, base):
    host, phone = two_at_a_table(browser, base)

    say(host, "nice_play")
    expect(last_line(phone)).to_have_text(f"{MARKUP}: Bela jogada!")  # her language, as text
    assert phone.locator(".talk-log i, .talk-log [onerror]").count() == 0
    expect(last_line(host)).to_have_text("You: Nice play!")
    log = phone.locator(".talk-log")
    assert log.get_attribute("role") == "log" and log.get_attribute("aria-live") == "polite"

    # On the phone: the panel opens under the bar, over neither the hand nor the log...
    phone.click(".talk-button")
    expect(phone.locator(".talk-panel")).to_be_visible()
    assert boxes_apart(phone, ".talk-panel", ".hand .card")
    shot(phone, "talk-phone-panel", full_page=False)
    phone.click(".talk-panel [data-phrase='sorry_partner']")
    expect(phone.locator(".talk-panel")).to_be_hidden()
    expect(last_line(host)).to_have_text("Bia: Sorry, partner.")
    expect(last_line(phone)).to_have_text("Você: Foi mal, parceiro.")
    # ...and the log is one line in the bar above the table, clear of the hand
    assert boxes_apart(phone, ".talk-log", ".hand .card")
    assert boxes_apart(phone, ".talk-log, .talk-button", ".board")
    shot(phone, "talk-phone", full_page=False)

    # The keyboard: the button opens the panel at its first phrase, Escape goes back.
    host.focus(".talk-button")
    host.keyboard.press("Enter")
    expect(host.locator(".talk-panel [data-phrase='hello']")).to_be_focused()
    host.keyboard.press("Escape")
    expect(host.locator(".talk-panel")).to_be_hidden()
    expect(host.locator(".talk-button")).to_be_focused()

    # Hidden in this page: Bia's talk no longer reaches the host's log.
    host.click(".talk-button")
    host.check(".talk-panel .talk-mute:has-text('Bia') input")
    host.keyboard.press("Escape")
    say(phone, "one_more")
    expect(last_line(phone)).to_have_text("Você: Mais uma?")
    say(host, "thanks")  # said after Bia's: the log's next line is the host's own
    expect(last_line(host)).to_have_text("You: Thank you!")
    assert "One more?" not in host.inner_text(".talk-log")
    expect(last_line(phone)).to_have_text(f"{MARKUP}: Valeu!")
    shot(host, "talk-computer", full_page=False)


def signed_up(page: Any, base: str, name: str) -> None:
    res = page.request.post(base + "/api/account/signup", data=json.dumps(
        {"name": name, "password": "correct horse 7"}),
        headers={"Content-Type": "application/json", "Origin": base})
    assert res.status == 201, res.text()


def test_signed_in_players_write_their_own_words_as_text_and_report_one(browser, base):
    """Free text: off until each turns it on at this table; the phone's player reads the
    host's markup and link as plain characters, and reports the line, which the server
    takes by its seal."""
    host = page_of(browser, 1280, 900)
    in_language(host, base, "en")
    signed_up(host, base, "Hosta")
    res = host.request.post(base + "/api/tables", data=json.dumps(
        {"game": "spades", "seats": SEATS, "name": "Hosta"}),
        headers={"Content-Type": "application/json", "Origin": base})
    assert res.ok, res.text()
    made = res.json()
    tid = made["table"]["id"]
    phone = page_of(browser, 390, 844, touch=True)
    in_language(phone, base, "pt-BR")
    signed_up(phone, base, "Bia Lima")
    joined = phone.request.post(f"{base}/api/tables/{tid}/join", data=json.dumps(
        {"name": "Bia", "seat": 2}), headers={"Content-Type": "application/json",
                                               "Origin": base})
    assert joined.ok, joined.text()
    seated(host, base, tid, 0, made["token"])
    seated(phone, base, tid, 2, joined.json()["token"])
    for page in (host, phone):
        page.wait_for_selector(".hand .card")
        page.click(".talk-button")
        expect(page.locator(".talk-form")).to_be_hidden()  # off until turned on here
        page.check(".talk-listen input")
        expect(page.locator(".talk-form")).to_be_visible()
    assert boxes_apart(phone, ".talk-panel", ".hand .card")
    expect(phone.locator(".talk-listen")).to_have_text(
        "Mostrar as mensagens dos jogadores nesta mesa")
    shot(phone, "talk-phone-words", full_page=False)

    said = "<img src=x onerror=\"document.title='owned'\"> see https://example.org"
    host.fill(".talk-input", said)
    host.keyboard.press("Enter")
    expect(last_line(phone)).to_have_text(f"⚑ Hosta: {said}")  # ⚑: Report it
    expect(last_line(host)).to_have_text(f"You: {said}")  # no Report on one's own words
    assert phone.locator(".talk-log img, .talk-log a").count() == 0
    assert phone.title() != "owned" and host.title() != "owned"

    phone.fill(".talk-input", "x" * 250)  # the field keeps 200
    assert len(phone.input_value(".talk-input")) == 200
    phone.fill(".talk-input", "Boa!")
    phone.click(".talk-form button[type=submit]")
    expect(last_line(host)).to_have_text("⚑ Bia Lima: Boa!")  # her account's name

    phone.on("dialog", lambda dialog: dialog.accept())
    phone.locator(".talk-log .talk-line").filter(has_text="example.org").locator(
        ".talk-report").click()
    expect(phone.locator(".talk-log .talk-line").filter(has_text="example.org")).to_contain_text(
        "Denunciado")
    assert not host.errors and not phone.errors, (host.errors, phone.errors)
