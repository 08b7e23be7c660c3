"""Every table fits the screen (issue 15, item 1): at 1280x800, 1366x768, 1920x1080 and on a
390x844 touch phone, each game's table shows your hand, every legal card or target, the
scores and whose turn it is inside the viewport, and the page does not scroll.

One short game state per game (your first turn), one server and one browser for the
module; the table is opened once per game, its page resized for the three desktop sizes,
and opened again on a phone holding the same seat (the browser's storage carried over).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import SHOTS, open_table, page_of, shot
from server_kit import server_thread

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

# `make screenshots` sets this: the pictures of every table at these sizes go to docs/.
DOC_SHOTS = os.environ.get("PARLOUR_TABLE_SHOTS")
DOC_SIZES = ("1280x800", "390x844")

SIZES = {"1280x800": (1280, 800, False), "1366x768": (1366, 768, False),
         "1920x1080": (1920, 1080, False), "390x844": (390, 844, True)}

# game -> (what shows that it is your turn, what must lie inside the viewport: your hand,
# the legal targets, the scores and whose turn it is)
GAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "spades": (".bid-panel:not([hidden]) .bid",
               (".hand .card", ".bid-panel .bid", ".plate", ".team-score")),
    "spite-and-malice": (".snm-plate.mine.turn",
                         (".snm-hand .card", "[data-key][data-targets]:not([data-targets=''])",
                          ".snm-centre [data-key]", ".snm-plate", ".snm-turn")),
    "hit-the-deck": (".htd-hand .hcard.playable, .htd-act",
                     (".htd-hand .hcard", ".htd-act", ".htd-draw", ".htd-discard", ".htd-plate",
                      ".htd-status")),
    "clockwork-spades": (".cw-clock .cw-pos",
                         (".cw-clock .cw-pos", ".cw-hand .card", ".cw-plate", ".cw-note",
                          ".cw-take")),
    "foursquare": (".fs-cell.legal",
                   (".fs-cell", ".fs-in-hand", ".fs-stock", ".fs-note")),
}

OUTSIDE = """(sels) => {
  const W = innerWidth, H = innerHeight, out = [];
  for (const sel of sels) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length) continue;  // not drawn (hidden)
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
        const d = el.dataset;
        const what = d.card || d.key || d.cell || d.action || el.textContent.trim().slice(0, 20);
        const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
        out.push(`${sel} [${what}] at ${at}`);
      }
    }
  }
  return out;
}"""

SCROLL = """() => {
  const d = document.scrollingElement;
  const main = document.querySelector('main');
  return {w: d.scrollWidth, h: d.scrollHeight, vw: innerWidth, vh: innerHeight,
          mainH: main.scrollHeight, mainVisible: main.clientHeight};
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with server_thread(tmp_path_factory.mktemp("fit") / "fit.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def tables(browser, base) -> Iterator[dict[str, dict[str, Any]]]:
    """game -> {url, storage (the browser storage that holds its seat), page (the desktop
    page at the table, kept for the three desktop sizes)}, opened on first use."""
    opened: dict[str, dict[str, Any]] = {}
    yield opened
    for table in opened.values():
        table["page"].context.close()


def table_for(game: str, browser: Any, base: str,
              tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    if game not in tables:
        page = page_of(browser, 1280, 800, keep=True)
        url = open_table(page, base, game)
        page.wait_for_selector(GAMES[game][0])
        tables[game] = {"url": url, "storage": page.context.storage_state(), "page": page}
    return tables[game]


# The top bar's controls: each must show whole, on top (a phone's narrow bar once hid the
# Rules button under the language switch).
TOP_BAR = ("#crumbs a", ".top-switch", ".rules-button", ".lang-switch")
COVERED = """(sels) => {
  const out = [];
  for (const sel of sels) {
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length) continue;  // not drawn (hidden)
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
      if (!top || !(el === top || el.contains(top))) {
        out.push(`${sel} under ${top ? top.className || top.tagName : "nothing"}`);
      }
    }
  }
  return out;
}"""


def check_fits(page: Any, game: str, size: str) -> None:
    ready, needed = GAMES[game]
    page.wait_for_selector(ready)
    page.wait_for_timeout(350)  # let the cards land (the longest motion is 300 ms)
    shot(page, f"fit-{game}-{size}", full_page=False)
    if DOC_SHOTS and size in DOC_SIZES:
        page.screenshot(path=str(Path(DOC_SHOTS) / f"{game}-{size}.jpg"), type="jpeg", quality=82)
    outside = page.evaluate(OUTSIDE, list(needed))
    assert not outside, f"{game} at {size}: outside the viewport: {outside}"
    covered = page.evaluate(COVERED, list(TOP_BAR))
    assert not covered, f"{game} at {size}: hidden in the top bar: {covered}"
    s = page.evaluate(SCROLL)
    assert s["h"] <= s["vh"] and s["w"] <= s["vw"], f"{game} at {size}: the page scrolls: {s}"
    assert s["mainH"] <= s["mainVisible"], f"{game} at {size}: the table scrolls: {s}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_table_fits_the_screen(browser, base, tables, game, size):
    table = table_for(game, browser, base, tables)
    width, height, touch = SIZES[size]
    if touch:  # a phone: a new page holding the same seat
        page = page_of(browser, width, height, touch=True, storage=table["storage"])
        page.goto(table["url"])
    else:  # the same page, the window resized
        page = table["page"]
        page.set_viewport_size({"width": width, "height": height})
    check_fits(page, game, size)
    assert not page.errors, page.errors
