"""The lobby: the games, their rules, the open tables, and opening a table."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, StrictBool, StrictInt

from parlour.games import game_ids, get_game
from parlour.server.deps import HubDep
from parlour.server.pages import rules_html
from parlour.server.protocol import ProtocolError
from parlour.server.tables import describe_games

router = APIRouter(prefix="/api")

LISTED = 200  # tables the lobby list shows at most


class SeatSpec(BaseModel):
    kind: str = Field(max_length=10)
    bot: str | None = Field(default=None, max_length=40)


class CreateTable(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, str | int | float | bool | None] = Field(default_factory=dict,
                                                                max_length=40)
    seats: list[SeatSpec] = Field(default_factory=list, max_length=16)
    name: str | None = Field(default=None, max_length=200)
    seat: int | None = None
    deal: int | None = None  # a deal number, for games dealt by number (Foursquare)
    public: StrictBool | None = None  # listed in the lobby (default: unless a seat awaits a friend)
    turn_seconds: StrictInt | None = None  # the turn timer (default: the game's; 0: none)


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


@router.get("/tables")
async def tables(hub: HubDep) -> dict[str, Any]:
    return {"tables": [t.summary() for t in hub.open_tables()[:LISTED]]}


@router.post("/tables", status_code=201)
async def create(body: CreateTable, hub: HubDep, request: Request) -> dict[str, Any]:
    table, seat, token = await hub.create(
        body.game.strip().lower(), dict(body.options),
        [s.model_dump() for s in body.seats], body.name, body.seat, body.deal,
        public=body.public, turn_seconds=body.turn_seconds,
        client=request.client.host if request.client else None)
    return {"table": table.summary(), "seat": seat, "token": token,
            "invite": f"/t/{table.id}"}
