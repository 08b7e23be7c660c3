"""Table talk: quick phrases said at a table, each sent as an id and delivered to every
reader in the reader's own language, so an Indonesian and a Brazilian at one table
understand each other (issue 34).

Why ids and not text: a phrase is a msgid of the catalogs, rendered per connection as the
narration is (:func:`parlour.i18n.render`), so nothing a person types reaches another
person, and the page shows the rendered words as text. Two channels: the seated players'
(everyone at the table reads it, spectators included) and the spectators' (players never
see it, during the match or after: kibitzing cannot reach a hand). Talk is live only:
it is never written to the database, a record or a replay, rated, daily or casual.
A signed-in reader who muted the speaker with the account is not sent it (the owner asks
the mutes at each phrase: :meth:`parlour.server.play.sessions.Seated.talk`); a guest hides
a person's talk in the page (``parlour/web/talk.js``). The message carries the speaker's
seat, never a name or text of theirs.
"""

from __future__ import annotations

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
RUN = 2  # the same phrase at most twice running
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
