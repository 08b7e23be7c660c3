"""The one shape of every error the server answers with, and the handlers that give it.

Over HTTP an error is ``{"error": {"code": ..., "message": ...}}`` with the status of its
code (:data:`STATUS`, 400 otherwise); on the websocket it is a message
``{"type": "error", "code": ..., "message": ...}``. ``code`` is stable, ``message`` is for
people. See ``docs/protocol.md``.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from parlour.server.protocol import ProtocolError

log = logging.getLogger("parlour.server")

STATUS = {"bad_deal": 400, "not_found": 404, "not_seated": 403, "bad_token": 403,
          "seat_taken": 409, "table_full": 409, "not_finished": 409, "not_playing": 409,
          "busy": 503, "unavailable": 503, "too_many": 429, "unrestorable": 410,
          "not_creator": 403, "still_there": 409, "not_watched": 409, "closed": 409}


def error(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}},
                        status_code=status or STATUS.get(code, 400))


async def on_protocol_error(_: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, ProtocolError)
    return error(err.code, err.message)


async def on_bad_request(_: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, RequestValidationError)
    first = err.errors()[0] if err.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    return error("bad_request", f"{where}: {first.get('msg', 'invalid')}")


async def on_crash(_: Request, err: Exception) -> JSONResponse:
    log.exception("request failed", exc_info=err)
    return error("internal", "something went wrong on the server", 500)


def install(app: FastAPI) -> None:
    """Answer every refusal and every crash of ``app`` in the documented shape."""
    app.add_exception_handler(ProtocolError, on_protocol_error)
    app.add_exception_handler(RequestValidationError, on_bad_request)
    app.add_exception_handler(Exception, on_crash)
