"""For the operator and the load balancer: ``/health`` and ``/metrics`` (docs/deploy.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel
from sqlalchemy import text

from parlour import native
from parlour.server.cluster.outages import DATABASE
from parlour.server.edge.deps import HubDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.language import language_of
from parlour.server.edge.metrics import CONTENT_TYPE, Metrics
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.tables import Hub

router = APIRouter(responses=RESPONSES)


class HealthBody(BaseModel):
    """``/health``'s answer (with a 503, also the ``error`` of every error answer)."""

    status: str  # ok, degraded (a dependency is down but the process serves), down, draining
    dependencies: dict[str, str]  # database, redis: up or down
    tables: int
    build: str

DEPENDENCY_CHECK = 2.0  # seconds the health check waits for the database, or Redis


@router.get("/health", responses={200: {"model": HealthBody}})
async def health(request: Request, hub: HubDep) -> JSONResponse:
    """Whether the process takes clients, and the state of each dependency it uses
    (``database``, and ``redis`` with several processes: ``up`` or ``down``). 200 while it
    can serve, even with Redis down (it serves the tables it owns, and each process lists
    its own); 503 ``unavailable`` when it cannot serve at all (its database does not
    answer) or is draining, so that the load balancer sends new clients elsewhere."""
    cluster = getattr(request.app.state, "cluster", None)
    relay = getattr(request.app.state, "relay", None)
    checks = [asyncio.to_thread(_ping_database, hub)]
    if relay is not None:
        checks.append(relay.ping(DEPENDENCY_CHECK))
    found = await asyncio.gather(*checks)
    state = dict(zip(("database", "redis"), ("up" if up else "down" for up in found),
                     strict=False))
    body: dict[str, Any] = {"status": "ok", "dependencies": state, "tables": len(hub.tables),
                            "build": "compiled" if native.compiled() else "pure"}
    lang = language_of(request)
    problem = None
    if cluster is not None and cluster.draining:
        body["status"] = "draining"
        problem = ProtocolError("unavailable", "this process is handing its tables over "
                                               "before it stops")
    elif state["database"] == "down":
        body["status"] = "down"
        problem = ProtocolError("unavailable", "the database does not answer")
    elif "down" in state.values():
        body["status"] = "degraded"
    if problem is None:
        return JSONResponse(body)
    return JSONResponse(body | {"error": {"code": problem.code,
                                          "message": problem.render(lang)}},
                        status_code=503)


def _ping_database(hub: Hub) -> bool:
    """Whether the database answers within :data:`DEPENDENCY_CHECK` seconds (a connection
    that cannot be made fails at once; the statement is given the rest)."""
    try:
        with hub.store.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text(f"SET statement_timeout = {int(DEPENDENCY_CHECK * 1000)}"))
            conn.execute(text("SELECT 1"))
            if conn.dialect.name == "postgresql":
                conn.execute(text("RESET statement_timeout"))
    except Exception as err:
        if not hub.outages.note(err):
            hub.outages.failed(DATABASE, err)
        return False
    hub.outages.answered(DATABASE)
    return True


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(request: Request) -> PlainTextResponse:
    """This process's metrics in Prometheus's text format (see parlour.server.edge.metrics)."""
    found: Metrics = request.app.state.metrics
    return PlainTextResponse(found.text(), media_type=CONTENT_TYPE)
