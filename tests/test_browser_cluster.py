"""Two people in two browsers at one Spades table served by several ``parlour serve``
processes on one PostgreSQL database and one Redis (issue 19); the table's owner is
killed (SIGKILL) mid-deal and both play on.

Each browser reaches the parlour through a load balancer of its own: a small TCP
forwarder in the test that sends each new connection to the first live process of its
list, as nginx fails over to the next upstream. Ann's prefers process A, Bea's prefers B,
so there are no sticky sessions: Ann opens the table (A owns it), Bea follows the invite
link and her page, her API calls and her websocket all land on B, which relays them to
the owner. Opening Ann's page on B from the start would leave no page on the owner to
lose; the balancer lets the test cut a client of the dead process off and watch it come
back: when the owner dies, the pages whose socket went to it show the connection banner
and reconnect through their balancer to a live process, and a page on another process
keeps its socket (it notices nothing but a short pause); the process that takes the table
over (by replay) greets every page again. Then both play on by clicking, and their pages'
last views agree.

The short form (two processes, one kill, a trick or two more) runs in ``make test``; the
long form (four processes, three kills, the whole match) is marked ``long``.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_kit import page_of, shot, version
from server_kit import ServerProcess
from test_browser import TURN, take_turn
from test_server_failover import cluster, owner_of
from waits import joined, set_within

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

TABLE_ID = re.compile(r"/t/([\w-]+)$")
GREETED = 30.0  # seconds, at most, for a page to be greeted by the table's next owner


@contextmanager
def balancer(ports: list[int]) -> Iterator[int]:
    """A TCP forwarder on a port of its own (yielded), in a thread: each connection goes
    to the first of ``ports`` that accepts one, and is cut when either side closes."""
    ready: dict[str, Any] = {}
    started = threading.Event()
    links: set[asyncio.StreamWriter] = set()  # both ends of every connection open now
    handlers: set[asyncio.Task[None]] = set()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with suppress(OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()

    async def forward(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        links.add(client_w)
        try:
            for port in ports:
                with suppress(OSError):
                    server_r, server_w = await asyncio.open_connection("127.0.0.1", port)
                    break
            else:
                return
            links.add(server_w)
            ways = [asyncio.create_task(pipe(client_r, server_w)),
                    asyncio.create_task(pipe(server_r, client_w))]
            await asyncio.wait(ways, return_when=asyncio.FIRST_COMPLETED)
            links.discard(server_w)
            server_w.close()
            client_w.close()
            await asyncio.wait(ways)  # the other way ends: its ends are closed
        finally:
            links.discard(client_w)
            client_w.close()
            handlers.discard(task)

    async def serve() -> None:
        stop = asyncio.Event()
        server = await asyncio.start_server(forward, "127.0.0.1", 0)
        ready.update(port=server.sockets[0].getsockname()[1], stop=stop,
                     loop=asyncio.get_running_loop())
        started.set()
        async with server:
            await stop.wait()
            for writer in list(links):  # cut every connection; each handler then ends
                writer.close()
            await asyncio.gather(*handlers)

    thread = threading.Thread(target=asyncio.run, args=(serve(),), daemon=True)
    thread.start()
    set_within(started, "the balancer to start", 10)
    try:
        yield int(ready["port"])
    finally:
        ready["loop"].call_soon_threadsafe(ready["stop"].set)
        joined(thread, "the balancer to stop", 10)


def is_welcome(payload: str | bytes) -> bool:
    """Whether a frame is an owner's welcome (after a hello, or a new owner's greeting)."""
    try:
        return bool(json.loads(payload).get("type") == "welcome")
    except ValueError:
        return False


@dataclass
class Person:
    """One person's browser page, the processes its balancer tries (in order), what its
    websockets were told, and the cards it played."""

    name: str
    page: Any
    order: list[ServerProcess]
    sockets: list[Any] = field(default_factory=list)
    welcomes: int = 0
    played: int = 0

    def __post_init__(self) -> None:
        self.page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        self.sockets.append(ws)
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.welcomes += is_welcome(payload)

    @property
    def process(self) -> ServerProcess:
        """The process its page's socket goes to: the first live one its balancer tries
        (it reconnected after every kill)."""
        return next(s for s in self.order if s.proc.poll() is None)

    def wait_greeted(self, before: int) -> None:
        """Wait until a table owner has welcomed the page more than ``before`` times."""
        for _ in range(int(GREETED / 0.05)):
            if self.welcomes > before:
                return
            self.page.wait_for_timeout(50)
        pytest.fail(f"{self.name}'s page was not greeted by the table's new owner")


def tricks_taken(page: Any) -> int:
    """The tricks of this deal taken so far, by the side panel's "Won" of both teams."""
    return sum(int(x) for x in page.locator(".team-facts dd:nth-of-type(3)").all_inner_texts())


def table_facts(page: Any) -> tuple[str, list[str], list[str], str, str]:
    """What both people must see alike: the view's version, the teams' scores, their
    bags, bids and tricks, the deal, and the scores of the deals played."""
    history = page.locator(".history table")
    return (version(page), page.locator(".team-score").all_inner_texts(),
            page.locator(".team-facts").all_inner_texts(), page.inner_text(".side-title"),
            history.inner_text() if history.count() else "")


def play(people: list[Person], until: Callable[[], bool]) -> None:
    """Each person takes their turns by clicking, until ``until()``."""
    for _ in range(1000):
        if until():
            return
        acted = False
        for person in people:
            did = take_turn(person.page)
            if did is not None:
                acted = True
                person.played += not did.startswith("bid")
        if not acted:
            people[0].page.wait_for_timeout(30)
    pytest.fail("the play did not get there: " + ", ".join(
        f"{p.name} played {p.played}" for p in people))


def rest(people: list[Person]) -> None:
    """Wait until the table waits for a person (the bots play up to one) or the match is
    over, and both pages show that same view."""
    resting: list[Person] = []
    for _ in range(1000):
        resting = [p for p in people if p.page.locator(TURN).count()]
        if resting:
            break
        people[0].page.wait_for_timeout(30)
    assert resting, "the table did not come to rest"
    last = version(resting[0].page)
    for person in people:
        person.page.wait_for_selector(f"body[data-version='{last}']", state="attached")


def kill_the_owner(url: str, table: str, servers: list[ServerProcess],
                   people: list[Person], shots: str) -> None:
    """Kill the table's owner (SIGKILL). The pages on it show the connection banner and
    reconnect; the others keep their socket; the next owner greets them all."""
    owner, _ = owner_of(url, table, servers)
    assert owner is not None
    cut = [p for p in people if p.process is owner]
    kept = {p.name: (len(p.sockets), p.sockets[-1]) for p in people if p not in cut}
    before = {p.name: p.welcomes for p in people}
    owner.kill()
    for person in cut:
        person.page.wait_for_selector(".conn-banner:not([hidden])")
        assert person.page.evaluate("document.querySelector('.board').inert")
        shot(person.page, f"{shots}-{person.name}-connection-lost")
    for person in people:
        person.wait_greeted(before[person.name])
        person.page.wait_for_selector(".conn-banner", state="hidden")
    for person in people:
        if person not in cut:  # its process lives: same socket, never closed
            count, socket = kept[person.name]
            assert len(person.sockets) == count and not socket.is_closed(), person.name
    new_owner, _ = owner_of(url, table, servers)
    assert new_owner is not None and new_owner is not owner


def play_through_kills(browser: Any, tmp_path: Path, processes: int, kills: list[int],
                       whole_match: bool) -> None:
    """Ann and Bea (and two bots) at a Spades table to 10 points; the owner is killed each
    time Ann has played the number of cards in ``kills``; after the last kill both play
    two more cards each (a whole trick more), or to the end of the match."""
    with cluster(tmp_path, count=processes) as (url, servers), \
            balancer([s.port for s in servers]) as ann_port, \
            balancer([s.port for s in servers[1:] + servers[:1]]) as bea_port:
        ann_base, bea_base = f"http://127.0.0.1:{ann_port}", f"http://127.0.0.1:{bea_port}"
        ann = Person("ann", page_of(browser), servers)
        ann.page.goto(ann_base + "/")
        ann.page.fill("#new-name", "Ann")
        ann.page.select_option("#seat-1", "person")
        ann.page.click("summary")
        ann.page.fill("#opt-target", "10")  # the least: one deal almost always ends it
        ann.page.fill("#new-turn", "0")  # no turn timer: nothing here runs on the clock
        ann.page.click("text=Open the table")
        ann.page.wait_for_selector("#invite")
        invite = ann.page.input_value("#invite")
        found = TABLE_ID.search(invite)
        assert invite.startswith(ann_base) and found, invite
        table = found.group(1)
        assert owner_of(url, table, servers)[0] is servers[0]

        bea = Person("bea", page_of(browser, 390, 844), servers[1:] + servers[:1])
        bea.page.goto(bea_base + invite[len(ann_base):])  # the invite link, on B
        bea.page.fill("#join-name", "Bea")
        bea.page.click("text=Sit down")
        bea.page.wait_for_selector(".hand .card")
        ann.page.wait_for_selector(".hand .card")
        people = [ann, bea]
        at_kill = 0
        for n, at in enumerate(kills, 1):
            play(people, lambda: ann.played >= at)  # noqa: B023 (called at once)
            at_kill = tricks_taken(ann.page)
            kill_the_owner(url, table, servers, people, f"cluster-kill{n}")
        if whole_match:
            play(people, lambda: all(p.page.locator(".endbar:not([hidden])").count()
                                     for p in people))
        else:
            after = {p.name: p.played for p in people}
            play(people, lambda: all(p.played >= after[p.name] + 2 for p in people))
        rest(people)
        for person in people:
            shot(person.page, f"cluster-{person.name}-last")
        assert table_facts(ann.page) == table_facts(bea.page)
        if not whole_match:  # (a whole match's next deal counts its tricks again)
            assert tricks_taken(ann.page) > at_kill


# The first click after a takeover once went unsent in about one run in three: the new
# owner's greeting brought the view on screen again, held back behind the finished trick it
# showed, and the page refused the move it offered (app.js now takes the same view in place).
def test_two_browsers_play_on_through_the_owner_killed(browser, tmp_path):
    play_through_kills(browser, tmp_path, processes=2, kills=[2], whole_match=False)


@pytest.mark.long
def test_two_browsers_play_a_match_through_three_kills_long(browser, tmp_path):
    play_through_kills(browser, tmp_path, processes=4, kills=[2, 5, 9], whole_match=True)
