"""Quick play over HTTP (``/api/quick``, issue 34 item 5; the rules are
:mod:`parlour.server.people.quick`): start waiting for a game and preset, ask how the wait
stands (the page asks every 1.5 s and counts down to the bots), cancel it.

Anyone may play now, guest or signed in (then near their rating). The wait's secret, said
once when it starts, is the seat's token at the table it ends at; it travels in request
bodies, never in an address. Requests come from the parlour's own pages, take strict
bodies and are limited per address (``quick``; starting counts as opening a table too).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from pydantic import Field

from parlour.server.edge.deps import ClientDep, GuardDep, HubDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.limits import client_hash
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import quick
from parlour.server.people.accounts import guest_name
from parlour.server.people.identity import AccountDep
from parlour.server.routers.accounts import blocking, same_site
from parlour.server.routers.lobby import Body

router = APIRouter(prefix="/api/quick", responses=RESPONSES,
                   dependencies=[Depends(same_site)])

SeekId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Secret = Annotated[str, Field(min_length=1, max_length=64)]


class StartWaiting(Body):
    game: str = Field(max_length=40)
    preset: str = Field(max_length=20)
    name: str | None = Field(default=None, max_length=200)  # a guest's (an account's own)


class Waiting(Body):
    secret: Secret


@router.post("", status_code=201)
async def start(body: StartWaiting, hub: HubDep, guard: GuardDep, client: ClientDep,
                account: AccountDep) -> dict[str, Any]:
    """Wait to be seated at a table of this game and preset with the next people who
    wait for the same (bots take the seats nobody came for after ``bots_after``
    seconds). The answer holds the wait's id and secret: keep the secret, it becomes
    your seat's token."""
    await guard.take("quick", client)
    await guard.take("create", client)
    if account is not None:
        name = account.name
    elif body.name is None:
        raise ProtocolError("bad_request", "say the name you sit down with")
    else:
        name = await asyncio.to_thread(guest_name, hub.store, body.name)
    made = await blocking(quick.start, hub.store, body.game, body.preset, name,
                          account.id if account else None, client_hash(client),
                          hub.settings.now())
    return {"wait": made}


@router.post("/{seek_id}")
async def look(seek_id: SeekId, body: Waiting, hub: HubDep, guard: GuardDep,
               client: ClientDep) -> dict[str, Any]:
    """How the wait stands: ``waiting`` (people found of the seats, seconds until bots
    take the rest), or ``seated`` (the table and your seat: your token is the wait's
    secret). Asking keeps the wait alive; one not asked about for a few seconds is left
    out of matching."""
    await guard.take("quick", client)
    answer, group = await blocking(quick.look, hub.store, seek_id, body.secret,
                                   hub.settings.now())
    if group is None:
        return answer
    mine = group.seat_of(seek_id)
    specs = [{"kind": "person"} for _ in group.people] + \
        [{"kind": "bot", "bot": quick.BOT} for _ in range(group.seats - len(group.people))]
    try:
        table, _, _ = await hub.create(
            group.game, group.options, specs, group.people[mine][1], mine, client=client,
            account_id=group.people[mine][3],
            held={n: (name, hashed, account) for n, (_, name, hashed, account)
                  in enumerate(group.people)})
    except ProtocolError:
        await blocking(quick.unclaim, hub.store, group)
        raise
    await blocking(quick.seated, hub.store, group, table.id)
    return {"status": "seated", "table": table.id, "seat": mine}


@router.post("/{seek_id}/cancel")
async def cancel(seek_id: SeekId, body: Waiting, hub: HubDep, guard: GuardDep,
                 client: ClientDep) -> dict[str, Any]:
    """Stop waiting."""
    await guard.take("quick", client)
    await blocking(quick.cancel, hub.store, seek_id, body.secret, hub.settings.now())
    return {"cancelled": True}
