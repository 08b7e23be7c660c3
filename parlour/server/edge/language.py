"""The reader's language on the server: the ``parlour_lang`` cookie the page's language
switch sets (``chooseLanguage`` in parlour/web/i18n.js), else ``Accept-Language`` (a plain
``pt`` is pt-BR: :func:`parlour.i18n.negotiate`), else English. A websocket client may also
name its language in its hello (``"lang": "id"``), which wins over both."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from parlour.i18n import DEFAULT, negotiate, normalize

LANG_COOKIE = "parlour_lang"
MAX_TAG = 35  # characters of a language tag (BCP 47 allows 35 for the longest real ones)
#: A well-formed language tag (``id``, ``pt-BR``, ``pt_BR``): what a hello's ``lang`` may be.
TAG_PATTERN = r"^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,3}$"
_TAG = re.compile(TAG_PATTERN)


def chosen(tag: str | None) -> str | None:
    """The catalog for a tag the reader chose (cookie, hello), or None for a malformed tag
    or a language Parlour does not speak."""
    if not tag or len(tag) > MAX_TAG or not _TAG.match(tag):
        return None
    return normalize(tag)


def language_of(conn: HTTPConnection) -> str:
    """The language of a request or a websocket handshake (see the module's docstring)."""
    return chosen(conn.cookies.get(LANG_COOKIE)) or negotiate(
        conn.headers.get("accept-language"), DEFAULT)


LanguageDep = Annotated[str, Depends(language_of)]


def html_tag(lang: str) -> str:
    """The BCP 47 tag of a catalog, as ``<html lang>`` writes it (``pt_BR`` is ``pt-BR``)."""
    return lang.replace("_", "-")
