"""One table in memory: its seats, its match, its connections and the views it sends.

A :class:`Table` is data and what can be read off it (its summary, each seat's view); every
change to it goes through the hub (:mod:`parlour.server.play.tables`), which writes it to the
database first. A :class:`Connection` is one client at it, with its outgoing queue.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import random
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from parlour.bots import Bot
from parlour.engine import Game, JsonDict, Param, Seat, State
from parlour.message import Message
from parlour.registry import spec
from parlour.server.edge.protocol import (
    Encoded,
    ProtocolError,
    encode,
    encode_bytes,
    joined,
    localized,
)
from parlour.server.play.names import bot_level, bot_names
from parlour.server.play.pace import DEFAULT_SPEED, bot_wait, pace_json
from parlour.server.play.pages import narration, seat_names
from parlour.server.play.phase import OpenReaction
from parlour.server.play.rejoin import device_token, rejoin_secret
from parlour.server.play.talk import TalkLimit
from parlour.server.play.timers import Timer

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
CLOSED_NOTES = {  # why a table closed before its match ended, as its summary says it
    "expired": "nobody joined in time",
    "abandoned": "its players left",
    "unwatched": "a table of bots nobody was watching",
    "unrestorable": "could not be restored",
    "forfeited": "a player was away too long: their loss",
}
OUTBOX_LIMIT = 256  # queued messages a slow client may fall behind by before it is dropped
RECONNECT = 4012  # the close code that asks a client to connect again (the table moved)


def reason_of(err: Exception) -> Message | str:
    """An engine error's message (to render in each reader's language), else its text."""
    message = getattr(err, "message", None)
    return message if isinstance(message, Message) else str(err)


def not_playing(table: Table) -> ProtocolError:
    """The refusal of a move or a hint at a table whose game is not on."""
    if table.status == "finished":
        return ProtocolError("not_playing", "the game is over")
    return ProtocolError("not_playing", "the game has not started")


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Connection:
    """One websocket client: its seat (None for a spectator) and its outgoing queue.

    A message is written to the socket at once by ``send_now`` when the connection has
    one (a socket of this process: :data:`parlour.server.edge.listener.SEND_NOW`), nothing is
    queued before it and the socket takes it without waiting; otherwise it is queued and
    sent by :meth:`pump` (through ``send``), so a broadcast never waits on a slow client.
    One that falls :data:`OUTBOX_LIMIT` messages behind is disconnected (it reconnects and
    gets the current view).
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: Seat | None = None,
                 close: Callable[[], Awaitable[None]] | None = None, lang: str = "en",
                 send_now: Callable[[str | bytes], bool] | None = None) -> None:
        self.send = send
        self.send_now = send_now
        self.seat = seat
        self.lang = lang  # the client's language: its narration, reasons and errors
        self.account: int | None = None  # the signed-in reader's account (its mutes: talk)
        self.listens = False  # reads the players' own words at this table (play/talk.py)
        self._close = close
        self.outbox: asyncio.Queue[str | bytes | None] = asyncio.Queue()
        self.sending = False  # the pump holds a message it has not finished sending
        self.closed = False
        self.too_slow = False
        self.close_code: int | None = None  # set by kick: the code the socket is closed with

    def push(self, text: str | bytes) -> None:
        """Send ``text`` (``bytes``: UTF-8 already, as views are kept) in order."""
        if self.closed:
            return
        if self.send_now is not None and not self.sending and self.outbox.empty() \
                and self.send_now(text):
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.too_slow = True
            self.stop()
            return
        self.outbox.put_nowait(text)

    def stop(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    def kick(self, code: int) -> None:
        """Close the connection with ``code`` once what is queued is sent (e.g.
        :data:`RECONNECT`: the table moved to another process)."""
        self.close_code = code
        self.stop()

    async def pump(self) -> None:
        """Send queued messages in order until the connection closes."""
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    break
                self.sending = True
                await self.send(text if isinstance(text, str) else text.decode())
                self.sending = False
            if (self.too_slow or self.close_code is not None) and self._close is not None:
                await self._close()
        except Exception:  # the client went away: the receive loop ends the session
            self.closed = True


@dataclass
class SeatInfo:
    kind: str  # "person" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    account_id: int | None = None  # the signed-in person holding it (None: a guest)
    client: str | None = None  # the hash of the client that took it (limits.client_hash)

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def guest(self) -> bool:
        """A person's seat held by someone not signed in: marked wherever its name shows."""
        return self.kind == "person" and self.name is not None and self.account_id is None


@dataclass
class MatchInfo:
    match: int
    finished: bool
    result: str | None
    deal: int | None = None  # the public deal number, for games dealt by number


@dataclass
class Table:
    id: str
    game: Game
    num_seats: int
    options: dict[str, Any]
    created: float
    seats: list[SeatInfo]
    status: str = "waiting"  # waiting | playing | finished | closed
    match: int = 0
    seed: int | None = None
    state: State | None = None
    version: int = 0  # actions applied in the current match
    matches: dict[int, MatchInfo] = field(default_factory=dict)
    conns: set[Connection] = field(default_factory=set)
    bots: dict[Seat, Bot] = field(default_factory=dict)
    bot_tasks: dict[Seat, asyncio.Task[None]] = field(default_factory=dict)
    bot_rng: random.Random = field(default_factory=random.Random)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    reaction: OpenReaction | None = None  # the timed phase being played, if any
    next_deal: int | None = None  # the deal number asked for the next match (else random)
    asked: dict[tuple[int, int, Seat], asyncio.Future[JsonDict]] = field(default_factory=dict)
    touched: float = 0.0  # last sign of life (Settings.monotonic; the hub sets all three)
    listed: bool = True  # in the lobby list (else private: reached through its invite)
    compared: bool = False  # its results are compared (rated, daily): kept, never degraded
    hints: bool = True  # its seats may ask for hints (never at a compared table)
    rated: bool = False  # its results change ratings (people/ratings.py)
    daily: str | None = None  # the UTC day whose daily deal it plays (people/daily.py)
    turn_seconds: int = 0  # the turn timer (0: none)
    # A correspondence table's time per move (None: not one), and when the move it awaits
    # is due (parlour.server.play.correspondence; the row holds both).
    move_seconds: int | None = None
    deadline: float | None = None
    creator: Seat | None = None  # the seat of the person who opened it
    note: str | None = None  # why it closed (see CLOSED_NOTES)
    degraded: bool = False  # its bots play a level lower while the parlour is busy
    people_seen: float = 0.0  # a person was connected
    watched: float = 0.0  # anyone was connected
    standins: set[Seat] = field(default_factory=set)  # person seats a bot plays for now
    turn: JsonDict | None = None  # the running turn timer (see parlour.server.play.turns)
    turn_timer: Timer | None = None
    # At a rated match: the seats away (stood in for), each with the timer that forfeits
    # the match if its person is not back in time, and the account that left it, if any.
    forfeits: dict[Seat, Timer] = field(default_factory=dict)
    absent_accounts: dict[Seat, int] = field(default_factory=dict)
    key: str = field(default="", repr=False)  # the server's rejoin key (play/rejoin.py)
    # What each seat said lately (play/talk.py): shared by the seat's connections; never
    # written anywhere, like the talk itself.
    talk_limits: dict[Seat, TalkLimit] = field(default_factory=dict)
    # The accounts last told it was their turn here (people/presence.py: told once a turn)
    turn_told: set[int] = field(default_factory=set)
    speed: str = DEFAULT_SPEED  # how fast its bots and automatic steps go (play/pace.py)
    bot_pause: float = 0.8  # the server's bot pause (Settings.bot_pause), which speeds scale
    # When its last action (or deal) was applied here, by the event loop's clock: a bot's
    # pace counts from it. A table just taken over (replayed) has none: its last action
    # was at its old owner, longer ago than any pace, so play resumes at once.
    acted_at: float = -math.inf
    _views: dict[tuple[Seat | None, str], bytes] = field(default_factory=dict)
    _views_at: tuple[int, int] = (-1, -1)
    #: this version's spectator view without the seat's part, by language (seat_view)
    _shared: dict[str, Encoded] = field(default_factory=dict)
    #: this version's view message around the view, the same for every seat: what comes
    #: before the view (``{"type":"view",...,"view":``) and after it (``,"timed":...}``)
    _frame: tuple[bytes, bytes] | None = None
    #: narration_names' answers, for the seats' names they were worked out from
    _told_names: dict[tuple[Seat | None, tuple[tuple[str, str | None, bool], ...]],
                      list[Param]] = (
        field(default_factory=dict))

    @property
    def deal(self) -> int | None:
        """The deal number of the current match (games dealt by number), else None."""
        info = self.matches.get(self.match)
        return info.deal if info is not None else None

    # ------------------------------------------------------------------ seats
    def seat_for(self, token: str | None) -> Seat | None:
        """The seat this token holds, None for no token; ProtocolError for a wrong one."""
        if token is None:
            return None
        digest = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is None:
                continue
            if hmac.compare_digest(s.token_hash, digest):
                return i
            if self.key and hmac.compare_digest(
                    device_token(self.key, self.id, i, s.token_hash).encode(), token.encode()):
                return i  # the token a rejoin link was traded for
        raise ProtocolError("bad_token", "that seat token is not valid for this table")

    def rejoin_secret(self, seat: Seat | None) -> str:
        """The rejoin secret of the person at ``seat`` (see :mod:`parlour.server.play.rejoin`)."""
        info = self.seats[seat] if seat is not None else None
        if seat is None or info is None or info.kind != "person" or info.token_hash is None \
                or not self.key:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        return rejoin_secret(self.key, self.id, seat, info.token_hash)

    def trade_rejoin(self, secret: str) -> tuple[Seat, str]:
        """The seat and a token of it for a rejoin secret; ``bad_secret`` for any other."""
        for i, s in enumerate(self.seats):
            if s.kind != "person" or s.token_hash is None or not self.key:
                continue
            if hmac.compare_digest(rejoin_secret(self.key, self.id, i, s.token_hash).encode(),
                                   secret.encode()):
                return i, device_token(self.key, self.id, i, s.token_hash)
        raise ProtocolError("bad_secret", "that rejoin link is not valid for this table (the "
                                          "seat may have changed hands)")

    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.seats)

    def connected(self, seat: Seat) -> bool:
        """Whether the person at ``seat`` has a connection open."""
        return any(c.seat == seat and not c.closed for c in self.conns)

    @property
    def is_open(self) -> bool:
        return self.status in ("waiting", "playing")

    def free_seats(self) -> list[Seat]:
        return [i for i, s in enumerate(self.seats) if not s.taken]

    def player_names(self) -> list[str]:
        out = []
        for s in self.seats:
            out.append(f"{s.name} (guest)" if s.guest else
                       s.name if s.kind == "person" and s.name else
                       f"{s.bot} bot" if s.kind == "bot" else "empty seat")
        return out

    def names(self) -> list[str | None]:
        """Each seat's name: a person's own, a bot's (:mod:`parlour.server.play.names`), None
        for a seat still free."""
        people = [s.name if s.kind == "person" else None for s in self.seats]
        bots = bot_names(self.id, [s.kind == "bot" for s in self.seats], people)
        return [p or b for p, b in zip(people, bots, strict=True)]

    def narration_names(self, you: Seat | None = None) -> list[Param]:
        """What the game's event sentences call each seat, told to ``you`` (see
        :mod:`parlour.server.play.pages`); worked out once for each set of names (each view
        sent asks)."""
        key = (you, tuple((s.kind, s.name, s.guest) for s in self.seats))  # what's read
        told = self._told_names.get(key)
        if told is None:
            if len(self._told_names) > 4 * self.num_seats:
                self._told_names.clear()
            told = self._told_names[key] = seat_names(
                [self.game.seat_param(i, self.num_seats) for i in range(self.num_seats)],
                self.names(), you, [s.guest for s in self.seats])
        return told

    def summary(self) -> JsonDict:
        """What anyone may know about the table (no tokens, no seed)."""
        return {
            "id": self.id,
            "game": self.game.id,
            "game_name": self.game.name,
            "options": self.options,
            "status": self.status,
            "match": self.match,
            "version": self.version,
            "created": self.created,
            "seats": [{"seat": i, "label": self.game.seat_name(i, self.num_seats),
                       "kind": s.kind, "bot": s.bot, "name": name, "guest": s.guest,
                       "level": bot_level(s.bot) if s.kind == "bot" else None,
                       "taken": s.taken, "stand_in": i in self.standins}
                      for i, (s, name) in enumerate(zip(self.seats, self.names(), strict=True))],
            "listed": self.listed,
            "compared": self.compared,
            "rated": self.rated,
            "daily": self.daily,
            "turn_seconds": self.turn_seconds,
            "move_seconds": self.move_seconds,
            "creator": self.creator,
            "degraded": self.degraded,
            "note": CLOSED_NOTES.get(self.note or "") if self.status == "closed" else None,
            "finished_matches": sorted(m.match for m in self.matches.values() if m.finished),
            "result": (self.matches[self.match].result
                       if self.match in self.matches else None),
            "deal": self.matches[self.match].deal if self.match in self.matches else None,
            "hints": self.hints,
            "pace": pace_json(self.bot_pause, self.speed),
        }

    def bot_wait(self) -> float:
        """Seconds the next bot move waits at least: the table's speed, and the automatic
        steps its current view tells (the page shows them one by one first)."""
        steps = 0
        if self.state is not None and spec(self.game.id).describe_event is not None:
            events = self.state.view(None).get("events")
            steps = len(events) if isinstance(events, list) else 0
        return bot_wait(self.bot_pause, self.speed, steps)

    # ------------------------------------------------------------------ views
    def view_message(self, seat: Seat | None, lang: str = "en") -> bytes:
        """The encoded view message (UTF-8 JSON) for ``seat`` in ``lang`` (its reasons and
        narration), built once per version: ``{"type": "view", "table", "match",
        "version", "status", "view"}``, then ``narration`` where the game narrates,
        ``timed`` in a timed phase and ``turn`` while a turn timer runs. What surrounds
        the view and its narration is the same for every seat, encoded once a version
        (:meth:`message_frame`); each seat's message is the pieces joined."""
        key = (self.match, self.version)
        if self._views_at != key:
            self._views = {}
            self._shared = {}
            self._frame = None
            self._views_at = key
        text = self._views.get((seat, lang))
        if text is None:
            view = self.localized_view(seat, lang)
            head, tail = self._frame or self.message_frame()
            told = narration(self.game, view.data, lambda: self.narration_names(seat), lang)
            text = self._views[seat, lang] = (
                b"".join((head, view.json, b',"narration":', encode_bytes(told), tail))
                if told is not None else b"".join((head, view.json, tail)))
        return text

    def message_frame(self) -> tuple[bytes, bytes]:
        """This version's view message without its view (and narration): the encoded
        JSON before the view, and after it. orjson encodes each value alike wherever it
        stands, so the joined message is the bytes of the message encoded whole."""
        head = encode_bytes({"type": "view", "table": self.id, "match": self.match,
                             "version": self.version, "status": self.status})
        after: JsonDict = {}
        if self.reaction is not None:
            after["timed"] = self.reaction.to_json()
        if self.turn is not None:
            after["turn"] = self.turn
        tail = b"," + encode_bytes(after)[1:] if after else b"}"
        self._frame = (head[:-1] + b',"view":', tail)
        return self._frame

    def localized_view(self, seat: Seat | None, lang: str) -> Encoded:
        """``state.view(seat)`` localized in ``lang`` and encoded. For a game whose spec
        gives the seat's part of its view (``seat_view``), the rest is the spectator's view,
        built and encoded once a version for every seat, and the seat's part is added: the
        same view at a third of the cost of each seat's whole one (four seats a move)."""
        state = self.state
        assert state is not None
        part = spec(self.game.id).seat_view
        if part is None:
            return localized(state.view(seat), lang)
        mine = localized(part(state, seat), lang)
        shared = self._shared.get(lang)
        if shared is None:
            whole = state.view(None)
            shared = self._shared[lang] = localized(
                {k: v for k, v in whole.items() if k not in mine.data}, lang)
        return joined(shared, mine)

    def refresh_views(self) -> None:
        """Forget the built views (something they carry, e.g. the turn timer, changed)."""
        self._views_at = (-1, -1)

    def send_view(self, conn: Connection) -> None:
        if self.state is None:
            return
        text = self.view_message(conn.seat, conn.lang)
        timed = self.reaction
        if timed is not None and timed.opened is not None:
            # Sent after the signal (a sync, a reconnection, another seat's slap): the
            # clock still runs from the signal, and the view says how long is left.
            message = orjson.loads(text)
            message["timed"] = timed.to_json(asyncio.get_running_loop().time())
            text = encode_bytes(message)
        conn.push(text)

    def broadcast_views(self) -> None:
        for conn in list(self.conns):
            self.send_view(conn)

    def broadcast_table(self) -> None:
        text = encode({"type": "table", "table": self.summary()})
        for conn in list(self.conns):
            conn.push(text)
