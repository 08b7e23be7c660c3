"""The one place a game plugs in: a :class:`GameSpec` per game, and :func:`spec` to get it.

A game is one folder, ``parlour/games/<game>/`` (the id with underscores): its rules
(``rules.py``, the engine's :class:`Game`), bots and search hooks (``bots.py``), terminal
table (``terminal.py``), web table (``table.js`` and ``table.css``), how-to pages
(``howto/<lang>.md``), full rules pages (``full-rules/<lang>.md``), learning encoder
(``encoding.py``), telling figures (``stats.py``), and ``spec.py``, whose ``build()``
returns the game's spec: every part above, its traits (:class:`Traits`: solitaire or not,
partnerships, how it is rated, numbered deals, timed phases) and its settings (daily seats,
turn seconds, bot ratings, review thresholds, lobby presets and tagline, vocabulary).
Every shared layer asks :func:`spec` (bots, the terminal, the analyses, the server, the
command line, the benchmarks, the tests) and reads a trait where it would otherwise name a
game; nothing outside a game's folder names its id or its modules.

:data:`GAMES` lists the games in menu order. This module imports nothing of Parlour but the
engine, and a game's ``spec.py`` is imported only when its spec is first asked for; so
importing the engine or a game's rules loads nothing above them, any layer may ask for a
spec without an import cycle, and a broken add-on raises where it is first needed instead
of turning into "no hints". Parts that need an optional library (the terminal's rich, the
encoder's numpy, a study's plotting) are named by functions that import them when called.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Protocol

from parlour.engine import Code, Game, JsonDict, Message, OptionError, Param, Seat, State

if TYPE_CHECKING:
    from rich.console import Console

    from parlour.bots.base import Bot
    from parlour.bots.ismcts import SearchHooks
    from parlour.message import Term
    from parlour.rl.encoding.base import Encoder
    from parlour.stats import GameStats
    from parlour.terminal import TableUI

#: ``describe_event(event, names)``: one line of plain English for an event of a view.
Describe = Callable[[JsonDict, list[Param]], str]
#: ``narrate_event(event, names)``: the same line as a :class:`Message`, for any language.
Narrate = Callable[[JsonDict, list[Param]], Message]
#: ``say_action(view, action)``: a move in words ("playing 9H"), from the view of the seat
#: to make it, before the move, and the move's notation.
SayAction = Callable[[JsonDict, str], Message]

PACKAGE = Path(__file__).resolve().parent
WEB = PACKAGE / "web"
#: The folder of every game's folder.
GAMES_FOLDER = PACKAGE / "games"
#: Where the server serves a game's web files, below ``/static/``: ``games/<folder>/<file>``.
GAME_FILES = "games"


class Study(Protocol):
    """A deeper study of one game (``parlour analyse <game>``); see
    :mod:`parlour.games.foursquare.analysis`."""

    #: ``analyse(games, seed, jobs, progress, **settings)``: the study's summary (JSON).
    analyse: Callable[..., JsonDict]

    def report(self, summary: JsonDict, console: Console) -> None: ...

    def draw(self, summary: JsonDict, path: Path) -> None: ...


@dataclass(frozen=True)
class WebRenderer:
    """The web client's parts of a game, files of its folder: the table, an ES module
    exporting ``mount(root, ctx)``, the style sheet it loads, if it has its own, and the
    lobby tile's picture, an ES module exporting ``scene(kit)`` (``parlour/web/pictures.js``)."""

    script: str = "table.js"
    style: str | None = "table.css"
    picture: str | None = "picture.js"

    def names(self) -> list[str]:
        return [name for name in (self.script, self.style, self.picture) if name is not None]


@dataclass(frozen=True)
class Preset:
    """One of a game's ready-made tables on its lobby tile."""

    id: str  # classic | quick (the page names them)
    minutes: int  # how long a game usually takes, bots at normal speed
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


#: How a game's players are rated: ``openskill`` (a rating from matches against others,
#: :mod:`parlour.server.people.ratings`), or ``win-rate`` (a solitaire: the win rate and mean
#: score of the recent deals).
RatedBy = Literal["openskill", "win-rate"]


@dataclass(frozen=True)
class Traits:
    """What a game is, declared on it (as OpenSpiel's ``GameType``): every shared layer reads
    these rather than asking for a game by its id."""

    #: One player alone: no opponents to wait for (no turn timer), no bots to rate against.
    solitaire: bool = False
    #: The seats that play as one side, rated together (Spades: ``((0, 2), (1, 3))``);
    #: empty: each seat alone.
    partnerships: tuple[tuple[int, ...], ...] = ()
    #: How its players are rated (:data:`RatedBy`).
    rated_by: RatedBy = "openskill"
    #: Deals dealt by number: each match has a public deal number whose seed is derived
    #: from it and the server's secret key (the same number, the same deal).
    numbered_deals: bool = False
    #: Whether a state may open a timed phase (:meth:`parlour.engine.State.reaction`, the
    #: slap of Hit the Deck), timed by the server's clock.
    timed_phases: bool = False


@dataclass(frozen=True)
class PuzzleKit:
    """What a game says of its puzzles (its folder's ``puzzles.py``): each theme's id and
    name (the name marked with ``N_``, in the order a puzzles page lists them); ``of(state,
    seat, answer)``, the themes of the puzzle whose answer is ``answer`` in ``state``; and
    the moves that are no real choice, left out when mining judges whether one choice is
    clearly best (Hit the Deck's With a Hand played without the shout: a slip, not a
    plan); and ``first_move``, the first place in a match's history worth judging when
    mining, where the game's early decisions are never clearly best and cost the most to
    judge (Foursquare's open board)."""

    names: Mapping[str, str]
    of: Callable[[Any, int, Any], tuple[str, ...]]
    not_choices: tuple[str, ...] = ()
    first_move: int = 0


#: The kit of a game that says nothing of its puzzles: no theme, every move a choice.
NO_PUZZLE_KIT = PuzzleKit({}, lambda state, seat, answer: ())


@dataclass(frozen=True)
class GameSpec:
    """Everything Parlour knows about one game."""

    game: Game
    #: How the terminal draws the table: a function returning the :class:`TableUI` class
    #: (called when a terminal game starts, so the engine never loads the terminal).
    terminal: Callable[[], type[TableUI]]
    #: What the game is (see :class:`Traits`).
    traits: Traits = field(default_factory=Traits)
    #: How the web client draws the table (files of the game's folder).
    web: WebRenderer = field(default_factory=WebRenderer)
    #: The game's own bot kinds (``{"rule": SpadesRuleBot}``); ``random`` and ``ismcts``
    #: play every game and are not listed.
    bots: Mapping[str, type[Bot]] = field(default_factory=lambda: MappingProxyType({}))
    #: The generic search's helpers for this game (None: plain ISMCTS).
    search: SearchHooks[Any] | None = None
    #: The bot kind that gives hints, or None (the web parlour then offers none; the
    #: terminal's ``?`` asks ismcts).
    hint_bot: str | None = None
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
    #: The game's telling figures, read from a finished match (its ``stats.py``), or None
    #: (only matches, wins and points).
    stats: GameStats | None = None
    #: Options that make a match one deal or round: the daily deal
    #: (``parlour/server/people/daily.py``).
    one_deal: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: Seats at the game's daily deal: the person first, then bots (None: no daily deal).
    daily_seats: int | None = None
    #: Seconds a person has for a turn (None: the server's default; a solitaire has none).
    turn_seconds: int | None = None
    #: Fixed ratings of its bot kinds and levels as Elo points against its rule bot
    #: (``{"rule": 0.0, "ismcts:easy": 241.0}``, measured as docs/bots.md says); a kind
    #: missing here has no rating, so a table with it is not rated.
    bot_elo: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    #: The review's steps (inaccuracy, mistake, blunder) of a decision's loss in winning
    #: chance (docs/review.md), or None: lichess's.
    review_steps: tuple[float, float, float] | None = None
    #: One line on what the game is, for a newcomer's lobby tile (marked with ``N_``).
    tagline: str = ""
    #: The lobby tile's ready-made tables.
    presets: tuple[Preset, ...] = (Preset("classic", 15),)
    #: What its own bots do, for the lobby's tooltips (marked with ``N_``): by ``kind:level``
    #: or ``kind`` (``{"rule": N_("Counts its sure tricks...")}``).
    bot_help: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: Every word the game passes as a :class:`~parlour.message.Term` (its name among
    #: them), written out literally so that ``pybabel extract`` finds each one.
    vocabulary: tuple[Term, ...] = ()
    #: The learning environments' observation encoder: a function returning its class
    #: (imported when called: the encoders need numpy, the ``rl`` extra), or None.
    encoder: Callable[[], type[Encoder]] | None = None
    #: Values a how-to page shows that are worked out from the (resolved) options.
    howto_values: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    #: The how-to pages' figures: a function returning each one's name and drawing (its
    #: folder's ``figures.py``, drawn with :mod:`parlour.howto.figures`' kit), written to
    #: ``howto/<name>.svg`` in its folder.
    figures: Callable[[], Mapping[str, Callable[[], str]]] = lambda: MappingProxyType({})
    #: The part of ``state.view(seat)`` that depends on the seat, alone, or None: a
    #: function of the state and the seat (None too) returning the same keys for every
    #: seat, such that ``view(seat)`` is ``view(None)`` with those keys set to its values
    #: (tests/test_seen.py checks it over random matches). The server then builds and
    #: encodes the spectator's view once a move and each seat's part, not each seat's
    #: whole view; what a seat is sent beyond its part is the spectator's, so a part that
    #: missed a key could only show a seat less, never another seat's secret.
    seat_view: Callable[[State, Seat | None], JsonDict] | None = None
    #: What the game says of its puzzles (a function returning it, its ``puzzles.py``), or
    #: None: its puzzles carry no theme. A game's mined puzzles ship in its folder as
    #: ``puzzles.json.gz`` (:mod:`parlour.puzzles.shipped`).
    puzzle_kit: Callable[[], PuzzleKit] | None = None

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def solitaire(self) -> bool:
        """One player alone (Foursquare): no opponents to wait for, so no turn timer."""
        return self.traits.solitaire

    @property
    def numbered_deals(self) -> bool:
        return self.traits.numbered_deals

    def puzzles(self) -> PuzzleKit:
        """What the game says of its puzzles (its ``puzzle_kit``), or :data:`NO_PUZZLE_KIT`:
        the one lookup every part of the puzzles makes."""
        return self.puzzle_kit() if self.puzzle_kit is not None else NO_PUZZLE_KIT

    @property
    def folder(self) -> Path:
        """The game's folder, ``parlour/games/<game>/``."""
        return GAMES_FOLDER / folder_name(self.game.id)

    def web_path(self, name: str) -> str:
        """Where the server serves one of the game's web files, below ``/static/``
        (``games/spades/table.js``)."""
        return f"{GAME_FILES}/{folder_name(self.game.id)}/{name}"

    def web_files(self) -> list[Path]:
        """The game's web files in its folder: its table's script and style, its lobby
        picture, its how-to pages' figures."""
        return [self.folder / name for name in self.web.names()] + \
            [self.folder / "howto" / f"{name}.svg" for name in self.figures()]

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
        if self.traits.solitaire != (self.game.max_seats == 1):
            raise ValueError(f"{self.game.id}: Traits.solitaire says {self.traits.solitaire}, "
                             f"but the game seats {self.game.min_seats} to "
                             f"{self.game.max_seats}")
        seats = sorted(s for team in self.traits.partnerships for s in team)
        if seats and seats != list(range(self.game.max_seats)):
            raise ValueError(f"{self.game.id}: the partnerships {self.traits.partnerships} "
                             f"are not every seat once")


# ----------------------------------------------------------------------------- the games
#: Every game Parlour plays, in menu order: the one place a game is registered. A game's
#: parts live in its folder ``parlour/games/<id with underscores>/``, whose ``spec.py``
#: builds its :class:`GameSpec` (``build()``).
GAMES: tuple[str, ...] = ("spades", "spite-and-malice", "hit-the-deck", "clockwork-spades",
                          "foursquare", "cangkul")


def folder_name(game_id: str) -> str:
    """The Python name of a game's folder (``spite-and-malice``: ``spite_and_malice``)."""
    return game_id.replace("-", "_")


def _builder(game_id: str) -> Callable[[], GameSpec]:
    def build() -> GameSpec:
        module = importlib.import_module(f"parlour.games.{folder_name(game_id)}.spec")
        built = module.build()
        assert isinstance(built, GameSpec)
        return built
    return build


#: Each registered game's spec builder (tests register a stand-in here).
REGISTERED: dict[str, Callable[[], GameSpec]] = {gid: _builder(gid) for gid in GAMES}


# ----------------------------------------------------------------------------- the loader
def game_ids() -> tuple[str, ...]:
    """Ids of every registered game, in menu order."""
    return tuple(REGISTERED)


def spec(game_id: str) -> GameSpec:
    """The spec of the game with this id (``spades``; ``Spite_and_Malice`` is forgiven); a
    clear error naming the known ids otherwise. A broken add-on module raises its error."""
    if game_id in REGISTERED:  # (by its id, as the server asks several times a move)
        return _build(game_id)
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
