"""People's play: profiles, leaderboards by rating, and the daily deals."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import Field

from parlour.games import game_ids, get_game
from parlour.i18n import render
from parlour.registry import spec
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.language import LanguageDep
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import daily
from parlour.server.people.accounts import guest_name
from parlour.server.people.identity import AccountDep
from parlour.server.people.players import leaderboard, profile
from parlour.server.people.ratings import LEADERBOARD_MIN
from parlour.server.routers.lobby import Body
from parlour.stats import daily_words

router = APIRouter(prefix="/api", responses=RESPONSES)

NameParam = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[^\x00]+$")]  # see Body
GameParam = Annotated[str, Path(min_length=1, max_length=40)]


class PlayDaily(Body):
    name: str | None = Field(default=None, max_length=200)  # a guest's name at the table


def _game(game_id: str) -> str:
    if game_id not in game_ids():
        raise ProtocolError("not_found", "there is no game with that id")
    return game_id


@router.get("/players/{name}")
async def player(name: NameParam, hub: HubDep) -> dict[str, Any]:
    """A person's profile: ratings and their history, figures per game, recent matches,
    their daily streak."""
    found = await asyncio.to_thread(profile, hub.store.engine, name, hub.settings.now())
    if found is None:
        raise ProtocolError("not_found", "there is nobody of that name here")
    return found


@router.get("/leaderboards/{game_id}")
async def board(game_id: GameParam, hub: HubDep,
                limit: Annotated[int, Query(ge=1, le=100)] = 50) -> dict[str, Any]:
    """The game's best rated people (at least LEADERBOARD_MIN rated matches)."""
    gid = _game(game_id)
    places = await asyncio.to_thread(leaderboard, hub.store.engine, gid, limit)
    return {"game": gid, "least": LEADERBOARD_MIN, "places": places,
            "rated_by": spec(gid).traits.rated_by}  # the page's column: rating or win rate


def _said(gid: str, entry: dict[str, Any] | None, lang: str) -> dict[str, Any] | None:
    """A daily entry with its result in words too (``said``: "1 penalty spade", not -1), in
    the reader's language; an unfinished try has none."""
    if entry is None or entry.get("result") is None:
        return entry
    return entry | {"said": render(daily_words(entry["result"], spec(gid).stats), lang)}


@router.get("/daily")
async def today(hub: HubDep, account: AccountDep, lang: LanguageDep) -> dict[str, Any]:
    """Today's daily deals (UTC): each game's, how many have played it, your try, and
    yesterday's best to replay."""
    now = hub.settings.now()
    day = daily.day_of(now)
    yesterday = daily.previous_day(day)
    engine = hub.store.engine
    mine = await asyncio.to_thread(daily.mine, engine, day, account.id) if account else {}
    played = await asyncio.to_thread(daily.players, engine, day)
    games = []
    for gid in game_ids():
        before = await asyncio.to_thread(daily.best, engine, yesterday, gid, now)
        games.append({"game": gid, "name": get_game(gid).name, "players": played.get(gid, 0),
                      "mine": _said(gid, mine.get(gid), lang),
                      "yesterday": _said(gid, before, lang)})
    return {"day": day, "yesterday": yesterday, "signed_in": account is not None,
            "games": games}


@router.post("/daily/{game_id}", status_code=201)
async def play_daily(game_id: GameParam, body: PlayDaily, hub: HubDep, guard: GuardDep,
                     client: ClientDep, account: AccountDep) -> dict[str, Any]:
    """Sit at today's deal of a game. A signed-in person's first try of the day, on an
    account made before the day began, deals the compared deal and is counted
    (``counted``); any other try (``why``: ``guest``, ``new_account``, ``tried``) plays a
    practice deal of its own, never the compared one (docs/players.md)."""
    gid = _game(game_id)
    await guard.take("create", client)
    now = hub.settings.now()
    day = daily.day_of(now)
    engine = hub.store.engine
    why = await asyncio.to_thread(daily.why_not_counted, engine, day, gid,
                                  account.id if account is not None else None)
    name = account.name if account is not None else body.name if body.name is None else \
        await asyncio.to_thread(guest_name, hub.store, body.name)
    account_id = account.id if account is not None else None
    if why is None and account is not None:
        table, seat, token = await hub.create(
            gid, dict(spec(gid).one_deal), daily.daily_seats()[gid], name, 0, None,
            public=False, client=client, daily=day, account_id=account_id)
        if not await asyncio.to_thread(daily.claim, engine, day, gid, account.id, table.id,
                                       now):
            # another try claimed the day meanwhile: this one must not see the deal
            await hub.close_table(table, "abandoned")
            raise ProtocolError("daily_once", "your counted try of today's deal has begun "
                                              "already: try again for a practice deal")
    else:  # a practice deal: the same seats and rules, cards of its own
        table, seat, token = await hub.create(
            gid, dict(spec(gid).one_deal), daily.daily_seats()[gid], name, 0, None,
            public=False, client=client, account_id=account_id)
    return {"table": table.summary(), "seat": seat, "token": token, "counted": why is None,
            "why": why, "invite": f"/t/{table.id}"}


@router.get("/daily/{game_id}/{day}")
async def day_board(game_id: GameParam, day: Annotated[str, Path(max_length=10)],
                    hub: HubDep, lang: LanguageDep) -> dict[str, Any]:
    """A day's daily leaderboard of a game (today's, or an earlier day's with its best
    result to replay)."""
    gid = _game(game_id)
    checked = daily.check_day(day)
    if checked is None:
        raise ProtocolError("not_found", "a day is written YYYY-MM-DD")
    board = await asyncio.to_thread(daily.board, hub.store.engine, checked, gid,
                                    hub.settings.now())
    board["places"] = [_said(gid, place, lang) for place in board["places"]]
    return board
