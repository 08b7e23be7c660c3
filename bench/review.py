#!/usr/bin/env python3
"""How long a post-game review takes: seconds per Spades deal, for one seat and for four.

Plays one-deal Spades matches (``max_deals=1``; the rule bot and ``ismcts:easy`` in turn,
as ``tests/test_review.py``'s match; seed ``derive_seed(seed, "deal", i)``) and reviews
each at the review's default budget, seed 0, two ways:

- **before**: every decision searched to the whole budget (``Reviewer(settle=False)``,
  the review before its settled rule);
- **after**: each decision's search stops once the mark of the move played is settled
  (:func:`parlour.analysis.review.mark_settled`).

For each it prints, per deal, the seconds for seat 0 and for all four seats: the CPU
seconds of a review in this process on one core (what the machine's load distorts least),
the playouts it took (a count no machine or load changes), and the wall seconds with
``--jobs`` warm worker processes judging the decisions side by side, as the server's
review workers do (spawned and warmed before the clock starts, as a running server's are).

    nice -n 19 .venv/bin/python bench/review.py --deals 2
    nice -n 19 .venv/bin/python bench/review.py --deals 2 --write     # docs/benchmarks.md

``--marks`` compares instead the marks of the two ways on ``bench/blunders.py``'s
positions (every decision of its deals: the game's levels at one table), the review's
judgement quality: the decisions whose mark differs, and the playouts and CPU seconds of
each way.

    nice -n 19 .venv/bin/python bench/review.py --marks --deals 4 --seed 0
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    import blunders

    from parlour.analysis import review as reviewing
    from parlour.analysis.review import Decision, Reviewer, assemble, turns
    from parlour.arena import play_game
    from parlour.engine import Action, Seat, State, derive_seed
    from parlour.games import get_game
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

GAME = "spades"
PLAYERS = ["rule", "ismcts:easy"]
WAYS = {"before": False, "after": True}  # the way's name: whether the settled rule stops


@contextmanager
def counting() -> Iterator[list[int]]:
    """Count the review's playouts (one ``value`` call each) while the block runs."""
    count = [0]
    real = reviewing.paired_search

    def counted(*args: Any, **kwargs: Any) -> dict[Action, float]:
        value: Callable[[State, Seat], float] = args[8]

        def tally(state: State, seat: Seat) -> float:
            count[0] += 1
            return value(state, seat)

        return real(*args[:8], tally, *args[9:], **kwargs)

    reviewing.paired_search = counted  # type: ignore[assignment]
    try:
        yield count
    finally:
        reviewing.paired_search = real  # type: ignore[assignment]


def deal(seed: int) -> State:
    """The finished one-deal match the bench reviews."""
    return play_game(get_game(GAME), seed, PLAYERS, {"max_deals": 1})


def judge(budget: int | None, settle: bool, state: State, seat: Seat, action: Action,
          index: int) -> Decision | None:
    """Run in a worker: one decision judged as the review does."""
    return Reviewer(GAME, budget, 0, settle=settle).judge(state, seat, action, index)


def review_in(pool: ProcessPoolExecutor | None, budget: int | None, settle: bool,
              final: State, seats: tuple[Seat, ...]) -> Any:
    """The review of ``seats`` in ``final``'s match: its decisions judged in ``pool``'s
    workers side by side (in this process when ``pool`` is None)."""
    start = get_game(GAME).new(final.seed, final.num_seats, **final.options)
    asked = [(turn.seat, turn.action, turn.state.clone(), turn.index)
             for turn in turns(start, final.history, seats)]
    if pool is None:
        judged = [judge(budget, settle, state, seat, action, index)
                  for seat, action, state, index in asked]
    else:
        futures = [pool.submit(judge, budget, settle, state, seat, action, index)
                   for seat, action, state, index in asked]
        judged = [f.result() for f in futures]
    return assemble(Reviewer(GAME, budget, 0, settle=settle), start, seats, judged,
                    [seat for seat, *_ in asked])


def timings(deals: int, seed: int, jobs: int, budget: int | None = None) -> dict[str, Any]:
    """Per way and per deal, for seat 0 and for every seat: CPU seconds and playouts in
    this process, wall seconds in ``jobs`` warm workers, and the marks."""
    finals = [deal(derive_seed(seed, "deal", i)) for i in range(deals)]
    out: dict[str, Any] = {"game": GAME, "players": PLAYERS, "deals": deals, "seed": seed,
                           "jobs": jobs, "budget": Reviewer(GAME, budget).budget,
                           "ways": {}}
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) if jobs > 1 else None
    try:
        if pool is not None:  # warm: every worker has imported Parlour and judged once
            list(pool.map(_warm, range(jobs * 2)))
        for way, settle in WAYS.items():
            rows = []
            for final in finals:
                for seats in ((0,), tuple(range(final.num_seats))):
                    with counting() as playouts:
                        cpu = time.process_time()
                        serial = review_in(None, budget, settle, final, seats)
                        cpu = time.process_time() - cpu
                    wall = time.perf_counter()
                    parallel = review_in(pool, budget, settle, final, seats)
                    wall = time.perf_counter() - wall
                    assert parallel.to_json() == serial.to_json()  # the same, in workers
                    rows.append({"seed": final.seed, "seats": len(seats), "cpu": cpu,
                                 "playouts": playouts[0], "wall": wall,
                                 "decisions": len(serial.decisions),
                                 "marks": [d.mark for d in serial.decisions]})
            out["ways"][way] = rows
    finally:
        if pool is not None:
            pool.shutdown()
    out["ran"] = report.stamp()
    return out


def _warm(_: int) -> None:
    final = deal(1)
    start = get_game(GAME).new(final.seed, final.num_seats, **final.options)
    turn = next(turns(start, final.history, (0,)))
    Reviewer(GAME, 64, 0).judge(turn.state, turn.seat, turn.action, turn.index)


def marks(deals: int, seed: int, budget: int | None = None) -> dict[str, Any]:
    """Both ways' marks on ``bench/blunders.py``'s positions (its seeds: the review's is
    ``derive_seed(seed, "review")``), with the playouts and CPU seconds each took."""
    judges = {way: Reviewer(GAME, budget, derive_seed(seed, "review"), settle=settle)
              for way, settle in WAYS.items()}
    cost = {way: {"playouts": 0, "cpu": 0.0} for way in WAYS}
    changed: list[dict[str, Any]] = []
    judged = 0
    for state, seat, action, level in blunders.positions(GAME, deals, seed):
        got: dict[str, Decision | None] = {}
        for way, judge_ in judges.items():
            with counting() as playouts:
                cpu = time.process_time()
                got[way] = judge_.judge(state, seat, action)
                cost[way]["cpu"] += time.process_time() - cpu
            cost[way]["playouts"] += playouts[0]
        before, after = got["before"], got["after"]
        if before is None or after is None:
            continue
        judged += 1
        if before.mark != after.mark:
            changed.append({"index": before.index, "level": level, "played": before.played,
                            "before": [before.mark, before.loss],
                            "after": [after.mark, after.loss]})
    return {"game": GAME, "deals": deals, "seed": seed, "judged": judged,
            "changed": changed, "cost": cost}


def table(summary: dict[str, Any]) -> report.Section:
    rows = [["review", "seats", "CPU s a deal (one core)", "playouts a deal",
             f"wall s a deal ({summary['jobs']} workers)", "decisions judged"]]
    for way, found in summary["ways"].items():
        for seats in (1, 4):
            mine = [r for r in found if r["seats"] == seats]
            n = len(mine)
            rows.append([way, str(seats), f"{sum(r['cpu'] for r in mine) / n:.2f}",
                         report.number(sum(r["playouts"] for r in mine) / n),
                         f"{sum(r['wall'] for r in mine) / n:.2f}",
                         f"{sum(r['decisions'] for r in mine) / n:.1f}"])
    same = all(b["marks"] == a["marks"] for b, a in zip(summary["ways"]["before"],
                                                       summary["ways"]["after"], strict=True))
    one_seat = [r["wall"] for r in summary["ways"]["after"] if r["seats"] == 1]
    per_deal = ", ".join(f"{w:.2f}" for w in one_seat)
    return report.Section(
        "review", "Post-game review: seconds a Spades deal",
        f"{summary['deals']} one-deal Spades matches ({' and '.join(summary['players'])} in "
        f"turn) reviewed at {summary['budget']:,} playouts a decision, seed 0: "
        "*before*, every decision searched to the whole budget; *after*, each search "
        "stopped once the played move's mark is settled (docs/review.md, *How long a "
        "review takes*). CPU seconds are one process on one core; playouts are a count "
        "no load changes; wall seconds have the decisions judged side by side in warm "
        "worker processes, as the server's review workers do.",
        rows, [f"The marks of the two ways on these deals: {'the same' if same else 'DIFFERENT'}."
               " On `bench/blunders.py`'s positions: `bench/review.py --marks` (docs/review.md).",
               "",
               f"One seat, *after*, wall seconds deal by deal: {per_deal} (the longest "
               f"{max(one_seat):.2f})."])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--budget", type=int, help="playouts a decision (default: the "
                        "review's, twice the hard level's)")
    parser.add_argument("--marks", action="store_true", help="compare the two ways' marks "
                        "on bench/blunders.py's positions instead")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--from-json", metavar="FILE", help="table a run saved by --json "
                        "(say, one run on a quiet machine) instead of running again")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.marks:
        summary = marks(args.deals, args.seed, args.budget)
        if args.json:
            print(json.dumps(summary))
            return 0
        cost = summary["cost"]
        print(f"{summary['judged']} decisions judged ({args.deals} deals, seed {args.seed}): "
              f"{len(summary['changed'])} marks differ")
        for row in summary["changed"]:
            print(f"  step {row['index']} ({row['level']}, {row['played']}): "
                  f"before {row['before']}, after {row['after']}")
        for way, c in cost.items():
            print(f"  {way}: {c['playouts']:,} playouts, {c['cpu']:.1f} CPU s")
        return 0
    if args.from_json:
        summary = json.loads(Path(args.from_json).read_text())
    else:
        summary = timings(args.deals, args.seed, args.jobs, args.budget)
    if args.json:
        print(json.dumps(summary))
    else:
        section = table(summary)
        for row in section.rows:
            print("  ".join(f"{c:>12}" for c in row))
        print("\n".join(section.notes))
        if args.write:
            report.write(section, args.doc, ran=summary.get("ran"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
