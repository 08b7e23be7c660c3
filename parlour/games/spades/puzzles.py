"""Spades' puzzle themes (:class:`parlour.registry.PuzzleKit`), read from the seat's
view of the puzzle's position and its answer."""

from __future__ import annotations

from parlour.engine import Action, Seat, State
from parlour.message import N_
from parlour.registry import PuzzleKit

NAMES = {
    "bid-nil": N_("When to bid nil"),
    "bidding": N_("Bidding"),
    "cover-nil": N_("Cover your partner's nil"),
    "set-nil": N_("Set a nil"),
    "keep-nil": N_("Keep your nil"),
    "avoid-bags": N_("Avoid bags"),
    "last-trump": N_("Your last spade"),
    "card-play": N_("Card play"),
}


def _nil(bid: object) -> bool:
    return isinstance(bid, str) and "nil" in bid


def of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    view = state.view(seat)
    text = state.action_text(answer)
    if view["phase"] == "bid":
        return ("bid-nil",) if "nil" in text else ("bidding",)
    bids, tricks = view["bids"], view["tricks"]
    team = next(t for t in view["teams"] if seat in t)
    partner = next(s for s in team if s != seat)
    themes: list[str] = []
    if _nil(bids[partner]) and tricks[partner] == 0:
        themes.append("cover-nil")
    if any(_nil(bids[s]) and tricks[s] == 0 for s in range(len(bids)) if s not in team):
        themes.append("set-nil")
    if _nil(bids[seat]) and tricks[seat] == 0:
        themes.append("keep-nil")
    contract = sum(b for s, b in enumerate(bids) if s in team and isinstance(b, int))
    if contract and sum(tricks[s] for s in team) >= contract:
        themes.append("avoid-bags")
    spades = [c for c in view["hand"] if c.endswith("S")]
    if text.endswith("S") and len(spades) == 1:
        themes.append("last-trump")
    return tuple(themes) or ("card-play",)


KIT = PuzzleKit(NAMES, of)
