"""Perfect Information Monte Carlo for Spades: the ``pimc`` bot and its ``open-hands`` bound.

``pimc`` is the classic approach of bridge programs (Levy 1989; Ginsberg's GIB, 2001) with
Parlour's own open-hand search (:mod:`parlour.games.spades.solver`), not a bridge solver:
the search knows spades broken, nil and bags. It is an outside anchor for the search bots'
strength, played in the arena (``parlour tournament``, ``parlour simulate``).

Play: it samples deals of the unseen cards consistent with what its seat has seen (the
observation's ``sample``: hand sizes, shown voids), solves each with every hand open for
the partnership's score of the deal (:func:`~parlour.games.spades.solver.deal_scorer`: each
team's score after the deal less the future cost of its bags, ours minus theirs), and
plays the card with the best mean over the samples (equal means: the lowest rank, a side
suit before a spade).

Bidding: on each sample it solves the deal from the opening lead for its partnership's
tricks, and bids the mean of its share: the team's tricks less the partner's bid once the
partner has bid a number, all of them when the partner bid nil, and before the partner
bids, the team's tricks shared by the two hands' counts of likely tricks
(:func:`~parlour.games.spades.bots.count_tricks`). A hand that counts under three tricks,
whose partner has not bid nil, is also solved for a nil (the seat ducking every trick, the
opponents trying to make it take one); it bids nil when the nil's expected gain, (2p - 1)
times the nil's value for a share p of samples made, beats the ten points a trick of its
contract would bring. It always looks at its cards (it never bids blind nil).

Budgets are samples and nodes, never the clock (``samples`` deals a decision, ``nodes``
cards played by the search for each). Whoever runs it may cap a decision's time
(:attr:`~parlour.bots.base.Bot.time_cap`); the sampling then stops after
:data:`MIN_SAMPLES`.

``open-hands`` is the same search shown every card: one "sample", the true deal. It is the
perfect-information bound of the anchor, a yardstick and no opponent: the arena alone can
show it the deal (:func:`parlour.bots.base.observe_open`, for a kind whose
``sees_everything`` is set), and it refuses to be made otherwise.
"""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.bots.base import Bot, Observation, OpenObservation, stopwatch
from parlour.cards import is_spade, parse_card, rank_of
from parlour.engine import Action, Game, OptionError, Seat
from parlour.games.spades.bots import count_tricks
from parlour.games.spades.rules import BID_BASE, LOOK, NIL, SpadesState
from parlour.games.spades.solver import (
    Position,
    Scorer,
    Solver,
    deal_scorer,
    nil_made,
    position_of,
    team_tricks,
)

#: Deals sampled a decision, and the search's node budget on each.
SAMPLES = 16
NODES = 3000
MIN_SAMPLES = 4  # below this a time cap does not stop the sampling
NIL_COUNT = 3.0  # a hand counting fewer likely tricks is also solved for a nil


class PimcBot(Bot):
    """Samples deals consistent with its view, solves each with every hand open for the
    partnership's score of the deal, and plays the card that does best on average."""

    kind = "pimc"
    needs_sample = True
    at_tables = False  # an anchor for measuring the search bots, not a table's opponent

    def __init__(self, game: Game, seat: Seat, seed: int, samples: int = SAMPLES,
                 nodes: int = NODES, time_cap: float | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        if samples < 1 or nodes < 1:
            raise ValueError("pimc needs at least one sample and one node")
        self.samples = samples
        self.nodes = nodes
        self.time_cap = time_cap

    def deals(self, obs: Observation) -> list[SpadesState]:
        """The deals to solve: samples of the unseen cards (hand sizes and shown voids
        kept), fewer if a time cap runs out."""
        out_of_time = stopwatch(self.time_cap)
        found: list[SpadesState] = []
        for _ in range(self.samples):
            state = obs.sample(self.rng)
            assert isinstance(state, SpadesState)
            found.append(state)
            if len(found) >= MIN_SAMPLES and out_of_time():
                break
        return found

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        if LOOK in legal:
            return LOOK
        if legal[0] >= NIL:
            return self.bid(obs)
        values = self.analyse(obs)
        return max(legal, key=lambda c: (values[c], -rank_of(c), not is_spade(c)))

    def analyse(self, obs: Observation) -> dict[Action, float]:
        """Each legal card's mean value over the sampled deals (the partnership's score
        of the deal, ours minus theirs)."""
        deals = self.deals(obs)
        score = deal_scorer(deals[0], obs.seat)  # bids, scores and bags are public
        total = dict.fromkeys(obs.legal, 0.0)
        for state in deals:
            values = Solver(obs.seat & 1, score, self.nodes).values(position_of(state))
            for card in total:
                total[card] += values[card]
        return {card: v / len(deals) for card, v in total.items()}

    # ----------------------------------------------------------------- bidding
    def bid(self, obs: Observation) -> Action:
        seat = obs.seat
        partner = seat ^ 2
        bids = obs.view["bids"]
        partner_bid = bids[partner]
        partner_nil = partner_bid in ("nil", "blind nil")
        hand = [parse_card(c) for c in obs.view["hand"]]
        mine = count_tricks(hand)
        deals = self.deals(obs)
        nils = tuple(b in ("nil", "blind nil") for b in bids)
        share = 0.0
        made = 0.0
        try_nil = not partner_nil and mine < NIL_COUNT
        for state in deals:
            team = self.position_value(position_of(state, nils), team_tricks(seat))
            if isinstance(partner_bid, int):
                share += team - partner_bid
            elif partner_nil:
                share += team
            else:
                theirs = count_tricks(state.hand(partner))
                share += team * (mine + 0.5) / (mine + theirs + 1.0)
            if try_nil:
                as_nil = tuple(n or s == seat for s, n in enumerate(nils))
                made += self.position_value(position_of(state, as_nil), nil_made(seat))
        most = 13 - partner_bid if isinstance(partner_bid, int) else 13
        count = max(1, min(most, round(share / len(deals))))
        if try_nil:
            p = made / len(deals)
            if (2 * p - 1) * obs.view["options"]["nil_value"] > 10 * count:
                return NIL
        return BID_BASE + count

    def position_value(self, pos: Position, score: Scorer) -> float:
        """The value of ``pos`` for this seat's team: the best card's for the side to play."""
        values = Solver(self.seat & 1, score, self.nodes).values(pos).values()
        return max(values) if pos.turn & 1 == self.seat & 1 else min(values)


class OpenHandsBot(PimcBot):
    """The perfect-information bound of ``pimc``: the same search on the true deal,
    every hand seen. A yardstick for the arena, never an opponent."""

    kind = "open-hands"
    sees_everything: ClassVar[bool] = True

    def __init__(self, game: Game, seat: Seat, seed: int, shown: bool = False,
                 nodes: int = NODES, **params: Any) -> None:
        if not shown:
            raise OptionError("the open-hands bot sees every hand: it is a yardstick for "
                              "the arena (parlour tournament), not an opponent")
        super().__init__(game, seat, seed, samples=1, nodes=nodes, **params)

    def deals(self, obs: Observation) -> list[SpadesState]:
        if not isinstance(obs, OpenObservation):
            raise RuntimeError("the open-hands bot must be shown the deal (observe_open)")
        state = obs.sample(self.rng)
        assert isinstance(state, SpadesState)
        return [state]

