"""Spades' telling figures (:mod:`parlour.stats`): bids made, nils, bags."""

from __future__ import annotations

from parlour.engine import Seat, State
from parlour.stats import Counts, Figure, GameStats, dicts


def counts(state: State, seat: Seat) -> Counts:
    """Per deal: the seat's bid made (its team took at least the partners' bid), its nil
    made or failed, and its team's bags (overtricks) that deal."""
    team = seat % 2
    out = {"deals": 0.0, "bids": 0.0, "bids_made": 0.0, "nils": 0.0, "nils_made": 0.0,
           "nils_failed": 0.0, "bags": 0.0}
    for deal in dicts(state.view(None).get("deals")):
        bids, tricks, teams = deal.get("bids"), deal.get("tricks"), deal.get("teams")
        if not (isinstance(bids, list) and isinstance(tricks, list) and isinstance(teams, list)):
            continue
        result = teams[team]
        out["deals"] += 1
        out["bags"] += float(result.get("bag_points", 0))
        if bids[seat] == 0:
            out["nils"] += 1
            out["nils_made" if tricks[seat] == 0 else "nils_failed"] += 1
        else:
            out["bids"] += 1
            out["bids_made"] += float(result.get("contract", 0) > 0)
    return out


STATS = GameStats(counts, (
    Figure("bids_made", "bids_made", "bids"), Figure("nils_made", "nils_made"),
    Figure("nils_failed", "nils_failed"), Figure("bags_per_deal", "bags", "deals")))
