"""One table over HTTP: its facts, taking a seat, dealing again, its finished matches."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from pydantic import Field

from parlour.server.deps import ClientDep, GuardDep, HubDep, TableDep, TokenDep
from parlour.server.errors import RESPONSES
from parlour.server.identity import AccountDep
from parlour.server.players import check_rated_play
from parlour.server.rejoin import SECRET_PATTERN
from parlour.server.routers.lobby import Body

router = APIRouter(prefix="/api/tables/{table_id}", responses=RESPONSES)


class JoinTable(Body):
    name: str = Field(max_length=200)
    seat: int | None = None


class Rejoin(Body):
    secret: str = Field(pattern=SECRET_PATTERN)


@router.get("")
async def one_table(table: TableDep) -> dict[str, Any]:
    return {"table": table.summary()}


@router.post("/join")
async def join(body: JoinTable, table: TableDep, hub: HubDep, guard: GuardDep,
               client: ClientDep, account: AccountDep) -> dict[str, Any]:
    guard.join(client)
    if table.rated:
        await check_rated_play(hub, account)
    seat, token = await hub.join(table, body.name, body.seat)
    if table.rated and account is not None:
        await hub.link_seat(table, seat, account.id)
    return {"table": table.summary(), "seat": seat, "token": token}


@router.post("/rejoin-link")
async def rejoin_link(table: TableDep, token: TokenDep) -> dict[str, Any]:
    """Your seat's private rejoin link (token in ``Authorization: Bearer``), to open on
    another device; the secret is after ``#``, which browsers never send to a server."""
    secret = table.rejoin_secret(table.seat_for(token))
    return {"secret": secret, "link": f"/t/{table.id}#rejoin={secret}"}


@router.post("/rejoin")
async def rejoin(body: Rejoin, table: TableDep, guard: GuardDep, client: ClientDep
                 ) -> dict[str, Any]:
    """Trade a rejoin secret for a token of its seat (limited per client like joining)."""
    guard.join(client)
    seat, token = table.trade_rejoin(body.secret)
    return {"table": table.summary(), "seat": seat, "token": token}


@router.post("/again")
async def again(table: TableDep, hub: HubDep, token: TokenDep) -> dict[str, Any]:
    await hub.again(table, table.seat_for(token))
    return {"table": table.summary()}


@router.post("/leave")
async def leave(table: TableDep, hub: HubDep, token: TokenDep) -> dict[str, Any]:
    """Leave your seat (token in ``Authorization: Bearer``): it is free again, and a
    stand-in bot plays it while a match is on."""
    await hub.leave(table, table.seat_for(token))
    return {"table": table.summary()}


@router.post("/seats/{seat}/free")
async def free_seat(seat: int, table: TableDep, hub: HubDep, token: TokenDep
                    ) -> dict[str, Any]:
    """The table's creator frees a seat held by someone who has gone."""
    await hub.free_seat(table, table.seat_for(token), seat)
    return {"table": table.summary()}


@router.get("/matches/{match}/record")
async def record(match: int, table: TableDep, hub: HubDep) -> PlainTextResponse:
    text = await hub.record(table, match)
    name = f"{table.game.id}-{table.id}-{match}.txt"
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/matches/{match}/replay")
async def replay(match: int, table: TableDep, hub: HubDep, step: int = -1,
                 seat: int | None = None) -> dict[str, Any]:
    return await hub.replay(table, match, step, seat)
