"""Hit the Deck bots. ``rule`` is a hand-written player that reads only its seat's view.

The rule bot, decision by decision:

* **Slap**: a human-like reaction time, drawn from the bot's own seeded generator: 150 ms
  plus a log-normal part (median 250 ms, sigma 0.25), so a median near 400 ms and nine slaps
  in ten between about 310 and 530 ms; the bot sends the slap action of that 10 ms bucket.
* **Cut the deck / swap the piles**: the only legal action.
* **Defence**: when the next player holds two cards or fewer, play a Cut the Deck (they lose
  their turn cutting) or a Flip the Deck (they lose their turn swapping, and play turns away
  from them) if one is legal.
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
  obligation is on the pile (then keep it for later).
"""

from __future__ import annotations

import math
import random

from parlour.bots.base import Bot, Observation
from parlour.engine import Action
from parlour.games.hit_the_deck import (
    CUT_BASE,
    HAND,
    HAND_SHOUT,
    HIT_COLOUR_BASE,
    HIT_NUMBER_BASE,
    PASS,
    SLAP_BASE,
    VALUE,
    colour_of,
    number_of,
    slap_action,
)
from parlour.games.hit_the_deck import GAME as HTD

_FROM_TEXT = {HTD.action_text(k): k for k in range(HAND + 1)}


def reaction_ms(rng: random.Random) -> float:
    """A human-like slap time in milliseconds (see the module docstring)."""
    return 150.0 + rng.lognormvariate(math.log(250.0), 0.25)


class HitTheDeckRuleBot(Bot):
    """Sheds high cards, keeps Hit the Deck cards, defends against a player about to go
    out, always shouts, slaps like a person."""

    kind = "rule"

    def act(self, obs: Observation) -> Action:
        legal = obs.legal
        view = obs.view
        if legal[0] >= SLAP_BASE:
            return slap_action(reaction_ms(self.rng))
        if len(legal) == 1:
            return legal[0]
        hand = [_FROM_TEXT[t] for t in view["hand"]]
        plays = [a for a in legal if a <= HAND]  # HAND_SHOUT is chosen in place of HAND
        if view["phase"] == "drawn":
            card = plays[0] if plays else None
            if card is None:
                return PASS
            if card >= HIT_NUMBER_BASE and view["obligation"] in (None, "any"):
                return PASS
            return _shouted(card)
        n = view["seats"]
        step = 1 if view["direction"] == "left" else -1
        nxt = (obs.seat + step) % n
        if view["hand_sizes"][nxt] <= 2:
            for card in plays:
                if CUT_BASE <= card < HIT_NUMBER_BASE:
                    return card
        plain = [c for c in plays if c < HIT_NUMBER_BASE]
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


BOTS = {"rule": HitTheDeckRuleBot}
