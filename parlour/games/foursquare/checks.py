"""What the shared tests need to know of Foursquare that only the game knows (read by
``tests/game_checks.py``; plain data, nothing imported): the digests of its seeded play,
which prove a faster build plays exactly as before (``tests/test_same_results.py``; after a
deliberate change of the rules, ``python tests/same_results.py`` prints the new ones), the
options that keep its matches short in those checks and the learning environments' tests,
and what its web table shows, for the browser tests (``tests/test_browser_fit.py``,
``tests/test_browser_i18n.py``)."""

from __future__ import annotations

from typing import Any

#: The digests of its seeded random games, bot game and learning episodes (same_results.py),
#: with the options that keep those matches short.
SAME_RESULTS: dict[str, Any] = {
    "options": {},
    "bots": "abc8728e20472d2f",
    "random": "04ff2ad70c859e5d",
    "rl": "35b028563f76ab46",
}

#: Options that keep the learning environments' random matches short (tests/test_rl.py).
RL_SHORT: dict[str, Any] = {}

#: Its web table as the fit checks see it (tests/test_browser_fit.py's ``Table``).
BROWSER_FIT: dict[str, Any] = dict(
    ready=".fs-cell.legal",
    needed=(".fs-cell", ".fs-in-hand", ".fs-stock", ".fs-note", ".fs-hint-row .button",
            ".fs-deal-link", ".fs-share .button"),
    apart=(".fs-frame", ".fs-note", ".fs-hand", ".fs-stock", ".fs-down"),
    after=(".fs-cell", ".fs-stock"), moves=3,
    shown=(".fs-in-hand", ".fs-stock", ".fs-hint-row .button", ".fs-share .button"))

#: A quick match with rule bots, and what shows when the page's seat has something to do
#: (tests/test_browser_i18n.py).
BROWSER_I18N: dict[str, Any] = {
    "options": {},
    "rule_bots": 0,
    "ready": ".fs-cell.legal",
}
