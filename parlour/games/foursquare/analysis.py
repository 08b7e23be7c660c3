"""How winnable is Foursquare? The clairvoyant bounds, and how close the bots come.

For each deal (deal ``i`` is dealt from ``game_seed(seed, i)``, the same deals ``parlour
simulate foursquare --seed <seed>`` plays):

* the clairvoyant bot is made with the true stock order of the deal, explicitly (it cheats
  by design), and searches for a winning line within a node budget. A line it finds is
  played through the engine, which must declare the game won: that deal is *proven
  winnable*. A search that tries every line and finds none proves the deal *unwinnable*;
  one that runs out of budget leaves it *undecided*. Over the deals, the share proven
  winnable is a lower bound on how many deals can be won, and one minus the share proven
  unwinnable an upper bound.
* every bot named plays the same deal as ``simulate`` would (same seeds), and we count its
  wins, overall and on the deals proven winnable.

``parlour analyse foursquare --games 2000 --jobs 2 --png docs/img/foursquare-winnability.png``
draws the chart in ``docs/``.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from parlour.arena import game_seed, play_game, unordered_map, wilson
from parlour.bots import make_bot, observe_for
from parlour.engine import JsonDict, OptionError, derive_seed
from parlour.games import get_game
from parlour.games.foursquare.bots import WON, ClairvoyantBot
from parlour.games.foursquare.rules import FoursquareState

GAME_ID = "foursquare"
DEFAULT_BOTS = ("random", "rule", "solver")
DEFAULT_BUDGET = 200_000
TARGET = 0.9  # the solver should win this share of the deals proven winnable


@dataclass(frozen=True)
class DealResult:
    index: int
    seed: int
    status: str  # the clairvoyant search: won (proven winnable), lost (unwinnable), undecided
    nodes: int
    clairvoyant_score: int | None  # cards left when the clairvoyant's line wins
    bots: dict[str, tuple[bool, float]] = field(default_factory=dict)  # kind: (won, points)


def clairvoyant_game(seed: int, budget: int, options: dict[str, Any]
                     ) -> tuple[str, int, FoursquareState]:
    """The clairvoyant's search on deal ``seed`` and, if it found a win, its game played
    through the engine. The bot is handed the stock order here, and only here."""
    game = get_game(GAME_ID)
    state = game.new(seed, **options)
    assert isinstance(state, FoursquareState)
    bot = make_bot(game, "clairvoyant", 0, derive_seed(seed, "bot", 0),
                   deal=state.deal(), budget=budget)
    assert isinstance(bot, ClairvoyantBot)
    rng = random.Random(derive_seed(seed, "observe"))
    state.apply(bot.act(observe_for(bot, state, 0, rng)), 0)
    assert bot.result is not None
    status, nodes = bot.result.status, bot.result.nodes
    if status == WON:
        while state.to_act:
            state.apply(bot.act(observe_for(bot, state, 0, rng)), 0)
        if not (state.outcome and state.outcome.placing[0] == 1):
            raise AssertionError(f"deal {seed}: the clairvoyant's winning line did not win")
    return status, nodes, state


def analyse_deal(job: tuple[int, int, tuple[str, ...], int, dict[str, Any]]) -> DealResult:
    index, run_seed, bots, budget, options = job
    seed = game_seed(run_seed, index)
    status, nodes, state = clairvoyant_game(seed, budget, options)
    score = int(state.outcome.points[0]) if status == WON and state.outcome else None
    played = {}
    game = get_game(GAME_ID)
    for kind in bots:
        final = play_game(game, seed, [kind], options)
        assert final.outcome is not None
        played[kind] = (final.outcome.placing[0] == 1, final.outcome.points[0])
    return DealResult(index, seed, status, nodes, score, played)


def analyse_many(games: int, seed: int, bots: Sequence[str], budget: int, jobs: int,
                 options: dict[str, Any]) -> Iterator[DealResult]:
    """Each deal's result as it is done: in order with one job, as they finish with more."""
    job_list = [(i, seed, tuple(bots), budget, dict(options)) for i in range(games)]
    return unordered_map(analyse_deal, job_list, jobs, most=20)


def analyse(games: int = 2000, seed: int = 0, jobs: int = 1,
            progress: Callable[[int], None] | None = None, bots: Sequence[str] = DEFAULT_BOTS,
            budget: int = DEFAULT_BUDGET, options: dict[str, Any] | None = None) -> JsonDict:
    """Run the study on ``games`` deals; ``progress(1)`` is told of each deal as it is done
    (in any order with several ``jobs``; the summary is the same)."""
    game = get_game(GAME_ID)
    options = game.resolve_options(options)
    if games < 1:
        raise OptionError("analyse at least one deal")
    if budget < 1:
        raise OptionError("the clairvoyant's node budget must be at least 1")
    for kind in bots:
        if kind.partition(":")[0] == "clairvoyant":
            raise OptionError("the clairvoyant is always run; name only the bots to compare")
        make_bot(game, kind, 0, 0)  # fail fast on an unknown kind or level
    start = time.perf_counter()
    results = []
    for result in analyse_many(games, seed, bots, budget, jobs, options):
        results.append(result)
        if progress:
            progress(1)
    results.sort(key=lambda r: r.index)
    return summarise(results, seed, bots, budget, options, time.perf_counter() - start)


def summarise(results: Sequence[DealResult], seed: int, bots: Sequence[str], budget: int,
              options: dict[str, Any], seconds: float) -> JsonDict:
    n = len(results)
    winnable = [r for r in results if r.status == WON]
    unwinnable = sum(1 for r in results if r.status == "lost")
    w = len(winnable)
    nodes = [r.nodes for r in results]
    lower = _rate(w, n)
    clair = {
        "winnable": w,
        "unwinnable": unwinnable,
        "undecided": n - w - unwinnable,
        "lower": lower,
        "lower_interval": wilson(w, n),
        "upper": _rate(n - unwinnable, n),
        "upper_interval": wilson(n - unwinnable, n),
        "mean_nodes": round(statistics.mean(nodes), 1) if nodes else 0.0,
        "max_nodes": max(nodes, default=0),
        "mean_score_of_wins": _mean([r.clairvoyant_score for r in winnable]),
    }
    per_bot: JsonDict = {}
    for kind in bots:
        won = [r for r in results if r.bots[kind][0]]
        on_winnable = sum(1 for r in winnable if r.bots[kind][0])
        rate = _rate(len(won), n)
        per_bot[kind] = {
            "wins": len(won),
            "win_rate": rate,
            "win_interval": wilson(len(won), n),
            "mean_score_of_wins": _mean([r.bots[kind][1] for r in won]),
            "wins_on_winnable": on_winnable,
            "rate_on_winnable": _rate(on_winnable, w),
            "interval_on_winnable": wilson(on_winnable, w),
            "share_of_winnable_rate": round(rate / lower, 4) if w else None,
            "wins_not_proven_winnable": len(won) - on_winnable,
        }
    target = None
    solver = next((k for k in bots if k.partition(":")[0] == "solver"), None)
    if solver is not None and w:
        got = per_bot[solver]["rate_on_winnable"]
        target = {"bot": solver, "rate_on_winnable": got, "target": TARGET,
                  "met": got >= TARGET}
    return {
        "game": GAME_ID,
        "deals": n,
        "seed": seed,
        "options": dict(options),
        "budget": budget,
        "seconds": round(seconds, 1),
        "clairvoyant": clair,
        "bots": per_bot,
        "target": target,
    }


def _rate(k: int, n: int) -> float:
    return round(k / n, 4) if n else 0.0


def _mean(xs: Sequence[float | None]) -> float | None:
    vals = [x for x in xs if x is not None]
    return round(statistics.mean(vals), 2) if vals else None


# --------------------------------------------------------------------------- output
def report(summary: JsonDict, console: Console) -> None:
    clair = summary["clairvoyant"]
    n = summary["deals"]
    table = Table(title=f"How winnable is Foursquare? {n} deals, seed {summary['seed']}, "
                        f"clairvoyant budget {summary['budget']:,} boards")
    for col in ("Player", "Wins", "Win rate (95% CI)", "Mean score of wins",
                "Wins on proven-winnable deals"):
        table.add_column(col, justify="left" if col == "Player" else "right")
    for kind, b in summary["bots"].items():
        lo, hi = b["win_interval"]
        table.add_row(kind, str(b["wins"]), f"{b['win_rate']:.1%} ({lo:.1%}-{hi:.1%})",
                      _fmt(b["mean_score_of_wins"]),
                      f"{b['wins_on_winnable']} ({b['rate_on_winnable']:.1%})")
    lo, hi = clair["lower_interval"]
    table.add_row("clairvoyant: proven winnable", str(clair["winnable"]),
                  f"{clair['lower']:.1%} ({lo:.1%}-{hi:.1%})",
                  _fmt(clair["mean_score_of_wins"]), "-")
    lo, hi = clair["upper_interval"]
    table.add_row("clairvoyant: not proven unwinnable", str(n - clair["unwinnable"]),
                  f"{clair['upper']:.1%} ({lo:.1%}-{hi:.1%})", "-", "-")
    console.print(table)
    console.print(f"Clairvoyant search: {clair['winnable']} proven winnable, "
                  f"{clair['unwinnable']} proven unwinnable, {clair['undecided']} undecided "
                  f"(mean {clair['mean_nodes']:,} boards, at most {clair['max_nodes']:,}).")
    target = summary["target"]
    if target:
        verdict = "[green]met[/]" if target["met"] else "[red]not met[/]"
        share = summary["bots"][target["bot"]]["share_of_winnable_rate"]
        console.print(f"{target['bot']} wins {target['rate_on_winnable']:.1%} of the deals "
                      f"proven winnable (its win rate is {share:.1%} of the proven-winnable "
                      f"rate); target {target['target']:.0%}: {verdict}.")
    for kind, b in summary["bots"].items():
        if b["wins_not_proven_winnable"]:
            console.print(f"[yellow]{kind} won {b['wins_not_proven_winnable']} deals the "
                          f"clairvoyant search did not prove winnable[/]")
    console.print(f"{summary['seconds']} s")


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def draw(summary: JsonDict, path: Path) -> None:
    """Win rates with their 95% intervals, and the clairvoyant bounds, as a PNG: the whole
    scale on the left, and on the right a close-up of the bars near 100%."""
    import matplotlib  # a dependency of parlour (pyproject.toml), loaded only to draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    clair = summary["clairvoyant"]
    labels, rates, intervals, colours = [], [], [], []
    for kind, b in summary["bots"].items():
        labels.append(kind)
        rates.append(b["win_rate"])
        intervals.append(b["win_interval"])
        colours.append("#4c72b0")
    labels += ["clairvoyant:\nproven\nwinnable", "clairvoyant:\nnot proven\nunwinnable"]
    rates += [clair["lower"], clair["upper"]]
    intervals += [clair["lower_interval"], clair["upper_interval"]]
    colours += ["#55a868", "#8fd19e"]
    near = [i for i, r in enumerate(rates) if r >= 0.5]
    fig, axes = plt.subplots(1, 2 if near else 1, figsize=(11 if near else 8, 4.8), dpi=120,
                             gridspec_kw={"width_ratios": [3, 2]} if near else None,
                             squeeze=False)
    _bars(axes[0][0], labels, rates, intervals, colours, clair, (0.0, 1.0))
    if near:
        low = min(intervals[i][0] for i in near)
        floor = max(0.0, math.floor(min(0.98, low - 0.005) * 100) / 100)
        _bars(axes[0][1], [labels[i] for i in near], [rates[i] for i in near],
              [intervals[i] for i in near], [colours[i] for i in near], clair, (floor, 1.0))
        axes[0][1].set_title("close-up", fontsize=9)
    flip = summary["options"].get("flip", "designer")
    fig.suptitle(f"How winnable is Foursquare? {summary['deals']:,} deals (seed "
                 f"{summary['seed']}, flip={flip}); clairvoyant search budget "
                 f"{summary['budget']:,} boards a deal", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def _bars(ax: Any, labels: list[str], rates: list[float], intervals: list[list[float]],
          colours: list[str], clair: JsonDict, span: tuple[float, float]) -> None:
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    low, high = span
    errors = [[r - lo for r, (lo, _) in zip(rates, intervals, strict=True)],
              [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)]]
    xs = list(range(len(labels)))
    ax.bar(xs, [r - low for r in rates], bottom=low, yerr=errors, capsize=6, color=colours,
           edgecolor="black", linewidth=0.6)
    room = (high - low) * 0.02
    for x, r, (lo, hi) in zip(xs, rates, intervals, strict=True):
        ax.text(x, hi + room, f"{r:.1%}\n[{lo:.1%}, {hi:.1%}]", ha="center", va="bottom",
                fontsize=7.5)
    if clair["upper"] > clair["lower"]:
        ax.axhspan(clair["lower"], clair["upper"], color="#55a868", alpha=0.12,
                   label="the winnable share lies here (clairvoyant bounds)")
        ax.legend(loc="upper left", fontsize=8, frameon=False)
    ax.set_xticks(xs, labels, fontsize=8.5)
    ax.set_ylim(low, high + (high - low) * 0.16)
    ax.yaxis.set_major_locator(MaxNLocator(6, steps=[1, 2, 5, 10]))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0 if high - low > 0.2 else 1))
    ax.set_ylabel("deals won (95% Wilson interval)")
    ax.spines[["top", "right"]].set_visible(False)
