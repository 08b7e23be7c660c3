"""What the shared tests need to know of Spite & Malice that only the game knows (read by
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
    "options": {"max_rounds": 2},
    "bots": "71d96b126c2163e1",
    "random": "7cd2a5231453d8f1",
    "rl": "643eb0e48b9a36bd",
}

#: Options that keep the learning environments' random matches short (tests/test_rl.py).
RL_SHORT: dict[str, Any] = {"target": 5, "payoff_size": 5, "max_turns": 60}

#: Its web table as the fit checks see it (tests/test_browser_fit.py's ``Table``).
BROWSER_FIT: dict[str, Any] = dict(
    ready=".snm-plate.mine.turn",
    needed=(".snm-hand .card", "[data-key][data-targets]:not([data-targets=''])",
            ".snm-centre [data-key]", ".snm-stock", ".snm-pile", ".snm-plate",
            ".snm-plate .snm-score", ".snm-turn"),
    apart=(".snm-plate", ".snm-pile", ".snm-stock", ".snm-slot", ".snm-note"),
    after=(".snm-pile", ".snm-stock", ".snm-plate"),
    shown=(".snm-hand .card", ".snm-plate .snm-score", ".snm-stock", ".snm-centre [data-key]"),
    long={"payoff_size": 1, "target": 500, "max_rounds": 15, "max_turns": 60}, moves=12)

#: A quick match with rule bots, and what shows when the page's seat has something to do
#: (tests/test_browser_i18n.py).
BROWSER_I18N: dict[str, Any] = {
    "options": {"payoff_size": 3, "target": 1, "max_rounds": 3},
    "rule_bots": 1,
    "ready": ".snm-plate.mine.turn",
}
