"""What a player reads at a table is true (issue 28): whose turn it is, where the keyboard
focus starts, moves and bots named in words, a watcher told they are watching, the
figures of a finished game, and the score of each Spades deal before the next bidding.

Each test opens a real table in Debian's Chromium against a server in a thread (no bot
pause, the page's fast pace), and reads the page as a player would."""

from __future__ import annotations

from typing import Any

import pytest
from browser_kit import open_table, page_of, shot
from server_kit import server_thread

pytestmark = pytest.mark.browser

#: A fixed deal: the rule bots' answers and the keyboard's plays make the same match each
#: run (on the old page this deal's third turn started with the focus on a card that may
#: not be played).
SEED = 2028


@pytest.fixture
def base(tmp_path):
    with server_thread(tmp_path / "truth.sqlite3", new_seed=lambda: SEED) as url:
        yield url


# The turn clock of the top bar and the seats' cues, read together many times a second
# for as long as the page lives: each sample is [clock text, your plate's cue, the other
# plates' cues, a finished trick on show].
SAMPLER = """() => {
  window.samples = [];
  const cue = (p) => (p.querySelector('.thinking') || {}).textContent || '';
  setInterval(() => {
    const clock = document.querySelector('.turn-clock');
    const mine = document.querySelector('.plate-bottom');
    window.samples.push([clock ? clock.textContent : '', cue(mine),
                         [...document.querySelectorAll('.plate:not(.plate-bottom)')].map(cue),
                         Boolean(document.querySelector('.trick.done'))]);
  }, 15);
}"""


def my_turn_focus(page: Any) -> dict[str, Any]:
    """What has the focus once it is this page's turn to play: its card and whether it is
    one the page offers to play."""
    page.wait_for_selector(".hand .card.playable, .endbar:not([hidden])")
    return page.evaluate("""() => {
      const el = document.activeElement;
      return { card: el && el.dataset ? el.dataset.card || null : null,
               playable: Boolean(el && el.classList.contains('playable')) };
    }""")


def test_spades_one_turn_shown_and_enter_bids_and_plays_sensibly(browser, base):
    """The top bar's clock and the seats name the same turn in every sample, while finished
    tricks are on show too; Enter at the bid bids 3 (not nil), and on each turn the focus is
    on a card that may be played, so Enter alone plays a whole run of tricks."""
    page = page_of(browser)
    open_table(page, base, "spades", {"target": 10})
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    page.evaluate(SAMPLER)
    focused = page.evaluate("document.activeElement.dataset.action || null")
    assert focused == "bid 3", f"the bid starts with the focus on {focused!r}"
    page.keyboard.press("Enter")
    page.wait_for_selector(".plate-bottom .stats b:text-is('3')")
    plays = 0
    while plays < 8:
        focus = my_turn_focus(page)
        if page.locator(".endbar:not([hidden])").count():
            break
        assert focus["playable"], f"turn {plays + 1}: the focus is on {focus['card']!r}, " \
                                  "which may not be played"
        before = page.locator(".hand .card").count()
        page.keyboard.press("Enter")
        page.wait_for_function("(n) => document.querySelectorAll('.hand .card').length < n",
                               arg=before)
        plays += 1
    assert plays >= 6
    samples = page.evaluate("window.samples")
    mine = [s for s in samples if s[0].startswith("Your turn")]
    held = [s for s in samples if s[3] and "thinking…" in s[2]]
    assert mine and held, "the run never showed your clock or a finished trick with a bot to play"
    wrong = [s for s in samples if s[0].startswith("Your turn") != (s[1] == "your turn")
             or (s[0].startswith("Your turn") and "thinking…" in s[2])]
    assert not wrong, f"{len(wrong)} of {len(samples)} samples name two turns: {wrong[:3]}"
    shot(page, "truth-spades-turn")


def test_bots_are_named_by_kind_and_a_watcher_is_told_they_are_watching(browser, base):
    """A thinking bot's badge says it is one (not "bot, normal" like the rule bots); once
    play has started a page with no seat says it is watching, and a player's does not."""
    page = page_of(browser)
    url = open_table(page, base, "spades", seats={1: "bot:ismcts:easy"})
    page.wait_for_selector(".plate-left .bot-badge")
    assert page.inner_text(".plate-left .bot-badge") == "thinking bot, easy"
    assert page.inner_text(".plate-top .bot-badge") == "bot, normal"
    assert not page.locator(".lifebar .watching").count()
    watcher = page_of(browser, 390, 844, touch=True)
    watcher.goto(url)
    watcher.wait_for_selector(".lifebar .watching")
    assert watcher.inner_text(".lifebar .watching") == "You are watching."
    assert watcher.inner_text(".plate-right .bot-badge") == "bot, normal"
    shot(watcher, "truth-watching-phone")
