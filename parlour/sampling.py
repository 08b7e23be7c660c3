"""Dealing unseen cards for ``determinize``: random, but consistent with what is known.

Search bots ask a state for a *determinization*: the cards a seat has not seen, redealt to
the hands that hide them. Hand sizes are public, and play may have shown that a seat holds
no card of some kind (it failed to follow suit). :func:`deal_unknown` deals a pool of cards
into hands of given sizes so that every card lands with a seat allowed to hold it.

The deal is uniform when nothing is ruled out; with constraints it is drawn by weighting
each seat by the room left in its hand (close to uniform, and always valid: a bipartite
matching repairs the rare dead end).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from parlour.engine import shuffle

MayHold = Callable[[int, int], bool]


def deal_unknown(pool: Sequence[int], sizes: Sequence[int], rng: random.Random,
                 may_hold: MayHold | None = None) -> list[list[int]]:
    """Split ``pool`` into hands of ``sizes`` (one per seat) at random.

    ``may_hold(seat, card)`` rules cards out of hands; raise ``ValueError`` if no deal
    satisfies it (which means the caller's knowledge is inconsistent).
    """
    if sum(sizes) != len(pool):
        raise ValueError(f"cannot deal {len(pool)} cards into hands of {list(sizes)}")
    cards = list(pool)
    shuffle(cards, rng)
    if may_hold is None:
        hands, start = [], 0
        for n in sizes:
            hands.append(cards[start:start + n])
            start += n
        return hands
    seats = [s for s, n in enumerate(sizes) if n]
    options = {c: [s for s in seats if may_hold(s, c)] for c in cards}
    for _ in range(20):
        dealt = _greedy(cards, sizes, options, rng)
        if dealt is not None:
            return dealt
    return _matching(cards, sizes, options, rng)


def deal_by_kind(pool: Sequence[int], sizes: Sequence[int], rng: random.Random,
                 kind_of: Callable[[int], int], allowed: Sequence[int]) -> list[list[int]]:
    """:func:`deal_unknown` where a seat may hold a card according to its *kind* only
    (Spades: its suit): ``allowed[seat]`` is a bit mask of kinds. Much faster when most
    cards share a few kinds, which is the case in every trick-taking game."""
    seats = [s for s, n in enumerate(sizes) if n]
    if all(allowed[s] == allowed[seats[0]] for s in seats):
        return deal_unknown(pool, sizes, rng)
    by_kind: dict[int, list[int]] = {}
    for card in pool:
        kind = kind_of(card)
        if kind not in by_kind:
            by_kind[kind] = [s for s in seats if allowed[s] >> kind & 1]
    options = {c: by_kind[kind_of(c)] for c in pool}
    cards = list(pool)
    shuffle(cards, rng)
    for _ in range(20):
        hands = _greedy(cards, sizes, options, rng)
        if hands is not None:
            return hands
    return _matching(cards, sizes, options, rng)


def _greedy(cards: list[int], sizes: Sequence[int], options: dict[int, list[int]],
            rng: random.Random) -> list[list[int]] | None:
    room = list(sizes)
    hands: list[list[int]] = [[] for _ in sizes]
    # Most constrained cards first, so that they still find room.
    for card in sorted(cards, key=lambda c: len(options[c])):
        choices = [s for s in options[card] if room[s]]
        if not choices:
            return None
        weights = [room[s] for s in choices]
        seat = rng.choices(choices, weights)[0] if len(choices) > 1 else choices[0]
        hands[seat].append(card)
        room[seat] -= 1
    return hands


def _matching(cards: list[int], sizes: Sequence[int], options: dict[int, list[int]],
              rng: random.Random) -> list[list[int]]:
    """Kuhn's augmenting paths over (card, hand slot): finds a deal whenever one exists."""
    slots = [s for s, n in enumerate(sizes) for _ in range(n)]
    slot_of_card: dict[int, int] = {}
    card_in_slot: dict[int, int] = {}

    def place(card: int, seen: set[int]) -> bool:
        candidates = [i for i, s in enumerate(slots) if s in options[card]]
        shuffle(candidates, rng)
        for i in candidates:
            if i in seen:
                continue
            seen.add(i)
            if i not in card_in_slot or place(card_in_slot[i], seen):
                card_in_slot[i] = card
                slot_of_card[card] = i
                return True
        return False

    for card in cards:
        if not place(card, set()):
            raise ValueError("no deal of the unseen cards fits what is known")
    hands: list[list[int]] = [[] for _ in sizes]
    for i, card in card_in_slot.items():
        hands[slots[i]].append(card)
    return hands
