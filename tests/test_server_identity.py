"""The session cookie names a signed-in account; anything else is a guest."""

from __future__ import annotations

import time

from server_kit import db_url_for
from sqlalchemy import insert, update

from parlour.server.people.identity import account_for_session, session_hash
from parlour.server.storage.store import Store, accounts_t, sessions_t


def test_a_live_session_signs_in_its_account_and_nothing_else_does(tmp_path):
    store = Store(db_url_for(tmp_path / "id.sqlite3"))
    try:
        now = time.time()
        with store.engine.begin() as conn:
            aid = conn.execute(insert(accounts_t).values(
                name="Ana", name_key="ana", password_hash="x", created=now)).inserted_primary_key[0]
            conn.execute(insert(sessions_t).values(
                token_hash=session_hash("live"), account_id=aid, created=now, expires=now + 60))
            conn.execute(insert(sessions_t).values(
                token_hash=session_hash("old"), account_id=aid, created=now - 99, expires=now - 1))
        ana = account_for_session(store, "live", now)
        assert ana is not None and (ana.id, ana.name, ana.role) == (aid, "Ana", "player")
        assert account_for_session(store, "old", now) is None  # expired
        assert account_for_session(store, "nope", now) is None
        assert account_for_session(store, session_hash("live"), now) is None  # the hash is no token
        with store.engine.begin() as conn:
            conn.execute(update(accounts_t).values(banned=now))
        assert account_for_session(store, "live", now) is None
    finally:
        store.close()
