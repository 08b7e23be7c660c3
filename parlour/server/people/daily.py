"""Daily deals: every game has one deal (or round) a day, the same cards for everyone.

The day is the UTC date. A daily deal's seed comes from the server's secret deal key and
the day (:func:`daily_seed`), in its own namespace: no deal number reaches it, so nobody
can deal today's cards at another table. Its table has fixed seats (the person and
:data:`DAILY_BOT` bots), the game's one-deal options (``spec(game).one_deal``), no hints,
and no spectators or records until the day is over (:func:`day_over`).

Only the counted try deals the day's deal (the *compared* deal): a signed-in person's
first try of a game that day, if the account was made before the day began (a row of
``parlour_daily``, claimed when the table opens, so abandoning a bad start does not buy
another try). Everyone else (guests, another try, an account made that day) plays a
practice deal of its own (:func:`why_not_counted`): nobody sees the compared deal's cards
before their counted try. The bots' seeds at a compared deal are the try's table's own
too (their chance choices do not repeat another try's). Results compare duplicate-style:
everyone's result on the same cards, higher is better
(:func:`parlour.stats.daily_result`), and each person's share of the others they beat.
docs/players.md has the whole design.
"""

from __future__ import annotations

import datetime
from bisect import bisect_left, bisect_right
from typing import Any

from sqlalchemy import ColumnElement, Engine, and_, exc, func, insert, select

from parlour.engine import JsonDict, derive_seed
from parlour.registry import game_ids, spec
from parlour.server.storage.store import Op, accounts_t, daily_t

DAILY_BOT = "rule"  # the level of the fixed bot seats
BOARD = 100  # places a daily leaderboard lists


def day_of(now: float) -> str:
    """The UTC day of the time ``now`` (Unix seconds), as YYYY-MM-DD."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()


def previous_day(day: str) -> str:
    return (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()


def day_over(day: str, now: float) -> bool:
    """Whether the UTC day ``day`` has ended at ``now``."""
    return day < day_of(now)


def day_start(day: str) -> float:
    """The moment the UTC day ``day`` began (Unix seconds)."""
    return datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.UTC).timestamp()


def why_not_counted(engine: Engine, day: str, game_id: str, account_id: int | None
                    ) -> str | None:
    """Why a try of ``game_id``'s deal of ``day`` would not be the counted one (it is then
    a practice deal): ``guest``, ``new_account`` (made during the day: it may have seen the
    deal on another account or as a guest), ``tried`` (the day's counted try is taken);
    None for the counted try."""
    if account_id is None:
        return "guest"
    with engine.connect() as conn:
        created = conn.scalar(select(accounts_t.c.created).where(accounts_t.c.id == account_id))
        if created is None or float(created) >= day_start(day):
            return "new_account"
        tried = conn.execute(select(daily_t.c.table_id).where(
            daily_t.c.day == day, daily_t.c.game == game_id,
            daily_t.c.account_id == account_id)).first()
    return "tried" if tried is not None else None


def check_day(text: str) -> str | None:
    """A YYYY-MM-DD day, or None for anything else."""
    try:
        return datetime.date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None


def daily_seed(key: str, game_id: str, day: str) -> int:
    """The seed of ``game_id``'s daily deal on ``day``, on the server whose key is ``key``."""
    return derive_seed(key, "daily", game_id, day)


def daily_seats() -> dict[str, list[dict[str, Any]]]:
    """The seats of each game's daily deal (its spec's ``daily_seats``): the person first,
    then bots."""
    return {game: [{"kind": "person"}] + [{"kind": "bot", "bot": DAILY_BOT}] * (n - 1)
            for game in game_ids() if (n := spec(game).daily_seats)}


def op_claim(day: str, game_id: str, account_id: int, table_id: str, now: float) -> Op:
    """The person's counted try of the day's deal (raises IntegrityError if they have one:
    the store's writer reports it as a failed write)."""
    def op(conn: Any) -> None:
        conn.execute(insert(daily_t).values(day=day, game=game_id, account_id=account_id,
                                            table_id=table_id, started=now))
    return op


def has_try(engine: Engine, day: str, game_id: str, account_id: int) -> bool:
    with engine.connect() as conn:
        return conn.execute(select(daily_t.c.table_id).where(
            daily_t.c.day == day, daily_t.c.game == game_id,
            daily_t.c.account_id == account_id)).first() is not None


def claim(engine: Engine, day: str, game_id: str, account_id: int, table_id: str,
          now: float) -> bool:
    """Claim the counted try; False if the person had one already (checked by the key)."""
    try:
        with engine.begin() as conn:
            op_claim(day, game_id, account_id, table_id, now)(conn)
        return True
    except exc.IntegrityError:
        return False


_JOINED = daily_t.join(accounts_t, accounts_t.c.id == daily_t.c.account_id)
#: The order of a daily leaderboard: best result first, then the earlier finish.
_BEST_FIRST = (daily_t.c.result.desc(), daily_t.c.finished, accounts_t.c.name)


def _counted(day: str, game_id: str | None = None) -> ColumnElement[bool]:
    """The finished counted tries of ``day`` (of one game, or of every game), by live
    accounts."""
    where = [daily_t.c.day == day, daily_t.c.result.is_not(None),
             accounts_t.c.deleted.is_(None)]
    if game_id is not None:
        where.append(daily_t.c.game == game_id)
    return and_(*where)


def _replay(row: Any) -> JsonDict:
    return {"table": row.table_id, "match": 1, "result": row.result}


def board(engine: Engine, day: str, game_id: str, now: float) -> JsonDict:
    """The day's leaderboard of a game: the finished counted tries, best first (the first
    :data:`BOARD`), each with its share of the others beaten; for a day that is over, where
    to replay the best."""
    with engine.connect() as conn:
        results = sorted(float(r) for r in conn.execute(
            select(daily_t.c.result).select_from(_JOINED).where(_counted(day, game_id)))
            .scalars())
        rows = list(conn.execute(
            select(accounts_t.c.name, daily_t.c.result, daily_t.c.table_id)
            .select_from(_JOINED).where(_counted(day, game_id)).order_by(*_BEST_FIRST)
            .limit(BOARD)))
    total = len(results)
    places = []
    for r in rows:
        below = bisect_left(results, r.result)
        above = total - bisect_right(results, r.result)
        beaten = below + 0.5 * (total - below - above - 1)  # ties count half
        # the share of the others beaten; None while nobody else has played it
        places.append({"rank": 1 + above, "name": r.name, "result": r.result,
                       "beat": round(beaten / (total - 1), 4) if total > 1 else None})
    best = _replay(rows[0]) if day_over(day, now) and rows else None
    return {"game": game_id, "day": day, "over": day_over(day, now), "players": total,
            "places": places, "best": best}


def players(engine: Engine, day: str) -> dict[str, int]:
    """How many people have a finished counted try of each game on ``day``."""
    with engine.connect() as conn:
        rows = conn.execute(select(daily_t.c.game, func.count()).select_from(_JOINED)
                            .where(_counted(day)).group_by(daily_t.c.game))
        return {game: int(count) for game, count in rows}


def best(engine: Engine, day: str, game_id: str, now: float) -> JsonDict | None:
    """Where to replay the day's best try of a game, once the day is over (else None)."""
    if not day_over(day, now):
        return None
    with engine.connect() as conn:
        row = conn.execute(select(daily_t.c.result, daily_t.c.table_id).select_from(_JOINED)
                           .where(_counted(day, game_id)).order_by(*_BEST_FIRST)
                           .limit(1)).first()
    return None if row is None else _replay(row)


def mine(engine: Engine, day: str, account_id: int) -> dict[str, JsonDict]:
    """The person's tries on ``day``, by game."""
    with engine.connect() as conn:
        rows = conn.execute(select(daily_t.c.game, daily_t.c.table_id, daily_t.c.result)
                            .where(daily_t.c.day == day, daily_t.c.account_id == account_id))
        return {r.game: {"table": r.table_id, "result": r.result} for r in rows}

