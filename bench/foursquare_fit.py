#!/usr/bin/env python3
"""Fit the Foursquare solver's estimate of the chance to win: a logistic model.

Games are played by the solver (at its default level) after an opening of random length
played partly at random, so that the data holds bad positions as well as good ones. Every
board the solver leaves behind is labelled with whether the game was then won, and a
logistic regression (Newton's method, a little L2) maps the board's features to that
chance. The weights printed go into ``WEIGHTS`` in ``parlour/games/foursquare/bots.py``.

The solver *chooses* by its rank, set by hand (the ``*_POINTS`` weights): a model fitted
to predict how the solver's own games end ranks a board's alternatives badly, since it
learns from the boards the solver chose, not from the ones it avoided.

    .venv/bin/python bench/foursquare_fit.py --games 2000 --jobs 2   # fit, print the weights
    .venv/bin/python bench/foursquare_fit.py --games 1000 --check    # calibration of the current
    .venv/bin/python bench/foursquare_fit.py --records DIR --load FILE   # records, saved boards

Needs NumPy (the ``rl`` extra, part of the development install).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.engine import derive_seed
    from parlour.games.foursquare.bots import (
        AT_LIMIT_POINTS,
        DOWN_FULL_POINTS,
        DOWN_POINTS,
        EXPOSURE_POINTS,
        FEATURES,
        LEVELS,
        PILE_POINTS,
        WEIGHTS,
        Expectimax,
        Position,
        features,
        rule_choice,
    )
    from parlour.games.foursquare.rules import GAME, VALUE, FoursquareState
    from parlour.record import read_record
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

Rows = list[tuple[list[float], int]]


def play_labelled(job: tuple[int, bool]) -> Rows:
    """One game: a noisy opening, then the solver; its boards with the result."""
    seed, noisy = job
    rng = random.Random(derive_seed(seed, "fit"))
    state = GAME.new(derive_seed(seed, "fit-deal"))
    assert isinstance(state, FoursquareState)
    search = Expectimax(**LEVELS["normal"])
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
            action = search.choose(pos).action
        state.apply(action)
        if state.placed > horizon and not state.outcome:
            after = (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
            rows.append(features(after, left))
    won = int(bool(state.outcome and state.outcome.placing[0] == 1))
    return [(r, won) for r in rows]


def generate(games: int, seed: int, jobs: int, noisy: bool) -> Rows:
    jobs_list = [(derive_seed(seed, i), noisy) for i in range(games)]
    out: Rows = []
    if jobs <= 1:
        for rows in map(play_labelled, jobs_list):
            out.extend(rows)
        return out
    with ProcessPoolExecutor(jobs) as pool:
        for rows in pool.map(play_labelled, jobs_list, chunksize=10):
            out.extend(rows)
    return out


def fit(rows: Rows, l2: float = 1e-3) -> list[float]:
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


def calibration(rows: Rows, weights: tuple[float, ...]) -> None:
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


def from_records(folder: Path) -> Rows:
    """The boards of recorded games (``parlour simulate ... --record DIR``), each labelled
    with its game's result."""
    rows: Rows = []
    for path in sorted(folder.glob("foursquare-*.txt")):
        _, final = read_record(path)
        assert isinstance(final, FoursquareState)
        won = int(bool(final.outcome and final.outcome.placing[0] == 1))
        state = GAME.new(final.seed, **final.options)
        assert isinstance(state, FoursquareState)
        for _, action in final.history:
            state.apply(action)
            if state.outcome:
                break
            left = [0] * 11
            for c in state.deal()[state.placed:]:
                left[VALUE[c]] += 1
            board = (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
            rows.append((features(board, left), won))  # type: ignore[arg-type]
    return rows


#: The solver's rank (``parlour.games.foursquare.bots.rank``) as weights on the features.
RANK = (0.0, 16 * PILE_POINTS, -DOWN_POINTS, 0.0, -AT_LIMIT_POINTS, -DOWN_FULL_POINTS,
        -EXPOSURE_POINTS, 0.0, 0.0, 0.0, 0.0, 0.0)


def fit_along(rows: Rows, direction: tuple[float, ...]) -> list[float]:
    """Only a scale and a bias for the weights ``direction`` (its bias ignored): keeps the
    direction's ranking of boards and calibrates it as a chance."""
    projected = [([sum(a * b for a, b in zip(direction[1:], r, strict=True))], y)
                 for r, y in rows]
    bias, scale = fit(projected, l2=0.0)
    return [round(bias, 3)] + [round(scale * d, 4) for d in direction[1:]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--check", action="store_true",
                        help="only show how well the current weights are calibrated")
    parser.add_argument("--plain", action="store_true", help="no noisy openings")
    parser.add_argument("--save", metavar="FILE", help="save the labelled boards (JSON)")
    parser.add_argument("--load", metavar="FILE", action="append",
                        help="boards saved before (repeat to join files): play no games")
    parser.add_argument("--records", metavar="DIR", type=Path, action="append",
                        help="also the boards of recorded games (simulate --record DIR)")
    parser.add_argument("--along-rank", action="store_true",
                        help="fit only a scale and a bias of the solver's rank (to see how "
                             "well the rank alone predicts the result)")
    args = parser.parse_args(argv)
    rows: Rows = []
    for name in args.load or []:
        rows += [(r, y) for r, y in json.loads(Path(name).read_text())]
    for folder in args.records or []:
        rows += from_records(folder)
    if not rows:
        rows = generate(args.games, args.seed, args.jobs, not args.plain)
    if args.save:
        Path(args.save).write_text(json.dumps(rows))
    print("current weights:")
    calibration(rows, WEIGHTS)
    if args.check:
        return 0
    weights = fit_along(rows, RANK) if args.along_rank else fit(rows)
    print("fitted weights:")
    calibration(rows, tuple(weights))
    print("WEIGHTS: tuple[float, ...] = (" + ", ".join(map(str, weights)) + ")")
    print("  # bias, " + ", ".join(FEATURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
