#!/usr/bin/env python3
"""How often a person who slaps at a given time is the slowest, against Hit the Deck's bots.

Every slap is a real one: a four-seat position where the person (seat 0) plays With a Hand
with the shout, each bot (the rule bot, seeded per slap and seat, as a table seeds them)
answers from its own view at the table's ``bot_slap`` pace, the person slaps at
``--person-ms``, and the game itself names the slowest (a tie in the same 10 ms bucket is
drawn by lot, as at a table).

    .venv/bin/python bench/slap.py --slaps 1000 --person-ms 500 [--seats 4] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.bots import make_bot, observe_for
    from parlour.engine import derive_seed
    from parlour.games.hit_the_deck.rules import (
        BOT_SLAP_PACES,
        GAME,
        HAND_SHOUT,
        SLAP_BASE,
        HitTheDeckState,
        slap_action,
        slap_ms,
    )
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def slap_position(seats: int, seed: int, pace: str) -> HitTheDeckState:
    """Seat 0 to play With a Hand (and one more card, so the round goes on)."""
    hands = ["hit hand, R1"] + ["G3, B4"] * (seats - 1)
    text = (f"hands: {' | '.join(hands)}; draw: {', '.join(['Y1'] * 12)}; discard: R3; "
            f"to act: 0; phase: play; direction: left")
    state = GAME.from_position(text, seed, bot_slap=pace)
    assert isinstance(state, HitTheDeckState)
    return state


def one_slap(seats: int, seed: int, pace: str, person_ms: float) -> tuple[bool, list[int]]:
    """Whether the person was the slowest, and the bots' times (ms), in one real slap."""
    state = slap_position(seats, seed, pace)
    state.apply(HAND_SHOUT, 0)
    state.apply(slap_action(person_ms), 0)
    times = []
    for seat in range(1, seats):
        bot = make_bot(GAME, "rule", seat, derive_seed(seed, "bot", seat))
        action = bot.act(observe_for(bot, state, seat, random.Random(seed)))
        assert action >= SLAP_BASE
        times.append(slap_ms(action))
        state.apply(action, seat)
    last = state.last_slap
    assert last is not None
    return last["slowest"] == 0, times


def slowest_share(slaps: int, seats: int, pace: str, person_ms: float, seed: int = 1
                  ) -> tuple[float, list[int]]:
    """The share of ``slaps`` in which the person was the slowest, and every bot time."""
    lost, times = 0, []
    for n in range(slaps):
        slowest, bot_times = one_slap(seats, derive_seed(seed, "slap", n), pace, person_ms)
        lost += slowest
        times += bot_times
    return lost / slaps, times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slaps", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--person-ms", type=float, default=500.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for pace in BOT_SLAP_PACES:
        share, times = slowest_share(args.slaps, args.seats, pace, args.person_ms, args.seed)
        times.sort()
        rows.append({"pace": pace, "person_slowest": share,
                     "bot_p10": times[len(times) // 10], "bot_median": statistics.median(times),
                     "bot_p90": times[len(times) * 9 // 10]})
    if args.json:
        json.dump({"args": vars(args), "rows": rows}, sys.stdout, indent=1)
        print()
        return 0
    print(f"{args.slaps} slaps at {args.seats} seats, the person at {args.person_ms:.0f} ms")
    print(f"{'pace':8} {'person slowest':>15} {'bots p10':>9} {'median':>7} {'p90':>6}")
    for r in rows:
        print(f"{r['pace']:8} {r['person_slowest']:>14.1%} {r['bot_p10']:>9} "
              f"{r['bot_median']:>7.0f} {r['bot_p90']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
