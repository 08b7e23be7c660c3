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

    nice -n 19 .venv/bin/python bench/blunders.py spades --deals 4
    nice -n 19 .venv/bin/python bench/blunders.py hit-the-deck --deals 4 --json

**The yardstick** (``--yardstick``): how much of the gap between the rule bot and a player
shown every card each level closes. Over the same deals (duplicate), each player in turn
holds the measured seats (Spades: a partnership, seats 0 and 2; other games: seat 0)
against rule bots, for the first deal or round, and the game's search ``value`` hook
(the chance to win the match the standing gives, the review's unit) is read for seat 0
at its end. The player shown everything (:class:`ShownEverything`) searches like
``ismcts:hard`` (its budget, the game's hooks, paired playouts) but from the *true state*:
it is a yardstick for this bench only, never a bot kind (no ``make_bot`` finds it, no table
can seat it) and never built from an ``Observation``, since it reads what no seat may see.
Gap closed = (level - rule) / (shown-everything - rule), with a bootstrap interval over
the deals.

    nice -n 19 .venv/bin/python bench/blunders.py spades --yardstick --deals 8
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

try:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from parlour.analysis.review import MARKS, Reviewer
    from parlour.arena import wilson
    from parlour.bots import bot_kinds, make_bot, observe_for
    from parlour.bots.ismcts import search_hooks
    from parlour.bots.search import paired_search
    from parlour.engine import Action, Seat, State, derive_seed
    from parlour.registry import spec
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))

SHOWN = "shown-everything"  # the yardstick's name in the tables (not a bot kind)


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


def positions(game_id: str, deals: int, seed: int, options: dict[str, Any] | None = None
              ) -> Iterator[tuple[State, Seat, Action, str]]:
    """Every decision of the first deal of ``deals`` matches between the game's levels
    (seat s of deal i plays level (s + i) mod their number): the state before it (live:
    judge it before asking for the next), the seat, the action its bot took, its level."""
    game = spec(game_id).game
    levels = levels_of(game.id)
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
            yield state, seat, action, seated[seat]
            state.apply(action, seat)


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
    for state, seat, action, level in positions(game.id, deals, seed, options):
        decision = judge.judge(state, seat, action)
        if decision is None:
            forced[level] += 1
        else:
            losses[level].append(decision.loss)
            marks[level][decision.mark] += 1
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


# ----------------------------------------------------------------------------- yardstick
class ShownEverything:
    """The perfect-information yardstick: ``ismcts:hard``'s paired search run on copies of
    the true state (every hand, the stock's order), for this bench only. It is not an
    ``Observation`` and not a bot kind: nothing at a table can reach it."""

    def __init__(self, game_id: str, seat: Seat, seed: int) -> None:
        self.hooks = search_hooks(game_id)
        self.seat = seat
        self.iterations = self.hooks.levels["hard"]
        self.rng = random.Random(seed)
        self.legal: tuple[Action, ...] = ()
        self._state: State | None = None

    def sample(self, rng: random.Random) -> State:
        """What paired_search plays out from: the true state itself."""
        assert self._state is not None
        return self._state.clone()

    def act_on(self, state: State) -> Action:
        self.legal = tuple(state.legal_actions(self.seat))
        if len(self.legal) == 1:
            return self.legal[0]
        self._state = state
        try:
            values = paired_search(self, self.rng, self.iterations,  # type: ignore[arg-type]
                                   None, self.hooks.policy, self.hooks.rollout_limit,
                                   self.hooks.candidates, self.hooks.playout, self.hooks.value)
        finally:
            self._state = None
        return max(self.legal, key=lambda a: values.get(a, float("-inf")))


def measured_seats(game_id: str, seats: int) -> list[Seat]:
    return [0, 2] if game_id == "spades" and seats == 4 else [0]


def yardstick(game_id: str, deals: int, seed: int, advance: Any = None,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each player at the measured seats against rule bots, over the same deals: seat 0's
    chance to win the match after the first deal (the game's ``value`` hook), per player
    and deal (JSON-ready)."""
    game = spec(game_id).game
    value = search_hooks(game_id).value
    players = [*levels_of(game.id), SHOWN]
    chances: dict[str, list[float]] = {p: [] for p in players}
    for deal in range(deals):
        deal_seed = derive_seed(seed, "deal", deal)
        for player in players:
            state = game.new(deal_seed, **(options or {}))
            mine = measured_seats(game.id, state.num_seats)
            bots: dict[Seat, Any] = {}
            for s in range(state.num_seats):
                bot_seed = derive_seed(deal_seed, "bot", s)
                if s in mine and player == SHOWN:
                    bots[s] = ShownEverything(game.id, s, bot_seed)
                else:
                    bots[s] = make_bot(game, player if s in mine else "rule", s, bot_seed)
            rng = random.Random(derive_seed(deal_seed, "observe"))
            while state.to_act and state.round == 1:
                seat = state.to_act[0]
                bot = bots[seat]
                action = (bot.act_on(state) if isinstance(bot, ShownEverything)
                          else bot.act(observe_for(bot, state, seat, rng)))
                state.apply(action, seat)
                if advance is not None:
                    advance()
            chances[player].append(value(state, 0))
    return {"game": game.id, "deals": deals, "seed": seed, "options": dict(options or {}),
            "measured_seats": measured_seats(game.id, game.default_seats),
            "chances": chances, "gap": gap_closed(chances, seed)}


def _mean_interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    mean = sum(xs) / n
    sd = (sum((x - mean) ** 2 for x in xs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    half = 1.96 * sd / n ** 0.5
    return mean, mean - half, mean + half


def gap_closed(chances: dict[str, list[float]], seed: int, resamples: int = 4000
               ) -> dict[str, Any]:
    """Per player: the mean chance with its 95% interval, the mean paired gain over the
    rule bot with its interval, and the share of the rule-to-shown-everything gap closed
    with a 95% bootstrap interval over the deals (None where the gap is not positive)."""
    rule, top = chances["rule"], chances[SHOWN]
    n = len(rule)
    rng = random.Random(derive_seed(seed, "bootstrap"))
    picks = [[rng.randrange(n) for _ in range(n)] for _ in range(resamples)]
    out: dict[str, Any] = {}
    for player, xs in chances.items():
        gains = [x - r for x, r in zip(xs, rule, strict=True)]
        full = [t - r for t, r in zip(top, rule, strict=True)]
        row: dict[str, Any] = {"chance": _mean_interval(xs), "gain": _mean_interval(gains)}
        whole = sum(full) / n
        row["closed"] = sum(gains) / n / whole if whole > 0 else None
        shares = []
        for pick in picks:
            g = sum(full[i] for i in pick)
            if g > 0:
                shares.append(sum(gains[i] for i in pick) / g)
        shares.sort()
        row["closed_interval"] = ((shares[int(0.025 * len(shares))],
                                   shares[int(0.975 * len(shares)) - 1]) if shares else None)
        out[player] = row
    return out


def report_yardstick(summary: dict[str, Any], console: Console) -> None:
    table = Table(title=f"{summary['game']}: {summary['deals']} deals, seats "
                        f"{summary['measured_seats']} against rule bots; seat 0's chance to "
                        f"win the match after the first deal")
    for col in ("Player", "Chance", "95% interval", "Gain over rule", "95% interval",
                "Gap closed", "95% interval"):
        table.add_column(col, justify="left" if col == "Player" else "right", no_wrap=True)
    for player, row in summary["gap"].items():
        c, g = row["chance"], row["gain"]
        closed = "-" if row["closed"] is None else f"{row['closed']:.0%}"
        ci = row["closed_interval"]
        table.add_row(player, f"{c[0]:.3f}", f"{c[1]:.3f}-{c[2]:.3f}", f"{g[0]:+.3f}",
                      f"{g[1]:+.3f}-{g[2]:+.3f}", closed,
                      "-" if ci is None else f"{ci[0]:.0%}-{ci[1]:.0%}")
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
    parser.add_argument("--yardstick", action="store_true", help="measure the share of "
                        "the gap to a player shown every card each level closes")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option if "=" in o)
    err = Console(stderr=True)
    with Progress(TextColumn(f"[bold]{args.game}[/] decisions"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task("decisions", total=None)
        if args.yardstick:
            summary = yardstick(args.game, args.deals, args.seed, lambda: bar.advance(task),
                                options)
        else:
            summary = measure(args.game, args.deals, args.seed, args.budget,
                              lambda: bar.advance(task), options)
    if args.json:
        print(json.dumps(summary))
    elif args.yardstick:
        report_yardstick(summary, Console(width=160))
    else:
        report(summary, Console())
    return 0


if __name__ == "__main__":
    sys.exit(main())
