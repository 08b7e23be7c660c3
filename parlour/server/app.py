"""The web parlour: a FastAPI app serving the lobby API, the websocket and the page.

Lobby (JSON over HTTP, errors as ``{"error": {"code", "message"}}``):

* ``GET  /api/games``: the games, their options and bot kinds.
* ``GET  /api/tables``: tables waiting for players or being played.
* ``POST /api/tables``: create a table; the creator gets a seat and its token.
* ``GET  /api/tables/{id}``: one table (public facts only).
* ``POST /api/tables/{id}/join``: take a free seat with a display name.
* ``POST /api/tables/{id}/again``: deal a new match with the same seats (seat token in
  ``Authorization: Bearer``).
* ``GET  /api/tables/{id}/matches/{n}/record``: the record of a finished match.
* ``GET  /api/tables/{id}/matches/{n}/replay?step=&seat=``: a finished match, step by step.
* ``GET  /api/games/{id}/rules``: a game's rules page, as HTML.

Play: one websocket per client at ``/ws/tables/{id}`` (intents, views, timed phases,
hints); see ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect

from parlour.engine import Seat
from parlour.games import game_ids, get_game
from parlour.server.pages import narration, rules_html
from parlour.server.protocol import ProtocolError, RateLimit, Stale, encode, parse_message
from parlour.server.store import Store
from parlour.server.tables import Connection, Hub, Settings, Table, describe_games

log = logging.getLogger("parlour.server")

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 16 * 1024
HELLO_TIMEOUT = 15.0
MAX_REFUSED = 40  # messages refused for speed before the connection is closed

STATUS = {"bad_deal": 400, "not_found": 404, "not_seated": 403, "bad_token": 403, "seat_taken": 409,
          "table_full": 409, "not_finished": 409, "not_playing": 409, "busy": 503,
          "unavailable": 503}

SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self' ws: wss:; "
                                "img-src 'self' data:; style-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


class SeatSpec(BaseModel):
    kind: str = Field(max_length=10)
    bot: str | None = Field(default=None, max_length=40)


class CreateTable(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict,
                                                                max_length=40)
    seats: list[SeatSpec] = Field(default_factory=list, max_length=16)
    name: str | None = Field(default=None, max_length=200)
    seat: int | None = None
    deal: int | None = None  # a deal number, for games dealt by number (Foursquare)


class JoinTable(BaseModel):
    name: str = Field(max_length=200)
    seat: int | None = None


def error(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}},
                        status_code=status or STATUS.get(code, 400))


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def create_app(settings: Settings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url)
        hub = Hub(settings, store)
        app.state.hub = hub
        restored = await hub.restore()
        if restored:
            log.info("restored %d unfinished tables", restored)

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(60)
                hub.sweep()

        sweeping = asyncio.create_task(sweeper())
        try:
            yield
        finally:
            sweeping.cancel()
            await hub.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(title="Parlour", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)

    @app.middleware("http")
    async def guard(request: Request,
                    call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return error("too_big", f"request body too big (at most {MAX_BODY} bytes)", 413)
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    @app.exception_handler(ProtocolError)
    async def on_protocol_error(_: Request, err: ProtocolError) -> JSONResponse:
        return error(err.code, err.message)

    @app.exception_handler(RequestValidationError)
    async def on_bad_request(_: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
        return error("bad_request", f"{where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(Exception)
    async def on_crash(_: Request, err: Exception) -> JSONResponse:
        log.exception("request failed", exc_info=err)
        return error("internal", "something went wrong on the server", 500)

    def hub_of(request: Request | WebSocket) -> Hub:
        hub: Hub = request.app.state.hub
        return hub

    async def table_or_404(hub: Hub, table_id: str) -> Table:
        table = await hub.get(table_id)
        if table is None:
            raise ProtocolError("not_found", "there is no table with that id")
        return table

    # ------------------------------------------------------------------ lobby API
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return describe_games()

    @app.get("/api/games/{game_id}/rules")
    async def rules(game_id: str) -> dict[str, Any]:
        if game_id not in game_ids():
            raise ProtocolError("not_found", "there is no game with that id")
        game = get_game(game_id)
        html = await asyncio.to_thread(rules_html, game)
        if html is None:
            raise ProtocolError("not_found", f"{game.name} has no rules page yet")
        return {"game": game.id, "name": game.name, "html": html}

    @app.get("/api/tables")
    async def tables(request: Request) -> dict[str, Any]:
        return {"tables": [t.summary() for t in hub_of(request).open_tables()[:200]]}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request, body: CreateTable) -> dict[str, Any]:
        hub = hub_of(request)
        table, seat, token = await hub.create(
            body.game.strip().lower(), dict(body.options),
            [s.model_dump() for s in body.seats], body.name, body.seat, body.deal)
        return {"table": table.summary(), "seat": seat, "token": token,
                "invite": f"/t/{table.id}"}

    @app.get("/api/tables/{table_id}")
    async def one_table(request: Request, table_id: str) -> dict[str, Any]:
        table = await table_or_404(hub_of(request), table_id)
        return {"table": table.summary()}

    @app.post("/api/tables/{table_id}/join")
    async def join(request: Request, table_id: str, body: JoinTable) -> dict[str, Any]:
        hub = hub_of(request)
        table = await table_or_404(hub, table_id)
        seat, token = await hub.join(table, body.name, body.seat)
        return {"table": table.summary(), "seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/again")
    async def again(request: Request, table_id: str) -> dict[str, Any]:
        hub = hub_of(request)
        table = await table_or_404(hub, table_id)
        await hub.again(table, table.seat_for(bearer(request)))
        return {"table": table.summary()}

    @app.get("/api/tables/{table_id}/matches/{match}/record")
    async def record(request: Request, table_id: str, match: int) -> Response:
        hub = hub_of(request)
        table = await table_or_404(hub, table_id)
        text = await hub.record(table, match)
        name = f"{table.game.id}-{table.id}-{match}.txt"
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/tables/{table_id}/matches/{match}/replay")
    async def replay(request: Request, table_id: str, match: int, step: int = -1,
                     seat: int | None = None) -> dict[str, Any]:
        hub = hub_of(request)
        table = await table_or_404(hub, table_id)
        final = await hub.finished_state(table, match)
        history = final.history
        if seat is not None and not 0 <= seat < table.num_seats:
            raise ProtocolError("bad_seat", f"seats are 0 to {table.num_seats - 1}")
        if step < 0 or step > len(history):
            step = len(history)
        state = final if step == len(history) else table.game.new(
            final.seed, table.num_seats, **table.options)
        if step < len(history):
            for s, a in history[:step]:
                state.apply(a, s)
        last = history[step - 1] if step else None
        view = state.view(seat)
        answer: dict[str, Any] = {
            "steps": len(history), "step": step, "seat": seat,
            "action": None if last is None else
            {"seat": last[0], "text": table.game.action_text(last[1])},
            "view": view, "deal": table.matches[match].deal}
        told = narration(table.game, view, table.narration_names())
        if told is not None:
            answer["narration"] = told
        return answer

    # ------------------------------------------------------------------ page
    index = WEB / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/t/{table_id}/replay/{match}", include_in_schema=False)
    async def replay_page(table_id: str, match: int) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/new/{game_id}", include_in_schema=False)
    async def new_table_page(game_id: str) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # ------------------------------------------------------------------ websocket
    @app.websocket("/ws/tables/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        hub = hub_of(ws)

        async def refuse(err: ProtocolError, code: int) -> None:
            await ws.send_text(encode(err.to_json()))
            await ws.close(code=code)

        table = await hub.get(table_id)
        if table is None:
            await refuse(ProtocolError("not_found", "there is no table with that id"), 4404)
            return
        try:
            first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await refuse(ProtocolError("bad_message", "say hello first"), 4400)
            return
        if first["type"] == "websocket.disconnect":
            return
        try:
            hello = parse_message(first.get("text", first.get("bytes")))
            if hello.type != "hello":
                raise ProtocolError("bad_message", 'the first message is {"type": "hello"} '
                                                   '(with the seat token, if you hold one)')
            seat = table.seat_for(hello.fields.get("token"))
        except ProtocolError as err:
            await refuse(err, 4403 if err.code == "bad_token" else 4400)
            return
        await session(hub, table, ws, seat)

    async def session(hub: Hub, table: Table, ws: WebSocket, seat: Seat | None) -> None:
        async def close() -> None:
            await ws.close(code=4408)

        conn = Connection(ws.send_text, seat, close)
        asking: set[asyncio.Task[None]] = set()  # hints being worked out for this client
        table.conns.add(conn)
        table.touched = time.monotonic()
        pump = asyncio.create_task(conn.pump())
        conn.push(encode({"type": "welcome", "seat": seat, "table": table.summary()}))
        table.send_view(conn)
        limiter = RateLimit(hub.settings.rate, hub.settings.burst)
        loop = asyncio.get_running_loop()
        try:
            while not conn.closed:
                message = await ws.receive()
                at = loop.time()  # when it came in: a react is timed to here
                if message["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    conn.push(encode(ProtocolError(
                        "rate_limited", "too many messages: slow down").to_json()))
                    if limiter.refused > MAX_REFUSED:
                        break
                    continue
                try:
                    msg = parse_message(message.get("text", message.get("bytes")))
                    if msg.type == "hint":  # answered when ready; the connection carries on
                        task = asyncio.create_task(give_hint(hub, table, conn, msg))
                        asking.add(task)
                        task.add_done_callback(asking.discard)
                        continue
                    await handle(hub, table, conn, msg, at)
                except Stale as err:
                    conn.push(encode(err.to_json()))
                    table.send_view(conn)
                except ProtocolError as err:
                    conn.push(encode(err.to_json()))
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection failed", table.id)
        finally:
            for task in asking:
                task.cancel()
            table.conns.discard(conn)
            table.touched = time.monotonic()
            conn.stop()
            try:
                await asyncio.wait_for(pump, 5)
            except (TimeoutError, Exception):
                pump.cancel()

    async def give_hint(hub: Hub, table: Table, conn: Connection, msg: Any) -> None:
        try:
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators get no hints: take a seat to "
                                                 "play")
            conn.push(encode(await hub.hint(table, conn.seat, msg.fields.get("version"))))
        except Stale as err:
            conn.push(encode(err.to_json()))
            table.send_view(conn)
        except ProtocolError as err:
            conn.push(encode(err.to_json()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a hint failed", table.id)
            conn.push(encode(ProtocolError("internal", "no hint could be worked out").to_json()))

    async def handle(hub: Hub, table: Table, conn: Connection, msg: Any, at: float) -> None:
        if msg.type == "react":
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators cannot take part: take a free "
                                                 "seat to play")
            await hub.react(table, conn.seat, msg.fields["phase"], at)
        elif msg.type == "act":
            if conn.seat is None:
                raise ProtocolError("spectator", "spectators cannot act: take a free seat "
                                                 "to play")
            asked = msg.fields.get("seat")
            if asked is not None and asked != conn.seat:
                raise ProtocolError("not_your_seat", f"you hold seat {conn.seat}, not seat "
                                                     f"{asked}: you can act only for your "
                                                     f"own seat")
            action = hub.parse_intent(table, msg.fields["action"])
            await hub.submit(table, conn.seat, action, msg.fields["version"], person=True)
        elif msg.type == "sync":
            conn.push(encode({"type": "table", "table": table.summary()}))
            table.send_view(conn)
        elif msg.type == "ping":
            conn.push(encode({"type": "pong"}))
        elif msg.type == "hello":
            raise ProtocolError("bad_message", "already said hello on this connection")

    return app


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
