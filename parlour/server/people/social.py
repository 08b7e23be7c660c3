"""Friends and blocks (issue 34, item 2): following a player, two people following each
other being friends, blocking, and the choice to be shown online to people who are not
one's friends.

What is stored (migration 0014): a row of ``parlour_follows`` per person followed, one of
``parlour_blocks`` per person blocked, and ``parlour_accounts.show_online``. Blocking ends
the follows both ways (as lichess does), so the two are no longer friends and neither can
follow the other again while the block stands; the one blocked is told only "you cannot
follow this player", never that a block exists. A block also hides the blocked person's
table talk from the blocker (:func:`parlour.server.people.accounts.muted_by`), refuses
their challenges (:mod:`parlour.server.people.challenges`: only friends challenge), and
:func:`blocks_among` is what a seating that chooses (quick play) asks so as never to seat
the two together.

Who sees whom online (:func:`room_of`): friends always see each other, with the tables
they sit at (waiting or playing; never a daily deal's); anybody else sees a person online
only if that person lets them (``show_online``, on by default). Functions here block (the
database): the router runs them in a thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, or_, select, update

from parlour.games import game_ids, get_game
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.account_names import name_key
from parlour.server.storage.store import (
    Store,
    accounts_t,
    blocks_t,
    challenges_t,
    follows_t,
    presence_t,
    seats_t,
    tables_t,
)

PRESENCE_TTL = 60.0  # seconds a presence row counts after its process last renewed it
FOLLOWING_MOST = 500  # people one account may follow
LIVE = ("waiting", "playing")  # the statuses of a table a person is "at"


def account_named(conn: Connection, name: str) -> Any:
    """The live account called ``name`` (case and look-alikes folded), or ``not_found``."""
    key = name_key(name)[:160]
    row = conn.execute(select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.show_online)
                       .where(accounts_t.c.name_key == key, accounts_t.c.deleted.is_(None),
                              accounts_t.c.banned.is_(None))).first()
    if row is None:
        raise ProtocolError("not_found", "there is no player named {name}", name=repr(name))
    return row


def _other(conn: Connection, me: int, name: str) -> Any:
    row = account_named(conn, name)
    if row.id == me:
        raise ProtocolError("bad_request", "that is you")
    return row


def _blocked(conn: Connection, blocker: int, blocked: int) -> bool:
    return conn.execute(select(blocks_t.c.blocker).where(
        blocks_t.c.blocker == blocker, blocks_t.c.blocked == blocked)).first() is not None


def _follows(conn: Connection, follower: int, followed: int) -> bool:
    return conn.execute(select(follows_t.c.follower).where(
        follows_t.c.follower == follower, follows_t.c.followed == followed)).first() is not None


def either_blocked(conn: Connection, a: int, b: int) -> bool:
    """Whether ``a`` blocked ``b`` or ``b`` blocked ``a``."""
    return _blocked(conn, a, b) or _blocked(conn, b, a)


def friends(conn: Connection, a: int, b: int) -> bool:
    return _follows(conn, a, b) and _follows(conn, b, a)


def relation(conn: Connection, me: int, other: int) -> dict[str, bool]:
    """How ``me`` stands to ``other``: following, followed by, friends, blocking."""
    following, follows_me = _follows(conn, me, other), _follows(conn, other, me)
    return {"following": following, "follows_you": follows_me,
            "friends": following and follows_me, "blocking": _blocked(conn, me, other)}


def follow(store: Store, me: int, name: str, on: bool, now: float) -> tuple[int, dict[str, bool]]:
    """Follow (``on``) or unfollow the player ``name``; their account id and how ``me``
    stands to them now."""
    with store.engine.begin() as conn:
        other = _other(conn, me, name)
        conn.execute(delete(follows_t).where(follows_t.c.follower == me,
                                             follows_t.c.followed == other.id))
        if on:
            if either_blocked(conn, me, other.id):
                raise ProtocolError("blocked", "you cannot follow this player")
            count = len(conn.execute(select(follows_t.c.followed)
                                     .where(follows_t.c.follower == me)).all())
            if count >= FOLLOWING_MOST:
                raise ProtocolError("too_many", "you follow {n} players already: unfollow "
                                                "some first", n=FOLLOWING_MOST)
            conn.execute(insert(follows_t).values(follower=me, followed=other.id, created=now))
        return other.id, relation(conn, me, other.id)


def block(store: Store, me: int, name: str, on: bool, now: float) -> tuple[int, dict[str, bool]]:
    """Block (``on``) or unblock the player ``name``: a block ends the follows both ways
    and withdraws the challenges open between the two."""
    with store.engine.begin() as conn:
        other = _other(conn, me, name)
        conn.execute(delete(blocks_t).where(blocks_t.c.blocker == me,
                                            blocks_t.c.blocked == other.id))
        if on:
            conn.execute(insert(blocks_t).values(blocker=me, blocked=other.id, created=now))
            conn.execute(delete(follows_t).where(or_(
                and_(follows_t.c.follower == me, follows_t.c.followed == other.id),
                and_(follows_t.c.follower == other.id, follows_t.c.followed == me))))
            conn.execute(update(challenges_t).where(  # no challenge stays open between them
                challenges_t.c.status == "open", or_(
                    and_(challenges_t.c.challenger == me,
                         challenges_t.c.challenged == other.id),
                    and_(challenges_t.c.challenger == other.id,
                         challenges_t.c.challenged == me))
            ).values(status="cancelled", answered=now))
        return other.id, relation(conn, me, other.id)


def show_online(store: Store, me: int, on: bool) -> None:
    """Whether people who are not ``me``'s friends see ``me`` online."""
    with store.engine.begin() as conn:
        conn.execute(update(accounts_t).where(accounts_t.c.id == me).values(show_online=on))


def blocks_among(store: Store, accounts: Iterable[int]) -> set[tuple[int, int]]:
    """The blocks between any two of ``accounts`` (blocker, blocked): a seating that
    chooses who sits together (quick play) seats nobody with someone in a pair."""
    with store.engine.connect() as conn:
        return blocks_between(conn, accounts)


def blocks_between(conn: Connection, accounts: Iterable[int]) -> set[tuple[int, int]]:
    """:func:`blocks_among`, on a connection the caller holds."""
    ids = sorted(set(accounts))
    if len(ids) < 2:
        return set()
    rows = conn.execute(select(blocks_t.c.blocker, blocks_t.c.blocked).where(
        blocks_t.c.blocker.in_(ids), blocks_t.c.blocked.in_(ids))).all()
    return {(r.blocker, r.blocked) for r in rows}


# ---------------------------------------------------------------------- who is online
def online_ids(conn: Connection, ids: Iterable[int], now: float) -> set[int]:
    """Which of ``ids`` have a page of the parlour open (a live presence row)."""
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    rows = conn.execute(select(presence_t.c.account_id).where(
        presence_t.c.account_id.in_(wanted), presence_t.c.seen > now - PRESENCE_TTL)).all()
    return {r.account_id for r in rows}


def tables_of(conn: Connection, ids: Iterable[int], now: float
              ) -> dict[int, list[dict[str, Any]]]:
    """The live tables each of ``ids`` sits at (newest first; never a daily deal's), then
    those a page of theirs watches (``watching``; its presence row live at ``now``), with
    whether a seat there is free to take (at a table the lobby lists: a private table's
    free seat waits for the person its invite went to, so friends may watch it only)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = conn.execute(
        select(seats_t.c.account_id, tables_t.c.id, tables_t.c.game, tables_t.c.status,
               tables_t.c.created, tables_t.c.listed)
        .join(tables_t, tables_t.c.id == seats_t.c.table_id)
        .where(seats_t.c.account_id.in_(wanted), tables_t.c.status.in_(LIVE),
               tables_t.c.daily.is_(None))
        .order_by(tables_t.c.created.desc())).all()
    watching = conn.execute(  # and the tables they watch (a page of theirs, as a spectator)
        select(presence_t.c.account_id, tables_t.c.id, tables_t.c.game, tables_t.c.status)
        .join(tables_t, tables_t.c.id == presence_t.c.watching)
        .where(presence_t.c.account_id.in_(wanted), tables_t.c.status.in_(LIVE),
               presence_t.c.seen > now - PRESENCE_TTL, tables_t.c.daily.is_(None))).all()
    table_ids = sorted({r.id for r in rows})
    free: set[str] = set()
    if table_ids:
        free = {r.table_id for r in conn.execute(select(seats_t.c.table_id).where(
            seats_t.c.table_id.in_(table_ids), seats_t.c.kind == "person",
            seats_t.c.token_hash.is_(None)))}
    found: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        found.setdefault(r.account_id, []).append(
            {"id": r.id, "game": r.game, "game_name": _game_name(r.game), "status": r.status,
             "free_seat": r.status == "waiting" and bool(r.listed) and r.id in free})
    for w in watching:
        if all(t["id"] != w.id for t in found.get(w.account_id, [])):
            found.setdefault(w.account_id, []).append(
                {"id": w.id, "game": w.game, "game_name": _game_name(w.game),
                 "status": w.status, "free_seat": False, "watching": True})
    return found


def _game_name(game_id: str) -> str:
    return get_game(game_id).name if game_id in game_ids() else game_id


def _names(conn: Connection, ids: Iterable[int]) -> dict[int, Any]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    return {r.id: r for r in conn.execute(
        select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.show_online)
        .where(accounts_t.c.id.in_(wanted), accounts_t.c.deleted.is_(None),
               accounts_t.c.banned.is_(None)))}


def room_of(conn: Connection, me: int, now: float) -> dict[str, Any]:
    """``me``'s people: friends (online or not, at which tables), the players ``me``
    follows who do not follow back (online only if they show it), how many follow ``me``,
    whom ``me`` blocks, and ``me``'s own setting."""
    following = {r.followed for r in conn.execute(
        select(follows_t.c.followed).where(follows_t.c.follower == me))}
    followers = {r.follower for r in conn.execute(
        select(follows_t.c.follower).where(follows_t.c.followed == me))}
    blocked = {r.blocked for r in conn.execute(
        select(blocks_t.c.blocked).where(blocks_t.c.blocker == me))}
    mutual = following & followers
    names = _names(conn, following | blocked)
    online = online_ids(conn, following, now)
    tables = tables_of(conn, mutual & online, now)
    mine = conn.execute(select(accounts_t.c.show_online).where(accounts_t.c.id == me)).first()

    def person(i: int) -> dict[str, Any]:
        shown = i in mutual or bool(names[i].show_online)
        return {"name": names[i].name, "online": (i in online) if shown else None,
                "tables": tables.get(i, []) if i in mutual else []}

    by_name = lambda ids: sorted((i for i in ids if i in names),  # noqa: E731
                                 key=lambda i: str(names[i].name).casefold())
    friend_list = [person(i) for i in by_name(mutual)]
    friend_list.sort(key=lambda f: not f["online"])  # online first, each part by name
    return {"friends": friend_list,
            "following": [person(i) for i in by_name(following - mutual)],
            "followers": len(followers - mutual),
            "blocked": [names[i].name for i in by_name(blocked)],
            "show_online": True if mine is None else bool(mine.show_online)}


def profile_relation(store: Store, viewer: int | None, name: str, now: float
                     ) -> dict[str, Any]:
    """What a profile page shows of ``name`` to ``viewer`` (None: a guest): whether they
    are online (when they let the viewer see it) and how the viewer stands to them."""
    with store.engine.connect() as conn:
        other = account_named(conn, name)
        rel = relation(conn, viewer, other.id) if viewer is not None and viewer != other.id \
            else None
        shown = bool(other.show_online) or (rel is not None and rel["friends"])
        online = (other.id in online_ids(conn, [other.id], now)) if shown else None
        return {"name": other.name, "online": online, "you": viewer == other.id,
                "relation": rel}


def followers_of(conn: Connection, me: int) -> list[int]:
    """Who follows ``me`` (told when ``me`` comes or goes)."""
    return [r.follower for r in conn.execute(
        select(follows_t.c.follower).where(follows_t.c.followed == me))]


def export_social(conn: Connection, me: int) -> dict[str, Any]:
    """What the account export holds of this: whom it follows and blocks (by id: names
    change), and its setting."""
    return {
        "following": [{"account": r.followed, "created": r.created} for r in conn.execute(
            select(follows_t).where(follows_t.c.follower == me))],
        "blocking": [{"account": r.blocked, "created": r.created} for r in conn.execute(
            select(blocks_t).where(blocks_t.c.blocker == me))],
    }


def forget(conn: Connection, me: int) -> None:
    """A deleted account's follows, blocks and presence go, both ways."""
    conn.execute(delete(follows_t).where(or_(follows_t.c.follower == me,
                                             follows_t.c.followed == me)))
    conn.execute(delete(blocks_t).where(or_(blocks_t.c.blocker == me,
                                            blocks_t.c.blocked == me)))
    conn.execute(delete(presence_t).where(presence_t.c.account_id == me))
