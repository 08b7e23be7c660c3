"""Many games at once: play bots against each other and summarise the results.

Every game is seeded from the run's seed and its index (:func:`game_seed`), and every bot
from the game's seed and its seat, so a run is reproducible whatever order or number of
worker processes plays it.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from parlour.bots import Bot, bot_kinds, make_bot, observe_for
from parlour.bots.base import observe_open
from parlour.engine import Action, Game, JsonDict, Outcome, Seat, State, derive_seed
from parlour.games import get_game
from parlour.record import record_text

T = TypeVar("T")
R = TypeVar("R")


def game_seed(run_seed: int, index: int) -> int:
    return derive_seed(run_seed, "game", index)


def seat_bots(kinds: Sequence[str], seats: int) -> list[str]:
    """One bot kind per seat: the list given, repeated to fill the table."""
    if not kinds:
        raise ValueError("name at least one bot kind")
    return [kinds[i % len(kinds)] for i in range(seats)]


def arena_bot(game: Game, kind: str, seat: Seat, seed: int) -> Bot:
    """A bot of ``kind`` for the arena: a yardstick shown every card (a kind whose
    ``sees_everything`` is set, such as Spades' ``open-hands``) is made knowing it will
    be, as only the arena shows it (:func:`play_game`)."""
    cls = bot_kinds(game.id).get(kind.strip().lower().partition(":")[0])
    if cls is not None and cls.sees_everything:
        return make_bot(game, kind, seat, seed, shown=True)
    return make_bot(game, kind, seat, seed)


#: ``watch(state, seat, action)``: told of each action just before it is applied.
Watch = Callable[[State, Seat, Action], None]


def play_game(game: Game, seed: int, kinds: Sequence[str], options: dict[str, Any] | None = None,
              seats: int | None = None, watch: Watch | None = None) -> State:
    """Play one whole game between bots; return the finished state. ``watch``, if given,
    sees each action before it is applied, the state as it stands (a round's length)."""
    state = game.new(seed, seats, **(options or {}))
    bots = [arena_bot(game, kind, s, derive_seed(seed, "bot", s))
            for s, kind in enumerate(seat_bots(kinds, state.num_seats))]
    rng = random.Random(derive_seed(seed, "observe"))
    while True:
        to_act = state.to_act
        if not to_act:
            return state
        seat = to_act[0]
        bot = bots[seat]
        obs = (observe_open(state, seat) if bot.sees_everything
               else observe_for(bot, state, seat, rng))
        action = bot.act(obs)
        if watch is not None:
            watch(state, seat, action)
        state.apply(action, seat)


@dataclass(frozen=True)
class Job:
    """One game to play: which game, its seed, and the bot kind at each seat."""

    game_id: str
    index: int
    seed: int
    kinds: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    seats: int | None = None
    record: bool = False
    rotation: int = 0


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    outcome: Outcome
    actions: int
    kinds: tuple[str, ...] = ()
    rotation: int = 0
    record: str | None = None
    #: The actions of the game's longest round (or deal), and which round it was (the
    #: first of equals): every action applied counts, draws, passes and slaps too.
    longest_round: int = 0
    longest_round_at: int = 0
    rounds: int = 0
    #: The safety stops the game reached: (option, round, whether it ended the match).
    stops: tuple[tuple[str, int, bool], ...] = ()


def count_round(counts: Counter[int], state: State, seat: Seat, action: Action) -> None:
    """A :data:`Watch` counting the actions of each round (``state.round``)."""
    counts[state.round] += 1


def run_job(job: Job) -> GameResult:
    counts: Counter[int] = Counter()
    state = play_game(get_game(job.game_id), job.seed, job.kinds, dict(job.options), job.seats,
                      partial(count_round, counts))
    assert state.outcome is not None
    kinds = tuple(seat_bots(job.kinds, state.num_seats))
    record = record_text(state, kinds) if job.record else None
    at, longest = max(counts.items(), key=lambda item: (item[1], -item[0]), default=(0, 0))
    return GameResult(job.index, job.seed, state.outcome, len(state.history), kinds,
                      job.rotation, record, longest, at, len(counts),
                      tuple((s.option, s.round, s.match) for s in state.safety_stops))


def _run_chunk(func: Callable[[T], R], items: list[T]) -> list[R]:
    return [func(item) for item in items]


def unordered_map(func: Callable[[T], R], items: Sequence[T], workers: int = 1,
                  most: int = 25) -> Iterator[R]:
    """``func`` of every item, yielded as each finishes: in order in this process when
    ``workers`` <= 1 (or the items are few), else from a pool of ``workers`` processes in
    chunks of at most ``most`` items (about eight a worker), in the order they finish, so
    a caller can tell its progress as results arrive. ``func`` must be a module's function
    (it is pickled) and each result must not depend on which process computed it."""
    if workers <= 1 or len(items) < 4:
        yield from map(func, items)
        return
    size = max(1, min(most, len(items) // (workers * 8)))
    chunks = [list(items[i:i + size]) for i in range(0, len(items), size)]
    with ProcessPoolExecutor(workers) as pool:
        for future in as_completed([pool.submit(_run_chunk, func, c) for c in chunks]):
            yield from future.result()


def run_jobs(jobs: Sequence[Job], workers: int = 1) -> Iterator[GameResult]:
    """Play every job, yielding results as they finish (in any order when workers > 1).
    Each game is fully seeded by its job, so the results do not depend on ``workers``."""
    return unordered_map(run_job, jobs, workers)


def play_many(game_id: str, games: int, seed: int, kinds: Sequence[str],
              options: dict[str, Any] | None = None, seats: int | None = None,
              jobs: int = 1, records: bool = False) -> Iterator[GameResult]:
    """Play ``games`` games with the same seating, yielding results as they finish."""
    opts = tuple(sorted((options or {}).items()))
    job_list = [Job(game_id, i, game_seed(seed, i), tuple(kinds), opts, seats, records)
                for i in range(games)]
    yield from run_jobs(job_list, jobs)


def summarise(game: Game, results: Sequence[GameResult], seed: int, kinds: Sequence[str],
              seconds: float, seats: int) -> JsonDict:
    """Wins per seat (a shared first place counts for each sharer, a draw for nobody),
    draws, mean points per seat (and over the games each seat won), and speed.

    With one seat (a solitaire) there are no draws: placing 1 is a win, anything else a
    loss, and ``mean_points_of_wins`` is the mean score of the games won."""
    wins = [0] * seats
    points = [0.0] * seats
    won_points = [0.0] * seats
    draws = 0
    for r in results:
        if r.outcome.is_draw and seats > 1:
            draws += 1
        else:
            for s in r.outcome.winners:
                wins[s] += 1
                won_points[s] += r.outcome.points[s]
        for s, p in enumerate(r.outcome.points):
            points[s] += p
    n = len(results)
    return {
        "game": game.id,
        "games": n,
        "seed": seed,
        "bots": seat_bots(kinds, seats),
        "seconds": round(seconds, 3),
        "games_per_second": round(n / seconds, 2) if seconds > 0 else None,
        "wins": wins,
        "draws": draws,
        "win_rate": [round(w / n, 4) if n else 0.0 for w in wins],
        "win_interval": [wilson(w, n) for w in wins],
        "mean_points": [round(p / n, 3) if n else 0.0 for p in points],
        "mean_points_of_wins": [round(p / w, 3) if w else None
                                for p, w in zip(won_points, wins, strict=True)],
        "mean_actions": round(sum(r.actions for r in results) / n, 1) if n else 0.0,
        **round_lengths(results),
    }


def round_lengths(results: Sequence[GameResult]) -> JsonDict:
    """The longest round of the games (in actions, with its game's index and the round),
    how many rounds they played, and how many rounds and games a safety stop ended."""
    longest = max(results, key=lambda r: (r.longest_round, -r.index), default=None)
    return {
        "rounds": sum(r.rounds for r in results),
        "longest_round": None if longest is None else {
            "actions": longest.longest_round, "game": longest.index,
            "round": longest.longest_round_at},
        "rounds_stopped": sum(1 for r in results for s in r.stops if not s[2]),
        "games_stopped": sum(1 for r in results if any(s[2] for s in r.stops)),
    }


def wilson(successes: float, trials: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of a proportion, as ``[low, high]``."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def simulate(game_id: str, games: int, seed: int, kinds: Sequence[str],
             options: dict[str, Any] | None = None, seats: int | None = None,
             jobs: int = 1, record_dir: Path | None = None,
             progress: Callable[[int], None] | None = None) -> JsonDict:
    """Play ``games`` games and summarise them; ``progress(n)`` is told of each finish."""
    game = get_game(game_id)
    seats = game.check_seats(seats)
    game.resolve_options(options)  # fail fast on a bad option, before any worker starts
    for s, kind in enumerate(seat_bots(kinds, seats)):
        arena_bot(game, kind, s, 0)  # and on an unknown bot kind
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    results = []
    for result in play_many(game_id, games, seed, kinds, options, seats, jobs,
                            records=record_dir is not None):
        results.append(result)
        if record_dir is not None and result.record is not None:
            (record_dir / f"{game_id}-{seed}-{result.index:05d}.txt").write_text(result.record)
        if progress:
            progress(1)
    results.sort(key=lambda r: r.index)
    return summarise(game, results, seed, kinds, time.perf_counter() - start, seats)


def default_jobs() -> int:
    return os.cpu_count() or 1


# ----------------------------------------------------------------------------- tournaments
def seatings(kinds: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The kinds around the table in every rotation: with two kinds, each deal is played
    twice with the sides swapped (the duplicate format); with k kinds, k times."""
    k = len(kinds)
    return [tuple(kinds[(s + r) % k] for s in range(seats)) for r in range(k)]


def kind_scores(result: GameResult) -> dict[str, float]:
    """Each kind's share of the game: the kind(s) holding the best placing split one
    point; with partners (Spades) both share the team's placing."""
    best: dict[str, int] = {}
    for kind, place in zip(result.kinds, result.outcome.placing, strict=True):
        best[kind] = min(place, best.get(kind, place))
    top = min(best.values())
    winners = [k for k, p in best.items() if p == top]
    return {k: (1 / len(winners) if k in winners else 0.0) for k in best}


def elo_difference(rate: float) -> float:
    """The Elo difference that predicts a score rate of ``rate``."""
    rate = min(max(rate, 1e-4), 1 - 1e-4)
    return 400 * math.log10(rate / (1 - rate))


def tournament_size(kinds: Sequence[str], games: int) -> int:
    """How many games a tournament asked for ``games`` plays: every deal once in each seating
    rotation (one per kind), so ``games`` rounded up to whole deals, and at least one deal."""
    rotations = max(1, len(kinds))
    return max(1, math.ceil(games / rotations)) * rotations


def tournament(game_id: str, kinds: Sequence[str], games: int, seed: int,
               options: dict[str, Any] | None = None, seats: int | None = None,
               jobs: int = 1, progress: Callable[[int], None] | None = None) -> JsonDict:
    """Play ``games`` games between bot kinds, every deal once per seating rotation."""
    game = get_game(game_id)
    seats = game.check_seats(seats)
    game.resolve_options(options)
    if len(set(kinds)) < 2:
        raise ValueError("a tournament needs at least two different bot kinds")
    for s, kind in enumerate(seat_bots(kinds, seats)):
        arena_bot(game, kind, s, 0)
    rotations = seatings(kinds, seats)
    deals = tournament_size(kinds, games) // len(rotations)
    opts = tuple(sorted((options or {}).items()))
    job_list = [Job(game_id, i * len(rotations) + r, game_seed(seed, i), rotation, opts, seats,
                    rotation=r)
                for i in range(deals) for r, rotation in enumerate(rotations)]
    start = time.perf_counter()
    results: list[GameResult] = []
    for result in run_jobs(job_list, jobs):
        results.append(result)
        if progress:
            progress(1)
    results.sort(key=lambda r: r.index)
    seconds = time.perf_counter() - start
    n = len(results)
    table: dict[str, JsonDict] = {}
    for kind in dict.fromkeys(kinds):
        scores = [kind_scores(r)[kind] for r in results]
        total = sum(scores)
        table[kind] = {
            "score": total, "games": n,
            "wins": sum(1 for x in scores if x == 1.0),
            "shared": sum(1 for x in scores if 0 < x < 1),
            "rate": round(total / n, 4), "interval": wilson(total, n),
        }
    out: JsonDict = {
        "game": game.id, "bots": list(dict.fromkeys(kinds)), "games": n, "seed": seed,
        "seatings": [list(r) for r in rotations], "options": dict(options or {}),
        "seconds": round(seconds, 2), "jobs": jobs, "results": table,
    }
    if len(table) == 2:
        first, second = list(table)
        low, high = table[first]["interval"]
        out["elo"] = {"of": first, "against": second,
                      "difference": round(elo_difference(table[first]["rate"]), 1),
                      "interval": [round(elo_difference(low), 1),
                                   round(elo_difference(high), 1)]}
        # Duplicate pairs: the same deals with the sides swapped.
        pairs: dict[int, float] = {}
        for r in results:
            key = r.index // len(rotations)
            pairs[key] = pairs.get(key, 0.0) + kind_scores(r)[first]
        out["deal_scores"] = [pairs[key] for key in sorted(pairs)]  # the first kind's, a deal
        out["pairs"] = {"both": sum(1 for v in pairs.values() if v == len(rotations)),
                        "split": sum(1 for v in pairs.values() if 0 < v < len(rotations)),
                        "neither": sum(1 for v in pairs.values() if v == 0)}
    return out


def plot_tournament(summary: JsonDict, path: Path) -> None:
    """A bar per bot kind: its score rate with the 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = list(summary["results"])
    rates = [summary["results"][k]["rate"] for k in kinds]
    lows = [r - summary["results"][k]["interval"][0] for k, r in zip(kinds, rates, strict=True)]
    highs = [summary["results"][k]["interval"][1] - r for k, r in zip(kinds, rates, strict=True)]
    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=120)
    ax.bar(kinds, rates, yerr=[lows, highs], capsize=8,
           color=["#2b6cb0", "#c05621", "#2f855a", "#6b46c1"][:len(kinds)])
    ax.axhline(1 / len(kinds), color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games won (95% CI)")
    title = f"{summary['game']}: {summary['games']} games"
    if "elo" in summary:
        e = summary["elo"]
        low, high = e["interval"]
        title += (f"\n{e['of']} {e['difference']:+.0f} Elo [{low:+.0f}, {high:+.0f}] "
                  f"against {e['against']}")
    ax.set_title(title, fontsize=10)
    for i, r in enumerate(rates):
        ax.text(i, r / 2, f"{r:.1%}", ha="center", color="white", fontweight="bold")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
