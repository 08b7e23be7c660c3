"""What the shared tests need to know of Spades that only the game knows (read by
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
    "options": {"max_deals": 3},
    "bots": "6e3c72f876a01f93",
    "random": "96ee724c28545e27",
    "rl": "d9560c216c4aac1c",
}

#: Options that keep the learning environments' random matches short (tests/test_rl.py).
RL_SHORT: dict[str, Any] = {"target": 100, "max_deals": 3}

#: Its web table as the fit checks see it (tests/test_browser_fit.py's ``Table``).
BROWSER_FIT: dict[str, Any] = dict(
    ready=".hand .card.playable",
    needed=(".hand .card", ".plate", ".trick", ".team-score"),
    apart=(".plate", ".trick .slot .card", ".hand", ".felt-note"),
    after=(".plate", ".team-score"), shown=(".hand .card", ".team-score", ".plate"),
    long={"target": 5000, "max_deals": 12}, moves=3)

#: A quick match with rule bots, and what shows when the page's seat has something to do
#: (tests/test_browser_i18n.py).
BROWSER_I18N: dict[str, Any] = {
    "options": {"target": 10},
    "rule_bots": 3,
    "ready": ".bid-panel:not([hidden]) button",
}
