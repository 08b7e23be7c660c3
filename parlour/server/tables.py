"""Tables in play: who sits where, the match state, its connections and its bots.

A :class:`Hub` holds every live table. Each change to a table (a seat taken, a match
started, an action) is committed to the database first, then applied in memory, then
broadcast: every connection gets the view of its own seat (``view(seat)``), spectators
``view(None)``. The state itself, and its seed, never leave the server.

Actions from people and from bots go through one path, :meth:`Hub.submit`, under the
table's lock, so a table changes one action at a time whatever its number of clients.
Bots think in a worker thread (they get an :class:`~parlour.bots.Observation`, never the
state) and wait out a short pause so people can follow the play.

A timed phase (a state's :meth:`~parlour.engine.State.reaction`, e.g. the slap of Hit the
Deck) is timed here, not by the clients: the server notes when the views that open it went
out, times each seat's ``react`` from then to its arrival, and answers for the seats still
silent when the window closes with the slowest time. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from parlour.bots import (
    Bot,
    Hint,
    Observation,
    bot_kinds,
    hint,
    hint_bot,
    make_bot,
    observe,
    observe_for,
)
from parlour.engine import (
    Game,
    IllegalAction,
    JsonDict,
    NotationError,
    OptionError,
    Reaction,
    Seat,
    State,
    derive_seed,
)
from parlour.games import game_ids, get_game
from parlour.record import record_text
from parlour.registry import spec
from parlour.server.limits import ClientKey, Limits, TableQuota
from parlour.server.pages import narration, seat_names
from parlour.server.protocol import BURST, RATE, ProtocolError, Stale, encode
from parlour.server.store import SeatRow, Store, StoreError, TableRow

log = logging.getLogger("parlour.server")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
NAME_MAX = 24
IDLE_FINISHED = 15 * 60.0  # seconds a finished table with no one watching stays in memory
OUTBOX_LIMIT = 256  # queued messages a slow client may fall behind by before it is dropped

#: Games dealt by number (their spec's ``numbered_deals``): each match has a public deal
#: number (1 to MAX_DEAL) and its seed is derived from it and the server's secret deal key,
#: so that the same number gives the same deal on this server (restarts included) while the
#: number tells nothing of the deal.
MAX_DEAL = 1_000_000
HINT_VALUES = 5  # the values a hint carries besides its choice (best first)


def deal_seed(key: str, game_id: str, deal: int) -> int:
    """The seed of deal number ``deal`` of ``game_id`` on the server whose key is ``key``."""
    return derive_seed(key, f"{game_id}-deal", deal)


def check_deal(game: Game, deal: object) -> int | None:
    """A deal number asked for at ``game``'s table: None, or a number this game takes."""
    if deal is None:
        return None
    if not spec(game.id).numbered_deals:
        raise ProtocolError("bad_deal", f"{game.name} is not dealt by number")
    if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= MAX_DEAL:
        raise ProtocolError("bad_deal", f"a deal number is a whole number from 1 to {MAX_DEAL:,}")
    return deal


def new_token() -> str:
    """A seat token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object) -> str:
    """A display name: printable, trimmed, 1 to 24 characters."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", "a name is text")
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not text:
        raise ProtocolError("bad_name", "choose a name to sit at the table")
    if len(text) > NAME_MAX:
        raise ProtocolError("bad_name", f"a name has at most {NAME_MAX} characters")
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
    limits: Limits = field(default_factory=Limits)  # what one client may take (limits.py)


class Connection:
    """One websocket client: its seat (None for a spectator) and its outgoing queue.

    Messages are queued and sent by :meth:`pump`, so a broadcast never waits on a slow
    client; one that falls :data:`OUTBOX_LIMIT` messages behind is disconnected (it
    reconnects and gets the current view).
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], seat: Seat | None = None,
                 close: Callable[[], Awaitable[None]] | None = None) -> None:
        self.send = send
        self.seat = seat
        self._close = close
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.too_slow = False

    def push(self, text: str) -> None:
        if self.closed:
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

    async def pump(self) -> None:
        """Send queued messages in order until the connection closes."""
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    break
                await self.send(text)
            if self.too_slow and self._close is not None:
                await self._close()
        except Exception:  # the client went away: the receive loop ends the session
            self.closed = True


@dataclass
class SeatInfo:
    kind: str  # "person" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class MatchInfo:
    match: int
    finished: bool
    result: str | None
    deal: int | None = None  # the public deal number, for games dealt by number


@dataclass
class OpenReaction:
    """A timed phase in progress at a table (see :class:`parlour.engine.Reaction`)."""

    reaction: Reaction
    id: str  # sent with the views of the phase; a react must name it
    opened: float | None = None  # loop time when the views opening it went out
    timer: asyncio.TimerHandle | None = None
    closing: asyncio.Task[None] | None = None

    def to_json(self) -> JsonDict:
        return {"phase": self.id, "name": self.reaction.name,
                "window_ms": self.reaction.window_ms}

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()


@dataclass
class Table:
    id: str
    game: Game
    num_seats: int
    options: dict[str, Any]
    created: float
    seats: list[SeatInfo]
    status: str = "waiting"  # waiting | playing | finished
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
    hints: dict[tuple[int, int, Seat], asyncio.Future[JsonDict]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)  # last sign of life
    owner: ClientKey | None = None  # the client that opened it (not kept over a restart)
    _views: dict[Seat | None, str] = field(default_factory=dict)
    _views_at: tuple[int, int] = (-1, -1)

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
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return i
        raise ProtocolError("bad_token", "that seat token is not valid for this table")

    def has_people(self) -> bool:
        return any(s.kind == "person" for s in self.seats)

    def free_seats(self) -> list[Seat]:
        return [i for i, s in enumerate(self.seats) if not s.taken]

    def player_names(self) -> list[str]:
        out = []
        for s in self.seats:
            out.append(s.name if s.kind == "person" and s.name else
                       f"{s.bot} bot" if s.kind == "bot" else "empty seat")
        return out

    def narration_names(self) -> list[str]:
        """What the game's event sentences call each seat (see :mod:`parlour.server.pages`)."""
        return seat_names([self.game.seat_name(i, self.num_seats) for i in range(self.num_seats)],
                          [s.name if s.kind == "person" else None for s in self.seats])

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
                       "kind": s.kind, "bot": s.bot, "name": s.name, "taken": s.taken}
                      for i, s in enumerate(self.seats)],
            "finished_matches": sorted(m.match for m in self.matches.values() if m.finished),
            "result": (self.matches[self.match].result
                       if self.match in self.matches else None),
            "deal": self.matches[self.match].deal if self.match in self.matches else None,
            "hints": hint_bot(self.game.id) is not None,
        }

    # ------------------------------------------------------------------ views
    def view_text(self, seat: Seat | None) -> str:
        """The encoded view message for ``seat``, built once per version."""
        key = (self.match, self.version)
        if self._views_at != key:
            self._views = {}
            self._views_at = key
        text = self._views.get(seat)
        if text is None:
            assert self.state is not None
            view = self.state.view(seat)
            message = {"type": "view", "table": self.id, "match": self.match,
                       "version": self.version, "status": self.status, "view": view}
            told = narration(self.game, view, self.narration_names())
            if told is not None:
                message["narration"] = told
            if self.reaction is not None:
                message["timed"] = self.reaction.to_json()
            text = self._views[seat] = encode(message)
        return text

    def send_view(self, conn: Connection) -> None:
        if self.state is not None:
            conn.push(self.view_text(conn.seat))

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
        self.tables: dict[str, Table] = {}
        self.pool = ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="parlour-bot")
        self.procs: ProcessPoolExecutor | None = None  # started when a searching bot sits
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.quota = TableQuota(settings.limits)

    # ------------------------------------------------------------------ lifecycle
    async def restore(self) -> int:
        """Load every unfinished table from the database and set its bots going."""
        ids = await asyncio.to_thread(self.store.unfinished_ids)
        for table_id in ids:
            await self.get(table_id)
        return len(ids)

    async def close(self) -> None:
        for table in self.tables.values():
            for task in table.bot_tasks.values():
                task.cancel()
            if table.reaction is not None:
                table.reaction.stop()
                if table.reaction.closing is not None:
                    table.reaction.closing.cancel()
        tasks = [t for table in self.tables.values() for t in table.bot_tasks.values()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.procs is not None:
            self.procs.shutdown(wait=False, cancel_futures=True)

    async def get(self, table_id: str) -> Table | None:
        """The table with this id, loaded from the database if it is not live."""
        if not TABLE_ID.match(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await asyncio.to_thread(self.store.load_table, table_id)
            table = self._rebuild(row) if row is not None else None
            if table is not None:
                self.tables[table_id] = table
                self._start_clock(table)  # a timed phase reopens with a full window
                self.schedule_bots(table)
            fut.set_result(table)
            return table
        except BaseException as err:
            fut.set_exception(err)
            raise
        finally:
            del self._loading[table_id]

    def _rebuild(self, row: TableRow) -> Table:
        game = get_game(row.game)
        table = Table(row.id, game, row.num_seats, row.options, row.created,
                      [SeatInfo(s.kind, s.bot, s.name, s.token_hash) for s in row.seats],
                      status=row.status, match=row.match)
        table.matches = {m.match: MatchInfo(m.match, m.finished is not None, m.result, m.deal)
                         for m in row.matches.values()}
        current = row.matches.get(row.match)
        if current is not None:
            self._begin(table, current.seed)
            state = table.state
            assert state is not None
            for seat, text in current.actions:
                state.apply(state.parse_action(text), seat)
            table.version = len(current.actions)
            self._sync_reaction(table)
        log.info("table %s restored: %s, match %d, %d actions", row.id, row.game, row.match,
                 table.version)
        return table

    def _begin(self, table: Table, seed: int) -> None:
        """Set up the match ``table.match`` in memory (state and bots) from its seed."""
        table.seed = seed
        table.state = table.game.new(seed, table.num_seats, **table.options)
        table.version = 0
        table.bot_rng = random.Random(derive_seed(seed, "observe"))
        table.bots = {i: make_bot(table.game, s.bot or "random", i, derive_seed(seed, "bot", i))
                      for i, s in enumerate(table.seats) if s.kind == "bot"}

    # ------------------------------------------------------------------ lobby
    def sweep(self, idle: float = IDLE_FINISHED) -> int:
        """Let go of finished tables nobody has looked at for ``idle`` seconds (they stay
        in the database and load again on demand)."""
        now = time.monotonic()
        gone = [t.id for t in self.tables.values() if t.status == "finished" and not t.conns
                and not t.bot_tasks and now - t.touched > idle]
        for table_id in gone:
            del self.tables[table_id]
        return len(gone)

    def open_tables(self) -> list[Table]:
        live = [t for t in self.tables.values() if t.status in ("waiting", "playing")]
        return sorted(live, key=lambda t: -t.created)

    async def create(self, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     name: str | None, seat: Seat | None, deal: int | None = None,
                     owner: ClientKey | None = None) -> tuple[Table, Seat | None, str | None]:
        """A new table opened by ``owner``, within the open-table caps. The creator takes
        ``seat`` (default: the first person seat); a game dealt by number deals ``deal``
        first (default: a random number)."""
        # Every table waiting or playing counts, listed in the lobby or not.
        live = (t.owner for t in self.tables.values() if t.status in ("waiting", "playing"))
        with self.quota.slot(live, owner):
            table, seat, token = await self._create(game_id, options, seats, name, seat, deal)
            table.owner = owner
            return table, seat, token

    async def _create(self, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                      name: str | None, seat: Seat | None, deal: int | None
                      ) -> tuple[Table, Seat | None, str | None]:
        if game_id not in game_ids():
            raise ProtocolError("bad_game", f"unknown game {game_id!r}: expected one of "
                                            f"{', '.join(game_ids())}")
        game = get_game(game_id)
        deal = check_deal(game, deal)
        try:
            num_seats = game.check_seats(len(seats) if seats else None)
            resolved = game.resolve_options(options)
        except OptionError as err:
            raise ProtocolError("bad_options", str(err)) from None
        infos = [self._seat_spec(game, spec) for spec in seats] if seats else \
            [SeatInfo("person")] + [SeatInfo("bot", "random") for _ in range(num_seats - 1)]
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
        else:
            seat = None
        table = Table(self._new_id(), game, num_seats, resolved, time.time(), infos,
                      next_deal=deal)
        row = TableRow(table.id, game.id, num_seats, resolved, table.created, "waiting", 0,
                       [SeatRow(s.kind, s.bot, s.name, s.token_hash) for s in infos], {})
        await self.store.write(Store.op_create_table(row))
        self.tables[table.id] = table
        log.info("table %s created: %s, %d seats", table.id, game.id, num_seats)
        if not table.free_seats():
            await self.start(table)
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
            raise ProtocolError("bad_seat", str(err)) from None
        return SeatInfo("bot", kind.strip().lower())

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables:
                return table_id

    async def join(self, table: Table, name: str, seat: Seat | None) -> tuple[Seat, str]:
        """Sit a person at a free seat; returns the seat and its token."""
        clean = clean_name(name)
        async with table.lock:
            free = table.free_seats()
            if table.status != "waiting" or not free:
                raise ProtocolError("table_full", "every seat at this table is taken: you can "
                                                  "watch")
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise ProtocolError("seat_taken", f"seat {seat} is not free (free: "
                                                  f"{', '.join(map(str, free))})")
            token = new_token()
            digest = token_hash(token)
            await self.store.write(Store.op_take_seat(table.id, seat, clean, digest))
            table.seats[seat].name = clean
            table.seats[seat].token_hash = digest
        table.broadcast_table()
        if not table.free_seats():
            await self.start(table)
        return seat, token

    async def start(self, table: Table) -> None:
        """Deal a new match at a table whose seats are all filled."""
        async with table.lock:
            if table.status == "playing" or table.free_seats():
                return
            match = table.match + 1
            deal = None
            if spec(table.game.id).numbered_deals:
                deal = table.next_deal or self.settings.new_seed() % MAX_DEAL + 1
                seed = deal_seed(self.store.deal_key, table.game.id, deal)
            else:
                seed = self.settings.new_seed()
            # A game may be over at the deal (Clockwork Spades can end with no decision).
            dealt = table.game.new(seed, table.num_seats, **table.options).outcome
            result = dealt.text() if dealt is not None else None
            await self.store.write(Store.op_start_match(table.id, match, seed, result, deal))
            table.next_deal = None
            table.match = match
            table.status = "playing" if result is None else "finished"
            table.matches[match] = MatchInfo(match, result is not None, result, deal)
            self._begin(table, seed)
            self._sync_reaction(table)
            log.info("table %s: match %d started", table.id, match)
        table.broadcast_table()
        table.broadcast_views()
        self._start_clock(table)
        self.schedule_bots(table)

    async def again(self, table: Table, seat: Seat | None) -> None:
        """Play another match with the same seats, once the last one is over."""
        if table.status != "finished":
            raise ProtocolError("not_finished", "the match is still being played"
                                if table.status == "playing" else "the table has not started")
        if seat is None and any(s.kind == "person" for s in table.seats):
            raise ProtocolError("not_seated", "only a player at this table can deal again")
        await self.start(table)

    # ------------------------------------------------------------------ play
    def parse_intent(self, table: Table, text: str) -> int:
        try:
            return table.game.parse_action(text)
        except (NotationError, ValueError) as err:
            raise ProtocolError("unknown_action", str(err)) from None

    async def submit(self, table: Table, seat: Seat, action: int, version: int | None,
                     phase: str | None = None, person: bool = False) -> None:
        """Apply ``action`` for ``seat`` if the rules allow it: commit, apply, broadcast.

        ``phase`` names the timed phase an answer is for (then ``version`` is not checked:
        the others' answers move the version on). A ``person`` may not send a timed
        phase's action as an ordinary intent: the server times it (:meth:`react`)."""
        async with table.lock:
            state = table.state
            if table.status != "playing" or state is None:
                raise ProtocolError("not_playing", "the game is over" if table.status ==
                                    "finished" else "the game has not started")
            timed = table.reaction
            if phase is not None:
                if timed is None or timed.id != phase:
                    raise ProtocolError("wrong_phase", "that moment is over" if timed is None
                                        else f"that is not the {timed.reaction.name} now open")
                if seat not in state.to_act:
                    raise ProtocolError("answered", f"one {timed.reaction.name} each: "
                                                    f"yours is in already")
            elif person and timed is not None and action in timed.reaction.actions:
                raise ProtocolError("timed", f"the server times the {timed.reaction.name}: "
                                             f'send {{"type": "react", "phase": '
                                             f'"{timed.id}"}}, with no time of your own')
            if version is not None and version != table.version:
                raise Stale(version, table.version)
            if seat not in state.to_act or action not in state.legal_actions(seat):
                try:
                    state.clone().apply(action, seat)  # for the engine's own reason
                except IllegalAction as err:
                    raise ProtocolError("illegal", str(err)) from None
                raise ProtocolError("illegal", "that action is not legal now")
            text = table.game.action_text(action)
            after = state.clone()
            after.apply(action, seat)
            outcome = after.outcome
            result = outcome.text() if outcome is not None else None
            try:
                await self.store.write(Store.op_action(table.id, table.match, table.version,
                                                       seat, text, result))
            except StoreError:
                raise ProtocolError("unavailable", "the move could not be saved: try again") \
                    from None
            table.state = after
            table.version += 1
            table.touched = time.monotonic()
            if result is not None:
                table.status = "finished"
                table.matches[table.match] = MatchInfo(table.match, True, result, table.deal)
            self._sync_reaction(table)
        table.broadcast_views()
        self._start_clock(table)
        if result is not None:
            table.broadcast_table()
        else:
            self.schedule_bots(table)

    # ------------------------------------------------------------------ hints
    async def hint(self, table: Table, seat: Seat, version: int | None) -> JsonDict:
        """The game's hint bot's advice for ``seat`` at the current version: its choice, its
        estimated chance to win (if its values are chances) and the best few values.

        The bot gets the seat's :class:`Observation` (its view, and a determinization if it
        samples), never the state, and thinks off the event loop like a bot seat. One
        answer per seat and version: asking again while it thinks waits for the same one."""
        kind = hint_bot(table.game.id)
        if kind is None:
            raise ProtocolError("no_hint", f"{table.game.name} has no hints")
        state = table.state
        if table.status != "playing" or state is None:
            raise ProtocolError("not_playing", "the game is over" if table.status ==
                                "finished" else "the game has not started")
        if version is not None and version != table.version:
            raise Stale(version, table.version)
        if seat not in state.to_act or not state.legal_actions(seat):
            raise ProtocolError("no_hint", "there is nothing for you to do now")
        key = (table.match, table.version, seat)
        pending = table.hints.get(key)
        if pending is None:
            table.hints = {k: f for k, f in table.hints.items() if k[:2] == key[:2]}
            cls = bot_kinds(table.game.id)[kind]
            obs = observe(state, seat, random.Random(secrets.randbits(63)), view=True,
                          sample=cls.needs_sample)
            pending = table.hints[key] = asyncio.ensure_future(
                self._advise(obs, cls.needs_sample))
            pending.add_done_callback(lambda f: f.cancelled() or f.exception())
        answer = await asyncio.shield(pending)
        return {"type": "hint", "match": key[0], "version": key[1], **answer}

    async def _advise(self, obs: Observation, searching: bool) -> JsonDict:
        loop = asyncio.get_running_loop()
        seed = secrets.randbits(63)
        if searching and self.settings.bot_processes > 0:
            if self.procs is None:
                self.procs = ProcessPoolExecutor(self.settings.bot_processes,
                                                 mp_context=get_context("spawn"))
            advice = await loop.run_in_executor(self.procs, advise, obs, seed, self._time_cap())
        else:
            advice = await loop.run_in_executor(self.pool, advise, obs, seed, self._time_cap())
        values = list(advice.values.items())
        chance = advice.values.get(advice.text) if "chance" in advice.unit else None
        return {"action": advice.text, "chance": chance, "unit": advice.unit,
                "values": dict(values[:HINT_VALUES])}

    # ------------------------------------------------------------------ timed phases
    def _sync_reaction(self, table: Table) -> None:
        """Open the timed phase the state has just entered, or close the one it has left.
        Called under the lock after every change, before the views go out (they name the
        phase)."""
        state = table.state
        now = state.reaction() if state is not None and table.status == "playing" else None
        current = table.reaction
        if current is not None and (now is None or now.key != current.reaction.key):
            current.stop()
            table.reaction = current = None
        if now is not None and current is None:
            table.reaction = OpenReaction(now, secrets.token_urlsafe(9))

    def _start_clock(self, table: Table) -> None:
        """Start the clock of a timed phase whose views have just been handed to every
        connection (no await in between: the sends have not begun), and its window."""
        timed = table.reaction
        if timed is None or timed.opened is not None:
            return
        loop = asyncio.get_running_loop()
        timed.opened = loop.time()
        timed.timer = loop.call_later(timed.reaction.window_ms / 1000, self._window_over,
                                      table, timed)

    def _window_over(self, table: Table, timed: OpenReaction) -> None:
        if table.reaction is timed:
            timed.closing = asyncio.create_task(self._close_window(table, timed))

    async def _close_window(self, table: Table, timed: OpenReaction) -> None:
        """The window is over: each seat that has not answered gets the slowest time."""
        slowest = timed.reaction.action(timed.reaction.window_ms)
        failures = 0
        while table.reaction is timed and table.state is not None and table.state.to_act:
            seat = table.state.to_act[0]
            try:
                await self.submit(table, seat, slowest, None, timed.id)
            except ProtocolError as err:
                if err.code == "answered":
                    continue  # it came in meanwhile: on to the next one still silent
                if err.code != "unavailable" or failures >= 20:
                    log.error("table %s: the %s window could not close for seat %d: %s",
                              table.id, timed.reaction.name, seat, err.message)
                    return
                failures += 1
                await asyncio.sleep(0.25)

    async def react(self, table: Table, seat: Seat, phase: str, at: float) -> None:
        """``seat`` answers the timed phase ``phase``: its time runs from the moment the
        views opening the phase went out to ``at``, when its answer came in (both on this
        server's clock; whatever time a client might claim is never asked for)."""
        timed = table.reaction
        if timed is None or timed.opened is None:
            raise ProtocolError("no_reaction", "there is nothing to react to now")
        if phase != timed.id:
            raise ProtocolError("wrong_phase", f"that is not the {timed.reaction.name} now open")
        ms = min(max(0.0, (at - timed.opened) * 1000.0), float(timed.reaction.window_ms))
        await self.submit(table, seat, timed.reaction.action(ms), None, phase)

    # ------------------------------------------------------------------ bots
    def schedule_bots(self, table: Table) -> None:
        state = table.state
        if table.status != "playing" or state is None:
            return
        for seat in state.to_act:
            if seat in table.bots and seat not in table.bot_tasks:
                table.bot_tasks[seat] = asyncio.create_task(self._bot_turns(table, seat))

    async def _bot_turns(self, table: Table, seat: Seat) -> None:
        """Play ``seat``'s turns for as long as it is to act."""
        loop = asyncio.get_running_loop()
        try:
            while table.status == "playing" and table.state is not None \
                    and seat in table.state.to_act:
                state, version, bot = table.state, table.version, table.bots[seat]
                timed = table.reaction
                started = loop.time()
                obs = observe_for(bot, state, seat, table.bot_rng)
                action, thought = await self._think(bot, obs)
                if table.bots.get(seat) is bot:
                    table.bots[seat] = thought  # carries the bot's own generator forward
                phase = None
                wait = self.settings.bot_pause - (loop.time() - started)
                if timed is not None and action in timed.reaction.actions:
                    # A reaction goes in at the bot's own time, counted like a person's
                    # from the signal, when there is a person to race; the action (and so
                    # the record) carries the time the bot chose.
                    phase = timed.id
                    if table.has_people() and timed.opened is not None:
                        wait = timed.opened + timed.reaction.ms(action) / 1000 - loop.time()
                    else:  # bots only: the usual pause, well inside the window
                        wait = min(self.settings.bot_pause, timed.reaction.window_ms / 2000) \
                            - (loop.time() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    await self.submit(table, seat, action, None if phase else version, phase)
                except Stale:
                    continue  # others acted meanwhile (a simultaneous phase): think again
                except ProtocolError as err:
                    if err.code in ("wrong_phase", "answered"):
                        continue  # the window closed meanwhile
                    if err.code != "illegal":
                        return
                    log.error("table %s: %s bot at seat %d chose an illegal action: %s",
                              table.id, bot.kind, seat, err.message)
                    legal = table.state.legal_actions(seat) if table.state else ()
                    if not legal:
                        return
                    await self.submit(table, seat, table.bot_rng.choice(list(legal)), None)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot at seat %d stopped", table.id, seat)
        finally:
            table.bot_tasks.pop(seat, None)

    async def _think(self, bot: Bot, obs: Observation) -> tuple[int, Bot]:
        """The bot's action, computed off the event loop: cheap bots in a thread, searching
        bots (``needs_sample``) in a worker process so that they do not hold the GIL."""
        loop = asyncio.get_running_loop()
        bot.time_cap = self._time_cap(getattr(bot, "level", "normal"))
        if bot.needs_sample and self.settings.bot_processes > 0:
            if self.procs is None:
                self.procs = ProcessPoolExecutor(self.settings.bot_processes,
                                                 mp_context=get_context("spawn"))
            action, thought = await loop.run_in_executor(self.procs, think, bot, obs)
            thought.game = bot.game
            return action, thought
        return await loop.run_in_executor(self.pool, bot.act, obs), bot

    def _time_cap(self, level: str = "normal") -> float:
        caps = self.settings.bot_time_caps
        return caps.get(level, caps["normal"])

    # ------------------------------------------------------------------ records
    async def finished_state(self, table: Table, match: int) -> State:
        info = table.matches.get(match)
        if info is None:
            raise ProtocolError("not_found", f"this table has no match {match}")
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

    async def replay(self, table: Table, match: int, step: int, seat: Seat | None) -> JsonDict:
        """Finished match ``match`` as ``seat`` saw it after ``step`` actions (spectators
        for None; the last step if ``step`` is out of range): the view, the action that
        led there, and the game's narration of it."""
        final = await self.finished_state(table, match)
        if seat is not None and not 0 <= seat < table.num_seats:
            raise ProtocolError("bad_seat", f"seats are 0 to {table.num_seats - 1}")
        history = final.history
        if step < 0 or step > len(history):
            step = len(history)
        state = final
        if step < len(history):
            state = table.game.new(final.seed, table.num_seats, **table.options)
            for s, a in history[:step]:
                state.apply(a, s)
        last = history[step - 1] if step else None
        view = state.view(seat)
        answer: JsonDict = {"steps": len(history), "step": step, "seat": seat,
                            "action": None if last is None else
                            {"seat": last[0], "text": table.game.action_text(last[1])},
                            "view": view, "deal": table.matches[match].deal}
        told = narration(table.game, view, table.narration_names())
        if told is not None:
            answer["narration"] = told
        return answer

    async def record(self, table: Table, match: int) -> str:
        state = await self.finished_state(table, match)
        comment = f"Parlour table {table.id}, match {match}"
        return record_text(state, table.player_names(), comment=comment)


def think(bot: Bot, obs: Observation) -> tuple[int, Bot]:
    """Run in a worker process: the action, and the bot as it is after choosing it."""
    return bot.act(obs), bot


def advise(obs: Observation, seed: int, time_cap: float) -> Hint:
    """Run in a worker: the hint bot's advice on ``obs``, in at most about ``time_cap``
    seconds."""
    return hint(obs, seed=seed, time_cap=time_cap)


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
                        for k, cls in bot_kinds(gid).items()]
        info["seat_names"] = {str(n): [game.seat_name(s, n) for s in range(n)]
                              for n in range(game.min_seats, game.max_seats + 1)}
        info["deals"] = MAX_DEAL if found.numbered_deals else None  # dealt by number 1..
        info["hints"] = found.hint_bot is not None
        info["renderer"] = found.web.script
        out.append(info)
    return out
