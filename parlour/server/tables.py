"""Tables in play: who sits where, the match state, its connections and its bots.

A :class:`Hub` holds every live table. Each change to a table (a seat taken, a match
started, an action) is committed to the database first, then applied in memory, then
broadcast: every connection gets the view of its own seat (``view(seat)``), spectators
``view(None)``. The state itself, and its seed, never leave the server.

Actions from people and from bots go through one path, :meth:`Hub.submit`, under the
table's lock, so a table changes one action at a time whatever its number of clients.
Bots are played by the :class:`~parlour.server.runner.BotRunner` (they get an
:class:`~parlour.bots.Observation`, never the state, and wait out a short pause so people
can follow the play); timed phases are timed by the
:class:`~parlour.server.clock.ReactionClock`. Both hand their moves in through ``submit``.

A table lives from ``waiting`` through ``playing`` to ``finished`` (and ``again``), or is
``closed`` before its match ends: nobody joined in time, nobody came back, nobody watched
a table of bots, or its rows could not be replayed. See ``docs/operations.md``.

With several processes on one database, a hub holds only the tables this process owns
(their leases: :mod:`parlour.server.lease`); every write of a table is fenced by its lease,
and a table whose lease moved is let go (:meth:`Hub.lose`). See ``docs/architecture.md``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy.exc import DBAPIError

from parlour.bots import Bot, bot_kinds, hint_bot, make_bot, observe
from parlour.engine import (
    Game,
    IllegalAction,
    JsonDict,
    NotationError,
    OptionError,
    Param,
    Seat,
    State,
    derive_seed,
)
from parlour.games import game_ids, get_game
from parlour.i18n import localize, render
from parlour.message import Code, Many, Message, Term, message_to_json
from parlour.record import record_text
from parlour.registry import spec
from parlour.server.account_names import without_ignorables
from parlour.server.clock import RETRY_FIRST, RETRY_MOST, OpenReaction, ReactionClock
from parlour.server.daily import daily_seed, day_over
from parlour.server.lease import Elsewhere, Leases
from parlour.server.limits import ClientKey, Limits, TableQuota, client_hash
from parlour.server.names import bot_level, bot_names
from parlour.server.outages import DATABASE, unavailable
from parlour.server.pace import DEFAULT_SPEED, SPEEDS, bot_wait, check_speed, pace_json
from parlour.server.pages import action_words, narration, seat_names
from parlour.server.players import (
    Finished,
    SeatKind,
    op_finished,
    op_forfeit,
    op_left,
    seat_account,
)
from parlour.server.protocol import BURST, RATE, ProtocolError, Stale, encode, localized
from parlour.server.ratings import bot_rating
from parlour.server.rejoin import device_token, rejoin_secret
from parlour.server.reviews import ReviewDesk
from parlour.server.runner import BotRunner
from parlour.server.showcase import showcase_json
from parlour.server.store import Fenced, Op, SeatRow, Store, StoreError, TableRow
from parlour.server.turns import (
    FORFEIT_TURNS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    STAND_IN,
    TurnTimer,
    default_turn_seconds,
)

log = logging.getLogger("parlour.server")
T = TypeVar("T")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
NAME_MAX = 24
IDLE_FINISHED = 15 * 60.0  # seconds a finished table with no one watching stays in memory
CLOSED_NOTES = {  # why a table closed before its match ended, as its summary says it
    "expired": "nobody joined in time",
    "abandoned": "its players left",
    "unwatched": "a table of bots nobody was watching",
    "unrestorable": "could not be restored",
    "forfeited": "a player was away too long: their loss",
}
RESTORE_AT_MOST = 100_000  # tables nobody owns that a process starting takes at once
OUTBOX_LIMIT = 256  # queued messages a slow client may fall behind by before it is dropped
RECONNECT = 4012  # the close code that asks a client to connect again (the table moved)

#: Games dealt by number (their spec's ``numbered_deals``): each match has a public deal
#: number (1 to MAX_DEAL) and its seed is derived from it and the server's secret deal key,
#: so that the same number gives the same deal on this server (restarts included) while the
#: number tells nothing of the deal.
MAX_DEAL = 1_000_000


def deal_seed(key: str, game_id: str, deal: int) -> int:
    """The seed of deal number ``deal`` of ``game_id`` on the server whose key is ``key``."""
    return derive_seed(key, f"{game_id}-deal", deal)


def check_deal(game: Game, deal: object) -> int | None:
    """A deal number asked for at ``game``'s table: None, or a number this game takes."""
    if deal is None:
        return None
    if not spec(game.id).numbered_deals:
        raise ProtocolError("bad_deal", "{game} is not dealt by number",
                            game=Term("game", game.name))
    if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= MAX_DEAL:
        raise ProtocolError("bad_deal", "a deal number is a whole number from 1 to {most}",
                            most=MAX_DEAL)
    return deal


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


def check_turn_seconds(game: Game, seconds: object) -> int:
    """The turn timer asked for at ``game``'s table: None for the game's default, 0 for
    none, else whole seconds within bounds."""
    if seconds is None:
        return default_turn_seconds(game.id)
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not (
            seconds == 0 or MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS):
        raise ProtocolError("bad_options", "a turn timer is 0 (none) or {least} to {most} "
                                           "seconds", least=MIN_TURN_SECONDS,
                            most=MAX_TURN_SECONDS)
    return 0 if spec(game.id).solitaire else seconds  # nobody waits for a solitaire's player


def clean_name(name: object) -> str:
    """A display name: printable, trimmed, 1 to 24 characters; characters that show as
    nothing (Unicode's default-ignorable ones, as for account names) are left out."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", "a name is text")
    text = " ".join(without_ignorables("".join(ch for ch in name if ch.isprintable())).split())
    if not text:
        raise ProtocolError("bad_name", "choose a name to sit at the table")
    if len(text) > NAME_MAX:
        raise ProtocolError("bad_name", "a name has at most {n} characters", n=NAME_MAX)
    return text


@dataclass
class Settings:
    db_url: str
    bot_pause: float = 0.8  # seconds a bot's move takes at least, so people can follow
    bot_threads: int = 2  # threads for cheap bots (rule, random)
    bot_processes: int = 1  # processes for searching bots (needs_sample), off the GIL
    # Seconds a bot's decision (or a hint) may take at most, by the bot's level (else
    # normal's): the tables' pace. Bots themselves stop on their budgets only.
    bot_time_caps: dict[str, float] = field(
        default_factory=lambda: {"easy": 0.1, "normal": 0.22, "hard": 2.0})
    rate: float = RATE  # messages per second a connection may send on average
    burst: int = BURST  # and at once
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(63))  # per match
    # A new table's id: random, since it is all a stranger needs to find the table. A test
    # server counts them instead (tests/server_kit.py), so that no check that reads a
    # message's text can take a random id for a card.
    new_table_id: Callable[[], str] = field(default=lambda: secrets.token_urlsafe(6))
    limits: Limits = field(default_factory=Limits)  # what one client may take (limits.py)
    auto_upgrade: bool | None = None  # upgrade an old schema at start (None: SQLite only)
    search_tables_per_client: int = 2  # open tables with searching bots one client may have
    bot_queue: int = 4  # searching jobs (bot moves, hints) a table may have waiting
    degrade_after: int = 2  # tables waiting for a worker before casual bots drop a level
    waiting_expiry: float = 30 * 60.0  # seconds a table may wait for its players
    absent_close: float = 15 * 60.0  # seconds a table with people may go with none connected
    unwatched_close: float = 5 * 60.0  # seconds a table of bots may play with nobody watching
    retention: float = 14 * 24 * 3600.0  # seconds a finished casual table's records are kept
    # Several processes on one database (parlour.server.lease, .relay): leases (None: on
    # for any database but SQLite, or with Redis) and the Redis that relays between them.
    leases: bool | None = None
    redis_url: str | None = None
    redis_prefix: str = "parlour:"  # of its keys and channels (one Redis, several parlours)
    drain_seconds: float = 5.0  # seconds a stopping process drains before it stops listening

    @property
    def leased(self) -> bool:
        if self.leases is not None:
            return self.leases
        return self.redis_url is not None or not self.db_url.startswith("sqlite")
    # Post-game reviews (parlour.server.reviews): iterations a decision (None: the game's
    # default, twice its hard level's), worker processes (0: a thread), reviews waiting or
    # running on the server at once, and of those one client's.
    review_budget: int | None = None
    review_processes: int = 2
    review_jobs: int = 8
    review_jobs_per_client: int = 2
    # The timed phases' clock (the slap of Hit the Deck) runs this many times slower than the
    # wall's: a window lasts that many times its length and a person's time is the wall's
    # divided by it (the rules' window and times are unchanged). 1 in play; a test server
    # whose browsers must answer inside a window sets more, so that a loaded machine's slow
    # pages do not change who was slowest.
    reaction_slowdown: float = 1.0
    # The server's two clocks, the one place it reads time from (tests set their own and
    # move them: tests/server_kit.py's Clock). ``now``, the wall clock: the parlour's
    # calendar (daily deals' days, rated-play pauses), the times it stores (a table's
    # creation and end, so its expiry and retention, sessions and their expiry, bans) and
    # the turn timer's deadline as sent. ``monotonic``, for spans of time: how long a
    # table went unwatched, without its people or untouched, and the per-client and
    # per-connection rate limits. No result of a game depends on either. (The event loop's
    # own clock times the turn timers, the timed phases and the bots' pace; the leases run
    # on the database's clock; the heartbeats between processes, on the real one.)
    now: Callable[[], float] = field(default=time.time)
    monotonic: Callable[[], float] = field(default=time.monotonic)


class Connection:
    """One websocket client: its seat (None for a spectator) and its outgoing queue.

    A message is written to the socket at once by ``send_now`` when the connection has
    one (a socket of this process: :data:`parlour.server.edge.SEND_NOW`), nothing is
    queued before it and the socket takes it without waiting; otherwise it is queued and
    sent by :meth:`pump` (through ``send``), so a broadcast never waits on a slow client.
    One that falls :data:`OUTBOX_LIMIT` messages behind is disconnected (it reconnects and
    gets the current view).
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: Seat | None = None,
                 close: Callable[[], Awaitable[None]] | None = None, lang: str = "en",
                 send_now: Callable[[str], bool] | None = None) -> None:
        self.send = send
        self.send_now = send_now
        self.seat = seat
        self.lang = lang  # the client's language: its narration, reasons and errors
        self._close = close
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.sending = False  # the pump holds a message it has not finished sending
        self.closed = False
        self.too_slow = False
        self.close_code: int | None = None  # set by kick: the code the socket is closed with

    def push(self, text: str) -> None:
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
                await self.send(text)
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
    rated: bool = False  # its results change ratings (parlour/server/ratings.py)
    daily: str | None = None  # the UTC day whose daily deal it plays (parlour/server/daily.py)
    turn_seconds: int = 0  # the turn timer (0: none)
    creator: Seat | None = None  # the seat of the person who opened it
    note: str | None = None  # why it closed (see CLOSED_NOTES)
    degraded: bool = False  # its bots play a level lower while the parlour is busy
    people_seen: float = 0.0  # a person was connected
    watched: float = 0.0  # anyone was connected
    standins: set[Seat] = field(default_factory=set)  # person seats a bot plays for now
    turn: JsonDict | None = None  # the running turn timer (see parlour.server.turns)
    turn_timer: asyncio.TimerHandle | None = None
    # At a rated match: the seats away (stood in for), each with the timer that forfeits
    # the match if its person is not back in time, and the account that left it, if any.
    forfeits: dict[Seat, asyncio.TimerHandle] = field(default_factory=dict)
    absent_accounts: dict[Seat, int] = field(default_factory=dict)
    key: str = field(default="", repr=False)  # the server's rejoin key (parlour.server.rejoin)
    speed: str = DEFAULT_SPEED  # how fast its bots and automatic steps go (parlour.server.pace)
    bot_pause: float = 0.8  # the server's bot pause (Settings.bot_pause), which speeds scale
    # When its last action (or deal) was applied here, by the event loop's clock: a bot's
    # pace counts from it. A table just taken over (replayed) has none: its last action
    # was at its old owner, longer ago than any pace, so play resumes at once.
    acted_at: float = -math.inf
    _views: dict[tuple[Seat | None, str], str] = field(default_factory=dict)
    _views_at: tuple[int, int] = (-1, -1)
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
        """The rejoin secret of the person at ``seat`` (see :mod:`parlour.server.rejoin`)."""
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
        """Each seat's name: a person's own, a bot's (:mod:`parlour.server.names`), None
        for a seat still free."""
        people = [s.name if s.kind == "person" else None for s in self.seats]
        bots = bot_names(self.id, [s.kind == "bot" for s in self.seats], people)
        return [p or b for p, b in zip(people, bots, strict=True)]

    def narration_names(self, you: Seat | None = None) -> list[Param]:
        """What the game's event sentences call each seat, told to ``you`` (see
        :mod:`parlour.server.pages`); worked out once for each set of names (each view
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
    def view_text(self, seat: Seat | None, lang: str = "en") -> str:
        """The encoded view message for ``seat`` in ``lang`` (its reasons and narration),
        built once per version."""
        key = (self.match, self.version)
        if self._views_at != key:
            self._views = {}
            self._views_at = key
        text = self._views.get((seat, lang))
        if text is None:
            assert self.state is not None
            view = localized(self.state.view(seat), lang)
            message = {"type": "view", "table": self.id, "match": self.match,
                       "version": self.version, "status": self.status, "view": view}
            told = narration(self.game, view.data, lambda: self.narration_names(seat), lang)
            if told is not None:
                message["narration"] = told
            if self.reaction is not None:
                message["timed"] = self.reaction.to_json()
            if self.turn is not None:
                message["turn"] = self.turn
            text = self._views[seat, lang] = encode(message)
        return text

    def refresh_views(self) -> None:
        """Forget the built views (something they carry, e.g. the turn timer, changed)."""
        self._views_at = (-1, -1)

    def send_view(self, conn: Connection) -> None:
        if self.state is None:
            return
        text = self.view_text(conn.seat, conn.lang)
        timed = self.reaction
        if timed is not None and timed.opened is not None:
            # Sent after the signal (a sync, a reconnection, another seat's slap): the
            # clock still runs from the signal, and the view says how long is left.
            message = orjson.loads(text)
            message["timed"] = timed.to_json(asyncio.get_running_loop().time())
            text = encode(message)
        conn.push(text)

    def broadcast_views(self) -> None:
        for conn in list(self.conns):
            self.send_view(conn)

    def broadcast_table(self) -> None:
        text = encode({"type": "table", "table": self.summary()})
        for conn in list(self.conns):
            conn.push(text)


class Hub:
    """Every live table, and the one path by which tables change."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.outages = store.outages  # the database's and Redis's (parlour.server.outages)
        self.tables: dict[str, Table] = {}
        self.clock = ReactionClock(self.submit, settings.reaction_slowdown)
        self.runner = BotRunner(settings, self.submit)
        self.runner.outages = self.clock.outages = self.outages
        self.turns = TurnTimer(self.stand_in, settings.now)
        self.react = self.clock.react
        self.unrestorable: dict[str, str] = {}  # table id -> what stopped its replay
        self._retrying: set[asyncio.Task[None]] = set()  # deals the database refused
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.quota = TableQuota(settings.limits, settings.search_tables_per_client)
        # With several processes on one database (parlour.server.lease): the leases, and
        # what to do when this process starts or stops owning a table (the relay's hooks).
        self.leases: Leases | None = None
        self.taking = True  # takes tables nobody owns (not while it drains)
        self.actions = 0  # actions applied (a metric)
        self.intent_done: Callable[[float], None] = lambda seconds: None  # (a metric)
        self.on_own: list[Callable[[Table], Awaitable[None]]] = []
        self.on_lose: list[Callable[[Table], None]] = []
        self.reviews = ReviewDesk(self, store)

    # ------------------------------------------------------------------ ownership
    def _fenced(self, table: Table | None, op: Op) -> Op:
        """``op`` as a write of ``table``: refused unless this process still owns it."""
        if table is None or self.leases is None:
            return op
        return self.leases.fence(table.id, op)

    def _moved(self, table: Table) -> ProtocolError:
        """A write of ``table`` was fenced: another process owns it now. Let it go; the
        error to answer with."""
        self.lose(table)
        return ProtocolError("unavailable", "this table moved to another server: connect "
                                            "again")

    def loading(self, table_id: str) -> bool:
        """Whether ``table_id`` is being loaded now (its lease taken, not yet in memory)."""
        return table_id in self._loading

    async def owning(self, table: Table) -> None:
        """This process has just started owning ``table`` (made it or took its lease):
        returns once the hooks are done (the relay listens to the table's channel)."""
        for hook in self.on_own:
            await hook(table)

    def lose(self, table: Table, handed: bool = False) -> None:
        """This process no longer owns ``table`` (its lease moved, or it ``handed`` it
        over): stop its bots and timers, forget it, and ask its clients to connect again
        (they land on a process that forwards them to the new owner)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        if self.leases is not None:
            self.leases.forget(table.id)
        table.status = "moved"
        if table.reaction is not None:
            table.reaction.stop()
            table.reaction = None
        self.turns.stop(table)
        for seat in list(table.bot_tasks):
            self.runner.stop(table, seat)
        for hook in self.on_lose:  # first: the relay takes its clients off quietly
            hook(table)
        for conn in list(table.conns):
            conn.kick(RECONNECT)
        if not handed:
            log.warning("table %s: this process no longer owns it", table.id)

    # ------------------------------------------------------------------ lifecycle
    async def restore(self) -> int:
        """Load every unfinished table from the database and set its bots going; a table
        that cannot be replayed is closed (:meth:`_quarantine`) and the rest start."""
        if self.leases is None:
            ids = await asyncio.to_thread(self.store.unfinished_ids)
        else:  # with leases, those nobody holds (parlour.server.lease)
            ids = await asyncio.to_thread(self.leases.orphans, RESTORE_AT_MOST)
        restored = 0
        for table_id in ids:
            try:
                restored += await self.get(table_id) is not None
            except ProtocolError:
                continue  # quarantined and logged
        return restored

    async def _quarantine(self, row: TableRow, err: Exception) -> None:
        """Close a table whose rows cannot be replayed: logged, kept in the database as
        closed, answered as "could not be restored"."""
        reason = f"{type(err).__name__}: {err}"[:300]
        log.error("table %s could not be restored, closed: %s", row.id, reason)
        self.unrestorable[row.id] = reason
        if row.status in ("waiting", "playing"):
            try:
                await self.store.write(Store.op_close(row.id, "unrestorable", self.settings.now()))
            except StoreError:
                log.error("table %s: could not be marked closed in the database", row.id)

    @property
    def procs(self) -> ProcessPoolExecutor | None:
        """The bots' worker processes, once a searching bot has sat."""
        return self.runner.procs

    def schedule_bots(self, table: Table) -> None:
        self.runner.schedule(table)

    async def close(self) -> None:
        for task in self._retrying:
            task.cancel()
        for table in self.tables.values():
            if table.reaction is not None:
                table.reaction.stop()
            self.turns.stop(table)
        await self.runner.close(list(self.tables.values()))
        await self.reviews.close()

    async def get(self, table_id: str) -> Table | None:
        """The table with this id, loaded from the database if it is not live.
        ``unrestorable`` for a table whose rows cannot be replayed (it is closed). With
        leases, loading it takes its lease first: :class:`Elsewhere` (with its rows) if
        another process holds it."""
        if not TABLE_ID.match(table_id):
            return None
        if table_id in self.unrestorable:
            raise ProtocolError("unrestorable", "this table is closed: it could not be "
                                                "restored")
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            if self.leases is not None and (
                    not self.taking or await self._read(self.leases.claim, table_id) is None):
                other = await self._read(self.store.load_table, table_id)
                if other is None:
                    fut.set_result(None)
                    return None
                raise Elsewhere(other)  # another process owns it
            row = await self._read(self.store.load_table, table_id)
            if row is None:
                fut.set_result(None)
                return None
            try:
                table = self._rebuild(row)
            except Exception as err:
                await self._quarantine(row, err)
                raise ProtocolError("unrestorable", "this table is closed: it could not be "
                                                    "restored") from None
            self.tables[table_id] = table
            self.clock.start(table)  # a timed phase reopens with a full window
            self.turns.restart(table)  # and a turn has a full turn's time again
            self.schedule_bots(table)
            await self.owning(table)
            if table.status == "waiting" and not table.free_seats():  # handed over undealt
                task = asyncio.create_task(self._start_or_retry(table))
                self._retrying.add(task)
                task.add_done_callback(self._retrying.discard)
            fut.set_result(table)
            return table
        except BaseException as err:
            fut.set_exception(err)  # any concurrent loads of this table raise it too;
            fut.exception()  # taken here, so a load nobody else awaited logs nothing more
            raise
        finally:
            del self._loading[table_id]

    async def _read(self, work: Callable[[str], T], table_id: str) -> T:
        """``work(table_id)`` on the database, in a thread: ``unavailable`` (503) while the
        database is out of reach (logged once per outage: :mod:`.outages`)."""
        try:
            done = await asyncio.to_thread(work, table_id)
        except DBAPIError as err:
            if not self.outages.note(err):
                raise
            raise unavailable(DATABASE) from None
        self.outages.answered(DATABASE)
        return done

    def _rebuild(self, row: TableRow) -> Table:
        """The table in memory, replayed from its rows; ValueError (or the engine's own
        error) for rows that do not make a playable table."""
        if row.problem is not None:
            raise ValueError(row.problem)
        if row.game not in game_ids():
            raise ValueError(f"unknown game {row.game!r}")
        game = get_game(row.game)
        if not isinstance(row.options, dict):
            raise ValueError("its options are not a JSON object")
        if len(row.seats) != row.num_seats or game.check_seats(row.num_seats) != row.num_seats:
            raise ValueError(f"{len(row.seats)} seat rows for {row.num_seats} seats")
        if row.status not in ("waiting", "playing", "finished", "closed"):
            raise ValueError(f"unknown status {row.status!r}")
        options = game.recorded_options(row.options)  # an option added since: its legacy
        seen = self.settings.monotonic()  # its last signs of life: now
        table = Table(row.id, game, row.num_seats, options, row.created,
                      [SeatInfo(s.kind, s.bot, s.name, s.token_hash, s.account_id, s.client)
                       for s in row.seats],
                      status=row.status, match=row.match, listed=row.listed,
                      compared=row.compared, rated=row.rated, daily=row.daily,
                      turn_seconds=default_turn_seconds(game.id) if row.turn_seconds is None
                      else row.turn_seconds,
                      creator=row.creator, note=row.note, key=self.store.rejoin_key,
                      speed=row.speed if row.speed in SPEEDS else DEFAULT_SPEED,
                      bot_pause=self.settings.bot_pause, hints=row.hints and not row.compared,
                      touched=seen, people_seen=seen, watched=seen)
        table.matches = {m.match: MatchInfo(m.match, m.finished is not None, m.result, m.deal)
                         for m in row.matches.values()}
        current = row.matches.get(row.match)
        if current is None and (row.status == "playing" or row.match > 0):
            raise ValueError(f"match {row.match} has no row")
        if row.status == "playing" and current is not None and current.finished is not None:
            raise ValueError(f"match {row.match} is over but the table is playing")
        if current is not None:
            self._begin(table, current.seed)
            state = table.state
            assert state is not None
            for seat, text in current.actions:
                state.apply(state.parse_action(text), seat)
            table.version = len(current.actions)
            self.clock.sync(table)
        log.info("table %s restored: %s, match %d, %d actions", row.id, row.game, row.match,
                 table.version)
        return table

    def _begin(self, table: Table, seed: int) -> None:
        """Set up the match ``table.match`` in memory (state and bots) from its seed."""
        for timer in table.forfeits.values():  # the match before's
            timer.cancel()
        table.forfeits.clear()
        table.absent_accounts.clear()
        table.seed = seed
        table.state = table.game.new(seed, table.num_seats, **table.options)
        table.version = 0
        # At a daily deal the cards are everyone's, the bots' seeds this try's own: their
        # chance choices do not repeat another try's (docs/players.md).
        bots_seed = derive_seed(seed, "daily try", table.id) if table.daily else seed
        table.bot_rng = random.Random(derive_seed(bots_seed, "observe"))
        table.bots = {i: make_bot(table.game, s.bot or "random", i,
                                  derive_seed(bots_seed, "bot", i))
                      for i, s in enumerate(table.seats) if s.kind == "bot"}
        table.standins = {i for i, s in enumerate(table.seats)  # a freed seat: a bot plays it
                          if s.kind == "person" and s.token_hash is None}
        for i in table.standins:
            table.bots[i] = make_bot(table.game, STAND_IN, i, derive_seed(seed, "stand-in", i))

    # ------------------------------------------------------------------ lobby
    def sweep(self, idle: float = IDLE_FINISHED) -> int:
        """Let go of finished or closed tables nobody has looked at for ``idle`` seconds
        (they stay in the database and load again on demand)."""
        now = self.settings.monotonic()
        gone = [t.id for t in self.tables.values() if not t.is_open and not t.conns
                and not t.bot_tasks and now - t.touched > idle]
        for table_id in gone:
            del self.tables[table_id]
        return len(gone)

    async def tidy(self) -> dict[str, int]:
        """The periodic round of the table life cycle (``docs/operations.md``): close the
        tables nobody joined, nobody came back to or nobody watches; let go of idle ones;
        delete casual tables whose retention is over. Returns what it did, by kind."""
        s = self.settings
        now, wall = s.monotonic(), s.now()
        done = {"expired": 0, "abandoned": 0, "unwatched": 0, "released": 0, "deleted": 0}
        for table in list(self.tables.values()):
            if table.conns:
                table.watched = now
            if any(c.seat is not None for c in table.conns):
                table.people_seen = now
            note = None
            if table.status == "waiting" and wall - table.created > s.waiting_expiry:
                note = "expired"
            elif table.status == "playing" and table.has_people() \
                    and now - table.people_seen > s.absent_close:
                note = "abandoned"
            elif table.status == "playing" and not table.has_people() and not table.conns \
                    and now - table.watched > s.unwatched_close:
                note = "unwatched"
            if note is not None:
                try:
                    await self.close_table(table, note)
                    done[note] += 1
                except ProtocolError:
                    pass  # the database refused: tried again next round
        done["released"] = self.sweep()
        try:
            gone = await asyncio.to_thread(self.store.prune, wall - s.retention)
        except Exception:
            log.exception("deleting old tables failed")
            gone = []
        for table_id in gone:
            self.tables.pop(table_id, None)
        done["deleted"] = len(gone)
        if any(done.values()):
            log.info("tidy: %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
        return done

    async def close_table(self, table: Table, note: str) -> None:
        """Close a table before its match is over (``note``: why, see CLOSED_NOTES); its
        log stays, and its finished matches' records with it."""
        async with table.lock:
            if not table.is_open:
                return
            if table.rated and table.status == "playing":  # nobody came back: their loss
                for seat, info in enumerate(table.seats):
                    if info.kind == "person":
                        await self._left_rated(table, seat)
            await self._write(Store.op_close(table.id, note, self.settings.now()), table)
            table.status, table.note = "closed", note
            table.touched = self.settings.monotonic()
            if table.reaction is not None:
                table.reaction.stop()
                table.reaction = None
            self.turns.stop(table)
            table.refresh_views()
        log.info("table %s closed: %s", table.id, note)
        table.broadcast_table()
        table.broadcast_views()

    async def _write(self, op: Op, table: Table | None = None) -> None:
        """Commit ``op`` (a change of ``table``, fenced by its lease when there are
        leases); ``unavailable`` (503) if the database refuses."""
        try:
            await self.store.write(self._fenced(table, op))
        except Fenced:
            assert table is not None
            raise self._moved(table) from None
        except StoreError:
            raise ProtocolError("unavailable", "the parlour could not save that: try again "
                                               "in a moment") from None

    def open_tables(self) -> list[Table]:
        """The lobby list: listed tables waiting or playing, newest first."""
        live = [t for t in self.tables.values() if t.is_open and t.listed]
        return sorted(live, key=lambda t: -t.created)

    async def create(self, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     name: str | None, seat: Seat | None, deal: int | None = None, *,
                     public: bool | None = None, turn_seconds: int | None = None,
                     speed: str | None = None,
                     client: ClientKey | None = None, account_id: int | None = None,
                     hints: bool | None = None, compared: bool = False, rated: bool = False,
                     daily: str | None = None
                     ) -> tuple[Table, Seat | None, str | None]:
        """A new table opened by ``client``, within the open-table caps. The creator takes
        ``seat`` (default: the first person seat); a game dealt by number deals ``deal``
        first (default: a random number); ``account_id`` is the creator's account, if they
        are signed in.

        A table with a seat for a friend is private unless ``public``: not in the lobby
        list, reached only through its invite. ``turn_seconds`` sets the turn timer (None:
        the game's default, 0: none); ``speed`` paces its bots and automatic steps (see
        :mod:`parlour.server.pace`; None: normal). ``hints`` lets its seats ask for hints: on
        by default, and refused at a ``compared`` table (rated, daily), where it is off. The
        caps (:class:`~parlour.server.limits.TableQuota`) are counted by the write that
        creates the table.

        A ``rated`` table (its creator signed in as ``account_id``) plays the game's full
        rules with bots of fixed ratings; a ``daily`` one deals that day's daily deal. Both
        are compared: kept, never degraded, without hints, never dealt by number."""
        if game_id not in game_ids():
            raise ProtocolError("bad_game", "unknown game {game}: expected one of {expected}",
                                game=repr(game_id), expected=", ".join(game_ids()))
        game = get_game(game_id)
        deal = check_deal(game, deal)
        try:
            num_seats = game.check_seats(len(seats) if seats else None)
            resolved = game.resolve_options(options)
        except OptionError as err:
            raise ProtocolError("bad_options", err.message) from None
        infos = [self._seat_spec(game, spec) for spec in seats] if seats else \
            [SeatInfo("person")] + [SeatInfo("bot", "random") for _ in range(num_seats - 1)]
        turn_seconds = check_turn_seconds(game, turn_seconds)
        speed = check_speed(speed)
        compared = compared or rated or daily is not None
        if hints and compared:
            raise ProtocolError("bad_options", "hints are off at tables whose results are "
                                               "compared")
        hints = not compared if hints is None else hints
        if rated:
            check_rated(game, resolved, infos, account_id)
            if turn_seconds == 0 and not spec(game.id).solitaire:
                raise ProtocolError("bad_options", "a rated match always has a turn timer: "
                                                   "open it with one, or with the game's own")
        if (rated or daily is not None) and deal is not None:
            raise ProtocolError("bad_deal", "rated matches and daily deals are not dealt by "
                                            "number")
        people = [i for i, s in enumerate(infos) if s.kind == "person"]
        token = None
        if people:
            if seat is None:
                seat = people[0]
            if not (isinstance(seat, int) and 0 <= seat < num_seats) \
                    or infos[seat].kind != "person":
                raise ProtocolError("bad_seat", "sit at one of the seats kept for people")
            token = new_token()
            infos[seat].name = clean_name(name)
            infos[seat].token_hash = token_hash(token)
            infos[seat].account_id = account_id
            infos[seat].client = client_hash(client) if client is not None else None
        else:
            seat = None
        friends = len(people) > 1
        seen = self.settings.monotonic()
        table = Table(self._new_id(), game, num_seats, resolved, self.settings.now(), infos,
                      next_deal=deal, listed=False if daily is not None else
                      public if public is not None else not friends,
                      turn_seconds=turn_seconds, creator=seat,
                      key=self.store.rejoin_key, speed=speed, bot_pause=self.settings.bot_pause,
                      hints=hints, compared=compared, rated=rated, daily=daily,
                      touched=seen, people_seen=seen, watched=seen)
        row = TableRow(table.id, game.id, num_seats, resolved, table.created, "waiting", 0,
                       [SeatRow(s.kind, s.bot, s.name, s.token_hash, s.account_id, s.client)
                        for s in infos], {},
                       listed=table.listed, compared=compared, turn_seconds=turn_seconds,
                       creator=seat, speed=speed, hints=hints, rated=rated, daily=daily,
                       client=None if client is None else client_hash(client),
                       searches=self._searches(game, infos))
        create = Store.op_create_table(row)
        if self.leases is not None:
            create = both(create, self.leases.create_op(table.id))
        capped = self.quota.capped(create, row.client, row.searches)
        await self._write(capped)
        if capped.refusal is not None:
            raise capped.refusal
        if self.leases is not None:
            self.leases.hold(table.id)
        self.tables[table.id] = table
        await self.owning(table)
        log.info("table %s created: %s, %d seats", table.id, game.id, num_seats)
        if not table.free_seats():
            await self._start_or_retry(table)
        return table, seat, token

    def _seat_spec(self, game: Game, spec: dict[str, Any]) -> SeatInfo:
        if not isinstance(spec, dict) or spec.get("kind") not in ("person", "bot"):
            raise ProtocolError("bad_seat", 'each seat is {"kind": "person"} or '
                                            '{"kind": "bot", "bot": "<kind>"}')
        if spec["kind"] == "person":
            return SeatInfo("person")
        kind = spec.get("bot") or "random"
        if not isinstance(kind, str) or len(kind) > 40:
            raise ProtocolError("bad_seat", "a bot kind is a short text")
        try:
            make_bot(game, kind, 0, 0)
        except (OptionError, TypeError, ValueError) as err:
            raise ProtocolError("bad_seat", reason_of(err)) from None
        return SeatInfo("bot", kind.strip().lower())

    @staticmethod
    def _searches(game: Game, seats: list[SeatInfo]) -> bool:
        """Whether any of these seats is a searching bot (one that works the workers)."""
        kinds = bot_kinds(game.id)
        for s in seats:
            cls = kinds.get((s.bot or "").partition(":")[0]) if s.kind == "bot" else None
            if cls is not None and cls.needs_sample:
                return True
        return False

    def _new_id(self) -> str:
        while True:
            table_id = self.settings.new_table_id()
            if table_id not in self.tables:
                return table_id

    async def join(self, table: Table, name: str, seat: Seat | None,
                   digest: str | None = None, account_id: int | None = None,
                   client: str | None = None) -> tuple[Seat, str]:
        """Sit a person (signed in as ``account_id``, or a guest) at a free seat; returns the
        seat and its token. A seat freed during play (its person left) is taken over from the
        stand-in bot playing it. A process that forwards the join
        (:mod:`parlour.server.relay`) makes the token itself and sends its ``digest`` only:
        then the token returned is empty."""
        clean = clean_name(name)
        async with table.lock:
            free = table.free_seats()
            if table.status == "closed":
                raise ProtocolError("closed", "this table is closed")
            if not free:
                raise ProtocolError("table_full", "every seat at this table is taken: you can "
                                                  "watch")
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise ProtocolError("seat_taken", "seat {seat} is not free (free: {free})",
                                    seat=seat, free=Many(tuple(free)))
            token = new_token() if digest is None else ""
            digest = digest or token_hash(token)
            await self._write(Store.op_take_seat(table.id, seat, clean, digest, account_id,
                                                 client),
                              table)
            table.seats[seat].name = clean
            table.seats[seat].token_hash = digest
            table.seats[seat].account_id = account_id
            table.seats[seat].client = client
        table.broadcast_table()
        self.reclaim(table, seat)  # a seat freed during play: the stand-in gives it up
        if table.status == "waiting" and not table.free_seats():
            await self._start_or_retry(table)
        return seat, token

    async def leave(self, table: Table, seat: Seat | None) -> None:
        """The person at ``seat`` leaves it: the seat is free for someone else, and while a
        match is on a stand-in bot plays it."""
        if seat is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        await self._free(table, seat)

    async def free_seat(self, table: Table, seat: Seat | None, other: object) -> None:
        """The table's creator (at ``seat``) frees seat ``other``, held by someone who has
        gone: nobody is connected at it, and the table waits for it or a stand-in plays it."""
        if seat is None or seat != table.creator:
            raise ProtocolError("not_creator", "only the person who opened the table can "
                                               "free a seat")
        if not isinstance(other, int) or isinstance(other, bool) \
                or not 0 <= other < table.num_seats:
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
        info = table.seats[other]
        if info.kind != "person" or info.token_hash is None or other == seat:
            raise ProtocolError("bad_seat", "that seat is not held by another person")
        if table.connected(other) or (table.status == "playing"
                                      and other not in table.standins):
            raise ProtocolError("still_there", "that player is still at the table")
        await self._free(table, other)

    async def _free(self, table: Table, seat: Seat) -> None:
        async with table.lock:
            if not table.is_open and table.status != "finished":
                raise ProtocolError("not_playing", "this table is closed")
            if table.rated and table.status == "playing":
                await self._left_rated(table, seat)
            await self._write(Store.op_free_seat(table.id, seat), table)
            table.seats[seat].name = table.seats[seat].token_hash = None
            table.seats[seat].account_id = None
            for conn in list(table.conns):
                if conn.seat == seat:
                    conn.seat = None  # whoever left may stay and watch
            if table.status == "playing":
                self._stand_in(table, seat)
                self._watch_forfeit(table, seat)
            log.info("table %s: seat %d is free", table.id, seat)
        table.broadcast_table()
        table.broadcast_views()
        self.schedule_bots(table)

    async def link_seat(self, table: Table, seat: Seat, account_id: int | None) -> None:
        """The signed-in person ``account_id`` holds ``seat`` (None: a guest does; statistics
        and ratings follow it)."""
        await self._write(Store.op_link_seat(table.id, seat, account_id), table)
        table.seats[seat].account_id = account_id

    async def _left_rated(self, table: Table, seat: Seat) -> None:
        """The person at ``seat`` leaves a rated match before its end: if signed in, it
        counts as their loss now (and as a leave: see ratings.PLAYBAN)."""
        account = await asyncio.to_thread(seat_account, self.store.engine, table.id, seat)
        if account is None:
            return
        table.absent_accounts[seat] = account
        await self._write(op_left(table.id, table.match, table.game.id,
                                  [SeatKind(s.kind, s.bot) for s in table.seats], seat,
                                  account, self.settings.now()))
        log.info("table %s: seat %d left a rated match (counted as its loss)", table.id, seat)

    # ------------------------------------------------------------------ stand-ins
    def stand_in(self, table: Table, seat: Seat) -> None:
        """The turn timer of ``seat`` ran out: a bot plays it until its person is back."""
        if table.status != "playing" or seat in table.standins:
            return
        self._stand_in(table, seat)
        log.info("table %s: a %s bot stands in for seat %d", table.id, STAND_IN, seat)
        self._watch_forfeit(table, seat)
        self.turns.restart(table)
        table.refresh_views()
        table.broadcast_table()
        table.broadcast_views()
        self.schedule_bots(table)

    def _watch_forfeit(self, table: Table, seat: Seat) -> None:
        """At a rated match, a seat a stand-in plays (its person silent past the turn timer,
        or gone) forfeits the match if nobody is back at it within another turn's time
        (:data:`FORFEIT_TURNS` of them): the others need not play out a match against a
        bot, nor leave it and lose (docs/players.md)."""
        if not table.rated or table.status != "playing" or seat in table.forfeits \
                or table.turn_seconds <= 0:
            return
        match = table.match
        loop = asyncio.get_running_loop()

        def due() -> None:
            table.forfeits.pop(seat, None)
            task = asyncio.create_task(self.forfeit(table, seat, match))
            self._retrying.add(task)  # held until done, like the retried deals
            task.add_done_callback(self._retrying.discard)

        table.forfeits[seat] = loop.call_later(table.turn_seconds * FORFEIT_TURNS, due)

    async def forfeit(self, table: Table, seat: Seat, match: int) -> None:
        """``seat`` was away from a rated match past the limit: its side loses it and the
        others win; the table closes (``forfeited``)."""
        async with table.lock:
            if table.status != "playing" or table.match != match \
                    or seat not in table.standins:
                return
            account = table.absent_accounts.get(seat, table.seats[seat].account_id)
            await self._write(op_forfeit(table.id, match, table.game.id,
                                         [SeatKind(s.kind, s.bot) for s in table.seats],
                                         seat, account, self.settings.now()))
        log.info("table %s: seat %d was away too long: the rated match is its loss",
                 table.id, seat)
        await self.close_table(table, "forfeited")

    def _stand_in(self, table: Table, seat: Seat) -> None:
        table.standins.add(seat)
        table.bots[seat] = make_bot(table.game, STAND_IN, seat,
                                    derive_seed(table.seed, "stand-in", table.version, seat))

    def reclaim(self, table: Table, seat: Seat) -> None:
        """The person at ``seat`` is back (connected, or spoke): they play it again."""
        if seat not in table.standins or table.seats[seat].token_hash is None:
            return
        table.standins.discard(seat)
        table.bots.pop(seat, None)  # its bot task sees it and stops before moving
        timer = table.forfeits.pop(seat, None)
        if timer is not None:
            timer.cancel()
        log.info("table %s: seat %d is back", table.id, seat)
        self.turns.restart(table)
        table.refresh_views()
        table.broadcast_table()
        table.broadcast_views()

    async def start(self, table: Table) -> None:
        """Deal a new match at a table whose seats are all filled."""
        async with table.lock:
            if table.status in ("playing", "closed", "moved") \
                    or (table.status == "waiting" and table.free_seats()):
                return
            match = table.match + 1
            deal = None
            if table.daily is not None:
                seed = daily_seed(self.store.deal_key, table.game.id, table.daily)
            elif spec(table.game.id).numbered_deals:
                deal = table.next_deal or self.settings.new_seed() % MAX_DEAL + 1
                seed = deal_seed(self.store.deal_key, table.game.id, deal)
            else:
                seed = self.settings.new_seed()
            # A game may be over at the deal (Clockwork Spades can end with no decision).
            dealt = table.game.new(seed, table.num_seats, **table.options).outcome
            result = dealt.text() if dealt is not None else None
            await self._write(Store.op_start_match(table.id, match, seed, result, deal,
                                                       self.settings.now()), table)
            table.next_deal = None
            table.match = match
            table.status = "playing" if result is None else "finished"
            table.matches[match] = MatchInfo(match, result is not None, result, deal)
            self._begin(table, seed)
            table.acted_at = asyncio.get_running_loop().time()
            self.clock.sync(table)
            self.turns.restart(table)
            log.info("table %s: match %d started", table.id, match)
        if result is not None:
            await self._finished(table)
        table.broadcast_table()
        table.broadcast_views()
        self.clock.start(table)
        self.schedule_bots(table)

    async def _start_or_retry(self, table: Table) -> None:
        """Deal the first match of a table whose seats have just filled. The seat is
        committed already, so a database that refuses the deal does not undo it: the deal
        is tried again (logged, after a growing pause) until it is saved."""
        try:
            await self.start(table)
        except ProtocolError as err:
            if err.code != "unavailable":
                raise
            task = asyncio.create_task(self._retry_start(table))
            self._retrying.add(task)
            task.add_done_callback(self._retrying.discard)

    async def _retry_start(self, table: Table) -> None:
        pause = RETRY_FIRST
        while table.status == "waiting" and not table.free_seats():
            if not self.outages.down(DATABASE):  # an outage is logged once, as such
                log.warning("table %s: the database refused the deal; trying again in "
                            "%.1f s", table.id, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MOST)
            try:
                await self.start(table)
            except ProtocolError as err:
                if err.code != "unavailable":
                    return

    async def again(self, table: Table, seat: Seat | None) -> None:
        """Play another match with the same seats, once the last one is over."""
        if table.status != "finished":
            if table.status == "playing":
                raise ProtocolError("not_finished", "the match is still being played")
            raise ProtocolError("not_finished", "the table has not started")
        if table.daily is not None:
            raise ProtocolError("daily_once", "a daily deal is played once: tomorrow brings "
                                              "the next")
        if seat is None and table.has_people():
            raise ProtocolError("not_seated", "only a player at this table can deal again")
        if seat is None and not table.conns:
            raise ProtocolError("not_watched", "a table of bots deals again only while "
                                               "someone watches it")
        await self.start(table)

    # ------------------------------------------------------------------ play
    def parse_intent(self, table: Table, text: str) -> int:
        try:
            return table.game.parse_action(text)
        except (NotationError, ValueError) as err:
            raise ProtocolError("unknown_action", reason_of(err)) from None

    async def submit(self, table: Table, seat: Seat, action: int, version: int | None,
                     phase: str | None = None, person: bool = False) -> None:
        """Apply ``action`` for ``seat`` if the rules allow it: commit, apply, broadcast.

        ``phase`` names the timed phase an answer is for (then ``version`` is not checked:
        the others' answers move the version on). A ``person`` may not send a timed
        phase's action as an ordinary intent: the server times it (:meth:`react`)."""
        async with table.lock:
            state = table.state
            if table.status != "playing" or state is None:
                raise not_playing(table)
            timed = table.reaction
            if phase is not None:
                if timed is None or timed.id != phase:
                    if timed is None:
                        raise ProtocolError("wrong_phase", "that moment is over")
                    raise ProtocolError("wrong_phase", "that is not the {reaction} now open",
                                        reaction=Term("reaction", timed.reaction.name))
                if seat not in state.to_act:
                    raise ProtocolError("answered", "one {reaction} each: yours is in already",
                                        reaction=Term("reaction", timed.reaction.name))
            elif person and timed is not None and action in timed.reaction.actions:
                raise ProtocolError("timed", 'the server times the {reaction}: send {{"type": '
                                             '"react", "phase": "{phase}"}}, with no time of '
                                             'your own', phase=timed.id,
                                    reaction=Term("reaction", timed.reaction.name))
            if version is not None and version != table.version:
                raise Stale(version, table.version)
            if seat not in state.to_act or action not in state.legal_actions(seat):
                try:
                    state.clone().apply(action, seat)  # for the engine's own reason
                except IllegalAction as err:
                    raise ProtocolError("illegal", err.message) from None
                raise ProtocolError("illegal", "that action is not legal now")
            text = table.game.action_text(action)
            after = state.clone()
            after.apply(action, seat)
            outcome = after.outcome
            result = outcome.text() if outcome is not None else None
            try:
                await self.store.write(self._fenced(table, Store.op_action(
                    table.id, table.match, table.version, seat, text, result,
                    self.settings.now())))
            except Fenced:
                raise self._moved(table) from None
            except StoreError:
                raise ProtocolError("unavailable", "the move could not be saved: try again") \
                    from None
            table.state = after
            table.version += 1
            table.acted_at = asyncio.get_running_loop().time()
            self.actions += 1
            table.touched = self.settings.monotonic()
            if result is not None:
                table.status = "finished"
                table.matches[table.match] = MatchInfo(table.match, True, result, table.deal)
            self.clock.sync(table)
            self.turns.restart(table)
        table.broadcast_views()
        self.clock.start(table)
        if result is not None:
            await self._finished(table)
            table.broadcast_table()
        else:
            self.schedule_bots(table)

    # ------------------------------------------------------------------ players
    async def _finished(self, table: Table) -> None:
        """A match just ended: remember it for the signed-in people at it (statistics,
        ratings, daily results). A failure is logged: the match itself is saved already."""
        state = table.state
        if state is None or state.outcome is None:
            return
        done = Finished(table.id, table.match, table.game.id,
                        [SeatKind(s.kind, s.bot) for s in table.seats], table.rated,
                        table.daily, state)
        try:
            await self.store.write(op_finished(done, self.settings.now()))
        except StoreError:
            log.error("table %s: match %d's results could not be saved for its players",
                      table.id, table.match)

    def check_watchable(self, table: Table) -> None:
        """A daily deal may not be watched before its day is over: a spectator would see
        the cards someone else is about to play."""
        if table.daily is not None and not day_over(table.daily, self.settings.now()):
            raise ProtocolError("daily_secret", "a daily deal can be watched once its day is "
                                                "over (UTC)")

    # ------------------------------------------------------------------ hints
    async def hint(self, table: Table, seat: Seat, version: int | None,
                   limit: Callable[[], Awaitable[None]] | None = None) -> JsonDict:
        """The game's hint bot's advice for ``seat`` at the current version (its spec's
        ``hint_bot``, else ``ismcts``): its choice, its estimated chance to win (if its
        values are chances) and the best few values. ``limit()`` is awaited before new
        work starts (the client's hint rate: it raises to refuse).

        The bot gets the seat's :class:`Observation` (its view, and a determinization if it
        samples), never the state, and thinks off the event loop like a bot seat. One
        answer per seat and version: asking again while it thinks waits for the same one."""
        key = self._hint_key(table, seat, version)
        if key not in table.asked and limit is not None:
            await limit()
            key = self._hint_key(table, seat, version)  # the table may have moved on
        pending = table.asked.get(key)
        if pending is None:
            state = table.state
            assert state is not None
            table.asked = {k: f for k, f in table.asked.items() if k[:2] == key[:2]}
            cls = bot_kinds(table.game.id)[hint_bot(table.game.id) or "ismcts"]
            obs = observe(state, seat, random.Random(secrets.randbits(63)), view=True,
                          sample=cls.needs_sample)

            async def advise() -> JsonDict:  # the advice, and its move in words (any language)
                answer = await self.runner.advise(table, obs, cls.needs_sample)
                said = action_words(table.game, obs.view, answer["action"])
                return answer | {"words": message_to_json(said)}

            pending = table.asked[key] = asyncio.ensure_future(advise())
            pending.add_done_callback(lambda f: f.cancelled() or f.exception())
        answer = await asyncio.shield(pending)
        return {"type": "hint", "match": key[0], "version": key[1], **answer}

    @staticmethod
    def _hint_key(table: Table, seat: Seat, version: int | None) -> tuple[int, int, Seat]:
        """The hint ``seat`` may ask for now (match, version, seat), or the refusal."""
        if not table.hints:
            raise ProtocolError("no_hint", "this table gives no hints")
        state = table.state
        if table.status != "playing" or state is None:
            raise not_playing(table)
        if version is not None and version != table.version:
            raise Stale(version, table.version)
        if seat not in state.to_act or not state.legal_actions(seat):
            raise ProtocolError("no_hint", "there is nothing for you to do now")
        return table.match, table.version, seat

    # ------------------------------------------------------------------ records
    async def finished_state(self, table: Table, match: int) -> State:
        info = table.matches.get(match)
        if info is None:
            raise ProtocolError("not_found", "this table has no match {match}", match=match)
        if table.daily is not None and not day_over(table.daily, self.settings.now()):
            raise ProtocolError("daily_secret", "the records of a daily deal open when its day "
                                                "is over (UTC)")
        if not info.finished:
            raise ProtocolError("not_finished", "a record can be had once the match is over")
        if match == table.match and table.state is not None and table.state.is_over:
            return table.state
        row = await asyncio.to_thread(self.store.load_table, table.id)
        actions = await asyncio.to_thread(self.store.load_actions, table.id, match)
        assert row is not None
        seed = row.matches[match].seed
        state = table.game.new(seed, table.num_seats, **table.options)
        for seat, text in actions:
            state.apply(state.parse_action(text), seat)
        return state

    async def replay(self, table: Table, match: int, step: int, seat: Seat | None,
                     lang: str = "en") -> JsonDict:
        """Finished match ``match`` as ``seat`` saw it after ``step`` actions (spectators
        for None; the last step if ``step`` is out of range): the view, the action that
        led there, and the game's narration of it."""
        final = await self.finished_state(table, match)
        if seat is not None and not 0 <= seat < table.num_seats:
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
        history = final.history
        if step < 0 or step > len(history):
            step = len(history)
        # the state before the step's move (its words read the mover's view then), and after
        state = table.game.new(final.seed, table.num_seats, **table.options)
        for s, a in history[:max(0, step - 1)]:
            state.apply(a, s)
        last = history[step - 1] if step else None
        action: JsonDict | None = None
        if last is not None:
            text = table.game.action_text(last[1])
            action = {"seat": last[0], "text": text, "words": render(
                action_words(table.game, state.view(last[0]), text), lang)}
            state.apply(last[1], last[0])
        view = localize(state.view(seat), lang)
        answer: JsonDict = {"steps": len(history), "step": step, "seat": seat,
                            "action": action, "view": view, "deal": table.matches[match].deal}
        told = narration(table.game, view, table.narration_names, lang)
        if told is not None:
            answer["narration"] = told
        return answer

    async def record(self, table: Table, match: int) -> str:
        state = await self.finished_state(table, match)
        comment = f"Parlour table {table.id}, match {match}"
        return record_text(state, table.player_names(), comment=comment)


def both(first: Op, second: Op) -> Op:
    """One write of two operations, in one transaction."""
    def op(conn: Any) -> None:
        first(conn)
        second(conn)
    return op


def check_rated(game: Game, options: dict[str, Any], seats: list[SeatInfo],
                account_id: int | None) -> None:
    """A rated table: opened by a signed-in person, the game's full rules (its default
    options), and bots with fixed ratings only."""
    if account_id is None:
        raise ProtocolError("sign_in", "sign in to play rated matches")
    if options != game.resolve_options({}):
        raise ProtocolError("bad_options", "a rated match plays the game's full rules: open "
                                           "it without options")
    for s in seats:
        if s.kind == "bot" and bot_rating(game.id, s.bot or "random") is None:
            rated = ", ".join(spec(game.id).bot_elo)
            raise ProtocolError("bad_seat", "a {bot} bot has no fixed rating: rated tables take "
                                            "{rated}", bot=Code(s.bot or ""),
                                rated=Code(rated or "-"))


def bot_levels(cls: type[Bot]) -> list[str]:
    """The levels a bot kind takes (``kind:level``), if its constructor takes a level."""
    return [str(x) for x in cls.levels]


def describe_games() -> list[JsonDict]:
    """Every game with its options and the bot kinds (and their levels) that play it."""
    out = []
    for gid in game_ids():
        found = spec(gid)
        game = found.game
        info = game.describe()
        info["bots"] = [{"kind": k, "levels": bot_levels(cls),
                         "help": (cls.__doc__ or k).strip().splitlines()[0].replace("``", "")}
                        for k, cls in bot_kinds(gid).items() if cls.at_tables]
        info["seat_names"] = {str(n): [game.seat_name(s, n) for s in range(n)]
                              for n in range(game.min_seats, game.max_seats + 1)}
        info["deals"] = MAX_DEAL if found.numbered_deals else None  # dealt by number 1..
        info["hints"] = True  # from its hint bot, else ismcts (a table may turn them off)
        info["renderer"] = found.web_path(found.web.script)
        info["bot_help"] = dict(found.bot_help)  # its own bots' tooltips (the page: t())
        info["picture"] = found.web_path(found.web.picture) if found.web.picture else None
        info["solitaire"] = found.solitaire  # one player: no turn timer
        info.update(showcase_json(gid))  # the tile's line and the presets
        info["speeds"] = list(SPEEDS)
        out.append(info)
    return out
