"""The page: one HTML file for every path a person may open (app.js reads the path to
know what to show). The router holds a single route, so it is included last: the API, the
websocket and ``/static`` come first.

The page answers in the reader's language (:func:`parlour.server.edge.language.language_of`):
``<html lang>`` names it, and the few words the HTML shows before its script runs are
translated here; the script then loads the same language's catalog."""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from parlour.i18n import translate
from parlour.message import N_
from parlour.server.edge.language import LanguageDep, html_tag
from parlour.server.edge.protocol import ProtocolError

WEB = Path(__file__).resolve().parent.parent.parent / "web"
INDEX = WEB / "index.html"

#: The page's paths: the lobby, a table, a finished match's replay, opening a table of a
#: game, a game's How to play and its full rules, the account's pages (signing in and up,
#: recovery, the account), a person's profile, a game's leaderboard, the daily deals, the
#: friends page, the puzzles (the next, the day's, one by its id).
PAGE_PATH = re.compile(r"/(?:t/[\w-]{1,16}(?:/replay/\d{1,9})?|new/[\w-]{1,40}"
                       r"|rules/[\w-]{1,40}(?:/full)?|signin|signup|recover|account"
                       r"|u/[^/\x00-\x1f\x7f]{1,40}|leaderboards/[\w-]{1,40}|daily|friends"
                       r"|puzzles(?:/daily|/[0-9a-f]{12})?)?",
                       re.ASCII)
#: The words of index.html a reader may see before the script has loaded (or without it).
PAGE_WORDS = (N_("Loading the parlour…"), N_("Parlour needs JavaScript to deal the cards."))
NAV_LABEL = N_("Page")  # the header's navigation, as a screen reader names it
#: What a browser shows for an address that is no page: a page, in the reader's language.
NOT_FOUND_TITLE, NOT_FOUND_BACK = N_("There is no page at this address."), N_("Back to the lobby")
NOT_FOUND_HTML = """<!doctype html>
<html lang="{tag}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>{title} · Parlour</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="data:,">
</head>
<body>
<main id="app" class="not-found">
<h1>{title}</h1>
<p><a class="button primary" href="/">{back}</a></p>
</main>
</body>
</html>
"""

router = APIRouter()


@cache
def index_html(lang: str, mtime: float) -> str:
    """index.html in ``lang``: its ``<html lang>`` and its words."""
    text = INDEX.read_text(encoding="utf-8")
    text = text.replace('<html lang="en">', f'<html lang="{html_tag(lang)}">', 1)
    for words in PAGE_WORDS:
        text = text.replace(words, html.escape(translate(lang, words)), 1)
    text = text.replace(f'aria-label="{NAV_LABEL}"',
                        f'aria-label="{html.escape(translate(lang, NAV_LABEL))}"', 1)
    return text


def not_found_html(lang: str) -> str:
    return NOT_FOUND_HTML.format(
        tag=html_tag(lang), title=html.escape(translate(lang, NOT_FOUND_TITLE)),
        back=html.escape(translate(lang, NOT_FOUND_BACK)))


def wants_html(request: Request) -> bool:
    """A browser opening an address (it asks for HTML first), not a program asking the API."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept.split(",")[0] and not request.url.path.startswith("/api/")


@router.get("/{path:path}", include_in_schema=False)
async def page(path: str, lang: LanguageDep, request: Request) -> HTMLResponse:
    if not PAGE_PATH.fullmatch("/" + path):
        if wants_html(request):
            return HTMLResponse(not_found_html(lang), status_code=404,
                                headers={"Vary": "Accept, Accept-Language, Cookie"})
        raise ProtocolError("not_found", "there is no page at that address")
    return HTMLResponse(index_html(lang, INDEX.stat().st_mtime),
                        headers={"Cache-Control": "no-cache",
                                 "Vary": "Accept-Language, Cookie"})
