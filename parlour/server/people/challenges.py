"""Challenges (issue 34, item 3): a signed-in person invites a friend by name to a game with
chosen options; the friend accepts or declines wherever they are in the parlour (the
room's stream, :mod:`parlour.server.people.presence`), and on accepting both are seated at
a new table (the router opens it: :mod:`parlour.server.routers.people`).

A challenge is a row of ``parlour_challenges`` (migration 0014): open until answered,
cancelled or :data:`CHALLENGE_SECONDS` old (then it reads as expired: nothing needs to
sweep it). Only friends challenge each other, so a block (which ends the friendship)
refuses challenges both ways; a challenge open when a block is made can no longer be
accepted. Its challenger sees its answer, or that it expired, for :data:`SHOWN_SECONDS`.
Functions here block (the database): the router runs them in a thread.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, delete, func, insert, or_, select, update

from parlour.engine import Game, OptionError
from parlour.games import game_ids, get_game
from parlour.message import N_, Term
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.social import account_named, either_blocked, friends
from parlour.server.storage.store import Store, accounts_t, challenges_t

CHALLENGE_SECONDS = 300.0  # an unanswered challenge expires after five minutes
SHOWN_SECONDS = 600.0  # a challenge answered (or expired) is shown that long after
OPEN_MOST = 5  # challenges one person may have open at once
#: Why a challenge can no longer be answered, by its status.
OVER = {"expired": N_("that challenge has expired"),
        "accepted": N_("that challenge was accepted already"),
        "declined": N_("that challenge was declined"),
        "cancelled": N_("that challenge was withdrawn")}
ENDED = N_("that challenge is over")


def game_for_several(game_id: str, alone: str) -> Game:
    """The game called ``game_id`` if it is played by two people or more (``alone``: what a
    game played alone is told, with its name as ``{game}``); quick play's check too."""
    game_id = game_id.strip().lower()
    if game_id not in game_ids():
        raise ProtocolError("bad_game", "unknown game {game}: expected one of {expected}",
                            game=repr(game_id), expected=", ".join(game_ids()))
    game = get_game(game_id)
    if game.max_seats < 2:
        raise ProtocolError("bad_game", alone, game=Term("game", game.name))
    return game


def check_game(game_id: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The game and its resolved options, if they make a game for two people or more."""
    game = game_for_several(game_id, N_("{game} is played alone: nobody to challenge"))
    game_id = game.id
    try:
        resolved = game.resolve_options(options)
    except OptionError as err:
        raise ProtocolError("bad_options", err.message) from None
    return game_id, resolved


def _status(row: Any, now: float) -> str:
    return "expired" if row.status == "open" and row.expires <= now else str(row.status)


def challenge(store: Store, me: int, name: str, game_id: str, options: dict[str, Any],
              speed: str | None, now: float) -> tuple[int, int]:
    """Challenge the friend called ``name``; the challenge's id and the friend's account."""
    game_id, resolved = check_game(game_id, options)
    with store.engine.begin() as conn:
        other = account_named(conn, name)
        if other.id == me:
            raise ProtocolError("bad_request", "that is you")
        if either_blocked(conn, me, other.id) or not friends(conn, me, other.id):
            raise ProtocolError("not_friends", "you can challenge your friends only: people "
                                               "who follow you and whom you follow")
        open_now = conn.execute(select(challenges_t.c.challenged).where(
            challenges_t.c.challenger == me, challenges_t.c.status == "open",
            challenges_t.c.expires > now)).all()
        if any(r.challenged == other.id for r in open_now):
            raise ProtocolError("already_challenged", "you have challenged {name} already: "
                                                      "wait for the answer", name=other.name)
        if len(open_now) >= OPEN_MOST:
            raise ProtocolError("too_many", "you have {n} challenges open already",
                                n=OPEN_MOST)
        made = conn.execute(insert(challenges_t).values(
            challenger=me, challenged=other.id, game=game_id,
            options=json.dumps(resolved, sort_keys=True), speed=speed, created=now,
            expires=now + CHALLENGE_SECONDS, status="open"))
        return int(made.inserted_primary_key[0]), int(other.id)  # type: ignore[index]


def _mine(conn: Connection, challenge_id: int, column: Any, me: int) -> Any:
    row = conn.execute(select(challenges_t).where(challenges_t.c.id == challenge_id,
                                                  column == me)).first()
    if row is None:
        raise ProtocolError("not_found", "there is no such challenge")
    return row


def _still_open(row: Any, now: float) -> None:
    status = _status(row, now)
    if status != "open":
        raise ProtocolError("challenge_" + status, OVER.get(status, ENDED))


def _close(conn: Connection, row: Any, status: str, now: float) -> None:
    done = conn.execute(update(challenges_t).where(
        challenges_t.c.id == row.id, challenges_t.c.status == "open",
        challenges_t.c.expires > now).values(status=status, answered=now))
    if done.rowcount != 1:  # answered meanwhile on another page
        _still_open(conn.execute(select(challenges_t)
                                 .where(challenges_t.c.id == row.id)).one(), now)
        raise ProtocolError("challenge_over", ENDED)


def decline(store: Store, me: int, challenge_id: int, now: float) -> int:
    """``me`` declines a challenge made to them; returns the challenger's account."""
    with store.engine.begin() as conn:
        row = _mine(conn, challenge_id, challenges_t.c.challenged, me)
        _still_open(row, now)
        _close(conn, row, "declined", now)
        return int(row.challenger)


def cancel(store: Store, me: int, challenge_id: int, now: float) -> int:
    """``me`` withdraws a challenge they made; returns the challenged account."""
    with store.engine.begin() as conn:
        row = _mine(conn, challenge_id, challenges_t.c.challenger, me)
        _still_open(row, now)
        _close(conn, row, "cancelled", now)
        return int(row.challenged)


def accept(store: Store, me: int, challenge_id: int, now: float) -> dict[str, Any]:
    """``me`` accepts a challenge made to them (if the two are still friends): it is
    marked accepted at once (a second accept, on another page, is refused) and its facts
    returned for the table to be opened (then :func:`seated`)."""
    with store.engine.begin() as conn:
        row = _mine(conn, challenge_id, challenges_t.c.challenged, me)
        _still_open(row, now)
        if either_blocked(conn, me, row.challenger) or not friends(conn, me, row.challenger):
            raise ProtocolError("not_friends", "you can play challenges of your friends only")
        _close(conn, row, "accepted", now)
        names = _names(conn, [row.challenger, row.challenged])
        return {"id": row.id, "game": row.game, "options": json.loads(row.options),
                "speed": row.speed, "challenger": row.challenger,
                "challenger_name": names[row.challenger], "challenged": row.challenged,
                "challenged_name": names[row.challenged]}


def seated(store: Store, challenge_id: int, table_id: str | None) -> None:
    """The accepted challenge's table (None: it could not be opened, and the challenge is
    open again for its time left)."""
    values: dict[str, Any] = {"table_id": table_id} if table_id is not None else \
        {"status": "open", "answered": None}
    with store.engine.begin() as conn:
        conn.execute(update(challenges_t).where(challenges_t.c.id == challenge_id)
                     .values(**values))


def _names(conn: Connection, ids: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    return {r.id: r.name for r in conn.execute(
        select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(wanted)))}


def challenges_of(conn: Connection, me: int, now: float) -> dict[str, list[dict[str, Any]]]:
    """``me``'s challenges: those made to them still open, and those they made, open or
    answered within :data:`SHOWN_SECONDS` (declined, accepted with its table, withdrawn,
    or expired)."""
    rows = conn.execute(select(challenges_t).where(
        or_(challenges_t.c.challenger == me, challenges_t.c.challenged == me),
        func.coalesce(challenges_t.c.answered, challenges_t.c.expires) > now - SHOWN_SECONDS,
    ).order_by(challenges_t.c.id)).all()
    others = {r.challenger for r in rows} | {r.challenged for r in rows}
    names = _names(conn, others)
    incoming, outgoing = [], []
    for r in rows:
        one = {"id": r.id, "game": r.game, "game_name": get_game(r.game).name
               if r.game in game_ids() else r.game, "options": json.loads(r.options),
               "speed": r.speed, "status": _status(r, now), "expires": r.expires,
               "table": r.table_id}
        if r.challenger == me:
            outgoing.append(one | {"to": names.get(r.challenged)})
        elif one["status"] == "open":
            incoming.append(one | {"from": names.get(r.challenger)})
    return {"incoming": incoming, "outgoing": outgoing}


def forget(conn: Connection, me: int) -> None:
    """A deleted account's challenges go."""
    conn.execute(delete(challenges_t).where(or_(challenges_t.c.challenger == me,
                                                challenges_t.c.challenged == me)))
