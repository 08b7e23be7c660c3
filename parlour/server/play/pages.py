"""What the server adds to the engine's views and to the page: each game's rules as HTML,
and the game's own sentence for each event of a view.

A game has two rules pages: its short *How to play* page in the reader's language, for a
table's options (:mod:`parlour.howto`), and its full rules, every decision, the Markdown
file ``parlour/games/<game>/full-rules/en.md`` in English with its translations beside it
(``id.md``, ``pt-BR.md``; the same page ``parlour rules --full``
prints), rendered with markdown-it (CommonMark plus tables, raw HTML escaped).

A game's spec may name ``describe_event(event, names) -> str``, one line of plain English
for an event of its view's ``events`` list, and with it ``narrate_event(event, names) ->
Message``, the same line for any language. The server then sends those lines with each
view (``narration``), rendered in each client's language, so that every client tells the
play in the game's own words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from parlour import fullrules
from parlour.engine import Code, Game, JsonDict, Param, Seat
from parlour.howto import markdown_html
from parlour.i18n import cards_as_codes, negotiate, normalize, render_param
from parlour.message import YOU, Message
from parlour.registry import Describe, spec

#: The cookie the page sets when the reader picks a language (parlour/web/i18n.js).
LANG_COOKIE = "parlour_lang"


def rules_path(game: Game, lang: str = "en") -> Path:
    """The game's full rules page for a reader of ``lang`` (English where untranslated)."""
    return spec(game.id).full_rules(lang)[0]


def rules_html(game: Game, lang: str = "en") -> tuple[str, str] | None:
    """The game's full rules page for a reader of ``lang`` as HTML, and the language it is
    written in (its translation, else English); None if it has no page."""
    path, written_in = spec(game.id).full_rules(lang)
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    return _render(str(path), mtime), written_in


@lru_cache(maxsize=16)
def _render(path: str, mtime: float) -> str:
    return markdown_html(fullrules.markdown(Path(path)))


def reader_language(cookie: str | None, accept_language: str | None) -> str:
    """The reader's language when the request names none: the page's ``parlour_lang``
    cookie if Parlour speaks it, else the best of ``Accept-Language`` (a plain ``pt`` is
    pt-BR), else English."""
    chosen = normalize(cookie) if cookie and len(cookie) <= 35 else None
    return chosen or negotiate(accept_language)


def describer(game: Game) -> Describe | None:
    """The game's ``describe_event`` (from its spec), if it has one."""
    return spec(game.id).describe_event


def narration(game: Game, view: JsonDict, names: Callable[[], Sequence[Param]],
              lang: str = "en") -> list[str] | None:
    """The game's sentence for each event of ``view["events"]`` in ``lang`` (None if the
    game does not describe its events). Built from the view alone, so it tells nothing the
    view does not. ``names()`` are what to call each seat (a person's name, or a seat's
    label as a word to translate), asked for only when there are events to tell."""
    found = spec(game.id)
    events: Any = view.get("events")
    if found.describe_event is None or not isinstance(events, list):
        return None
    told: Any = list(names())
    if found.narrate_event is not None:
        # cards as their codes: the page draws each as a card chip read out by its name
        return [render_param(cards_as_codes(found.narrate_event(ev, told)), lang)
                for ev in events]
    return [found.describe_event(ev, [str(n) for n in told]) for ev in events]


def action_words(game: Game, view: JsonDict, action: str) -> Message:
    """A move in words for any language ("playing 9H"), from the view of the seat to make it
    before the move (the game's ``say_action``), its cards as codes for the page to draw as
    chips read out by their names, as the narration's; the notation itself where the game
    has no words for its moves."""
    found = spec(game.id).say_action
    if found is None:
        return Message("{move}", move=Code(action))
    said = cards_as_codes(found(view, action))
    assert isinstance(said, Message)
    return said


def seat_names(labels: Sequence[Param], names: Sequence[str | None],
               you: Seat | None = None, guests: Sequence[bool] = ()) -> list[Param]:
    """What the narration calls each seat: its name (a person's or a bot's, see
    :mod:`parlour.server.play.names`), marked "(guest)" for a guest's seat, else the seat's
    label; a name two seats share gets the label too; the seat the lines are told to is
    :data:`~parlour.message.YOU`."""
    named: list[Param] = [
        (Message("{name} (guest)", name=p) if p and i < len(guests) and guests[i] else p)
        or label for i, (label, p) in enumerate(zip(labels, names, strict=True))]
    out: list[Param] = [Message("{name} ({seat})", name=n, seat=label) if named.count(n) > 1
                        else n for n, label in zip(named, labels, strict=True)]
    if you is not None and 0 <= you < len(out):
        out[you] = YOU
    return out
