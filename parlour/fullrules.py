"""Each game's full rules: every decision, written in English in its folder's
``full-rules/en.md`` (``parlour/games/<game>/full-rules/``) with its translations beside it
(``id.md``, ``pt-BR.md``), package data of the game's folder; :func:`page` is the one place
that knows where the pages live.

A translation follows one version of the English page: its first line names it by the first
16 hex digits of its SHA-256, ``<!-- translated from en.md sha256:0123456789abcdef -->``.
When the English page changes the line no longer matches (:func:`stale`, checked by the
tests) until the translation is brought up to date. The line is not part of the page
(:func:`markdown` leaves it out).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from parlour.registry import GAMES_FOLDER, folder_name

#: The folder of a game's full rules pages, in its folder.
RULES = "full-rules"
#: The folder of the games' folders.
GAMES = GAMES_FOLDER
#: The language the pages are written in; the translations follow it.
ORIGINAL = "en"
#: A translation's first line: the English page it follows and that page's digest.
FOLLOWS = re.compile(r"<!-- translated from (?P<page>[\w.-]+\.md) "
                     r"sha256:(?P<digest>[0-9a-f]{16}) -->\n")


def page(game_id: str, lang: str) -> tuple[Path, str]:
    """Where a game's full rules page for a reader of ``lang`` (a catalog's name: ``id``,
    ``pt_BR``) is, and the language it is written in: its translation if there is one,
    else the English page."""
    if lang != ORIGINAL:
        translated = translation(game_id, lang)
        if translated.is_file():
            return translated, lang
    return folder(game_id) / f"{ORIGINAL}.md", ORIGINAL


def folder(game_id: str) -> Path:
    """The folder of the game's full rules pages."""
    return GAMES / folder_name(game_id) / RULES


def translation(game_id: str, lang: str) -> Path:
    """Where the page's translation into ``lang`` is (or would be)."""
    return folder(game_id) / f"{lang.replace('_', '-')}.md"


def markdown(path: Path) -> str:
    """A page's Markdown, without a translation's first line."""
    text = path.read_text(encoding="utf-8")
    found = FOLLOWS.match(text)
    return text[found.end():] if found else text


def digest(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of a page's text, its line ends read as ``\n``
    (what a translation's line names; the same on a checkout that writes ``\r\n``)."""
    return hashlib.sha256(path.read_text(encoding="utf-8").encode("utf-8")).hexdigest()[:16]


def follows_line(game_id: str) -> str:
    """The first line a translation of the game's English page carries today."""
    english = page(game_id, ORIGINAL)[0]
    return f"<!-- translated from {english.name} sha256:{digest(english)} -->"


def stale(game_id: str, lang: str) -> str | None:
    """Why the game's translation into ``lang`` does not follow today's English page (and
    how to bring it up to date), or None when it does."""
    english = page(game_id, ORIGINAL)[0]
    translated = translation(game_id, lang)
    if not translated.is_file():
        return f"{game_id} has no full rules page in {lang}: translate {_shown(english)} " \
               f"into {_shown(translated)}, its first line {follows_line(game_id)}"
    found = FOLLOWS.match(translated.read_text(encoding="utf-8"))
    if found is None or found["page"] != english.name:
        return f"{_shown(translated)} does not say which version of {english.name} it " \
               f"follows: " \
               f"make its first line {follows_line(game_id)}"
    if found["digest"] != digest(english):
        return (f"{_shown(english)} changed since {_shown(translated)} was translated from it "
                f"(sha256:{found['digest']}): bring the changes into {_shown(translated)} "
                f"(git log -p -- {_shown(english)} shows them), then make its "
                f"first line {follows_line(game_id)}")
    return None


def _shown(path: Path) -> str:
    """A page's path as a message names it: from the package's folder on."""
    return str(path.relative_to(GAMES_FOLDER.parent.parent))
