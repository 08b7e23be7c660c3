"""The server's cost of the view messages of one action: a Spades table of four people.

After each of the first ``--actions`` of a seeded random match (600 by default: about
eleven deals; the views grow with the deals' history as a match goes on), the server
builds and encodes each seat's view message (``Table.view_message``, what
``broadcast_views`` sends). This measures the CPU time of those
four messages per action, with nothing else of the server in the way: the part of an
action's cost that issue 20 found to be half the event loop's time.

    .venv/bin/python bench/views.py                  # 4 matches, best of 3 passes
    .venv/bin/python bench/views.py --matches 2 --actions 1200 --lang pt_BR
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.engine import State
    from parlour.games import get_game
    from parlour.server.play.table import SeatInfo, Table
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def states(matches: int, actions: int) -> list[tuple[State, int]]:
    """(state, version) after each of the first ``actions`` of ``matches`` seeded random
    Spades matches (to 5,000 points, as bench/server.py plays them)."""
    game = get_game("spades")
    out: list[tuple[State, int]] = []
    for seed in range(matches):
        state = game.new(seed, target=5000)
        rng = random.Random(seed)
        version = 0
        while state.outcome is None and version < actions:
            out.append((state.clone(), version))
            seat = state.to_act[0]
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
            version += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--passes", type=int, default=3, help="the best pass is printed")
    parser.add_argument("--actions", type=int, default=600, help="actions of each match")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    game = get_game("spades")
    table = Table("bench-v1", game, 4, {"target": 5000}, time.time(),
                  [SeatInfo("person", name=f"p{i}", token_hash="x") for i in range(4)],
                  status="playing", match=1)
    played = states(args.matches, args.actions)
    size = 0
    best = float("inf")
    for _ in range(args.passes):
        began = time.process_time()
        for state, version in played:
            table.state, table.version = state, version
            for seat in range(4):
                size += len(table.view_message(seat, args.lang))
        best = min(best, time.process_time() - began)
    mean = size / (4 * len(played) * args.passes) / 1000
    print(f"{best / len(played) * 1e6:.0f} us of CPU per action for its 4 view messages "
          f"(best of {args.passes} passes over {len(played)} actions of {args.matches} "
          f"matches; {mean:.1f} KB a message on average)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
