"""Nothing is cut off (issue 15, item 1; issue 28, item 4): every game of the registry, during
play and on its results screen after a long match, at 1920x1080, 1280x800, 1366x768, in a
1366x768 laptop's browser window (1366x650: its tabs, address bar and task bar take the
rest) and on 390x844 and 360x640 touch phones, shows every card, pile, name plate, score
and button a player needs whole: inside the viewport and inside every ancestor that clips
it (hidden, clip, scroll or auto overflow, rounded corners included; a needed element
scrolled out of a scroll box counts as cut off, since a player would have to find and
scroll a box to see it).
The pieces of a table (plates, piles, hands, banners) do not overlap, the page and the table
never scroll, and on a phone the bar above the table is one short row. The lobby does not
scroll sideways either.

One server and one browser for the module, one desktop page and one phone page: all the
tables' seats are in their storage, and each page is resized through its sizes. The tables
are opened and played through the server's API: the one during play a few moves in (your
turn), the one for the results played to its end with options that make a long match (many
deals or rounds of history). The results are also folded away ("See the table") to check
the table as the match left it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_kit import CUT_OFF, MISSING, OVERLAPS, SHOTS, page_of, settle, shot
from game_checks import piece
from server_kit import server_thread
from websockets.sync.client import connect

from parlour.registry import game_ids, spec

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

# `make screenshots` sets this: the pictures of every table at these sizes go to docs/.
DOC_SHOTS = os.environ.get("PARLOUR_TABLE_SHOTS")
DOC_SIZES = ("1280x800", "390x844")

# size -> (width, height, a touch phone)
SIZES = {"1920x1080": (1920, 1080, False), "1280x800": (1280, 800, False),
         "1366x768": (1366, 768, False), "1366x650": (1366, 650, False),
         "390x844": (390, 844, True),
         "360x640": (360, 640, True)}
DESKTOP = [size for size, (_, _, touch) in SIZES.items() if not touch]
PHONE = [size for size, (_, _, touch) in SIZES.items() if touch]

# What every table shows around the game: the top bar's controls (each whole, on top: a
# phone's narrow bar once hid the Rules button under the language switch), and the bar above
# the table (the Hint button, the seat's buttons).
TOP_BAR = ("#crumbs a", ".top-switch", ".rules-button", ".lang-switch")
LIFE_BAR = (".lifebar .hint-button", ".lifebar .buttons .button", ".lifebar .turn-clock")
# The blocks of every table that must not overlap one another (a hand spilling over the side
# panel, a felt over the bar under it): the bar above the table, each piece of the table's
# main column, the side panel and the button that opens it on a phone.
BLOCKS = (".lifebar", ".table-root > :not(aside, .side-toggle) > *", ".table-root > aside",
          ".side-toggle")
# The results over the table: its title, the standings, every button (the match history
# may scroll inside its own box: it is read at leisure, not needed to go on).
RESULTS = (".endbar .results-title", ".endbar .standings", ".endbar .results-score",
           ".endbar .buttons > *")
# The results folded away: the button that brings them back, which must not cover the table.
FOLDED = (".endbar .fold",)
FOLDED_APART = (".endbar.folded",)
#: The bar above the table on a phone: one row of small controls, not two rows of buttons.
PHONE_BAR_MOST = 48


@dataclass(frozen=True)
class Table:
    """A game's table as the checks see it."""

    #: what shows that it is your turn
    ready: str
    #: what a player needs during play: each whole, inside the viewport and every clipping
    #: ancestor (your hand, the legal targets, every seat's plate and score, the piles)
    needed: tuple[str, ...]
    #: the pieces of the table that must not overlap one another
    apart: tuple[str, ...]
    #: what a player needs of the table as the match left it (the results folded away)
    after: tuple[str, ...]
    #: what must be in sight during play, at least one of each (a needed element that is
    #: not drawn at all, e.g. folded away with a phone's side panel, is missing)
    shown: tuple[str, ...]
    #: options that make a long match, for its results screen
    long: dict[str, Any] = field(default_factory=dict)
    #: how many of your moves the table is played before it is looked at during play
    moves: int = 0
    #: how many seats the table has (None: the game's default), e.g. its most crowded
    seats: int | None = None


class _Tables:
    """Each game's :class:`Table`, from its folder's checks.py (BROWSER_FIT)."""

    def __getitem__(self, game_id: str) -> Table:
        return Table(**piece(game_id, "BROWSER_FIT"))


TABLES = _Tables()

# The page's size and the screen's (not innerWidth: a phone's layout viewport widens to what
# sticks out), and the table's (main) own scroll.
SCROLL = """() => {
  const d = document.scrollingElement, root = document.documentElement;
  const main = document.querySelector('main');
  return {w: d.scrollWidth, h: d.scrollHeight, vw: root.clientWidth, vh: root.clientHeight,
          mainH: main.scrollHeight, mainVisible: main.clientHeight};
}"""

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


# ----------------------------------------------------------------------------- the tables
def open_seat(base: str, game: str, options: dict[str, Any],
              seats: int | None = None) -> tuple[str, str]:
    """A table of ``game`` of ``seats`` (None: the game's default): you at seat 0, the
    game's rule bots at the others, the longest turn timer (it shows, and no stand-in plays
    for you while the pages look; the pictures for docs/ show no timer); its id and your
    seat's token."""
    seats = seats or spec(game).game.default_seats
    res = httpx.post(f"{base}/api/tables", json={
        "game": game, "options": options, "name": "Sam", "seat": 0,
        "turn_seconds": 0 if DOC_SHOTS else 3600,
        "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * (seats - 1)})
    assert res.status_code == 201, res.text
    body = res.json()
    return body["table"]["id"], body["token"]


def play_seat(base: str, table_id: str, token: str, moves: int | None) -> bool:
    """Play seat 0 by its first legal action: ``moves`` of its moves, then wait for its turn
    (True; False if the match ends first), or to the match's end (None). Every wait has a
    deadline (30 s for the server's next view)."""
    with connect(base.replace("http", "ws", 1) + f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        made = 0
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] != "view":
                continue
            if msg["status"] == "finished":
                return moves is None
            view = msg["view"]
            if 0 in view.get("to_act", []) and view.get("legal"):
                if moves is not None and made >= moves:
                    return True
                ws.send(json.dumps({"type": "act", "action": view["legal"][0],
                                    "version": msg["version"]}))
                made += 1


@dataclass
class Seat:
    url: str
    table_id: str
    token: str


def prepared(base: str, game: str, finished: bool) -> Seat:
    """A table of ``game`` played to its end (``finished``, with the options of a long
    match), or a few moves in and at your turn (a match over before that is dealt again)."""
    table = TABLES[game]
    for _ in range(5):
        table_id, token = open_seat(base, game, table.long if finished else {}, table.seats)
        if play_seat(base, table_id, token, None if finished else table.moves):
            return Seat(f"{base}/t/{table_id}", table_id, token)
    raise AssertionError(f"{game}: five matches ended before your turn came")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with server_thread(tmp_path_factory.mktemp("fit") / "fit.sqlite3") as url:
        yield url


def game_of(item: pytest.Item) -> str | None:
    """The game a test of this module is parametrized with, if any."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("game") if callspec is not None else None


@pytest.fixture(scope="module")
def seats(request, base) -> Iterator[dict[tuple[str, bool], Future[Seat]]]:
    """(game, finished) -> the seat, played in the background while the pages look: the
    tables of the tests this run has (make test leaves some out)."""
    wanted = {(game, item.originalname == RESULTS_TEST) for item in request.session.items
              if item.module is request.module and (game := game_of(item))}
    with ThreadPoolExecutor(max_workers=2) as pool:
        yield {(game, finished): pool.submit(prepared, base, game, finished)
               for finished in (False, True) for game in game_ids()
               if (game, finished) in wanted}


@pytest.fixture(scope="module")
def pages(browser, base, seats) -> Iterator[dict[str, Any]]:
    """"desktop" and "phone": one page each, whose storage holds every table's seat."""
    held = {s.table_id: {"seat": 0, "token": s.token}
            for s in (f.result(timeout=120) for f in seats.values())}
    storage = {"cookies": [], "origins": [{"origin": base, "localStorage": [
        {"name": "parlour.seats", "value": json.dumps(held)}]}]}
    made = {"desktop": page_of(browser, *SIZES[DESKTOP[0]][:2], storage=storage, keep=True),
            "phone": page_of(browser, *SIZES[PHONE[0]][:2], touch=True, storage=storage,
                             keep=True)}
    yield made
    for page in made.values():
        page.context.close()


# ----------------------------------------------------------------------------- the checks
# The felts and the other blocks of a table: what lies in one must not hang over its edge.
FRAMES = ".table-root > * > *, .table-root > aside"


def problems(page: Any, size: str, needed: tuple[str, ...], apart: tuple[str, ...] = (),
             shown: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with the page as it is now: each finding names the element and why."""
    found = [f"cut off: {x}" for x in page.evaluate(CUT_OFF, [list(needed), {"frames": FRAMES}])]
    found += [f"not in sight: {x}" for x in page.evaluate(MISSING, list(shown))]
    found += [f"overlap: {x}" for x in page.evaluate(OVERLAPS, list(apart))]
    found += [f"hidden in the top bar: {x}" for x in page.evaluate(COVERED, list(TOP_BAR))]
    s = page.evaluate(SCROLL)
    if s["h"] > s["vh"] or s["w"] > s["vw"]:
        found.append(f"the page scrolls: {s}")
    if s["mainH"] > s["mainVisible"]:
        found.append(f"the table scrolls: {s}")
    return [f"{size}: {x}" for x in found]


def phone_bars(page: Any, size: str) -> list[str]:
    """On a phone: the bar above the table is one short row, its menu of the seat's buttons
    opens whole, and so does the side panel."""
    found = []
    bar = page.eval_on_selector(".lifebar", "el => el.getBoundingClientRect().height")
    if bar > PHONE_BAR_MOST:
        found.append(f"the bar above the table is {bar:.0f} px high (at most {PHONE_BAR_MOST})")
    for opener, shown in ((".lifebar .life-more", ".lifebar .life-list .button"),
                          (".side-toggle", ".table-root > aside")):
        if not page.locator(opener).is_visible():
            found.append(f"no {opener} to open")
            continue
        page.click(opener)
        settle(page)
        found += [f"opened by {opener}: cut off: {x}"
                  for x in page.evaluate(CUT_OFF, [[shown], {}])]
        if not page.locator(shown).first.is_visible():
            found.append(f"{opener} shows nothing")
        page.click(opener)
        settle(page)
    return [f"{size}: {x}" for x in found]


def at_every_size(pages: dict[str, Any], url: str, ready: str
                  ) -> Iterator[tuple[str, Any, str]]:
    """(kind, page, size): the desktop page, then the phone, at ``url``, laid out at each of
    its sizes and showing ``ready``; each page's errors are checked after its sizes."""
    for kind, sizes in (("desktop", DESKTOP), ("phone", PHONE)):
        page = pages[kind]
        page.goto(url)
        for size in sizes:
            width, height, _ = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_selector(ready)
            settle(page)
            yield kind, page, size
        assert not page.errors, page.errors


def look(page: Any, name: str, size: str) -> None:
    shot(page, f"fit-{name}-{size}", full_page=False)


def table_and_seat(seats: dict[tuple[str, bool], Future[Seat]], game: str, finished: bool
                   ) -> tuple[Table, Seat]:
    return TABLES[game], seats[(game, finished)].result(timeout=120)


@pytest.mark.parametrize("game", game_ids())
def test_nothing_is_cut_off_during_play(pages, seats, game):
    table, seat = table_and_seat(seats, game, finished=False)
    found: list[str] = []
    for kind, page, size in at_every_size(pages, seat.url, table.ready):
        look(page, game, size)
        if DOC_SHOTS and size in DOC_SIZES:
            page.screenshot(path=str(Path(DOC_SHOTS) / f"{game}-{size}.jpg"), type="jpeg",
                            quality=82)
        found += problems(page, size, table.needed + LIFE_BAR, table.apart + BLOCKS,
                          table.shown)
        if kind == "phone":
            found += phone_bars(page, size)
    assert not found, f"{game}:\n" + "\n".join(found)


#: The results screen is one for every game (the standings, the history, the buttons), and
#: the table folded under it is the table checked during play: make test looks at it over
#: four games' tables, make test-long over the other two as well.
RESULTS_LONG_ONLY = ("spite-and-malice", "clockwork-spades")
RESULTS_TEST = "test_nothing_is_cut_off_on_the_results_after_a_long_match"


@pytest.mark.parametrize("game", [
    pytest.param(g, marks=[pytest.mark.long] if g in RESULTS_LONG_ONLY else [])
    for g in game_ids()])
def test_nothing_is_cut_off_on_the_results_after_a_long_match(pages, seats, game):
    table, seat = table_and_seat(seats, game, finished=True)
    found: list[str] = []
    for _, page, size in at_every_size(pages, seat.url, ".endbar:not(.folded) .results-title"):
        look(page, f"{game}-results", size)
        found += problems(page, size, RESULTS)
        page.click(".endbar .fold")
        page.wait_for_selector(".endbar.folded")
        settle(page)
        look(page, f"{game}-folded", size)
        found += problems(page, size, table.after + FOLDED, table.apart + BLOCKS + FOLDED_APART)
        page.click(".endbar .fold")
    assert not found, f"{game}:\n" + "\n".join(found)


@pytest.mark.parametrize("game", ["spades"])  # (the page's, the same over every game's table)
def test_a_phone_held_sideways_is_asked_to_be_held_upright(pages, seats, game):
    """A phone on its side (844x390) has too little height for a table, its felt and then
    the hand under it: the table page asks for the phone upright, over the table and whole;
    held upright again, the table shows. A desktop window as short is no phone: its table
    shows as it is."""
    table, seat = table_and_seat(seats, game, finished=False)
    phone, desktop = pages["phone"], pages["desktop"]
    phone.goto(seat.url)
    phone.set_viewport_size({"width": 844, "height": 390})
    phone.wait_for_selector(".turn-upright", state="visible")
    assert "Turn your phone upright" in phone.inner_text(".turn-upright")
    assert not phone.evaluate(CUT_OFF, [[".turn-upright p"], {}])
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.wait_for_selector(table.ready)
    phone.wait_for_selector(".turn-upright", state="hidden")
    desktop.goto(seat.url)
    desktop.set_viewport_size({"width": 844, "height": 390})
    desktop.wait_for_selector(table.ready)
    settle(desktop)
    assert not desktop.locator(".turn-upright").is_visible()
    assert not phone.errors and not desktop.errors, phone.errors + desktop.errors


LOBBY = (".brand", ".lang-switch", ".account-control a, .account-control summary",
         ".game-tile", "#new-name")


def test_the_lobby_does_not_scroll_sideways(pages, base):
    found: list[str] = []
    for _, page, size in at_every_size(pages, base + "/", ".game-tile"):
        look(page, "lobby", size)
        s = page.evaluate(SCROLL)
        if s["w"] > s["vw"]:
            found.append(f"{size}: the lobby scrolls sideways: {s}")
        # the lobby is long: it scrolls down, and only the width is the viewport's
        found += [f"{size}: cut off: {x}" for x in page.evaluate(
            CUT_OFF, [list(LOBBY), {"page_scrolls": True}])]
    assert not found, "the lobby:\n" + "\n".join(found)
