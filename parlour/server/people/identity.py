"""Who a request comes from: a signed-in account (its session cookie) or a guest (None).

A session is a random token in an HttpOnly cookie; the database keeps only its sha256
(``parlour_sessions``), so a copy of the database signs nobody in. Signing up, logging in
and out live in the accounts router; this module is the one place that reads the cookie.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from sqlalchemy import select
from starlette.requests import HTTPConnection

from parlour.server.storage.store import Store, accounts_t, sessions_t

SESSION_COOKIE = "parlour_session"
_TOKEN_MAX = 100  # a session token is 43 characters; anything much longer is not one


@dataclass(frozen=True)
class Account:
    """A signed-in person, as a request sees them."""

    id: int
    name: str
    role: str = "player"


def session_hash(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def account_for_session(store: Store, token: str, now: float | None = None) -> Account | None:
    """The account a live session token signs in: None for an unknown or expired token, or
    for a banned or deleted account."""
    now = time.time() if now is None else now
    with store.engine.connect() as conn:
        row = conn.execute(
            select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.role)
            .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
            .where(sessions_t.c.token_hash == session_hash(token), sessions_t.c.expires > now,
                   accounts_t.c.banned.is_(None), accounts_t.c.deleted.is_(None))
        ).first()
    return Account(row.id, row.name, row.role) if row is not None else None


async def get_account(conn: HTTPConnection) -> Account | None:
    """The request's signed-in account, or None for a guest."""
    token = conn.cookies.get(SESSION_COOKIE)
    if not token or len(token) > _TOKEN_MAX:
        return None
    hub = conn.app.state.hub
    return await asyncio.to_thread(account_for_session, hub.store, token, hub.settings.now())


AccountDep = Annotated[Account | None, Depends(get_account)]
