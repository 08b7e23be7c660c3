"""The ISMCTS bot: searches by Information Set Monte Carlo Tree Search
(:func:`parlour.bots.search.search`) or, where a game asks, by paired playouts
(:func:`parlour.bots.search.paired_search`), with each game's helpers
(:class:`SearchHooks`, ``SEARCH`` in the game's bot module).

The move played is the root child visited most often. Strength is an iteration budget per
level, and the budget alone stops a search, so a seeded bot plays the same moves on any
machine. Only whoever runs the bot may add a wall-clock cap (``Bot.time_cap``: the web
server does, for its tables' pace).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from parlour.bots.base import Bot, Observation
from parlour.bots.search import (
    Candidates,
    Playout,
    Policy,
    Value,
    paired_search,
    random_policy,
    search,
    state_value,
)
from parlour.engine import Action, Game, Seat, State
from parlour.message import N_
from parlour.registry import spec

#: Iterations per move by level; a game's :class:`SearchHooks` may set its own (its states
#: differ in cost).
LEVELS = {"easy": 200, "normal": 1500, "hard": 6000}


class ISMCTSBot(Bot):
    """Searches with ISMCTS; ``level`` is ``easy``, ``normal`` or ``hard``. ``iterations``
    replaces the level's budget; ``time_cap`` (seconds a decision may take, None: no cap)
    is for whoever runs the bot, see :attr:`Bot.time_cap`."""

    kind = "ismcts"
    needs_sample = True
    levels = tuple(LEVELS)

    def __init__(self, game: Game, seat: Seat, seed: int, level: str = "normal",
                 iterations: int | None = None, time_cap: float | None = None,
                 exploration: float | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        if level not in LEVELS:
            raise ValueError(f"ismcts level must be one of {', '.join(LEVELS)}, not {level!r}")
        hooks = search_hooks(game.id)
        self.level = level
        self.iterations = iterations or hooks.levels[level]
        self.time_cap = time_cap
        self.exploration = exploration or hooks.exploration
        self.policy: Policy = hooks.policy
        self.rollout_limit = hooks.rollout_limit
        self.values_hook: ValuesHook | None = hooks.values
        self.values_unit = hooks.values_unit
        #: What a stateful ``values`` hook keeps between moves (e.g. a plan being played).
        self.memory: dict[str, Any] = {}
        self.candidates: Candidates | None = hooks.candidates
        self.paired = hooks.paired
        self.play_out: Playout | None = hooks.playout
        self.value: Value = hooks.value

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        values, _ = self.analyse(obs)
        return max(obs.legal, key=lambda a: values.get(a, -math.inf))

    def analyse(self, obs: Observation) -> tuple[dict[Action, float], str]:
        """A value per legal action and what the values mean. By default the mean
        result of searching each move (an estimate of the chance to win, 0 to 1; the move
        searched most is nudged to the top, since visits are the more reliable measure);
        a game's own ``values`` hook may answer instead (Spades bids)."""
        if self.values_hook is not None:
            values = self.values_hook(obs, self.rng, self.level, self)
            if values is not None:
                return values, self.values_unit
        if self.paired:
            return (paired_search(obs, self.rng, self.iterations, self.time_cap, self.policy,
                                  self.rollout_limit, self.candidates, self.play_out,
                                  self.value),
                    N_("estimated chance to win"))
        children = search(obs, self.rng, self.iterations, self.time_cap, self.policy,
                          self.exploration, self.rollout_limit, self.candidates, self.value)
        stats = {a: children[a] for a in obs.legal if a in children and children[a].visits}
        if not stats:
            return {a: 0.5 for a in obs.legal}, N_("estimated chance to win")
        values = {a: node.total / node.visits for a, node in stats.items()}
        most = max(stats, key=lambda a: (stats[a].visits, values[a]))
        values[most] = max(values.values()) + 1e-9
        return values, N_("estimated chance to win")


#: ``values(obs, rng, level, bot)``: the bot is passed for its ``time_cap`` and ``memory``.
ValuesHook = Callable[[Observation, random.Random, str, "ISMCTSBot"],
                      "dict[Action, float] | None"]


S = TypeVar("S", bound=State)


@dataclass(frozen=True)
class SearchHooks(Generic[S]):
    """A game's helpers for the generic search (its :class:`~parlour.registry.GameSpec`
    carries one; the defaults are plain ISMCTS). ``S`` is the game's state class, which the
    helpers are given (a determinization: a full state)."""

    #: A fast rollout policy on a full determinized state.
    policy: Callable[[S, Seat, random.Random], Action] = random_policy
    #: Values per action worked out outside the tree (Spades bids by simulation), or None
    #: to let the tree decide; given the bot too, for its ``time_cap`` and ``memory``.
    values: ValuesHook | None = None
    #: What the ``values`` hook's numbers measure (shown with a hint).
    values_unit: str = ""
    #: The UCB constant, which depends on how spread the game's values are.
    exploration: float = 0.7
    #: Actions before a rollout stops and ``value`` judges.
    rollout_limit: int = 1_000_000
    #: How well a seat stands where a playout stopped, 0 to 1: the game's estimate of the
    #: match score, tuned to its bots (the engine's result, else 0.5, by default).
    value: Callable[[S, Seat], float] = state_value
    #: The legal actions the tree may try, from a full state (Hit the Deck collapses its
    #: 300 slap times to one).
    candidates: Callable[[S, Seat, Sequence[Action]], Sequence[Action]] | None = None
    #: Iterations per level, when the game's states are cheaper or dearer than
    #: :data:`LEVELS` assumes.
    levels: Mapping[str, int] = field(default_factory=lambda: MappingProxyType(LEVELS))
    #: A post-game review's iterations per decision, where not twice the hard level's (a
    #: game whose levels moved keeps the judgement its review and puzzles were measured at).
    review_iterations: int | None = None
    #: Search by :func:`paired_search` instead of the tree.
    paired: bool = False
    #: The game's own playout to the end of the round, returning the value, in place of
    #: :func:`playout`.
    playout: Callable[[S, Seat, random.Random], float] | None = None

    def __post_init__(self) -> None:
        if set(self.levels) != set(LEVELS):
            raise ValueError(f"search levels must be {', '.join(LEVELS)}, not "
                             f"{', '.join(self.levels)}")


#: Plain ISMCTS: the hooks of a game that sets none.
PLAIN: SearchHooks[State] = SearchHooks()


def search_hooks(game_id: str) -> SearchHooks[Any]:
    """The game's search hooks (its spec's ``search``), or :data:`PLAIN` for a game with none."""
    return spec(game_id).search or PLAIN


def level_iterations(game_id: str, level: str) -> int:
    """The iterations (playouts, samples) the search bot has at ``level`` in the game."""
    return search_hooks(game_id).levels[level]
