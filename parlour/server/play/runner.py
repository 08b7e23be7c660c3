"""The bot runner: bots' turns and hints, worked out off the event loop, shared fairly.

Cheap bots (rule, random) think in a thread pool. Searching bots (``needs_sample``) and
searching hints think in worker processes, so they do not hold the GIL, and every such job
goes through one :class:`FairQueue`: each table has its own queue, bounded, and the
next job is always one of the table that has had the least worker time, so ten tables of
hard bots cannot starve an eleventh. When more tables wait for the workers than
:attr:`Settings.degrade_after`, a casual table's bot thinks one level lower for that move
and the table says so (``degraded`` in its summary); a table whose results are compared
(rated, daily) never degrades: it waits its turn.

Worker processes die with the server: :meth:`BotRunner.close` ends them, and each worker
watches its parent and exits when the server is gone (``kill -9`` included).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any, TypeVar

from parlour.bots import Bot, Hint, Observation, bot_kinds, hint, make_bot, observe_for
from parlour.engine import JsonDict, Seat, derive_seed
from parlour.server.cluster.outages import DATABASE, Outages
from parlour.server.edge.protocol import ProtocolError, Stale
from parlour.server.play.clock import RETRY_FIRST, RETRY_MOST

if TYPE_CHECKING:
    from parlour.server.play.table import Table
    from parlour.server.settings import Settings

log = logging.getLogger("parlour.server")

T = TypeVar("T")
HINT_VALUES = 5  # the values a hint carries besides its choice (best first)
PARENT_CHECK = 0.5  # seconds between a worker's looks at whether the server is alive

#: How the runner hands a bot's move in: ``submit(table, seat, action, version, phase)``.
Submit = Callable[["Table", Seat, int, "int | None", "str | None"], Awaitable[None]]


class Busy(ProtocolError):
    def __init__(self) -> None:
        super().__init__("busy", "the bots of this table are busy: ask again in a moment")


@dataclass
class _Job:
    key: str
    work: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any]


@dataclass
class FairQueue:
    """At most ``slots`` jobs run at once; waiting jobs queue per key (a table), at most
    ``per_key`` each, and the keys share the slots' time: the next job is the first waiting
    one of the key that has used the least worker time (a key that comes back starts level
    with the others, so being away earns no credit). A table of hard searches thus gets
    the same share of the workers as a table of quick ones, not ten times more."""

    slots: int
    per_key: int
    running: int = 0
    _queues: dict[str, deque[_Job]] = field(default_factory=dict)
    _turns: deque[str] = field(default_factory=deque)
    _used: dict[str, float] = field(default_factory=dict)  # worker seconds, by key
    clock: Callable[[], float] | None = None  # what times a job (default: the loop's clock)
    _level: float = 0.0  # the time used by the key served last: where newcomers start
    _started: set[asyncio.Task[None]] = field(default_factory=set)

    def waiting(self) -> int:
        """Keys with a job waiting for a slot."""
        return len(self._turns)

    async def run(self, key: str, work: Callable[[], Awaitable[T]], bounded: bool = True) -> T:
        """Run ``work()`` when ``key``'s turn comes; :class:`Busy` if its queue is full
        (``bounded``: a table's bots are bounded by its seats already, its hints are not)."""
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            self._turns.append(key)
            self._used[key] = max(self._used.get(key, 0.0), self._level)
        elif bounded and len(queue) >= self.per_key:
            raise Busy()
        job = _Job(key, work, asyncio.get_running_loop().create_future())
        # a job whose waiter was cancelled still ends: its error is nobody's to raise
        job.done.add_done_callback(lambda f: f.cancelled() or f.exception())
        queue.append(job)
        self._next()
        try:
            return await asyncio.shield(job.done)
        except asyncio.CancelledError:
            if job in queue:  # not started: it leaves the queue
                queue.remove(job)
                if not queue:
                    self._forget(key)
            raise

    def _forget(self, key: str) -> None:
        self._queues.pop(key, None)
        with contextlib.suppress(ValueError):
            self._turns.remove(key)

    def _next(self) -> None:
        while self.running < self.slots and self._turns:
            key = min(self._turns, key=lambda k: self._used.get(k, 0.0))  # first of the least
            self._turns.remove(key)
            self._level = self._used.get(key, 0.0)
            if len(self._used) > 4 * len(self._queues) + 64:  # forget who would start level
                self._used = {k: v for k, v in self._used.items()
                              if k in self._queues or v > self._level}
            queue = self._queues[key]
            job = queue.popleft()
            if queue:
                self._turns.append(key)  # its next job waits for the others' turns
            else:
                del self._queues[key]
            self.running += 1
            task = asyncio.create_task(self._start(job))
            self._started.add(task)
            task.add_done_callback(self._started.discard)

    async def _start(self, job: _Job) -> None:
        clock = self.clock or asyncio.get_running_loop().time
        began = clock()
        try:
            result = await job.work()
        except BaseException as err:  # handed to whoever waits on the job
            if not job.done.done():
                job.done.set_exception(err)
        else:
            if not job.done.done():
                job.done.set_result(result)
        finally:
            self.running -= 1
            self._used[job.key] = self._used.get(job.key, self._level) + clock() - began
            self._next()


def worker_processes(count: int) -> ProcessPoolExecutor:
    """A pool of ``count`` worker processes (spawned fresh, not forked from a server with
    threads and sockets), each of which exits as soon as this process is gone. A worker
    runs the build this process runs (:mod:`parlour.native` hands it down)."""
    return ProcessPoolExecutor(count, mp_context=get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))


def end_workers(pool: ProcessPoolExecutor | None) -> None:
    """End ``pool``'s worker processes now, a search in progress included (a pool's own
    shutdown waits for the work in hand)."""
    if pool is None:
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


class WorkersDown(RuntimeError):
    """The worker processes broke again as soon as they were started anew."""


class Workers:
    """``count`` worker processes, started when first needed. A pool that breaks (a worker
    killed, or workers that die as they start) is replaced, and the job that met it is run
    once more in the new one (a job is a pure function of its arguments); if that breaks too,
    :class:`WorkersDown`, and the caller falls back to what it can do without them."""

    #: Seconds after :class:`WorkersDown` during which no new pool is tried (each try costs
    #: a second or two of starting processes).
    REST = 60.0

    def __init__(self, count: int, what: str) -> None:
        self.count = count
        self.what = what  # "bots", "reviews": for the log
        self.pool: ProcessPoolExecutor | None = None
        self.down_until = float("-inf")  # the loop's time until which no pool is tried

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        if loop.time() < self.down_until:
            raise WorkersDown(f"the {self.what}' worker processes are down")
        for attempt in range(2):
            if self.pool is None:
                self.pool = worker_processes(self.count)
            pool = self.pool
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                if self.pool is pool:  # not replaced already by another job that met it
                    end_workers(pool)
                    self.pool = None
                    log.warning("the %s' worker processes broke; %s", self.what,
                                "starting new ones" if attempt == 0 else
                                f"working in this process for {self.REST:.0f} s")
        self.down_until = loop.time() + self.REST
        raise WorkersDown(f"the {self.what}' worker processes break as they start")

    def pids(self) -> list[int]:
        procs = getattr(self.pool, "_processes", None) or {}
        return [p.pid for p in procs.values() if p.pid is not None]

    def close(self) -> None:
        end_workers(self.pool)
        self.pool = None


def watch_parent(parent: int) -> None:
    """Run in each worker process as it starts: exit as soon as the server is gone."""
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            threading.Event().wait(PARENT_CHECK)

    threading.Thread(target=watch, name="parlour-parent-watch", daemon=True).start()


def think(bot: Bot, obs: Observation) -> tuple[int, Bot]:
    """Run in a worker process: the action, and the bot as it is after choosing it."""
    return bot.act(obs), bot


def advise(obs: Observation, seed: int, time_cap: float | None) -> Hint:
    """Run in a worker: the hint bot's advice on ``obs``, in at most about ``time_cap``
    seconds."""
    return hint(obs, seed=seed, time_cap=time_cap)


def lower_kind(game_id: str, kind: str) -> str | None:
    """The same bot one level lower (``ismcts:hard`` -> ``ismcts:normal``), or None if it
    has no lower level."""
    name, _, level = kind.partition(":")
    cls = bot_kinds(game_id).get(name)
    levels = list(cls.levels) if cls is not None else []
    if not levels:
        return None
    at = levels.index(level) if level in levels else len(levels) // 2  # unnamed: default
    return f"{name}:{levels[at - 1]}" if at > 0 else None


class BotRunner:
    """Plays the bot seats of every table and works out hints, through ``submit``."""

    def __init__(self, settings: Settings, submit: Submit) -> None:
        self.settings = settings
        self.submit = submit
        self.outages = Outages()  # the hub's (parlour.server.cluster.outages)
        self.pool = ThreadPoolExecutor(settings.bot_threads, thread_name_prefix="parlour-bot")
        self.workers = Workers(settings.bot_processes, "bots")  # started when first needed
        self.queue = FairQueue(max(1, settings.bot_processes), settings.bot_queue)
        #: How a bot waits out its table's pace (a test may record the waits asked for).
        self.wait: Callable[[float], Awaitable[None]] = asyncio.sleep

    # ------------------------------------------------------------------ workers
    @property
    def procs(self) -> ProcessPoolExecutor | None:
        """The worker processes' pool, once a searching bot or hint has needed it."""
        return self.workers.pool

    def worker_pids(self) -> list[int]:
        return self.workers.pids()

    async def close(self, tables: list[Table]) -> None:
        """Stop every bot, and end the worker processes (a search in progress included)."""
        tasks = [t for table in tables for t in table.bot_tasks.values()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.workers.close()

    async def _search(self, table: Table, fn: Callable[..., T], *args: Any,
                      bounded: bool = True) -> T:
        """``fn(*args)`` in a worker process, when the table's turn comes."""
        return await self.queue.run(table.id, lambda: self._in_workers(fn, *args), bounded)

    async def _in_workers(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, or in a thread of this one while the workers
        are down (slower, and it holds the GIL, but the table and its hints go on)."""
        try:
            return await self.workers.run(fn, *args)
        except WorkersDown:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def busy(self) -> bool:
        """More tables wait for the workers than the settings allow before degrading."""
        return self.queue.waiting() >= self.settings.degrade_after

    # ------------------------------------------------------------------ bot turns
    def schedule(self, table: Table) -> None:
        """Set each bot seat that is to act thinking, unless it already is."""
        state = table.state
        if table.status != "playing" or state is None:
            return
        for seat in state.to_act:
            if seat in table.bots and seat not in table.bot_tasks:
                table.bot_tasks[seat] = asyncio.create_task(self._turns(table, seat))

    def stop(self, table: Table, seat: Seat) -> None:
        task = table.bot_tasks.pop(seat, None)
        if task is not None:
            task.cancel()

    async def _turns(self, table: Table, seat: Seat) -> None:
        """Play ``seat``'s turns for as long as it is to act."""
        loop = asyncio.get_running_loop()
        try:
            while table.status == "playing" and table.state is not None \
                    and seat in table.state.to_act and seat in table.bots:
                state, version, bot = table.state, table.version, table.bots[seat]
                timed = table.reaction
                started = loop.time()
                obs = observe_for(bot, state, seat, table.bot_rng)
                try:
                    action, thought = await self._think(table, seat, bot, obs)
                except (asyncio.CancelledError, Busy):
                    raise
                except Exception:  # a fault of the bot's: the table must not hang on it
                    log.exception("table %s: the %s bot at seat %d could not choose; a random "
                                  "legal move stands in", table.id, bot.kind, seat)
                    action, thought = table.bot_rng.choice(list(obs.legal)), bot
                if table.bots.get(seat) is not bot:
                    continue  # its person took the seat back (or another bot stands in)
                table.bots[seat] = thought  # carries the bot's own generator forward
                phase = None
                # the pace counts from the last action (none at a table just taken over)
                wait = table.bot_wait() - (loop.time() - min(started, table.acted_at))
                if timed is not None and action in timed.reaction.actions:
                    # A reaction goes in at the bot's own time, counted like a person's
                    # from the signal, when there is a person to race; the action (and so
                    # the record) carries the time the bot chose.
                    phase = timed.id
                    if table.has_people() and timed.opened is not None:
                        wait = timed.due(action) - loop.time()
                    else:  # bots only: the usual pause, well inside the window
                        wait = min(self.settings.bot_pause, timed.seconds / 2) \
                            - (loop.time() - started)
                if wait > 0:
                    await self.wait(wait)
                    if table.bots.get(seat) is not thought:
                        continue  # its person took the seat back meanwhile
                if not await self._hand_in(table, seat, bot, action, version, phase):
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: bot at seat %d stopped", table.id, seat)
        finally:
            if table.bot_tasks.get(seat) is asyncio.current_task():
                del table.bot_tasks[seat]

    async def _hand_in(self, table: Table, seat: Seat, bot: Bot, action: int, version: int,
                       phase: str | None) -> bool:
        """Submit the bot's move; False if the bot should stop. A move the database could
        not save is tried again (after a growing pause, logged), so the table carries on
        once writes succeed again."""
        pause = RETRY_FIRST
        while True:
            try:
                await self.submit(table, seat, action, None if phase else version, phase)
                return True
            except Stale:
                return True  # others acted meanwhile (a simultaneous phase): think again
            except ProtocolError as err:
                if err.code in ("wrong_phase", "answered"):
                    return True  # the window closed meanwhile
                if err.code == "unavailable":
                    if not self.outages.down(DATABASE):  # an outage is logged once, as such
                        log.warning("table %s: the database refused seat %d's move; trying "
                                    "again in %.1f s", table.id, seat, pause)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_MOST)
                    if table.version != version or table.status != "playing":
                        return True
                    continue
                if err.code != "illegal":
                    return False
                log.error("table %s: %s bot at seat %d chose an illegal action: %s",
                          table.id, bot.kind, seat, err.message)
                legal = table.state.legal_actions(seat) if table.state else ()
                if not legal:
                    return False
                action, phase = table.bot_rng.choice(list(legal)), None

    async def _think(self, table: Table, seat: Seat, bot: Bot, obs: Observation
                     ) -> tuple[int, Bot]:
        """The bot's action, computed off the event loop: cheap bots in a thread, searching
        bots in a worker process, a level lower while the workers are busy (casual tables
        only). Each decision is capped by the server's time cap for the bot's level
        (:attr:`Settings.bot_time_caps`): the bots themselves stop on their budget only."""
        loop = asyncio.get_running_loop()
        self.cap(bot)
        if not (bot.needs_sample and self.settings.bot_processes > 0):
            return await loop.run_in_executor(self.pool, bot.act, obs), bot
        degraded = None
        if self.busy() and not table.compared:
            lower = lower_kind(table.game.id, table.seats[seat].bot or "")
            if lower is not None:
                degraded = make_bot(table.game, lower, seat,
                                    derive_seed(table.seed, "degraded", table.version, seat))
        self._mark_degraded(table, degraded is not None)
        if degraded is not None:
            self.cap(degraded)
        player = degraded or bot
        action, thought = await self._search(table, think, player, obs, bounded=False)
        thought.game = bot.game
        return action, (bot if degraded is not None else thought)

    def cap(self, bot: Bot) -> None:
        """Bound ``bot``'s decisions by the server's time cap for its level."""
        bot.time_cap = self.time_cap(str(getattr(bot, "level", "normal")))

    def time_cap(self, level: str = "normal") -> float:
        caps = self.settings.bot_time_caps
        return caps.get(level, caps["normal"])

    @staticmethod
    def _mark_degraded(table: Table, degraded: bool) -> None:
        if table.degraded != degraded:
            table.degraded = degraded
            table.broadcast_table()

    # ------------------------------------------------------------------ hints
    async def advise(self, table: Table, obs: Observation, searching: bool) -> JsonDict:
        """A hint on ``obs``: searching hints take their turn with the table's bots."""
        seed = secrets.randbits(63)
        if searching and self.settings.bot_processes > 0:
            advice = await self._search(table, advise, obs, seed, self.time_cap())
        else:
            loop = asyncio.get_running_loop()
            advice = await loop.run_in_executor(self.pool, advise, obs, seed, self.time_cap())
        values = list(advice.values.items())
        chance = advice.values.get(advice.text) if "chance" in advice.unit else None
        return {"action": advice.text, "chance": chance, "unit": advice.unit,
                "values": dict(values[:HINT_VALUES])}
