"""Standard playing cards as small integers, and their text notation.

A card is ``suit * 13 + rank`` with suits ordered clubs, diamonds, hearts, spades
(``C D H S``) and ranks ordered two up to ace (``2 .. 10 J Q K A``). So within a suit a
higher integer is a higher card (ace high), ``card // 13`` is the suit, and a set of cards
fits in one Python int as a bit mask (bit ``card`` set), which is what the hot paths use.

Notation is rank then suit: ``AS 10H QD 2C``. Parsing accepts ``T`` for ten and any case;
output always uses ``10``.

>>> parse_card("qs"), card_text(parse_card("TH"))
(49, '10H')
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable
from typing import Any, Final

Card = int

SUITS: Final = "CDHS"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = ("\u2663", "\u2666", "\u2665", "\u2660")
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

DECK: Final[tuple[Card, ...]] = tuple(range(52))
FULL_MASK: Final = (1 << 52) - 1
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
_FIRST_SPADE: Final = 13 * SPADES

_TEXT: Final = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
_BY_TEXT: Final = {t: c for c, t in enumerate(_TEXT)}
_RANK_INPUT: Final = {r: i for i, r in enumerate(RANKS)} | {"T": TEN}


# The card predicates: every rule that asks what a card is asks one of these.
def suit_of(card: Card) -> int:
    """0 to 3 for clubs, diamonds, hearts, spades."""
    return card // 13


def rank_of(card: Card) -> int:
    """0 for a two up to 12 for an ace."""
    return card % 13


def is_spade(card: Card) -> bool:
    """Spades are the last suit, so every spade is above every other card."""
    return card >= _FIRST_SPADE


def same_suit(a: Card, b: Card) -> bool:
    return a // 13 == b // 13


def is_rank(card: Card, rank: int) -> bool:
    """``is_rank(card, KING)``: the card is a king (of any suit)."""
    return card % 13 == rank


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank


def card_text(card: Card) -> str:
    """``QS``, ``10H``."""
    return _TEXT[card]


def parse_rank(text: str) -> int:
    rank = _RANK_INPUT.get(text.strip().upper())
    if rank is None:
        raise ValueError(f"unknown rank {text!r}: expected one of 2-10, J, Q, K, A (or T)")
    return rank


def parse_suit(text: str) -> int:
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    if t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    names = {n.upper(): i for i, n in enumerate(SUIT_NAMES)}
    if t in names:
        return names[t]
    raise ValueError(f"unknown suit {text!r}: expected C, D, H or S")


def parse_card(text: str) -> Card:
    """Parse ``QS``, ``10h``, ``th``, ``Q\u2660``; a clear ``ValueError`` otherwise."""
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    t = text.strip()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (expected rank then suit, like QS or 10H)")
    try:
        return make_card(parse_rank(t[:-1]), parse_suit(t[-1]))
    except ValueError as err:
        raise ValueError(f"not a card: {text!r} ({err})") from None


def parse_cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.replace(",", " ").split()]


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards in a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# A mask's cards come by table: each suit's 13-bit slice indexes a table of the tuples of
# that suit's cards, so the trick games' legal cards cost a lookup or four, not a loop.
def _suit_table(suit: int) -> list[tuple[Card, ...]]:
    table: list[tuple[Card, ...]] = [()] * 8192
    for bits in range(1, 8192):
        top = bits.bit_length() - 1
        table[bits] = table[bits ^ (1 << top)] + (13 * suit + top,)
    return table


_C0: Final = _suit_table(0)
_C1: Final = _suit_table(1)
_C2: Final = _suit_table(2)
_C3: Final = _suit_table(3)
_SUIT_CARDS: Final = (_C0, _C1, _C2, _C3)


def cards_in(mask: int) -> tuple[Card, ...]:
    """The cards in a bit mask as a tuple, lowest first (the same tuples every time)."""
    return (_C0[mask & 0x1FFF] + _C1[mask >> 13 & 0x1FFF] + _C2[mask >> 26 & 0x1FFF]
            + _C3[mask >> 39])


def suit_cards_in(mask: int, suit: int) -> tuple[Card, ...]:
    """The cards of ``suit`` in a bit mask as a tuple, lowest first: one lookup (the very
    tuple of the table, when the mask holds that suit only)."""
    return _SUIT_CARDS[suit][mask >> 13 * suit & 0x1FFF]


#: The suits in a hand as a player sees it (:func:`sort_hand`): alternating colours.
_SHOWN_SUITS: Final = (SPADES, HEARTS, CLUBS, DIAMONDS)
#: Each card's place in such a hand: by its suit's place, high first in each.
_HAND_PLACE: Final = tuple(13 * _SHOWN_SUITS.index(suit_of(c)) + 12 - rank_of(c)
                           for c in DECK)


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """Suits grouped (spades, hearts, clubs, diamonds: alternating colours), high first."""
    return sorted(cards, key=_HAND_PLACE.__getitem__)


def hand_of(mask: int) -> list[Card]:
    """The cards of a bit mask in :func:`sort_hand`'s order (a view's hand): each suit's
    cards from its table, high first, the suits in the shown order; some thirty times
    cheaper than sorting."""
    out: list[Card] = []
    for suit in _SHOWN_SUITS:
        cards = _SUIT_CARDS[suit][mask >> 13 * suit & 0x1FFF]
        for i in range(len(cards) - 1, -1, -1):
            out.append(cards[i])
    return out


#: Whether this module runs compiled (the compiled build's modules are shared libraries):
#: where the fastest way differs between the builds, the code may say so, the results the
#: same (``tests/test_same_results.py``).
COMPILED: Final = not __file__.endswith(".py")
#: Each number of keys' unpacking of a digest into 32-bit little-endian numbers.
_UNPACK: Final[dict[int, Callable[[bytes], tuple[Any, ...]]]] = {}


def digest_keys(digest: bytes) -> tuple[int, ...]:
    """A digest's bytes as 32-bit little-endian numbers, in one C call (the pure build's
    way to :func:`keyed_order`'s keys)."""
    n = len(digest) // 4
    unpack = _UNPACK.get(n)
    if unpack is None:
        unpack = _UNPACK[n] = struct.Struct(f"<{n}I").unpack
    return unpack(digest)


def keyed_order(key: bytes, cards: list[int] | None = None) -> list[int]:
    """``cards`` (each below 64: a game's kinds; by default the 52 cards of a deck) in a
    uniform random order keyed by ``key`` (:func:`keyed_packed`). Several times cheaper
    than seeding a Mersenne Twister for every shuffle; the deals of Spades and Cangkul and
    every shuffle of Hit the Deck are made so."""
    return [int(packed) & 63 for packed in keyed_packed(key, cards)]


def keyed_packed(key: bytes, cards: list[int] | None = None) -> list[float]:
    """:func:`keyed_order`'s sort, before the cards are taken out: ``cards`` (by default the
    deck's 52, 0 to 51) sorted by 32-bit keys, card ``i``'s being bytes ``4i`` to ``4i + 3``
    of SHAKE-128 of ``key`` read as a little-endian number, a tie in the cards' order, each
    key and its card packed into one float, ``key << 6 | card`` (exact, being under 2**38),
    which the sort compares several times faster than ints this wide. The card is
    ``int(packed) & 63``; a caller that deals the cards straight into hands (Spades) takes
    them out itself."""
    n = 52 if cards is None else len(cards)
    digest = hashlib.shake_128(key).digest(4 * n)
    packed = [0.0] * n  # (filled by index and sorted in place: no appends, no copy)
    if COMPILED:  # the bytes one by one: compiled, that makes no int object for a key
        for i in range(n):
            packed[i] = float((digest[4 * i] | digest[4 * i + 1] << 8 | digest[4 * i + 2] << 16
                               | digest[4 * i + 3] << 24) << 6
                              | (i if cards is None else cards[i]))
    else:  # one C call: interpreted, the bytes one by one took 1.6 times as long
        keys = digest_keys(digest)
        for i in range(n):
            packed[i] = float(keys[i] << 6 | (i if cards is None else cards[i]))
    packed.sort()
    return packed
