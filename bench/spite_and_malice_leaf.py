#!/usr/bin/env python3
"""Fit the Spite & Malice search's leaf evaluation (``LEAF_*`` in
parlour.games.spite_and_malice.bots).

Plays rule bot against rule bot, records every position where a turn has just ended, with
the features :func:`leaf_value` reads, from the side of the seat that has just moved (its
opponent to move), and the round's final points margin for that seat (the winner scores the
loser's payoff cards; a drawn round is 0). Then fits the margin by least squares. The
seat to move is scored by the mirror image of the same fit, so each position counts for
both sides.

    .venv/bin/python bench/spite_and_malice_leaf.py              # 120 matches of 8 rounds, a table
    .venv/bin/python bench/spite_and_malice_leaf.py --matches 20 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import numpy as np

    from parlour.games import get_game
    from parlour.games.spite_and_malice.planner import payoff_gap, rule_turn
    from parlour.games.spite_and_malice.rules import EMPTY, VALUE, WILD, SpiteAndMaliceState
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

NAMES = ["constant", "payoff lead", "hand wilds", "side wilds",
         "gap 0 mine", "gap 1 mine", "gap 2 mine", "gap 0 theirs", "gap 1 theirs", "gap 2 theirs"]


def features(state: SpiteAndMaliceState, me: int) -> list[float]:
    """The leaf's features for ``me``, whose opponent is to move."""
    op = 1 - me

    def wilds(seat: int) -> tuple[int, int]:
        hand = sum(1 for f in state.hands[seat] if f != EMPTY and VALUE[f] == WILD)
        side = sum(1 for pile in state.side[seat] for f in pile if VALUE[f] == WILD)
        return hand, side

    (hand, side), (o_hand, o_side) = wilds(me), wilds(op)
    gaps = [payoff_gap(VALUE[state.payoff[s][-1]], state.centre) for s in (me, op)]
    return [1.0, len(state.payoff[op]) - len(state.payoff[me]), hand - o_hand, side - o_side,
            *(float(gaps[0] == g) for g in (0, 1, 2)), *(float(gaps[1] == g) for g in (0, 1, 2))]


def collect(matches: int, rounds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    game = get_game("spite-and-malice")
    rows: list[list[float]] = []
    margins: list[float] = []
    for m in range(matches):
        state = game.new(seed * 1_000_003 + m, target=10**6, max_rounds=rounds)
        assert isinstance(state, SpiteAndMaliceState)
        pending: list[tuple[int, list[float]]] = []
        current = state.round
        while state.to_act:
            seat = state.to_act[0]
            rule_turn(state, seat, node_limit=3000)
            if state.round != current or not state.to_act:
                last = state.rounds[-1]
                for me, row in pending:
                    winner = last["winner"]
                    rows.append(row)
                    margins.append(0.0 if winner is None else
                                   last["points"] if winner == me else -last["points"])
                pending, current = [], state.round
            else:
                pending.append((seat, features(state, seat)))
    return np.array(rows), np.array(margins)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    x, y = collect(args.matches, args.rounds, args.seed)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    r2 = 1 - float(np.var(y - x @ coef) / np.var(y))
    fit = {name: round(float(c), 3) for name, c in zip(NAMES, coef, strict=True)}
    if args.json:
        print(json.dumps({"positions": len(y), "r2": round(r2, 4), "coefficients": fit}))
        return
    print(f"{len(y)} positions, R^2 {r2:.3f} (margin of the seat that has just moved)")
    for name, c in fit.items():
        print(f"  {name:14} {c:+.3f}")


if __name__ == "__main__":
    main()
