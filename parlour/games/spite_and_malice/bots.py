"""Spite & Malice bots. ``rule`` plans each turn as a whole from its seat's view alone;
``ismcts`` (the generic bot, through the :data:`SEARCH` hooks at the bottom) weighs the rule
bot's candidate plans by Monte Carlo playouts of sampled hidden cards. Both stand on the
turn planner, the scoring and the discards described below, which live in ``planner.py``
(compiled in the compiled build: the playouts spend nearly all their time there).

Planning a turn
    * The bot searches (depth first, remembering positions already seen, at most
      :data:`NODE_LIMIT` positions) every sequence of builds it can make from its hand, the
      tops of its side piles (the cards beneath are face up, so a side pile is a known
      sequence) and its payoff top, and scores the position each sequence leads to. It
      plays the best sequence one build at a time and then discards.
    * A sequence ends where the bot learns something new: when the payoff top is played
      (the next payoff card is turned up) or when the hand is emptied (five new cards are
      drawn). It then plans again from what it now sees; it also plans again whenever the
      table is not what the plan expected.

Scoring a position (the weights are in :class:`Weights`)
    * Playing the payoff top outweighs everything else: that is how a round is won.
    * Kings (and jokers) are kept for the payoff: a wild card played costs a lot unless
      the sequence plays the payoff top.
    * Emptying the hand is worth a good deal (five fresh cards); each card played from a
      side pile or the hand is worth a little (clearing side piles uncovers cards, cycling
      the hand brings new ones).
    * Feeding the opponent is avoided: a centre pile left needing the rank of the
      opponent's payoff top costs heavily, one or two ranks short of it costs less. Before
      measuring the gap, the bot lets the opponent play whatever its own face-up side
      piles allow, since it can see them.
    * A centre pile left needing the rank of the bot's own payoff top earns a little.

Discarding (the move that ends the turn)
    * Never a king or joker while another card is held.
    * Side piles are kept in descending runs: the best place for a card is on a card one
      rank higher, then on the same rank, then on an empty pile (high cards first, to
      start runs), then on a higher card; burying a lower card is the last resort.
    * High cards and duplicates are discarded before low, single cards (low cards are
      needed soon).

The search (``ismcts``): Monte Carlo over whole-turn plans
    Tree search over single moves is weak here: a turn is a chain of builds whose worth
    shows only at its end, and the rule bot already finds the best chains by its weights.
    So the search decides between *plans*, and keeps the rule bot's strengths:

    * **Candidates.** At the start of a turn, and again whenever it learns something (a
      new payoff top, five new cards), the bot lists every position its builds can reach
      (the rule bot's planner with ``collect``), best by the rule bot's score first. Plans
      far below the best (:data:`PLAN_GAP`) are dropped, and when the payoff top can be
      played only plans that play it remain; at most :data:`WIDTH` plans are kept. When
      the builds are done, the discard is a second decision among the distinct discards
      (equal values onto identical piles are one), best by the rule bot's order first.
    * **Playouts.** Each candidate is played on a determinization (``obs.sample``: the
      opponent's hand, the stock's order and both payoff piles under their tops redealt
      from the cards the bot has not seen), then the rest of the turn, the opponent's
      turn and the bot's own next turn (:data:`HORIZON`) are played by the rule bot's
      policy (:func:`rule_turn`, which plays exactly as the rule bot would with those
      cards: against ``rule`` the opponent model is exact but for the hidden cards).
    * **Leaf.** Where a playout stops, :func:`leaf_value` estimates the round's points
      margin: a linear fit, on 89,000 positions of rule-bot play, of the final margin on
      the payoff lead, the kings held and whether a centre pile is 0, 1 or 2 ranks short of
      each payoff top (``bench/spite_and_malice_leaf.py`` refits it). A round that ended in
      the playout counts its real points.
    * **Comparison.** All candidates are played out on the same determinizations (common
      random numbers, so differences come from the plans, not the deal), and successive
      halving spends the :data:`PLAYOUTS` budget on the best. The rule bot's own choice
      always stays in the race and is overruled only by a challenger whose paired
      advantage is :data:`CONFIDENCE` standard errors clear of zero: with a small budget
      the bot plays like the rule bot, and it departs from it where the playouts show why.
    * **Memory.** The chosen plan is kept on the bot (``bot.memory``) and played one build
      at a time while the table is as expected, so only a plan's first move costs a search.
    * **Honesty.** Everything is computed from the observation: the view, and states
      sampled from it. Sampled states are read freely (the opponent's hand in a sample is
      a guess consistent with what the bot has seen, not the truth).
    * **Levels** set the playouts per decision (:data:`PLAYOUTS`) and the width; a time
      cap, when whoever runs the bot sets one (``Bot.time_cap``), stops a search early,
      after at least :data:`MIN_SAMPLES` determinizations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parlour.bots.base import Bot, Observation, stopwatch
from parlour.bots.ismcts import SearchHooks
from parlour.engine import Action, Game, Seat
from parlour.games.spite_and_malice.planner import (
    PAYOFF,
    PLAYOUT_NODES,
    RULE_WEIGHTS,
    STOP,
    Sig,
    Table,
    Weights,
    leaf_value,
    rule_turn,
    table_from_state,
    table_from_view,
)
from parlour.games.spite_and_malice.rules import OVER, SpiteAndMaliceState, hand_to_side
from parlour.message import N_


# ----------------------------------------------------------------------------- rule bot
class SpiteAndMaliceRuleBot(Bot):
    """Plans the builds of a turn as a whole; see the module docstring."""

    kind = "rule"

    def __init__(self, game: Game, seat: Seat, seed: int, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.weights = Weights()
        self._plan: list[tuple[Action, Sig]] = []
        self._expect: Sig | None = None

    def act(self, obs: Observation) -> Action:
        table = table_from_view(obs.view, obs.seat)
        sig = table.sig
        legal = obs.legal
        if self._plan and sig == self._expect:
            action, self._expect = self._plan.pop(0)
            if action in legal:
                return action
        plan = table.search(self.weights).run(table.payoff_size)
        if plan:
            (action, self._expect), self._plan = plan[0], plan[1:]
            if action in legal:
                return action
        self._plan, self._expect = [], None
        action = table.rule_discard()
        if action in legal:
            return action
        return legal[-1]  # not reached: every held card may be discarded


BOTS = {"rule": SpiteAndMaliceRuleBot}


# ----------------------------------------------------------------------------- search hooks
# The ismcts bot plays Spite & Malice by Monte Carlo over whole-turn plans (see the module
# docstring). Everything below that reads a full state reads a determinization sampled
# from the bot's observation, never the true state.
def fast_policy(state: SpiteAndMaliceState, seat: Seat, rng: random.Random) -> Action:
    """One action of the rule bot's plan from a full state (for generic tree search)."""
    table = table_from_state(state, seat)
    path = table.search(RULE_WEIGHTS, PLAYOUT_NODES).run(table.payoff_size)
    return path[0][0] if path else table.rule_discard()


#: Playouts per decision by level (the ismcts bot's ``iterations``).
PLAYOUTS = {"easy": 48, "normal": 160, "hard": 500}
#: At most how many build plans, and how many discards, a decision compares, by level.
WIDTH = {"easy": (6, 4), "normal": (10, 6), "hard": (10, 6)}
#: Turns played out after a candidate (the opponent's, then the bot's own next one).
HORIZON = 2
#: Build plans scoring this far below the rule bot's best are not considered.
PLAN_GAP = 400.0
#: How much the rule bot's own score (per 1000) counts beside the playouts.
PRIOR = 0.2
#: The fewest determinizations evaluated before the time cap may stop the search.
MIN_SAMPLES = 2
#: Standard errors of paired advantage a challenger needs to overrule the rule bot.
CONFIDENCE = 1.5

@dataclass
class _Candidate:
    """A way to go on: actions to play, then ``finish`` ("discard": the rule bot's discard;
    "turn": the rest of the turn as the rule bot plays it; "": nothing, the turn is over)."""

    actions: list[Action]
    finish: str
    prior: float


@dataclass
class _Memory:
    """The plan being played: the remaining steps, the table expected before the next
    one, and whether the turn ends with a discard after the last step."""

    steps: list[tuple[Action, Sig]]
    expect: Sig | None = None
    then_discard: bool = False


def _playout(state: SpiteAndMaliceState, me: Seat, cand: _Candidate, horizon: int) -> float:
    start = state.round
    for action in cand.actions:
        state.apply(action, me)
        if state.round != start or state.phase == OVER:
            break
    else:
        if cand.finish == "discard":
            state.apply(table_from_state(state, me).rule_discard(), me)
        elif cand.finish == "turn":
            rule_turn(state, me)
    for _ in range(horizon):
        if state.round != start or state.phase == OVER:
            break
        rule_turn(state, state.turn)
    lead = float(state.scores[me] - state.scores[1 - me])
    if state.round == start and state.phase != OVER:
        lead += leaf_value(state, me)
    return lead


def _evaluate(obs: Observation, rng: random.Random, cands: list[_Candidate], budget: int,
              out_of_time: Callable[[], bool]) -> list[float]:
    """The value of each candidate: its mean playout result plus the rule bot's prior.

    The first candidate is the rule bot's own choice. Successive halving: every candidate
    still in the race is played out on the same determinizations (common random numbers:
    candidates are compared on identical hidden cards), then the worse half of the others
    drops out, until one challenger is left or ``budget`` playouts are spent. A dropped
    candidate keeps the mean it had, capped below the finalists. A challenger beats the
    rule bot's choice only if its paired advantage is clear (:data:`CONFIDENCE` standard
    errors); otherwise the rule bot's choice is valued highest."""
    n = len(cands)
    results: list[list[float]] = [[] for _ in range(n)]
    alive = list(range(1, n))
    stages = max(1, math.ceil(math.log2(n)))
    done = 0
    for stage in range(stages):
        per = max(1, budget // ((len(alive) + 1) * stages))
        for _ in range(per):
            if done >= MIN_SAMPLES and out_of_time():
                break
            base = obs.sample(rng)
            assert isinstance(base, SpiteAndMaliceState)
            for i in (0, *alive):
                results[i].append(_playout(base.clone(), obs.seat, cands[i], HORIZON))
            done += 1
        if stage < stages - 1 and len(alive) > 1:
            alive.sort(key=lambda i: -(_mean(results[i]) + cands[i].prior))
            alive = alive[:(len(alive) + 1) // 2]
    values = [_mean(r) + c.prior for r, c in zip(results, cands, strict=True)]
    floor = min(values[i] for i in (0, *alive))
    values = [v if i == 0 or i in alive else min(v, floor - 1e-3) for i, v in enumerate(values)]
    best = max(range(n), key=lambda i: values[i])
    if best != 0:
        base_runs = results[0]
        diffs = [x - base_runs[k] for k, x in enumerate(results[best])]
        if len(diffs) < 2 or values[best] - values[0] <= CONFIDENCE * _stderr(diffs):
            values[0] = values[best] + 1e-6
    return values


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else -math.inf


def _stderr(xs: list[float]) -> float:
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))


def _discard_candidates(table: Table, limit: int) -> list[tuple[Action, _Candidate]]:
    """The distinct discards (equal values onto equal piles are one), best by the rule
    bot's order first."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    out: list[tuple[Action, _Candidate]] = []
    for score, slot, pile in table.discards():
        key = (table.hand[slot], tuple(table.side[pile]))
        if key in seen:
            continue
        seen.add(key)
        action = hand_to_side(slot, pile)
        out.append((action, _Candidate([action], "", PRIOR * score / 100.0)))
        if len(out) == limit:
            break
    return out


def plan_values(obs: Observation, rng: random.Random, level: str,
                bot: Any = None) -> dict[Action, float] | None:
    """Values of the legal actions by Monte Carlo over whole-turn plans (see the module
    docstring). The plan chosen is remembered in ``bot.memory`` and played out step by
    step while the table is as expected."""
    me = obs.seat
    table = table_from_view(obs.view, me)
    playouts = getattr(bot, "iterations", PLAYOUTS.get(level, PLAYOUTS["normal"]))
    max_plans, max_discards = WIDTH.get(level, WIDTH["normal"])
    out_of_time = stopwatch(getattr(bot, "time_cap", None))
    if bot is not None:
        memory = bot.memory.setdefault("plan", _Memory([]))
    else:
        memory = _Memory([])
    sig = table.sig
    legal = obs.legal
    if memory.expect == sig:
        if memory.steps:
            action, memory.expect = memory.steps.pop(0)
            if action in legal:
                return {action: 1.0}
        elif memory.then_discard:
            memory.expect = None
            return _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
    memory.steps, memory.expect = [], None
    plans = table.search(RULE_WEIGHTS).candidates(table.payoff_size)
    if plans:
        # The rule bot's verdict stands where it is clear: plans far below its best are
        # dropped, and when the payoff top can be played, only plans that play it remain.
        first = plans[0]
        plans = [p for p in plans if p.score >= first.score - PLAN_GAP
                 and (p.ending == PAYOFF or first.ending != PAYOFF)][:max_plans]
    if not plans:
        return _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
    if len(plans) == 1:
        worth = [0.0]
    else:
        cands = [_Candidate([a for a, _ in p.path], "discard" if p.ending == STOP else "turn",
                            PRIOR * p.score / 1000.0) for p in plans]
        worth = _evaluate(obs, rng, cands, playouts, out_of_time)
    best = max(range(len(plans)), key=lambda i: worth[i])
    values: dict[Action, float] = {}
    for plan, w in zip(plans, worth, strict=True):
        if plan.path:
            opening = plan.path[0][0]
            values[opening] = max(values.get(opening, -math.inf), w)
    chosen = plans[best]
    if not chosen.path:
        discards = _discard_values(obs, rng, table, playouts, max_discards, out_of_time)
        top = max(discards.values())
        values.update({a: v - top + worth[best] + 1e-6 for a, v in discards.items()})
        return values
    (action, memory.expect), memory.steps = chosen.path[0], chosen.path[1:]
    memory.then_discard = chosen.ending == STOP
    values[action] = worth[best] + 1e-6
    return values


def _discard_values(obs: Observation, rng: random.Random, table: Table, playouts: int,
                    limit: int, out_of_time: Callable[[], bool]) -> dict[Action, float]:
    options = _discard_candidates(table, limit)
    if len(options) == 1:
        return {options[0][0]: 0.0}
    worth = _evaluate(obs, rng, [c for _, c in options], playouts, out_of_time)
    return {action: w for (action, _), w in zip(options, worth, strict=True)}


def value(state: SpiteAndMaliceState, seat: Seat) -> float:
    """For search that stops early (its ``value`` hook): the result once the match is
    over, else a logistic curve of the match-score lead plus half the lead in payoff cards
    still to play (a round's winner scores the loser's)."""
    if state.outcome is not None:
        return state.reward(seat)
    other = 1 - seat
    return _chance(state.scores[seat] - state.scores[other]
                   + 0.5 * (len(state.payoff[other]) - len(state.payoff[seat])))


def _chance(lead: float) -> float:
    """The chance to win the match of a seat ``lead`` points ahead, counting the round."""
    return 1.0 / (1.0 + math.exp(-lead / 10.0))


def turn_playout(state: SpiteAndMaliceState, me: Seat, rng: random.Random) -> float:
    """The search's playout by whole turns (its ``playout`` hook, used by the paired search
    of a post-game review, which values every legal action): the rest of the turn under
    way, then the next :data:`HORIZON` turns, each as the rule bot plays it
    (:func:`rule_turn`); then the chance to win the match, as :func:`value` with the
    round's points margin estimated by :func:`leaf_value` (or counted, if the round
    ended). Deterministic given the state (the rule bot draws no random numbers)."""
    start = state.round
    if state.phase != OVER and state.turn == me:
        rule_turn(state, me)
    for _ in range(HORIZON):
        if state.round != start or state.phase == OVER:
            break
        rule_turn(state, state.turn)
    if state.outcome is not None:
        return state.reward(me)
    lead = float(state.scores[me] - state.scores[1 - me])
    if state.round == start:
        lead += leaf_value(state, me)
    return _chance(lead)


#: A review's playouts per decision: what they were before the levels moved up one (twice
#: the old hard's 160), the budget its marks and its puzzles were measured with.
REVIEW_PLAYOUTS = 320

SEARCH = SearchHooks(values=plan_values, levels=PLAYOUTS, value=value,
                     review_iterations=REVIEW_PLAYOUTS,
                     values_unit=N_("expected points margin of the round, by playouts of "
                                    "the next turns"),
                     policy=fast_policy, playout=turn_playout)
