"""FastAPI dependencies of the routers: the hub, a table named in the path, a seat token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from parlour.server.protocol import ProtocolError
from parlour.server.tables import Hub, Table


def get_hub(conn: HTTPConnection) -> Hub:
    """The app's hub (set up by the lifespan), for a request or a websocket."""
    hub: Hub = conn.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


async def get_table(table_id: str, hub: HubDep) -> Table:
    """The table named by the path's ``table_id``; ``not_found`` if there is none."""
    table = await hub.get(table_id)
    if table is None:
        raise ProtocolError("not_found", "there is no table with that id")
    return table


TableDep = Annotated[Table, Depends(get_table)]


def bearer(conn: HTTPConnection) -> str | None:
    """The seat token sent as ``Authorization: Bearer <token>``, if any."""
    auth = conn.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


TokenDep = Annotated[str | None, Depends(bearer)]
