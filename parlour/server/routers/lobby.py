"""The lobby: the games, their rules, the open tables, and opening a table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from parlour.engine import OptionError
from parlour.games import game_ids, get_game
from parlour.howto import NoHowto, howto_html
from parlour.i18n import LANGUAGES, json_catalog, normalize, translate
from parlour.message import N_, Code, Term
from parlour.server.edge.deps import ClientDep, GuardDep, HubDep, RelayDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.accounts import guest_name
from parlour.server.people.identity import AccountDep
from parlour.server.people.players import check_rated_play
from parlour.server.play.pages import LANG_COOKIE, reader_language, rules_html
from parlour.server.play.table import token_hash
from parlour.server.play.tables import describe_games

router = APIRouter(prefix="/api", responses=RESPONSES)

LISTED = 200  # tables the lobby list shows at most


class Body(BaseModel):
    """A request body: strict JSON types (a bool is not a number, "1" is not a seat), no
    field the request does not take, and no NUL character in any text (no field needs
    one, and PostgreSQL's text cannot hold one: a name looked up or a note stored with
    one failed there)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    @field_validator("*")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        if any("\x00" in text for text in _texts(value)):
            raise ValueError("text may not hold a NUL character")
        return value


def _texts(value: Any) -> Iterator[str]:
    """The strings in a field's value (nested bodies check their own)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


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
    speed: Literal["slow", "normal", "fast"] | None = None  # bots' pace (parlour.server.play.pace)
    hints: bool | None = None  # seats may ask for hints (default: yes, unless compared)
    rated: bool = False  # its results change ratings (signed in; see server/people/ratings.py)
    # a correspondence table: each person's time for a move, 3600 to 259200 seconds
    move_seconds: int | None = None


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    return describe_games()


class RulesQuery(BaseModel):
    """What a rules page may be asked for (nothing else: an unknown parameter is refused)."""

    model_config = ConfigDict(extra="forbid")

    lang: str | None = Field(default=None, max_length=35, description=(
        "the reader's language (en, id, pt-BR; a plain pt is pt-BR); default: the "
        "parlour_lang cookie, else Accept-Language"))
    table: str | None = Field(default=None, max_length=16, pattern=r"^[A-Za-z0-9_-]{1,16}$",
                              description="a table of this game: the page shows its options")
    full: bool = Field(default=False, description=(
        "the full rules (every decision) instead of How to play, in the reader's language "
        "where translated, else English"))


@router.get("/games/{game_id}/rules")
async def rules(game_id: str, query: Annotated[RulesQuery, Query()], request: Request,
                hub: HubDep) -> dict[str, Any]:
    """A game's How to play page in the reader's language, for a table's options (or the
    game's defaults), or with ``full`` its full rules (in the reader's language where
    translated, else English: ``lang`` says which)."""
    if game_id not in game_ids():
        raise ProtocolError("not_found", "there is no game with that id")
    game = get_game(game_id)
    if query.lang is not None:
        asked = normalize(query.lang)
        if asked is None:
            raise ProtocolError("bad_request", "Parlour does not speak that language: lang is "
                                "one of {known}", known=Code(", ".join(
                                    tag.replace("_", "-") for tag in LANGUAGES)))
        lang = asked
    else:
        lang = reader_language(request.cookies.get(LANG_COOKIE),
                               request.headers.get("accept-language"))
    options: dict[str, Any] = {}
    if query.table is not None:
        table = await hub.get(query.table)
        if table is None:
            raise ProtocolError("not_found", "there is no table with that id")
        if table.game.id != game.id:
            raise ProtocolError("bad_request", "that table plays {table_game}, not {game}",
                                table_game=Term("game", table.game.name),
                                game=Term("game", game.name))
        options = dict(table.options)
    if query.full:
        found = await asyncio.to_thread(rules_html, game, lang)
        if found is None:
            raise ProtocolError("not_found", "{game} has no rules page yet",
                                    game=Term("game", game.name))
        html, written_in = found
        return {"game": game.id, "name": translate(lang, game.name, context="game"),
                "lang": written_in.replace("_", "-"), "full": True, "html": html}
    try:
        html = await asyncio.to_thread(howto_html, game.id, lang, options)
    except NoHowto:
        raise ProtocolError("not_found", "{game} has no How to play page yet",
                            game=Term("game", game.name)) from None
    except OptionError:  # a table's options were checked when it opened
        raise ProtocolError("bad_request", "that table's options cannot be shown") from None
    return {"game": game.id, "name": translate(lang, game.name, context="game"),
            "lang": lang.replace("_", "-"), "full": False, "html": html}


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
async def tables(hub: HubDep, relay: RelayDep) -> dict[str, Any]:
    if relay is not None:  # every process's tables
        return {"tables": await relay.lobby(LISTED)}
    return {"tables": [t.summary() for t in hub.open_tables()[:LISTED]]}


@router.post("/tables", status_code=201)
async def create(body: CreateTable, hub: HubDep, guard: GuardDep, client: ClientDep,
                 account: AccountDep) -> dict[str, Any]:
    await guard.take("create", client)
    if body.rated:
        await check_rated_play(hub, account)
    name = account.name if account else body.name if body.name is None else \
        await asyncio.to_thread(guest_name, hub.store, body.name)
    table, seat, token = await hub.create(
        body.game.strip().lower(), dict(body.options),
        [s.model_dump() for s in body.seats], name,
        body.seat, body.deal,
        public=body.public, turn_seconds=body.turn_seconds, speed=body.speed, client=client,
        account_id=account.id if account else None, hints=body.hints, rated=body.rated,
        move_seconds=body.move_seconds)
    return {"table": table.summary(), "seat": seat, "token": token,
            "invite": f"/t/{table.id}"}


class HeldSeat(Body):
    table: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")
    token: str = Field(min_length=1, max_length=200)


class YourTurns(Body):
    seats: list[HeldSeat] = Field(default_factory=list, max_length=50)  # this browser's


@router.post("/turns")
async def your_turns(body: YourTurns, hub: HubDep, guard: GuardDep, client: ClientDep,
                     account: AccountDep) -> dict[str, Any]:
    """The correspondence tables waiting for your move (the lobby's "Your turn"): at the
    seats this browser holds (each with its token, in the body: never in an address) and,
    signed in, at your account's seats; the soonest due first, each with its deadline
    (Unix seconds)."""
    await guard.take("quick", client, message=N_("you are asking too often: wait a little"))
    held = [(s.table, token_hash(s.token)) for s in body.seats]
    turns = await asyncio.to_thread(hub.store.awaiting, account.id if account else None, held)
    for turn in turns:
        turn["game_name"] = get_game(turn["game"]).name if turn["game"] in game_ids() \
            else turn["game"]
    return {"turns": turns}
