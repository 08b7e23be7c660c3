"""The web parlour in a real browser (Debian's Chromium through Playwright).

Screenshots of each step go to ``artifacts/browser/`` (with ``PARLOUR_SHOTS=1``). The server
runs in a thread of the test process with no bot pause, so the bots answer at once.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import pytest
from browser_kit import (
    check_results_over_the_table,
    downloaded,
    open_table,
    page_of,
    shot,
    version,
    wait_until_js,
)

pytestmark = pytest.mark.browser

TURN = ".bid-panel:not([hidden]) .bid, .hand .card.playable, .endbar:not([hidden])"


def take_turn(page, bid="bid 3", keyboard=False) -> str | None:
    """Bid or play the first playable card, if it is this page's turn; what it did. The
    page's version is read once its turn is on screen (no other view can come before its
    move then): read earlier, the view that brings the turn would pass for the answer to
    the move, and the next call would find the card still in hand, on its way out."""
    if page.locator(".endbar:not([hidden])").count():
        return None
    bid_button = page.locator(f".bid-panel:not([hidden]) .bid[data-action='{bid}']")
    if bid_button.count():
        before = version(page)
        bid_button.click()
        did = bid
    else:
        card = page.locator(".hand .card.playable").first
        if not card.count():
            return None
        before = version(page)
        did = card.get_attribute("data-card")
        if keyboard:
            card.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
        else:
            card.click(position={"x": 8, "y": 30})  # the part of the card not overlapped
    page.wait_for_selector(f"body:not([data-version='{before}'])", state="attached")
    return did


def test_three_bots_bid_play_a_deal_score_and_replay(browser, base):
    page = page_of(browser)
    page.goto(base + "/")
    page.fill("#new-name", "Sam")
    page.click("summary")
    page.fill("#opt-target", "10")  # one deal almost always ends the match
    shot(page, "01-lobby")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    assert page.locator(".hand .card").count() == 13
    assert page.get_attribute(".hand", "aria-label") == "Your hand"
    shot(page, "02-bidding")
    assert take_turn(page) == "bid 3"
    page.wait_for_selector(".hand .card.playable")
    shot(page, "03-first-lead")
    plays = 0
    for _ in range(200):
        page.wait_for_selector(TURN)
        if page.locator(".endbar:not([hidden])").count():
            break
        illegal = page.locator(".hand .card.illegal")
        if illegal.count():
            reason = illegal.first.get_attribute("title")
            assert reason and ("must follow" in reason or "spades not broken" in reason)
        did = take_turn(page, keyboard=plays == 0)
        plays += did is not None and did != "bid 3"
        if plays == 6:
            shot(page, "04-mid-deal")
    else:
        pytest.fail("the match did not end")
    assert plays >= 13
    page.wait_for_selector(".history tbody tr")
    shot(page, "05-scored")
    scores = [int(x) for x in page.locator(".team-score").all_inner_texts()]
    first_row = page.locator(".history tbody tr").first.inner_text()
    assert str(scores[0]) in page.locator(".history tbody tr").last.inner_text()
    assert first_row.startswith("1")
    assert re.search(r"(You win!|You lose|drawn)", page.inner_text(".felt-note"))
    check_results_over_the_table(page, ".felt")

    with page.expect_download() as download:
        page.click("text=Download the record")
    text = downloaded(download.value)
    assert '[Game "spades"]' in text and "[Result \"points" in text

    page.click("text=Replay step by step")
    page.wait_for_selector(".replay-caption:has-text('Step 0')")
    page.click("button[aria-label='Next step']")
    page.wait_for_selector(".replay-caption:has-text('Step 1 of')")
    assert "bid" in page.inner_text(".replay-caption")
    check_replay_cues(page)
    page.click("button[aria-label='Last step']")
    page.wait_for_selector(".felt-note.result")
    shot(page, "06-replay")
    assert not page.errors


GLYPHS = set("⏮⏭⏸⏯▶◀")
OVERLAPS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const a = box(document.querySelector('.felt-note'));
  return [...document.querySelectorAll('.trick .card')].map(box).filter((b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).length;
}"""


def check_replay_cues(page) -> None:
    """Replay controls are drawn (inline SVG, no font glyphs); the live-only cues are not
    in a replay; the trick's caption never covers a card of the trick."""
    for label in ("First step", "Previous step", "Play", "Next step", "Last step"):
        button = page.locator(f".replay-controls button[aria-label='{label}']")
        assert button.locator("svg.icon path").count() >= 1, label
        assert not GLYPHS & set(button.inner_text()), (label, button.inner_text())
    for _ in range(12):  # to the end of the first trick: four cards and who takes it
        if page.locator(".trick.done .card").count() == 4:
            break
        before = page.inner_text(".replay-caption")
        page.click("button[aria-label='Next step']")
        wait_until_js(page, "the replay's next step",
                      "b => document.querySelector('.replay-caption').textContent !== b", before)
    assert page.locator(".trick.done .card").count() == 4
    assert page.locator(".plate.turn").count() == 1  # whose turn: the ring
    assert page.locator(".plate .thinking, .plate .tag").count() == 0  # no live cues
    assert re.fullmatch(r"(You take|.+ takes) the trick", page.inner_text(".felt-note"))
    assert page.evaluate(OVERLAPS) == 0


def test_friend_joins_by_invite_link_and_a_reload_carries_on(browser, base):
    host = page_of(browser)
    host.goto(base + "/")
    host.fill("#new-name", "Ann")
    host.select_option("#seat-1", "person")
    host.click("text=Open the table")
    host.wait_for_selector("#invite")
    invite = host.input_value("#invite")
    assert re.fullmatch(re.escape(base) + r"/t/[\w-]+", invite)
    shot(host, "10-waiting-for-friend")

    friend = page_of(browser, 390, 844)  # a phone
    friend.goto(invite)
    friend.fill("#join-name", "Bo")
    shot(friend, "11-friend-joins")
    friend.click("text=Sit down")
    friend.wait_for_selector(".hand .card")
    host.wait_for_selector(".hand .card")
    assert "Bo" in host.inner_text(".plate-left")  # West sits to South's left
    shot(friend, "12-friend-table")

    # Both play by clicking; the host reloads mid-deal and plays on from where it was, and
    # both play two cards more (the scoring of a whole deal is test_three_bots_...'s).
    played = {"host": 0, "friend": 0}
    after_reload: dict[str, int] | None = None
    for _ in range(400):
        acted = False
        for who, page in (("host", host), ("friend", friend)):
            did = take_turn(page)
            if did is not None:
                acted = True
                played[who] += not did.startswith("bid")
        if played["host"] >= 3 and after_reload is None:
            cards = host.locator(".hand .card").count()
            shot(host, "13-before-reload")
            host.reload()
            host.wait_for_selector(".hand .card")
            assert host.locator(".hand .card").count() == cards
            shot(host, "14-after-reload")
            after_reload = dict(played)
        if after_reload is not None and all(played[w] >= after_reload[w] + 2 for w in played):
            break
        if not acted:
            host.wait_for_timeout(30)
    else:
        pytest.fail(f"the play did not go on after the reload: {played}")
    # the reloaded page plays on: fewer cards in hand than before it, the same table
    assert host.locator(".hand .card").count() <= 13 - played["host"] + 1
    shot(host, "15-host-played-on")
    shot(friend, "16-friend-played-on")
    assert not host.errors and not friend.errors


def test_blind_nil_is_offered_before_looking_and_a_spectator_sees_no_hand(browser, base):
    page = page_of(browser, 800, 900)
    page.goto(base + "/")
    page.fill("#new-name", "Sam")
    page.click("summary")
    page.check("#opt-blind_nil")
    page.fill("#opt-blind_nil_deficit", "0")  # so that blind nil is offered at once
    page.click("text=Open the table")
    page.wait_for_selector(".bid-panel:not([hidden]) .bid[data-action='blind nil']")
    assert page.locator(".hand .card").count() == 0  # face down
    assert page.locator(".hand-hidden .back").count() == 13
    shot(page, "20-blind-nil-offered")
    page.focus(".bid[data-action='blind nil']")
    page.keyboard.press("ArrowRight")  # to "Look at my cards"
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"body:not([data-version='{before}'])", state="attached")
    page.wait_for_selector(".bid-panel:not([hidden]) .bid[data-action='nil']")
    assert page.locator(".hand .card").count() == 13
    assert take_turn(page, bid="nil") == "nil"
    assert "Nil" in page.inner_text(".plate-bottom")
    shot(page, "21-looked-and-bid-nil")

    watcher = page_of(browser, 1024, 768)
    watcher.goto(page.url)
    watcher.wait_for_selector(".plate-bottom .name")
    assert watcher.locator(".hand .card").count() == 0
    assert watcher.locator(".bid-panel:not([hidden])").count() == 0
    assert "Sam" in watcher.inner_text(".plate-bottom")  # South, seen from the rail
    shot(watcher, "22-spectator")
    assert not page.errors and not watcher.errors


def test_a_lost_connection_greys_the_table_and_refuses_input_until_back(browser, base):
    """The socket drops (Playwright cuts it; the next one never answers): a banner says so,
    the table is greyed and inert, a bid goes nowhere; when the server has the page back,
    the banner goes and the bid is made."""
    page = page_of(browser)
    link: dict[str, Any] = {"offline": False, "route": None}
    sent: list[str] = []

    def route(ws) -> None:
        link["route"] = ws
        if link["offline"]:
            ws.on_message(lambda m: sent.append(str(m)))  # a server that never answers
        else:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    open_table(page, base, "spades")
    bid = ".bid-panel:not([hidden]) .bid[data-action='bid 3']"
    page.wait_for_selector(bid)
    assert page.locator(".conn-banner").is_hidden()
    before = version(page)
    link["offline"] = True
    link["route"].close(code=4000, reason="cut by the test")
    page.wait_for_selector(".conn-banner:not([hidden])")
    assert "Connection lost" in page.inner_text(".conn-banner")
    assert page.evaluate("document.querySelector('.board').inert")
    assert "offline" in page.get_attribute(".board", "class")
    assert "reconnecting" in page.inner_text(".conn")
    page.click(bid, force=True)  # the table is inert: nothing is sent
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert not [m for m in sent if '"act"' in m], sent
    assert version(page) == before
    shot(page, "07-offline")
    link["offline"] = False
    link["route"].close(code=4000, reason="back")  # the next socket reaches the server
    page.wait_for_selector(".conn-banner", state="hidden")
    assert not page.evaluate("document.querySelector('.board').inert")
    assert take_turn(page) == "bid 3"


RECORD_MOTION = """
window.__anims = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  window.__anims.push(typeof options === 'number' ? options : options.duration);
  return animate.call(this, frames, options);
};
window.__done = [];
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const on = Boolean(document.querySelector('.trick.done'));
    const last = window.__done[window.__done.length - 1];
    if (!last || last.on !== on) window.__done.push({on, t: performance.now()});
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class']});
});
"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_cards_travel_150_to_300_ms_and_a_finished_trick_stays_readable(browser, base, reduced):
    """Cards fly from hand to trick and from the trick to its taker in 150-300 ms, and
    not at all with prefers-reduced-motion; a finished trick stays on the table at least
    the page's reading time (0.4 s at the tests' fast pace) before the next card."""
    page = page_of(browser, reduced_motion=reduced)
    page.context.add_init_script(RECORD_MOTION)
    open_table(page, base, "spades")
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    assert take_turn(page) == "bid 3"
    for _ in range(10):  # two tricks and more
        if take_turn(page) is None:
            page.wait_for_selector(TURN)
    durations = page.evaluate("window.__anims")
    if reduced:
        assert durations == []
    else:
        assert durations and all(150 <= d <= 300 for d in durations), durations
    done = page.evaluate("window.__done")
    shown = [b["t"] - a["t"] for a, b in pairwise(done) if a["on"] and not b["on"]]
    assert len(shown) >= 2 and min(shown) >= 380, shown


RECORD_SOUND = """
window.__audio = {contexts: 0, starts: 0};
const Ctx = window.AudioContext;
window.AudioContext = class extends Ctx {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
};
for (const proto of [AudioScheduledSourceNode.prototype, AudioBufferSourceNode.prototype]) {
  const start = proto.start;
  proto.start = function (...args) {
    window.__audio.starts += 1;
    return start.apply(this, args);
  };
}
"""


def play_some(page, turns: int) -> None:
    for _ in range(turns):
        if take_turn(page) is None:
            page.wait_for_selector(TURN)


def test_sound_is_off_by_default_and_one_switch_turns_it_on(browser, base):
    """No sound (not even an AudioContext) until the player turns the switch on; then a
    card played and a trick taken make sounds (generated with Web Audio); the choice is
    kept by the browser, and the same switch turns it off."""
    page = page_of(browser)
    page.context.add_init_script(RECORD_SOUND)
    open_table(page, base, "spades")
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    switch = page.locator(".sound-switch")
    assert switch.get_attribute("aria-pressed") == "false" and "Sound off" in switch.inner_text()
    assert take_turn(page) == "bid 3"
    play_some(page, 2)
    assert page.evaluate("window.__audio") == {"contexts": 0, "starts": 0}
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true" and "Sound on" in switch.inner_text()
    assert page.evaluate("localStorage.getItem('parlour.sound')") == "on"
    starts = page.evaluate("window.__audio.starts")
    assert starts >= 1  # the click's own sound
    play_some(page, 3)
    assert page.evaluate("window.__audio.starts") > starts
    page.reload()
    page.wait_for_selector(".sound-switch[aria-pressed='true']")
    page.click(".sound-switch")
    assert page.evaluate("localStorage.getItem('parlour.sound')") == "off"
    starts = page.evaluate("window.__audio.starts")
    play_some(page, 3)
    assert page.evaluate("window.__audio.starts") == starts
