"""The server's settings: one object, made by ``parlour serve`` (from its flags and the
environment: ``docs/operations.md``) or by a test, and read by every part of the server."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from parlour.server.edge.limits import Limits
from parlour.server.edge.protocol import BURST, RATE
from parlour.server.play.timers import CallLater


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
    # Keep the puzzles each game ships (parlour.puzzles.shipped) as the server starts: a
    # fresh install has them at once. A test server that needs none skips it.
    puzzles_shipped: bool = True
    search_tables_per_client: int = 2  # open tables with searching bots one client may have
    bot_queue: int = 4  # searching jobs (bot moves, hints) a table may have waiting
    degrade_after: int = 2  # tables waiting for a worker before casual bots drop a level
    waiting_expiry: float = 30 * 60.0  # seconds a table may wait for its players
    absent_close: float = 15 * 60.0  # seconds a table with people may go with none connected
    unwatched_close: float = 5 * 60.0  # seconds a table of bots may play with nobody watching
    retention: float = 14 * 24 * 3600.0  # seconds a finished casual table's records are kept
    # Several processes on one database (parlour.server.cluster.lease, .relay): leases (None: on
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
    # Post-game reviews (parlour.server.play.reviews): iterations a decision (None: the game's
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
    # own clock times the timed phases and the bots' pace, and the turn timers and rated
    # forfeits unless ``call_later`` is set; the leases run on the database's clock; the
    # heartbeats between processes, on the real one.)
    now: Callable[[], float] = field(default=time.time)
    monotonic: Callable[[], float] = field(default=time.monotonic)
    # How the turn timers and rated forfeits are scheduled (parlour.server.play.timers;
    # None: on the event loop). Tests run them by their Clock.
    call_later: CallLater | None = None
