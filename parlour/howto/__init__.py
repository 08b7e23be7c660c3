"""How to play: each game's short page for players, in each language, for a table's options.

A page is a Markdown template in the game's folder, ``parlour/games/<game>/howto/<lang>.md``,
written (not
translated line by line) by a speaker of the language from the rules Parlour implements.
The template is Jinja (sandboxed, undefined names are errors): ``{{ target }}`` is an
option's value as the language writes numbers (``1.000`` in Indonesian), ``{% if blind_nil
%}`` keeps a paragraph for the tables that play it, ``raw.target`` is the plain value for
comparisons, and ``{% if terminal %}`` gives the terminal's controls where the browser's
(a key, a click) would be wrong. Figures are Markdown images of the language-free SVG
files drawn by :mod:`parlour.howto.figures` (``/static/howto/<name>.svg``). The result is
rendered with markdown-it with raw HTML off, like the full specification
(``parlour/games/<game>/full-rules/<lang>.md``), which the page links as "Full
rules".

>>> "300" in howto_markdown("spades", "pt_BR", {"target": 300})
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from parlour.games import get_game
from parlour.i18n import DEFAULT, LANGUAGES, format_number
from parlour.registry import GAMES_FOLDER, folder_name, spec

#: The folder of a game's how-to pages, in its folder.
PAGES = "howto"


class NoHowto(LookupError):
    """A game without a how-to page in a language."""


def page_path(game_id: str, lang: str) -> Path:
    return GAMES_FOLDER / folder_name(game_id) / PAGES / f"{lang}.md"


def page_values(game_id: str, lang: str, options: Mapping[str, Any] | None = None
                ) -> dict[str, Any]:
    """What a template may name: every option of the game (``options`` resolved against the
    game's defaults; an unknown or bad option raises :class:`~parlour.engine.OptionError`),
    numbers written as ``lang`` writes them, derived values, and ``raw`` (the plain
    values)."""
    game = get_game(game_id)
    resolved = game.resolve_options(dict(options or {}))
    derived = spec(game.id).howto_values  # values worked out from the options
    raw = {**resolved, **(derived(resolved) if derived is not None else {})}
    shown = {key: _shown(value, lang) for key, value in raw.items()}
    return {**shown, "raw": raw}


def _shown(value: Any, lang: str) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format_number(value, lang)
    return value


def howto_markdown(game_id: str, lang: str, options: Mapping[str, Any] | None = None, *,
                   terminal: bool = False) -> str:
    """The game's how-to page in ``lang`` for a table with ``options``, as Markdown; with
    ``terminal`` the controls are the terminal's (typed words, Enter), not the browser's."""
    if lang not in LANGUAGES:
        raise NoHowto(f"Parlour does not speak {lang!r}")
    values = page_values(game_id, lang, options)
    return _template(game_id, lang).render(values, terminal=terminal).strip() + "\n"


def howto_html(game_id: str, lang: str, options: Mapping[str, Any] | None = None) -> str:
    """The game's how-to page as HTML (raw HTML in the template is escaped)."""
    return markdown_html(howto_markdown(game_id, lang, options))


def has_howto(game_id: str, lang: str = DEFAULT) -> bool:
    return page_path(game_id, lang).is_file()


@lru_cache(maxsize=64)
def _template(game_id: str, lang: str) -> Any:
    path = page_path(game_id, lang)
    if not path.is_file():
        raise NoHowto(f"{game_id} has no how-to page in {lang}")
    return _environment().from_string(path.read_text(encoding="utf-8"))


@cache
def _environment() -> SandboxedEnvironment:
    return SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                keep_trailing_newline=True, trim_blocks=True,
                                lstrip_blocks=True)


def markdown_html(text: str) -> str:
    """Markdown as HTML: CommonMark plus tables, raw HTML escaped, no typographer."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    return md.render(text)
