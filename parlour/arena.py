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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.bots import make_bot, observe_for
from parlour.engine import Game, JsonDict, Outcome, State, derive_seed
from parlour.games import get_game
from parlour.record import record_text


def game_seed(run_seed: int, index: int) -> int:
    return derive_seed(run_seed, "game", index)


def seat_bots(kinds: Sequence[str], seats: int) -> list[str]:
    """One bot kind per seat: the list given, repeated to fill the table."""
    if not kinds:
        raise ValueError("name at least one bot kind")
    return [kinds[i % len(kinds)] for i in range(seats)]


def play_game(game: Game, seed: int, kinds: Sequence[str], options: dict[str, Any] | None = None,
              seats: int | None = None) -> State:
    """Play one whole game between bots; return the finished state."""
    state = game.new(seed, seats, **(options or {}))
    bots = [make_bot(game, kind, s, derive_seed(seed, "bot", s))
            for s, kind in enumerate(seat_bots(kinds, state.num_seats))]
    rng = random.Random(derive_seed(seed, "observe"))
    while True:
        to_act = state.to_act
        if not to_act:
            return state
        seat = to_act[0]
        bot = bots[seat]
        state.apply(bot.act(observe_for(bot, state, seat, rng)), seat)


@dataclass(frozen=True)
class GameResult:
    index: int
    seed: int
    outcome: Outcome
    actions: int
    record: str | None = None


def _play_one(job: tuple[str, int, int, tuple[str, ...], dict[str, Any], int | None, bool]
              ) -> GameResult:
    game_id, run_seed, index, kinds, options, seats, keep_record = job
    seed = game_seed(run_seed, index)
    state = play_game(get_game(game_id), seed, kinds, options, seats)
    assert state.outcome is not None
    record = record_text(state, seat_bots(kinds, state.num_seats)) if keep_record else None
    return GameResult(index, seed, state.outcome, len(state.history), record)


def play_many(game_id: str, games: int, seed: int, kinds: Sequence[str],
              options: dict[str, Any] | None = None, seats: int | None = None,
              jobs: int = 1, records: bool = False) -> Iterator[GameResult]:
    """Play ``games`` games, yielding results as they finish (in any order with jobs > 1)."""
    job_list = [(game_id, seed, i, tuple(kinds), dict(options or {}), seats, records)
                for i in range(games)]
    if jobs <= 1 or games < 4:
        yield from map(_play_one, job_list)
        return
    chunk = max(1, min(50, games // (jobs * 8)))
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_play_one, job_list, chunksize=chunk)


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
        make_bot(game, kind, s, 0)  # and on an unknown bot kind
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
