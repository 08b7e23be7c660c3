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
#: game, a game's How to play and its full rules, and the account's pages (signing in and
#: up, recovery, the account).
PAGE_PATH = re.compile(r"/(?:t/[\w-]{1,16}(?:/replay/\d{1,9})?|new/[\w-]{1,40}"
                       r"|rules/[\w-]{1,40}(?:/full)?|signin|signup|recover|account)?", re.ASCII)

router = APIRouter()


@router.get("/{path:path}", include_in_schema=False)
async def page(path: str) -> FileResponse:
    if not PAGE_PATH.fullmatch("/" + path):
        raise ProtocolError("not_found", "there is no page at that address")
    return FileResponse(INDEX, headers={"Cache-Control": "no-cache"})
