"""Helpers for the tests of people's play: sign a person in (an account row and a live
session, as the accounts' login makes them) and play a seat to the end."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from server_kit import Player, connect
from sqlalchemy import insert

from parlour.server.people.account_names import name_key
from parlour.server.people.identity import SESSION_COOKIE, session_hash
from parlour.server.storage.store import accounts_t, sessions_t


def sign_up(db: Path, name: str, now: float | None = None, created: float | None = None
            ) -> tuple[int, str]:
    """An account named ``name`` (made at ``created``, else ``now``) with a session live
    for an hour from ``now`` (the server's clock, if the test sets one; else the wall's);
    returns its id and the cookie."""
    token = secrets.token_urlsafe(32)
    now = time.time() if now is None else now
    with connect(db) as conn:
        aid = conn.execute(insert(accounts_t).values(
            name=name, name_key=name_key(name), password_hash="argon2-not-used-here",
            created=now if created is None else created)).inserted_primary_key[0]
        conn.execute(insert(sessions_t).values(token_hash=session_hash(token),
                                               account_id=aid, created=now, expires=now + 3600))
    return int(aid), token


def signed_in(client: Any, token: str | None) -> Any:
    """The client with the session cookie set (None: a guest again)."""
    client.cookies.clear()
    if token is not None:
        client.cookies.set(SESSION_COOKIE, token)
    return client


def play_out(client: Any, table_id: str, token: str | None, pick: int = 0,
             moves: int = 2000) -> dict[str, Any]:
    """Play the seat by taking its ``pick``-th legal action (wrapping) until the match is
    over; returns the last view message. A finished match's results for its people are
    saved once the table says it is finished (after the last view, or in the welcome of a
    seat that comes after): that is waited for."""
    p = Player(client, table_id, token)
    try:
        msg = p.view()
        for _ in range(moves):
            if msg["status"] != "playing":
                if msg["status"] == "finished" and p.welcome["table"]["status"] != "finished":
                    p.recv_until(lambda m: m["type"] == "table"
                                 and m["table"]["status"] == "finished",
                                 "the table's update that the match is over")
                return msg
            legal = msg["view"].get("legal") or []
            if p.seat in msg["view"].get("to_act", []) and legal:
                p.act(legal[pick % len(legal)])
            msg = p.view()
        raise AssertionError("the match did not end")
    finally:
        p.close()
