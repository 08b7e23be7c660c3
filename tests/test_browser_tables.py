"""The Spite & Malice and Clockwork Spades tables in a real browser (Debian's Chromium).

Each test plays a whole match through the page against a rule bot, then checks what every
table has: the rules over the table, the results screen with the match history, the record
download and the step-by-step replay. Screenshots go to ``artifacts/browser/`` (with
``PARLOUR_SHOTS=1``).
"""

from __future__ import annotations

import json
import re

import pytest
from browser_kit import (
    check_record_and_replay,
    check_rules_dialog,
    open_table,
    page_of,
    shot,
    version,
    wait_caught_up,
    wait_moved_on,
)

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]


INPUTS = ("drag", "keys", "click")  # the mouse and keyboard inputs to try, in this order
SNM_DONE = ".snm-plate.mine.turn, .endbar:not([hidden])"
BANNERS = """() => {
  window.__banners = [];
  const el = document.querySelector('.snm-banner');
  new MutationObserver(() => window.__banners.push(el.textContent))
    .observe(el, {childList: true, characterData: true, subtree: true});
}"""


def snm_choose(page) -> tuple[str, str]:
    """A move for this page's turn, read from the cards' ``data-targets``: the payoff card
    first, then a side pile top, then a hand card onto a centre pile, else a discard."""
    sources = dict(page.eval_on_selector_all(
        ".snm [data-key][data-targets]", "els => els.map(e => [e.dataset.key, e.dataset.targets])"))
    for prefix in ("p", "s", "h"):
        for src, targets in sources.items():
            centre = [t for t in targets.split() if t.startswith("c")]
            if src.startswith(prefix) and centre:
                return src, centre[0]
    hand = sorted(k for k, t in sources.items() if k.startswith("h") and t)
    sides = [t for t in sources[hand[0]].split() if t.startswith("s")]
    # keep side piles short: the pile with fewest cards
    sizes = {t: page.locator(f"[data-key='{t}'] .card").count() for t in sides}
    return hand[0], min(sides, key=lambda t: (sizes[t], t))


def drag(page, src: str, dst: str) -> None:
    a = page.locator(f"[data-key='{src}']").bounding_box()
    b = page.locator(f"[data-key='{dst}']").bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + min(30, a["height"] / 2))
    page.mouse.down()
    for i in range(1, 7):
        page.mouse.move(a["x"] + a["width"] / 2 + (b["x"] - a["x"]) * i / 6,
                        a["y"] + min(30, a["height"] / 2) + (b["y"] - a["y"]) * i / 6)
    page.wait_for_selector(f"[data-key='{dst}'].target.over")
    page.mouse.up()


def snm_move(page, src: str, dst: str, how: str) -> None:
    before = version(page)
    if how == "drag":
        drag(page, src, dst)
    elif how == "keys":
        page.keyboard.press(src[1] if src.startswith("h") else "p" if src == "p" else "Escape")
        if src.startswith("s"):
            page.focus(f"[data-key='{src}']")
            page.keyboard.press("Enter")
        page.wait_for_selector(f"[data-key='{src}'].selected")
        page.focus(f"[data-key='{dst}'].target")
        page.keyboard.press("Enter")
    elif how == "tap":
        page.tap(f"[data-key='{src}']")
        page.wait_for_selector(f"[data-key='{dst}'].target")
        page.tap(f"[data-key='{dst}']")
    else:
        page.click(f"[data-key='{src}']")
        page.wait_for_selector(f"[data-key='{dst}'].target")
        page.click(f"[data-key='{dst}']")
    wait_moved_on(page, before)


def test_spite_and_malice_a_whole_match_by_drag_click_keys_and_touch(browser, base):
    page = page_of(browser, 1280, 900)
    page.goto(base + "/")
    page.click(".game-tile[data-game='spite-and-malice']")
    page.click("text=How to play Spite & Malice")  # the lobby's rules link
    page.wait_for_selector(".rules-page .rules-text h1:has-text('Spite & Malice')")
    url = open_table(page, base, "spite-and-malice",
                     {"payoff_size": 3, "target": 1, "max_rounds": 3})
    page.wait_for_selector(".snm-hand .card")
    page.evaluate(BANNERS)
    assert page.locator(".snm-hand .snm-slotno").all_inner_texts() == ["1", "2", "3", "4", "5"]
    assert page.locator(".snm-centre-pile").count() == 3
    assert page.get_attribute(".snm-stock", "aria-label").startswith("Stock: ")
    for key in ("p", "s1", "c1", "h1"):
        assert page.get_attribute(f"[data-key='{key}']", "aria-label")
    shot(page, "snm-01-deal")

    moves: list[tuple[str, str, str]] = []
    tapped = False
    matches = 1
    for _ in range(400):
        page.wait_for_selector(SNM_DONE)
        if page.locator(".endbar:not([hidden])").count():
            centre = any(d.startswith("c") for _, d, _ in moves)
            if ({"drag", "keys", "click", "tap"} <= {how for _, _, how in moves} and centre) \
                    or matches == 6:
                break
            before = version(page)  # the bot won too fast: another match, to try every input
            page.click(".endbar >> text=Play again")
            wait_moved_on(page, before)
            matches += 1
            continue
        src, dst = snm_choose(page)
        # each input at its first chance (keys cannot pick a side pile's card), then clicks
        used = {how for _, _, how in moves}
        how = next((h for h in INPUTS if h not in used
                    and not (h == "keys" and src.startswith("s"))), "click")
        snm_move(page, src, dst, how)
        moves.append((src, dst, how))
        if len(moves) == 1:
            shot(page, "snm-02-first-move")
        if dst.startswith("s") and not tapped:
            # the same seat on a phone, by touch: tap a card, tap a pile
            phone = page_of(browser, 390, 844, touch=True)
            phone.goto(base + "/")
            phone.evaluate("s => localStorage.setItem('parlour.seats', s)",
                           page.evaluate("localStorage.getItem('parlour.seats')"))
            phone.goto(url)
            phone.wait_for_selector(".snm-hand .card")
            log = page.inner_text(".snm-log")
            assert re.search(r"You put \S+ on side pile \d: end of turn\.", log)
            phone.wait_for_selector(SNM_DONE)
            if not phone.locator(".endbar:not([hidden])").count():
                src2, dst2 = snm_choose(phone)
                snm_move(phone, src2, dst2, "tap")
                moves.append((src2, dst2, "tap"))
                # the big screen plays on from the phone's move, not from its turn before
                wait_caught_up(page, phone)
                shot(phone, "snm-03-phone-after-a-tap")
                tapped = True  # else the match ended first: the next side pile tries again
            assert not phone.errors, phone.errors
            phone.context.close()
        if len(moves) == 8:
            shot(page, "snm-04-mid-round")
    else:
        pytest.fail("the match did not end")

    done = {how for _, _, how in moves}
    assert {"drag", "keys", "click", "tap"} <= done, moves
    assert any(d.startswith("c") for _, d, _ in moves), "no card was built on a centre pile"
    banners = page.evaluate("window.__banners")
    assert any(b.startswith("Turn over") for b in banners), banners
    if matches == 1 and sum(d.startswith("s") for _, d, _ in moves[:-1]) >= 1:
        # the turn came back to us after a discard: said so (or a new round began)
        assert any(b == "Your turn" or "round" in b.lower() for b in banners), banners

    page.wait_for_selector(".endbar .results .standings")
    assert page.locator(".snm-note.result").count() == 1
    title = page.inner_text(".results-title")
    bot = page.locator(".standings tbody th:has(.bot-badge)")  # the bot: its name and level
    assert bot.count() == 1 and bot.inner_text().endswith("bot, normal"), bot.all_inner_texts()
    assert title in ("You win!", "The match is drawn") \
        or re.fullmatch(r"[A-Z][a-z]+ wins", title), title
    rows = page.locator(".results-history tbody tr")
    assert rows.count() >= 1
    assert page.inner_text(".standings thead").count("Match points") == 1
    shot(page, "snm-05-results")
    check_rules_dialog(page, "Spite & Malice", "snm-06")
    text = check_record_and_replay(page, "spite-and-malice", "snm-07")
    assert sum(1 for line in text.splitlines() if line[:2] == "0 ") >= 1
    page.wait_for_selector(".snm-note.result")
    assert not page.errors, page.errors


def test_clockwork_spades_whole_games_taking_spades_on_the_clock(browser, base):
    page = page_of(browser, 1280, 1000)
    open_table(page, base, "clockwork-spades")
    page.wait_for_selector(".cw-clock .cw-pos")
    assert page.locator(".cw-clock .cw-pos").count() == 12
    assert page.locator(".cw-log-list li").count() > 0  # the deal, told
    shot(page, "cw-01-deal")
    takes: list[str] = []
    games = 0
    for _ in range(300):
        page.wait_for_selector(".cw-choice:not([hidden]) .cw-take, .endbar:not([hidden])")
        if page.locator(".endbar:not([hidden])").count():
            games += 1
            if takes or games >= 4:
                break
            before = version(page)
            page.click(".endbar >> text=Play again")  # a game with no choice for us
            wait_moved_on(page, before)
            continue
        due = page.eval_on_selector_all(".cw-pos.due", "els => els.map(e => e.dataset.position)")
        offered = page.eval_on_selector_all(".cw-take", "els => els.map(e => e.dataset.action)")
        assert sorted(offered) == sorted(f"take {p}" for p in due), (offered, due)
        assert all(page.locator(f".cw-pos.can-take[data-position='{p}']").count() for p in due)
        if len(takes) == 0:
            shot(page, "cw-02-choice")
        before = version(page)
        pick = offered[-1]
        if len(takes) == 0:  # on the clock itself
            page.click(f".cw-pos.can-take[data-position='{pick[5:]}']")
        elif len(takes) == 1:  # by keyboard: the buttons take arrows
            page.focus(".cw-take")
            page.keyboard.press("End")
            page.keyboard.press("Enter")
        else:
            page.click(f".cw-take[data-action='{pick}']")
        wait_moved_on(page, before)
        takes.append(pick)
        log = page.inner_text(".cw-log-list")
        spade = {"1": "A", "11": "J", "12": "Q"}.get(pick[5:], pick[5:])
        assert re.search(rf"You take {spade}♠ from {pick[5:]} as a penalty", log), log[-600:]
    else:
        pytest.fail("the game did not end")
    assert takes, "no game offered a choice"
    log = page.inner_text(".cw-log-list")
    for said in ("is due on", "plays", "draws"):
        assert said in log
    assert page.locator(".cw-log-list li.ev-end").count() == 1
    page.wait_for_selector(".endbar .results .standings")
    assert "Penalty spades" in page.inner_text(".standings thead")
    history = page.text_content(".results-history")
    assert "How the game ended" in history and "You" in history
    shot(page, "cw-03-results")
    check_rules_dialog(page, "Clockwork Spades", "cw-04")
    text = check_record_and_replay(page, "clockwork-spades", "cw-05")
    assert re.search(r"^0 take \d+$", text, re.M)
    assert page.locator(".cw-log-list li").count() > 0  # the replay tells each step too
    page.click("button[aria-label='First step']")
    page.wait_for_selector(".replay-caption:has-text('Step 0')")
    assert page.locator(".cw-log-list li.ev-end").count() == 0
    assert not page.errors, page.errors

    phone = page_of(browser, 390, 844, touch=True)
    phone.goto(page.url)
    phone.wait_for_selector(".cw-clock .cw-pos")
    shot(phone, "cw-06-phone-replay")
    assert not phone.errors, phone.errors


def test_results_screen_rules_and_replay_for_spades_too(browser, base):
    """The common pieces are not per game: Spades gets the rules button, the results with
    its deal history, and the replay with narration-free views."""
    page = page_of(browser, 1100, 900)
    page.goto(base + "/")
    res = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'spades', options: {target: 10},
          seats: [1, 2, 3, 4].map(() => ({kind: 'bot', bot: 'rule'}))})});
      return await r.json();
    }""")
    page.goto(f"{base}/t/{res['table']['id']}")
    page.wait_for_selector(".endbar .results .standings", timeout=60000)
    assert page.locator(".results-history tbody tr").count() >= 1
    assert page.text_content(".results-history h3") == "Deals"
    shot(page, "spades-results")
    check_rules_dialog(page, "Spades", "spades")
    check_record_and_replay(page, "spades", "spades")
    rules = page.evaluate("async () => (await fetch('/api/games/spades/rules')).json()")
    assert "<h1>" in rules["html"] and json.dumps(rules).count("<script") == 0
    assert not page.errors, page.errors


def test_a_safety_stop_is_told_on_the_results_screen(browser, base):
    """A Hit the Deck table of bots whose round stops at 20 moves and whose game stops
    after one round: the results say both, in the reader's language (the engine's
    messages, rendered by the server); a Spades match stopped after one deal too. (Fifteen
    cards each: nobody sheds them in 20 moves. With seven a round was once won outright
    first: of 1,500 seeded rounds the shortest went out in 22 actions; with fifteen, of 600,
    in 53.)"""
    page = page_of(browser, 1100, 900)
    page.context.add_cookies([{"name": "parlour_lang", "value": "pt-BR", "url": base}])
    page.goto(base + "/")
    for game, options, seats in (
            ("hit-the-deck", {"max_turns": 20, "max_rounds": 1, "target": 1000,
                              "hand_size": 15}, 3),
            ("spades", {"max_deals": 1}, 4)):
        res = page.evaluate("""async ([game, options, seats]) => {
          const r = await fetch('/api/tables', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({game, options,
              seats: Array.from({length: seats}, () => ({kind: 'bot', bot: 'rule'}))})});
          return await r.json();
        }""", [game, options, seats])
        page.goto(f"{base}/t/{res['table']['id']}")
        page.wait_for_selector(".endbar .results .results-stop", timeout=60000)
        told = page.inner_text(".endbar .results-stop")
        if game == "hit-the-deck":
            assert told.startswith("O jogo para depois de 1 rodada, o máximo que pode durar")
            rows = page.locator(".results-history tr.round-stop")
            assert rows.count() == 1, ("the round the safety stop ended is not told under its row "
                                       "in the match history: " + page.inner_html(".endbar"))
            row = rows.inner_text()
            assert row.startswith("A rodada 1 chegou a 20 jogadas")
        else:
            assert told.startswith("A partida para depois de 1 mão")
            assert page.locator(".results-history tr.round-stop").count() == 0
    assert not page.errors, page.errors
