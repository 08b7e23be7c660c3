"""The per-client caps hold across processes: two apps on one PostgreSQL database and one
Redis, a client reaching a cap through the first is refused by the second, and may go
on once a table closes or a socket goes (parlour.server.edge.limits, .shared_limits)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import redis.asyncio as aioredis
from server_kit import PEOPLE4, ROOMY, AppClient, Player, app_client
from services import pg_database, redis_or_skip, redis_prefix
from starlette.testclient import WebSocketDenialResponse
from waits import wait_until, within

from parlour.server.cluster.shared_limits import SharedLimits
from parlour.server.edge.limits import Limits, client_hash

SEARCHING = [{"kind": "person"}] * 2 + [{"kind": "bot", "bot": "ismcts:normal"}] * 2


@contextmanager
def two_apps(tmp_path, search_tables_per_client: int = 2, **limits: Any
             ) -> Iterator[tuple[AppClient, AppClient]]:
    """Two processes' apps on one fresh database and Redis, with these limits (roomy
    otherwise); the same test client (one address) talks to both."""
    url_of_redis = redis_or_skip()
    with pg_database("shared_limits") as url, redis_prefix() as prefix:
        opts: dict[str, Any] = dict(db_url=url, redis_url=url_of_redis, redis_prefix=prefix,
                                    limits=Limits(**(ROOMY | limits)),
                                    search_tables_per_client=search_tables_per_client)
        with app_client(tmp_path / "x", **opts) as one, app_client(tmp_path / "x", **opts) as two:
            yield one, two


def open_table(client: AppClient, seats: list[dict[str, Any]] = PEOPLE4) -> Any:
    return client.post("/api/tables", json={"game": "spades", "seats": seats, "name": "Ann"})


def close(apps: tuple[AppClient, ...], table_id: str) -> None:
    """Close a table on the process that owns it (nobody joined in time, say): not always
    the one that opened it, since a new table goes to the process owning fewest."""
    # (a table being handed to the lighter process is in neither's memory for a moment)
    owner = wait_until(lambda: next((a for a in apps if table_id in a.app.state.hub.tables),
                                    None), f"a process to hold table {table_id}")
    hub = owner.app.state.hub
    owner.portal.call(hub.close_table, hub.tables[table_id], "expired")


def refused(res: Any, status: int, code: str) -> None:
    assert res.status_code == status, res.text
    assert res.json()["error"]["code"] == code, res.text
    assert int(res.headers["retry-after"]) >= 1


def test_the_servers_open_table_cap_counts_every_processs_tables(tmp_path):
    with two_apps(tmp_path, open_tables=5) as (one, two):
        def burst(app: AppClient) -> list[Any]:  # ten creates at once from ten addresses
            hub = app.app.state.hub

            async def creates() -> list[Any]:
                return await asyncio.gather(*(
                    hub.create("spades", {}, PEOPLE4, "Ann", None, client=f"ip:192.0.2.{i}")
                    for i in range(10)), return_exceptions=True)
            return app.portal.call(creates)

        with ThreadPoolExecutor(2) as pool:  # both processes at once
            results = [r for answers in pool.map(burst, (one, two)) for r in answers]
        made = [r[0].id for r in results if not isinstance(r, BaseException)]
        assert all(getattr(r, "code", None) == "busy" for r in results
                   if isinstance(r, BaseException))
        assert len(made) == 5
        refused(open_table(two), 503, "busy")
        refused(open_table(one), 503, "busy")
        close((one, two), made[0])
        assert open_table(two).status_code == 201


def test_a_clients_open_tables_are_counted_on_every_process(tmp_path):
    with two_apps(tmp_path, open_tables_per_client=2) as (one, two):
        first = open_table(one).json()["table"]["id"]
        assert open_table(one).status_code == 201
        refused(open_table(two), 429, "rate_limited")
        close((one, two), first)
        assert open_table(two).status_code == 201
        refused(open_table(one), 429, "rate_limited")


def test_a_clients_tables_of_searching_bots_are_counted_on_every_process(tmp_path):
    with two_apps(tmp_path, search_tables_per_client=1) as (one, two):
        first = open_table(one, SEARCHING)  # waits for its second person: nobody searches
        assert first.status_code == 201, first.text
        refused(open_table(two, SEARCHING), 429, "too_many")
        assert open_table(two).status_code == 201  # a table without searching bots
        close((one, two), first.json()["table"]["id"])
        assert open_table(two, SEARCHING).status_code == 201


def denied(client: AppClient, table_id: str) -> None:
    with pytest.raises(WebSocketDenialResponse) as refusal:
        Player(client, table_id, None)
    assert refusal.value.status_code == 429
    assert json.loads(refusal.value.content)["error"]["code"] == "rate_limited"


def opened_after_a_close(closer: AppClient, client: AppClient, table_id: str) -> Player:
    """A socket opened on ``client`` once the one just closed on ``closer`` is counted out:
    the test client cancels a closing socket's task, so its count comes off Redis in a task
    of its own (shielded), which may still be under way when the close returns."""
    shared = closer.app.state.guard.shared

    async def settled() -> None:
        await asyncio.gather(*shared.counting_out)

    closer.portal.call(settled)
    return Player(client, table_id, None)


def test_a_clients_websockets_are_counted_on_every_process(tmp_path):
    with two_apps(tmp_path, sockets_per_client=2) as (one, two):
        a, b = (open_table(one).json()["table"]["id"] for _ in range(2))
        held = [Player(one, a, None), Player(two, b, None)]  # the second is relayed
        denied(one, b)
        denied(two, a)
        held.pop(0).close()
        held.append(opened_after_a_close(one, two, a))  # a closed one is counted out at once
        for p in held:
            p.close()


def test_a_clients_websockets_at_one_table_are_counted_on_every_process(tmp_path):
    with two_apps(tmp_path, sockets_per_table=1) as (one, two):
        a, b = (open_table(one).json()["table"]["id"] for _ in range(2))
        held = [Player(one, a, None)]
        denied(two, a)
        held.append(Player(two, b, None))  # another table
        held.pop(0).close()
        held.append(opened_after_a_close(one, two, a))
        for p in held:
            p.close()


def test_the_sockets_of_a_process_that_stops_renewing_them_stop_counting(tmp_path):
    url = redis_or_skip()

    async def run(prefix: str) -> None:
        conn = aioredis.Redis.from_url(url, decode_responses=True)
        dead = SharedLimits(conn, prefix, "dead", ttl=0.3)
        alive = SharedLimits(conn, prefix, "alive", ttl=30)
        who = client_hash("ip:192.0.2.1")
        assert (await dead.open_socket(who, "t1", 8, 1))[0] is None
        assert (await alive.open_socket(who, "t2", 8, 1))[0] == "client"
        await asyncio.sleep(0.6)  # twice its lifetime: the dead process's socket lapsed
        cap, member = await alive.open_socket(who, "t2", 8, 1)
        assert cap is None and member is not None
        await dead.renew()  # back from a pause: its socket counts again, and this one too
        assert (await SharedLimits(conn, prefix, "third").open_socket(who, "t3", 8, 2))[0] \
            == "client"
        await alive.close_socket(member)
        await conn.aclose()

    with redis_prefix() as prefix:
        asyncio.run(within(run(prefix), "the shared counts in Redis", 30))


def test_a_socket_whose_task_is_cancelled_as_it_closes_is_still_counted_out():
    url = redis_or_skip()

    async def run(prefix: str) -> None:
        conn = aioredis.Redis.from_url(url, decode_responses=True)
        one, other = SharedLimits(conn, prefix, "one"), SharedLimits(conn, prefix, "other")
        who = client_hash("ip:192.0.2.1")
        _, member = await one.open_socket(who, "t1", 8, 1)
        assert member is not None
        closing = asyncio.create_task(one.close_socket(member))
        await asyncio.sleep(0)  # it has started counting out
        closing.cancel()  # as a server stopping (or a test client) cancels it
        with pytest.raises(asyncio.CancelledError):
            await closing
        await asyncio.gather(*one.counting_out)  # the count-out, carried on
        assert (await other.open_socket(who, "t2", 8, 1))[0] is None, \
            "the cancelled close left its socket counted"
        await conn.aclose()

    with redis_prefix() as prefix:
        asyncio.run(within(run(prefix), "the shared counts in Redis", 30))


def test_a_clients_log_in_attempts_are_counted_on_every_process(tmp_path):
    with two_apps(tmp_path, login_burst=2, logins_per_minute=1) as (one, two):
        body = {"name": "nobody-here", "password": "not the password at all"}
        answers = [one.post("/api/account/login", json=body),
                   two.post("/api/account/login", json=body),
                   two.post("/api/account/login", json=body)]
        assert 429 not in [a.status_code for a in answers[:2]]
        refused(answers[2], 429, "rate_limited")


def test_a_relayed_clients_hints_are_limited_by_the_tables_owner(tmp_path):
    with two_apps(tmp_path, hint_burst=1, hints_per_minute=1) as (one, two):
        res = one.post("/api/tables", json={"game": "foursquare", "name": "Ann", "deal": 31,
                                            "seats": [{"kind": "person"}]}).json()
        ann = Player(two, res["table"]["id"], res["token"])  # relayed to the owner
        view = ann.view()
        ann.send({"type": "hint", "version": view["version"]})
        assert ann.recv_until(lambda m: m["type"] in ("hint", "error"),
                              "the first hint")["type"] == "hint"
        ann.act(view["view"]["legal"][0])
        view = ann.view()
        ann.send({"type": "hint", "version": view["version"]})
        answer = ann.recv_until(lambda m: m["type"] in ("hint", "error"),
                                "the refusal of a hint over the limit")
        assert answer["type"] == "error" and answer["code"] == "rate_limited", answer
        ann.close()
