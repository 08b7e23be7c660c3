"""Quick play (issue 34, item 5): "Play now" seats you with the next people waiting for the
same game and preset; bots take the seats nobody came for once the first of you has waited
:data:`BOTS_AFTER` seconds. Signed-in players are seated near their rating, in a window that
widens while they wait (:func:`window`); two players of whom one blocked the other are never
seated together; guests are matched with anyone.

A wait is a row of ``parlour_seeks`` (migration 0015), so any process of the room matches it
and nothing waits in a server's memory: the page asks again every second or two
(:func:`look`), and the look that finds a full table, or the first of its people out of
patience, claims the rows (``matching``, one conditional update: two processes cannot both
claim one) and the router opens the table. A wait nobody asked about for
:data:`STALE_SECONDS` (a closed page) is left out of matching and later swept.

The seek's secret, given once when it starts and kept in the page's memory, is the seat's
token at the table it ends at: the database holds only its hash, as it holds every seat's,
so no token is ever stored or sent twice. Functions here block (the database): the router
runs them in a thread.
"""

from __future__ import annotations

import hmac
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from parlour.games import get_game
from parlour.message import N_
from parlour.registry import spec
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.challenges import game_for_several
from parlour.server.people.players import displayed_rating
from parlour.server.people.social import blocks_between
from parlour.server.play.table import new_token, token_hash
from parlour.server.storage.store import Store, seeks_t

BOTS_AFTER = 20.0  # seconds the first of a group waits before bots take the empty seats
STALE_SECONDS = 8.0  # a wait not asked about for this long (its page closed) is left out
CLAIM_SECONDS = 30.0  # a claim whose table never came (its process died) is let go
SWEEP_SECONDS = 3600.0  # ended or abandoned waits are deleted after this long
WAITING_MOST = 4  # waits one address may have at once (a household, a school)
WINDOW_START = 150.0  # rating points apart two signed-in players may be at first...
WINDOW_GROWTH = 25.0  # ...and this many more for each second the longer waiter has waited
BOT = "rule"  # the bots that fill the seats nobody came for (as a challenge's)


def window(waited: float) -> float:
    """How far apart (in displayed rating points) two signed-in players may be seated
    together when the longer waiter of them has waited ``waited`` seconds."""
    return WINDOW_START + WINDOW_GROWTH * max(0.0, waited)


def check_game(game_id: str, preset: str) -> tuple[str, dict[str, Any]]:
    """The game and its preset's resolved options, if the game is played by several."""
    game = game_for_several(game_id, N_("{game} is played alone: nobody to wait for"))
    game_id = game.id
    presets = {p.id: p for p in spec(game_id).presets}
    if preset not in presets:
        raise ProtocolError("bad_options", "unknown preset {preset}: expected one of "
                                           "{expected}", preset=repr(preset),
                            expected=", ".join(presets))
    return game_id, game.resolve_options(dict(presets[preset].options))


def start(store: Store, game_id: str, preset: str, name: str, account_id: int | None,
          client: str, now: float) -> dict[str, Any]:
    """Start waiting for a ``game_id`` table of ``preset``; the wait's id and its secret
    (the seat's token to be), said once."""
    game_id, options = check_game(game_id, preset)
    secret = new_token()
    with store.engine.begin() as conn:
        conn.execute(delete(seeks_t).where(seeks_t.c.seen < now - SWEEP_SECONDS))
        waiting = conn.execute(select(seeks_t.c.id).where(
            seeks_t.c.client == client, seeks_t.c.status == "waiting",
            seeks_t.c.seen > now - STALE_SECONDS)).all()
        if len(waiting) >= WAITING_MOST:
            raise ProtocolError("too_many", "{n} people wait from here already: wait "
                                            "until one is seated", n=WAITING_MOST)
        if account_id is not None:  # one wait per account: a second page takes it over
            conn.execute(update(seeks_t).where(
                seeks_t.c.account == account_id, seeks_t.c.status == "waiting"
            ).values(status="cancelled", seen=now))
        rating = None if account_id is None else displayed_rating(conn, account_id, game_id)
        made = conn.execute(insert(seeks_t).values(
            secret_hash=token_hash(secret), game=game_id, preset=preset,
            options=json.dumps(options, sort_keys=True), name=name, account=account_id,
            rating=rating, client=client, created=now, seen=now, status="waiting"))
        seek_id = int(made.inserted_primary_key[0])  # type: ignore[index]
    return {"id": seek_id, "secret": secret, "bots_after": BOTS_AFTER,
            "seats": get_game(game_id).default_seats}


@dataclass
class Group:
    """The waits claimed for one table: the game, its options, and per seat the person
    (name, secret hash, account); the seats after them are bots'."""

    game: str
    options: dict[str, Any]
    seats: int
    people: list[tuple[int, str, str, int | None]] = field(default_factory=list)

    def seat_of(self, seek_id: int) -> int:
        return next(n for n, (sid, *_) in enumerate(self.people) if sid == seek_id)


def _mine(conn: Connection, seek_id: int, secret: str) -> Any:
    row = conn.execute(select(seeks_t).where(seeks_t.c.id == seek_id)).first()
    if row is None or not hmac.compare_digest(row.secret_hash, token_hash(secret)):
        raise ProtocolError("not_found", "there is no such wait")  # (a wrong secret too)
    return row


def _fits(row: Any, group: list[Any], blocked: set[tuple[int, int]], now: float) -> bool:
    """Whether ``row`` may sit with everyone of ``group``."""
    for other in group:
        if row.account is not None and other.account is not None:
            if row.account == other.account or (row.account, other.account) in blocked \
                    or (other.account, row.account) in blocked:
                return False
            if row.rating is not None and other.rating is not None and \
                    abs(row.rating - other.rating) > window(now - min(row.created,
                                                                      other.created)):
                return False
    return True


class _Taken(Exception):
    """Another look claimed one of the group's waits first."""


def look(store: Store, seek_id: int, secret: str, now: float
         ) -> tuple[dict[str, Any], Group | None]:
    """Where the wait ``seek_id`` stands (its page asks every second or two): seated (the
    table and seat), still waiting (people found, seconds until bots take the rest), or
    ended. With a group: this look claimed it, and the caller opens its table
    (:func:`seated`, or :func:`unclaim` if it cannot)."""
    try:
        return _look(store, seek_id, secret, now)
    except _Taken as taken:
        return taken.args[0], None


def _look(store: Store, seek_id: int, secret: str, now: float
          ) -> tuple[dict[str, Any], Group | None]:
    with store.engine.begin() as conn:
        me = _mine(conn, seek_id, secret)
        if me.status == "matching" and me.seen < now - CLAIM_SECONDS:
            conn.execute(update(seeks_t).where(seeks_t.c.id == me.id, seeks_t.c.status ==
                                               "matching").values(status="waiting"))
            me = _mine(conn, seek_id, secret)
        if me.status == "seated":
            return {"status": "seated", "table": me.table_id, "seat": me.seat}, None
        if me.status == "cancelled":
            raise ProtocolError("wait_over", "this wait was cancelled (another page of "
                                             "yours may have taken it over)")
        seats = get_game(me.game).default_seats
        if me.status == "matching":  # another look is opening the table: ask again soon
            return {"status": "waiting", "found": seats, "seats": seats, "bots_in": 0.0}, None
        conn.execute(update(seeks_t).where(seeks_t.c.id == me.id).values(seen=now))
        others = conn.execute(select(seeks_t).where(
            seeks_t.c.game == me.game, seeks_t.c.preset == me.preset,
            seeks_t.c.status == "waiting", seeks_t.c.seen > now - STALE_SECONDS,
            seeks_t.c.id != me.id).order_by(seeks_t.c.created, seeks_t.c.id)).all()
        accounts = [r.account for r in [me, *others] if r.account is not None]
        blocked = blocks_between(conn, accounts)
        group = [me]
        for row in others:
            if len(group) == seats:
                break
            if _fits(row, group, blocked, now):
                group.append(row)
        first = min(r.created for r in group)
        bots_in = max(0.0, first + BOTS_AFTER - now)
        if len(group) < seats and bots_in > 0:
            return {"status": "waiting", "found": len(group), "seats": seats,
                    "bots_in": round(bots_in, 1)}, None
        group.sort(key=lambda r: (r.created, r.id))
        claimed = conn.execute(update(seeks_t).where(
            seeks_t.c.id.in_([r.id for r in group]), seeks_t.c.status == "waiting"
        ).values(status="matching", seen=now)).rowcount
        if claimed != len(group):  # another look took one of them meanwhile: undone
            raise _Taken({"status": "waiting", "found": len(group), "seats": seats,
                          "bots_in": round(bots_in, 1)})
        return {}, Group(me.game, json.loads(me.options), seats,
                         [(r.id, r.name, r.secret_hash, r.account) for r in group])


def seated(store: Store, group: Group, table_id: str) -> None:
    """The claimed waits of ``group`` end at ``table_id``, each at its seat."""
    with store.engine.begin() as conn:
        for seat, (seek_id, *_) in enumerate(group.people):
            conn.execute(update(seeks_t).where(seeks_t.c.id == seek_id).values(
                status="seated", table_id=table_id, seat=seat))


def unclaim(store: Store, group: Group) -> None:
    """The table of ``group`` could not be opened: its people wait again."""
    with store.engine.begin() as conn:
        conn.execute(update(seeks_t).where(
            seeks_t.c.id.in_([p[0] for p in group.people]), seeks_t.c.status == "matching"
        ).values(status="waiting"))


def cancel(store: Store, seek_id: int, secret: str, now: float) -> None:
    """Stop waiting (a wait already seated stays so: its table is open)."""
    with store.engine.begin() as conn:
        me = _mine(conn, seek_id, secret)
        if me.status == "seated":
            raise ProtocolError("wait_over", "you are seated already")
        conn.execute(update(seeks_t).where(seeks_t.c.id == me.id,
                                           seeks_t.c.status == "waiting")
                     .values(status="cancelled", seen=now))


def forget(conn: Connection, me: int) -> None:
    """A deleted account's waits go."""
    conn.execute(delete(seeks_t).where(seeks_t.c.account == me))

