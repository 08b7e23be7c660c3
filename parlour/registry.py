"""The one place a game plugs in: a :class:`GameSpec` per game, and :func:`spec` to get it.

A spec gathers everything Parlour knows about a game: the rules (its :class:`Game`), the
bot kinds that play it, the search hooks of the generic bot, the bot that gives hints, how
the terminal and the web client draw its table, whether its deals are numbered, how its
events are told, and its deeper study if it has one. Every consumer asks :func:`spec`
(bots, the terminal, the analyses, the server, the command line, the benchmarks); nothing
looks a game's parts up by module name.

:data:`REGISTERED` lists the games in menu order, each with the function that builds its
spec. This module imports nothing of Parlour but the engine, and a builder imports the
game's modules only when the spec is first asked for; so importing the engine or a game
loads nothing above it, any layer may ask for a spec without an import cycle, and a
broken add-on raises where it is first needed instead of turning into "no hints".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from parlour.engine import Code, Game, JsonDict, Message, OptionError, Param

if TYPE_CHECKING:
    from rich.console import Console

    from parlour.bots.base import Bot
    from parlour.bots.ismcts import SearchHooks
    from parlour.stats import GameStats
    from parlour.terminal import TableUI

#: ``describe_event(event, names)``: one line of plain English for an event of a view.
Describe = Callable[[JsonDict, list[Param]], str]
#: ``narrate_event(event, names)``: the same line as a :class:`Message`, for any language.
Narrate = Callable[[JsonDict, list[Param]], Message]
#: ``say_action(view, action)``: a move in words ("playing 9H"), from the view of the seat
#: to make it, before the move, and the move's notation.
SayAction = Callable[[JsonDict, str], Message]

WEB = Path(__file__).resolve().parent / "web"


class Study(Protocol):
    """A deeper study of one game (``parlour analyse <game>``); see
    :mod:`parlour.analysis.foursquare`."""

    #: ``analyse(games, seed, jobs, progress, **settings)``: the study's summary (JSON).
    analyse: Callable[..., JsonDict]

    def report(self, summary: JsonDict, console: Console) -> None: ...

    def draw(self, summary: JsonDict, path: Path) -> None: ...


@dataclass(frozen=True)
class WebRenderer:
    """The web client's table for a game: an ES module under ``parlour/web/`` exporting
    ``mount(root, ctx)``, and the style sheet it loads, if it has its own."""

    script: str  # "tables/spades.js"
    style: str | None = None  # "tables/foursquare.css"

    def files(self) -> list[Path]:
        return [WEB / name for name in (self.script, self.style) if name is not None]


@dataclass(frozen=True)
class GameSpec:
    """Everything Parlour knows about one game."""

    game: Game
    #: How the web client draws the table.
    web: WebRenderer
    #: How the terminal draws the table: a function returning the :class:`TableUI` class
    #: (called when a terminal game starts, so the engine never loads the terminal).
    terminal: Callable[[], type[TableUI]]
    #: The game's own bot kinds (``{"rule": SpadesRuleBot}``); ``random`` and ``ismcts``
    #: play every game and are not listed.
    bots: Mapping[str, type[Bot]] = field(default_factory=lambda: MappingProxyType({}))
    #: The generic search's helpers for this game (None: plain ISMCTS).
    search: SearchHooks[Any] | None = None
    #: The bot kind that gives hints, or None (the web parlour then offers none; the
    #: terminal's ``?`` asks ismcts).
    hint_bot: str | None = None
    #: Deals dealt by number: each match has a public deal number whose seed is derived
    #: from it and the server's secret key (the same number, the same deal).
    numbered_deals: bool = False
    #: One line of plain English per event of a view (``view["events"]``), or None.
    describe_event: Describe | None = None
    #: The same line as a language-free :class:`Message` (``parlour.i18n.render`` renders
    #: it in the reader's language); set with ``describe_event``, which is its English.
    narrate_event: Narrate | None = None
    #: A move in words for any language (a hint's advice, a replay's step), or None: the
    #: move's notation is shown as it is.
    say_action: SayAction | None = None
    #: The game's deeper study (``parlour analyse``): a function returning it, or None.
    analysis: Callable[[], Study] | None = None
    #: Options that make a match short (a few deals), for the checks every game passes.
    short_match: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: The game's telling figures, read from a finished match (``parlour/stats.py``), or
    #: None (only matches, wins and points).
    stats: GameStats | None = None
    #: Options that make a match one deal or round: the daily deal
    #: (``parlour/server/people/daily.py``).
    one_deal: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def solitaire(self) -> bool:
        """One player alone (Foursquare): no opponents to wait for, so no turn timer."""
        return self.game.max_seats == 1

    @property
    def rules_page(self) -> Path:
        """The game's full rules page in English (the translations follow it)."""
        return self.full_rules("en")[0]

    def full_rules(self, lang: str) -> tuple[Path, str]:
        """The game's full rules page for a reader of ``lang`` and the language it is written
        in: its translation if there is one, else English (see :mod:`parlour.fullrules`)."""
        from parlour import fullrules

        return fullrules.page(self.game.id, lang)

    def __post_init__(self) -> None:
        if (self.describe_event is None) != (self.narrate_event is None):
            raise ValueError(f"{self.game.id}: describe_event and narrate_event go together")
        if self.hint_bot is not None and self.hint_bot not in self.bots:
            raise ValueError(f"{self.game.id}: the hint bot {self.hint_bot!r} is not one of "
                             f"its bots ({', '.join(self.bots)})")


# ----------------------------------------------------------------------------- the games
def _spades() -> GameSpec:
    from parlour.bots.spades import BOTS, SEARCH
    from parlour.games.spades import GAME, say_action

    def terminal() -> type[TableUI]:
        from parlour.terminal.spades import UI
        return UI

    from parlour.stats import SPADES

    return GameSpec(GAME, WebRenderer("tables/spades.js", "tables/spades.css"), terminal, BOTS,
                    SEARCH, short_match={"max_deals": 2}, stats=SPADES,
                    one_deal={"max_deals": 1}, say_action=say_action)


def _spite_and_malice() -> GameSpec:
    from parlour.bots.spite_and_malice import BOTS, SEARCH
    from parlour.games.spite_and_malice import GAME, say_action
    from parlour.stats import SPITE_AND_MALICE

    def terminal() -> type[TableUI]:
        from parlour.terminal.spite_and_malice import UI
        return UI

    return GameSpec(GAME, WebRenderer("tables/spite_and_malice.js",
                                      "tables/spite_and_malice.css"), terminal, BOTS, SEARCH,
                    short_match={"payoff_size": 3, "target": 3, "max_rounds": 2,
                                 "max_turns": 30}, stats=SPITE_AND_MALICE,
                    one_deal={"max_rounds": 1}, say_action=say_action)


def _hit_the_deck() -> GameSpec:
    from parlour.bots.hit_the_deck import BOTS, SEARCH
    from parlour.games.hit_the_deck import GAME, say_action
    from parlour.stats import HIT_THE_DECK

    def terminal() -> type[TableUI]:
        from parlour.terminal.hit_the_deck import UI
        return UI

    return GameSpec(GAME, WebRenderer("tables/hit_the_deck.js", "tables/hit_the_deck.css"),
                    terminal, BOTS, SEARCH, short_match={"target": 1}, stats=HIT_THE_DECK,
                    one_deal={"max_rounds": 1}, say_action=say_action)


def _clockwork_spades() -> GameSpec:
    from parlour.bots.clockwork_spades import BOTS
    from parlour.games.clockwork_spades import GAME, describe_event, narrate_event, say_action
    from parlour.stats import CLOCKWORK_SPADES

    def terminal() -> type[TableUI]:
        from parlour.terminal.clockwork_spades import UI
        return UI

    return GameSpec(GAME, WebRenderer("tables/clockwork_spades.js",
                                      "tables/clockwork_spades.css"), terminal, BOTS,
                    describe_event=describe_event, narrate_event=narrate_event,
                    stats=CLOCKWORK_SPADES, say_action=say_action)


def _foursquare() -> GameSpec:
    from parlour.bots.foursquare import BOTS
    from parlour.games.foursquare import GAME, describe_event, narrate_event, say_action
    from parlour.stats import FOURSQUARE

    def terminal() -> type[TableUI]:
        from parlour.terminal.foursquare import UI
        return UI

    def analysis() -> Study:
        from parlour.analysis import foursquare
        return foursquare

    return GameSpec(GAME, WebRenderer("tables/foursquare.js", "tables/foursquare.css"),
                    terminal, BOTS, hint_bot="solver", numbered_deals=True,
                    describe_event=describe_event, narrate_event=narrate_event,
                    analysis=analysis, stats=FOURSQUARE, say_action=say_action)


#: Every game Parlour plays, in menu order, with the function that builds its spec: the
#: one place a game is registered.
REGISTERED: dict[str, Callable[[], GameSpec]] = {
    "spades": _spades,
    "spite-and-malice": _spite_and_malice,
    "hit-the-deck": _hit_the_deck,
    "clockwork-spades": _clockwork_spades,
    "foursquare": _foursquare,
}


# ----------------------------------------------------------------------------- the loader
def game_ids() -> tuple[str, ...]:
    """Ids of every registered game, in menu order."""
    return tuple(REGISTERED)


def spec(game_id: str) -> GameSpec:
    """The spec of the game with this id (``spades``; ``Spite_and_Malice`` is forgiven); a
    clear error naming the known ids otherwise. A broken add-on module raises its error."""
    gid = game_id.strip().lower().replace("_", "-")
    if gid not in REGISTERED:
        raise OptionError("unknown game {game}: expected one of {known}",
                          game=Code(repr(game_id)), known=Code(", ".join(REGISTERED)))
    return _build(gid)


@cache
def _build(game_id: str) -> GameSpec:
    built = REGISTERED[game_id]()
    if built.game.id != game_id:
        raise ValueError(f"the spec registered as {game_id!r} is {built.game.id!r}'s")
    return built


def get_game(game_id: str) -> Game:
    """The game with this id; see :func:`spec`."""
    return spec(game_id).game
