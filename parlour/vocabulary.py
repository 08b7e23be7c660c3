"""Every word the games pass as a :class:`~parlour.message.Term`, written out literally so
that ``pybabel extract`` finds each one (a term built at run time from a table, such as
``Term("suit", SUIT_NAMES[s])``, is invisible to extraction). A test checks that every term
met in random games is listed here."""

from __future__ import annotations

from parlour.message import Term

SUITS = (Term("suit", "clubs"), Term("suit", "diamonds"), Term("suit", "hearts"),
         Term("suit", "spades"))
RANKS = (Term("rank", "two"), Term("rank", "three"), Term("rank", "four"),
         Term("rank", "five"), Term("rank", "six"), Term("rank", "seven"),
         Term("rank", "eight"), Term("rank", "nine"), Term("rank", "ten"),
         Term("rank", "jack"), Term("rank", "queen"), Term("rank", "king"),
         Term("rank", "ace"))
#: Spite & Malice's ranks as the notation writes them ("needs an A").
RANK_CODES = (Term("rank-code", "A"), Term("rank-code", "2"), Term("rank-code", "3"),
              Term("rank-code", "4"), Term("rank-code", "5"), Term("rank-code", "6"),
              Term("rank-code", "7"), Term("rank-code", "8"), Term("rank-code", "9"),
              Term("rank-code", "10"), Term("rank-code", "J"), Term("rank-code", "Q"),
              Term("rank-code", "K"))
SEATS = (Term("seat", "South"), Term("seat", "West"), Term("seat", "North"),
         Term("seat", "East"), Term("seat", "player"))
COLOURS = (Term("colour", "red"), Term("colour", "yellow"), Term("colour", "green"),
           Term("colour", "blue"))
GAMES = (Term("game", "Spades"), Term("game", "Spite & Malice"), Term("game", "Hit the Deck"),
         Term("game", "Clockwork Spades"), Term("game", "Foursquare"))
CARDS = (Term("card", "joker"),)
#: The timed phases a table may open (the server's refusals name them).
REACTIONS = (Term("reaction", "slap"),)

ALL: frozenset[Term] = frozenset((*SUITS, *RANKS, *RANK_CODES, *SEATS, *COLOURS, *GAMES,
                                  *CARDS, *REACTIONS))
