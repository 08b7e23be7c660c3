"""Cangkul's telling figures (:mod:`parlour.stats`): first out, deals lost, cards dug."""

from __future__ import annotations

from parlour.engine import Seat, State
from parlour.message import N_
from parlour.stats import Counts, Figure, GameStats, dicts


def counts(state: State, seat: Seat) -> Counts:
    """Per deal: whether the seat went out first, whether it lost the deal (last holding
    cards), and how many cards it drew from the stock."""
    out = {"deals": 0.0, "firsts": 0.0, "lost": 0.0, "drawn": 0.0}
    for deal in dicts(state.view(None).get("deals")):
        order, losers, drawn = deal.get("out"), deal.get("losers"), deal.get("drawn")
        if not (isinstance(order, list) and isinstance(losers, list)
                and isinstance(drawn, list)):
            continue
        out["deals"] += 1
        out["firsts"] += float(bool(order) and order[0] == seat)
        out["lost"] += float(seat in losers)
        out["drawn"] += float(drawn[seat])
    return out


STATS = GameStats(counts, (
    Figure("first_out_rate", "firsts", "deals", label=N_("Deals won (out first)"),
           shown="percent"),
    Figure("lost_deal_rate", "lost", "deals", label=N_("Deals lost (last holding cards)"),
           shown="percent"),
    Figure("drawn_per_deal", "drawn", "deals", label=N_("Cards drawn per deal"),
           shown="fixed1")), lower_points_better=True)
