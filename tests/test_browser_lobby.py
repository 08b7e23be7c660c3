"""The lobby in a real browser (Debian's Chromium): a tile per game, a guest name, presets,
the folded options as the controls that fit (and fit their panel), the table speed; and
the names the server gives every seat, shown with the bots' level badges and "You"."""

from __future__ import annotations

import json
import re
import threading

import httpx
import pytest
from browser_kit import open_table, page_of, parlour, shot, wait_until_js
from server_kit import free_port, server_thread
from waits import joined
from websockets.sync.client import connect

from parlour.games import game_ids
from parlour.server.play.names import BOT_NAMES

pytestmark = pytest.mark.browser

SIZES = [(1280, 800, False), (390, 844, True)]
#: The new-table panel's fields and controls that stick out of it, and whether the page
#: scrolls sideways.
OUTSIDE_THE_PANEL = """() => {
  const panel = document.querySelector('form.create').getBoundingClientRect();
  const out = [];
  const shown = 'form.create .field, form.create input, form.create select, form.create .preset';
  for (const el of document.querySelectorAll(shown)) {
    if (!el.offsetParent) continue;
    const r = el.getBoundingClientRect();
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5) out.push(el.id || el.className);
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
  return out;
}"""


def table_of(base: str, url: str) -> dict:
    tid = url.rstrip("/").rsplit("/", 1)[-1]
    return httpx.get(f"{base}/api/tables/{tid}").json()["table"]


def test_a_tile_per_game_and_a_remembered_guest_name(browser, base):
    page = page_of(browser, 1280, 800)
    page.goto(base + "/")
    page.wait_for_selector(".game-tile")
    tiles = page.locator(".game-tile")
    assert sorted(tiles.evaluate_all("els => els.map(e => e.dataset.game)")) == sorted(game_ids())
    for i in range(tiles.count()):
        tile = tiles.nth(i)
        game = tile.get_attribute("data-game")  # its own scene, from its folder's picture.js
        tile.locator(f"svg.tile-picture[data-drawn='{game}']").wait_for(timeout=10_000)
        assert tile.locator("svg.tile-picture rect, svg.tile-picture circle").count() >= 3
        assert tile.locator(".tile-name").inner_text()
        assert len(tile.locator(".tile-line").inner_text()) > 20  # one line on what it is
        meta = tile.locator(".tile-meta").inner_text()
        assert re.fullmatch(r"(Solitaire|\d+ players|\d+ to \d+ players) · about \d+ minutes",
                            meta), meta
    assert page.get_attribute(".game-tile[data-game='spades']", "aria-pressed") == "true"
    page.click(".game-tile[data-game='hit-the-deck']")
    assert page.get_attribute(".game-tile[data-game='hit-the-deck']", "aria-pressed") == "true"
    assert page.get_attribute(".game-tile[data-game='spades']", "aria-pressed") == "false"
    assert page.inner_text("#create-title") == "Open a table: Hit the Deck"
    # a guest name, ready to play under and kept; a name typed in replaces it for good
    guest = page.input_value("#new-name")
    assert re.fullmatch(r"Guest \d{4}", guest), guest
    shot(page, "lobby-01-tiles")
    page.reload()
    page.wait_for_selector(".game-tile[data-game='hit-the-deck'][aria-pressed='true']")
    assert page.input_value("#new-name") == guest
    page.fill("#new-name", "Ana")
    page.dispatch_event("#new-name", "change")
    page.reload()
    page.wait_for_selector(".game-tile")
    assert page.input_value("#new-name") == "Ana"


def test_a_preset_the_folded_options_and_the_speed_open_that_table(browser, base):
    page = page_of(browser, 1280, 800)
    page.goto(base + "/")
    page.click(".game-tile[data-game='spades']")
    assert page.locator("details.options").get_attribute("open") is None
    assert not page.is_visible("#opt-target")  # folded away
    assert page.locator(".preset").all_inner_texts() == [
        "Classic\nabout 30 minutes", "Quick game\nabout 15 minutes · Points to win: 300"]
    page.check("#preset-quick")
    page.click("details.options summary")
    assert page.is_visible("#opt-target") and page.input_value("#opt-target") == "300"
    assert page.get_attribute("#opt-target", "type") == "number"
    assert (page.get_attribute("#opt-target", "min"), page.get_attribute("#opt-target", "max")) \
        == ("10", "5000")
    assert page.get_attribute("#opt-blind_nil", "type") == "checkbox"
    labels = page.locator(".options-grid .field > span").all_inner_texts()
    assert "Points to win" in labels and "Nil tricks help the partner" in labels
    assert not any("_" in label or "OpenSpiel" in label for label in labels)
    page.check("#preset-classic")
    assert page.input_value("#opt-target") == "500"
    page.check("#preset-quick")
    page.select_option("#new-speed", "slow")
    assert page.is_checked("#new-hints")  # hints on unless turned off (or the match is rated)
    page.check("#new-rated")
    assert page.is_disabled("#new-hints") and not page.is_checked("#new-hints")
    page.uncheck("#new-rated")
    page.uncheck("#new-hints")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table = table_of(base, page.url)
    assert table["options"]["target"] == 300 and table["pace"]["speed"] == "slow"
    assert table["hints"] is False
    assert table["seats"][0]["name"] == page.evaluate("localStorage.getItem('parlour.name')")


def test_play_now_seats_two_people_waiting_for_the_same_game_together(browser, base):
    """Quick play: a person on a computer presses "Play now" for Spite & Malice's quick
    game and is told who is here and when bots come; a second on a phone presses it for the
    same game and preset; both are taken to one table, each at a seat of their own whose
    token is their wait's secret (the bots' fill after the wait: test_server_quick.py)."""
    ana, bia = page_of(browser, 1280, 800), page_of(browser, 390, 844, touch=True)
    for page, name in ((ana, "Ana"), (bia, "Bia")):
        page.goto(base + "/")
        page.click(".game-tile[data-game='spite-and-malice']")
        page.fill("#new-name", name)
        page.check("#preset-quick")
    ana.click("#play-now")
    counting = r"/^1 of 2 players here\. Bots take the empty seats in \d+ seconds?\.$/"
    wait_until_js(ana, "the wait's count-down", f"""() => {counting}.test(
        document.querySelector('#quick-status').textContent)""")
    assert ana.is_visible("#quick-cancel") and not ana.is_visible("#play-now")
    bia.click("#play-now")
    for page in (ana, bia):
        page.wait_for_url(re.compile(r"/t/[\w-]+$"), timeout=30000)
    assert ana.url == bia.url
    table = table_of(base, ana.url)
    assert [s["name"] for s in table["seats"]] == ["Ana", "Bia"]
    assert table["options"]["target"] == 20 and table["status"] == "playing"
    for page, seat in ((ana, 0), (bia, 1)):  # each page holds its seat, and plays it
        held = page.evaluate("JSON.parse(localStorage.getItem('parlour.seats'))")
        assert held[table["id"]]["seat"] == seat
        page.wait_for_selector("body[data-version]", state="attached")
        assert not page.is_visible("text=You are watching.")
    shot(bia, "quick-play-phone")


def test_a_wait_can_be_stopped_and_is_nobodys_match(browser, base):
    ana = page_of(browser, 1280, 800)
    ana.goto(base + "/")
    ana.click(".game-tile[data-game='spades']")
    ana.click("#play-now")
    ana.wait_for_selector("#quick-cancel", state="visible")
    ana.click("#quick-cancel")
    ana.wait_for_selector("#play-now", state="visible")
    assert ana.inner_text("#quick-status") == "You stopped waiting."
    with httpx.Client(base_url=base) as other:  # nobody is waiting for Spades any more
        res = other.post("/api/quick", json={"game": "spades", "preset": "classic",
                                             "name": "Cid"}, headers={"Origin": base})
        wait = res.json()["wait"]
        assert other.post(f"/api/quick/{wait['id']}", json={"secret": wait["secret"]},
                          headers={"Origin": base}).json()["found"] == 1


DAY_LEFT = r"(1 day|23 h \d+ min)"  # a day a move, a few seconds of it gone or none


def play_seat_out(base: str, table_id: str, token: str) -> None:
    """Play one seat by its first legal move until the match ends (30 s for each view)."""
    with connect(base.replace("http", "ws", 1) + f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] != "view":
                continue
            if msg["status"] != "playing":
                return
            view = msg["view"]
            if view["seat"] in view.get("to_act", []) and view.get("legal"):
                ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                    "version": msg["version"]}))


def test_a_game_by_correspondence_waits_across_a_restart_and_the_lobby_says_your_turn(
        browser, tmp_path):
    """Ana opens Cangkul's quick game by correspondence (a day a move) with a seat for a
    friend; Bia takes it on her phone. The one to move is told how long is left and, in the
    lobby, that a table waits for her move (the page's title counts it); the other is not.
    The server stops and starts again: the table waits as a row, the lobby's link brings the
    one to move back to her seat with the same time left, and the game is played to its end
    there (the two seats' moves sent over their sockets), its results over the table."""
    port = free_port()
    ana, bia = page_of(browser, 1280, 800), page_of(browser, 390, 844, touch=True)
    with parlour(tmp_path, port) as base:
        ana.goto(base + "/")
        ana.click(".game-tile[data-game='cangkul']")
        ana.fill("#new-name", "Ana")
        ana.check("#preset-quick")
        ana.select_option("#new-seats", "2")
        ana.select_option("#seat-1", "person")
        ana.click("details.options summary")
        ana.select_option("#new-post", "86400")
        assert not ana.is_visible("#new-turn")  # a time per move, not a turn timer
        ana.click("text=Open the table")
        ana.wait_for_url(re.compile(r"/t/[\w-]+$"))
        table_id = ana.url.rsplit("/", 1)[-1]
        bia.goto(ana.url)
        bia.fill("#join-name", "Bia")
        bia.click("form.join button[type=submit]")
        table = table_of(base, ana.url)
        assert table["move_seconds"] == 86400 and [s["name"] for s in table["seats"]] == \
            ["Ana", "Bia"]
        for page in (ana, bia):
            wait_until_js(page, "the game's clock", "() => /move: /.test((document"
                          ".querySelector('.turn-clock') || {}).textContent || '')")
        clocks = {"ana": ana.inner_text(".turn-clock"), "bia": bia.inner_text(".turn-clock")}
        moving = "ana" if clocks["ana"].startswith("Your move") else "bia"
        mover, other = (ana, bia) if moving == "ana" else (bia, ana)
        assert re.fullmatch(rf"Your move: {DAY_LEFT} left", clocks[moving]), clocks
        assert re.fullmatch(rf"\w+'s move: {DAY_LEFT} left",
                            clocks["bia" if moving == "ana" else "ana"]), clocks
        assert mover.is_visible("text=A game by correspondence: 1 day for each move.")
        tokens = [json.loads(page.evaluate("localStorage.getItem('parlour.seats')"))[
            table_id]["token"] for page in (ana, bia)]
        other.goto(base + "/")
        other.wait_for_selector(".game-tile")
        assert other.title() == "Parlour" and not other.is_visible(".your-turn")
        for page in (ana, bia):  # both close their pages; the server stops and starts
            page.goto("about:blank")
    with parlour(tmp_path, port) as again:  # the server starts again: the table is a row
        assert again == base
        mover.goto(base + "/")
        wait_until_js(mover, "the lobby's Your turn", "() => document.title === '(1) Parlour'")
        assert mover.inner_text(".your-turn h2") == "Your turn: 1 table waits for your move"
        assert re.fullmatch(rf"{DAY_LEFT} left", mover.inner_text(".turns .muted"))
        mover.click(".turns a")
        mover.wait_for_url(re.compile(f"/t/{table_id}$"))
        wait_until_js(mover, "the clock of her move", f"""() => /^Your move: {DAY_LEFT} left$/
            .test((document.querySelector('.turn-clock') || {{}}).textContent || '')""")
        players = [threading.Thread(target=play_seat_out, args=(base, table_id, token))
                   for token in tokens]
        for player in players:
            player.start()
        for player in players:
            joined(player, "a seat played to the match's end", 120)
        mover.wait_for_selector(".endbar:not([hidden]) .results-title", timeout=30000)
        assert table_of(base, f"/t/{table_id}")["status"] == "finished"
        mover.goto("about:blank")  # (before this server stops: no reconnecting page)


def test_choices_are_lists_and_the_options_fit_their_panel(browser, base):
    for width, height, touch in SIZES:
        page = page_of(browser, width, height, touch=touch)
        page.goto(base + "/")
        page.wait_for_selector(".game-tile")
        for game in game_ids():
            page.click(f".game-tile[data-game='{game}']")
            page.click("details.options summary")
            page.wait_for_selector("details.options[open]")
            over = page.evaluate(OUTSIDE_THE_PANEL)
            assert not over, (game, width, over)
            if width == 390 and game == "hit-the-deck":
                shot(page, "lobby-02-options-phone")
        page.click(".game-tile[data-game='foursquare']")  # whichever game the menu ends with
        page.click("details.options summary")
        page.wait_for_selector("details.options[open]")
        assert page.evaluate("document.querySelector('#opt-flip').tagName") == "SELECT"
        assert page.locator("#opt-flip option").all_inner_texts() == [
            "Never (the designer's rule)", "Yes, when its own line fires"]
        page.click(".game-tile[data-game='hit-the-deck']")
        assert page.evaluate("document.querySelector('#opt-bot_slap').tagName") == "SELECT"
        assert page.locator("#opt-bot_slap option").evaluate_all(
            "els => els.map(e => e.value)") == ["relaxed", "normal", "quick"]


def test_hit_the_deck_names_every_seat_with_badges_and_the_narration_says_you(browser, base):
    page = page_of(browser, 1280, 800)
    open_table(page, base, "hit-the-deck", name="Ana", seats={3: "bot:ismcts:hard"})
    page.wait_for_selector(".htd-plate")
    plates = page.locator(".htd-plate")
    assert plates.count() == 4
    mine = page.locator(".htd-plate.mine .name").inner_text()
    assert mine == "You"
    others = page.locator(".htd-plate:not(.mine)")
    names = others.locator(".name").all_inner_texts()
    badges = others.locator(".bot-badge").all_inner_texts()
    assert len(set(names)) == 3 and set(names) <= set(BOT_NAMES), names
    assert sorted(badges) == ["bot, normal", "bot, normal", "thinking bot, hard"], badges
    assert "seat" not in page.inner_text(".htd").lower().replace("seats", "")
    shot(page, "lobby-03-htd-names")
    url = page.url
    # the lobby lists the table with the same names and badges, and you as You
    page.click("#crumbs >> text=Lobby")
    row = page.locator(f".table-row:has(a[href='{url[len(base):]}'])")
    row.wait_for()
    seats = row.locator(".table-seats").inner_text().split(" · ")
    assert seats[0] == "You" and all(re.fullmatch(r"\w+ - (thinking )?bot, (normal|hard)", s)
                                     for s in seats[1:]), seats
    # Clockwork Spades narrates every step: your own lines say You, never your name
    page.click(".game-tile[data-game='clockwork-spades']")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".cw-log-list li")
    lines = page.locator(".cw-log-list li").all_inner_texts()
    assert any(line.startswith("You ") or ": you are due" in line for line in lines), lines
    assert not any("Ana" in line for line in lines), lines
    bot = page.locator(".cw-plate:not(.mine) .cw-name").inner_text()
    assert bot in BOT_NAMES and page.locator(".cw-plate:not(.mine) .bot-badge").inner_text() \
        == "bot, normal"


def test_at_slow_speed_a_cascade_is_told_one_step_at_a_time(browser, tmp_path):
    """A table of bots opened slow, watched: the server spaces the bots' moves and the
    page gives each automatic step of a view its own moment (the table's step_ms apart),
    each line unseen until then."""
    with server_thread(tmp_path / "slow.sqlite3", bot_pause=0.1) as url:
        res = httpx.post(f"{url}/api/tables", json={
            "game": "clockwork-spades", "speed": "slow",
            "seats": [{"kind": "bot", "bot": "rule"}, {"kind": "bot", "bot": "random"}]})
        table = res.json()["table"]
        step = table["pace"]["step_ms"]
        assert table["pace"]["speed"] == "slow" and step == 100
        page = page_of(browser, 1280, 800)
        page.goto(f"{url}/t/{table['id']}")
        wait_until_js(page, "a fresh log line shown a step later",
                      "() => [...document.querySelectorAll('.cw-log-list li.fresh')]"
                      ".some(li => parseFloat(li.style.animationDelay) >= 200)")
        delays = page.eval_on_selector_all(
            ".cw-log-list li.fresh", "els => els.map(li => parseFloat(li.style.animationDelay))")
        assert all(d % step == 0 for d in delays), delays
        assert page.evaluate("getComputedStyle(document.querySelector('.cw-log-list li.fresh'))"
                             ".animationFillMode") == "backwards"
        page.close()
