"""Hit the Deck bots. ``rule`` is a hand-written player that reads only its seat's view.

The rule bot, decision by decision:

* **Slap**: a human reaction time, drawn from the bot's own seeded generator: an
  ex-Gaussian (a normal part plus an exponential tail) with the parameters Heathcote (1996)
  estimated from his published reaction-time sample, mu 487.8 ms, sigma 32.0 ms, tau 81.7 ms
  (:data:`SLAP_REACTION`; source and measured figures in docs/bots.md). The table's
  ``bot_slap`` option scales the whole distribution: relaxed 1.2x, normal 1x, quick 0.85x
  (:data:`SLAP_PACE`). The bot sends the slap action of that 10 ms bucket.
* **Cut the deck / swap the piles**: the only legal action.
* **Defence**: when the next player holds two cards or fewer, play a Cut the Deck (they lose
  their turn cutting) or a Flip the Deck (they lose their turn swapping, and play turns away
  from them) if one is legal, but not a Flip that would be the second in a row (it only
  goes back into the draw pile).
* **A Flip that would go back** (the second in a row, the view's ``last_flip``) does nothing
  but hand the card to whoever draws next: it is played only when no other card but a Hit
  the Deck card fits, and a drawn one is kept. So the bots never pass one Flip back and
  forth through an otherwise empty draw pile (under the first reading of the rule, which
  old records keep, that went on until the round's safety stop).
* **Shedding**: otherwise play the legal card worth the most points (Cut and Flip 10, then
  numbers 5 down to 1), keeping Hit the Deck cards back; among equal values, the card whose
  colour the bot holds most of (so it keeps a colour it can follow). Once the next player is
  down to four cards, the bot (while it holds more than two) keeps its last Cut or Flip in
  reserve for the defence above, playing another card if one fits.
* **Hit the Deck cards** are played only when no other card is legal (they fit anything, so
  they answer obligations), or as the last card to go out. Then: a With a Number or With a
  Colour that names what the bot holds most of (so it can answer if the obligation comes
  back round), and With a Hand last (it frees the next player). The bot always shouts.
* **After drawing**: play the drawn card if it fits, unless it is a Hit the Deck card and no
  obligation is on the pile, or a Flip that would go back (then keep it for later).

The ``ismcts`` bot (the generic searcher, ``parlour.bots.ismcts``) plays Hit the Deck
through the hooks in :data:`SEARCH`:

* **Its own slap is not searched**: the ``values`` hook answers it with a reaction time drawn
  exactly as the rule bot draws one (:func:`reaction_ms`, from the bot's seeded generator),
  so it never slaps faster than a person. It also settles a With a Hand whose only
  alternative is playing it without the shout, and, under the first reading of two Flips
  in a row (``flips_in_a_row`` chain), keeps a drawn Flip that would go back (played, it
  feeds the loop the rules page tells of).
* **Slaps inside the search**: ``candidates`` collapses the 300 reaction-time actions to one
  (:data:`MODEL_SLAP`) for every seat, so the slap ties and the slowest is drawn by lot from
  the determinization's seed: the model of equally quick players. It also drops the silent
  With a Hand (four cards for nothing).
* **Paired playouts, not a tree** (``paired``): every candidate move is played out from the
  same determinizations (the observation's ``sample``: unseen cards redealt, keeping what
  each draw revealed, see the rules page) with :func:`fast_policy`, the rule bot's choices
  read off the full state, for every seat, to the end of the round (:func:`play_out`; at
  most :data:`PLAYOUT_LIMIT` actions). A move's value is the mean of
  the bot module's ``standing``: the chance of winning the game from the totals the round
  leaves (a table worked out backwards from the target, so points near 100 weigh more). The
  luck of the draw is large and moves differ by little; on common samples the differences
  show with a few hundred playouts, where a tree (which gives each move its own samples)
  measured no better than the rule bot at the same cost. Moves clearly behind the leader are
  dropped as the samples come in.
* **Budgets** (:data:`LEVELS`, playouts per move): easy 300, normal 2000, hard 8000, under
  a time cap only where whoever runs the bot sets one (``Bot.time_cap``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from operator import mul
from typing import Any

from parlour.bots.base import Bot, Observation
from parlour.bots.ismcts import SearchHooks
from parlour.engine import Action, Seat
from parlour.games.hit_the_deck.rules import (
    BOT_SLAP_PACES,
    CUT_BASE,
    DRAWN,
    FLIP_BASE,
    HAND,
    HAND_SHOUT,
    HIT_COLOUR_BASE,
    HIT_NUMBER_BASE,
    NUM_KINDS,
    PASS,
    SLAP_BASE,
    VALUE,
    HitTheDeckState,
    colour_of,
    number_of,
    slap_action,
)
from parlour.games.hit_the_deck.rules import GAME as HTD
from parlour.message import N_

_FROM_TEXT = {HTD.action_text(k): k for k in range(HAND + 1)}


@dataclass(frozen=True)
class ExGaussian:
    """A reaction-time distribution: a normal part (``mu``, ``sigma``) plus an exponential
    tail of mean ``tau``, in milliseconds."""

    mu: float
    sigma: float
    tau: float

    def draw(self, rng: random.Random, scale: float = 1.0) -> float:
        return max(0.0, scale * (rng.normalvariate(self.mu, self.sigma)
                                 + rng.expovariate(1.0 / self.tau)))


#: Heathcote (1996), RTSYS, Behavior Research Methods, Instruments, & Computers 28(3),
#: 427-445: the method-of-moments ex-Gaussian estimate of its example reaction times.
SLAP_REACTION = ExGaussian(mu=487.8, sigma=32.0, tau=81.7)
#: The ``bot_slap`` table setting: how the whole distribution is scaled.
SLAP_PACE = {"relaxed": 1.2, "normal": 1.0, "quick": 0.85}
assert tuple(SLAP_PACE) == BOT_SLAP_PACES


def reaction_ms(rng: random.Random, pace: str = "normal") -> float:
    """A human slap time in milliseconds at the table's pace (see the module docstring)."""
    return SLAP_REACTION.draw(rng, SLAP_PACE[pace])


def pace_of(obs: Observation) -> str:
    """The table's ``bot_slap`` setting, read from the seat's view."""
    pace = obs.view.get("options", {}).get("bot_slap", "normal")
    return pace if pace in SLAP_PACE else "normal"


class HitTheDeckRuleBot(Bot):
    """Sheds high cards, keeps Hit the Deck cards, defends against a player about to go
    out, always shouts, slaps like a person."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        view = obs.view
        if legal[0] >= SLAP_BASE:
            return slap_action(reaction_ms(self.rng, pace_of(obs)))
        if len(legal) == 1:
            return legal[0]
        hand = [_FROM_TEXT[t] for t in view["hand"]]
        plays = [a for a in legal if a <= HAND]  # HAND_SHOUT is chosen in place of HAND
        flips_back = view["last_flip"]  # a Flip played now goes back into the draw pile
        if view["phase"] == "drawn":
            card = plays[0] if plays else None
            if card is None:
                return PASS
            if card >= HIT_NUMBER_BASE and view["obligation"] in (None, "any"):
                return PASS
            if flips_back and _is_flip(card):
                return PASS
            return _shouted(card)
        n = view["seats"]
        step = 1 if view["direction"] == "left" else -1
        nxt = (obs.seat + step) % n
        if view["hand_sizes"][nxt] <= 2:
            for card in plays:
                if CUT_BASE <= card < HIT_NUMBER_BASE and not (flips_back and _is_flip(card)):
                    return card
        plain = [c for c in plays if c < HIT_NUMBER_BASE]
        if flips_back:
            plain = [c for c in plain if not _is_flip(c)] or plain
        commands = [c for c in hand if CUT_BASE <= c < HIT_NUMBER_BASE]
        if len(commands) == 1 and len(hand) > 2 and view["hand_sizes"][nxt] <= 4:
            # the next player is getting close: keep the last Cut or Flip in reserve
            plain = [c for c in plain if c not in commands] or plain
        if plain:
            colours = [0, 0, 0, 0]
            for c in hand:
                if colour_of(c) >= 0:
                    colours[colour_of(c)] += 1
            return max(plain, key=lambda c: (VALUE[c], colours[colour_of(c)], -c))
        return _shouted(max(plays, key=lambda c: self._hit_score(c, hand)))

    def _hit_score(self, card: int, hand: list[int]) -> tuple[int, int]:
        """How much the bot likes to play this Hit the Deck card: the cards it holds that
        would answer the obligation it sets (With a Hand last)."""
        if card == HAND:
            return (0, 0)
        if card < HIT_COLOUR_BASE:
            wanted = card - HIT_NUMBER_BASE + 1
            return (1, sum(1 for c in hand if c < CUT_BASE and number_of(c) == wanted))
        colour = card - HIT_COLOUR_BASE
        return (1, sum(1 for c in hand if colour_of(c) == colour))


def _shouted(card: int) -> Action:
    return HAND_SHOUT if card == HAND else card


def _is_flip(card: int) -> bool:
    return FLIP_BASE <= card < HIT_NUMBER_BASE


BOTS = {"rule": HitTheDeckRuleBot}


# ----------------------------------------------------------------------------- search
#: Inside the search every seat slaps in the same 10 ms bucket, so the slowest is drawn by
#: lot (from the determinization's seed): the model of equally quick players.
MODEL_SLAP = slap_action(400.0)
_MODEL_SLAPS = (MODEL_SLAP,)
_COLOUR_KINDS = tuple(tuple(k for k in range(NUM_KINDS) if colour_of(k) == c) for c in range(4))
_COLOUR_OF = tuple(colour_of(k) for k in range(NUM_KINDS))
_NUMBER_CARDS = tuple(tuple(k for k in range(CUT_BASE) if number_of(k) == n)
                      for n in range(6))


def fast_policy(state: HitTheDeckState, seat: Seat, rng: random.Random) -> Action:
    """The rule bot's choices, read straight off a full (determinized) state: cheap enough
    for rollouts. Slaps are the model slap (every seat equally quick)."""
    legal = state.legal_actions(seat)
    first = legal[0]
    if len(legal) == 1:
        return first
    if first >= SLAP_BASE:
        return MODEL_SLAP
    flips_back = state.last_flip
    if state.phase == DRAWN:  # (drawn card, pass) or (hand, hand!, pass)
        if first >= HIT_NUMBER_BASE and not HIT_NUMBER_BASE <= state.top < HAND:
            return PASS  # keep a drawn Hit the Deck card unless an obligation calls for it
        if flips_back and FLIP_BASE <= first < HIT_NUMBER_BASE:
            return PASS  # keep a Flip that would only go back into the draw pile
        return HAND_SHOUT if first == HAND else first
    sizes = state.sizes
    nxt_size = sizes[(seat + state.direction) % state.num_seats]
    if nxt_size <= 2:
        for card in legal:
            if CUT_BASE <= card < HIT_NUMBER_BASE and not (flips_back and card >= FLIP_BASE):
                return card
    plain = [c for c in legal if c < HIT_NUMBER_BASE]
    counts = state.held(seat)
    if plain and flips_back:
        plain = [c for c in plain if not FLIP_BASE <= c < HIT_NUMBER_BASE] or plain
    if plain:
        if nxt_size <= 4 and sizes[seat] > 2 and sum(counts[CUT_BASE:HIT_NUMBER_BASE]) == 1:
            plain = [c for c in plain if c < CUT_BASE] or plain
        if len(plain) == 1:
            return plain[0]
        best_value = max(VALUE[c] for c in plain)
        tied = [c for c in plain if VALUE[c] == best_value]
        if len(tied) == 1:
            return tied[0]
        return max(tied, key=lambda c: (sum(counts[k] for k in _COLOUR_KINDS[_COLOUR_OF[c]]),
                                        -c))
    best, best_score = HAND_SHOUT, 0
    for card in legal:
        if card >= HAND:
            continue
        if card < HIT_COLOUR_BASE:
            score = 1 + sum(counts[k] for k in _NUMBER_CARDS[card - HIT_NUMBER_BASE + 1])
        else:
            score = 1 + sum(counts[k] for k in _COLOUR_KINDS[card - HIT_COLOUR_BASE])
        if score > best_score:
            best, best_score = card, score
    return best


def candidates(state: HitTheDeckState, seat: Seat, legal: Sequence[Action]
               ) -> Sequence[Action]:
    """What the tree tries: one model slap instead of 300 reaction times, and a With a
    Hand only with the shout (playing it silently costs four cards for nothing)."""
    if legal[0] >= SLAP_BASE:
        return _MODEL_SLAPS
    if HAND_SHOUT in legal:
        return tuple(a for a in legal if a != HAND)
    return legal


def outside_values(obs: Observation, rng: random.Random, level: str, bot: Any = None
                   ) -> dict[Action, float] | None:
    """Decisions settled without search: the bot's own slap is a human-like reaction time
    drawn exactly as the rule bot draws it, and a choice with one sensible move (a With a
    Hand, shouted or not) is that move. Under the first reading of two Flips in a row
    (``flips_in_a_row`` chain), a drawn Flip that would go back is kept: played, it would
    only go to whoever draws next, who could play it back the same way for ever. ``None``
    when the tree must decide."""
    legal = obs.legal
    if legal[0] >= SLAP_BASE:
        return {slap_action(reaction_ms(rng, pace_of(obs))): 1.0}
    view = obs.view
    if view["phase"] == "drawn" and view["last_flip"] and _is_flip(legal[0]) \
            and view["options"]["flips_in_a_row"] == "chain":
        return {PASS: 1.0}
    if HAND_SHOUT in legal:
        legal = tuple(a for a in legal if a != HAND)
        if len(legal) == 1:
            return {legal[0]: 1.0}
    return None


# ----------------------------------------------------------------------------- standing
# The estimates search judges an unfinished game by (the ``value`` hook, and play_out).

#: Points a player left holding cards scores in a round, on average, per card dealt: rule
#: bots leave about 12.5 points (7 cards dealt) with two seats and with four.
POINTS_PER_CARD_DEALT = 1.8


@cache
def standing_table(seats: int, target: int, mean: float) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that a player on total ``a`` ends the game ahead of one on
    total ``b`` (a tie counts half), both under ``target``, if every later round is a fair
    lottery: one seat goes out (each as likely) and every other seat scores points drawn from
    a geometric law of the given mean (cut at four times the mean). With more than two seats
    the pair may both score in a round; the game is taken to end when one of the pair
    reaches the target. Exact for two seats under that model; a pairwise judgement beyond.

    Worked backwards over the sum of the two totals (every round adds points), with the
    two-round sums for the case where both score kept as a second table."""
    cut = max(1, math.ceil(4 * mean))
    q = 1.0 - 1.0 / max(mean, 1.0)
    weights = [q ** (x - 1) for x in range(1, cut + 1)]
    total = sum(weights)
    law = [w / total for w in weights]  # law[x - 1]: the chance of scoring x
    size = target + cut
    # f[a][b] and its transpose ft[b][a]: ends (a total at the target or over) are settled.
    f = [[1.0 if a < b else 0.5 if a == b else 0.0 for b in range(size)] for a in range(size)]
    ft = [list(column) for column in zip(*f, strict=True)]
    alone, other = 1.0 / seats, (seats - 2) / seats
    both = [[0.0] * size for _ in range(target)]  # both[b][a]: sum over y of law * f[a][b+y]
    for s in range(size + target - 2, -1, -1):
        if other:
            for b in range(max(0, s - size + 1), min(target, s + 1)):
                a = s - b
                both[b][a] = sum(map(mul, law, f[a][b + 1:b + cut + 1]))
        for b in range(max(0, s - target + 1), min(target, s + 1)):
            a = s - b
            v = alone * (sum(map(mul, law, f[a][b + 1:b + cut + 1]))
                         + sum(map(mul, law, ft[b][a + 1:a + cut + 1])))
            if other:
                v += other * sum(map(mul, law, both[b][a + 1:a + cut + 1]))
            f[a][b] = ft[b][a] = v
    return tuple(tuple(f[a][:target]) for a in range(target))


def standing(state: HitTheDeckState, seat: Seat, totals: Sequence[int]) -> float:
    """How well ``seat`` stands with these totals after a round, from 0 to 1: the chance,
    by :func:`standing_table`, that it ends ahead of each other seat, averaged (as the
    reward counts the seats one beats); once a total reaches the target, the settled
    result."""
    n = state.num_seats
    target = state.options["target"]
    table = standing_table(n, target, POINTS_PER_CARD_DEALT * state.options["hand_size"])
    mine = totals[seat]
    if max(totals) < target:
        row = table[mine]
        return sum(row[totals[o]] for o in range(n) if o != seat) / (n - 1)
    return sum(1.0 if mine < t else 0.5 if mine == t else 0.0
               for o, t in enumerate(totals) if o != seat) / (n - 1)


def value(state: HitTheDeckState, seat: Seat) -> float:
    """For search that stops before the end: the reward once the game is over; else
    :func:`standing` of the totals. Between rounds the totals are judged as they stand; in
    the middle of a round, each seat is taken to go out first with a chance that halves
    with every card it holds, the others scoring the cards they hold now."""
    if state.outcome is not None:
        return state.reward(seat)
    scores = state.scores
    if not state.round_actions:
        return standing(state, seat, scores)
    n = state.num_seats
    points = [state.hand_points(s) for s in range(n)]
    chances = [0.5 ** size for size in state.sizes]
    total = 0.0
    for out in range(n):
        totals = [scores[s] + (0 if s == out else points[s]) for s in range(n)]
        total += chances[out] * standing(state, seat, totals)
    return total / sum(chances)


#: Actions a playout may take before :func:`value` judges the round unfinished. A
#: round between rule bots takes about 40 actions, and the longest of thousands stays
#: well under this (the rules page's bound): it is a guard, so that a playout on a table
#: with odd options (a deck of few cards but Flips) never runs to the ``max_turns`` stop.
PLAYOUT_LIMIT = 200


def play_out(state: HitTheDeckState, seat: Seat, rng: random.Random) -> float:
    """The round played on with :func:`fast_policy`; ``seat``'s value at its end. The
    play of a last card is judged before it is made (the totals are then known), which
    spares dealing the next round."""
    start = state.round
    last = start >= state.options["max_rounds"]
    policy = fast_policy
    for _ in range(PLAYOUT_LIMIT):
        to_act = state.to_act
        if not to_act or state.round != start:
            break
        acting = to_act[0]
        action = policy(state, acting, rng)
        if action <= HAND_SHOUT and state.sizes[acting] == 1 and not last:
            totals = [score if s == acting else score + state.hand_points(s)
                      for s, score in enumerate(state.scores)]
            return standing(state, seat, totals)
        state.apply(action, acting)
    return value(state, seat)


#: Playouts per move by level (see the module docstring).
LEVELS = {"easy": 300, "normal": 2000, "hard": 8000}

SEARCH = SearchHooks(policy=fast_policy, candidates=candidates, values=outside_values,
                     values_unit=N_("the only sensible move"), paired=True, playout=play_out,
                     value=value, levels=LEVELS)
