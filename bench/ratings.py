"""Rating sanity: bot kinds of clearly different strength play many rated matches against
each other with ratings that start equal (OpenSkill, as the server rates people), and the
ratings must order them (random < rule < ismcts) and settle.

    .venv/bin/python bench/ratings.py            # every game, the default kinds and counts
    .venv/bin/python bench/ratings.py --game spades --matches 120 --kinds random,rule,ismcts:easy

Each match draws two kinds (or, in Hit the Deck, seats every kind once) in a rotating order
with random seats; Spades seats a kind as a partnership of two rated identities. It prints,
per game, each kind's mu and sigma and the match after which the order was right and
stayed right ("settled after"). Clockwork Spades' bots barely differ: its check is that
every pair of kinds lies within its uncertainty (|mu_a - mu_b| < 3 sqrt(sigma_a^2 +
sigma_b^2)). docs/players.md has the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.arena import play_game
    from parlour.engine import derive_seed
    from parlour.registry import spec
    from parlour.server.people.ratings import Rating, rate_seats
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

DEFAULTS: dict[str, dict[str, Any]] = {
    "spades": {"kinds": ["random", "rule", "ismcts:easy"], "matches": 60,
               "options": {"max_deals": 2}},
    "spite-and-malice": {"kinds": ["random", "rule", "ismcts:easy"], "matches": 60,
                         "options": {"payoff_size": 5, "target": 3, "max_rounds": 3}},
    "hit-the-deck": {"kinds": ["random", "rule", "ismcts:easy"], "matches": 60,
                     "options": {"target": 30}},
    "clockwork-spades": {"kinds": ["random", "rule", "ismcts:easy"], "matches": 150,
                         "options": {}},
}


def simulate(game_id: str, kinds: Sequence[str], matches: int, seed: int = 1,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play ``matches`` rated matches between ``kinds``; return each kind's rating, the
    order by mu, and the match after which the order matched ``kinds`` (weakest first)
    for good (None if it never did)."""
    game = spec(game_id).game
    partners = 2 if game_id == "spades" else 1
    ratings = {k: [Rating() for _ in range(partners)] for k in kinds}
    pairs = list(itertools.combinations(kinds, 2))
    right: list[bool] = []
    for i in range(matches):
        rng = random.Random(derive_seed(seed, "seating", i))
        if game_id == "hit-the-deck":
            seated = list(kinds)
        else:
            seated = list(pairs[i % len(pairs)])
        rng.shuffle(seated)
        if game_id == "spades":
            seat_kinds = [seated[0], seated[1], seated[0], seated[1]]
            who = [(seated[0], 0), (seated[1], 0), (seated[0], 1), (seated[1], 1)]
        else:
            seat_kinds = seated
            who = [(k, 0) for k in seated]
        state = play_game(game, derive_seed(seed, "deal", i), seat_kinds, options,
                          seats=len(seat_kinds))
        outcome = state.outcome
        assert outcome is not None
        after = rate_seats(game_id, [ratings[k][n] for k, n in who], outcome.placing)
        for (k, n), rating in zip(who, after, strict=True):
            ratings[k][n] = rating
        right.append(order(ratings) == list(kinds))
    settled = None
    for i in range(len(right), 0, -1):
        if not right[i - 1]:
            break
        settled = i
    means = {k: (sum(r.mu for r in rs) / len(rs), math.sqrt(sum(r.sigma ** 2 for r in rs))
                 / len(rs)) for k, rs in ratings.items()}
    return {"game": game_id, "matches": matches,
            "ratings": {k: {"mu": round(mu, 2), "sigma": round(sg, 2)}
                        for k, (mu, sg) in means.items()},
            "order": order(ratings), "settled_after": settled,
            "within_uncertainty": within_uncertainty(means)}


def order(ratings: dict[str, list[Rating]]) -> list[str]:
    """The kinds by mean mu, weakest first."""
    return sorted(ratings, key=lambda k: sum(r.mu for r in ratings[k]) / len(ratings[k]))


def within_uncertainty(means: dict[str, tuple[float, float]]) -> bool:
    return all(abs(a[0] - b[0]) < 3 * math.hypot(a[1], b[1])
               for a, b in itertools.combinations(means.values(), 2))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(DEFAULTS), action="append")
    parser.add_argument("--kinds", help="comma-separated kinds, weakest first")
    parser.add_argument("--matches", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = []
    for game_id in args.game or list(DEFAULTS):
        setup = DEFAULTS[game_id]
        kinds = args.kinds.split(",") if args.kinds else setup["kinds"]
        found = simulate(game_id, kinds, args.matches or setup["matches"], args.seed,
                         setup["options"])
        out.append(found)
        if not args.json:
            shown = ", ".join(f"{k} {v['mu']:.1f}±{v['sigma']:.1f}"
                              for k, v in found["ratings"].items())
            print(f"{game_id:17} {shown}; order {' < '.join(found['order'])}; settled after "
                  f"{found['settled_after']} of {found['matches']}; within uncertainty: "
                  f"{found['within_uncertainty']}", flush=True)
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
