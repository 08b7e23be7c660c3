"""The page: one HTML file for every path a person may open (app.js reads the path to
know what to show). The router holds a single route, so it is included last: the API, the
websocket and ``/static`` come first."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from parlour.server.protocol import ProtocolError

WEB = Path(__file__).resolve().parent.parent.parent / "web"
INDEX = WEB / "index.html"

#: The page's paths: the lobby, a table, a finished match's replay, opening a table of a
#: game, a game's rules, a person's profile, a game's leaderboard, the daily deals.
PAGE_PATH = re.compile(r"/(?:t/[\w-]{1,16}(?:/replay/\d{1,9})?|new/[\w-]{1,40}|rules/[\w-]{1,40}"
                       r"|u/[^/\x00-\x1f\x7f]{1,40}|leaderboards/[\w-]{1,40}|daily)?", re.ASCII)

router = APIRouter()


@router.get("/{path:path}", include_in_schema=False)
async def page(path: str) -> FileResponse:
    if not PAGE_PATH.fullmatch("/" + path):
        raise ProtocolError("not_found", "there is no page at that address")
    return FileResponse(INDEX, headers={"Cache-Control": "no-cache"})
