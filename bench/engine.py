#!/usr/bin/env python3
"""Engine speed: random playouts per second, Parlour against peer engines in one run.

Each workload drives a game the way a bot does, through the public contract
(``legal_actions`` then ``apply`` with a uniformly random choice from Python's ``random``);
no private fast path. Peers run the same workload in the same process when the ``bench``
extra is installed (``make .venv/.installed-bench``). Every figure is the best of several
short rounds, alternating the engines so that both see the same machine.

    .venv/bin/python bench/engine.py            # a table
    .venv/bin/python bench/engine.py --json     # {"build": ..., "spades": {"parlour": ...,
                                                #  "openspiel": ..., "ratio": ...}, ...}
    .venv/bin/python bench/engine.py --write    # its section of docs/benchmarks.md

``build`` says whether the compiled build of the hot modules ran (``compiled``) or the pure
one (``PARLOUR_PURE=1`` forces it; see parlour/native.py).

Spades: ``spades`` compares Parlour's random deals with OpenSpiel's Spades driven move by
move from Python (the same loop); ``spades_cpp`` plays the whole deal inside each engine, with
no Python per move on either side: Parlour's (the rollout its searches run,
``parlour.bots.search.random_rollout``, through the contract, compiled) against OpenSpiel's
in C++ (``pyspiel.evaluate_bots`` with C++ uniform random bots). ``spades_loop`` shows what
the Python loop alone costs a deal.

Hit the Deck: ``hit_the_deck`` compares Parlour's two-seat random rounds (deal to last card)
with RLCard's two-player UNO games (``env.run`` with random agents); ``hit_the_deck_4`` is
Parlour's four-seat rounds alone.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.games import game_ids, get_game
    from parlour.native import status
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def rate(work: Callable[[int], None], seconds: float) -> float:
    """Calls of ``work(i)`` per second over about ``seconds``."""
    n, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        work(n)
        n += 1
        if n % 16 == 0 and time.perf_counter() >= deadline:
            return n / (time.perf_counter() - start)


#: Builds a workload's unit of work (``work(i)`` plays the i-th deal, round or game), or
#: None when the engine it needs is not installed.
Maker = Callable[[], Callable[[int], None] | None]


class Rated:
    """A workload as a rate: ``Rated(make)(seconds)`` is its units per second (None for a
    missing peer); ``.make`` builds the work itself, for a fixed count
    (``bench/instructions.py`` counts its instructions)."""

    def __init__(self, make: Maker, whole: Maker | None = None) -> None:
        self.make = make
        #: The same rounds played whole inside Parlour, where there is such a variant (see
        #: :func:`first_rounds`; ``bench/instructions.py whole:NAME`` counts it).
        self.whole = whole

    def __call__(self, seconds: float) -> float | None:
        work = self.make()
        return None if work is None else rate(work, seconds)


# ----------------------------------------------------------------------------- spades
def spades_parlour() -> Callable[[int], None]:
    """A seeded deal, four bids and thirteen tricks."""
    game = get_game("spades")
    rng = random.Random(1)
    choice = rng.choice

    def deal(i: int) -> None:
        state = game.new(i)
        legal, apply = state.legal_actions, state.apply
        while state.deal == 1:
            apply(choice(legal()))

    return deal


def spades_parlour_whole() -> Callable[[int], None]:
    """The same deals played whole inside Parlour, as OpenSpiel's C++ deal is played whole
    inside OpenSpiel: ``game.new`` deals, then one call of the rollout its searches run
    (``parlour.bots.search.random_rollout``, uniform random legal actions through the
    contract's ``to_act``, ``legal_actions`` and ``apply``) plays the bids and thirteen tricks,
    in the compiled build with no Python per move."""
    from parlour.bots.search import random_rollout

    game = get_game("spades")
    rand = random.Random(1).random

    def deal(i: int) -> None:
        random_rollout(game.new(i), rand)

    return deal


def spades_openspiel() -> Callable[[int], None] | None:
    """The same workload through pyspiel: the deal as 52 chance actions, then play."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)

    def deal(_: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()  # uniform over the undealt cards
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return deal


def spades_openspiel_cpp() -> Callable[[int], None] | None:
    """OpenSpiel's whole deal in C++: ``pyspiel.evaluate_bots`` deals it (chance sampled in
    C++) and plays it out with OpenSpiel's C++ uniform random bots, one call from Python a
    deal and no Python at all per move."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(4)]

    def deal(i: int) -> None:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, i)

    return deal


#: Deals whose legal actions :func:`spades_loop_alone` records and replays in turn.
LOOP_DEALS = 200


def spades_loop_alone() -> Callable[[int], None]:
    """The benchmark's own loop with no engine under it: the legal actions of the same
    seeded deals, recorded beforehand, handed back one tuple a move by a C iterator and the
    choice made by the same ``random.choice``, its result appended to a list (C calls that
    do nothing else). What a deal costs any engine driven from Python this way before the
    engine does anything: a floor under ``spades`` (a ``for`` over the moves stands for the
    loop's test of ``state.deal``, a little cheaper)."""
    game = get_game("spades")
    choice = random.Random(1).choice
    recorded = []
    for i in range(LOOP_DEALS):
        state, moves = game.new(i), []
        while state.deal == 1:
            legal = state.legal_actions()
            moves.append(legal)
            state.apply(choice(legal))
        recorded.append(tuple(moves))
    choice = random.Random(1).choice

    def deal(i: int) -> None:
        moves = recorded[i % LOOP_DEALS]
        legal = iter(moves).__next__
        chosen: list[int] = []
        apply = chosen.append
        for _ in moves:
            apply(choice(legal()))

    return deal


# ----------------------------------------------------------------------------- other games
def first_rounds(game_id: str, seats: int | None = None, **options: object) -> Rated:
    """Whole first rounds (or whole games, for games of one round) per second: a seeded
    deal played by uniformly random legal actions, every seat's (slaps included), until
    the game ends or its second round begins. No peer engine has these games but for Hit
    the Deck's nearest, RLCard's UNO."""
    def make() -> Callable[[int], None]:
        game = get_game(game_id)
        choice = random.Random(1).choice

        def one_round(i: int) -> None:
            state = game.new(i, seats, **options)
            legal, apply = state.legal_actions, state.apply
            while state.round == 1:
                to_act = state.to_act
                if not to_act:
                    return
                seat = to_act[0]
                apply(choice(legal(seat)), seat)

        return one_round

    def whole() -> Callable[[int], None]:
        """The same rounds, each played by one call of the rollout Parlour's searches run
        (``random_rollout``: compiled in the compiled build, so the loop is the build's too)."""
        from parlour.bots.search import random_rollout

        game = get_game(game_id)
        rand = random.Random(1).random

        def one_round(i: int) -> None:
            random_rollout(game.new(i, seats, **options), rand)

        return one_round

    return Rated(make, whole)


def hit_the_deck_rlcard_uno() -> Callable[[int], None] | None:
    """RLCard's UNO (two players), whole games the way an RLCard user runs them: random
    agents and ``env.run``."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    import numpy as np

    env = rlcard.make("uno", config={"seed": 1})
    np.random.seed(1)  # RLCard's random agents draw from NumPy's global generator
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    return lambda _: env.run(is_training=False)


# ----------------------------------------------------------------------------- workloads
#: unit, Parlour workload, {peer name: peer workload}
Workload = tuple[str, Rated, dict[str, Rated]]

#: The games whose workloads differ from the default (whole first rounds, in rounds/s):
#: game id -> {workload name: workload}.
SPECIAL: dict[str, dict[str, Workload]] = {
    # The same Parlour deals against OpenSpiel driven from Python (as a bot drives Parlour),
    # and against OpenSpiel's whole deal in C++ (no Python per move: a floor for any engine
    # driven from Python).
    "spades": {"spades": ("deals/s", Rated(spades_parlour),
                         {"openspiel": Rated(spades_openspiel)}),
               "spades_cpp": ("deals/s", Rated(spades_parlour_whole),
                              {"openspiel_cpp": Rated(spades_openspiel_cpp)}),
               # The same deals against the benchmark's loop alone (no engine): how much of
               # a deal is the loop's, which no engine driven from Python can take away.
               "spades_loop": ("deals/s", Rated(spades_parlour),
                               {"loop_alone": Rated(spades_loop_alone)})},
    "clockwork-spades": {"clockwork_spades": ("games/s", first_rounds("clockwork-spades"), {})},
    # Two-seat rounds are what is compared with RLCard's two-player UNO games.
    # A target of 1 point makes a game exactly one round (someone always scores).
    "hit-the-deck": {
        "hit_the_deck": ("rounds/s", first_rounds("hit-the-deck", 2, target=1),
                         {"rlcard_uno": Rated(hit_the_deck_rlcard_uno)}),
        "hit_the_deck_4": ("rounds/s", first_rounds("hit-the-deck", 4, target=1), {}),
    },
    "foursquare": {"foursquare": ("games/s", first_rounds("foursquare"), {})},
}


def workloads() -> dict[str, Workload]:
    """The workloads of every registered game, in menu order: its entries in
    :data:`SPECIAL`, else its first rounds (at random most Spite & Malice rounds end when
    the stock runs out, a drawn round)."""
    out: dict[str, Workload] = {}
    for gid in game_ids():
        default = {gid.replace("-", "_"): ("rounds/s", first_rounds(gid), {})}
        out.update(SPECIAL.get(gid, default))
    return out


WORKLOADS = workloads()


def measure(name: str, rounds: int, seconds: float) -> dict[str, float | None]:
    _, ours, peers = WORKLOADS[name]
    best: dict[str, float | None] = {"parlour": 0.0, **{p: 0.0 for p in peers}}
    for _ in range(rounds):
        best["parlour"] = max(best["parlour"] or 0.0, ours(seconds) or 0.0)
        for peer, work in peers.items():
            got = work(seconds)
            best[peer] = None if got is None else max(best[peer] or 0.0, got)
    out: dict[str, float | None] = {"parlour": round(best["parlour"] or 0.0, 1)}
    for peer in peers:
        value = best[peer]
        out[peer] = None if value is None else round(value, 1)
        if len(peers) == 1:
            out["ratio"] = None if not value else round((best["parlour"] or 0.0) / value, 2)
    return out


def section(results: dict[str, dict[str, float | None]], rounds: int, seconds: float
            ) -> report.Section:
    """docs/benchmarks.md's table of this run."""
    rows = [["workload", "unit", "Parlour", "peer", "peer's rate", "Parlour / peer"]]
    for name, res in results.items():
        unit, _, peers = WORKLOADS[name]
        peer = next(iter(peers), None)
        rows.append([f"`{name}`", unit, report.number(res["parlour"]), peer or "",
                     "" if peer is None else report.number(res[peer]),
                     "" if peer is None else report.number(res.get("ratio"), 2, "")])
    return report.Section(
        "engine", "Engine: random playouts against OpenSpiel and RLCard",
        "Seeded random games through the public contract (`legal_actions`, then `apply` of a "
        "random choice), each peer in the same process with the same workload, the best of "
        f"{rounds} rounds of {seconds:g} s each, the engines alternating: Spades deals against "
        "OpenSpiel's Spades driven from Python (`spades`), the whole deal played inside each "
        "engine by its own random rollout (`spades_cpp`: Parlour's `random_rollout`, compiled, "
        "against OpenSpiel's C++ random bots, no Python per move on either side), two-seat "
        "Hit the Deck rounds "
        "against RLCard's UNO games, and the other games' first rounds alone. A timing moves "
        "with the machine's load; the ratio within one run is what compares.", rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--games", default=",".join(WORKLOADS),
                        help="comma-separated workloads (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine (best kept)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a round")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.games.split(",") if n.strip()]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}: choose from {', '.join(WORKLOADS)}")
    results = {n: measure(n, args.rounds, args.seconds) for n in names}
    if args.write:
        report.write(section(results, args.rounds, args.seconds), args.doc)
    if args.json:
        print(json.dumps({"build": status(), **results}))
        return 0
    print(f"parlour build: {status()}")
    for name, res in results.items():
        unit = WORKLOADS[name][0]
        parts = [f"{k} {v:,.0f} {unit}" if k != "ratio" and v is not None
                 else f"{k} {v}" for k, v in res.items()]
        print(f"{name:18} " + "   ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
