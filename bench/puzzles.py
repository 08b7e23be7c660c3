#!/usr/bin/env python3
"""Mining puzzles: how many each game's bot deals hold and what finding them costs, and
the shipped sets made by the same run (docs/puzzles.md).

For each game named, plays that many seeded one-deal games between rule bots and mines
every decision (``parlour.puzzles.mining``: the first judgement at ``--budget`` playouts a
position, a sieve; the verifying ones at twice the review's budget), with a progress bar;
prints per game the puzzles found, per deal, the CPU seconds (this process and its
workers) and the wall seconds. ``--ship`` adds what it finds to each game's shipped set
(its folder's ``puzzles.json.gz``), and the table says how many each now ships.

    nice -n 19 .venv/bin/python bench/puzzles.py --games spades=20,clockwork-spades=200
    .venv/bin/python bench/puzzles.py --games spades=360:500,cangkul=300:300 --jobs 2 \\
        --ship --write                                            # docs/benchmarks.md

``GAME=DEALS:BUDGET`` sets a game's sieve budget (the default: the review's own).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from report import Section, add_write_flags, write

try:
    from parlour.progress import progress
    from parlour.puzzles.mining import DEFAULT_BOTS, MineSettings, mine_bot_games
    from parlour.puzzles.model import Puzzle
    from parlour.puzzles.shipped import path_of, shipped
    from parlour.puzzles.shipped import write as ship
    from parlour.registry import spec
except ImportError as err:  # run by a Python without Parlour's packages
    from report import needs

    sys.exit(needs(err))


def cpu_seconds() -> float:
    """CPU seconds of this process and of its workers that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def parse_games(text: str) -> list[tuple[str, int, int | None]]:
    """``spades=360:500,cangkul=300``: each game, its deals and its sieve budget."""
    out = []
    for item in text.split(","):
        name, _, rest = item.partition("=")
        deals, _, budget = rest.partition(":")
        if not name or not deals.isdigit() or (budget and not budget.isdigit()):
            raise SystemExit(f"--games: {item!r} is not GAME=DEALS or GAME=DEALS:BUDGET")
        out.append((spec(name).id, int(deals), int(budget) if budget else None))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", required=True, help="GAME=DEALS[:BUDGET],...")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--ship", action="store_true",
                        help="add what is found to each game's shipped set")
    add_write_flags(parser)
    args = parser.parse_args()
    rows = [["game", "deals mined", "sieve budget", "puzzles found", "a deal", "CPU s a deal",
             "wall s", "shipped now"]]
    for game_id, deals, budget in parse_games(args.games):
        settings = MineSettings(budget=budget, seed=args.seed)
        found: list[Puzzle] = []
        cpu, wall = cpu_seconds(), time.perf_counter()
        with progress(f"mining {game_id}", "deals", deals) as bar:
            for puzzles in mine_bot_games(game_id, deals, args.seed, DEFAULT_BOTS, settings,
                                          args.jobs):
                found.extend(puzzles)
                bar.advance()
        cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
        if args.ship and (found or path_of(game_id).exists()):  # no file of nothing
            ship(game_id, found, {"bots": list(DEFAULT_BOTS), "budget": budget,
                                  "seed": args.seed, "deals": deals})
        rows.append([game_id, f"{deals:,}", f"{budget:,}" if budget else "the review's",
                     f"{len(found):,}", f"{len(found) / deals:.2f}", f"{cpu / deals:.2f}",
                     f"{wall:.0f}", f"{len(shipped(game_id)):,}"])
        print(" | ".join(rows[-1]), flush=True)
        if args.write:  # after each game: a run stopped later keeps what it measured
            section(rows, args)
    return 0


def section(rows: list[list[str]], args: argparse.Namespace) -> None:
    """Rewrite the page's section with the games mined so far."""
    write(Section(
        "puzzles", "Puzzles: what each game's deals hold, and what finding them costs",
        "Seeded one-deal games between rule bots, every decision of every seat judged "
        "(the first judgement at the sieve budget, stopped once the 20-point gap is "
        "settled either way; a position that passes judged twice more with other seeds "
        f"and twice the review's budget), {args.jobs} worker process(es). CPU seconds "
        "count the workers; *shipped now* is the game's shipped set after the run.",
        rows), args.doc)


if __name__ == "__main__":
    sys.exit(main())
