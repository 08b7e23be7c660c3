"""Information Set Monte Carlo Tree Search, generic over the engine contract.

This is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each iteration

1. samples a *determinization* from the bot's observation: a full state consistent with
   what its seat has seen (``obs.sample``), never the true state;
2. walks down one shared tree of action sequences, choosing among the actions legal in
   that determinization by UCB1 where a child's exploration term counts how often it was
   *available* (not how often its parent was visited), since different determinizations
   offer different actions;
3. adds one new node, then plays the rest of the current round (deal) with a fast rollout
   policy (uniform random unless the game supplies a cheaper heuristic);
4. scores the result for every seat with ``state.value(seat)`` (the match result if the
   game ended, else the game's judgement of the match score: Spades weighs the score lead
   and the bags, not the deal's points alone) and backs it up, each node keeping the value
   of the seat whose move led to it. Partners share a value, so a partnership cooperates.

Seats that act at once (a simultaneous phase) are treated one after another in seat order.
The move played is the root child visited most often. Strength is an iteration budget per
level, and the budget alone stops a search, so a seeded bot plays the same moves on any
machine. Only whoever runs the bot may add a wall-clock cap (``Bot.time_cap``: the web
server does, for its tables' pace).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from parlour.bots.base import Bot, Observation, stopwatch
from parlour.engine import Action, Game, Seat, State

Policy = Callable[[State, Seat, random.Random], Action]
Candidates = Callable[[State, Seat, Sequence[Action]], Sequence[Action]]
Playout = Callable[[State, Seat, random.Random], float]

#: Iterations per move by level; games may override (their states differ in cost).
LEVELS = {"easy": 200, "normal": 1500, "hard": 6000}
GAME_LEVELS: dict[str, dict[str, int]] = {}


class Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def random_policy(state: State, seat: Seat, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions(seat))


def search(obs: Observation, rng: random.Random, iterations: int,
           seconds: float | None = None, policy: Policy = random_policy, exploration: float = 0.7,
           rollout_limit: int = 1_000_000,
           candidates: Candidates | None = None) -> dict[Action, Node]:
    """Run ISMCTS from ``obs``; return the root's children (visits and total value).
    A rollout ends with the round, or after ``rollout_limit`` actions (then the state's
    ``value`` judges the position). ``candidates`` narrows the legal actions the tree
    may try (dominated moves dropped, a wide choice collapsed to one representative).
    ``seconds``, if given, also stops the search after that much wall-clock time."""
    root = Node()
    out_of_time = stopwatch(seconds)
    log, sqrt = math.log, math.sqrt
    uniform, rand = policy is random_policy, rng.random
    for i in range(iterations):
        if i & 15 == 15 and out_of_time():
            break
        state = obs.sample(rng)
        start_round = state.round
        node = root
        path: list[tuple[Node, Seat]] = []
        # Selection and expansion.
        while True:
            to_act = state.to_act
            if not to_act or state.round != start_round:
                break
            seat = to_act[0]
            legal = state.legal_actions(seat)
            if candidates is not None:
                legal = candidates(state, seat, legal)
            children = node.children
            best, best_score = -1, -1.0
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                score = child.total / child.visits + exploration * sqrt(
                    log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = a, score
            if untried:
                action = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[action] = Node()
                state.apply(action, seat)
                path.append((child, seat))
                break
            node = children[best]
            state.apply(best, seat)
            path.append((node, seat))
        # Rollout to the end of the round (or the limit).
        for _ in range(rollout_limit):
            to_act = state.to_act
            if not to_act or state.round != start_round:
                break
            seat = to_act[0]
            if uniform:
                legal = state.legal_actions(seat)
                state.apply(legal[int(rand() * len(legal))], seat)
            else:
                state.apply(policy(state, seat, rng), seat)
        values = [state.value(s) for s in range(state.num_seats)]
        for node, seat in path:
            node.visits += 1
            node.total += values[seat]
    return root.children


def playout(state: State, seat: Seat, rng: random.Random, policy: Policy = random_policy,
            limit: int = 1_000_000) -> float:
    """Play ``state`` on with ``policy`` to the end of the round (or ``limit`` actions) and
    return ``seat``'s value there."""
    start = state.round
    for _ in range(limit):
        to_act = state.to_act
        if not to_act or state.round != start:
            break
        seat_to_act = to_act[0]
        state.apply(policy(state, seat_to_act, rng), seat_to_act)
    return state.value(seat)


def paired_search(obs: Observation, rng: random.Random, iterations: int,
                  seconds: float | None = None, policy: Policy = random_policy,
                  rollout_limit: int = 1_000_000, candidates: Candidates | None = None,
                  play_out: Playout | None = None) -> dict[Action, float]:
    """Determinized Monte Carlo with common samples: every candidate move is played out
    from the *same* determinizations (and the same policy randomness), so two moves'
    values differ by the move, not by the luck of their samples. Where moves differ by
    little against a large luck of the draw, this separates them with far fewer playouts
    than a tree, which gives each move its own samples.

    ``iterations`` counts playouts. At 64, 128, 256, ... samples a move is dropped once
    its paired difference to the leader is more than three standard errors below zero,
    so the playouts go to the moves still in doubt (and a clear choice ends early).
    ``seconds``, if given, also stops the search after that much wall-clock time.
    Returns each candidate's mean value (no sampled state leaves this function)."""
    seat = obs.seat
    out_of_time = stopwatch(seconds)
    moves: tuple[Action, ...] = ()
    results: list[list[float]] = []  # per move, its value on each sample it was tried on
    live: list[int] = []
    samples = done = 0
    checkpoint = 64
    while done < iterations:
        if samples and out_of_time():
            break
        state = obs.sample(rng)
        if not samples:
            moves = tuple(candidates(state, seat, obs.legal) if candidates else obs.legal)
            if len(moves) == 1:
                return {moves[0]: 0.5}
            results = [[] for _ in moves]
            live = list(range(len(moves)))
        luck = rng.getrandbits(63)
        for i in live:
            child = state.clone()
            child.apply(moves[i], seat)
            if play_out is not None:
                results[i].append(play_out(child, seat, random.Random(luck)))
            else:
                results[i].append(playout(child, seat, random.Random(luck), policy,
                                          rollout_limit))
        samples += 1
        done += len(live)
        if samples == checkpoint:
            checkpoint *= 2
            live = _still_in_doubt(results, live)
            if len(live) == 1:
                break
    return {a: sum(r) / len(r) for a, r in zip(moves, results, strict=True)}


def _still_in_doubt(results: list[list[float]], live: list[int], z: float = 3.0) -> list[int]:
    """The live moves whose paired difference to the leader is not clearly negative."""
    n = len(results[live[0]])
    leader = max(live, key=lambda i: sum(results[i]))
    best = results[leader]
    keep = []
    for i in live:
        if i != leader:
            diffs = [a - b for a, b in zip(results[i], best, strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean + z * math.sqrt(var / n) < 0:
                continue
        keep.append(i)
    return keep


class ISMCTSBot(Bot):
    """Searches with ISMCTS; ``level`` is ``easy``, ``normal`` or ``hard``. ``iterations``
    replaces the level's budget; ``time_cap`` (seconds a decision may take, None: no cap)
    is for whoever runs the bot, see :attr:`Bot.time_cap`."""

    kind = "ismcts"
    needs_sample = True

    def __init__(self, game: Game, seat: Seat, seed: int, level: str = "normal",
                 iterations: int | None = None, time_cap: float | None = None,
                 exploration: float | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        if level not in LEVELS:
            raise ValueError(f"ismcts level must be one of {', '.join(LEVELS)}, not {level!r}")
        hooks = search_hooks(game.id)
        self.level = level
        levels = hooks.get("levels") or GAME_LEVELS.get(game.id, LEVELS)
        self.iterations = iterations or levels[level]
        self.time_cap = time_cap
        self.exploration = exploration or hooks.get("exploration", 0.7)
        self.policy: Policy = hooks.get("policy", random_policy)
        self.rollout_limit: int = hooks.get("rollout_limit", 1_000_000)
        self.values_hook: ValuesHook | None = hooks.get("values")
        self.values_unit: str = hooks.get("values_unit", "")
        #: What a stateful ``values`` hook keeps between moves (e.g. a plan being played).
        self.memory: dict[str, Any] = {}
        self.candidates: Candidates | None = hooks.get("candidates")
        self.paired: bool = hooks.get("paired", False)
        self.play_out: Playout | None = hooks.get("playout")

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
                                  self.rollout_limit, self.candidates, self.play_out),
                    "estimated chance to win")
        children = search(obs, self.rng, self.iterations, self.time_cap, self.policy,
                          self.exploration, self.rollout_limit, self.candidates)
        stats = {a: children[a] for a in obs.legal if a in children and children[a].visits}
        if not stats:
            return {a: 0.5 for a in obs.legal}, "estimated chance to win"
        values = {a: node.total / node.visits for a, node in stats.items()}
        most = max(stats, key=lambda a: (stats[a].visits, values[a]))
        values[most] = max(values.values()) + 1e-9
        return values, "estimated chance to win"


#: ``values(obs, rng, level, bot)``: the bot is passed for its ``time_cap`` and ``memory``.
ValuesHook = Callable[[Observation, random.Random, str, "ISMCTSBot"],
                      "dict[Action, float] | None"]


def search_hooks(game_id: str) -> dict[str, Any]:
    """A game's optional search helpers, from ``parlour.bots.<game>.SEARCH``: ``policy``
    (a fast rollout policy on a full determinized state), ``values`` and ``values_unit``
    (values per action worked out outside the tree, e.g. Spades bids by simulation; the hook
    is given the bot too, for its ``time_cap`` and ``memory``),
    ``exploration`` (the UCB constant, which depends on how spread the game's values are),
    ``rollout_limit`` (actions before a rollout stops and ``value`` judges), ``candidates``
    (the legal actions the tree may try, from a full state: Hit the Deck collapses its 300
    slap times to one), ``levels`` (iterations per level, when the game's states are
    cheaper or dearer than the default budgets assume), ``paired`` (search by
    :func:`paired_search` instead of the tree) and ``playout`` (a game's own playout to
    the end of the round, returning the value, in place of :func:`playout`)."""
    import importlib

    from parlour.games import module_name

    try:
        module = importlib.import_module(f"parlour.bots.{module_name(game_id)}")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "SEARCH", {}))
