"""The database: tables, seats, matches and the action log, through SQLAlchemy Core.

The log is the game: a match is its seed, the table's options and the actions in order, so
a restarted server rebuilds every table by replay. Nothing else is stored about a match in
progress (no snapshot), so nothing can disagree with the log.

Writes go through one writer thread that commits whatever is queued in a single
transaction (group commit) and then wakes the coroutines waiting on it: a coroutine that
awaits :meth:`Store.write` knows its rows are committed. SQLite runs in WAL mode with
``synchronous=NORMAL``: a committed transaction survives the process being killed (only a
power cut could lose the last ones). Any SQLAlchemy URL works; PostgreSQL needs its driver
(``pip install 'parlour[postgres]'``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    delete,
    exc,
    false,
    insert,
    or_,
    select,
    true,
    update,
)

from parlour.server.cluster.outages import DATABASE, Outages
from parlour.server.storage.database import make_engine
from parlour.server.storage.schema import auto_upgrades, prepare

log = logging.getLogger("parlour.server")

metadata = MetaData()

tables_t = Table(
    "parlour_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("num_seats", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON of the resolved options
    Column("created", Float, nullable=False),
    Column("status", String(12), nullable=False),  # waiting | playing | finished | closed
    Column("match", Integer, nullable=False),  # the current match number, 0 before the first
    Column("listed", Boolean, nullable=False, server_default=true()),  # in the lobby list
    Column("compared", Boolean, nullable=False, server_default=false()),  # rated/daily: kept
    Column("turn_seconds", Integer),  # the turn timer (None: the game's default, 0: none)
    Column("creator", Integer),  # the seat of the person who opened it, if any
    Column("ended", Float),  # when it finished or closed (retention counts from it)
    Column("note", String(40)),  # why it closed: expired | abandoned | unrestorable
    Column("speed", String(8)),  # slow | normal | fast (None: normal), parlour.server.play.pace
    Column("hints", Boolean, nullable=False, server_default=true()),  # seats may ask hints
    Column("rated", Boolean, nullable=False, server_default=false()),  # changes ratings
    Column("daily", String(10)),  # the UTC day (YYYY-MM-DD) whose daily deal it plays
    # Counted by the open-table caps (parlour.server.edge.limits.TableQuota; migration 0009):
    Column("client", String(32)),  # a hash of the key of the client that opened it
    Column("searches", Boolean, nullable=False, server_default=false()),  # searching bots
    # A correspondence table (migration 0016; parlour.server.play.correspondence): the time
    # each person has for a move, when the move awaited is due, and whose it is (JSON seats).
    Column("move_seconds", Integer),  # None: not a correspondence table
    Column("deadline", Float),  # None: nobody's move is awaited (a bot's, or a free seat's)
    Column("waiting_on", Text),  # JSON: the person seats to act, when a move is awaited
    Index("parlour_tables_open", "status", "client"),
    Index("parlour_tables_deadline", "deadline"),
)

seats_t = Table(
    "parlour_seats", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # person | bot
    Column("bot", String(40)),
    Column("name", String(40)),
    Column("token_hash", String(64)),  # sha256 of the seat token; the token is never stored
    Column("account_id", Integer),  # the signed-in person holding it (None: a guest or a bot)
    # the hash of the client (limits.client_hash: its address) that last took it, kept
    # after it left: rated play's rule for accounts sharing an address (docs/players.md)
    Column("client", String(32)),
)

matches_t = Table(
    "parlour_matches", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float),
    Column("result", Text),
)

deals_t = Table(  # a separate table, so that a database made before deal numbers still works
    "parlour_deals", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("deal", BigInteger, nullable=False),  # the public deal number of the match
)

secrets_t = Table(  # the server's own keys, made once per database (never sent anywhere)
    "parlour_secrets", metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

actions_t = Table(
    "parlour_actions", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(40), nullable=False),  # in the game's notation
    Column("at", Float, nullable=False),
)

#: The one statement that appends an action, built once: building a statement with its
#: values for each action costs the writer thread (and the event loop, whose GIL it holds)
#: more than the insert itself.
_INSERT_ACTION = insert(actions_t)

accounts_t = Table(  # people who signed up (a guest has no row); see the players issue
    "parlour_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),  # as the person typed it (NFC)
    Column("name_key", String(160), nullable=False, unique=True),  # NFKC, casefolded, skeleton
    Column("password_hash", String(255), nullable=False),  # Argon2id, never the password
    Column("created", Float, nullable=False),
    Column("role", String(12), nullable=False, server_default="player"),  # player | admin
    Column("banned", Float),  # when an operator banned the account, if banned
    Column("deleted", Float),  # when the person deleted it (the row stays, anonymised)
    # the name the parlour took from it (its key met an older account's), to tell it once
    Column("renamed_from", String(40)),
    # shown online to people who are not its friends (migration 0014; friends always see)
    Column("show_online", Boolean, nullable=False, server_default=true()),
)

sessions_t = Table(  # a signed-in browser: the cookie's token, hashed (never the token)
    "parlour_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the session cookie
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

leases_t = Table(  # which process owns each table, and its fencing token (cluster/lease.py)
    "parlour_leases", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("owner", String(64), nullable=False),  # the owning process ('' for nobody)
    Column("token", BigInteger, nullable=False),  # grows by one with each new owner
    Column("expires", Float, nullable=False),  # epoch seconds, by the database's clock
    Column("taken", Float),  # when the owner took it (the same clock; migration 0008)
)

recovery_codes_t = Table(  # one-time codes that reset a lost password (sha256, never the code)
    "parlour_recovery_codes", metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("created", Float, nullable=False),
)

reports_t = Table(  # a person reporting another player, for the operators to read
    "parlour_reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("table_id", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(40)),  # the name at that seat when reported
    Column("account_id", Integer),  # the account holding that seat, if any
    Column("reason", String(20), nullable=False),
    Column("note", String(500)),
    Column("created", Float, nullable=False),
    # the table talk reported, as the server sent it (its seal checked: play/talk.py)
    Column("message", String(200)),
)

talk_words_t = Table(  # the moderators' changes to table talk's word filter (play/talk_words.py)
    "parlour_talk_words", metadata,
    Column("word", String(60), primary_key=True),  # folded: no case, no accents
    Column("allowed", Boolean, nullable=False),  # True: a listed word let through
    Column("operator", String(80), nullable=False),
    Column("created", Float, nullable=False),
)

mutes_t = Table(  # a player someone muted: their name (and any text of theirs) hidden for them
    "parlour_mutes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("muted_account", Integer),  # a signed-in player: muted at every table
    Column("table_id", String(16)),  # a guest: muted at that table and seat only
    Column("seat", Integer),
    Column("created", Float, nullable=False),
)

admin_log_t = Table(  # every operator action (parlour admin ...)
    "parlour_admin_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("action", String(20), nullable=False),  # rename | ban | unban
    Column("account_id", Integer, nullable=False),
    Column("detail", String(200), nullable=False),
    Column("operator", String(80), nullable=False),
)

reviews_t = Table(  # post-game reviews (parlour.server.play.reviews), kept with their match
    "parlour_reviews", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),  # the reviewed seat
    Column("budget", Integer, nullable=False),  # iterations a decision (0: a solver's)
    Column("created", Float, nullable=False),
    Column("review", Text, nullable=False),  # Review.to_json(), as JSON
)

ratings_t = Table(  # a person's rating in a game (OpenSkill's mu and sigma; see ratings.py)
    "parlour_ratings", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float),  # None for a game measured by win rate (a solitaire's trait)
    Column("sigma", Float),
    Column("win_rate", Float),  # a solitaire's: the win rate over recent deals, else None
    Column("mean_score", Float),  # a solitaire's: the mean score over them
    Column("matches", Integer, nullable=False),  # rated matches played
    Column("updated", Float, nullable=False),
    Index("parlour_ratings_game", "game", "matches"),
)

rating_history_t = Table(  # each change of a rating (the profile's chart)
    "parlour_rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, nullable=False),
    Column("game", String(40), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float),  # as parlour_ratings: the rating, or a solitaire's two figures
    Column("sigma", Float),
    Column("win_rate", Float),
    Column("mean_score", Float),
    Column("table_id", String(16)),
    Column("match", Integer),
    Index("parlour_rating_history_account", "account_id", "game", "at"),
)

player_matches_t = Table(  # a signed-in person's finished (or abandoned) match: statistics
    "parlour_player_matches", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("table_id", String(16), primary_key=True),
    Column("match", Integer, primary_key=True),
    Column("game", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("finished", Float, nullable=False),  # when it finished (or they left it)
    Column("rated", Boolean, nullable=False, server_default=false()),
    Column("abandoned", Boolean, nullable=False, server_default=false()),  # they left it
    Column("won", Boolean, nullable=False, server_default=false()),
    Column("points", Float),
    Column("counts", Text),  # JSON: the match's counts for the seat (parlour/stats.py)
    Index("parlour_player_matches_account", "account_id", "game", "finished"),
)

daily_t = Table(  # a signed-in person's counted try at a day's daily deal of a game
    "parlour_daily", metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("account_id", Integer, primary_key=True),
    Column("table_id", String(16), nullable=False),
    Column("started", Float, nullable=False),
    Column("result", Float),  # higher is better (parlour.stats.daily_result); None: unfinished
    Column("finished", Float),
    Index("parlour_daily_board", "day", "game", "result"),
    Index("parlour_daily_account", "account_id", "day"),
)

follows_t = Table(  # a person following another (both ways: friends); people/social.py
    "parlour_follows", metadata,
    Column("follower", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("followed", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("created", Float, nullable=False),
    Index("parlour_follows_followed", "followed"),
)

blocks_t = Table(  # a person blocking another: no talk, no challenges, never seated together
    "parlour_blocks", metadata,
    Column("blocker", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("blocked", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("created", Float, nullable=False),
    Index("parlour_blocks_blocked", "blocked"),
)

presence_t = Table(  # who has a page of the parlour open (people/presence.py), per process
    "parlour_presence", metadata,
    Column("account_id", Integer, primary_key=True),
    Column("process", String(64), primary_key=True),
    Column("seen", Float, nullable=False),  # renewed while the page's stream is open
    Column("watching", String(16)),  # the table a page of it watches here (migration 0018)
)

challenges_t = Table(  # a friend invited by name to a game (people/challenges.py)
    "parlour_challenges", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("challenger", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("challenged", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the game's options, checked
    Column("speed", String(10)),  # the bots' pace (parlour.server.play.pace); None: normal
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("status", String(10), nullable=False),  # open | accepted | declined | cancelled
    Column("answered", Float),
    Column("table_id", String(16)),  # the table both were seated at, once accepted
    Index("parlour_challenges_challenged", "challenged", "status"),
    Index("parlour_challenges_challenger", "challenger", "status"),
)

seeks_t = Table(  # someone waiting to be seated by quick play (people/quick.py)
    "parlour_seeks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("secret_hash", String(64), nullable=False),  # its seat's token hash, once seated
    Column("game", String(40), nullable=False),
    Column("preset", String(20), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the preset's options, resolved
    Column("name", String(64), nullable=False),
    Column("account", Integer, ForeignKey("parlour_accounts.id")),  # None: a guest
    Column("rating", Float),  # the account's displayed rating in the game when it began
    Column("client", String(64), nullable=False),  # the hash of the address it came from
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),  # last asked about (or claimed, or ended)
    Column("status", String(10), nullable=False),  # waiting | matching | seated | cancelled
    Column("table_id", String(16)),
    Column("seat", Integer),
    Index("parlour_seeks_waiting", "game", "preset", "status"),
    Index("parlour_seeks_client", "client", "status"),
)

notices_t = Table(  # a turn or rematch told while Redis was away (people/presence.py)
    "parlour_notices", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), nullable=False),
    Column("event", Text, nullable=False),  # JSON: the stream's event (type, table, game)
    Column("created", Float, nullable=False),
    Index("parlour_notices_account", "account_id", "created"),
)

puzzles_t = Table(  # a puzzle (people/puzzles.py): its position, verdict and rating
    "parlour_puzzles", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("themes", String(200), nullable=False),  # its themes' ids, space-separated
    Column("data", Text, nullable=False),  # JSON: the puzzle (parlour.puzzles.model)
    Column("source", String(10), nullable=False),  # bots | table (a game at a table)
    Column("table_id", String(16)),  # the table it came from, never shown (no names)
    Column("match", Integer),
    Column("mu", Float, nullable=False),  # its rating (OpenSkill), moved by every first try
    Column("sigma", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Index("parlour_puzzles_game", "game", "mu"),
)

puzzle_tries_t = Table(  # a signed-in person's first try at a puzzle (the one rated)
    "parlour_puzzle_tries", metadata,
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("puzzle_id", String(16), ForeignKey("parlour_puzzles.id"), primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("played", String(40), nullable=False),  # the move, in the game's notation
    Column("rating_before", Integer, nullable=False),
    Column("rating_after", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Index("parlour_puzzle_tries_recent", "account_id", "created"),
)

puzzle_ratings_t = Table(  # a person's puzzle rating (one for every game's puzzles)
    "parlour_puzzle_ratings", metadata,
    Column("account_id", Integer, ForeignKey("parlour_accounts.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("tries", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

DEFAULT_DB = "data/parlour.sqlite3"


def default_url() -> str:
    return f"sqlite:///{DEFAULT_DB}"


@dataclass
class SeatRow:
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None
    account_id: int | None = None  # the signed-in person holding it
    client: str | None = None  # the hash of the client that took it (rated play's check)


@dataclass
class MatchRow:
    match: int
    seed: int
    finished: float | None
    result: str | None
    actions: list[tuple[int, str]] = field(default_factory=list)
    deal: int | None = None  # the deal number, for games dealt by number


@dataclass
class TableRow:
    id: str
    game: str
    num_seats: int
    options: Any  # a dict, once checked: a row read back may hold anything
    created: float
    status: str
    match: int
    seats: list[SeatRow]
    matches: dict[int, MatchRow]
    listed: bool = True
    compared: bool = False
    turn_seconds: int | None = None
    creator: int | None = None
    ended: float | None = None
    note: str | None = None
    problem: str | None = None  # what in the rows makes the table unplayable, if anything
    speed: str | None = None  # how fast its bots go (parlour.server.play.pace); None: normal
    hints: bool = True  # seats may ask for hints
    rated: bool = False  # its results change ratings (parlour/server/people/ratings.py)
    daily: str | None = None  # the UTC day whose daily deal it plays
    client: str | None = None  # a hash of the key of the client that opened it
    searches: bool = False  # a searching bot sits at it
    move_seconds: int | None = None  # a correspondence table's time per move
    deadline: float | None = None  # when the move it awaits is due (correspondence)


Op = Callable[[Connection], None]


def both(first: Op, second: Op) -> Op:
    """One write of two operations, in one transaction."""
    def op(conn: Connection) -> None:
        first(conn)
        second(conn)
    return op


#: The columns of an action's row, as :meth:`AppendAction.row` gives them.
ACTION_COLUMNS = ("table_id", "match", "idx", "seat", "action", "at")


class AppendAction:
    """The op that appends one action to a match's log (:meth:`Store.op_action`, the match
    going on): the writer thread inserts each run of these in a batch with one
    ``executemany`` (SQLAlchemy executing one insert per action cost more than the
    insert), in the batch's order; called on its own, it inserts its row."""

    __slots__ = ("action", "at", "idx", "match", "seat", "table_id")

    def __init__(self, table_id: str, match: int, idx: int, seat: int, action: str,
                 at: float | None = None) -> None:
        self.table_id, self.match, self.idx = table_id, match, idx
        self.seat, self.action, self.at = seat, action, at

    def row(self) -> dict[str, object]:
        """The row (its keys: :data:`ACTION_COLUMNS`), made ``at`` (when it is written, by
        default)."""
        return dict(zip(ACTION_COLUMNS, self.values(), strict=True))

    def values(self) -> tuple[object, ...]:
        """The row's values in the order of :data:`ACTION_COLUMNS`."""
        return (self.table_id, self.match, self.idx, self.seat, self.action,
                time.time() if self.at is None else self.at)

    def __call__(self, conn: Connection) -> None:
        conn.execute(_INSERT_ACTION, self.row())


class Store:
    """The database behind the server. ``write`` is for coroutines; ``load_*`` block."""

    def __init__(self, url: str, auto_upgrade: bool | None = None) -> None:
        """Open the database at ``url``, checking its schema (see :mod:`.schema`): an
        out-of-date one is upgraded when ``auto_upgrade`` says so (None: SQLite files are,
        being the server's own; any other database is left to ``parlour db upgrade``)."""
        self.url = url
        self.engine = make_engine(url)
        self.outages = Outages()  # the hub shares its own (parlour.server.cluster.outages)
        try:
            prepare(self.engine, auto_upgrades(url) if auto_upgrade is None else auto_upgrade)
        except Exception:
            self.engine.dispose()
            raise
        self.deal_key = self.secret("deal-key")
        self.rejoin_key = self.secret("rejoin-key")  # rejoin links (parlour.server.play.rejoin)
        self._conn: Connection | None = None  # the writer thread's (_writer_connection)
        # the action insert in the database's own SQL, compiled once: the writer runs it
        # (one executemany per run of actions) as the driver's, with no compiling or
        # cache lookup of SQLAlchemy's at every commit
        insert_action = _INSERT_ACTION.compile(dialect=self.engine.dialect,
                                               column_keys=list(ACTION_COLUMNS))
        self._insert_action = str(insert_action)
        # its parameters: a row's values in order (SQLite's), or the row by name (psycopg's)
        order = insert_action.positiontup
        assert order is None or tuple(order) == ACTION_COLUMNS, order
        self._insert_params: Callable[[AppendAction], object] = (
            AppendAction.row if order is None else AppendAction.values)
        # on SQLite a batch of actions alone goes through the driver (_append_only)
        self._sqlite = self.engine.dialect.name == "sqlite"
        # (SimpleQueue: put and get in C, where Queue's condition variable is Python's)
        self._queue: queue.SimpleQueue[tuple[Op, asyncio.Future[None],
                                             asyncio.AbstractEventLoop] | None] = (
            queue.SimpleQueue())
        self._thread = threading.Thread(target=self._run, name="parlour-db", daemon=True)
        self._thread.start()

    def secret(self, name: str) -> str:
        """The server's secret ``name`` (256 random bits), made the first time it is asked
        for and kept in the database, so that a restarted server has the same one."""
        for _ in range(3):
            with self.engine.connect() as conn:
                row = conn.execute(select(secrets_t.c.value)
                                   .where(secrets_t.c.name == name)).first()
            if row is not None:
                return str(row[0])
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(secrets_t).values(name=name,
                                                          value=secrets.token_hex(32)))
            except exc.IntegrityError:  # another server made it first: read theirs
                continue
        raise RuntimeError(f"the server secret {name!r} could not be made")

    # ------------------------------------------------------------------ writing
    async def write(self, op: Op) -> None:
        """Run ``op`` in a committed transaction; return once it is committed."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._queue.put((op, fut, loop))
        await fut

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                break
            batch = [item]
            stop = False
            while len(batch) < 1000:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                break
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _writer_connection(self) -> Connection:
        """The writer thread's own connection, held from one batch to the next (taking one
        from the pool and handing it back, rolled back, cost a third of a commit); made
        again after a batch fails, so a connection an outage broke is not kept."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _write(self, batch: list[tuple[Op, asyncio.Future[None], asyncio.AbstractEventLoop]]
               ) -> None:
        """Run the batch's operations in one transaction on the writer's connection."""
        conn = self._writer_connection()
        if self._sqlite and all(type(op) is AppendAction for op, _, _ in batch):
            self._append_only(conn, [op for op, _, _ in batch])  # type: ignore[misc]
            return
        with conn.begin():
            rows: list[Any] = []  # a run of actions: one executemany
            for op, _, _ in batch:
                if isinstance(op, AppendAction):
                    rows.append(self._insert_params(op))
                    continue
                if rows:
                    conn.exec_driver_sql(self._insert_action, rows)
                    rows = []
                op(conn)
            if rows:
                conn.exec_driver_sql(self._insert_action, rows)

    def _append_only(self, conn: Connection, ops: list[AppendAction]) -> None:
        """A batch of appended actions alone (a game going on: nearly every batch), on
        SQLite: one executemany and the commit through the driver's own connection, which
        SQLAlchemy's transaction around them cost twice over. SQLAlchemy holds no
        transaction on the connection between batches, so nothing of its own is open."""
        raw = conn.connection.driver_connection
        assert raw is not None
        try:
            raw.executemany(self._insert_action, [self._insert_params(op) for op in ops])
            raw.commit()
        except BaseException:
            raw.rollback()
            raise

    def _broken(self, err: Exception) -> bool:
        """Whether ``err`` says the connection is gone (SQLAlchemy's word for it, or the
        dialect's of a driver's error raised through :meth:`_append_only`)."""
        if isinstance(err, exc.DBAPIError):
            return err.connection_invalidated
        dbapi = self.engine.dialect.loaded_dbapi
        return isinstance(err, dbapi.Error) and self.engine.dialect.is_disconnect(
            err, None, None)

    def _drop_writer_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()  # never back to the pool: its state is unknown
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, batch: list[tuple[Op, asyncio.Future[None], asyncio.AbstractEventLoop]]
                ) -> None:
        held = self._conn is not None  # (a connection held from an earlier batch)
        try:
            try:
                self._write(batch)
            except Exception as err:
                if not (held and self._broken(err)):
                    raise
                # the held connection broke while it waited (the database restarted):
                # the pool's pre-ping would have found that before use, so try once more
                self._drop_writer_connection()
                self._write(batch)
        except Exception as err:
            self._drop_writer_connection()
            if len(batch) > 1:  # find the bad one: commit each on its own
                for one in batch:
                    self._commit([one])
                return
            _, fut, loop = batch[0]
            if isinstance(err, Fenced):
                log.warning("a write was refused: %s", err)
            elif not self.outages.note(err):  # an outage is logged once, when it begins
                log.exception("database write failed")
            _settle(loop, _fail, fut, err if isinstance(err, Fenced) else None)
            return
        self.outages.answered(DATABASE)
        waiting: dict[asyncio.AbstractEventLoop, list[asyncio.Future[None]]] = {}
        for _, fut, loop in batch:  # one wake-up of each loop for all its writes
            waiting.setdefault(loop, []).append(fut)
        for loop, futs in waiting.items():
            _settle(loop, _done_all, futs)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)
        self.engine.dispose()

    # ------------------------------------------------------------------ operations
    @staticmethod
    def op_create_table(row: TableRow) -> Op:
        def op(conn: Connection) -> None:
            conn.execute(insert(tables_t).values(
                id=row.id, game=row.game, num_seats=row.num_seats,
                options=json.dumps(row.options), created=row.created, status=row.status,
                match=row.match, listed=row.listed, compared=row.compared,
                turn_seconds=row.turn_seconds, creator=row.creator, speed=row.speed,
                hints=row.hints, rated=row.rated, daily=row.daily, client=row.client,
                searches=row.searches, move_seconds=row.move_seconds))
            conn.execute(insert(seats_t), [
                {"table_id": row.id, "seat": i, "kind": s.kind, "bot": s.bot, "name": s.name,
                 "token_hash": s.token_hash, "account_id": s.account_id,
                 "client": s.client}
                for i, s in enumerate(row.seats)])
        return op

    @staticmethod
    def _op_seat(table_id: str, seat: int, **values: object) -> Op:
        """Set ``values`` on one seat's row."""
        def op(conn: Connection) -> None:
            conn.execute(update(seats_t).where(seats_t.c.table_id == table_id,
                                               seats_t.c.seat == seat).values(**values))
        return op

    @staticmethod
    def op_take_seat(table_id: str, seat: int, name: str, token_hash: str,
                     account_id: int | None = None, client: str | None = None) -> Op:
        return Store._op_seat(table_id, seat, name=name, token_hash=token_hash,
                              account_id=account_id, client=client)

    @staticmethod
    def op_link_seat(table_id: str, seat: int, account_id: int | None) -> Op:
        """The signed-in person ``account_id`` holds ``seat`` (None: a guest does); e.g. a
        guest's seat, kept when they signed up or logged in."""
        return Store._op_seat(table_id, seat, account_id=account_id)

    @staticmethod
    def op_free_seat(table_id: str, seat: int) -> Op:
        """The person at ``seat`` left it (or was let go): it is free again."""
        return Store._op_seat(table_id, seat, name=None, token_hash=None, account_id=None)

    @staticmethod
    def op_close(table_id: str, note: str, at: float | None = None) -> Op:
        """The table closed ``at`` (now by default; the hub's clock, Settings.now) before
        its match ended (``note`` says why); its log stays."""
        def op(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                         .values(status="closed", note=note,
                                 ended=time.time() if at is None else at))
        return op

    @staticmethod
    def op_start_match(table_id: str, match: int, seed: int, result: str | None = None,
                       deal: int | None = None, at: float | None = None) -> Op:
        """Deal match ``match`` (numbered ``deal``, for games dealt by number) ``at`` (now
        by default); with ``result``, the match was over at the deal."""
        def op(conn: Connection) -> None:
            now = time.time() if at is None else at
            conn.execute(insert(matches_t).values(
                table_id=table_id, match=match, seed=seed, started=now,
                finished=None if result is None else now, result=result))
            if deal is not None:
                conn.execute(insert(deals_t).values(table_id=table_id, match=match, deal=deal))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                         .values(status="playing" if result is None else "finished",
                                 match=match, ended=None if result is None else now))
        return op

    @staticmethod
    def op_action(table_id: str, match: int, idx: int, seat: int, action: str,
                  result: str | None = None, at: float | None = None) -> Op:
        """Append one action, made ``at`` (now by default); with ``result``, the match
        ended with it."""
        append = AppendAction(table_id, match, idx, seat, action, at)
        if result is None:
            return append  # the writer inserts a batch's run of these in one executemany

        def op(conn: Connection) -> None:
            now = time.time() if at is None else at
            conn.execute(_INSERT_ACTION, append.row() | {"at": now})
            conn.execute(update(matches_t).where(matches_t.c.table_id == table_id,
                                                 matches_t.c.match == match)
                         .values(finished=now, result=result))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                         .values(status="finished", ended=now))
        return op

    @staticmethod
    def op_save_review(table_id: str, match: int, seat: int, budget: int, review: str,
                       at: float | None = None) -> Op:
        """Keep the review of ``seat`` in match ``match``, made ``at`` (now by default; a
        review made again replaces it)."""
        def op(conn: Connection) -> None:
            conn.execute(delete(reviews_t).where(reviews_t.c.table_id == table_id,
                                                 reviews_t.c.match == match,
                                                 reviews_t.c.seat == seat))
            conn.execute(insert(reviews_t).values(table_id=table_id, match=match, seat=seat,
                                                  budget=budget,
                                                  created=time.time() if at is None else at,
                                                  review=review))
        return op

    # ------------------------------------------------------------------ reading
    def unfinished_ids(self) -> list[str]:
        """The tables a process starting takes in: those waiting or playing, but the
        correspondence tables that await a person's move (rows until someone comes)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tables_t.c.id)
                                .where(tables_t.c.status.in_(("waiting", "playing")),
                                       tables_t.c.waiting_on.is_(None))
                                .order_by(tables_t.c.created))
            return [r[0] for r in rows]

    @staticmethod
    def op_awaiting(table_id: str, deadline: float | None, seats: list[int]) -> Op:
        """A correspondence table awaits the move of ``seats`` by ``deadline`` (none: no
        person's move is awaited)."""
        def op(conn: Connection) -> None:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(
                deadline=deadline if seats else None,
                waiting_on=json.dumps(seats) if seats else None))
        return op

    def keep_notices(self, accounts: list[int], event: dict[str, Any], now: float,
                     kept: float) -> None:
        """Keep ``event`` for ``accounts`` (Redis did not take it), and drop the notices
        older than ``kept`` seconds."""
        with self.engine.begin() as conn:
            conn.execute(delete(notices_t).where(notices_t.c.created < now - kept))
            conn.execute(insert(notices_t), [
                {"account_id": a, "event": json.dumps(event), "created": now}
                for a in accounts])

    def notices(self, account_id: int, since: float) -> list[dict[str, Any]]:
        """The events kept for ``account_id`` since ``since``, each with its id."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(notices_t.c.id, notices_t.c.event).where(
                notices_t.c.account_id == account_id, notices_t.c.created >= since)
                .order_by(notices_t.c.id)).all()
        return [{"id": r.id, **json.loads(r.event)} for r in rows]

    def overdue(self, now: float, limit: int = 100) -> list[str]:
        """Correspondence tables whose awaited move was due before ``now``."""
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables_t.c.id).where(tables_t.c.status == "playing",
                                            tables_t.c.deadline < now)
                .order_by(tables_t.c.deadline).limit(limit))]

    def awaiting(self, account_id: int | None, held: list[tuple[str, str]]
                 ) -> list[dict[str, Any]]:
        """The correspondence tables awaiting a move of ``account_id``'s or of a seat
        ``held`` (a table id and the seat token's hash): each one's id, game, seat and
        deadline, the soonest due first."""
        who = [and_(seats_t.c.table_id == table_id, seats_t.c.token_hash == digest)
               for table_id, digest in held]
        if account_id is not None:
            who.append(seats_t.c.account_id == account_id)
        if not who:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_t.c.id, tables_t.c.game, tables_t.c.deadline,
                       tables_t.c.waiting_on, seats_t.c.seat)
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .where(or_(*who), tables_t.c.status == "playing",
                       tables_t.c.waiting_on.is_not(None))
                .order_by(tables_t.c.deadline)).all()
        found: dict[str, dict[str, Any]] = {}
        for r in rows:
            if r.seat in json.loads(r.waiting_on):
                found.setdefault(r.id, {"table": r.id, "game": r.game, "seat": r.seat,
                                        "deadline": r.deadline})
        return list(found.values())

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            t = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if t is None:
                return None
            problem = None
            seats = [SeatRow(r.kind, r.bot, r.name, r.token_hash, r.account_id, r.client)
                     for r in conn.execute(select(seats_t).where(seats_t.c.table_id == table_id)
                                           .order_by(seats_t.c.seat))]
            matches = {r.match: MatchRow(r.match, r.seed, r.finished, r.result)
                       for r in conn.execute(select(matches_t)
                                             .where(matches_t.c.table_id == table_id))}
            for r in conn.execute(select(deals_t).where(deals_t.c.table_id == table_id)):
                if r.match in matches:
                    matches[r.match].deal = r.deal
            if t.match in matches:
                rows = conn.execute(select(actions_t.c.seat, actions_t.c.action, actions_t.c.idx)
                                    .where(actions_t.c.table_id == table_id,
                                           actions_t.c.match == t.match)
                                    .order_by(actions_t.c.idx))
                acts: list[tuple[int, str]] = []
                for seat, action, idx in rows:
                    if idx != len(acts):
                        problem = f"action {len(acts)} is missing"
                        break
                    acts.append((seat, action))
                matches[t.match].actions = acts
            try:
                options = json.loads(t.options)
            except ValueError:
                options, problem = t.options, "its options are not JSON"
            return TableRow(t.id, t.game, t.num_seats, options, t.created,
                            t.status, t.match, seats, matches, bool(t.listed),
                            bool(t.compared), t.turn_seconds, t.creator, t.ended, t.note,
                            problem, t.speed, bool(t.hints), bool(t.rated), t.daily,
                            move_seconds=t.move_seconds, deadline=t.deadline)

    def prune(self, before: float) -> list[str]:
        """Delete casual tables (not ``compared``) that ended before ``before`` (a
        ``time.time()``), with their seats, matches and logs; returns their ids."""
        with self.engine.begin() as conn:
            ids = [r[0] for r in conn.execute(
                select(tables_t.c.id).where(tables_t.c.status.in_(("finished", "closed")),
                                            tables_t.c.compared.is_(False),
                                            tables_t.c.ended < before).limit(500))]
            if ids:
                for t in (actions_t, deals_t, reviews_t, matches_t, seats_t, leases_t):
                    conn.execute(delete(t).where(t.c.table_id.in_(ids)))
                conn.execute(delete(tables_t).where(tables_t.c.id.in_(ids)))
            return ids

    def load_actions(self, table_id: str, match: int) -> list[tuple[int, str]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(actions_t.c.seat, actions_t.c.action)
                                .where(actions_t.c.table_id == table_id,
                                       actions_t.c.match == match)
                                .order_by(actions_t.c.idx))
            return [(seat, action) for seat, action in rows]


    def load_review(self, table_id: str, match: int, seat: int) -> tuple[int, str] | None:
        """The stored review of ``seat`` in that match: (its budget, its JSON), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(reviews_t.c.budget, reviews_t.c.review)
                               .where(reviews_t.c.table_id == table_id,
                                      reviews_t.c.match == match,
                                      reviews_t.c.seat == seat)).first()
            return None if row is None else (int(row[0]), str(row[1]))


def _settle(loop: asyncio.AbstractEventLoop, how: Callable[..., None], *args: object) -> None:
    """Tell a write's caller, on its event loop, how the write went; nothing if that loop
    has closed meanwhile (nobody waits there any more). The writer thread must outlive
    every caller: one that died of a closed loop (a test client's loop of one request,
    whose bot had queued a move) left every later write of its server waiting forever."""
    with contextlib.suppress(RuntimeError):  # (the loop is closed)
        loop.call_soon_threadsafe(how, *args)


def _done(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


def _done_all(futs: list[asyncio.Future[None]]) -> None:
    for fut in futs:
        _done(fut)


def _fail(fut: asyncio.Future[None], err: StoreError | None = None) -> None:
    if not fut.done():
        fut.set_exception(err or StoreError("the database did not accept the change"))


class StoreError(RuntimeError):
    """A write that could not be committed."""


class Fenced(StoreError):
    """A write refused because this process no longer holds the table's lease (another
    owner took it over: see :mod:`parlour.server.cluster.lease`)."""
