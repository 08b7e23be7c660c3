"""FastAPI dependencies of the routers: the hub, a table named in the path, a seat token."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Path
from starlette.requests import HTTPConnection

from parlour.server.cluster.lease import Elsewhere
from parlour.server.cluster.relay import Relay, mirror
from parlour.server.edge.limits import ClientGuard, ClientKey, Limits, client_key
from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.table import Table
from parlour.server.play.tables import Hub


def get_hub(conn: HTTPConnection) -> Hub:
    """The app's hub (set up by the lifespan), for a request or a websocket."""
    hub: Hub = conn.app.state.hub
    return hub


HubDep = Annotated[Hub, Depends(get_hub)]


#: A table's id in a path: what ``Hub`` makes (8 URL-safe characters) fits, with room to
#: spare; anything else is refused as a bad request before a table is looked up.
TableId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$", max_length=64)]


async def get_table(table_id: TableId, hub: HubDep, conn: HTTPConnection) -> Table:
    """The table named by the path's ``table_id``; ``not_found`` if there is none. A table
    another process owns is its :class:`~parlour.server.cluster.relay.Mirror` (with a relay; else
    ``unavailable``)."""
    try:
        table = await hub.get(table_id)
    except Elsewhere as err:
        if get_relay(conn) is None:
            raise
        return mirror(hub, err.row)
    if table is None:
        raise ProtocolError("not_found", "there is no table with that id")
    return table


TableDep = Annotated[Table, Depends(get_table)]


def get_relay(conn: HTTPConnection) -> Relay | None:
    """The relay to the other processes (``--redis``), if any."""
    relay: Relay | None = getattr(conn.app.state, "relay", None)
    return relay


RelayDep = Annotated[Relay | None, Depends(get_relay)]


def bearer(conn: HTTPConnection) -> str | None:
    """The seat token sent as ``Authorization: Bearer <token>``, if any."""
    auth = conn.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


TokenDep = Annotated[str | None, Depends(bearer)]


def get_guard(conn: HTTPConnection) -> ClientGuard:
    """The app's per-client limits."""
    guard: ClientGuard = conn.app.state.guard
    return guard


GuardDep = Annotated[ClientGuard, Depends(get_guard)]


def get_client(conn: HTTPConnection) -> ClientKey:
    """Who is asking: the peer's address (IPv6 per /64), or the one a trusted proxy
    forwarded (the app's proxy middleware has put it in the scope already). An account's
    key will take its place once accounts exist."""
    return client_key(conn.client.host if conn.client else None)


ClientDep = Annotated[ClientKey, Depends(get_client)]

HOST = re.compile(r"(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?", re.ASCII)


def page_host(conn: HTTPConnection) -> str | None:
    """The ``Host`` the client asked for, if it is a well-formed host[:port]."""
    host = conn.headers.get("host", "")
    return host.lower() if HOST.fullmatch(host) else None


def check_origin(conn: HTTPConnection, limits: Limits) -> None:
    """A websocket handshake's ``Origin`` must be the page's own host or an allowed one.

    Browsers always send it, so a page on another site cannot drive a player's seat; a
    client with no ``Origin`` is not a browser (and could send any)."""
    origin = conn.headers.get("origin")
    if origin is None or "*" in limits.allowed_origins:
        return
    origin = origin.lower().rstrip("/")
    if origin in (o.lower().rstrip("/") for o in limits.allowed_origins):
        return
    scheme, sep, host = origin.partition("://")
    if sep and scheme in ("http", "https") and host == page_host(conn):
        return
    raise ProtocolError("bad_origin", "connections to tables are accepted from this site's "
                                      "own pages only")
