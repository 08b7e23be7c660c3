"""Accounts over HTTP (``/api/account/...``): sign up, log in and out, the password and
recovery codes, export and deletion, the seats that follow a person, reports and mutes.

The session is the ``parlour_session`` cookie (HttpOnly, SameSite=Lax, Secure over TLS;
:mod:`parlour.server.people.identity` reads it). Requests that change something and ride on the
cookie must come from the parlour's own pages: a browser's ``Origin`` from another site is
refused (SameSite=Lax already keeps the cookie off most of them). Logging in, signing up
and recovery are limited per address and per account name (``docs/accounts.md``).
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request, Response
from pydantic import Field
from starlette.requests import HTTPConnection

from parlour.message import N_
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep, TableId, check_origin
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.limits import ClientGuard
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import accounts
from parlour.server.people.account_names import name_key
from parlour.server.people.accounts import SESSION_SECONDS, SignedIn
from parlour.server.people.identity import SESSION_COOKIE, Account, AccountDep
from parlour.server.play.rejoin import device_token
from parlour.server.play.table import Table
from parlour.server.play.tables import Hub
from parlour.server.play.talk import TEXT_MAX, sealed
from parlour.server.routers.lobby import Body

T = TypeVar("T")
TABLE_PATTERN = r"^[A-Za-z0-9_-]{1,16}$"


def same_site(conn: HTTPConnection) -> None:
    """A browser's request from another site's page is refused (``bad_origin``)."""
    check_origin(conn, conn.app.state.settings.limits)


router = APIRouter(prefix="/api/account", responses=RESPONSES,
                   dependencies=[Depends(same_site)])

Name = Annotated[str, Field(min_length=1, max_length=100)]
Password = Annotated[str, Field(min_length=1, max_length=1024)]


class SeatHeld(Body):
    """A seat this browser holds as a guest: its table and seat token (``parlour.seats``)."""

    table: str = Field(pattern=TABLE_PATTERN)
    token: str = Field(min_length=1, max_length=100)


Seats = Annotated[list[SeatHeld], Field(default_factory=list, max_length=50)]


class SignUp(Body):
    name: Name
    password: Password
    seats: Seats


class LogIn(Body):
    name: Name
    password: Password
    seats: Seats


class Recover(Body):
    name: Name
    code: str = Field(min_length=1, max_length=40)
    password: Password
    seats: Seats


class NewPassword(Body):
    current: Password
    password: Password


class PasswordOnly(Body):
    password: Password


class SeatAt(Body):
    table: str = Field(pattern=TABLE_PATTERN)
    seat: int = Field(ge=0, le=15)


class SaidLine(Body):
    """A line of table talk as the server sent it: its words and its seal (play/talk.py)."""

    text: str = Field(min_length=1, max_length=TEXT_MAX)
    seal: str = Field(pattern=r"^[0-9a-f]{32}$")


class Report(SeatAt):
    reason: Literal["abuse", "name", "cheating", "leaving", "other"]
    note: str | None = Field(default=None, max_length=500)
    message: SaidLine | None = None  # the player's own words the report is about


class Mute(SeatAt):
    muted: bool = True


_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = \
    weakref.WeakKeyDictionary()
AT_ONCE = 2  # password checks running at once (each Argon2 hash takes 64 MiB)


async def hashing(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` (which hashes or checks a password) in a thread, at most
    :data:`AT_ONCE` at once: a flood of log-ins queues instead of filling the memory or
    every worker thread, and reads of the database (``blocking``) never wait behind it."""
    loop = asyncio.get_running_loop()
    gate = _GATES.get(loop)
    if gate is None:
        gate = _GATES[loop] = asyncio.Semaphore(AT_ONCE)
    async with gate:
        return await asyncio.to_thread(fn, *args)


async def blocking(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` (the database, no password) in a thread."""
    return await asyncio.to_thread(fn, *args)


def signed_in(account: Account | None) -> Account:
    if account is None:
        raise ProtocolError("not_signed_in", "sign in first")
    return account


def session_token(request: Request) -> str:
    return request.cookies.get(SESSION_COOKIE, "")


def set_session(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")


def end_session(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def me(account: Account) -> dict[str, Any]:
    return {"name": account.name, "role": account.role}


async def link_seats(hub: Hub, account: Account, held: list[SeatHeld]) -> int:
    """The seats a guest held in this browser become the account's; returns how many."""
    linked = 0
    for one in held:
        table = await _table(hub, one.table)
        if table is None:
            continue
        try:
            seat = table.seat_for(one.token)
        except ProtocolError:
            continue
        info = table.seats[seat] if seat is not None else None
        if seat is None or info is None or info.kind != "person" \
                or info.account_id not in (None, account.id):
            continue
        await hub.link_seat(table, seat, account.id)
        linked += 1
    return linked


async def _table(hub: Hub, table_id: str) -> Table | None:
    try:
        return await hub.get(table_id)
    except ProtocolError:  # unrestorable
        return None


async def welcome(request: Request, response: Response, hub: Hub, done: SignedIn,
                  held: list[SeatHeld]) -> dict[str, Any]:
    set_session(request, response, done.token)
    linked = await link_seats(hub, done.account, held)
    body: dict[str, Any] = {"account": me(done.account), "seats_kept": linked}
    if done.codes is not None:
        body["recovery_codes"] = done.codes
    if done.renamed_from is not None:
        body["renamed_from"] = done.renamed_from
    return body


def login_keys(client: str, name: str) -> list[str]:
    return [client, f"account:{name_key(name)[:160]}"]


async def password_attempt(account: Account | None, guard: ClientGuard,
                           client: str) -> Account:
    """The signed-in account of a request that checks its password (a new password, new
    codes, deletion): counted against the log-in limits of the address and the account."""
    account = signed_in(account)
    await guard.take("login", *login_keys(client, account.name),
                     message=N_("too many password attempts: wait a little"))
    return account


@router.get("")
async def whoami(account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """The signed-in account (None for a guest), its seats and recovery codes left."""
    if account is None:
        return {"account": None}
    seats, left, renamed = await asyncio.gather(
        blocking(accounts.account_seats, hub.store, account.id),
        blocking(accounts.codes_left, hub.store, account.id),
        blocking(accounts.rename_notice, hub.store, account.id))
    body = {"account": me(account), "seats": seats, "recovery_codes_left": left}
    if renamed is not None:  # told once, here or at the next sign-in
        body["renamed_from"] = renamed
    return body


@router.post("/signup", status_code=201)
async def sign_up(body: SignUp, request: Request, response: Response, hub: HubDep,
                  guard: GuardDep, client: ClientDep) -> dict[str, Any]:
    """A new account; the answer shows its recovery codes, once."""
    await guard.take("signup", client)
    done = await hashing(accounts.sign_up, hub.store, body.name, body.password,
                         hub.settings.now())
    return await welcome(request, response, hub, done, body.seats)


@router.post("/login")
async def log_in(body: LogIn, request: Request, response: Response, hub: HubDep,
                 guard: GuardDep, client: ClientDep) -> dict[str, Any]:
    await guard.take("login", *login_keys(client, body.name))
    done = await hashing(accounts.log_in, hub.store, body.name, body.password,
                         hub.settings.now())
    return await welcome(request, response, hub, done, body.seats)


@router.post("/recover")
async def recover(body: Recover, request: Request, response: Response, hub: HubDep,
                  guard: GuardDep, client: ClientDep) -> dict[str, Any]:
    """A lost password reset with one recovery code (spent); every other session ends."""
    await guard.take("recovery", *login_keys(client, body.name))
    done = await hashing(accounts.recover, hub.store, body.name, body.code, body.password,
                         hub.settings.now())
    return await welcome(request, response, hub, done, body.seats)


@router.post("/logout")
async def log_out(request: Request, response: Response, hub: HubDep) -> dict[str, Any]:
    token = session_token(request)
    if token:
        await blocking(accounts.log_out, hub.store, token)
    end_session(request, response)
    return {"account": None}


@router.post("/password")
async def change_password(body: NewPassword, request: Request, account: AccountDep,
                          hub: HubDep, guard: GuardDep, client: ClientDep) -> dict[str, Any]:
    """A new password (the current one first); the account's other sessions end."""
    account = await password_attempt(account, guard, client)
    await hashing(accounts.change_password, hub.store, account, session_token(request),
                   body.current, body.password)
    return {"account": me(account)}


@router.post("/recovery-codes")
async def new_codes(body: PasswordOnly, account: AccountDep, hub: HubDep, guard: GuardDep,
                    client: ClientDep) -> dict[str, Any]:
    """New recovery codes, shown once (the old ones stop working)."""
    account = await password_attempt(account, guard, client)
    codes = await hashing(accounts.renew_codes, hub.store, account, body.password,
                          hub.settings.now())
    return {"recovery_codes": codes}


@router.get("/export")
async def export(account: AccountDep, hub: HubDep) -> Response:
    """Everything kept about the account, as a JSON file."""
    account = signed_in(account)
    data = await blocking(accounts.export, hub.store, account.id, hub.settings.now())
    return Response(json.dumps(data, indent=2, ensure_ascii=False),
                    media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="parlour-account.json"',
                             "Cache-Control": "no-store"})


@router.post("/delete")
async def delete(body: PasswordOnly, request: Request, response: Response,
                 account: AccountDep, hub: HubDep, guard: GuardDep, client: ClientDep
                 ) -> dict[str, Any]:
    """Delete the account (the password first); see docs/accounts.md for what stays."""
    account = await password_attempt(account, guard, client)
    await hashing(accounts.delete_account, hub.store, account, body.password,
                  hub.settings.now())
    for table in hub.tables.values():
        for info in table.seats:
            if info.account_id == account.id:
                info.name = accounts.DELETED_NAME
    end_session(request, response)
    return {"account": None}


@router.post("/seats/{table_id}/claim")
async def claim(table_id: TableId, account: AccountDep, hub: HubDep, guard: GuardDep,
                client: ClientDep) -> dict[str, Any]:
    """Your seat at this table, on this device: a token of the seat your account holds
    (the same kind a rejoin link is traded for; limited like taking seats)."""
    account = signed_in(account)
    await guard.take("join", client)
    table = await hub.get(table_id)
    if table is None:
        raise ProtocolError("not_found", "there is no table with that id")
    for seat, info in enumerate(table.seats):
        if info.kind == "person" and info.account_id == account.id \
                and info.token_hash is not None and table.key:
            return {"table": table.summary(), "seat": seat,
                    "token": device_token(table.key, table.id, seat, info.token_hash)}
    raise ProtocolError("not_seated", "you hold no seat at this table")


async def _seat_of(hub: Hub, body: SeatAt, account: Account) -> tuple[Table, int | None]:
    table = await hub.get(body.table)
    if table is None:
        raise ProtocolError("not_found", "there is no table with that id")
    if body.seat >= table.num_seats:
        raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
    info = table.seats[body.seat]
    if info.kind != "person" or info.token_hash is None:
        raise ProtocolError("bad_seat", "nobody sits there")
    if info.account_id == account.id:
        raise ProtocolError("bad_seat", "that is your own seat")
    return table, info.account_id


@router.post("/reports", status_code=201)
async def report(body: Report, account: AccountDep, hub: HubDep, guard: GuardDep
                 ) -> dict[str, Any]:
    """Report the player at a seat to the parlour's operators."""
    account = signed_in(account)
    await guard.take("report", f"account:{account.id}")
    table, holder = await _seat_of(hub, body, account)
    note = " ".join(body.note.split()) if body.note else None
    said = body.message
    if said is not None and not sealed(await blocking(hub.talk_key), table.id, body.seat,
                                       said.text, said.seal):
        raise ProtocolError("bad_seal", "that message was not said at that seat")
    await blocking(accounts.report, hub.store, account, table.id, body.seat,
                   table.seats[body.seat].name, holder, body.reason, note or None,
                   hub.settings.now(), said.text if said is not None else None)
    return {"reported": True}


@router.post("/mutes")
async def mute(body: Mute, account: AccountDep, hub: HubDep, guard: GuardDep
               ) -> dict[str, Any]:
    """Mute (``muted``: false, unmute) the player at a seat, for you only (limited per
    account like taking seats)."""
    account = signed_in(account)
    await guard.take("join", f"account:{account.id}")
    table, holder = await _seat_of(hub, body, account)
    await blocking(accounts.mute, hub.store, account, table.id, body.seat, holder, body.muted,
                   hub.settings.now())
    return {"muted": await _muted(hub, account, table)}


@router.get("/mutes/{table_id}")
async def muted(table_id: TableId, account: AccountDep, hub: HubDep) -> dict[str, Any]:
    """The seats of a table whose players you muted."""
    account = signed_in(account)
    table = await hub.get(table_id)
    if table is None:
        raise ProtocolError("not_found", "there is no table with that id")
    return {"muted": await _muted(hub, account, table)}


async def _muted(hub: Hub, account: Account, table: Table) -> list[int]:
    holders = [(i, s.account_id) for i, s in enumerate(table.seats) if s.kind == "person"]
    return await blocking(accounts.muted_seats, hub.store, account, table.id, holders)
