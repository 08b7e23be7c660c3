"""For the operator and the load balancer: ``/health`` and ``/metrics`` (docs/deploy.md)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse
from sqlalchemy import text

from parlour import native
from parlour.server.deps import HubDep
from parlour.server.errors import RESPONSES
from parlour.server.metrics import CONTENT_TYPE, Metrics
from parlour.server.protocol import ProtocolError

router = APIRouter(responses=RESPONSES)

DB_CHECK = 2.0  # seconds the health check waits for the database


@router.get("/health")
async def health(request: Request, hub: HubDep) -> dict[str, Any]:
    """200 while the process takes clients: the database answers and it is not draining;
    503 ``unavailable`` otherwise (the load balancer sends new clients elsewhere)."""
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None and cluster.draining:
        raise ProtocolError("unavailable", "this process is handing its tables over before "
                                           "it stops")

    def ping() -> None:
        with hub.store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(asyncio.to_thread(ping), DB_CHECK)
    except Exception:
        raise ProtocolError("unavailable", "the database does not answer") from None
    return {"status": "ok", "tables": len(hub.tables),
            "build": "compiled" if native.compiled() else "pure"}


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(request: Request) -> PlainTextResponse:
    """This process's metrics in Prometheus's text format (see parlour.server.metrics)."""
    found: Metrics = request.app.state.metrics
    return PlainTextResponse(found.text(), media_type=CONTENT_TYPE)
