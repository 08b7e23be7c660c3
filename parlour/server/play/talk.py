"""Table talk: quick phrases said at a table, each sent as an id and delivered to every
reader in the reader's own language, so an Indonesian and a Brazilian at one table
understand each other (issue 34).

Why ids and not text: a phrase is a msgid of the catalogs, rendered per connection as the
narration is (:func:`parlour.i18n.render`), so nothing a person types reaches another
person, and the page shows the rendered words as text.

Free text (a player's own words) is the other kind of talk, for seated players who are
signed in: at most :data:`TEXT_MAX` characters, within the same limits as the phrases
(:class:`TalkLimit`), through the word filter (:mod:`parlour.server.play.talk_words`), and
read only by those who chose to read players' own words at this table (the ``listen``
message: off unless the page turns it on; the page turns it on by itself among friends).
Each line carries a seal (:func:`seal`) so that a report can attach it as it was sent, from
any process, without the server keeping it. Two channels: the seated players'
(everyone at the table reads it, spectators included) and the spectators' (players never
see it, during the match or after: kibitzing cannot reach a hand). Talk is live only:
it is never written to the database, a record or a replay, rated, daily or casual.
A signed-in reader who muted the speaker with the account is not sent it (the owner asks
the mutes at each phrase: :meth:`parlour.server.play.sessions.Seated.talk`); a guest hides
a person's talk in the page (``parlour/web/talk.js``). The message carries the speaker's
seat, never a name or text of theirs.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections import deque
from collections.abc import Iterable
from typing import Any, Protocol

from parlour.engine import Seat
from parlour.i18n import render
from parlour.message import N_
from parlour.message import Message as Text
from parlour.server.edge.protocol import ProtocolError, encode, excerpt


class Reader(Protocol):
    """What talk needs of a connection (:class:`parlour.server.play.table.Connection`, which
    imports this module for the table's limits)."""

    seat: Seat | None
    lang: str
    listens: bool  # reads players' own words at this table

    def push(self, text: str) -> None: ...

#: Every phrase, by the id a client sends; the msgid is its English words.
PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck, have fun!"),
    "nice_play": N_("Nice play!"),
    "well_played_partner": N_("Well played, partner!"),
    "sorry_partner": N_("Sorry, partner."),
    "oops": N_("Oops!"),
    "thanks": N_("Thank you!"),
    "thinking": N_("Let me think a moment."),
    "back_soon": N_("Back in a minute."),
    "good_game": N_("Good game!"),
    "one_more": N_("One more?"),
    "bye": N_("Bye!"),
}
WINDOW = 10.0  # seconds
AT_MOST = 5  # phrases said in WINDOW seconds by one seat (or one spectator's connection)
RUN = 2  # the same phrase (or the same words) at most twice running
TEXT_MAX = 200  # characters of a player's own words
#: Characters of the Unicode category "format" that may stay in words: the zero-width joiner
#: of emoji sequences. The others (bidirectional overrides, invisible marks) are refused.
FORMAT_KEPT = frozenset({"\u200d"})
PLAYERS, SPECTATORS = "players", "spectators"


class TalkLimit:
    """How much one speaker said lately: at most :data:`AT_MOST` phrases in :data:`WINDOW`
    seconds, and the same phrase not :data:`RUN` + 1 times running. A seat's is shared by
    every connection holding it (a second tab does not double the allowance)."""

    def __init__(self) -> None:
        self.said: deque[float] = deque()
        self.last: str | None = None
        self.run = 0

    def check(self, phrase: str, now: float) -> None:
        """Count ``phrase`` said at ``now``, or refuse it (nothing counted)."""
        while self.said and self.said[0] <= now - WINDOW:
            self.said.popleft()
        if len(self.said) >= AT_MOST:
            raise ProtocolError("talk_limited", "you are talking too fast: wait a few seconds")
        if phrase == self.last and self.run >= RUN:
            raise ProtocolError("talk_repeated", "you said that already: say something else")
        self.said.append(now)
        self.run = self.run + 1 if phrase == self.last else 1
        self.last = phrase


def phrase_text(phrase: str) -> str:
    """The English words of a phrase id, or ``unknown_phrase``."""
    words = PHRASES.get(phrase)
    if words is None:
        raise ProtocolError("unknown_phrase", "there is no phrase {phrase} (the phrases are "
                                              "{known})", phrase=repr(excerpt(phrase)),
                            known=", ".join(PHRASES))
    return words


def talk_message(phrase: str, seat: Seat | None, lang: str) -> dict[str, Any]:
    """What a reader in ``lang`` gets when the player at ``seat`` (None: a spectator) says
    ``phrase``: the id, who said it, the channel, and the words in the reader's language."""
    return {"type": "talk", "channel": PLAYERS if seat is not None else SPECTATORS,
            "seat": seat, "phrase": phrase, "text": render(Text(PHRASES[phrase]), lang)}


def readers(seat: Seat | None, reader_seats: list[Seat | None]) -> list[bool]:
    """Which readers (by their seats, None for a spectator) get a phrase said at ``seat``:
    a player's reaches everyone, a spectator's only the spectators."""
    return [seat is not None or r is None for r in reader_seats]


def say(conns: Iterable[Reader], seat: Seat | None, phrase: str) -> None:
    """Deliver ``phrase`` said at ``seat`` to the connections that may read it, each in
    its own language (rendered once per language)."""
    texts: dict[str, str] = {}
    conns = list(conns)
    for conn, reads in zip(conns, readers(seat, [c.seat for c in conns]), strict=True):
        if not reads:
            continue
        text = texts.get(conn.lang)
        if text is None:
            text = texts[conn.lang] = encode(talk_message(phrase, seat, conn.lang))
        conn.push(text)


# ------------------------------------------------------------------ a player's own words
def clean_text(text: str) -> str:
    """A player's own words as they are sent: NFC, one line, single spaces, at most
    :data:`TEXT_MAX` characters; no control or invisible formatting characters."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if not text:
        raise ProtocolError("talk_empty", "write something first")
    if len(text) > TEXT_MAX:
        raise ProtocolError("talk_too_long", "at most {most} characters a message",
                            most=TEXT_MAX)
    for char in text:
        kind = unicodedata.category(char)
        if kind in ("Cc", "Co", "Cs", "Cn") or (kind == "Cf" and char not in FORMAT_KEPT):
            raise ProtocolError("talk_bad_text", "that message holds a character that "
                                                 "cannot be shown ({char})",
                                char=f"U+{ord(char):04X}")
    return text


def seal(key: str, table_id: str, seat: Seat, text: str) -> str:
    """The seal of ``text`` said at ``seat`` of ``table_id``: what a report shows to be the
    words the server sent (HMAC-SHA256 with the server's talk key, 128 bits)."""
    data = f"{table_id}\x00{seat}\x00{text}".encode()
    return hmac.new(key.encode(), data, hashlib.sha256).hexdigest()[:32]


def sealed(key: str, table_id: str, seat: Seat, text: str, given: str) -> bool:
    """Whether ``given`` is the seal of ``text`` said at that seat."""
    return hmac.compare_digest(seal(key, table_id, seat, text), given)


def words_message(seat: Seat, text: str, line_seal: str) -> dict[str, Any]:
    """What a reader gets when the player at ``seat`` writes ``text`` (filtered already):
    the same for every reader, whatever the language."""
    return {"type": "talk", "channel": PLAYERS, "seat": seat, "phrase": None, "text": text,
            "own": True, "seal": line_seal}


def say_words(conns: Iterable[Reader], seat: Seat, text: str, line_seal: str) -> None:
    """Deliver a player's own words to the connections that read them (:attr:`Reader.listens`);
    the writer's own connections among them."""
    encoded = encode(words_message(seat, text, line_seal))
    for conn in conns:
        if conn.listens:
            conn.push(encoded)
