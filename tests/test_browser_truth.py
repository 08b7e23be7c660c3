"""What a player reads at a table is true (issue 28): whose turn it is, where the keyboard
focus starts, moves and bots named in words, a watcher told they are watching, the
figures of a finished game, and the score of each Spades deal before the next bidding.

Each test opens a real table in Debian's Chromium against a server in a thread (no bot
pause, the page's fast pace), and reads the page as a player would."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_kit import open_table, page_of, shot
from server_kit import seed_and_log, server_thread

from parlour.games import get_game

pytestmark = pytest.mark.browser

#: A fixed deal: the rule bots' answers and the keyboard's plays make the same match each
#: run (on the old page this deal's third turn started with the focus on a card that may
#: not be played).
SEED = 2028


@pytest.fixture
def db(tmp_path):
    return tmp_path / "truth.sqlite3"


@pytest.fixture
def base(db):
    with server_thread(db, new_seed=lambda: SEED) as url:
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


SPADES_TURN = (".bid-panel:not([hidden]) .bid, .hand .card.playable, .deal-summary, "
               ".endbar:not([hidden])")


def play_spades_until(page: Any, stop: str) -> None:
    """Take this page's turns (Enter on the bid or card the focus starts on) until
    ``stop`` shows."""
    for _ in range(60):
        page.wait_for_selector(f"{SPADES_TURN}, {stop}")
        if page.locator(stop).count():
            return
        if page.locator(".deal-summary").count():
            page.click(".deal-summary button:has-text('Continue')")
            continue
        before = page.evaluate("document.body.dataset.version")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body:not([data-version='{before}'])", state="attached")
    raise AssertionError(f"{stop} never showed")


def rows_of(page: Any, selector: str) -> dict[str, list[str]]:
    """A table's body as {row heading: [cells]}."""
    return {row[0]: row[1:] for row in page.locator(f"{selector} tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.innerText.trim()))")}


def test_spades_scores_each_deal_before_the_next_bids_and_ranks_partnerships(browser, base, db):
    """Between deals the felt shows the deal's score per partnership (the figures the rules
    give for the actions the server stored) before the next bids, until Continue; the
    results rank the two partnerships, each with its players, not four seats."""
    page = page_of(browser)
    url = open_table(page, base, "spades", {"max_deals": 2})
    play_spades_until(page, ".deal-summary")
    assert page.inner_text(".deal-summary h2") == "Deal 1 scored"
    assert page.locator(".plate .stats b:text-is('–')").count() == 4, "bids shown under it"
    seed, log = seed_and_log(db, url.rsplit("/", 1)[1])
    state = get_game("spades").new(seed, max_deals=2)
    for seat, action in log:
        if state.view(None)["deals"]:
            break
        state.apply(state.game.parse_action(action), seat)
    deal = state.view(None)["deals"][0]
    sign = lambda x: f"+{x}" if x > 0 else f"\u2212{-x}" if x < 0 else "0"  # noqa: E731
    want = {"Bids": [" + ".join(str(deal["bids"][s]).capitalize() for s in (t, t + 2))
                     for t in (0, 1)],
            "Tricks": [f"{deal['tricks'][t]} + {deal['tricks'][t + 2]}" for t in (0, 1)],
            "Contract": [sign(r["contract"]) for r in deal["teams"]],
            "Bags": [sign(r["bag_points"]) for r in deal["teams"]],
            "Deal": [sign(r["points"]) for r in deal["teams"]],
            "Score": [str(r["score"]) for r in deal["teams"]],
            "Bag count": [f"{r['bags']} / 10" for r in deal["teams"]]}
    got = rows_of(page, ".deal-summary")
    assert {k: v for k, v in got.items() if k in want} == want
    assert ("Nil" in got) == any(r["nil"] for r in deal["teams"])
    assert ("Penalty" in got) == any(r["penalty"] for r in deal["teams"])
    shot(page, "truth-spades-deal-summary")
    page.click(".deal-summary button:has-text('Continue')")
    page.wait_for_selector(".deal-summary", state="detached")
    play_spades_until(page, ".endbar:not([hidden]) .standings")
    assert page.inner_text(".standings thead").split() == ["Place", "Team", "Points"]
    standings = page.locator(".standings tbody tr").evaluate_all(
        "rows => rows.map(r => [r.children[0].innerText,"
        " r.querySelector('.standings-team').innerText,"
        " r.querySelector('.team-players').innerText, r.children[2].innerText])")
    final = state.game.new(seed, max_deals=2)
    for seat, action in seed_and_log(db, url.rsplit("/", 1)[1])[1]:
        final.apply(final.game.parse_action(action), seat)
    scores = final.view(None)["scores"]
    by_team = {row[1]: row for row in standings}
    assert len(standings) == 2 and set(by_team) == {"North-South", "East-West"}, standings
    for team, name, players in ((0, "North-South", r"You and \w+ bot, normal"),
                                (1, "East-West", r"\w+ bot, normal and \w+ bot, normal")):
        place, _, who, points = by_team[name]
        assert place == {1: "1st", 2: "2nd"}[final.outcome.placing[team]]
        assert re.fullmatch(players, who) and points == str(scores[team]), by_team[name]
    shot(page, "truth-spades-results")

    # the replay's captions say each move in words, its card as a chip (not "Budi 9H")
    log = seed_and_log(db, url.rsplit("/", 1)[1])[1]
    page.goto(f"{url}/replay/1")
    page.wait_for_selector(".replay-caption:has-text('Step 0')")
    page.click("button[aria-label='Next step']")
    page.wait_for_selector(".replay-caption:has-text('Step 1 of')")
    bid = log[0][1]
    words = "bidding nil" if bid == "nil" else re.sub(r"bid (\d+)", r"bidding \1 tricks", bid)
    assert re.fullmatch(rf"Step 1 of {len(log)}: \w+( \(\w+\))?: {words}",
                        page.inner_text(".replay-caption")), page.inner_text(".replay-caption")
    step, card = next((i + 1, a) for i, (_, a) in enumerate(log) if re.fullmatch(r"\w+[CDHS]", a))
    page.evaluate("""(step) => { const s = document.querySelector('#replay-step');
      s.value = String(step); s.dispatchEvent(new Event('input')); }""", step)
    page.wait_for_selector(f".replay-caption:has-text('Step {step} of')")
    chip = card[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[-1]]
    assert page.inner_text(".replay-caption").endswith(f": playing {chip}")
    assert page.inner_text(".replay-move .cardref") == chip
    shot(page, "truth-spades-replay-words")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_hit_the_deck_corner_marks_are_not_under_the_oval(browser, base, width, height):
    """Each coloured card's corner shows its colour's shape (a sign in no language: no
    R/Y/G/B initial), big enough to see: at its middle, the page finds the corner itself,
    not the oval drawn over it."""
    page = page_of(browser, width, height, touch=width < 500)
    open_table(page, base, "hit-the-deck")
    page.wait_for_selector(".hcard .hc-corner .cmark")
    hidden = page.evaluate("""() => [...document.querySelectorAll('.hcard .hc-corner')]
      .filter((corner) => corner.querySelector('.cmark') && corner.getBoundingClientRect().width)
      .map((corner) => corner.querySelector('.cmark'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width < 5 || r.height < 5) return true;  // too small to make out
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !top || !top.closest('.hc-corner');
      }).map((el) => el.closest('.hcard').dataset.card || el.closest('.hcard').className)""")
    assert not hidden, f"corner marks under the oval: {hidden}"
    corners = page.eval_on_selector_all(".hcard .hc-corner", "cs => cs.map(c => c.textContent)")
    assert corners and not [c for c in corners if re.search(r"[A-Z]", c)], corners
    shot(page, f"truth-htd-corners-{width}")


def test_clockwork_spades_marks_your_cards_on_your_turn_only(browser, base):
    """On the phone, while the opponent's turn is due on some positions, none of your cards
    is marked as matching (they are not yours to play then). Every state the page draws is
    read (a bot answers at once here), until the match ends."""
    page = page_of(browser, 390, 844, touch=True)
    open_table(page, base, "clockwork-spades")
    page.wait_for_selector(".cw-hand .card")
    page.evaluate("""() => {
      window.drawn = [];
      const read = () => window.drawn.push([document.querySelector('.cw-note').textContent,
        document.querySelectorAll('.cw-hand .card.matches').length]);
      read();
      new MutationObserver(read).observe(document.querySelector('.cw-table, .table-root'),
                                         { childList: true, subtree: true, characterData: true });
    }""")
    for _ in range(40):
        page.wait_for_selector(".cw-take, .endbar:not([hidden])")
        if page.locator(".endbar:not([hidden])").count():
            break
        before = page.evaluate("document.body.dataset.version")
        page.locator(".cw-take").first.tap()
        page.wait_for_selector(f"body:not([data-version='{before}'])", state="attached")
    drawn = page.evaluate("window.drawn")
    theirs = [d for d in drawn if " is choosing " in d[0]]
    assert theirs, "the opponent's turn was never drawn"
    assert not [d for d in theirs if d[1]], f"your cards marked in their turn: {theirs[:3]}"
