"""What the parlour remembers of signed-in people's play: each finished match's counts
(their statistics), their ratings and the ratings' history, and what a profile and a
leaderboard show of it.

The server calls :func:`op_finished` when a match ends and :func:`op_left` when a signed-in
person leaves a rated match before its end; both are database operations committed through
the store's writer, and both are idempotent (a match is written once per account). The
reading functions block: call them in a thread.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, and_, insert, select, update

from parlour.engine import JsonDict, State
from parlour.registry import spec
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import ratings as R
from parlour.server.people.account_names import name_key
from parlour.server.storage.store import (
    Op,
    accounts_t,
    daily_t,
    player_matches_t,
    puzzle_ratings_t,
    rating_history_t,
    ratings_t,
    reviews_t,
    seats_t,
    tables_t,
)
from parlour.stats import daily_result, figure_words, match_counts, summarise

if TYPE_CHECKING:
    from parlour.server.people.identity import Account
    from parlour.server.play.room import Room

RECENT = 20  # matches a profile lists
#: Rated play and accounts sharing an address (docs/players.md): a match whose winner's
#: account is this young (seconds) and shares an address with a seat it beat moves no
#: rating (lichess's farm-boost rule, which uses 7 days too).
NEW_ACCOUNT = 7 * 86_400.0
HISTORY = 200  # rating changes a profile's chart draws at most per game


@dataclass(frozen=True)
class SeatKind:
    kind: str  # person | bot
    bot: str | None


@dataclass(frozen=True)
class Finished:
    """A match just over, as the database needs it."""

    table_id: str
    match: int
    game_id: str
    seats: Sequence[SeatKind]
    rated: bool
    daily: str | None
    state: State


def _accounts_at(conn: Connection, table_id: str) -> dict[int, int]:
    """Seat -> account id of the signed-in people holding seats at the table."""
    rows = conn.execute(select(seats_t.c.seat, seats_t.c.account_id)
                        .where(seats_t.c.table_id == table_id,
                               seats_t.c.account_id.is_not(None)))
    return {int(seat): int(account) for seat, account in rows}


def _written(conn: Connection, table_id: str, match: int) -> set[int]:
    rows = conn.execute(select(player_matches_t.c.account_id)
                        .where(player_matches_t.c.table_id == table_id,
                               player_matches_t.c.match == match))
    return {int(r[0]) for r in rows}


def _rating(conn: Connection, account_id: int, game_id: str) -> R.Rating:
    row = conn.execute(select(ratings_t.c.mu, ratings_t.c.sigma)
                       .where(ratings_t.c.account_id == account_id,
                              ratings_t.c.game == game_id)).first()
    return R.Rating(row.mu, row.sigma) if row is not None else R.Rating()


def displayed_rating(conn: Connection, account_id: int, game_id: str) -> int:
    """The rating ``account_id`` is shown with in ``game_id`` (1500 for a newcomer)."""
    return _rating(conn, account_id, game_id).display


def _save_rating(conn: Connection, account_id: int, game_id: str, rating: R.Rating,
                 table_id: str, match: int, now: float) -> None:
    found = conn.execute(update(ratings_t).where(ratings_t.c.account_id == account_id,
                                                 ratings_t.c.game == game_id)
                         .values(mu=rating.mu, sigma=rating.sigma,
                                 matches=ratings_t.c.matches + 1, updated=now)).rowcount
    if not found:
        conn.execute(insert(ratings_t).values(account_id=account_id, game=game_id,
                                              mu=rating.mu, sigma=rating.sigma, matches=1,
                                              updated=now))
    conn.execute(insert(rating_history_t).values(account_id=account_id, game=game_id, at=now,
                                                 mu=rating.mu, sigma=rating.sigma,
                                                 table_id=table_id, match=match))


def _seat_ratings(conn: Connection, game_id: str, seats: Sequence[SeatKind],
                  accounts: dict[int, int], fixed: dict[int, R.Rating]) -> list[R.Rating]:
    """Each seat's rating going into the match: an account's own, a bot's fixed one, a
    guest's (or a left seat's stand-in) a newcomer's (rated, not kept)."""
    out = []
    for seat, info in enumerate(seats):
        if seat in fixed:
            out.append(fixed[seat])
        elif seat in accounts:
            out.append(_rating(conn, accounts[seat], game_id))
        elif info.kind == "bot":
            out.append(R.bot_rating(game_id, info.bot or "random") or R.Rating())
        else:
            out.append(R.Rating())
    return out


def shared_address(conn: Connection, table_id: str, placing: Sequence[int],
                   accounts: dict[int, int], now: float) -> bool:
    """Whether a winning account at most :data:`NEW_ACCOUNT` old took its seat from the
    same address as a person's seat it beat (the last client to take each seat, kept after
    it left): then the match is played, and kept, but moves no rating."""
    clients = {int(r.seat): r.client for r in conn.execute(
        select(seats_t.c.seat, seats_t.c.client).where(
            seats_t.c.table_id == table_id, seats_t.c.kind == "person",
            seats_t.c.client.is_not(None)))}
    made = dict(conn.execute(select(accounts_t.c.id, accounts_t.c.created)
                             .where(accounts_t.c.id.in_(list(accounts.values())))).all())
    for seat, account in accounts.items():
        mine = clients.get(seat)
        if placing[seat] != 1 or mine is None or now - float(made.get(account, 0.0)) \
                > NEW_ACCOUNT:
            continue
        if any(c == mine and placing[o] != placing[seat] for o, c in clients.items()):
            return True
    return False


def op_finished(f: Finished, now: float) -> Op:
    """Write the finished match for every signed-in person at it: their counts, their
    ratings if it was rated, their daily result if it was a daily deal."""
    outcome = f.state.outcome
    assert outcome is not None
    game_stats = spec(f.game_id).stats

    def op(conn: Connection) -> None:
        accounts = _accounts_at(conn, f.table_id)
        done = _written(conn, f.table_id, f.match)
        playing = {seat: acc for seat, acc in accounts.items() if acc not in done}
        rated = f.rated and not shared_address(conn, f.table_id, outcome.placing, accounts,
                                               now)
        for seat, account in playing.items():
            counts = match_counts(f.state, seat, game_stats)
            conn.execute(insert(player_matches_t).values(
                account_id=account, table_id=f.table_id, match=f.match, game=f.game_id,
                seat=seat, finished=now, rated=rated, abandoned=False,
                won=outcome.placing[seat] == 1, points=float(outcome.points[seat]),
                counts=json.dumps(counts)))
            if f.daily is not None:
                conn.execute(update(daily_t).where(
                    daily_t.c.day == f.daily, daily_t.c.game == f.game_id,
                    daily_t.c.account_id == account, daily_t.c.table_id == f.table_id,
                    daily_t.c.result.is_(None))
                    .values(result=daily_result(f.state, seat, game_stats), finished=now))
        if not rated or not playing:
            return
        if _by_win_rate(f.game_id):
            for account in playing.values():
                _win_rate(conn, account, f.game_id, f.table_id, f.match, now)
            return
        before = _seat_ratings(conn, f.game_id, f.seats, playing, {})
        after = R.rate_seats(f.game_id, before, outcome.placing)
        for seat, account in playing.items():
            _save_rating(conn, account, f.game_id, after[seat], f.table_id, f.match, now)
    return op


def _by_win_rate(game_id: str) -> bool:
    """Whether the game's players are measured by their win rate (a solitaire's trait), not
    rated against others; a game no longer registered is not."""
    try:
        return spec(game_id).traits.rated_by == "win-rate"
    except Exception:
        return False


def _win_rate(conn: Connection, account: int, game_id: str, table_id: str, match: int,
              now: float) -> None:
    """A solitaire's measure after a rated deal: the win rate and mean score (its figures'
    ``score`` count) of the recent rated deals, in their own columns."""
    rows = conn.execute(select(player_matches_t.c.won, player_matches_t.c.counts)
                        .where(player_matches_t.c.account_id == account,
                               player_matches_t.c.game == game_id,
                               player_matches_t.c.rated.is_(True))
                        .order_by(player_matches_t.c.finished.desc())
                        .limit(R.SOLITAIRE_RECENT))
    recent = [(bool(won), float(json.loads(counts or "{}").get("score", 0.0)))
              for won, counts in rows]
    win_rate, mean_score = R.win_rate_measure(recent)
    values = {"win_rate": win_rate, "mean_score": mean_score}
    found = conn.execute(update(ratings_t).where(ratings_t.c.account_id == account,
                                                 ratings_t.c.game == game_id)
                         .values(**values, matches=ratings_t.c.matches + 1,
                                 updated=now)).rowcount
    if not found:
        conn.execute(insert(ratings_t).values(account_id=account, game=game_id, **values,
                                              matches=1, updated=now))
    conn.execute(insert(rating_history_t).values(account_id=account, game=game_id, at=now,
                                                 **values, table_id=table_id, match=match))


def op_left(table_id: str, match: int, game_id: str, seats: Sequence[SeatKind], seat: int,
            account_id: int, now: float) -> Op:
    """A signed-in person left a rated match before its end: it counts as their loss, at
    once (their rating against the others' as they stand), and as a leave (the pause)."""
    def op(conn: Connection) -> None:
        if account_id in _written(conn, table_id, match):
            return
        conn.execute(insert(player_matches_t).values(
            account_id=account_id, table_id=table_id, match=match, game=game_id, seat=seat,
            finished=now, rated=True, abandoned=True, won=False, points=None, counts=None))
        if _by_win_rate(game_id):
            _win_rate(conn, account_id, game_id, table_id, match, now)
            return
        accounts = _accounts_at(conn, table_id)
        accounts[seat] = account_id
        before = _seat_ratings(conn, game_id, seats, accounts, {})
        after = R.rate_seats(game_id, before, R.loss_placing(game_id, len(seats), seat))
        _save_rating(conn, account_id, game_id, after[seat], table_id, match, now)
    return op


def op_forfeit(table_id: str, match: int, game_id: str, seats: Sequence[SeatKind],
               seat: int, absent: int | None, now: float) -> Op:
    """A rated match forfeited by ``seat``, away past the limit (held by the account
    ``absent``, if it was a signed-in person's; it may have left the seat already): its
    side loses and every other side wins, for every signed-in person at it, rated from the
    ratings as they stand (a row written already, the leaver's own, is not written again)."""
    placing = R.loss_placing(game_id, len(seats), seat)

    def op(conn: Connection) -> None:
        accounts = _accounts_at(conn, table_id)
        if absent is not None:
            accounts[seat] = absent
        done = _written(conn, table_id, match)
        playing = {s: a for s, a in accounts.items() if a not in done}
        rated = not shared_address(conn, table_id, placing, accounts, now)
        for s, account in playing.items():
            conn.execute(insert(player_matches_t).values(
                account_id=account, table_id=table_id, match=match, game=game_id, seat=s,
                finished=now, rated=rated, abandoned=s == seat, won=placing[s] == 1,
                points=None, counts=None))
        if _by_win_rate(game_id) or not playing or not rated:
            return
        before = _seat_ratings(conn, game_id, seats, accounts, {})
        after = R.rate_seats(game_id, before, placing)
        for s, account in playing.items():
            _save_rating(conn, account, game_id, after[s], table_id, match, now)
    return op


def leaves(conn: Connection, account_id: int) -> list[float]:
    """When the person left rated matches (the latest 50: more than any pause counts)."""
    rows = conn.execute(select(player_matches_t.c.finished)
                        .where(player_matches_t.c.account_id == account_id,
                               player_matches_t.c.abandoned.is_(True))
                        .order_by(player_matches_t.c.finished.desc()).limit(50))
    return [float(r[0]) for r in rows]


def rated_pause(engine: Engine, account_id: int, now: float) -> float | None:
    """Until when the person may not play rated matches (None: they may)."""
    with engine.connect() as conn:
        return R.pause_for(leaves(conn, account_id), now)


def export_play(conn: Connection, account_id: int, now: float) -> JsonDict:
    """What "export my data" holds of the person's play (``accounts.export``): every match
    written for them with its counts (their statistics), their ratings and every change of
    them, their daily tries, the reviews stored of their play in those matches, and their pause
    from rated play."""
    pm = player_matches_t
    matches = [{"game": r.game, "table": r.table_id, "match": r.match, "seat": r.seat,
                "finished": r.finished, "rated": bool(r.rated),
                "abandoned": bool(r.abandoned), "won": bool(r.won), "points": r.points,
                "counts": json.loads(r.counts) if r.counts else None}
               for r in conn.execute(select(pm).where(pm.c.account_id == account_id)
                                     .order_by(pm.c.finished))]
    ratings = [{"game": r.game, "mu": r.mu, "sigma": r.sigma, "win_rate": r.win_rate,
                "mean_score": r.mean_score, "matches": r.matches, "updated": r.updated}
               for r in conn.execute(select(ratings_t)
                                     .where(ratings_t.c.account_id == account_id)
                                     .order_by(ratings_t.c.game))]
    rh = rating_history_t
    history = [{"game": r.game, "at": r.at, "mu": r.mu, "sigma": r.sigma,
                "win_rate": r.win_rate, "mean_score": r.mean_score,
                "table": r.table_id, "match": r.match}
               for r in conn.execute(select(rh).where(rh.c.account_id == account_id)
                                     .order_by(rh.c.at, rh.c.id))]
    tries = [{"day": r.day, "game": r.game, "table": r.table_id, "started": r.started,
              "result": r.result, "finished": r.finished}
             for r in conn.execute(select(daily_t).where(daily_t.c.account_id == account_id)
                                   .order_by(daily_t.c.day, daily_t.c.game))]
    reviews = [{"table": r.table_id, "match": r.match, "seat": r.seat, "created": r.created,
                "review": f"/api/tables/{r.table_id}/matches/{r.match}/review?seat={r.seat}"}
               for r in conn.execute(
                   select(reviews_t.c.table_id, reviews_t.c.match, reviews_t.c.seat,
                          reviews_t.c.created)
                   .join(pm, and_(pm.c.table_id == reviews_t.c.table_id,
                                  pm.c.match == reviews_t.c.match,
                                  pm.c.seat == reviews_t.c.seat))
                   .where(pm.c.account_id == account_id)
                   .order_by(reviews_t.c.created))]
    left = leaves(conn, account_id)
    return {"matches": matches, "ratings": ratings, "rating_history": history,
            "daily": tries, "reviews": reviews,
            "rated_pause": {"left_rated_matches": sorted(left),
                            "until": R.pause_for(left, now)}}


# ----------------------------------------------------------------------------- reading
def find_account(conn: Connection, name: str) -> Any:
    """The live account with this name, found by its key (any case, any look-alike
    spelling: :func:`parlour.server.people.account_names.name_key`), or None."""
    return conn.execute(select(accounts_t.c.id, accounts_t.c.name)
                        .where(accounts_t.c.name_key == name_key(name),
                               accounts_t.c.deleted.is_(None))).first()


def rating_json(row: Any) -> JsonDict:
    """A person's standing in a game from its row: a win rate and mean score where the game
    is measured so (a solitaire), else the rating."""
    if row.win_rate is not None:
        return {"win_rate": row.win_rate, "mean_score": row.mean_score, "matches": row.matches}
    mu, sigma, matches = row.mu, row.sigma, row.matches
    rating = R.Rating(mu, sigma)
    return {"rating": rating.display, "mu": round(mu, 3), "sigma": round(sigma, 3),
            "matches": matches}


def profile(engine: Engine, name: str, now: float) -> JsonDict | None:
    """A person's profile: per game their rating, its history and their figures; their
    recent matches (with the replay each links to); their daily streak."""
    with engine.connect() as conn:
        account = find_account(conn, name)
        if account is None:
            return None
        games: dict[str, JsonDict] = {}
        rows = conn.execute(select(player_matches_t.c.game, player_matches_t.c.counts)
                            .where(player_matches_t.c.account_id == account.id,
                                   player_matches_t.c.abandoned.is_(False)))
        counts: dict[str, list[dict[str, float]]] = {}
        for game, text in rows:
            counts.setdefault(game, []).append(json.loads(text or "{}"))
        for game, found in counts.items():
            games[game] = {"figures": summarise(found, _stats(game)),
                           "figure_words": figure_words(_stats(game)), "rating": None,
                           "history": []}
        for r in conn.execute(select(ratings_t).where(ratings_t.c.account_id == account.id)):
            entry = games.setdefault(r.game, {"figures": summarise([], _stats(r.game)),
                                              "figure_words": figure_words(_stats(r.game)),
                                              "history": []})
            entry["rating"] = rating_json(r)
        for game, entry in games.items():
            hist = conn.execute(select(rating_history_t.c.at, rating_history_t.c.mu,
                                       rating_history_t.c.sigma, rating_history_t.c.win_rate)
                                .where(rating_history_t.c.account_id == account.id,
                                       rating_history_t.c.game == game)
                                .order_by(rating_history_t.c.at.desc(),
                                          rating_history_t.c.id.desc()).limit(HISTORY))
            entry["history"] = [
                {"at": at, "value": win if win is not None else R.Rating(mu, sg).display}
                for at, mu, sg, win in reversed(list(hist))]
        recent = conn.execute(select(player_matches_t, tables_t.c.daily)
                              .join(tables_t, tables_t.c.id == player_matches_t.c.table_id,
                                    isouter=True)
                              .where(player_matches_t.c.account_id == account.id)
                              .order_by(player_matches_t.c.finished.desc()).limit(RECENT))
        today = datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()
        matches = [{"game": r.game, "table": r.table_id, "match": r.match, "seat": r.seat,
                    "finished": r.finished, "rated": bool(r.rated),
                    "abandoned": bool(r.abandoned), "won": bool(r.won), "points": r.points,
                    "daily": r.daily,
                    # a daily deal's replay opens when its day is over (daily.py)
                    "replay": not r.abandoned and (r.daily is None or r.daily < today)}
                   for r in recent]
        days = [r[0] for r in conn.execute(
            select(daily_t.c.day).where(daily_t.c.account_id == account.id,
                                        daily_t.c.result.is_not(None))
            .distinct().order_by(daily_t.c.day.desc()).limit(400))]
        solving = conn.execute(select(puzzle_ratings_t).where(
            puzzle_ratings_t.c.account_id == account.id)).first()
    return {"name": account.name, "games": games, "recent": matches,
            "streak": streak(days, now),
            # their puzzle rating (people/puzzles.py), once they have tried a puzzle
            "puzzles": None if solving is None else {
                "rating": R.puzzle_display(solving.mu), "tries": solving.tries,
                "solved": solving.solved}}


def streak(days: Sequence[str], now: float) -> int:
    """Days in a row with a finished daily deal, ending today or yesterday (UTC)."""
    have = set(days)
    day = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    if day.isoformat() not in have:
        day -= datetime.timedelta(days=1)
    count = 0
    while day.isoformat() in have:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


def leaderboard(engine: Engine, game_id: str, limit: int = 50,
                least: int = R.LEADERBOARD_MIN) -> list[JsonDict]:
    """The people with at least ``least`` rated matches of the game, best first (by the
    conservative rating mu - 3 sigma; a solitaire by win rate, then mean score)."""
    order = ([ratings_t.c.win_rate.desc(), ratings_t.c.mean_score.desc()]
             if _by_win_rate(game_id) else [(ratings_t.c.mu - 3 * ratings_t.c.sigma).desc()])
    with engine.connect() as conn:
        rows = conn.execute(
            select(accounts_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.win_rate,
                   ratings_t.c.mean_score, ratings_t.c.matches)
            .join(accounts_t, and_(accounts_t.c.id == ratings_t.c.account_id,
                                   accounts_t.c.deleted.is_(None),
                                   accounts_t.c.banned.is_(None)))
            .where(ratings_t.c.game == game_id, ratings_t.c.matches >= least)
            .order_by(*order, accounts_t.c.name).limit(limit))
        return [{"rank": i + 1, "name": r.name,
                 **rating_json(r)}
                for i, r in enumerate(rows)]


def _stats(game_id: str) -> Any:
    try:
        return spec(game_id).stats
    except Exception:  # a game no longer registered: only the common figures
        return None


def seat_account(engine: Engine, table_id: str, seat: int) -> int | None:
    """The account holding ``seat`` at the table, if a signed-in person does."""
    with engine.connect() as conn:
        row = conn.execute(select(seats_t.c.account_id).where(
            seats_t.c.table_id == table_id, seats_t.c.seat == seat)).first()
        return None if row is None or row[0] is None else int(row[0])


async def check_rated_play(hub: Room, account: Account | None) -> None:
    """A person may sit at a rated table: signed in, and not paused for leaving."""
    if account is None:
        raise ProtocolError("sign_in", "sign in to play rated matches")
    now = hub.settings.now()
    until = await asyncio.to_thread(rated_pause, hub.store.engine, account.id, now)
    if until is not None:
        minutes = max(1, math.ceil((until - now) / 60))
        raise ProtocolError("paused", "you left rated matches before their end: rated play "
                                      "opens again for you in {minutes} min", minutes=minutes)
