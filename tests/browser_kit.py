"""Helpers for the browser tests: Debian's Chromium through Playwright (never a downloaded
browser), a server in a thread with no bot pause, pages, screenshots and the lobby."""

from __future__ import annotations

import atexit
import itertools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from server_kit import ARTIFACTS, server_thread
from waits import WaitedTooLong

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SHOTS = ARTIFACTS / "browser"


#: Whether pages open with prefers-reduced-motion by default: set for each module by the
#: ``browser`` fixture (tests/conftest.py) from its ``reduced_motion`` marker.
REDUCED_MOTION = [False]


class BrowserServer:
    """Debian's Chromium, started once for a test process by Playwright's browser server
    (``playwright launch-server``, in a process of its own) and shared by its browser
    modules: each connects to it (:func:`chromium`) and every page has a fresh context of
    its own (:func:`page_of`), so modules share nothing but the browser's process, and a
    test process starts Chromium once rather than once per module (1.3 s of CPU each).
    The browser stays outside the test process: no Playwright event loop is left in it
    between modules (one that was broke the asyncio tests that came after). A server that
    went away is started again when next asked for."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.proc: subprocess.Popen[str] | None = None
        self.endpoint = ""

    def get(self) -> str:
        """The server's websocket endpoint, starting the server if it is not running."""
        if not CHROMIUM.exists():
            pytest.fail("Debian's chromium is missing: make test installs it with apt-get")
        if self.proc is not None and self.proc.poll() is None:
            return self.endpoint
        config = self.folder / "browser-server.json"
        config.write_text(json.dumps({"executablePath": str(CHROMIUM), "args": ARGS,
                                      "headless": True}))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
             "--config", str(config)], stdout=subprocess.PIPE, text=True,
            start_new_session=True)
        atexit.register(self.stop)  # (its own session: a test process that dies leaves none)
        assert self.proc.stdout is not None
        found: list[str] = []
        reader = threading.Thread(target=lambda: found.append(self.proc.stdout.readline()),
                                  daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(60)
        if not found or not found[0].startswith("ws://"):
            self.stop()
            pytest.fail(f"Playwright's browser server did not say where it listens in 60 s "
                        f"(it said {found!r})")
        self.endpoint = found[0].strip()
        return self.endpoint

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(15)
        self.proc = None


@contextmanager
def chromium(server: BrowserServer) -> Iterator[Any]:
    """The shared Chromium of ``server``, driven by Playwright (a module fixture in each
    test file: its Playwright ends with the module)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    # Playwright's assertions (expect) wait as long as the pages' own waits: their 5 s
    # default was outrun under load (a friend's line of table talk reached the other page
    # later than that in one of seven soak runs beside two busy programs)
    sync_api.expect.set_options(timeout=15000)
    with sync_api.sync_playwright() as p:
        b = p.chromium.connect(server.get())
        try:
            yield b
        finally:
            forget_idle(b)
            b.close()  # (a connected browser: this disconnects; its contexts are closed)


@contextmanager
def parlour(tmp_path: Path, port: int | None = None, **settings: Any) -> Iterator[str]:
    """A server in a thread of the test process, no bot pause; yields its base URL. Its
    matches are seeded 1, 2, 3... in the order they start: a test plays the same deals
    whatever runs beside it (a random seed once made a whole-match test play six matches
    instead of one, and another go out before its safety stop)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with server_thread(tmp_path / "browser.sqlite3", port,
                       **({"new_seed": itertools.count(1).__next__} | settings)) as url:
        yield url


# Every page a test opened, checked when the test ends (conftest.py): a test fails on any
# console error, page error or failed request of any of its pages.
PAGES: list[Any] = []

#: Pages that tests have finished with, by (browser, touch), cleared and waiting for the
#: next :func:`page_of` of their kind. Chromium spends about 1 s of CPU on a new tab and
#: 0.3 s on a tab that navigates again (the lobby, a fresh context each time against one
#: tab: /work/exp measured 1.16 against 0.28 s), and the browser tests open a few hundred
#: pages: reusing the tab is most of what their CPU can lose. A page is given back by
#: :func:`check_pages_clean` only once everything a test changed in it is undone.
IDLE: dict[tuple[int, bool], list[Any]] = {}


def page_of(browser: Any, width: int = 1280, height: int = 900, touch: bool = False,
            reduced_motion: bool | None = None, storage: Any = None, keep: bool = False
            ) -> Any:
    """A page with a context of its own in ``browser`` (``storage``: a context's
    storage_state(), e.g. the seat another page holds): a tab an earlier test finished
    with and that was cleared (:data:`IDLE`), or a new one. ``page.errors`` collects its
    page errors, console errors and failed requests; ``page.expect_errors(pattern)``
    allows the ones a test provokes on purpose (a regular expression). Each test's pages
    are checked and given back or closed when it ends, unless ``keep`` (a page several
    tests share: they check its errors). ``reduced_motion`` defaults to the module's
    choice (:data:`REDUCED_MOTION`)."""
    if reduced_motion is None:
        reduced_motion = REDUCED_MOTION[0]
    motion = "reduce" if reduced_motion else "no-preference"
    reusable = storage is None and not keep
    idle = IDLE.get((id(browser), touch), []) if reusable else []
    while idle:
        page = idle.pop()
        try:
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(reduced_motion=motion)
        except Exception:  # (a tab the browser lost: open another)
            with suppress(Exception):
                page.context.close()
            continue
        return watched(page)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch, storage_state=storage,
                                  reduced_motion=motion)
    # Finished tricks stay readable only 0.4 s (the page's fast pace): the tests play many.
    # (A new tab's first document, about:blank, has no storage: hence the try.)
    context.add_init_script("try { localStorage.setItem('parlour.pace', 'fast') } catch {}")
    page = context.new_page()
    if reusable:
        _undoable(page, (id(browser), touch))
    return watched(page, keep=keep)


def _undoable(page: Any, kind: tuple[int, bool]) -> None:
    """Make ``page`` one that can be given back to :data:`IDLE` (as kind ``kind``): what a
    test adds to it or its context (init scripts, event handlers) is noted, to be undone,
    and every origin it opens is noted, to have its storage cleared."""
    context = page.context
    page.undo = []
    page.origins = set()
    page.kind = kind
    add_to_context = context.add_init_script

    def add_init_script(*args: Any, **kwargs: Any) -> Any:
        script = add_to_context(*args, **kwargs)
        page.undo.append(lambda: script.__exit__(None, None, None))
        return script

    def listening(owner: Any) -> Any:
        on = owner.on

        def on_and_note(event: str, handler: Any) -> None:
            on(event, handler)
            page.undo.append(lambda: owner.remove_listener(event, handler))
        return on_and_note

    context.add_init_script = add_init_script
    context.on = listening(context)
    page.on = listening(page)

    def visited(frame: Any) -> None:
        found = re.match(r"https?://[^/]+", frame.url)
        if frame == page.main_frame and found:
            page.origins.add(found.group(0))
    type(page).on(page, "framenavigated", visited)


def _given_back(page: Any) -> bool:
    """Clear ``page`` for another test and put it in :data:`IDLE`; False if it cannot be
    (it was closed, kept, or not made by :func:`page_of` to be reused)."""
    if not hasattr(page, "undo") or page.is_closed():
        return False
    context = page.context
    try:
        for undo in reversed(page.undo):
            undo()
        page.undo.clear()
        for other in context.pages:
            if other != page:
                other.close()
        page.goto("about:blank")
        session = context.new_cdp_session(page)
        for origin in page.origins:
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        session.detach()
        page.origins.clear()
        context.clear_cookies()
        context.clear_permissions()
        context.set_offline(False)
    except Exception:  # (anything left half-undone: the tab is not reused)
        return False
    IDLE.setdefault(page.kind, []).append(page)
    return True


def watched(page: Any, keep: bool = False) -> Any:
    """``page`` (one :func:`page_of` made, or one a link opened in a new tab) with its
    errors collected and checked as :func:`page_of` says."""
    page.set_default_timeout(15000)
    # a page's first load waits longer: on a machine three times over-busy a first load
    # took more than 15 s (a wait that ends early makes a run fail, one that ends late only
    # makes a failing run slower)
    page.set_default_navigation_timeout(60000)
    page.errors = []
    page.allowed = []
    page.expect_errors = lambda pattern: page.allowed.append(re.compile(pattern))
    if not getattr(page, "watching", False):
        page.watching = True

        def note(text: str) -> None:
            if not any(p.search(text) for p in page.allowed):
                page.errors.append(text)

        on = type(page).on  # (the page's own: the kit's handlers stay when a test's go)
        on(page, "pageerror", lambda e: note(f"page error: {e}"))
        on(page, "console", lambda m: note(f"console {m.type}: {m.text} "
                                           f"({m.location.get('url', '')}"
                                           f":{m.location.get('lineNumber', '')})")
           if m.type == "error" else None)
        on(page, "requestfailed", lambda r: note(f"request failed: {r.method} {r.url}: "
                                                 f"{r.failure}")
           if r.failure != "net::ERR_ABORTED" else None)
    if not keep:
        PAGES.append(page)
    return page


def check_pages_clean() -> None:
    """Fail if a page opened since the last call logged an error; give the pages back
    (:func:`_given_back`) or close them, and forget them."""
    found = [f"{page.url}: {e}" for page in PAGES for e in page.errors]
    reused = {id(page.context) for page in PAGES if hasattr(page, "undo")}
    for page in PAGES:
        page.errors = []  # (what clearing it logs is not the test's)
    for page in PAGES:
        if not hasattr(page, "undo"):  # (a tab a link opened in a reused page's context
            with suppress(Exception):  # closes alone; the browser may be gone already)
                page.close() if id(page.context) in reused else page.context.close()
    for page in PAGES:
        if hasattr(page, "undo") and not _given_back(page):
            with suppress(Exception):
                page.context.close()
    PAGES.clear()
    assert not found, "the pages logged errors:\n" + "\n".join(found)


def forget_idle(browser: Any) -> None:
    """Drop ``browser``'s idle pages (its connection is closing, and its contexts with it)."""
    for kind in [k for k in IDLE if k[0] == id(browser)]:
        del IDLE[kind]


#: The tests' pictures of each step are taken only when asked for (``PARLOUR_SHOTS=1``): each
#: costs Chromium about half a second of CPU, and nothing checks them. A failing browser test
#: always leaves a picture of each page it had open (:func:`shot_failed`).
TAKE_SHOTS = bool(os.environ.get("PARLOUR_SHOTS"))


def shot(page: Any, name: str, full_page: bool = True) -> Path:
    """A picture of ``page`` in ``artifacts/browser/<name>.png``, with ``PARLOUR_SHOTS=1``."""
    path = SHOTS / f"{name}.png"
    if TAKE_SHOTS:
        page.screenshot(path=str(path), full_page=full_page)
    return path


def shot_failed(test_name: str) -> None:
    """A picture of each page the failed test ``test_name`` has open, in
    ``artifacts/browser/failed-<test>-<n>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name)[:120]
    for n, page in enumerate(PAGES):
        with suppress(Exception):  # the page or the browser may be gone
            page.screenshot(path=str(SHOTS / f"failed-{safe}-{n}.png"), full_page=True)


def wait_until_js(page: Any, what: str, script: str, arg: Any = None, **options: Any) -> Any:
    """``page.wait_for_function(script, arg=arg, **options)``, whose timeout says only
    "Timeout 15000ms exceeded": this one names ``what`` it waited for, and the page."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(script, arg=arg, **options)
    except PlaywrightTimeout as err:
        raise WaitedTooLong(f"waited for {what} on {page.url}: {err.message}") from None


def version(page: Any) -> str:
    return page.evaluate("document.body.dataset.version || ''")


def wait_moved_on(page: Any, before: str) -> None:
    """Wait until the page shows a view newer than ``before``."""
    page.wait_for_selector(f"body:not([data-version='{before}'])", state="attached")


def wait_caught_up(page: Any, other: Any) -> None:
    """Wait until ``page`` shows a view at least as new as the one ``other`` shows (two
    devices of one seat: what one did reaches the other a moment later)."""
    match, step = (int(n) for n in version(other).split(":"))
    wait_until_js(
        page, f"the view {match}:{step} or a newer one", """([m, n]) => {
          const v = document.body.dataset.version;
          if (!v) return false;
          const [match, step] = v.split(":").map(Number);
          return match > m || (match === m && step >= n);
        }""", arg=[match, step], polling=50)


def open_table(page: Any, base: str, game: str, options: dict[str, Any] | None = None,
               name: str = "Sam", seats: dict[int, str] | None = None,
               fields: dict[str, Any] | None = None, rated: bool = False) -> str:
    """Open a table from the lobby's form: you at seat 0 and the game's default seats, but
    ``seats`` (seat -> the form's choice: "person", "bot:ismcts:hard"...), the game's
    ``options``, other folded ``fields`` by id ("new-deal", "new-turn") and the rated
    switch; returns the table's URL."""
    page.goto(base + "/")
    page.click(f".game-tile[data-game='{game}']")
    page.fill("#new-name", name)
    for seat, who in (seats or {}).items():
        page.select_option(f"#seat-{seat}", who)
    if options or fields or rated:
        page.click("details.options summary")
        for key, value in (options or {}).items():
            page.fill(f"#opt-{key}", str(value))
        for key, value in (fields or {}).items():
            page.fill(f"#{key}", str(value))
        if rated:
            page.check("#new-rated")
    page.click("text=Open the table")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url


def check_results_over_the_table(page: Any, felt: str) -> None:
    """The results lie over the table (fixed in the window, over the felt), and fold away
    to show the table and back."""
    page.wait_for_selector(".endbar:not([hidden]) .results-title")
    assert page.evaluate("getComputedStyle(document.querySelector('.endbar')).position") == "fixed"
    bar = page.locator(".endbar").bounding_box()
    table = page.locator(felt).bounding_box()
    size = page.viewport_size
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= size["height"]
    assert bar["y"] < table["y"] + table["height"] and table["y"] < bar["y"] + bar["height"]
    assert page.inner_text(".endbar").count("The match is over.") <= 1
    page.click(".endbar >> text=See the table")
    page.wait_for_selector(".endbar.folded .results", state="hidden")
    page.click(".endbar >> text=Show the results")
    page.wait_for_selector(".endbar:not(.folded) .results")


def downloaded(download: Any) -> str:
    """The text of a page's download (the browser runs in a server of its own: the file is
    copied here, not read where the browser put it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / (download.suggested_filename or "download")
        download.save_as(path)
        return path.read_text(encoding="utf-8")


def check_record_and_replay(page: Any, game: str, name: str) -> str:
    """From the results screen: download the record (it names the game and a result),
    then step through the replay; returns the record text."""
    with page.expect_download() as download:
        page.click(".endbar >> text=Download the record")
    text = downloaded(download.value)
    assert f'[Game "{game}"]' in text and '[Result "points' in text
    page.click(".endbar >> text=Replay step by step")
    page.wait_for_selector(".replay-caption:has-text('Step 0')")
    page.click("button[aria-label='Next step']")
    page.wait_for_selector(".replay-caption:has-text('Step 1 of')")
    page.click("button[aria-label='Last step']")
    wait_until_js(page, "the replay's last step", "() => /Step (\\d+) of \\1:/.test("
                  "document.querySelector('.replay-caption').textContent)")
    shot(page, f"{name}-replay")
    return text


def check_rules_dialog(page: Any, title: str, name: str) -> None:
    """The table's Rules button opens How to play over the table (a figure, nothing to
    scroll, a link to the full rules); Close shuts it."""
    page.click("button.rules-button")
    page.wait_for_selector("#rules-dialog[open] .rules-text.howto img")
    assert title in page.inner_text("#rules-dialog-title")
    assert page.eval_on_selector("#rules-dialog .rules-scroll",
                                 "el => el.scrollHeight <= el.clientHeight + 1")
    assert page.get_attribute("#rules-dialog a.rules-full", "href").endswith("/full")
    shot(page, f"{name}-rules")
    page.click("#rules-dialog button:has-text('Close')")
    page.wait_for_selector("#rules-dialog", state="hidden")


def settle(page: Any) -> None:
    """Wait until the page has laid itself out after a change (a resize, a click): two
    animation frames (the tables' own resize handlers run in the first)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => "
                  "requestAnimationFrame(() => done(null))))")


# What the checks below share: whether an element is drawn at all (display none, visibility
# hidden, opacity 0 here or above: not), and a short name for it in a finding.
_DRAWN_AND_NAMED = """
  const drawn = (el) => el.getClientRects().length > 0
    && el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  const name = (el) => {
    const d = el.dataset;
    const text = el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 24);
    return d.card || d.key || d.cell || d.action || text;
  };
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
"""

#: ``page.evaluate(CUT_OFF, [selectors, {page_scrolls, frames}])``: every drawn element
#: matching a selector that is not whole on screen, one line each: outside the viewport (only
#: sideways when ``page_scrolls``: a long page such as the lobby scrolls down), or outside an
#: ancestor that clips it. The ancestors are those of its containing-block chain whose
#: overflow is not visible (hidden, clip, scroll, auto: a part scrolled out of a scroll box
#: is out of sight too), each clipping to its padding box with its inner rounded corners,
#: and any ancestor matching the selector ``frames`` (a felt: a card hanging over its edge is
#: cut off to the eye even where nothing clips it). An element's box must lie inside, and
#: in a rounded corner its corners, each drawn in by its own corner radius (a pill-shaped
#: plate in a round felt is whole if its rounded ends are). Elements not drawn are skipped.
CUT_OFF = """([sels, opts]) => {""" + _DRAWN_AND_NAMED + """
  const pageScrolls = Boolean(opts && opts.page_scrolls);
  const frames = (opts && opts.frames) || null;
  const EPS = 1;
  const px = (value, whole) =>
    value.endsWith('%') ? parseFloat(value) / 100 * whole : parseFloat(value) || 0;
  // the corner radii [x, y] of a box w by h (scaled down as CSS does when they overflow)
  const radii = (cs, w, h) => {
    const corners = ['TopLeft', 'TopRight', 'BottomRight', 'BottomLeft'].map((c) => {
      const parts = cs[`border${c}Radius`].split(' ');
      return [px(parts[0], w), px(parts[1] || parts[0], h)];
    });
    const [tl, tr, br, bl] = corners;
    const f = Math.min(1, w / (tl[0] + tr[0] || 1), w / (bl[0] + br[0] || 1),
                       h / (tl[1] + bl[1] || 1), h / (tr[1] + br[1] || 1));
    return corners.map(([x, y]) => [x * f, y * f]);
  };
  // what clips el: the ancestors on its containing blocks' chain whose overflow clips
  // (an absolute element escapes the static ones between it and its containing block),
  // and the frames it lies in
  const clippers = (el) => {
    const out = [];
    let mode = getComputedStyle(el).position;
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const cs = getComputedStyle(node);
      const holdsFixed = cs.transform !== 'none' || cs.perspective !== 'none'
        || cs.filter !== 'none' || /paint|layout|strict|content/.test(cs.contain);
      const holds = mode === 'fixed' ? holdsFixed
        : mode === 'absolute' ? cs.position !== 'static' || holdsFixed : true;
      if (!holds) continue;
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') out.push([node, cs, false]);
      mode = cs.position === 'fixed' || cs.position === 'absolute' ? cs.position : 'static';
    }
    for (let node = el.parentElement; frames && node; node = node.parentElement) {
      if (node.matches(frames) && !out.some(([n]) => n === node)) {
        out.push([node, getComputedStyle(node), true]);
      }
    }
    return out;
  };
  // is the box r (and its points, in the rounded corners) inside node's padding box?
  const inside = (node, cs, r, points, frame) => {
    const n = node.getBoundingClientRect();
    const bl = parseFloat(cs.borderLeftWidth), bt = parseFloat(cs.borderTopWidth);
    const br = parseFloat(cs.borderRightWidth), bb = parseFloat(cs.borderBottomWidth);
    const left = n.left + bl, top = n.top + bt;
    const right = left + node.clientWidth, bottom = top + node.clientHeight;
    const clipX = frame || cs.overflowX !== 'visible', clipY = frame || cs.overflowY !== 'visible';
    if (clipX && (r.left < left - EPS || r.right > right + EPS)) return false;
    if (clipY && (r.top < top - EPS || r.bottom > bottom + EPS)) return false;
    if (!(clipX && clipY)) return true;
    const outer = radii(cs, n.width, n.height);  // the inner radii: less the borders
    const inner = [[outer[0][0] - bl, outer[0][1] - bt], [outer[1][0] - br, outer[1][1] - bt],
                   [outer[2][0] - br, outer[2][1] - bb], [outer[3][0] - bl, outer[3][1] - bb]];
    const centres = [[left + inner[0][0], top + inner[0][1], -1, -1],
                     [right - inner[1][0], top + inner[1][1], 1, -1],
                     [right - inner[2][0], bottom - inner[2][1], 1, 1],
                     [left + inner[3][0], bottom - inner[3][1], -1, 1]];
    for (const [x, y] of points) {
      for (let i = 0; i < 4; i++) {
        const [rx, ry] = inner[i], [cx, cy, sx, sy] = centres[i];
        if (rx <= 0 || ry <= 0) continue;
        const dx = (x - cx) * sx, dy = (y - cy) * sy;  // both > 0: in the corner's square
        if (dx > 0 && dy > 0 && (dx / (rx + EPS)) ** 2 + (dy / (ry + EPS)) ** 2 > 1) return false;
      }
    }
    return true;
  };
  const tag = (node) => [node.tagName.toLowerCase(), ...node.classList].join('.');
  // the screen: on a phone the layout viewport (innerWidth) widens to whatever sticks out,
  // so the initial containing block is the one to compare with
  const W = document.documentElement.clientWidth, H = document.documentElement.clientHeight;
  const out = [];
  for (const sel of sels) {
    for (const el of document.querySelectorAll(sel)) {
      if (!drawn(el)) continue;
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      const what = `${sel} [${name(el)}] at ${box(r)}`;
      if (r.left < -EPS || r.right > W + EPS
          || (!pageScrolls && (r.top < -EPS || r.bottom > H + EPS))) {
        out.push(`${what}: outside the viewport ${W}x${H}`);
        continue;
      }
      // the corners, drawn in along the diagonal by the element's own rounded corners
      const own = radii(getComputedStyle(el), r.width, r.height)
        .map(([x, y]) => [x * .3, y * .3]);
      const points = [[r.left + own[0][0], r.top + own[0][1]],
                      [r.right - own[1][0], r.top + own[1][1]],
                      [r.right - own[2][0], r.bottom - own[2][1]],
                      [r.left + own[3][0], r.bottom - own[3][1]]];
      const clip = clippers(el).find(([node, cs, frame]) => !inside(node, cs, r, points, frame));
      if (clip) {
        const how = clip[2] ? 'over the edge of' : 'clipped by';
        out.push(`${what}: ${how} ${tag(clip[0])} at ${box(clip[0].getBoundingClientRect())}`);
      }
    }
  }
  return out;
}"""

#: ``page.evaluate(OVERLAPS, selectors)``: every two drawn elements matching the selectors
#: (neither inside the other) whose boxes overlap by more than 1 px each way, one line each.
OVERLAPS = """(sels) => {""" + _DRAWN_AND_NAMED + """
  const found = [];
  for (const sel of sels) {
    for (const el of document.querySelectorAll(sel)) {
      if (drawn(el) && !found.some(([, other]) => other === el)) found.push([sel, el]);
    }
  }
  const out = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const [sa, a] = found[i], [sb, b] = found[j];
      if (a.contains(b) || b.contains(a)) continue;
      const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
      const w = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const h = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      if (w > 1 && h > 1) {
        out.push(`${sa} [${name(a)}] and ${sb} [${name(b)}] by ${Math.round(w)}x${Math.round(h)}`);
      }
    }
  }
  return out;
}"""

#: ``page.evaluate(MISSING, selectors)``: the selectors that match no drawn element.
MISSING = """(sels) => {""" + _DRAWN_AND_NAMED + """
  return sels.filter((sel) => ![...document.querySelectorAll(sel)].some(drawn));
}"""
