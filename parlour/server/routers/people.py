"""People over HTTP (``/api/people/...``, issue 34 items 2 and 3): following and blocking,
the friends list, the "show me online" setting, challenges, and the room's one stream per
page (server-sent events, :mod:`parlour.server.people.presence`).

Everything here is for a signed-in person (``not_signed_in`` otherwise) but the relation
shown on a profile. Requests that change something must come from the parlour's own
pages (the accounts router's origin check), are limited per account (``follow``,
``challenge``), and take strict bodies. The stream needs nothing in its address: the
session cookie says who it is for.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from parlour.engine import Seat
from parlour.games import get_game
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.limits import ClientGuard, TooMany
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import challenges, social
from parlour.server.people.identity import SESSION_COOKIE, Account, AccountDep, account_for_session
from parlour.server.people.presence import KEEPALIVE_SECONDS, STREAMS_PER_ACCOUNT, RoomBus, Stream
from parlour.server.play.table import Table
from parlour.server.play.tables import Hub
from parlour.server.routers.accounts import blocking, same_site, signed_in
from parlour.server.routers.lobby import Body

log = logging.getLogger("parlour.server")
router = APIRouter(prefix="/api/people", responses=RESPONSES,
                   dependencies=[Depends(same_site)])

Name = Annotated[str, Field(min_length=1, max_length=100)]
ChallengeId = Annotated[int, Path(ge=1, le=2**31 - 1)]
ROOM_SOCKET = "~room"  # the room streams' place in the per-client socket counts


class Follow(Body):
    name: Name
    on: bool = True  # false: unfollow


class Block(Body):
    name: Name
    on: bool = True  # false: unblock


class PeopleSettings(Body):
    show_online: bool  # shown online to people who are not your friends


class Challenge(Body):
    to: Name  # the friend's account name
    game: str = Field(min_length=1, max_length=40)
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict,
                                                                max_length=40)
    speed: Literal["slow", "normal", "fast"] | None = None


async def _limited(guard: GuardDep, account: Account | None, kind: Literal[
        "follow", "challenge"]) -> Account:
    account = signed_in(account)
    await guard.take(kind, f"account:{account.id}")
    return account


@router.get("")
async def room(account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """Your friends (online, at which tables), the players you follow, whom you block,
    your setting and your challenges: what the stream's ``room`` message holds (a page
    without the stream polls this)."""
    account = signed_in(account)
    return await blocking(hub.people.room, account.id)


@router.get("/relation/{name}")
async def relation(name: Annotated[str, Path(min_length=1, max_length=100)],
                   account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """A player as their profile shows them to you: online (when they let you see it) and
    whether you follow each other or block them (None for a guest or yourself)."""
    return await blocking(social.profile_relation, hub.store,
                          account.id if account else None, name, hub.settings.now())


async def _relate(change: Callable[..., tuple[int, dict[str, bool]]], body: Follow | Block,
                  account: Account | None, hub: Hub, guard: ClientGuard) -> dict[str, Any]:
    """Follow or block (``change``) the player ``body`` names, within the account's follow
    limit; both people's rooms are told; the relation as it is now."""
    account = await _limited(guard, account, "follow")
    other, rel = await blocking(change, hub.store, account.id, body.name, body.on,
                                hub.settings.now())
    await hub.people.notify([account.id, other])
    return {"relation": rel}


@router.post("/follow")
async def follow(body: Follow, account: AccountDep, hub: HubDep, guard: GuardDep
                 ) -> dict[str, Any]:
    """Follow (``on``: false, unfollow) a player by name: two people who follow each
    other are friends."""
    return await _relate(social.follow, body, account, hub, guard)


@router.post("/block")
async def block(body: Block, account: AccountDep, hub: HubDep, guard: GuardDep
                ) -> dict[str, Any]:
    """Block (``on``: false, unblock) a player by name: their talk is hidden from you,
    their challenges refused, and quick play never seats you together; following ends
    both ways."""
    return await _relate(social.block, body, account, hub, guard)


@router.post("/settings")
async def settings(body: PeopleSettings, account: AccountDep, hub: HubDep, guard: GuardDep
                   ) -> dict[str, Any]:
    """Whether people who are not your friends see you online."""
    account = await _limited(guard, account, "follow")
    await blocking(social.show_online, hub.store, account.id, body.show_online)
    followers = await blocking(_followers, hub, account.id)
    await hub.people.notify([account.id, *followers])
    return {"show_online": body.show_online}


def _followers(hub: Hub, account_id: int) -> list[int]:
    with hub.store.engine.connect() as conn:
        return social.followers_of(conn, account_id)


@router.post("/challenges", status_code=201)
async def challenge(body: Challenge, account: AccountDep, hub: HubDep, guard: GuardDep
                    ) -> dict[str, Any]:
    """Challenge a friend by name to a game with these options (and the bots' speed); the
    other seats are the game's rule bots. They see it wherever they are in the parlour,
    for five minutes."""
    account = await _limited(guard, account, "challenge")
    made, other = await blocking(challenges.challenge, hub.store, account.id, body.to,
                                 body.game, dict(body.options), body.speed,
                                 hub.settings.now())
    await hub.people.notify([account.id, other])
    return {"challenge": made}


@router.post("/challenges/{challenge_id}/accept")
async def accept(challenge_id: ChallengeId, account: AccountDep, hub: HubDep,
                 guard: GuardDep, client: ClientDep) -> dict[str, Any]:
    """Accept a challenge made to you: both of you are seated at a new table (yours is
    seat 1, the challenger's seat 0; the rest are bots). The answer holds your seat's
    token; the challenger's page takes theirs when told."""
    account = await _limited(guard, account, "challenge")
    await guard.take("create", client)
    facts = await blocking(challenges.accept, hub.store, account.id, challenge_id,
                           hub.settings.now())
    try:
        table, seat, token = await _seat_both(hub, facts, client)
    except ProtocolError:
        await blocking(challenges.seated, hub.store, facts["id"], None)
        await hub.people.notify([facts["challenger"], account.id])
        raise
    await blocking(challenges.seated, hub.store, facts["id"], table.id)
    await hub.people.notify([facts["challenger"], account.id])
    return {"table": table.summary(), "seat": seat, "token": token}


async def _seat_both(hub: Hub, facts: dict[str, Any], client: str
                     ) -> tuple[Table, Seat | None, str | None]:
    game = facts["game"]
    seats = get_game(game).default_seats
    specs = [{"kind": "person"}, {"kind": "person"}] + \
        [{"kind": "bot", "bot": "rule"} for _ in range(max(0, seats - 2))]
    return await hub.create(game, facts["options"], specs, facts["challenged_name"], 1,
                            speed=facts["speed"], client=client,
                            account_id=facts["challenged"],
                            others={0: (facts["challenger_name"], facts["challenger"])})


@router.post("/challenges/{challenge_id}/decline")
async def decline(challenge_id: ChallengeId, account: AccountDep, hub: HubDep,
                  guard: GuardDep) -> dict[str, Any]:
    """Decline a challenge made to you: its challenger is told."""
    account = await _limited(guard, account, "challenge")
    other = await blocking(challenges.decline, hub.store, account.id, challenge_id,
                           hub.settings.now())
    await hub.people.notify([account.id, other])
    return {"declined": True}


@router.post("/challenges/{challenge_id}/cancel")
async def cancel(challenge_id: ChallengeId, account: AccountDep, hub: HubDep,
                 guard: GuardDep) -> dict[str, Any]:
    """Withdraw a challenge you made."""
    account = await _limited(guard, account, "challenge")
    other = await blocking(challenges.cancel, hub.store, account.id, challenge_id,
                           hub.settings.now())
    await hub.people.notify([account.id, other])
    return {"cancelled": True}


# ---------------------------------------------------------------------- the stream
def _event(data: dict[str, Any]) -> str:
    return f"data: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"


@router.get("/events", response_class=StreamingResponse, responses={200: {
    "content": {"text/event-stream": {}}, "description": "the room's events"}})
async def events(request: Request, account: AccountDep, hub: HubDep, guard: GuardDep,
                 client: ClientDep) -> StreamingResponse:
    """The room's one stream for a page (server-sent events, each ``data:`` a JSON
    message): ``room`` whenever your friends, the players you follow or your challenges
    change; ``turn`` when it becomes your turn at a table; ``rematch`` when someone at a
    table you played at deals again; ``ended`` when your session does (signed out)."""
    account = signed_in(account)
    bus = hub.people
    if bus.count(account.id) >= STREAMS_PER_ACCOUNT:
        raise TooMany("rate_limited", "you have {n} connections open already",
                      guard.SOCKET_RETRY, n=STREAMS_PER_ACCOUNT)
    release = await guard.open_socket(client, ROOM_SOCKET)
    token = request.cookies.get(SESSION_COOKIE, "")
    stream = bus.open(account.id)
    return StreamingResponse(_stream(bus, hub, stream, token, release),
                             media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _look(bus: RoomBus, hub: Hub, account_id: int, token: str) -> dict[str, Any] | None:
    """The account's room now, or None if its session is over."""
    if account_for_session(hub.store, token, hub.settings.now()) is None:
        return None
    return bus.room(account_id)


def _next_expiry(room: dict[str, Any]) -> float | None:
    """When the next open challenge of ``room`` expires (the room changes then)."""
    due = [c["expires"] for side in ("incoming", "outgoing")
           for c in room.get("challenges", {}).get(side, []) if c["status"] == "open"]
    return min(due) if due else None


async def _stream(bus: RoomBus, hub: Hub, stream: Stream, token: str,
                  release: Callable[[], Awaitable[None]]) -> AsyncIterator[str]:
    """The stream's messages: the room worked out again when nudged, when a challenge in
    it expires, and every poll interval (what ages by itself); a comment line when idle."""
    loop = asyncio.get_running_loop()
    try:
        yield "retry: 5000\n\n"
        last: dict[str, Any] | None = None
        looked = -math.inf
        while not stream.lagging:
            stream.wake.clear()
            try:
                now = await asyncio.to_thread(_look, bus, hub, stream.account_id, token)
            except Exception as err:  # the database is away: look again at the next wake
                if not hub.outages.note(err):
                    log.exception("a room stream could not look at its room")
                now = last or {}
            looked = loop.time()
            if now is None:
                yield _event({"type": "ended"})
                return
            if now and now != last:
                yield _event(now)
                last = now
            while stream.events:
                yield _event(stream.events.pop(0))
            expiry = _next_expiry(last or {})
            while not stream.wake.is_set():
                wait = looked + bus.poll_seconds() - loop.time()
                if expiry is not None:
                    wait = min(wait, expiry - hub.settings.now() + 0.5)
                if wait <= 0:
                    break
                try:
                    async with asyncio.timeout(min(KEEPALIVE_SECONDS, wait)):
                        await stream.wake.wait()
                except TimeoutError:
                    yield ": still here\n\n"
    finally:
        bus.close(stream)
        await release()
