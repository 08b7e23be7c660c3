"""What the shared tests need to know of Hit the Deck that only the game knows (read by
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
    "options": {"max_rounds": 3},
    "bots": "59be8e59fda2c8bb",
    "random": "ba32658380cc6317",
    "rl": "7035da52ff00784c",
}

#: Options that keep the learning environments' random matches short (tests/test_rl.py).
RL_SHORT: dict[str, Any] = {"target": 25}

#: Its web table as the fit checks see it (tests/test_browser_fit.py's ``Table``).
BROWSER_FIT: dict[str, Any] = dict(
    ready=".htd-hand .hcard.playable, .htd-act",
    needed=(".htd-hand .hcard", ".htd-act", ".htd-draw", ".htd-discard", ".htd-plate",
            ".htd-status", ".htd-shout"),
    apart=(".htd-plate", ".htd-draw", ".htd-discard", ".htd-direction",
           ".htd-obligation.on"),
    after=(".htd-plate", ".htd-discard"),
    shown=(".htd-hand .hcard", ".htd-plate .score", ".htd-draw", ".htd-discard"),
    long={"hand_size": 2, "target": 1000, "max_rounds": 12}, moves=2)

#: A quick match with rule bots, and what shows when the page's seat has something to do
#: (tests/test_browser_i18n.py).
BROWSER_I18N: dict[str, Any] = {
    "options": {"hand_size": 4, "target": 1},
    "rule_bots": 2,
    "ready": ".htd-hand .hcard",
}
