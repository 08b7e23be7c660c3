#!/usr/bin/env python3
"""How long a bot takes to move: p50, p95 and max per game, on one core.

Plays seeded games (the measured bot in every seat, or against the game's rule bot) and
times every decision that had a real choice (more than one legal action), the
observation included, since a bot is handed one before each move.

    .venv/bin/python bench/move_time.py --bot ismcts --games 3 [--time-cap 0.22] [--json]

Bots stop on their budgets alone; ``--time-cap`` caps every decision as the web server
does (``Bot.time_cap``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.bots import bot_kinds, make_bot, observe_for
    from parlour.engine import derive_seed
    from parlour.games import game_ids, get_game
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def move_times(game_id: str, kind: str, games: int, seed: int, limit: int,
               time_cap: float | None = None) -> list[float]:
    game = get_game(game_id)
    others = "rule" if "rule" in bot_kinds(game_id) else "random"
    times: list[float] = []
    for g in range(games):
        state = game.new(derive_seed(seed, game_id, g))
        bots = [make_bot(game, kind if s % 2 == g % 2 or state.num_seats == 1 else others,
                         s, derive_seed(seed, g, s)) for s in range(state.num_seats)]
        for bot in bots:
            bot.time_cap = time_cap
        rng = random.Random(g)
        while state.to_act and len(times) < limit * (g + 1) // games + 1:
            seat = state.to_act[0]
            bot = bots[seat]
            start = time.perf_counter()
            action = bot.act(observe_for(bot, state, seat, rng))
            spent = time.perf_counter() - start
            if bot.kind == kind.split(":")[0] and len(state.legal_actions(seat)) > 1:
                times.append(spent)
            state.apply(action, seat)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="ismcts", help="bot kind (with :level)")
    parser.add_argument("--games", type=int, default=3, help="games per game id")
    parser.add_argument("--moves", type=int, default=150, help="timed moves per game id")
    parser.add_argument("--only", default="", help="comma-separated game ids")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-cap", type=float, default=None,
                        help="seconds a decision may take at most (the server's cap)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ids = [g for g in (args.only.split(",") if args.only else game_ids()) if g]
    out = {}
    for gid in ids:
        if args.bot.split(":")[0] not in bot_kinds(gid):
            continue
        times = move_times(gid, args.bot, args.games, args.seed, args.moves, args.time_cap)
        if not times:
            continue
        out[gid] = {"moves": len(times), "p50_ms": round(statistics.median(times) * 1000, 1),
                    "p95_ms": round(percentile(times, 0.95) * 1000, 1),
                    "max_ms": round(max(times) * 1000, 1)}
    if args.json:
        print(json.dumps({"bot": args.bot, "games": out}))
    else:
        for gid, r in out.items():
            print(f"{gid:18} {r['moves']:4} moves  p50 {r['p50_ms']:7.1f} ms  "
                  f"p95 {r['p95_ms']:7.1f} ms  max {r['max_ms']:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
