"""Bot levels in duplicate: each level of a game against the one below it, in one-deal
matches, every deal played once per seating (two kinds: twice, the sides swapped), so the
luck of the cards cancels and what is left is the level.

A game's ladder is its rule bot, then ``ismcts:easy``, ``ismcts:normal`` and ``ismcts:hard``;
the pairs are the neighbours. Play goes in chunks, each one :func:`parlour.arena.tournament`
on its own seed (``--seed`` plus the chunk's number), appended to ``--out`` as a line of JSON
as it finishes, so a run cut short keeps what it played and another run adds chunks.
Each line names its pair and the iterations (playouts, samples) each level had when it was
played. ``--report`` reads the lines back, keeping only the chunks played at today's budgets
(a level whose budget has changed since is another bot): per pair, the budgets, the games,
the score rate of the higher level with its 95% Wilson interval, the deals it won both
times, split or lost both times, and whether the interval's lower end clears the bar (55%,
the puzzles issue's). ``--write`` puts that table in the bots page (docs/bots.md, section
``levels-<game>``).

    .venv/bin/python bench/levels.py cangkul --pairs 400 --jobs 2
    .venv/bin/python bench/levels.py cangkul --report --write
"""

from __future__ import annotations

import argparse
import json
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from parlour.arena import elo_difference, tournament, wilson
    from parlour.bots.ismcts import level_iterations
    from parlour.games import game_ids
    from parlour.registry import spec
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

BAR = 0.55  # the lower end of the interval a level must clear against the one below
LADDER = ("rule", "ismcts:easy", "ismcts:normal", "ismcts:hard")
DOC = report.ROOT / "docs" / "bots.md"
JsonLine = dict[str, Any]


#: The seats a game's levels are measured at, where not its default table's.
SEATS = {"cangkul": 2, "hit-the-deck": 2}


def one_deal(game_id: str) -> dict[str, Any]:
    """The options of a one-deal match of the game (its spec's ``one_deal``)."""
    return dict(spec(game_id).one_deal)


def out_path(game_id: str) -> Path:
    return report.ROOT / "docs" / "img" / "levels" / f"{game_id}.jsonl"


def iterations(game_id: str, kind: str) -> int | None:
    """The budget a level of the game's search has today (None for a bot without one)."""
    name, _, level = kind.partition(":")
    return level_iterations(game_id, level or "normal") if name == "ismcts" else None


def play(game_id: str, low: str, high: str, chunks: int, first: int, games: int,
         seed: int, jobs: int, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    for chunk in range(first, first + chunks):
        summary = tournament(game_id, [high, low], games, seed + chunk, one_deal(game_id),
                             SEATS.get(game_id), jobs=jobs)
        line = {"high": high, "low": low,
                "iterations": [iterations(game_id, high), iterations(game_id, low)],
                "chunk": chunk, "seed": seed + chunk,
                "games": summary["games"], "score": summary["results"][high]["score"],
                "pairs": summary["deal_scores"], "seconds": summary["seconds"]}
        with out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        print(f"{high} vs {low}, chunk {chunk}: {line['score']:g} of {line['games']}",
              file=sys.stderr, flush=True)


def budget_text(n: int | None) -> str:
    return "-" if n is None else f"{n:,}"


def rows(game_id: str, path: Path) -> list[list[str]]:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    found: dict[tuple[str, str], dict[int, JsonLine]] = {}
    for line in lines:
        today = [iterations(game_id, line["high"]), iterations(game_id, line["low"])]
        if line["iterations"] == today:  # else played at a budget the level no longer has
            found.setdefault((line["high"], line["low"]), {})[line["seed"]] = line
    table = [["higher level", "against", "iterations", "games", "score rate", "95% interval", "Elo",
              "deals won both", "split", "lost both", "separated"]]
    for low, high in pairwise(LADDER):
        chunks = found.get((high, low))
        if not chunks:
            continue
        pairs = [p for seed in sorted(chunks) for p in chunks[seed]["pairs"]]
        games = sum(c["games"] for c in chunks.values())
        per_deal = games // len(pairs)
        score = sum(pairs)
        lo, hi = wilson(score, games)
        budgets = [budget_text(iterations(game_id, k)) for k in (high, low)]
        table.append([high, low, " vs ".join(budgets), f"{games:,}", f"{score / games:.1%}",
                      f"{lo:.1%}-{hi:.1%}",
                      f"{elo_difference(score / games):+.0f}",
                      str(sum(p == per_deal for p in pairs)),
                      str(sum(0 < p < per_deal for p in pairs)),
                      str(sum(p == 0 for p in pairs)),
                      "yes" if lo > BAR else "no"])
    return table


def section(game_id: str, path: Path) -> report.Section:
    seats = SEATS.get(game_id)
    at = f" at {seats} seats" if seats else ""
    return report.Section(
        f"levels-{game_id}", f"Levels in duplicate: {game_id}",
        f"Each level against the one below it in one-deal matches{at} (the options "
        f"{json.dumps(one_deal(game_id))}), every deal played once in each seating (twice, "
        "the sides swapped, at two seats); a shared first place counts half. A "
        f"level is *separated* when the 95% interval's lower end is above {BAR:.0%}. The "
        f"chunks played are in `{report.named(path)}`; the table counts those played at "
        "today's iterations (each level's playouts or samples, search bots only), and "
        "leaves out any played at budgets a level has since left.",
        rows(game_id, path), [f"Played by `.venv/bin/python bench/levels.py {game_id} --pairs 400 "
                     "--jobs 2` (chunks of 100 games, seeds from 5000); each line of the file "
                     "is one chunk, with its pair, seed, games and every deal's score."])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=[g for g in game_ids() if spec(g).one_deal])
    parser.add_argument("--pairs", type=int, default=400,
                        help="deals a pair of levels plays (each twice), in chunks")
    parser.add_argument("--only", help="one pair, HIGH,LOW (default: every neighbour)")
    parser.add_argument("--chunk", type=int, default=100, help="games a chunk")
    parser.add_argument("--first", type=int, default=0, help="the first chunk's number")
    parser.add_argument("--seed", type=int, default=5000, help="the first chunk's seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--out", type=Path, help="the JSON lines file (default: "
                        "docs/img/levels/GAME.jsonl)")
    parser.add_argument("--report", action="store_true", help="table --out and stop")
    report.add_write_flags(parser, DOC)  # this table belongs in the bots page
    args = parser.parse_args()
    out = args.out or out_path(args.game)
    if not args.report:
        pairs = list(pairwise(LADDER))
        if args.only:
            high, low = args.only.split(",")
            pairs = [(low, high)]
        chunks = -(-2 * args.pairs // args.chunk)
        for low, high in pairs:
            play(args.game, low, high, chunks, args.first, args.chunk, args.seed, args.jobs, out)
    found = section(args.game, out)
    for row in found.rows:
        print(" | ".join(row))
    if args.write:
        report.write(found, args.doc)


if __name__ == "__main__":
    main()
