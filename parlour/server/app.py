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

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from parlour.server import errors
from parlour.server.errors import error
from parlour.server.routers import lobby, pages, tables, websocket
from parlour.server.store import Store
from parlour.server.tables import Hub, Settings

log = logging.getLogger("parlour.server")

MAX_BODY = 16 * 1024
SWEEP_EVERY = 60.0  # seconds between rounds of the table life cycle (Hub.tidy)

SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self' ws: wss:; "
                                "img-src 'self' data:; style-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def create_app(settings: Settings) -> FastAPI:
    """The web parlour for ``settings``: its hub and store live as long as the app runs."""
    app = FastAPI(title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.settings = settings
    app.middleware("http")(guard)
    errors.install(app)
    app.include_router(lobby.router)
    app.include_router(tables.router)
    app.include_router(websocket.router)
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    app.include_router(pages.router)  # last: its one route answers every page path
    return app


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store, restore unfinished tables, sweep finished ones; close on the way out."""
    settings: Settings = app.state.settings
    store = Store(settings.db_url, settings.auto_upgrade)
    hub = Hub(settings, store)
    app.state.hub = hub
    restored = await hub.restore()
    if restored:
        log.info("restored %d unfinished tables", restored)

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
        await hub.close()
        await asyncio.to_thread(store.close)


async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]
                ) -> Response:
    """Refuse an announced body that is too big; add the security headers to every answer."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return error("too_big", f"request body too big (at most {MAX_BODY} bytes)", 413)
    response = await call_next(request)
    for key, value in SECURITY_HEADERS.items():
        response.headers.setdefault(key, value)
    return response


def serve(host: str, port: int, db_url: str, bot_pause: float, rate: float | None = None,
          announce: Callable[[str], None] = print) -> None:
    """Run the web parlour until interrupted."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    settings = Settings(db_url=db_url, bot_pause=bot_pause)
    if rate is not None:
        settings.rate, settings.burst = rate, max(settings.burst, int(rate * 2))
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    announce(f"Parlour is serving at http://{shown}:{port}/  (database {db_url}; "
             f"Ctrl-C stops it)")
    # The objects made at start-up (modules, the app, restored tables) live as long as the
    # server: freezing them keeps every later collection from walking them again, and a
    # higher first threshold makes collections rarer, so no full pass stalls the loop.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    # Views are small: compressing each costs more CPU than it saves on loopback or a LAN.
    uvicorn.run(app, host=host, port=port, ws_max_size=64 * 1024, access_log=False,
                log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False)
