"""Bot capacity is shared fairly: searching jobs queue per table and the workers serve the
tables in turn; a client may open only a few tables of searching bots; under load a casual
table's bots drop a level (and say so) while a compared table waits; and the worker
processes die with the server."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest
from server_kit import Player, ServerProcess, app_client, free_port
from waits import ended, wait_until, within

from parlour.server.play.runner import Busy, FairQueue, lower_kind


def test_the_workers_serve_the_tables_in_turn():
    """Ten jobs of one table queued first do not make another table's one job wait for all
    of them: the tables take turns (it waits for the job running and at most one more of
    each table in line before it)."""
    order: list[str] = []

    async def main() -> None:
        queue = FairQueue(slots=1, per_key=10)

        gate = asyncio.Event()

        def job(name: str):
            async def work() -> str:
                order.append(name)
                await gate.wait()
                return name
            return work

        greedy = [asyncio.create_task(queue.run("a", job(f"a{i}"))) for i in range(10)]
        await asyncio.sleep(0)
        modest = asyncio.create_task(queue.run("b", job("b0")))
        await asyncio.sleep(0)
        gate.set()
        assert await modest == "b0"
        await asyncio.gather(*greedy)

    asyncio.run(within(main(), "the queue's jobs to run", 10))
    assert order.index("b0") == 1, order  # a0 was running; b0 went next
    assert sorted(order) == sorted([f"a{i}" for i in range(10)] + ["b0"])


def test_the_workers_time_is_shared_not_their_jobs():
    """A table whose jobs take ten times longer gets about the same worker time as a quick
    one, not ten times more (timed on a clock the jobs move, not the wall's)."""
    now = [0.0]
    done: list[str] = []

    async def main() -> None:
        queue = FairQueue(slots=1, per_key=100, clock=lambda: now[0])

        def job(name: str, cost: float):
            async def work() -> None:
                await asyncio.sleep(0)
                now[0] += cost
                done.append(name)
            return work

        heavy = [asyncio.create_task(queue.run("hard", job("h", 10.0))) for _ in range(6)]
        light = [asyncio.create_task(queue.run("easy", job("e", 1.0))) for _ in range(30)]
        await asyncio.gather(*heavy, *light)

    asyncio.run(within(main(), "the queue's jobs to run", 10))
    # by the time the hard table has had 3 jobs (30 s), the easy one has had about 30 s too
    third = [i for i, name in enumerate(done) if name == "h"][2]
    assert 19 <= done[:third].count("e") <= 30, done


def test_a_tables_queue_is_bounded():
    async def main() -> None:
        queue = FairQueue(slots=1, per_key=2)
        gate = asyncio.Event()

        async def wait() -> None:
            await gate.wait()

        running = asyncio.create_task(queue.run("a", wait))  # takes the slot
        await asyncio.sleep(0)
        waiting = [asyncio.create_task(queue.run("a", wait)) for _ in range(2)]
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await queue.run("a", wait)
        other = asyncio.create_task(queue.run("b", wait))  # another table is not refused
        gate.set()
        await asyncio.gather(running, *waiting, other)
        assert queue.running == 0 and queue.waiting() == 0

    asyncio.run(within(main(), "the queue's jobs to run", 10))


def test_a_bot_drops_one_level():
    assert lower_kind("spades", "ismcts:hard") == "ismcts:normal"
    assert lower_kind("spades", "ismcts:normal") == "ismcts:easy"
    assert lower_kind("spades", "ismcts:easy") is None
    assert lower_kind("spades", "rule") is None


SEARCHING = [{"kind": "person"}] + [{"kind": "bot", "bot": "ismcts:normal"}] * 3


def test_a_client_may_open_only_a_few_tables_of_searching_bots(tmp_path):
    with app_client(tmp_path / "c.sqlite3", search_tables_per_client=2) as client:
        body = {"game": "spades", "seats": SEARCHING, "name": "Ann"}
        assert [client.post("/api/tables", json=body).status_code for _ in range(2)] == [201] * 2
        third = client.post("/api/tables", json=body)
        assert third.status_code == 429 and third.json()["error"]["code"] == "too_many"
        rule = {"game": "spades", "name": "Ann",
                "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "rule"}] * 3}
        assert client.post("/api/tables", json=rule).status_code == 201


def test_under_load_casual_bots_drop_a_level_and_compared_tables_wait(tmp_path):
    with app_client(tmp_path / "g.sqlite3", degrade_after=0) as client:  # always "busy"
        hub = client.app.state.hub
        tables = []
        for compared in (False, True):
            res = client.post("/api/tables", json={"game": "spades", "seats": SEARCHING,
                                                   "name": "Ann"}).json()
            tid = res["table"]["id"]
            hub.tables[tid].compared = compared
            south = Player(client, tid, res["token"])
            south.view()
            south.act("bid 3")  # now the searching bots think
            tables.append((tid, south))
        (casual, south), (compared, north) = tables
        said = south.recv_until(lambda m: m["type"] == "table" and m["table"]["degraded"],
                                "the casual table to say its bots dropped a level")
        assert said["table"]["id"] == casual
        north.recv_until(lambda m: m["type"] == "view" and m["version"] >= 2,
                         "the compared table's view at version 2")
        assert not [m for m in north.messages if m["type"] == "table"
                    and m["table"]["degraded"]]
        assert hub.tables[compared].degraded is False
        south.close()
        north.close()


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"resource_tracker" not in cmd:
            out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.databases("sqlite")  # worker processes and signals: the database plays no part
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_search_workers_die_with_the_server(tmp_path, how):
    server = ServerProcess(tmp_path / "w.sqlite3", free_port())
    try:
        seats = [{"kind": "bot", "bot": "ismcts:hard"}] * 4
        res = httpx.post(f"{server.base}/api/tables", json={"game": "spades", "seats": seats})
        assert res.status_code == 201
        workers = wait_until(lambda: children(server.proc.pid), "a search worker to start")
        time.sleep(0.5)  # a hard search is under way (or not: the workers die either way)
        os.kill(server.proc.pid, how)
        ended(server.proc, "the server to end", 15)
        wait_until(lambda: not [w for w in workers if alive(w)],
                   "the search workers to end with the server", 30)
    finally:
        server.stop()
