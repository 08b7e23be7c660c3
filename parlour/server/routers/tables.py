"""One table over HTTP: its facts, taking a seat, dealing again, its finished matches."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from pydantic import Field

from parlour.engine import JsonDict
from parlour.server.cluster.relay import Mirror, Relay
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep, RelayDep, TableDep, TokenDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.language import LanguageDep
from parlour.server.edge.limits import client_hash
from parlour.server.people.accounts import guest_name
from parlour.server.people.identity import AccountDep
from parlour.server.people.players import check_rated_play
from parlour.server.play.rejoin import SECRET_PATTERN
from parlour.server.play.table import Table, new_token, token_hash
from parlour.server.routers.lobby import Body

router = APIRouter(prefix="/api/tables/{table_id}", responses=RESPONSES)


class JoinTable(Body):
    name: str = Field(max_length=200)
    seat: int | None = None


class AskReview(Body):
    seat: int = Field(ge=0, le=15)


class TryMove(Body):
    seat: int = Field(ge=0, le=15)
    index: int = Field(ge=0, le=1_000_000)
    action: str = Field(min_length=1, max_length=60)


class Rejoin(Body):
    secret: str = Field(pattern=SECRET_PATTERN)


async def forward(relay: Relay | None, table: Mirror, name: str, token: str | None,
                  **args: Any) -> JsonDict:
    """Ask the process that owns ``table`` to carry out request ``name`` for the holder of
    ``token`` (its seat and the seat's hash go over, never the token)."""
    assert relay is not None
    seat = table.seat_for(token)
    digest = table.seats[seat].token_hash if seat is not None else None
    return await relay.call(table.id, name, {"seat": seat, "hash": digest} | args)


def owned(table: Table) -> Mirror | None:
    """The table as read from the database, if another process owns it."""
    return table if isinstance(table, Mirror) else None


@router.get("")
async def one_table(table: TableDep, relay: RelayDep) -> dict[str, Any]:
    if (elsewhere := owned(table)) is not None:
        return await forward(relay, elsewhere, "summary", None)
    return {"table": table.summary()}


@router.post("/join")
async def join(body: JoinTable, table: TableDep, hub: HubDep, guard: GuardDep,
               client: ClientDep, relay: RelayDep, account: AccountDep) -> dict[str, Any]:
    await guard.take("join", client)
    if table.rated:
        await check_rated_play(hub, account)
    # a signed-in person plays as themselves; a guest not as an account nor the parlour
    name = account.name if account else await asyncio.to_thread(guest_name, hub.store,
                                                                  body.name)
    account_id = account.id if account else None
    if owned(table) is not None:
        assert relay is not None
        token = new_token()  # made here: only its hash goes to the owner
        answer = await relay.call(table.id, "join", {"name": name, "seat": body.seat,
                                                     "hash": token_hash(token),
                                                     "account": account_id,
                                                     "client": client_hash(client)})
        return answer | {"token": token}
    seat, token = await hub.join(table, name, body.seat, account_id=account_id,
                                 client=client_hash(client))
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
    await guard.take("join", client)
    seat, token = table.trade_rejoin(body.secret)
    return {"table": table.summary(), "seat": seat, "token": token}


@router.post("/again")
async def again(table: TableDep, hub: HubDep, token: TokenDep, relay: RelayDep
                ) -> dict[str, Any]:
    if (elsewhere := owned(table)) is not None:
        return await forward(relay, elsewhere, "again", token)
    await hub.again(table, table.seat_for(token))
    return {"table": table.summary()}


@router.post("/leave")
async def leave(table: TableDep, hub: HubDep, token: TokenDep, relay: RelayDep
                ) -> dict[str, Any]:
    """Leave your seat (token in ``Authorization: Bearer``): it is free again, and a
    stand-in bot plays it while a match is on."""
    if (elsewhere := owned(table)) is not None:
        return await forward(relay, elsewhere, "leave", token)
    await hub.leave(table, table.seat_for(token))
    return {"table": table.summary()}


@router.post("/seats/{seat}/free")
async def free_seat(seat: int, table: TableDep, hub: HubDep, token: TokenDep,
                    relay: RelayDep) -> dict[str, Any]:
    """The table's creator frees a seat held by someone who has gone."""
    if (elsewhere := owned(table)) is not None:
        return await forward(relay, elsewhere, "free", token, other=seat)
    await hub.free_seat(table, table.seat_for(token), seat)
    return {"table": table.summary()}


@router.get("/matches/{match}/record")
async def record(match: int, table: TableDep, hub: HubDep) -> PlainTextResponse:
    text = await hub.record(table, match)
    name = f"{table.game.id}-{table.id}-{match}.txt"
    return PlainTextResponse(text, headers={
        "Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/matches/{match}/replay")
async def replay(match: int, table: TableDep, hub: HubDep, lang: LanguageDep, step: int = -1,
                 seat: int | None = None) -> dict[str, Any]:
    """A step of a finished match, its reasons and narration in the reader's language."""
    return await hub.replay(table, match, step, seat, lang)


@router.post("/matches/{match}/review")
async def ask_review(match: int, body: AskReview, table: TableDep, hub: HubDep,
                     guard: GuardDep, client: ClientDep, lang: LanguageDep
                     ) -> dict[str, Any]:
    """Start the post-game review of ``seat`` in a finished match (idempotent: a review
    stored or under way is answered as it stands): ``{status, done, total}``, with
    ``review`` once done (and ``said``: each decision's moves in the reader's words)."""
    return await hub.reviews.ask(table, match, body.seat, client, guard, lang)


@router.post("/matches/{match}/review/try")
async def try_move(match: int, body: TryMove, table: TableDep, hub: HubDep, guard: GuardDep,
                   client: ClientDep, lang: LanguageDep) -> dict[str, Any]:
    """Try another choice at a judged decision of a seat's finished review: ``tried``, that
    choice judged as the review judged the one played (its ``chance``, the ``best`` and its
    ``best_chance``, the ``loss`` and ``mark``), and ``said``: the choice and the best in the
    reader's words."""
    return await hub.reviews.try_move(table, match, body.seat, body.index, body.action,
                                      client, guard, lang)


@router.get("/matches/{match}/review")
async def look_review(match: int, seat: int, table: TableDep, hub: HubDep,
                      lang: LanguageDep) -> dict[str, Any]:
    """The review of ``seat`` in a finished match as it stands: ``{"status": "none"}``
    before anyone asked, ``queued`` or ``running`` with ``done`` and ``total``
    decisions, ``failed``, or ``done`` with the ``review`` and its moves in words
    (``said``)."""
    return await hub.reviews.look(table, match, seat, lang)
