"""The searches the search bots run, generic over the engine contract, and compiled by
the compiled build (:mod:`parlour.native`) with the games' rules they call.

:func:`search` is single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012). Each
iteration

1. samples a *determinization* from the bot's observation: a full state consistent with
   what its seat has seen (``obs.sample``), never the true state;
2. walks down one shared tree of action sequences, choosing among the actions legal in
   that determinization by UCB1 where a child's exploration term counts how often it was
   *available* (not how often its parent was visited), since different determinizations
   offer different actions;
3. adds one new node, then plays the rest of the current round (deal) with a fast rollout
   policy (uniform random unless the game supplies a cheaper heuristic);
4. scores the result for every seat with the game's ``value`` hook (the match result if
   the game ended, else the bot module's judgement of the match score: Spades weighs the
   score lead and the bags, not the deal's points alone; without a hook the engine's
   ``state.value(seat)``) and backs it up, each node keeping the value
   of the seat whose move led to it. Partners share a value, so a partnership cooperates.

Seats that act at once (a simultaneous phase) are treated one after another in seat order.
:func:`paired_search` plays every candidate move out from the same determinizations
instead. The budget alone stops a search unless it is given ``seconds``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from parlour.bots.base import Observation, stopwatch
from parlour.engine import Action, Seat, State

Policy = Callable[[State, Seat, random.Random], Action]
Candidates = Callable[[State, Seat, Sequence[Action]], Sequence[Action]]
Playout = Callable[[State, Seat, random.Random], float]
#: How well a seat stands in a state a playout stopped in, 0 to 1 (a game's ``value`` hook).
Value = Callable[[State, Seat], float]
#: ``settled(moves, results, live)``: whether a paired search's question is answered, so
#: that it may stop before its budget (the review's: the mark of the move played can no
#: longer change). ``results[i]`` holds move i's value on each sample it was played out
#: from (the first ones, in order: a dropped move's list stops growing).
Settled = Callable[[Sequence[Action], list[list[float]], list[int]], bool]
#: The first sample count at which ``settled`` is asked, and its least step after that:
#: fewer samples leave a rare turn of the cards unseen and a chance too rough to show.
SETTLE_FROM = 128
SETTLE_STEP = 32


class Node:
    """A node of the search tree: the move that led to it, seen from its parent (its
    ``children`` by action, how often it was ``visits``-ed, how often it was available
    (``avail``), and the ``total`` value backed up through it)."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def random_policy(state: State, seat: Seat, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions(seat))


def random_rollout(state: State, rand: Callable[[], float], limit: int = 1_000_000,
                   start_round: int | None = None) -> int:
    """Play ``state`` on by uniformly random legal actions, the first seat to act choosing
    ``legal[int(rand() * len(legal))]``, until the game ends, its round is no longer
    ``start_round`` (by default the round it is in), or ``limit`` actions; returns how many
    were played. The rollout of :func:`search` (compiled, it runs no Python per move: a
    whole Spades deal from ``game.new`` is one call)."""
    start = state.round if start_round is None else start_round
    played = 0
    while played < limit:
        to_act = state.to_act
        if not to_act or state.round != start:
            break
        seat = to_act[0]
        legal = state.legal_actions(seat)
        # (a float times a float: compiled, a float times an int is generic code)
        state.apply(legal[int(rand() * float(len(legal)))], seat)
        played += 1
    return played


def rollout(state: State, policy: Policy, rng: random.Random, limit: int = 1_000_000,
            start_round: int | None = None) -> None:
    """Play ``state`` on with ``policy`` (the first seat to act choosing) until the game
    ends, its round is no longer ``start_round`` (by default the round it is in), or
    ``limit`` actions. :func:`random_rollout` is the uniform policy's, written out (no call
    of a policy a move)."""
    start = state.round if start_round is None else start_round
    for _ in range(limit):
        to_act = state.to_act
        if not to_act or state.round != start:
            break
        seat = to_act[0]
        state.apply(policy(state, seat, rng), seat)


def state_value(state: State, seat: Seat) -> float:
    """The engine's judgement: the reward once the game is over, else 0.5."""
    return state.value(seat)


def search(obs: Observation, rng: random.Random, iterations: int,
           seconds: float | None = None, policy: Policy = random_policy, exploration: float = 0.7,
           rollout_limit: int = 1_000_000,
           candidates: Candidates | None = None,
           value: Value = state_value) -> dict[Action, Node]:
    """Run ISMCTS from ``obs``; return the root's children (visits and total value).
    A rollout ends with the round, or after ``rollout_limit`` actions (then the state's
    ``value`` judges the position). ``candidates`` narrows the legal actions the tree
    may try (dominated moves dropped, a wide choice collapsed to one representative).
    ``seconds``, if given, also stops the search after that much wall-clock time."""
    root = Node()
    out_of_time = stopwatch(seconds)
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
                legal = tuple(candidates(state, seat, legal))
            children = node.children
            best, best_score = -1, -1.0
            untried: list[Action] = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                score = child.total / child.visits + exploration * math.sqrt(
                    math.log(child.avail) / child.visits)
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
        if uniform:
            random_rollout(state, rand, rollout_limit, start_round)
        else:
            rollout(state, policy, rng, rollout_limit, start_round)
        values = [value(state, s) for s in range(state.num_seats)]
        for node, seat in path:
            node.visits += 1
            node.total += values[seat]
    return root.children


def playout(state: State, seat: Seat, rng: random.Random, policy: Policy = random_policy,
            limit: int = 1_000_000, value: Value = state_value) -> float:
    """Play ``state`` on with ``policy`` to the end of the round (or ``limit`` actions) and
    return ``seat``'s value there."""
    rollout(state, policy, rng, limit)
    return value(state, seat)


def paired_search(obs: Observation, rng: random.Random, iterations: int,
                  seconds: float | None = None, policy: Policy = random_policy,
                  rollout_limit: int = 1_000_000, candidates: Candidates | None = None,
                  play_out: Playout | None = None,
                  value: Value = state_value,
                  settled: Settled | None = None) -> dict[Action, float]:
    """Determinized Monte Carlo with common samples: every candidate move is played out
    from the *same* determinizations (and the same policy randomness), so two moves'
    values differ by the move, not by the luck of their samples. Where moves differ by
    little against a large luck of the draw, this separates them with far fewer playouts
    than a tree, which gives each move its own samples.

    ``iterations`` counts playouts. At 64, 128, 256, ... samples a move is dropped once
    its paired difference to the leader is more than three standard errors below zero,
    so the playouts go to the moves still in doubt (and a clear choice ends early).
    ``settled``, if given, is asked at :data:`SETTLE_FROM` samples and then every quarter
    more (at least :data:`SETTLE_STEP`) whether the caller's question is answered, which
    also stops the search: a rule on the samples alone, so the stop is the same on any
    machine. ``seconds``, if given, also stops the search after that much wall-clock time.
    Returns each candidate's mean value (no sampled state leaves this function)."""
    seat = obs.seat
    out_of_time = stopwatch(seconds)
    moves: tuple[Action, ...] = ()
    results: list[list[float]] = []  # per move, its value on each sample it was tried on
    live: list[int] = []
    samples = done = 0
    checkpoint = 64
    look = SETTLE_FROM
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
                                          rollout_limit, value))
        samples += 1
        done += len(live)
        if samples == checkpoint:
            checkpoint *= 2
            live = _still_in_doubt(results, live)
            if len(live) == 1:
                break
        if settled is not None and samples == look:
            look = max(look + SETTLE_STEP, look + look // 4)
            if settled(moves, results, live):
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
