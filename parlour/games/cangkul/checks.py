"""What the shared tests need to know of Cangkul that only the game knows (read by
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
    "options": {"losses": 1},
    "bots": "3be117d1d784f42f",
    "random": "3ffbc176f426ffe0",
    "rl": "d8198659590b1de6",
}

#: Options that keep the learning environments' random matches short (tests/test_rl.py).
RL_SHORT: dict[str, Any] = {"losses": 1}

#: Its web table as the fit checks see it (tests/test_browser_fit.py's ``Table``).
BROWSER_FIT: dict[str, Any] = dict(
    ready=".ck-hand .card.playable, .ck-act:not([hidden])",
    needed=(".ck-hand .card", ".ck-stock", ".ck-trick", ".ck-plate"),
    apart=(".ck-plate", ".ck-stock", ".ck-trick .slot .card", ".ck-hand"),
    after=(".ck-plate", ".ck-stock"), shown=(".ck-hand .card", ".ck-plate", ".ck-stock"),
    long={"losses": 20, "max_deals": 12}, moves=3, seats=5)  # the most crowded table

#: A quick match with rule bots, and what shows when the page's seat has something to do
#: (tests/test_browser_i18n.py).
BROWSER_I18N: dict[str, Any] = {
    "options": {"losses": 1},
    "rule_bots": 3,
    "ready": ".ck-hand .card.playable, .ck-act:not([hidden])",
}
