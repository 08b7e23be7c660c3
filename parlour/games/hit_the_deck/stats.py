"""Hit the Deck's telling figures (:mod:`parlour.stats`): slaps and missed shouts."""

from __future__ import annotations

import re

from parlour.engine import Seat, State
from parlour.stats import Counts, Figure, GameStats

_SLAP = re.compile(r"^slap (\d+)ms$")


def counts(state: State, seat: Seat) -> Counts:
    """Slaps and their reaction times (the server's timing, in the action), and With a
    Hand cards played without the shout."""
    slaps = slap_ms = missed = hands = 0.0
    for who, action in state.history:
        if who != seat:
            continue
        text = state.action_text(action)
        timed = _SLAP.match(text)
        if timed:
            slaps += 1
            slap_ms += int(timed[1])
        elif text.startswith("hit hand"):
            hands += 1
            missed += not text.endswith("!")
    return {"slaps": slaps, "slap_ms": slap_ms, "hands": hands, "shouts_missed": missed}


STATS = GameStats(counts, (
    Figure("slap_ms", "slap_ms", "slaps"), Figure("shouts_missed", "shouts_missed")),
    lower_points_better=True)
