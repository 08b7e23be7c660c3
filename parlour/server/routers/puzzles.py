"""Puzzles over HTTP (``/api/puzzles``; the rules are :mod:`parlour.server.people.puzzles`):
the catalogue and the person's puzzle rating, the next puzzle, the puzzle of the day, one
puzzle by its id, and an answer.

Anyone may solve puzzles; a signed-in person's first try at each is rated. A puzzle is
shown as its seat saw it; its answer, chances and line come only with an answer. Requests
are limited per address (``puzzle``) and take strict input.
"""

from __future__ import annotations

import random
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import Field

from parlour.server.edge.deps import ClientDep, GuardDep, HubDep
from parlour.server.edge.errors import RESPONSES
from parlour.server.edge.language import LanguageDep
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people import puzzles
from parlour.server.people.identity import AccountDep
from parlour.server.routers.accounts import blocking, same_site
from parlour.server.routers.lobby import Body

router = APIRouter(prefix="/api/puzzles", responses=RESPONSES)

PuzzleId = Annotated[str, Path(pattern=r"^[0-9a-f]{12}$")]
GameQuery = Annotated[str | None, Query(max_length=40, pattern=r"^[a-z0-9_-]+$")]
ThemeQuery = Annotated[str | None, Query(max_length=40, pattern=r"^[a-z-]+$")]
#: Ids a guest's page has just shown, comma-separated (so they do not come back).
SeenQuery = Annotated[str | None, Query(max_length=13 * puzzles.SEEN_MOST)]
SEEN = re.compile(r"^[0-9a-f]{12}(?:,[0-9a-f]{12})*$")


class Answer(Body):
    move: str = Field(min_length=1, max_length=40)


def _seen(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    if not SEEN.match(text):
        raise ProtocolError("bad_request", "seen: puzzle ids, comma-separated")
    return tuple(text.split(","))


@router.get("")
async def catalogue(hub: HubDep, guard: GuardDep, client: ClientDep, account: AccountDep,
                    lang: LanguageDep) -> dict[str, Any]:
    """The puzzles kept, by game and theme, and your puzzle rating with your last tries
    (signed in)."""
    await guard.take("puzzle", client)
    return await blocking(puzzles.catalogue, hub.store.engine, account.id if account else None,
                          lang)


@router.get("/next")
async def next_puzzle(hub: HubDep, guard: GuardDep, client: ClientDep, account: AccountDep,
                      lang: LanguageDep, game: GameQuery = None, theme: ThemeQuery = None,
                      seen: SeenQuery = None) -> dict[str, Any]:
    """A puzzle to solve: signed in, one you have not tried near your rating; else a
    random one (not among ``seen``). ``game`` and ``theme`` narrow the choice."""
    await guard.take("puzzle", client)
    kept = await blocking(puzzles.choose, hub.store.engine, account.id if account else None, game,
                          theme, _seen(seen), random.Random())
    return {"puzzle": await blocking(puzzles.shown, kept, lang)}


@router.get("/daily")
async def daily(hub: HubDep, guard: GuardDep, client: ClientDep,
                lang: LanguageDep) -> dict[str, Any]:
    """The puzzle of the day (UTC): the same for everyone."""
    await guard.take("puzzle", client)
    found = await blocking(puzzles.daily_id, hub.store.engine, hub.settings.now())
    kept = await blocking(puzzles.get, hub.store.engine, found)
    return {"puzzle": await blocking(puzzles.shown, kept, lang), "daily": True}


@router.get("/{puzzle_id}")
async def one(puzzle_id: PuzzleId, hub: HubDep, guard: GuardDep, client: ClientDep,
              lang: LanguageDep) -> dict[str, Any]:
    """One puzzle, by its id (a puzzle's own address)."""
    await guard.take("puzzle", client)
    kept = await blocking(puzzles.get, hub.store.engine, puzzle_id)
    return {"puzzle": await blocking(puzzles.shown, kept, lang)}


@router.post("/{puzzle_id}/solution", dependencies=[Depends(same_site)])
async def solution(puzzle_id: PuzzleId, body: Body, hub: HubDep, guard: GuardDep,
                   client: ClientDep, account: AccountDep,
                   lang: LanguageDep) -> dict[str, Any]:
    """Show the answer without trying (the body is ``{}``): the same as an answer that is
    not the best, your first try at the puzzle counted as not found."""
    await guard.take("puzzle", client)
    return await blocking(puzzles.answer, hub.store.engine, puzzle_id, None,
                          account.id if account else None, lang, hub.settings.now())


@router.post("/{puzzle_id}/answer", dependencies=[Depends(same_site)])
async def answer(puzzle_id: PuzzleId, body: Answer, hub: HubDep, guard: GuardDep,
                 client: ClientDep, account: AccountDep, lang: LanguageDep) -> dict[str, Any]:
    """Your move at a puzzle: whether it is the best, every choice's chance to win, the
    line that followed; signed in, your rating before and after (your first try at a
    puzzle counts, later ones do not). A move that is not legal there is refused."""
    await guard.take("puzzle", client)
    return await blocking(puzzles.answer, hub.store.engine, puzzle_id, body.move,
                          account.id if account else None, lang, hub.settings.now())
