"""The web parlour: a FastAPI app serving the lobby API, the websocket and the page.

Lobby (JSON over HTTP, errors as ``{"error": {"code", "message"}}``), in
:mod:`parlour.server.routers.lobby` and :mod:`parlour.server.routers.tables`:

* ``GET  /api/games``: the games, their options and bot kinds.
* ``GET  /api/games/{id}/rules``: a game's rules page, as HTML.
* ``GET  /api/tables``: tables waiting for players or being played.
* ``POST /api/tables``: create a table; the creator gets a seat and its token.
* ``GET  /api/tables/{id}``: one table (public facts only).
* ``POST /api/tables/{id}/join``: take a free seat with a display name.
* ``POST /api/tables/{id}/again``: deal a new match with the same seats (seat token in
  ``Authorization: Bearer``).
* ``GET  /api/tables/{id}/matches/{n}/record``: the record of a finished match.
* ``GET  /api/tables/{id}/matches/{n}/replay?step=&seat=``: a finished match, step by step.

Accounts (``/api/account/...``: sign up, log in and out, passwords, recovery, export,
deletion, seats that follow a person, reports and mutes) in
:mod:`parlour.server.routers.accounts`; see ``docs/accounts.md``.

Play: one websocket per client at ``/ws/tables/{id}`` (intents, views, timed phases,
hints; :mod:`parlour.server.routers.websocket`); see ``docs/protocol.md``. The page
(:mod:`parlour.server.routers.pages`) is one HTML file and its static files.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from types import FrameType
from typing import Any

import uvicorn
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.body_limit import RequestBodyLimitMiddleware
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from parlour import native
from parlour.engine import ascii_int
from parlour.server.cluster.heartbeats import Cluster
from parlour.server.cluster.lease import Leases
from parlour.server.cluster.relay import Relay
from parlour.server.edge import errors
from parlour.server.edge.deps import page_host
from parlour.server.edge.errors import error
from parlour.server.edge.language import language_of
from parlour.server.edge.limits import ClientGuard, Limits
from parlour.server.edge.metrics import Metrics
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.puzzles import load_shipped
from parlour.server.play.tables import Hub
from parlour.server.routers import (
    accounts,
    game_files,
    lobby,
    ops,
    pages,
    people,
    players,
    puzzles,
    quick,
    tables,
    websocket,
)
from parlour.server.settings import Settings
from parlour.server.storage.store import Store

log = logging.getLogger("parlour.server")

SWEEP_EVERY = 60.0  # seconds between rounds of the table life cycle (Hub.tidy)
DRAIN_SECONDS = 5.0  # seconds /health answers 503 draining before the listener closes
SHUTDOWN_STEP = 5.0  # seconds each step of stopping may take before the next one runs

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def content_policy(host: str | None) -> str:
    """The page's Content-Security-Policy: everything from its own origin; websockets to
    its own host only (``'self'`` covers ws: and wss: of it in CSP 3; the host is named too
    for browsers that do not)."""
    sockets = f" ws://{host} wss://{host}" if host else ""
    return ("default-src 'self'; connect-src 'self'" + sockets + "; img-src 'self' data:; "
            "style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


def create_app(settings: Settings) -> FastAPI:
    """The web parlour for ``settings``: its hub and store live as long as the app runs."""
    app = FastAPI(title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json")
    app.state.settings = settings
    app.state.guard = ClientGuard(settings.limits, settings.monotonic)
    errors.install(app)
    app.include_router(lobby.router)
    app.include_router(tables.router)
    app.include_router(websocket.router)
    app.include_router(ops.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(people.router)
    app.include_router(quick.router)
    app.include_router(puzzles.router)
    app.include_router(game_files.router)  # before /static: each game's files, its folder's
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    app.include_router(pages.router)  # last: its one route answers every page path
    # Middleware, innermost first: the body limit counts the bytes as they stream in
    # (chunked bodies too); the guard refuses an announced body past it at once and adds
    # the security headers; the proxy headers, from trusted proxies only, come first.
    app.add_middleware(RequestBodyLimitMiddleware, max_body_size=settings.limits.max_body)
    app.add_middleware(Guard, limits=settings.limits)
    if settings.limits.trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware,
                           trusted_hosts=list(settings.limits.trusted_proxies))
    return app


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store, restore unfinished tables, sweep finished ones; close on the way out."""
    settings: Settings = app.state.settings
    store = Store(settings.db_url, settings.auto_upgrade)
    hub = Hub(settings, store)
    app.state.hub = hub
    leases = Leases(store.engine) if settings.leased else None
    cluster = Cluster(hub, leases) if leases is not None else None
    app.state.cluster = cluster
    relay = None
    if settings.redis_url is not None:
        assert leases is not None
        relay = Relay(hub, app.state.guard, settings.redis_url, leases.owner,
                      settings.redis_prefix)
        await relay.start()
        if cluster is not None:
            cluster.offer = relay.offer
    app.state.relay = relay
    app.state.metrics = Metrics(hub, cluster, relay)
    if settings.puzzles_shipped:
        added = await asyncio.to_thread(load_shipped, store.engine)
        if added:
            log.info("kept %d shipped puzzles", added)
    restored = await hub.restore()
    if restored:
        log.info("restored %d unfinished tables", restored)
    if cluster is not None:
        cluster.start()

    async def sweeper() -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await hub.tidy()
            except Exception:
                log.exception("the table sweep failed")

    sweeping = asyncio.create_task(sweeper())
    try:
        yield
    finally:
        sweeping.cancel()
        if cluster is not None:
            await shutdown_step("the lease heartbeat", cluster.stop())
            await shutdown_step("the hand-over of the tables", cluster.drain())
        if relay is not None:
            await shutdown_step("the relay", relay.close())
        await shutdown_step("the tables' bots and reviews", hub.close())
        await shutdown_step("the database", asyncio.to_thread(store.close))


async def shutdown_step(name: str, work: Awaitable[object]) -> None:
    """One step of the way out, given :data:`SHUTDOWN_STEP` seconds: a step that fails or
    hangs (a peer that never answers a close) is logged and the next one runs, so that a
    process asked to stop always stops."""
    try:
        async with asyncio.timeout(SHUTDOWN_STEP):
            await work
    except TimeoutError:
        log.warning("stopping: %s took over %.0f s; going on without it", name, SHUTDOWN_STEP)
    except Exception:
        log.exception("stopping: %s failed", name)


class Guard:
    """Refuse a body announced past the limit before reading it; give every HTTP answer the
    security headers."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        length = conn.headers.get("content-length")
        limit = self.limits.max_body
        announced = ascii_int(length) if length is not None else 0
        if announced is None or announced > limit:
            too_big = ProtocolError("too_big", "request body too big (at most {limit} bytes)",
                                    limit=limit)
            await error(too_big.code, too_big.render(language_of(conn)), 413,
                        headers={"Connection": "close"})(scope, receive, send)
            return
        if not json_body(scope, conn, announced):
            wrong = ProtocolError("bad_content_type", "send the body as JSON, with "
                                  "Content-Type: application/json")
            await error(wrong.code, wrong.render(language_of(conn)), 415)(scope, receive, send)
            return
        policy = content_policy(page_host(conn))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def json_body(scope: Scope, conn: HTTPConnection, announced: int) -> bool:
    """Whether a request to the API sends its body (if any) as ``application/json``, and
    nothing else: FastAPI itself would read ``application/csp-report+json`` (any
    ``+json``) or a body with no type at all as JSON."""
    if scope["method"] not in BODY_METHODS or not scope["path"].startswith("/api/"):
        return True
    kind = conn.headers.get("content-type")
    has_body = announced > 0 or "chunked" in conn.headers.get("transfer-encoding", "")
    if kind is None:
        return not has_body
    return kind.split(";", 1)[0].strip().lower() == "application/json"


def server_config(app: FastAPI, host: str, port: int, limits: Limits, **extra: Any
                  ) -> Any:
    """uvicorn's configuration for ``app``: the guarded protocols (header deadline,
    connections per address: :mod:`parlour.server.edge.listener`), uvicorn's own proxy headers off
    (the app believes trusted proxies only), small websocket frames, no access log; the
    event loop uvloop's where installed (about 15% less CPU an action under load)."""
    import uvicorn

    from parlour.server.edge.listener import guarded_protocols, raise_file_limit

    files = raise_file_limit()
    if files < 4 * limits.connections_per_address:
        log.warning("only %d open files: a burst of connections may exhaust them", files)
    http, ws = guarded_protocols(limits)
    # Views are small: compressing each costs more CPU than it saves on loopback or a LAN.
    options: dict[str, Any] = dict(
        host=host, port=port, http=http, ws=ws, proxy_headers=False, ws_max_size=64 * 1024,
        access_log=False, log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
        ws_per_message_deflate=False, backlog=4096,
        timeout_graceful_shutdown=int(SHUTDOWN_STEP),
        # uvloop where it is installed (the web extra brings it on Linux and macOS), else
        # asyncio's own loop: the same protocols run on either.
        loop="auto")
    return uvicorn.Config(app, **(options | extra))


class Draining(uvicorn.Server):
    """uvicorn's server, which on SIGTERM (or Ctrl-C) first drains, for ``drain_seconds``
    before it stops listening: ``/health`` answers 503 ``draining`` (the load balancer
    sees it and sends no one new) while the tables are handed over one by one, each
    between two of its actions (:meth:`Cluster.begin_drain`). Then uvicorn closes the
    listener and the websockets (1012, "service restart": clients connect again,
    elsewhere) and the lifespan hands over any lease still held (:meth:`Cluster.drain`).
    A second signal stops it at once."""

    drain_seconds = DRAIN_SECONDS
    _loop: asyncio.AbstractEventLoop | None = None
    _draining = False

    async def serve(self, sockets: Any = None) -> None:
        self._loop = asyncio.get_running_loop()
        await super().serve(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        app = self.config.app
        cluster = getattr(app.state, "cluster", None) if hasattr(app, "state") else None
        if cluster is None or self._loop is None or self._draining \
                or self.drain_seconds <= 0:
            if cluster is not None:
                cluster.draining = True
            super().handle_exit(sig, frame)
            return
        self._draining = True
        log.info("draining for %.1f s before this process stops listening",
                 self.drain_seconds)
        self._loop.call_soon_threadsafe(cluster.begin_drain)
        self._loop.call_soon_threadsafe(self._loop.call_later, self.drain_seconds,
                                        super().handle_exit, sig, frame)


#: The settings of the life of tables and of bot capacity that ``parlour serve`` takes as
#: flags (``--waiting-expiry 600``), with what each means; defaults in :class:`Settings`.
TABLE_SETTINGS: dict[str, tuple[type, str]] = {
    "waiting_expiry": (float, "seconds a table may wait for its players"),
    "absent_close": (float, "seconds a table in play may go with no person connected"),
    "unwatched_close": (float, "seconds a table of bots may play with nobody watching"),
    "retention": (float, "seconds a finished casual table's records are kept"),
    "search_tables_per_client": (int, "open tables with searching bots one client may have"),
    "bot_queue": (int, "searching jobs (bot moves, hints) one table may have waiting"),
    "degrade_after": (int, "tables waiting for a worker before casual bots drop a level"),
    "review_budget": (int, "a post-game review's iterations a decision (default: the game's)"),
    "review_processes": (int, "worker processes for post-game reviews (0: a thread)"),
    "review_jobs": (int, "post-game reviews waiting or running at once"),
    "review_jobs_per_client": (int, "of those, one client's"),
    "drain_seconds": (float, "seconds a stopping process answers /health 503 (draining) and "
                             "hands its tables over before it stops listening (default 5)"),
}


def serve(host: str, port: int, db_url: str, bot_pause: float, rate: float | None = None,
          announce: Callable[[str], None] = print, limits: Limits | None = None,
          **table_settings: Any) -> None:
    """Run the web parlour until interrupted. ``table_settings`` are fields of
    :class:`Settings` (the life of tables, bot capacity: :data:`TABLE_SETTINGS`)."""

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    settings = Settings(db_url=db_url, bot_pause=bot_pause, limits=limits or Limits(),
                        **table_settings)
    if rate is not None:
        settings.rate, settings.burst = rate, max(settings.burst, int(rate * 2))
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    announce(f"Parlour is serving at http://{shown}:{port}/  (database {db_url}; "
             f"Ctrl-C stops it)")
    why = native.status().removeprefix("pure: ")
    announce("Build: compiled (mypyc)" if native.compiled() else
             f"Build: pure Python ({why}): the same games; bots and hints think slower")
    # The objects made at start-up (modules, the app, restored tables) live as long as the
    # server: freezing them keeps every later collection from walking them again, and a
    # higher first threshold makes collections rarer, so no full pass stalls the loop.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    server = Draining(server_config(app, host, port, settings.limits))
    server.drain_seconds = settings.drain_seconds
    server.run()
