"""The lobby: the games, their rules, the open tables, and opening a table."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.games import game_ids, get_game
from parlour.i18n import json_catalog, normalize
from parlour.server.deps import ClientDep, GuardDep, HubDep
from parlour.server.errors import RESPONSES
from parlour.server.identity import AccountDep
from parlour.server.pages import rules_html
from parlour.server.players import check_rated_play
from parlour.server.protocol import ProtocolError
from parlour.server.tables import describe_games

router = APIRouter(prefix="/api", responses=RESPONSES)

LISTED = 200  # tables the lobby list shows at most


class Body(BaseModel):
    """A request body: strict JSON types (a bool is not a number, "1" is not a seat) and
    no field the request does not take."""

    model_config = ConfigDict(strict=True, extra="forbid")


class SeatSpec(Body):
    kind: str = Field(max_length=10)
    bot: str | None = Field(default=None, max_length=40)


class CreateTable(Body):
    game: str = Field(max_length=40)
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict,
                                                                max_length=40)
    seats: list[SeatSpec] = Field(default_factory=list, max_length=16)
    name: str | None = Field(default=None, max_length=200)
    seat: int | None = None
    deal: int | None = None  # a deal number, for games dealt by number (Foursquare)
    public: bool | None = None  # listed in the lobby (default: unless a seat awaits a friend)
    turn_seconds: int | None = None  # the turn timer (default: the game's; 0: none)
    rated: bool = False  # its results change ratings (signed in; see parlour/server/ratings.py)


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    return describe_games()


@router.get("/games/{game_id}/rules")
async def rules(game_id: str) -> dict[str, Any]:
    if game_id not in game_ids():
        raise ProtocolError("not_found", "there is no game with that id")
    game = get_game(game_id)
    html = await asyncio.to_thread(rules_html, game)
    if html is None:
        raise ProtocolError("not_found", f"{game.name} has no rules page yet")
    return {"game": game.id, "name": game.name, "html": html}


@router.get("/i18n/{tag}")
async def language(tag: str) -> JSONResponse:
    """The browser's catalog for a language tag (``id``, ``pt-BR``, ``pt``), as plain JSON:
    see :func:`parlour.i18n.json_catalog`."""
    lang = normalize(tag) if len(tag) <= 35 else None
    if lang is None:
        raise ProtocolError("not_found", "Parlour does not speak that language")
    return JSONResponse(_catalog_json(lang), headers={"Cache-Control": "public, max-age=300"})


@cache
def _catalog_json(lang: str) -> dict[str, Any]:
    return json_catalog(lang)


@router.get("/tables")
async def tables(hub: HubDep) -> dict[str, Any]:
    return {"tables": [t.summary() for t in hub.open_tables()[:LISTED]]}


@router.post("/tables", status_code=201)
async def create(body: CreateTable, hub: HubDep, guard: GuardDep, client: ClientDep,
                 account: AccountDep) -> dict[str, Any]:
    guard.create(client)
    if body.rated:
        await check_rated_play(hub, account)
    table, seat, token = await hub.create(
        body.game.strip().lower(), dict(body.options),
        [s.model_dump() for s in body.seats], body.name, body.seat, body.deal,
        public=body.public, turn_seconds=body.turn_seconds, client=client,
        rated=body.rated, account_id=account.id if account is not None and body.rated
        else None)
    return {"table": table.summary(), "seat": seat, "token": token,
            "invite": f"/t/{table.id}"}
