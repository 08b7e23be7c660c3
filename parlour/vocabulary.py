"""Every word the games pass as a :class:`~parlour.message.Term`, written out literally so
that ``pybabel extract`` finds each one (a term built at run time from a table, such as
``Term("suit", SUIT_NAMES[s])``, is invisible to extraction): the cards' words here, and
each game's own (its name, its colours, its timed phases) in its spec's ``vocabulary``. A
test checks that every term met in random games is listed (:func:`every_term`)."""

from __future__ import annotations

from parlour.message import Term

SUITS = (Term("suit", "clubs"), Term("suit", "diamonds"), Term("suit", "hearts"),
         Term("suit", "spades"))
RANKS = (Term("rank", "two"), Term("rank", "three"), Term("rank", "four"),
         Term("rank", "five"), Term("rank", "six"), Term("rank", "seven"),
         Term("rank", "eight"), Term("rank", "nine"), Term("rank", "ten"),
         Term("rank", "jack"), Term("rank", "queen"), Term("rank", "king"),
         Term("rank", "ace"))
SEATS = (Term("seat", "South"), Term("seat", "West"), Term("seat", "North"),
         Term("seat", "East"), Term("seat", "player"))
CARDS = (Term("card", "joker"),)

#: The words every game's cards and seats use.
SHARED: frozenset[Term] = frozenset((*SUITS, *RANKS, *SEATS, *CARDS))


def every_term() -> frozenset[Term]:
    """The shared words and every registered game's own."""
    from parlour.registry import game_ids, spec

    return SHARED.union(*(spec(g).vocabulary for g in game_ids()))
