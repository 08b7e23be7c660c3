#!/usr/bin/env python3
"""How much skill does Clockwork Spades admit? A clairvoyant player as a ceiling.

The only decision in Clockwork Spades is which due spade to take when nothing can be
played. This script lets one seat *cheat*: it reads the true state (the stock order and
the opponent's hand) and takes the spade whose perfect-information playouts (the rest of
the game with the real cards, later choices at random) win most often. Against a random
opponent, with seats swapped every deal, its win rate estimates the most any player,
honest or not, could gain from the choice. It is a measuring stick, never a bot.

    .venv/bin/python bench/clockwork_ceiling.py --games 1000 --playouts 24 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.arena import wilson
    from parlour.engine import State, derive_seed
    from parlour.games import get_game
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def playout_value(state: State, seat: int, rng: random.Random) -> float:
    while state.to_act:
        s = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(s)), s)
    return state.reward(seat)


def clairvoyant_choice(state: State, seat: int, playouts: int, rng: random.Random) -> int:
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]

    def value(action: int) -> float:
        total = 0.0
        for _ in range(playouts):
            trial = state.clone()
            trial.apply(action, seat)
            total += playout_value(trial, seat, rng)
        return total

    return max(legal, key=value)


def play(seed: int, cheater: int, playouts: int) -> float:
    state = get_game("clockwork-spades").new(seed)
    rng = random.Random(derive_seed(seed, "ceiling", cheater))
    while state.to_act:
        seat = state.to_act[0]
        if seat == cheater:
            action = clairvoyant_choice(state, seat, playouts, rng)
        else:
            action = rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    return state.reward(cheater)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games (half per seat)")
    parser.add_argument("--playouts", type=int, default=24, help="playouts per choice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from rich.progress import track

    score = 0.0
    n = args.games - args.games % 2
    for i in track(range(n // 2), description="deals", transient=True):
        seed = derive_seed(args.seed, "deal", i)
        score += play(seed, 0, args.playouts) + play(seed, 1, args.playouts)
    result = {"game": "clockwork-spades", "games": n, "playouts": args.playouts,
              "clairvoyant_vs_random": round(score / n, 4), "interval": wilson(score, n)}
    if args.json:
        print(json.dumps(result))
    else:
        low, high = result["interval"]
        print(f"clairvoyant against random: {result['clairvoyant_vs_random']:.1%} of the "
              f"points ({low:.1%}-{high:.1%}) over {n} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
