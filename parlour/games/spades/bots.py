"""Spades bots. ``rule`` is a hand-written player that reads only its seat's view.

Bidding: counting likely tricks
    * Spades: the ace is a trick; the king is a trick with one more spade beside it (half a
      trick bare); the queen needs two more; every spade after the third is a trick
      (length wins the last rounds).
    * Side suits: an ace is a trick if the suit is not so long that it will be ruffed
      (six cards or more: half); a king is a trick with a guard (king-x) in a suit of at
      most five, half in a longer one; a queen with two guards is half a trick in a suit of
      at most four.
    * Ruffing: a void is worth a trick and a singleton half, for each spade beyond the
      ones already counted, up to the spades we hold.
    * The total is rounded, kept to at least 1, and trimmed so that the team's bids never
      pass 13.
    * Nil: a hand that counts under 1.5 tricks, holds no spade above the 10 (and at most
      three spades), and no ace, bids nil, unless the partner already bid nil.
    * Blind nil (when offered): taken when the team is behind by 200 or more; otherwise the
      bot looks at its cards.

Play: what the team needs decides the style
    * Our nil: duck. Follow with the highest card that still loses the trick, otherwise the
      lowest; discard the highest cards of the suits we are short in; lead the lowest card.
    * Partner's nil (still alive): cover. Lead high; when partner plays after us, win with
      a high card; when partner is winning the trick, overtake; otherwise play as normal.
    * Contract not yet made: win tricks cheaply. Last to play, win with the lowest card that
      does, unless partner already wins. Otherwise play the top unseen card of the suit if we
      hold it (a sure trick), else low. Void in the suit led: ruff with the lowest spade that
      wins, unless partner is winning. Leads: a sure winner, else low from a long side suit;
      draw trumps when we hold the top spades.
    * Contract made: avoid bags. Duck whenever we can, discard high cards, unless the
      opponents can still be set (they need more tricks than remain after we take ours),
      in which case we keep winning tricks to set them.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import Bot, Observation, stopwatch
from parlour.bots.ismcts import SearchHooks
from parlour.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    SPADES,
    TEN,
    is_spade,
    parse_card,
    rank_of,
    suit_of,
)
from parlour.engine import Action, Seat
from parlour.games.spades.rules import (
    BID_BASE,
    BIDDING,
    BLIND_NIL,
    LOOK,
    NIL,
    SpadesState,
    beats,
    score_team,
)
from parlour.message import N_


def count_tricks(hand: list[int]) -> float:
    """The bidding count described in the module docstring."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in hand:
        by_suit[suit_of(c)].append(rank_of(c))
    total = 0.0
    spades = sorted(by_suit[SPADES], reverse=True)
    n_spades = len(spades)
    counted_spades = 0
    if ACE in spades:
        total += 1
        counted_spades += 1
    if KING in spades:
        total += 1 if n_spades >= 2 else 0.5
        counted_spades += 1
    if QUEEN in spades and n_spades >= 3:
        total += 1
        counted_spades += 1
    long_spades = max(0, n_spades - 3)
    total += long_spades
    counted_spades = max(counted_spades, min(n_spades, 3)) + long_spades
    for suit in range(3):
        ranks = by_suit[suit]
        n = len(ranks)
        if ACE in ranks:
            total += 1 if n <= 5 else 0.5
        if KING in ranks and n >= 2:
            total += 1 if n <= 5 else 0.5
        if QUEEN in ranks and 3 <= n <= 4:
            total += 0.5
    spare = n_spades - counted_spades
    for suit in range(3):
        n = len(by_suit[suit])
        if spare <= 0:
            break
        if n == 0:
            use = min(spare, 2)
            total += use
            spare -= use
        elif n == 1:
            total += 0.5
            spare -= 1
    return total


def wants_nil(hand: list[int]) -> bool:
    spades = [rank_of(c) for c in hand if suit_of(c) == SPADES]
    if any(r > TEN for r in spades) or len(spades) > 3:
        return False
    if any(rank_of(c) == ACE for c in hand):
        return False
    high = sum(1 for c in hand if rank_of(c) >= JACK)
    return count_tricks(hand) < 1.5 and high <= 2


@dataclass
class _Table:
    """The parts of a Spades view the rule bot reasons about, as ints."""

    seat: Seat
    hand: list[int]
    trick: list[tuple[Seat, int]]
    unseen: set[int]
    bids: list[int | None]
    tricks: list[int]
    broken: bool


def read_view(obs: Observation) -> _Table:
    view = obs.view
    hand = [parse_card(c) for c in view["hand"] or []]
    played = {parse_card(c) for _, c in view["played"]}
    trick = [(t["seat"], parse_card(t["card"])) for t in view["trick"]]
    bids = [0 if b in ("nil", "blind nil") else b for b in view["bids"]]
    unseen = set(range(52)) - played - set(hand)
    broken = view["spades_broken"]
    return _Table(obs.seat, hand, trick, unseen, bids, list(view["tricks"]), broken)


class SpadesRuleBot(Bot):
    """Counts tricks to bid; plays to its contract, covers nil, avoids bags."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        if LOOK in legal:
            return self._blind_choice(obs)
        if legal[0] >= NIL:
            return self._bid(obs)
        if len(legal) == 1:
            return legal[0]
        return self._play(read_view(obs), list(legal))

    # ----------------------------------------------------------------- bidding
    def _blind_choice(self, obs: Observation) -> Action:
        scores = obs.view["scores"]
        team = obs.seat & 1
        behind = scores[1 - team] - scores[team]
        partner_bid = obs.view["bids"][(obs.seat + 2) & 3]
        if behind >= 200 and partner_bid not in ("nil", "blind nil"):
            return BLIND_NIL
        return LOOK

    def _bid(self, obs: Observation) -> Action:
        hand = [parse_card(c) for c in obs.view["hand"]]
        partner = obs.view["bids"][(obs.seat + 2) & 3]
        partner_nil = partner in ("nil", "blind nil")
        if not partner_nil and wants_nil(hand):
            return NIL
        bid = max(1, round(count_tricks(hand)))
        if isinstance(partner, int):
            bid = min(bid, 13 - partner)
        if partner_nil:
            bid = max(bid, 2)  # we carry the contract alone: take no chances on 1
        return BID_BASE + max(1, min(13, bid))

    # ----------------------------------------------------------------- play
    def _play(self, t: _Table, legal: list[int]) -> Action:
        me, partner = t.seat, (t.seat + 2) & 3
        if t.bids[me] == 0 and t.tricks[me] == 0:
            return self._duck_for_nil(t, legal)
        partner_nil_alive = t.bids[partner] == 0 and t.tricks[partner] == 0
        team_bid = sum(b or 0 for b in (t.bids[me], t.bids[partner]))
        team_tricks = sum(t.tricks[s] for s in (me, partner) if t.bids[s] != 0)
        opp = ((me + 1) & 3, (me + 3) & 3)
        opp_bid = sum(t.bids[s] or 0 for s in opp)
        opp_tricks = sum(t.tricks[s] for s in opp if t.bids[s] != 0)
        left = 13 - sum(t.tricks)
        can_set = opp_bid - opp_tricks > 0 and opp_bid - opp_tricks <= left
        want = team_tricks < team_bid or (can_set and left - (opp_bid - opp_tricks) < 2)
        if partner_nil_alive:
            return self._cover(t, legal, partner)
        if not t.trick:
            return self._lead(t, legal, want)
        return self._follow(t, legal, want, partner)

    def _winner(self, trick: list[tuple[Seat, int]]) -> tuple[Seat, int]:
        seat, best = trick[0]
        for s, c in trick[1:]:
            if beats(c, best):
                seat, best = s, c
        return seat, best

    def _top_unseen(self, t: _Table, suit: int) -> int:
        """Highest card of ``suit`` not yet played (held by us or unseen); -1 if none."""
        live = [c for c in t.unseen | set(t.hand) if suit_of(c) == suit]
        return max(live, default=-1)

    def _sure(self, t: _Table, card: int) -> bool:
        """No unseen card can beat ``card`` when it is led (spades ignore ruffs)."""
        suit = suit_of(card)
        higher = any(suit_of(c) == suit and c > card for c in t.unseen)
        if higher:
            return False
        if suit == SPADES:
            return True
        return (not any(is_spade(c) for c in t.unseen)
                or (rank_of(card) == ACE and len(t.trick) == 0))

    def _duck_for_nil(self, t: _Table, legal: list[int]) -> Action:
        if not t.trick:
            return min(legal, key=lambda c: (rank_of(c), is_spade(c)))
        _, best = self._winner(t.trick)
        losing = [c for c in legal if not beats(c, best)]
        if losing:
            return max(losing, key=lambda c: (rank_of(c), not is_spade(c)))
        return min(legal, key=rank_of)

    def _cover(self, t: _Table, legal: list[int], partner: Seat) -> Action:
        played = {s for s, _ in t.trick}
        if not t.trick:
            return max(legal, key=lambda c: (rank_of(c), not is_spade(c)))
        seat, best = self._winner(t.trick)
        winners = [c for c in legal if beats(c, best)]
        if winners and (seat == partner or partner not in played):
            return max(winners) if partner not in played else min(winners)
        return self._cheapest(legal, best)

    def _lead(self, t: _Table, legal: list[int], want: bool) -> Action:
        if not want:
            return min(legal, key=lambda c: (rank_of(c), is_spade(c)))
        sure = [c for c in legal if self._sure(t, c)]
        if sure:
            return max(sure, key=lambda c: (not is_spade(c), rank_of(c)))
        spades = [c for c in legal if is_spade(c)]
        if spades and len(spades) >= 4 and max(spades) == self._top_unseen(t, SPADES):
            return max(spades)
        side = [c for c in legal if not is_spade(c)] or legal
        counts = [0, 0, 0, 0]
        for c in t.hand:
            counts[suit_of(c)] += 1
        longest = max(side, key=lambda c: (counts[suit_of(c)], -rank_of(c)))
        low = [c for c in side if suit_of(c) == suit_of(longest)]
        return min(low)

    def _follow(self, t: _Table, legal: list[int], want: bool, partner: Seat) -> Action:
        seat, best = self._winner(t.trick)
        lead_suit = suit_of(t.trick[0][1])
        winners = [c for c in legal if beats(c, best)]
        last = len(t.trick) == 3
        following = suit_of(legal[0]) == lead_suit
        if not want or not winners:
            return self._shed(t, legal, best, want)
        if seat == partner and (last or self._holds(t, best)):
            return self._shed(t, legal, best, want)
        if last:
            return min(winners)
        if following:
            top = self._top_unseen(t, lead_suit)
            if top in winners:
                return top
            return self._shed(t, legal, best, want)
        spade_winners = [c for c in winners if is_spade(c)]
        return min(spade_winners) if spade_winners else min(winners)

    def _holds(self, t: _Table, card: int) -> bool:
        """Whether ``card``, now winning, is likely to stay winning."""
        suit = suit_of(card)
        if suit == SPADES:
            return not any(c > card for c in t.unseen if is_spade(c))
        return not any(c > card and suit_of(c) == suit for c in t.unseen)

    def _cheapest(self, legal: list[int], best: int) -> Action:
        losing = [c for c in legal if not beats(c, best)]
        pool = losing or legal
        return min(pool, key=lambda c: (is_spade(c), rank_of(c)))

    def _shed(self, t: _Table, legal: list[int], best: int, want: bool) -> Action:
        """Lose the trick: with bags to avoid, throw the highest card that still loses."""
        losing = [c for c in legal if not beats(c, best)]
        if not losing:
            return min(legal, key=rank_of)
        if want:
            return min(losing, key=lambda c: (is_spade(c), rank_of(c)))
        return max(losing, key=lambda c: (not is_spade(c), rank_of(c)))


BOTS = {"rule": SpadesRuleBot}


# ----------------------------------------------------------------------------- search hooks
# ISMCTS (parlour.bots.ismcts) plays Spades with two helpers. Both work on determinized
# states that search sampled from an observation, so reading their hands is honest.

def fast_policy(state: SpadesState, seat: Seat, rng: random.Random) -> Action:
    """A cheap playout policy: bid by counting, duck when nil, otherwise second hand low,
    third hand high, win as cheaply as possible when last, never overtake a partner."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if state.phase == BIDDING:
        if LOOK in legal:
            return LOOK
        return BID_BASE + max(1, min(13, round(count_tricks(state.hand(seat)))))
    n = state.trick_len
    if state.bids[seat] == 0 and state.tricks[seat] == 0:  # our nil: stay under
        if n == 0:
            return min(legal, key=_rank)
        win = state.win_card
        under = [c for c in legal if not beats(c, win)]
        return max(under, key=_rank) if under else min(legal, key=_rank)
    if n == 0:
        return rng.choice(legal)
    win = state.win_card
    if state.win_seat == seat ^ 2:
        return min(legal, key=_rank)
    winners = [c for c in legal if beats(c, win)]
    if not winners:
        return min(legal, key=_rank)
    return min(winners) if n == 3 or suit_of(legal[0]) != suit_of(win) else max(winners)


def _rank(card: int) -> tuple[bool, int]:
    return is_spade(card), rank_of(card)


SAMPLES = {"easy": 24, "normal": 80, "hard": 240}
MIN_SAMPLES = 16  # below this a time cap (``Bot.time_cap``) does not stop the sampling


def bid_values(obs: Observation, rng: random.Random, level: str,
               bot: Any = None) -> dict[Action, float] | None:
    """Bids by simulation: play sampled deals of the unseen cards (the other seats bidding
    by count) with the fast policy, once as a trick-taker and once as a nil bidder, and
    value each bid by the team's average result: its score after the deal less the future
    cost of its bags. Blind nil is judged the same way before looking, and looking by the
    result of then bidding the count of the hand. ``None`` outside the bidding, where the
    tree search decides."""
    legal = obs.legal
    if legal[0] < NIL:
        return None
    seat, team = obs.seat, obs.seat & 1
    view = obs.view
    options = view["options"]
    score, bags = view["scores"][team], view["bags"][team]
    cost = options["bag_penalty"] / options["bag_limit"]
    partner = (seat + 2) & 3
    candidates = [a for a in legal if a != LOOK]
    worth: dict[Action, float] = dict.fromkeys(legal, 0.0)
    samples = SAMPLES.get(level, SAMPLES["normal"])
    out_of_time = stopwatch(getattr(bot, "time_cap", None))
    done = 0
    for done in range(1, samples + 1):
        base = obs.sample(rng)
        assert isinstance(base, SpadesState)
        for plan in ([NIL] if NIL in candidates or BLIND_NIL in candidates else []) + [None]:
            state = base.clone()
            _finish_bidding(state, seat, plan)
            partner_bid = state.bids[partner] or 0  # read before the playout ends the deal,
            partner_blind = state.blind[partner]  # which clears the bids for the next one
            counted = state.bids[seat] or 0  # the bid after a look: the hand's count
            tricks = _play_out(state, rng)
            for action in worth:
                if (action in (NIL, BLIND_NIL)) != (plan == NIL):
                    continue
                my_bid = (counted if action == LOOK else
                          0 if action in (NIL, BLIND_NIL) else action - BID_BASE)
                res = score_team((my_bid, partner_bid), (action == BLIND_NIL, partner_blind),
                                 (tricks[seat], tricks[partner]), score, bags, options)
                worth[action] += res["score"] - cost * res["bags"]
        if done >= MIN_SAMPLES and out_of_time():
            break
    return {a: round(w / done, 2) for a, w in worth.items()}


def _finish_bidding(state: SpadesState, seat: Seat, plan: Action | None) -> None:
    """Complete the bidding: ``seat`` bids nil if ``plan`` says so, else its count; the
    others as the rule bot would."""
    while state.phase == BIDDING:
        turn = state.turn
        if LOOK in state.legal_actions():
            state.apply(BLIND_NIL if turn == seat and plan == NIL else LOOK)
            continue
        hand = state.hand(turn)
        if turn == seat:
            bid = NIL if plan == NIL else BID_BASE + max(1, min(13, round(count_tricks(hand))))
        elif wants_nil(hand) and state.bids[turn ^ 2] != 0:
            bid = NIL
        else:
            bid = BID_BASE + max(1, min(13, round(count_tricks(hand))))
        state.apply(bid)


def _play_out(state: SpadesState, rng: random.Random) -> list[int]:
    deal = state.deal
    while state.deal == deal and state.to_act:
        seat = state.turn
        state.apply(fast_policy(state, seat, rng), seat)
    return state.deals[-1]["tricks"] if state.deals else list(state.tricks)


def value(state: SpadesState, seat: Seat) -> float:
    """How well ``seat``'s team stands where a playout stopped (search's ``value`` hook):
    the result once the match is over, else a logistic curve of the score lead, where each
    bag counts as the 10 points it will cost at the limit."""
    if state.outcome is not None:
        return state.reward(seat)
    team = seat & 1
    cost: float = state.options["bag_penalty"] / state.options["bag_limit"]

    def worth(t: int) -> float:
        return state.scores[t] - cost * state.bags[t]

    lead = worth(team) - worth(1 - team)
    return 1.0 / (1.0 + math.exp(-lead / 150.0))


SEARCH = SearchHooks(policy=fast_policy, values=bid_values, value=value,
                     values_unit=N_("expected team score after this deal, less the cost of "
                                    "its bags"),
                     exploration=0.3)
