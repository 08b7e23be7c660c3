#!/usr/bin/env python3
"""Reinforcement-learning environment speed: random-policy steps per second, in one run.

Parlour's PettingZoo AEC environments against the peers researchers use today:

* Spades: ``parlour.rl.env("spades", max_deals=1)`` (one deal an episode, as OpenSpiel's
  Spades is one deal) against OpenSpiel's ``rl_environment.Environment("spades")``;
* Hit the Deck, two seats, against RLCard's UNO environment (``rlcard.make("uno")``, two
  players), the shedding game closest to it.

A step is one action of the agent to act, chosen uniformly among the legal ones (from the
action mask by ``ndarray.nonzero``, from OpenSpiel's ``legal_actions``, from RLCard's
``legal_actions``), and everything the environment does for it: observation and mask of the
next agent, rewards, resets at the end of an episode. The agent's draw is Python's
``random.random`` (about 300 instructions), not NumPy's ``Generator.integers`` (some 10,000
a call): the draw is the same in every loop, and a costly one would hide the environments'
difference behind the agent's own work. Each figure is the best of several
short rounds, alternating the environments so that all see the same machine. The peers come
with the ``bench`` extra (``make .venv/.installed-bench``); a missing peer is reported as
such.

    .venv/bin/python bench/rl.py              # a table
    .venv/bin/python bench/rl.py --json       # {"spades": {"parlour": ..., "openspiel": ...}}
    .venv/bin/python bench/rl.py --write      # its section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import numpy  # noqa: F401  (the learning environments need it: say so before any run)
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

Stepper = Callable[[], Callable[[], int]]


def steps_per_second(make: Stepper, seconds: float) -> float:
    """Steps per second of a stepper (a function that plays a little and returns how many
    steps it took) over about ``seconds``, after building it."""
    run = make()
    n, start = 0, time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        n += run()
    return n / (time.perf_counter() - start)


def parlour_stepper(game_id: str, **kwargs: Any) -> Stepper:
    def make() -> Callable[[], int]:
        from parlour import rl

        env = rl.raw_env(game_id, **kwargs)
        rand = random.Random(1).random  # the agent's uniform choice: legal[int(rand() * n)]
        env.reset(seed=1)

        def episode() -> int:
            steps = 0
            for agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[int(rand() * len(legal))]))
                steps += 1
                del agent
            env.reset()
            return steps

        return episode

    return make


def openspiel_stepper() -> Stepper | None:
    try:
        from open_spiel.python import rl_environment
    except ImportError:
        return None

    def make() -> Callable[[], int]:
        env = rl_environment.Environment(
            "spades", chance_event_sampler=rl_environment.ChanceEventSampler(seed=1))
        rand = random.Random(1).random  # the agent's uniform choice: legal[int(rand() * n)]

        def episode() -> int:
            steps = 0
            time_step = env.reset()
            while not time_step.last():
                player = time_step.observations["current_player"]
                legal = time_step.observations["legal_actions"][player]
                time_step = env.step([legal[int(rand() * len(legal))]])
                steps += 1
            return steps

        return episode

    return make


def rlcard_stepper() -> Stepper | None:
    try:
        import rlcard
    except ImportError:
        return None

    def make() -> Callable[[], int]:
        env = rlcard.make("uno", config={"seed": 1})
        rand = random.Random(1).random  # the agent's uniform choice: legal[int(rand() * n)]

        def episode() -> int:
            steps = 0
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[int(rand() * len(legal))])
                steps += 1
            env.get_payoffs()  # the episode's rewards, as a training loop reads them
            return steps

        return episode

    return make


WORKLOADS: dict[str, tuple[Stepper, str, Callable[[], Stepper | None]]] = {
    "spades": (parlour_stepper("spades", max_deals=1), "openspiel", openspiel_stepper),
    "hit_the_deck": (parlour_stepper("hit-the-deck", seats=2), "rlcard", rlcard_stepper),
}


def measure(rounds: int, seconds: float) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    for name, (ours, peer_name, peer_factory) in WORKLOADS.items():
        peer = peer_factory()
        best_ours, best_peer = 0.0, 0.0
        for _ in range(rounds):
            best_ours = max(best_ours, steps_per_second(ours, seconds))
            if peer is not None:
                best_peer = max(best_peer, steps_per_second(peer, seconds))
        entry: dict[str, Any] = {"parlour": round(best_ours), "peer": peer_name,
                                 peer_name: round(best_peer) if peer else None}
        entry["ratio"] = round(best_ours / best_peer, 2) if peer and best_peer else None
        results[name] = entry
    return results


def section(results: dict[str, dict[str, Any]], rounds: int, seconds: float) -> report.Section:
    """docs/benchmarks.md's table of this run."""
    names = {"spades": "Spades (one deal an episode)", "hit_the_deck": "Hit the Deck, 2 seats"}
    peers = {"openspiel": "OpenSpiel `rl_environment` Spades", "rlcard": "RLCard UNO, 2 players"}
    rows = [["environment", "Parlour steps/s", "peer", "peer steps/s", "Parlour / peer"]]
    for name, r in results.items():
        rows.append([names.get(name, name), report.number(r["parlour"]),
                     peers.get(r["peer"], r["peer"]), report.number(r[r["peer"]]),
                     report.number(r["ratio"], 2, "")])
    return report.Section(
        "rl", "Learning environments: steps per second against OpenSpiel and RLCard",
        "Random-policy steps of Parlour's PettingZoo AEC environments (one agent's action, then "
        "the next agent's observation and mask, rewards and resets included) against the "
        "environments researchers use today, alternating round by round, the best of "
        f"{rounds} rounds of {seconds:g} s. A timing moves with the machine's load; the "
        "ratio within one run is what compares (`bench/instructions.py rl:spades "
        "rl:hit_the_deck` counts the same steps in instructions).", rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--json", action="store_true")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    results = measure(args.rounds, args.seconds)
    if args.write:
        report.write(section(results, args.rounds, args.seconds), args.doc)
    from parlour.native import status

    if args.json:
        print(json.dumps({"build": status(), **results}))
        return 0
    print(f"parlour build: {status()}")
    print(f"{'workload':14} {'parlour steps/s':>16} {'peer':>10} {'peer steps/s':>13} "
          f"{'ratio':>6}")
    for name, r in results.items():
        peer = r[r["peer"]]
        print(f"{name:14} {r['parlour']:>16,} {r['peer']:>10} "
              f"{'missing' if peer is None else f'{peer:,}':>13} "
              f"{'' if r['ratio'] is None else r['ratio']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
