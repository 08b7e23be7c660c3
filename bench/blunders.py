#!/usr/bin/env python3
"""Partner quality: how often each bot level blunders, judged by the review.

Over N deals of a game, a table of bot levels (``rule``, ``ismcts:easy``, ``normal``,
``hard``: every level the game has; seat s of deal i plays level (s + i) mod the number of
levels, so each level sits everywhere) plays the first deal of a match with the game's
default options. Every unforced decision is judged as it is taken by the review
(:mod:`parlour.analysis.review`: ``ismcts:hard`` by paired playouts at ``--budget``
iterations, from the deciding seat's own view), and the marks and losses are summed per
level: the blunder rate, the other marks, the mean loss and the loss quantiles, which
are what the game's review thresholds are chosen from (docs/review.md).

    nice -n 19 python bench/blunders.py spades --deals 4
    nice -n 19 python bench/blunders.py hit-the-deck --deals 4 --json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from parlour.analysis.review import MARKS, Reviewer
from parlour.arena import wilson
from parlour.bots import bot_kinds, make_bot, observe_for
from parlour.engine import derive_seed
from parlour.registry import spec


def levels_of(game_id: str) -> list[str]:
    """The levels measured: the rule bot if the game has one, then ismcts's levels."""
    kinds = bot_kinds(game_id)
    out = ["rule"] if "rule" in kinds else []
    return out + [f"ismcts:{level}" for level in kinds["ismcts"].levels]


def quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(game_id: str, deals: int, seed: int, budget: int | None,
            advance: Any = None, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play and judge ``deals`` deals (with the game's ``options``, default: its own);
    the figures per level (JSON-ready)."""
    game = spec(game_id).game
    levels = levels_of(game.id)
    judge = Reviewer(game.id, budget, derive_seed(seed, "review"))
    losses: dict[str, list[float]] = {level: [] for level in levels}
    marks: dict[str, dict[str, int]] = {level: dict.fromkeys(MARKS, 0) for level in levels}
    forced = dict.fromkeys(levels, 0)
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        state = game.new(deal_seed, **(options or {}))
        seated = [levels[(s + deal) % len(levels)] for s in range(state.num_seats)]
        bots = [make_bot(game, kind, s, derive_seed(deal_seed, "bot", s))
                for s, kind in enumerate(seated)]
        rng = random.Random(derive_seed(deal_seed, "observe"))
        while state.to_act and state.round == 1:
            seat = state.to_act[0]
            bot = bots[seat]
            action = bot.act(observe_for(bot, state, seat, rng))
            decision = judge.judge(state, seat, action)
            level = seated[seat]
            if decision is None:
                forced[level] += 1
            else:
                losses[level].append(decision.loss)
                marks[level][decision.mark] += 1
            state.apply(action, seat)
            if advance is not None:
                advance()
    out: dict[str, Any] = {"game": game.id, "deals": deals, "seed": seed,
                           "options": dict(options or {}),
                           "reviewer": judge.kind, "budget": judge.budget,
                           "thresholds": judge.thresholds.to_json() if judge.thresholds
                           else None, "levels": {}}
    for level in levels:
        n = len(losses[level])
        out["levels"][level] = {
            "judged": n, "forced": forced[level], "marks": marks[level],
            "blunder_rate": marks[level]["blunder"] / n if n else 0.0,
            "blunder_interval": wilson(marks[level]["blunder"], n),
            "mean_loss": sum(losses[level]) / n if n else 0.0,
            "loss_quantiles": {str(q): quantile(losses[level], q)
                               for q in (0.5, 0.75, 0.9, 0.95, 0.99)},
        }
    return out


def report(summary: dict[str, Any], console: Console) -> None:
    t = summary["thresholds"]
    table = Table(title=f"{summary['game']}: {summary['deals']} deals judged by "
                        f"{summary['reviewer']} at {summary['budget']} iterations "
                        f"(inaccuracy {t['inaccuracy']}, mistake {t['mistake']}, "
                        f"blunder {t['blunder']})")
    for col in ("Level", "Judged", "Blunders", "95% interval", "Mistakes", "Inacc.", "Mean loss",
                "Loss p50", "p90", "p99"):
        table.add_column(col, justify="left" if col == "Level" else "right", no_wrap=True)
    for level, row in summary["levels"].items():
        n = row["judged"] or 1
        q = row["loss_quantiles"]
        low, high = row.get("blunder_interval") or wilson(row["marks"]["blunder"],
                                                          row["judged"])
        table.add_row(level, str(row["judged"]), f"{row['blunder_rate']:.1%}",
                      f"{low:.1%}-{high:.1%}",
                      f"{row['marks']['mistake'] / n:.1%}",
                      f"{row['marks']['inaccuracy'] / n:.1%}", f"{row['mean_loss']:.3f}",
                      f"{q['0.5']:.3f}", f"{q['0.9']:.3f}", f"{q['0.99']:.3f}")
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("game")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, help="the reviewer's iterations a decision "
                        "(default: the review's, twice the hard level's)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (Spite & Malice: payoff_size=5 for short rounds)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option if "=" in o)
    err = Console(stderr=True)
    with Progress(TextColumn(f"[bold]{args.game}[/] decisions"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task("decisions", total=None)
        summary = measure(args.game, args.deals, args.seed, args.budget,
                          lambda: bar.advance(task), options)
    if args.json:
        print(json.dumps(summary))
    else:
        report(summary, Console())
    return 0


if __name__ == "__main__":
    sys.exit(main())
