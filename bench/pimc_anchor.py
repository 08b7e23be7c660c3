"""Spades' outside anchor: a kind against ``pimc`` in duplicate one-deal matches, played in
chunks that are kept as they finish, so a run cut short still counts what it played.

Each chunk is one ``parlour tournament`` (:func:`parlour.arena.tournament`: every deal
played twice, the sides swapped) of ``--chunk`` games on its own seed (``--seed`` plus the
chunk's number), appended to ``--out`` as a line of JSON. ``--report`` reads the lines
back and prints, per kind against pimc: the games, the score rate with its 95% Wilson
interval (as the arena gives it), the duplicate pairs won both times, split or lost both
times, and, for two kinds played on the same chunks (the same deals), the difference of
their pair scores with a bootstrap 95% interval over the deals: the gap between them.

    nice -n 19 .venv/bin/python bench/pimc_anchor.py --kind ismcts:hard --chunks 40
    nice -n 19 .venv/bin/python bench/pimc_anchor.py --kind open-hands --chunks 40
    .venv/bin/python bench/pimc_anchor.py --report
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
    from parlour.arena import tournament, wilson
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

OUT = Path("bench-results/pimc-anchor.jsonl")
OPTIONS = {"max_deals": 1}  # one-deal matches: the deal's score decides


def play(kind: str, chunks: int, first: int, games: int, seed: int, jobs: int,
         out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    for chunk in range(first, first + chunks):
        summary = tournament("spades", [kind, "pimc"], games, seed + chunk, OPTIONS, jobs=jobs)
        line = {"kind": kind, "chunk": chunk, "seed": seed + chunk, "games": summary["games"],
                "score": summary["results"][kind]["score"], "pairs": summary["deal_scores"],
                "seconds": summary["seconds"]}
        with out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        print(json.dumps(line), flush=True)


def bootstrap(diffs: list[float], rounds: int = 4000, seed: int = 0) -> list[float]:
    """A 95% percentile interval of the mean of ``diffs``."""
    rng = random.Random(seed)
    n = len(diffs)
    means = sorted(sum(rng.choice(diffs) for _ in range(n)) / n for _ in range(rounds))
    return [round(means[int(0.025 * rounds)], 4), round(means[int(0.975 * rounds) - 1], 4)]


def summarise(path: Path) -> None:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    per_kind: dict[str, dict[int, list[float]]] = {}
    for line in lines:
        per_kind.setdefault(line["kind"], {})[line["seed"]] = line["pairs"]
    print("| kind against pimc | games | score rate | 95% interval | pairs won both | split "
          "| lost both |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for kind, chunks in per_kind.items():
        pairs = [p for seed in sorted(chunks) for p in chunks[seed]]
        games = 2 * len(pairs)
        score = sum(pairs)
        low, high = wilson(score, games)
        print(f"| {kind} | {games} | {score / games:.1%} | {low:.1%}-{high:.1%} | "
              f"{sum(p == 2 for p in pairs)} | {sum(0 < p < 2 for p in pairs)} | "
              f"{sum(p == 0 for p in pairs)} |")
    kinds = list(per_kind)
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            seeds = sorted(set(per_kind[a]) & set(per_kind[b]))
            diffs = [x - y for s in seeds
                     for x, y in zip(per_kind[a][s], per_kind[b][s], strict=True)]
            if diffs:
                mean = sum(diffs) / len(diffs) / 2  # a pair is two games
                low, high = (x / 2 for x in bootstrap(diffs))
                print(f"\n{a} minus {b}, the same {len(diffs)} deals: {mean:+.1%} of the "
                      f"score rate (95% bootstrap interval {low:+.1%} to {high:+.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="ismcts:hard", help="the kind played against pimc")
    parser.add_argument("--chunks", type=int, default=10, help="chunks to play")
    parser.add_argument("--first", type=int, default=0, help="the first chunk's number")
    parser.add_argument("--chunk", type=int, default=8, help="games a chunk (two a deal)")
    parser.add_argument("--seed", type=int, default=3500, help="the first chunk's seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON lines file")
    parser.add_argument("--report", action="store_true", help="summarise --out and stop")
    args = parser.parse_args()
    if args.report:
        summarise(args.out)
        return
    play(args.kind, args.chunks, args.first, args.chunk, args.seed, args.jobs, args.out)


if __name__ == "__main__":
    main()
