#!/usr/bin/env python3
"""Fit the Foursquare solver's evaluation: a logistic model of the chance to win.

Games are played by the solver (one card of lookahead) after an opening of random length
played partly at random, so that the data holds bad positions as well as good ones. Every
board the solver leaves behind is labelled with whether the game was then won, and a
logistic regression (Newton's method, a little L2) maps the board's features to that
chance. The weights printed go into ``WEIGHTS`` in ``parlour/bots/foursquare.py``.

    python bench/foursquare_fit.py --games 4000 --jobs 2       # fit and print the weights
    python bench/foursquare_fit.py --games 1000 --check        # calibration of the current

Needs numpy (installed with the ``plots`` or ``dev`` extra).
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor

from parlour.bots.foursquare import (
    FEATURES,
    WEIGHTS,
    Expectimax,
    Position,
    features,
    rule_choice,
    win_chance,
)
from parlour.engine import derive_seed
from parlour.games.foursquare import GAME, VALUE, FoursquareState


def play_labelled(job: tuple[int, tuple[float, ...], bool]) -> list[tuple[list[float], int]]:
    """One game: a noisy opening, then the solver; its boards with the result."""
    seed, weights, noisy = job
    rng = random.Random(derive_seed(seed, "fit"))
    state = GAME.new(derive_seed(seed, "fit-deal"))
    assert isinstance(state, FoursquareState)
    search = Expectimax(depth=1, evaluate=lambda b, left: win_chance(b, left, weights))
    horizon = rng.randrange(0, 26) if noisy else 0
    rows: list[list[float]] = []
    while state.to_act:
        left = [0] * 11
        for c in state.deal()[state.placed + 1:]:
            left[VALUE[c]] += 1
        board = (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
        pos = Position(board, state.placed, VALUE[state.card], left)  # type: ignore[arg-type]
        if state.placed < horizon and rng.random() < 0.5:
            action = rng.choice(state.legal_actions()) if rng.random() < 0.5 \
                else rule_choice(pos)
        else:
            action = search.choose(pos)[0]
        state.apply(action)
        if state.placed > horizon and not state.outcome:
            after = (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
            rows.append(features(after, left))
    won = int(bool(state.outcome and state.outcome.placing[0] == 1))
    return [(r, won) for r in rows]


def generate(games: int, seed: int, weights: tuple[float, ...], jobs: int, noisy: bool
             ) -> list[tuple[list[float], int]]:
    jobs_list = [(derive_seed(seed, i), weights, noisy) for i in range(games)]
    out: list[tuple[list[float], int]] = []
    if jobs <= 1:
        for rows in map(play_labelled, jobs_list):
            out.extend(rows)
        return out
    with ProcessPoolExecutor(jobs) as pool:
        for rows in pool.map(play_labelled, jobs_list, chunksize=10):
            out.extend(rows)
    return out


def fit(rows: list[tuple[list[float], int]], l2: float = 1e-3) -> list[float]:
    import numpy as np

    x = np.array([[1.0, *r] for r, _ in rows])
    y = np.array([w for _, w in rows], dtype=float)
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * np.r_[0, w[1:]]
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.diag(np.r_[0, np.ones(len(w) - 1)])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return [round(float(v), 3) for v in w]


def calibration(rows: list[tuple[list[float], int]], weights: tuple[float, ...]) -> None:
    import math

    preds = []
    for r, won in rows:
        z = weights[0] + sum(a * b for a, b in zip(weights[1:], r, strict=True))
        preds.append((1 / (1 + math.exp(-max(-30.0, z))), won))
    preds.sort()
    loss = -sum(math.log(max(1e-9, p if y else 1 - p)) for p, y in preds) / len(preds)
    print(f"{len(preds)} boards, {sum(y for _, y in preds) / len(preds):.3f} from won games, "
          f"log loss {loss:.4f}")
    k = 10
    for i in range(k):
        part = preds[i * len(preds) // k:(i + 1) * len(preds) // k]
        if part:
            mean_p = sum(p for p, _ in part) / len(part)
            rate = sum(y for _, y in part) / len(part)
            print(f"  predicted {mean_p:6.3f}   won {rate:6.3f}   ({len(part)} boards)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="only show how well the current weights are calibrated")
    parser.add_argument("--plain", action="store_true", help="no noisy openings")
    args = parser.parse_args(argv)
    rows = generate(args.games, args.seed, WEIGHTS, args.jobs, not args.plain)
    print("current weights:")
    calibration(rows, WEIGHTS)
    if args.check:
        return 0
    weights = fit(rows)
    print("fitted weights:")
    calibration(rows, tuple(weights))
    print("WEIGHTS: tuple[float, ...] = (" + ", ".join(map(str, weights)) + ")")
    print("  # bias, " + ", ".join(FEATURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
