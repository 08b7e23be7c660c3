"""Accounts: signing up, logging in and out, passwords and recovery codes, exporting and
deleting an account, the seats that follow a person, and the operators' actions.

What is stored (``parlour/server/storage/store.py``, migration 0003; see ``docs/accounts.md``):
the name as typed and its key (:mod:`parlour.server.people.account_names`), an Argon2id hash of the
password (argon2-cffi; never the password), the sha256 of each session token and of each
unspent recovery code (both 256 or 80 random bits, so a plain hash is enough), and which
account holds which seat. Functions here block (Argon2 and the database): the router runs
them in a thread.
"""

from __future__ import annotations

import getpass
import hashlib
import logging
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, and_, delete, exc, func, insert, or_, select, update

from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import challenges, quick, social
from parlour.server.people.account_names import clean_account_name, name_key, reserved_keys
from parlour.server.people.identity import Account, session_hash
from parlour.server.people.players import export_play
from parlour.server.people.puzzles import export_puzzles
from parlour.server.play.seating import clean_name
from parlour.server.storage.store import (
    Store,
    accounts_t,
    admin_log_t,
    blocks_t,
    mutes_t,
    notices_t,
    recovery_codes_t,
    reports_t,
    seats_t,
    sessions_t,
    tables_t,
)

log = logging.getLogger("parlour.server")

PASSWORD_MIN = 8
PASSWORD_MAX = 200
SESSION_SECONDS = 30 * 24 * 3600  # a session lasts 30 days from logging in
RECOVERY_CODES = 8
_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud or copied
_CODE_LENGTH = 16  # 16 of 31 symbols: 79 bits
DELETED_NAME = "Deleted player"
KEY_MAX = 160  # the width of parlour_accounts.name_key

#: Argon2id with argon2-cffi's defaults (RFC 9106's second choice: 3 passes, 64 MiB, 4 lanes).
HASHER = PasswordHasher()


@cache
def _dummy_hash() -> str:
    """A hash checked for unknown names, so that they take as long as a wrong password
    (made at the first use, not when the server starts)."""
    return HASHER.hash("not anybody's password")


def check_password(password: str, name: str) -> None:
    """``bad_password`` unless ``password`` will do for ``name``."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ProtocolError("bad_password", "a password has {low} to {high} characters",
                            low=PASSWORD_MIN, high=PASSWORD_MAX)
    if password.strip().casefold() == name.strip().casefold():
        raise ProtocolError("bad_password", "a password must not be your name")


def _verify(password_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_session(conn: Connection, account_id: int, now: float) -> str:
    """Sign ``account_id`` in: a new session; returns its token (the cookie's value)."""
    token = secrets.token_urlsafe(32)  # 256 bits
    conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account_id,
                                          sessions_t.c.expires <= now))
    conn.execute(insert(sessions_t).values(token_hash=session_hash(token),
                                           account_id=account_id, created=now,
                                           expires=now + SESSION_SECONDS))
    return token


def recovery_code() -> str:
    """A new recovery code, as shown: four groups of four."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
    return "-".join(raw[i:i + 4] for i in range(0, _CODE_LENGTH, 4))


def code_hash(code: str) -> str:
    """What the database keeps of a recovery code (spaces, dashes and case ignored)."""
    plain = "".join(code.split()).replace("-", "").lower()
    return hashlib.sha256(plain.encode()).hexdigest()


def _new_codes(conn: Connection, account_id: int, now: float) -> list[str]:
    conn.execute(delete(recovery_codes_t).where(recovery_codes_t.c.account_id == account_id))
    codes = [recovery_code() for _ in range(RECOVERY_CODES)]
    conn.execute(insert(recovery_codes_t), [
        {"code_hash": code_hash(c), "account_id": account_id, "created": now} for c in codes])
    return codes


@dataclass(frozen=True)
class SignedIn:
    """A person just signed in: who, their session token, and (at sign-up or on asking)
    their new recovery codes, shown once."""

    account: Account
    token: str
    codes: list[str] | None = None
    renamed_from: str | None = None  # the name the parlour took from it, told once


def _told_rename(conn: Connection, row: Any) -> str | None:
    """The name the parlour renamed this account from (migration 0010), if it has not been
    told yet: now it is."""
    if row.renamed_from is None:
        return None
    conn.execute(update(accounts_t).where(accounts_t.c.id == row.id).values(renamed_from=None))
    return str(row.renamed_from)


def rename_notice(store: Store, account_id: int) -> str | None:
    """The name this account was renamed from, once (then it is forgotten)."""
    with store.engine.begin() as conn:
        row = conn.execute(select(accounts_t.c.id, accounts_t.c.renamed_from)
                           .where(accounts_t.c.id == account_id)).first()
        return None if row is None else _told_rename(conn, row)


def _key_of(name: str) -> str:
    key = name_key(name)
    if len(key) > KEY_MAX:
        raise ProtocolError("bad_name", "that name is too long")
    return key


def sign_up(store: Store, name: str, password: str, now: float | None = None) -> SignedIn:
    """A new account (``name_taken`` if the name or a look-alike has one already)."""
    now = time.time() if now is None else now
    clean = clean_account_name(name)
    key = _key_of(clean)
    check_password(password, clean)
    hashed = HASHER.hash(password)
    try:
        with store.engine.begin() as conn:
            inserted = conn.execute(insert(accounts_t).values(
                name=clean, name_key=key, password_hash=hashed, created=now))
            account_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
            codes = _new_codes(conn, account_id, now)
            token = new_session(conn, account_id, now)
    except exc.IntegrityError:
        raise ProtocolError("name_taken", "that name (or one that looks like it) is taken: "
                                          "choose another") from None
    log.info("account %d signed up", account_id)
    return SignedIn(Account(account_id, clean, "player"), token, codes)


def guest_name(store: Store, name: object) -> str:
    """A guest's name, cleaned (:func:`~parlour.server.play.seating.clean_name`), if no account
    and nothing reserved goes by it: a guest cannot sit under an account's name or a
    look-alike of it (``name_taken``), nor under the parlour's or a bot's
    (``name_reserved``)."""
    clean = clean_name(name)
    key = name_key(clean)
    if key in reserved_keys():
        raise ProtocolError("name_reserved", "that name is kept for the parlour: choose "
                                             "another")
    with store.engine.connect() as conn:
        owner = conn.scalar(select(accounts_t.c.id).where(accounts_t.c.name_key == key[:KEY_MAX],
                                                          accounts_t.c.deleted.is_(None)))
    if owner is not None:
        raise ProtocolError("name_taken", "an account goes by that name: sign in to play "
                                          "under it, or choose another")
    return clean


def _by_name(conn: Connection, name: str) -> Any:
    return conn.execute(select(accounts_t).where(accounts_t.c.name_key == name_key(name),
                                                 accounts_t.c.deleted.is_(None))).first()


def log_in(store: Store, name: str, password: str, now: float | None = None) -> SignedIn:
    """A new session for the account ``name`` if ``password`` is its password."""
    now = time.time() if now is None else now
    with store.engine.connect() as conn:
        row = _by_name(conn, name)
    if row is None:
        _verify(_dummy_hash(), password)  # as long as a real check: no telling who exists
        raise ProtocolError("bad_login", "that name and password do not match")
    right = _verify(row.password_hash, password)
    if row.banned is not None:  # the same answer whatever the password: no oracle
        raise ProtocolError("banned", "this account is banned")
    if not right:
        log.info("account %d: a failed log-in", row.id)
        raise ProtocolError("bad_login", "that name and password do not match")
    with store.engine.begin() as conn:
        if HASHER.check_needs_rehash(row.password_hash):
            conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                         .values(password_hash=HASHER.hash(password)))
        token = new_session(conn, row.id, now)
        renamed = _told_rename(conn, row)
    log.info("account %d logged in", row.id)
    return SignedIn(Account(row.id, row.name, row.role), token, renamed_from=renamed)


def log_out(store: Store, token: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(sessions_t).where(sessions_t.c.token_hash == session_hash(token)))


def _checked(conn: Connection, account: Account, password: str) -> Any:
    row = conn.execute(select(accounts_t).where(accounts_t.c.id == account.id)).first()
    if row is None or not _verify(row.password_hash, password):
        raise ProtocolError("wrong_password", "that is not your password")
    return row


def change_password(store: Store, account: Account, token: str, current: str, new: str
                    ) -> None:
    """Set a new password; every other session of the account ends."""
    check_password(new, account.name)
    with store.engine.begin() as conn:
        _checked(conn, account, current)
        conn.execute(update(accounts_t).where(accounts_t.c.id == account.id)
                     .values(password_hash=HASHER.hash(new)))
        conn.execute(delete(sessions_t).where(sessions_t.c.account_id == account.id,
                                              sessions_t.c.token_hash != session_hash(token)))
    log.info("account %d changed its password", account.id)


def renew_codes(store: Store, account: Account, password: str, now: float | None = None
                ) -> list[str]:
    """New recovery codes (the old ones stop working)."""
    now = time.time() if now is None else now
    with store.engine.begin() as conn:
        _checked(conn, account, password)
        codes = _new_codes(conn, account.id, now)
    log.info("account %d made new recovery codes", account.id)
    return codes


def recover(store: Store, name: str, code: str, new: str, now: float | None = None
            ) -> SignedIn:
    """Reset a lost password with one recovery code, which is spent; every session ends
    and a new one begins."""
    now = time.time() if now is None else now
    with store.engine.begin() as conn:
        row = _by_name(conn, name)
        if row is not None and row.banned is not None:  # whatever the code: no oracle
            raise ProtocolError("banned", "this account is banned")
        spent = row is not None and conn.execute(delete(recovery_codes_t).where(
            recovery_codes_t.c.account_id == row.id,
            recovery_codes_t.c.code_hash == code_hash(code))).rowcount == 1
        if row is None or not spent:
            raise ProtocolError("bad_code", "that name and recovery code do not match")
        check_password(new, row.name)
        conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                     .values(password_hash=HASHER.hash(new)))
        conn.execute(delete(sessions_t).where(sessions_t.c.account_id == row.id))
        token = new_session(conn, row.id, now)
        renamed = _told_rename(conn, row)
    log.info("account %d reset its password with a recovery code", row.id)
    return SignedIn(Account(row.id, row.name, row.role), token, renamed_from=renamed)


def codes_left(store: Store, account_id: int) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(recovery_codes_t)
                                .where(recovery_codes_t.c.account_id == account_id)).scalar_one())


def seats_of(conn: Connection, account_id: int, limit: int | None = 200
             ) -> list[dict[str, Any]]:
    """The seats ``account_id`` holds, newest table first (the newest ``limit``; None:
    all of them)."""
    rows = conn.execute(
        select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.name, tables_t.c.game,
               tables_t.c.status, tables_t.c.created)
        .join(tables_t, tables_t.c.id == seats_t.c.table_id)
        .where(seats_t.c.account_id == account_id)
        .order_by(tables_t.c.created.desc()).limit(limit))
    return [{"table": r.table_id, "seat": r.seat, "name": r.name, "game": r.game,
             "game_name": _game_name(r.game), "status": r.status, "created": r.created}
            for r in rows]


def _game_name(game_id: str) -> str:
    from parlour.games import game_ids, get_game

    return get_game(game_id).name if game_id in game_ids() else game_id


def account_seats(store: Store, account_id: int) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        return seats_of(conn, account_id)


def export(store: Store, account_id: int, now: float | None = None) -> dict[str, Any]:
    """Everything the parlour keeps about an account, as JSON: the account, its sessions'
    times, how many recovery codes are left, every seat it holds, the reports it made, its
    mutes, what the operators did to it, and its play (:func:`players.export_play`). No
    hashes: they are no one's data and would only help a guesser."""
    now = time.time() if now is None else now
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts_t).where(accounts_t.c.id == account_id)).one()
        return {
            "account": {"id": row.id, "name": row.name, "created": row.created,
                        "role": row.role, "banned": row.banned},
            "sessions": [{"created": r.created, "expires": r.expires} for r in conn.execute(
                select(sessions_t).where(sessions_t.c.account_id == account_id))],
            "recovery_codes_left": int(conn.execute(
                select(func.count()).select_from(recovery_codes_t)
                .where(recovery_codes_t.c.account_id == account_id)).scalar_one()),
            "seats": seats_of(conn, account_id, limit=None),
            "reports_made": [{"table": r.table_id, "seat": r.seat, "name": r.name,
                              "reason": r.reason, "note": r.note, "created": r.created}
                             for r in conn.execute(select(reports_t).where(
                                 reports_t.c.reporter_id == account_id))],
            "mutes": [{"account": r.muted_account, "table": r.table_id, "seat": r.seat,
                       "created": r.created} for r in conn.execute(
                select(mutes_t).where(mutes_t.c.account_id == account_id))],
            "operator_actions": [{"at": r.at, "action": r.action, "detail": r.detail}
                                 for r in conn.execute(select(admin_log_t).where(
                                     admin_log_t.c.account_id == account_id)
                                     .order_by(admin_log_t.c.id))],
            **social.export_social(conn, account_id),
            **export_play(conn, account_id, now),
            **export_puzzles(conn, account_id),
        }


def delete_account(store: Store, account: Account, password: str,
                   now: float | None = None) -> None:
    """Delete ``account``: its name, password, sessions, codes, mutes and reports go; the
    row stays, anonymised, so the matches it played (and others' results in them) keep
    adding up. Its seats, and others' reports of it, keep the account's id under the name
    "Deleted player"."""
    now = time.time() if now is None else now
    with store.engine.begin() as conn:
        _checked(conn, account, password)
        conn.execute(update(accounts_t).where(accounts_t.c.id == account.id).values(
            name=DELETED_NAME, name_key=f"#deleted-{account.id}", password_hash="!",
            deleted=now))
        for table, column in ((sessions_t, sessions_t.c.account_id),
                              (recovery_codes_t, recovery_codes_t.c.account_id),
                              (mutes_t, mutes_t.c.account_id),
                              (reports_t, reports_t.c.reporter_id),
                              (notices_t, notices_t.c.account_id)):
            conn.execute(delete(table).where(column == account.id))
        conn.execute(delete(mutes_t).where(mutes_t.c.muted_account == account.id))
        social.forget(conn, account.id)
        challenges.forget(conn, account.id)
        quick.forget(conn, account.id)
        for table, column in ((seats_t, seats_t.c.account_id),
                              (reports_t, reports_t.c.account_id)):
            conn.execute(update(table).where(column == account.id).values(name=DELETED_NAME))
    log.info("account %d deleted itself", account.id)


# ---------------------------------------------------------------------- moderation
REPORT_REASONS = ("abuse", "name", "cheating", "leaving", "other")


def report(store: Store, account: Account, table_id: str, seat: int, name: str | None,
           holder: int | None, reason: str, note: str | None, now: float | None = None,
           message: str | None = None) -> None:
    """File a report of the person at ``seat`` (``holder``: their account, if any), about
    ``message`` (their own words at the table, checked by the caller) if given."""
    now = time.time() if now is None else now
    with store.engine.begin() as conn:
        conn.execute(insert(reports_t).values(
            reporter_id=account.id, table_id=table_id, seat=seat, name=name,
            account_id=holder, reason=reason, note=note, created=now, message=message))
    log.info("account %d reported seat %d of table %s (%s)", account.id, seat, table_id,
             reason)


def mute(store: Store, account: Account, table_id: str, seat: int, holder: int | None,
         muted: bool, now: float | None = None) -> None:
    """Mute (or unmute) the person at ``seat``: their account everywhere if they are signed
    in, else that seat of that table."""
    now = time.time() if now is None else now
    where = [mutes_t.c.account_id == account.id]
    if holder is not None:
        where.append(mutes_t.c.muted_account == holder)
    else:
        where += [mutes_t.c.table_id == table_id, mutes_t.c.seat == seat,
                  mutes_t.c.muted_account.is_(None)]
    with store.engine.begin() as conn:
        conn.execute(delete(mutes_t).where(*where))
        if muted:
            conn.execute(insert(mutes_t).values(
                account_id=account.id, muted_account=holder,
                table_id=None if holder is not None else table_id,
                seat=None if holder is not None else seat, created=now))


def muted_seats(store: Store, account: Account, table_id: str,
                holders: Iterable[tuple[int, int | None]]) -> list[int]:
    """The seats of ``table_id`` that ``account`` muted, given each person seat and its
    holder's account."""
    with store.engine.connect() as conn:
        rows = conn.execute(select(mutes_t).where(mutes_t.c.account_id == account.id)).all()
    accounts = {r.muted_account for r in rows if r.muted_account is not None}
    seats = {r.seat for r in rows if r.table_id == table_id and r.muted_account is None}
    return sorted(seat for seat, holder in holders
                  if seat in seats or (holder is not None and holder in accounts))


def muted_by(store: Store, table_id: str, seat: int, holder: int | None,
             readers: Iterable[int]) -> set[int]:
    """The accounts among ``readers`` that muted the person at ``seat`` of ``table_id``
    (held by the account ``holder``; None, a guest), or blocked that account
    (:mod:`parlour.server.people.social`): the same mutes as :func:`muted_seats`, asked the
    other way round (who does not hear this seat's talk)."""
    wanted = set(readers)
    if not wanted:
        return set()
    hit = [and_(mutes_t.c.table_id == table_id, mutes_t.c.seat == seat,
                mutes_t.c.muted_account.is_(None))]
    if holder is not None:
        hit.append(mutes_t.c.muted_account == holder)
    with store.engine.connect() as conn:
        rows = conn.execute(select(mutes_t.c.account_id).where(
            mutes_t.c.account_id.in_(sorted(wanted)), or_(*hit))).all()
        blockers = [] if holder is None else conn.execute(select(blocks_t.c.blocker).where(
            blocks_t.c.blocker.in_(sorted(wanted)), blocks_t.c.blocked == holder)).all()
    return {r.account_id for r in rows} | {r.blocker for r in blockers}


# ---------------------------------------------------------------------- operators
def operator_name() -> str:
    """Who runs ``parlour admin`` (the system user), as the logs keep it."""
    try:
        return getpass.getuser()[:80]
    except (OSError, KeyError):
        return "unknown"


def _admin_target(conn: Connection, name: str) -> Any:
    row = _by_name(conn, name)
    if row is None:
        raise ProtocolError("not_found", "there is no account named {name}", name=repr(name))
    return row


def _admin_log(conn: Connection, action: str, account_id: int, detail: str, now: float
               ) -> None:
    conn.execute(insert(admin_log_t).values(at=now, action=action, account_id=account_id,
                                            detail=detail[:200], operator=operator_name()))


def admin_rename(engine: Engine, name: str, new: str, now: float | None = None) -> str:
    """``parlour admin rename``: the account ``name`` is called ``new`` from now on."""
    now = time.time() if now is None else now
    clean = clean_account_name(new)
    try:
        with engine.begin() as conn:
            row = _admin_target(conn, name)
            conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                         .values(name=clean, name_key=_key_of(clean)))
            _admin_log(conn, "rename", row.id, f"{row.name} -> {clean}", now)
    except exc.IntegrityError:
        raise ProtocolError("name_taken", "the name {name} (or one that looks like it) is "
                                          "taken", name=clean) from None
    return clean


def admin_ban(engine: Engine, name: str, banned: bool, reason: str = "",
              now: float | None = None) -> None:
    """``parlour admin ban|unban``: a banned account's sessions end and it cannot log in."""
    now = time.time() if now is None else now
    with engine.begin() as conn:
        row = _admin_target(conn, name)
        conn.execute(update(accounts_t).where(accounts_t.c.id == row.id)
                     .values(banned=now if banned else None))
        if banned:
            conn.execute(delete(sessions_t).where(sessions_t.c.account_id == row.id))
        _admin_log(conn, "ban" if banned else "unban", row.id,
                   f"{row.name}: {reason}" if reason else row.name, now)


def admin_log(engine: Engine, limit: int = 50) -> list[dict[str, Any]]:
    """The newest operator actions, newest first."""
    with engine.connect() as conn:
        rows = conn.execute(select(admin_log_t).order_by(admin_log_t.c.id.desc()).limit(limit))
        return [{"at": r.at, "action": r.action, "account": r.account_id,
                 "detail": r.detail, "operator": r.operator} for r in rows]
