"""The one shape of every error the server answers with, and the handlers that give it.

Over HTTP an error is ``{"error": {"code": ..., "message": ...}}`` with the status of its
code (:data:`STATUS`, 400 otherwise); on the websocket it is a message
``{"type": "error", "code": ..., "message": ...}``. ``code`` is stable, ``message`` is for
people and quotes at most :data:`EXCERPT` characters of anything the client sent. Refusals
of FastAPI and Starlette themselves (validation, unreadable JSON, unknown paths, a body
past the limit) are given the same shape. See ``docs/protocol.md``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from parlour.i18n import render
from parlour.message import Message
from parlour.server.cluster.outages import DEPENDENCY_ERRORS, outage_of, unavailable
from parlour.server.edge.language import language_of
from parlour.server.edge.limits import TooMany
from parlour.server.edge.protocol import ProtocolError, excerpt

log = logging.getLogger("parlour.server")

STATUS = {"bad_deal": 400, "not_found": 404, "not_seated": 403, "bad_token": 403, "bad_secret": 403,
          "bad_origin": 403, "seat_taken": 409, "table_full": 409, "not_finished": 409,
          "not_playing": 409, "method_not_allowed": 405, "too_big": 413,
          "bad_content_type": 415,
          "rate_limited": 429, "internal": 500, "busy": 503, "unavailable": 503,
          "too_many": 429, "unrestorable": 410, "not_creator": 403, "still_there": 409,
          "not_watched": 409, "closed": 409, "not_signed_in": 403, "bad_login": 403,
          "banned": 403, "bad_code": 403, "wrong_password": 403, "name_taken": 409,
          "sign_in": 403, "paused": 403,
          "daily_secret": 403, "daily_once": 409, "not_friends": 403, "blocked": 403,
          "already_challenged": 409, "challenge_expired": 409, "challenge_accepted": 409,
          "challenge_declined": 409, "challenge_cancelled": 409, "challenge_over": 409,
          "wait_over": 409, "try_counting": 409}

#: The code of each status Starlette itself may refuse a request with.
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
              413: "too_big"}
MAX_MESSAGE = 300  # characters of an error message, at most


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    """Every HTTP error's body."""

    error: ErrorDetail


#: The error answers every API route may give, for the OpenAPI schema.
RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": what} for status, what in (
        (400, "a malformed or refused request"), (403, "not allowed"),
        (404, "no such thing"), (409, "not now"),
        (410, "a table that could not be restored"), (413, "a body past the limit"),
        (415, "a body that is not sent as application/json"),
        (429, "a per-client limit reached (Retry-After says when to try again)"),
        (500, "a fault of the server"), (503, "full or unavailable (Retry-After)"))}


def error(code: str, message: str, status: int | None = None,
          headers: Mapping[str, str] | None = None) -> JSONResponse:
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 3] + "..."
    return JSONResponse({"error": {"code": code, "message": message}},
                        status_code=status or STATUS.get(code, 400), headers=headers)


def refusal(err: ProtocolError, lang: str = "en") -> JSONResponse:
    """The HTTP answer to a refusal, its message in ``lang`` (with ``Retry-After`` for a
    limit reached)."""
    headers = {"Retry-After": str(err.retry_after)} if isinstance(err, TooMany) else None
    return error(err.code, err.render(lang), headers=headers)


async def on_protocol_error(request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, ProtocolError)
    return refusal(err, language_of(request))


async def on_bad_request(request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, RequestValidationError)
    lang = language_of(request)
    first = err.errors()[0] if err.errors() else {}
    where = ".".join(excerpt(str(p), 24) for p in first.get("loc", ()) if p != "body")
    if first.get("type") == "json_invalid":
        return error("bad_request", render(Message("the body is not valid JSON"), lang))
    # pydantic's own explanation stays English; where it is, and the frame, are translated
    return error("bad_request", render(Message("{where}: {problem}", where=where or "body",
                                               problem=str(first.get("msg", "invalid"))),
                                       lang))


async def on_http_error(request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, HTTPException)
    code = HTTP_CODES.get(err.status_code, "bad_request" if err.status_code < 500
                          else "internal")
    message = {"not_found": Message("there is nothing at that address"),
               "method_not_allowed": Message("that address does not take this method"),
               "too_big": Message("request body too big"),
               }.get(code, Message("the request could not be read"))
    return error(code, render(message, language_of(request)), err.status_code,
                 headers=err.headers)


async def on_crash(request: Request, err: Exception) -> JSONResponse:
    dependency = outage_of(err)
    if dependency is not None:  # a known outage: the documented 503, one log line in all
        hub = getattr(request.app.state, "hub", None)
        if hub is not None:
            hub.outages.failed(dependency, err)
        return refusal(unavailable(dependency), language_of(request))
    log.exception("request failed", exc_info=err)
    return error("internal", render(Message("something went wrong on the server"),
                                    language_of(request)), 500)


def install(app: FastAPI) -> None:
    """Answer every refusal and every crash of ``app`` in the documented shape, and let the
    OpenAPI schema say so."""
    app.add_exception_handler(ProtocolError, on_protocol_error)
    app.add_exception_handler(RequestValidationError, on_bad_request)
    app.add_exception_handler(HTTPException, on_http_error)
    # a dependency's error is answered as it is raised (a known outage: 503), by the same
    # handler as any crash; the catch-all for Exception runs only past every middleware,
    # which also raise it again to the server (and to a test's client)
    for kind in DEPENDENCY_ERRORS:
        app.add_exception_handler(kind, on_crash)
    app.add_exception_handler(Exception, on_crash)
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = without_detail(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def without_detail(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without FastAPI's own 422 ``{"detail": [...]}`` answers, which this server
    never gives (its validation errors are 400 in the error shape)."""
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            operation.get("responses", {}).pop("422", None)
    for name in ("HTTPValidationError", "ValidationError"):
        schema.get("components", {}).get("schemas", {}).pop(name, None)
    return schema
