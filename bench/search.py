#!/usr/bin/env python3
"""Search speed: ISMCTS iterations per second from a fixed Spades first-trick position.

Parlour's ISMCTS (``parlour.bots.search.search``, random rollouts to the end of the deal,
valued by the Spades bot's ``value`` hook)
against OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``, random-rollout
evaluator, observation strings as keys since OpenSpiel's Spades has no information-state
string) with a resampler written here, on the same deal and bids, in the same run.

    .venv/bin/python bench/search.py            # a table
    .venv/bin/python bench/search.py --json     # {"spades": {"parlour": ..., "openspiel": ...}}
    .venv/bin/python bench/search.py --write    # its section of docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.bots import observe
    from parlour.bots.search import search
    from parlour.cards import cards_of
    from parlour.games import get_game
    from parlour.games.spades.bots import value as spades_value
    from parlour.games.spades.rules import BID_BASE, SpadesState
    from parlour.native import status
    from parlour.sampling import deal_by_kind
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

SEED = 2026
BIDS = (3, 3, 3, 3)


def parlour_position() -> SpadesState:
    """Deal ``SEED``; everyone bids 3; South (seat 0) is to lead the first trick."""
    state = get_game("spades").new(SEED)
    assert isinstance(state, SpadesState)
    for bid in BIDS:
        state.apply(BID_BASE + bid)
    return state


def parlour_rate(iterations: int) -> float:
    state = parlour_position()
    obs = observe(state, state.to_act[0], random.Random(1), sample=True)
    start = time.perf_counter()
    search(obs, random.Random(2), iterations, value=spades_value)
    return iterations / (time.perf_counter() - start)


def openspiel_rate(iterations: int) -> float | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    hands = [sorted(cards_of(h)) for h in parlour_position().hands]
    state = game.new_initial_state()
    for k in range(52):  # OpenSpiel deals the k-th chance card to player k % 4
        state.apply_action(hands[k % 4][k // 4])
    for bid in BIDS:
        state.apply_action(BID_BASE + bid)  # same action ids: 52 nil, 52 + n bid n
    rng = random.Random(3)

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        """Redeal the cards ``player`` has not seen, keeping what each player has played
        and the suits each has shown it lacks; replay bids and plays on the new deal."""
        history = state.history()
        deal, moves = history[:52], history[52:]
        dealt = [[c for k, c in enumerate(deal) if k % 4 == p] for p in range(4)]
        plays = [a for a in moves[4:]]
        played_by: list[list[int]] = [[], [], [], []]
        voids = [0, 0, 0, 0]
        leader = 0
        for i in range(0, len(plays), 4):
            trick = plays[i:i + 4]
            for j, card in enumerate(trick):
                seat = (leader + j) % 4
                played_by[seat].append(card)
                if card // 13 != trick[0] // 13:
                    voids[seat] |= 1 << (trick[0] // 13)
            if len(trick) == 4:
                best, win = trick[0], 0
                for j, card in enumerate(trick[1:], 1):
                    if card > best and (card >= 39 or card // 13 == best // 13):
                        best, win = card, j
                leader = (leader + win) % 4
        others = [p for p in range(4) if p != player]
        played = {c for p in range(4) for c in played_by[p]}
        pool = sorted(c for p in others for c in dealt[p] if c not in played)
        sizes = [0 if p == player else 13 - len(played_by[p]) for p in range(4)]
        redealt = deal_by_kind(pool, sizes, rng, lambda c: c // 13,
                               [~v & 0xF for v in voids])
        new_hands = [dealt[p] if p == player else played_by[p] + redealt[p] for p in range(4)]
        new = game.new_initial_state()
        for k in range(52):
            new.apply_action(new_hands[k % 4][k // 4])
        for action in moves:
            new.apply_action(action)
        return new

    np_rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np_rng), uct_c=0.7,
                           max_simulations=iterations, random_state=np_rng,
                           use_observation_string=True)
    bot.set_resampler(resample)
    start = time.perf_counter()
    bot.run_search(state)
    return iterations / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--iterations", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine (best kept)")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    ours = max(parlour_rate(args.iterations) for _ in range(args.rounds))
    peer_runs = [openspiel_rate(max(200, args.iterations // 4)) for _ in range(args.rounds)]
    peer = None if peer_runs[0] is None else max(r for r in peer_runs if r is not None)
    result = {"spades": {"parlour": round(ours, 1),
                         "openspiel": None if peer is None else round(peer, 1),
                         "ratio": None if not peer else round(ours / peer, 2)}}
    if args.write:
        r = result["spades"]
        report.write(report.Section(
            "search", "Search: ISMCTS iterations per second against OpenSpiel",
            "Information-set Monte Carlo tree search from one fixed Spades first-trick position, "
            "random rollouts to the end of the deal on both sides: Parlour's search "
            "(`parlour.bots.search`) against OpenSpiel's Python ISMCTS with a resampler "
            f"written for it, the best of {args.rounds} rounds each ({args.iterations:,} "
            "iterations a round for Parlour, a quarter as many for OpenSpiel).",
            [["position", "Parlour it/s", "OpenSpiel it/s", "Parlour / OpenSpiel"],
             ["Spades, first trick", report.number(r["parlour"]), report.number(r["openspiel"]),
              report.number(r["ratio"], 2, "")]]), args.doc)
    if args.json:
        print(json.dumps({"build": status(), **result}))
    else:
        print(f"parlour build: {status()}")
        r = result["spades"]
        peer_text = "not installed" if r["openspiel"] is None else f"{r['openspiel']:,.0f} it/s"
        print(f"spades ISMCTS  parlour {r['parlour']:,.0f} it/s   openspiel {peer_text}   "
              f"ratio {r['ratio']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
