"""Clockwork Spades bots. ``rule`` reads only its seat's view.

The game's one decision is which due spade to take when nothing in hand can be played.
Taking the spade at a position kills its rank: every card of that rank still in play
becomes dead and will be discarded by whoever holds it. So the rule bot takes the spade
that hurts the opponent most and itself least, counting for each due position:

* ``mine``: the cards of that rank in its own hand (they would die with the spade);
* ``unseen``: the cards of that rank it has not seen, three minus those played on the
  position, discarded or in its own hand (the fourth card of a rank is the spade itself).
  The opponent holds each of them with the chance ``opponent's hand / unseen cards``.

It takes the position with the highest ``unseen * chance - mine``, that is the rank the
opponent most likely holds and it holds least. Ties go to the position with more unseen
cards of its rank (more life taken out of the stock, which both players draw from), then
to the first due position clockwise.

``mine`` is always 0 in practice: the bot only chooses when no card in its hand matches a
due position. It is kept so that the rule reads as designed if the engine ever offers a
choice with a playable card in hand.

Measured (2,000 games a side, seed 0): the rule bot wins 34.9% as first player and 46.6%
as second against ``random``, where ``random`` itself wins 36.2% and 47.0% from those
seats: no measurable edge. Killing a rank the opponent holds mostly hands them a fresh
draw (their dead card is replaced), so the choice of spade matters little; even a Monte
Carlo search over determinizations gained under two points in a quick trial.
"""

from __future__ import annotations

from parlour.bots.base import Bot, Observation
from parlour.cards import parse_card
from parlour.engine import Action, JsonDict
from parlour.games.clockwork_spades.rules import position_of


def rank_counts(cards: list[str]) -> list[int]:
    """How many of ``cards`` belong to each clock position (index 1..12; 0: Kings)."""
    counts = [0] * 13
    for text in cards:
        counts[position_of(parse_card(text))] += 1
    return counts


def choice_scores(view: JsonDict, positions: list[int]) -> dict[int, tuple[float, int]]:
    """For each due position, ``(score, unseen)`` as the module docstring describes."""
    mine = rank_counts(view["hand"] or [])
    gone = rank_counts(view["discard"])
    for spot in view["clock"]:
        for card in spot["cards"]:
            gone[position_of(parse_card(card))] += 1
    # 36 cards of clock ranks are not spades (the three other Kings never stay in a hand,
    # so they are left out of the chance).
    unseen_total = 36 - sum(mine[1:]) - sum(gone[1:])
    opponent = view["hand_sizes"][1 - view["seat"]]
    chance = opponent / unseen_total if unseen_total > 0 else 0.0
    out: dict[int, tuple[float, int]] = {}
    for p in positions:
        unseen = 3 - mine[p] - gone[p]
        out[p] = (unseen * chance - mine[p], unseen)
    return out


class ClockworkRuleBot(Bot):
    """Takes the spade whose rank the opponent most likely holds and it holds least."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        due = obs.view["due"]
        positions: list[int] = [p for p in due if p - 1 in legal]
        scores = choice_scores(obs.view, positions)
        best = max(positions, key=lambda p: (scores[p], -positions.index(p)))
        return best - 1


BOTS = {"rule": ClockworkRuleBot}
