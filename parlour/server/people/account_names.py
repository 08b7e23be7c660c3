"""Account names: what a name may be, and the key that makes two names the same.

Two names are the same account name when their keys are equal: the key is the name in
NFKC, case-folded (``str.casefold``), NFKC again, then its *skeleton* in the sense of
Unicode TR39 (UTS #39, section 4): each character replaced by the prototype of its
confusable class, in NFD. So "Ana", "ANA", "Аna" (a Cyrillic А) and "Ａｎａ" (full width)
share one key, and only the first to sign up gets it.

The confusable classes come from Unicode's ``confusables.txt`` as shipped by the
maintained ``confusable-homoglyphs`` package (its ``confusables.json``, read once, never
downloaded). That file keeps each source-to-prototype pair in both directions, so the
prototype of a class is worked out again: a class is a star around its prototype (TR39's
prototypes are never sources), a multi-character prototype ("rn" for "m") is always the
centre, and in a class of two single characters either serves (only equality matters).

The skeleton may bring capitals back (the prototype of "0" is "O"), so folding and the
skeleton repeat until the key settles. And once case is ignored a capital I reads as a
small l ("AdmIn", "Admln"), so the key writes both i and l as l: "Ali" and "All" are one
name. Reserved names (the parlour's own words, the bots' kinds and names) are refused by
key, look-alikes included.

Unicode's default-ignorable code points (``Default_Ignorable_Code_Point``: joiners,
variation selectors, the combining grapheme joiner U+034F, Mongolian free variation
selectors, the Hangul fillers, tags...) draw as nothing, so "Ana" with one of them looks
like "Ana". A new account name may not hold them (:func:`clean_account_name`), and the key
drops them (TR39's internal skeleton does the same), so a name an older account took with
one still meets its look-alike. Python's ``unicodedata`` lacks the property: it comes
from the maintained ``regex`` module's Unicode tables (``\\p{Default_Ignorable_Code_Point}``),
never from a hand list. Guests' and bots' names are compared by the same key
(:mod:`parlour.server.play.names`).
"""

from __future__ import annotations

import importlib
import json
import unicodedata
from collections import defaultdict
from functools import cache
from importlib import resources

import regex

from parlour.server.edge.protocol import ProtocolError

NAME_MIN = 2
NAME_MAX = 24
PUNCTUATION = frozenset("-_.' ")  # besides letters, marks and digits
_MARKS = ("\u200e", "\u200f")  # direction marks the package wraps right-to-left text in

#: Names nobody may take (with every look-alike): the parlour's own words. ``bot_names``
#: adds what the bots are called.
RESERVED = ("admin", "administrator", "parlour", "bot", "you", "moderator", "mod",
            "operator", "system", "server", "guest", "staff", "support", "deleted player",
            "deleted", "anonymous", "nobody", "dealer")


#: Unicode's Default_Ignorable_Code_Point characters (the regex module's Unicode data).
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def has_ignorable(text: str) -> bool:
    """Whether ``text`` holds a character that draws as nothing (default-ignorable)."""
    return IGNORABLE.search(text) is not None


def without_ignorables(text: str) -> str:
    return IGNORABLE.sub("", text)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (a character or a short string)."""
    data = json.loads(resources.files("confusable_homoglyphs")
                      .joinpath("confusables.json").read_text(encoding="utf-8"))

    def clean(text: str) -> str:
        for mark in _MARKS:
            text = text.replace(mark, "")
        return text

    edges: dict[str, set[str]] = defaultdict(set)
    for key, entries in data.items():
        a = clean(key)
        for entry in entries:
            b = clean(entry["c"])
            if a and b and a != b:
                edges[a].add(b)
                edges[b].add(a)
    prototype: dict[str, str] = {}
    for node, others in edges.items():
        if len(node) != 1:
            continue  # a multi-character string is only ever a prototype
        # A source has one neighbour, its prototype; a prototype is the centre of its star.
        if len(others) == 1:
            (other,) = others
            if len(other) > 1 or len(edges[other]) > 1 or other < node:
                prototype[node] = other
    return prototype


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: NFD, each character to its prototype, NFD again."""
    table = _prototypes()
    out = []
    for ch in unicodedata.normalize("NFD", text):
        proto = table.get(ch, ch)
        if len(proto) > 1:  # a prototype string ("rn"): its own characters are prototypes
            proto = "".join(table.get(c, c) for c in proto)
        out.append(proto)
    return unicodedata.normalize("NFD", "".join(out))


def _folded(text: str) -> str:
    """NFKC, case folded, NFKC again, without the default-ignorable characters (before and
    after: NFKC makes one of some, the half-width Hangul filler say)."""
    text = unicodedata.normalize("NFKC", without_ignorables(text))
    return without_ignorables(unicodedata.normalize("NFKC", text.casefold()))


def name_key(name: str) -> str:
    """The key two names share when they are the same account name."""
    key = skeleton(_folded(name))
    for _ in range(3):  # a prototype may be a capital ("0" -> "O"): fold until it settles
        again = skeleton(_folded(key))
        if again == key:
            break
        key = again
    # Case ignored, a capital I reads as l ("AdmIn", "Admln"): i and l are one letter here.
    return key.replace("i", "l")


@cache
def reserved_keys() -> frozenset[str]:
    return frozenset(name_key(word) for word in (*RESERVED, *bot_names()))


def bot_names() -> tuple[str, ...]:
    """What bots are called: their kinds in every game (random, rule, ismcts...) and the
    names they sit under at tables (``BOT_NAMES`` of :mod:`parlour.server.play.names`, the
    seats' names, where the server has them)."""
    from parlour.bots import bot_kinds
    from parlour.games import game_ids

    kinds = {kind for game in game_ids() for kind in bot_kinds(game)}
    try:  # looked up by name: the seats' names came in beside the accounts
        seat_names = importlib.import_module("parlour.server.play.names")
    except ImportError:
        seat_names = None
    named = getattr(seat_names, "BOT_NAMES", ())
    return tuple(sorted(kinds | {str(n) for n in named}))


def clean_account_name(name: str) -> str:
    """An account name as it will be shown (NFC, inner spaces single, trimmed);
    ``bad_name`` if it is not one (2 to 24 letters, digits, marks, spaces and -_.')."""
    text = " ".join(unicodedata.normalize("NFC", name).split())
    if not NAME_MIN <= len(text) <= NAME_MAX:
        raise ProtocolError("bad_name", "a name has {low} to {high} characters", low=NAME_MIN,
                            high=NAME_MAX)
    if has_ignorable(text):  # U+034F is a mark, U+3164 a letter: looked at first
        raise ProtocolError("bad_name", "a name cannot hold characters that show as nothing")
    for ch in text:
        if ch in PUNCTUATION or unicodedata.category(ch)[0] in "LMN":
            continue
        raise ProtocolError("bad_name", "a name has letters, digits, spaces and - _ . ' only")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise ProtocolError("bad_name", "a name needs a letter or a digit")
    if name_key(text) in reserved_keys():
        raise ProtocolError("name_reserved", "that name is kept for the parlour: choose "
                                             "another")
    return text
