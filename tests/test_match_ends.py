"""Every match ends (issue 28): for every registered game and seat count, with the same bot
kind at every seat, seeded whole matches end by their rules, and no round is longer than
the bound the game's rules page writes.

* **Kinds**: ``random`` and ``rule`` at every seat; ``make test-long`` adds ``ismcts:easy``.
* **No safety stop**: no round ends at a safety stop (Hit the Deck's and Spite & Malice's
  ``max_turns``), whatever the bots; no match ends at one (``max_rounds``, Spades'
  ``max_deals``) between rule or ISMCTS bots. Random bots are the exception the Spades and
  Spite & Malice rules pages give: bidding or building at random, they never reach the
  target, and the match stop is how such a match ends (its players are told so).
* **Round length**: the actions applied in one round or deal (draws, passes, swaps and every
  slap count; Spades' bids too), counted by the arena (``run_job``: ``play_game``'s
  ``watch``), as ``parlour simulate`` reports it. The bound is the page's line
  ``**Longest round.** ... at most N actions``: the longest round of 2,000 seeded matches
  per seat count and kind (fewer with ismcts, below), with a margin. The page names the
  command that measures it (``parlour simulate GAME --games 2000 --seed 28 ...``); this
  module run as a script measures every game, seat count and kind at once.
* **How many matches**: ``make test`` plays 100 seeded matches per game, seat count and
  kind, or fewer where a whole match is long: seeded whole matches until 100 or until
  :data:`QUICK_ACTIONS` actions have been played (so a few seconds per game, on the pure
  build); ``make test-long`` plays 2,000 (in parts of 500, each inside the run's timeout),
  and :data:`ISMCTS_MATCHES` with easy ISMCTS at every seat, whose whole matches take 20 s
  (Hit the Deck) to 90 s (Spite & Malice) each.

The games and their seat counts come from the registry, never from a list here.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import pytest

from parlour.arena import GameResult, Job, game_seed, run_job, simulate
from parlour.registry import game_ids, spec

#: The run's seed: match ``i`` of every game, seat count and kind is ``game_seed(RUN, i)``.
RUN = 28
KINDS = ("random", "rule")
LONG_KINDS = (*KINDS, "ismcts:easy")
QUICK_MATCHES = 100
#: ``make test`` stops adding matches once this many actions were played (a Spades match
#: between random bots is 100 deals, 5,600 actions; a Hit the Deck match about 500).
QUICK_ACTIONS = 6_000
LONG_MATCHES = 2_000
LONG_PART = 500
#: Whole matches with easy ISMCTS at every seat: a search per decision makes them 20 s to
#: 90 s each, so 2,000 would take days; these show that the searcher feeds no loop either.
ISMCTS_MATCHES = 20
BOUND = re.compile(r"\*\*Longest round\.\*\*(.*?)\bat\s+most\s+([0-9,]+)\s+actions", re.DOTALL)


def seatings() -> list[tuple[str, int]]:
    """Every registered game with each seat count it is played by."""
    out = []
    for game_id in game_ids():
        game = spec(game_id).game
        out += [(game_id, n) for n in range(game.min_seats, game.max_seats + 1)]
    return out


def bound(game_id: str) -> int:
    """The longest round the game's rules page allows, in actions."""
    text = spec(game_id).rules_page.read_text(encoding="utf-8")
    found = BOUND.findall(text)
    assert len(found) == 1, f"{game_id}: the rules page needs one '**Longest round.**' line"
    return int(found[0][1].replace(",", ""))


@dataclass
class Lengths:
    """What a run of matches showed: its longest round and where, and the safety stops."""

    game_id: str
    seats: int
    kind: str
    matches: int = 0
    rounds: int = 0
    actions: int = 0
    longest: int = 0
    longest_at: tuple[int, int] = (-1, -1)  # (match index, round)
    round_stops: list[tuple[int, int, str]] = field(default_factory=list)  # (index, round, option)
    match_stops: list[tuple[int, str]] = field(default_factory=list)  # (index, option)

    def add(self, result: GameResult) -> None:
        self.matches += 1
        self.rounds += result.rounds
        self.actions += result.actions
        if result.longest_round > self.longest:
            self.longest = result.longest_round
            self.longest_at = (result.index, result.longest_round_at)
        for option, round_, match in result.stops:
            if match:
                self.match_stops.append((result.index, option))
            else:
                self.round_stops.append((result.index, round_, option))

    def merge(self, other: Lengths) -> None:
        self.matches += other.matches
        self.rounds += other.rounds
        self.actions += other.actions
        if other.longest > self.longest:
            self.longest, self.longest_at = other.longest, other.longest_at
        self.round_stops += other.round_stops
        self.match_stops += other.match_stops


def measure(game_id: str, seats: int, kind: str, first: int, matches: int,
            actions: int | None = None) -> Lengths:
    """Play matches ``first`` .. ``first + matches - 1`` with the arena (whole ones, seeded as
    ``parlour simulate --seed 28`` seeds them), or stop adding them once ``actions`` actions
    were played."""
    seen = Lengths(game_id, seats, kind)
    for index in range(first, first + matches):
        seen.add(run_job(Job(game_id, index, game_seed(RUN, index), (kind,), (), seats)))
        if actions is not None and seen.actions >= actions:
            break
    return seen


def check(seen: Lengths) -> None:
    assert seen.round_stops == [], f"rounds ended by a safety stop: {seen.round_stops[:5]}"
    if seen.kind != "random":
        assert seen.match_stops == [], f"matches ended by a safety stop: {seen.match_stops[:5]}"
    most = bound(seen.game_id)
    assert seen.longest <= most, (f"match {seen.longest_at[0]}, round {seen.longest_at[1]}: "
                                  f"{seen.longest} actions, over the rules page's {most}")


# ----------------------------------------------------------------------------- make test
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("game_id", "seats"), seatings())
def test_seeded_matches_end_and_every_round_is_under_its_bound(game_id, seats, kind):
    seen = measure(game_id, seats, kind, 0, QUICK_MATCHES, QUICK_ACTIONS)
    assert seen.matches >= 1 and seen.rounds >= seen.matches
    check(seen)


def test_simulate_reports_the_longest_round_and_the_stops():
    summary = simulate("hit-the-deck", 3, 1, ["random"], {"max_turns": 20}, seats=2)
    assert summary["rounds_stopped"] >= 3 and summary["games_stopped"] == 0
    assert 20 <= summary["longest_round"]["actions"] <= 20 + 2 + 4  # the stop, then a slap
    summary = simulate("spades", 2, 1, ["random"], {"max_deals": 2})
    assert summary["rounds"] == 4 and summary["games_stopped"] == 2
    assert summary["rounds_stopped"] == 0 and summary["longest_round"]["actions"] == 56


def test_every_rules_page_writes_its_bound():
    for game_id in game_ids():
        assert 0 < bound(game_id) < 10_000


def test_the_check_fails_a_round_over_its_bound_or_a_stop():
    seen = Lengths("hit-the-deck", 2, "rule", longest=bound("hit-the-deck") + 1)
    with pytest.raises(AssertionError, match="over the rules page's"):
        check(seen)
    seen = Lengths("hit-the-deck", 2, "rule", round_stops=[(3, 9, "max_turns")])
    with pytest.raises(AssertionError, match="safety stop"):
        check(seen)
    seen = Lengths("spades", 4, "random", match_stops=[(0, "max_deals")])
    check(seen)  # the end random Spades is given
    with pytest.raises(AssertionError, match="safety stop"):
        check(Lengths("spades", 4, "rule", match_stops=[(0, "max_deals")]))


# ----------------------------------------------------------------------------- make test-long
LONG_CASES = [(game_id, seats, kind, first)
              for game_id, seats in seatings() for kind in LONG_KINDS
              for first in (range(0, LONG_MATCHES, LONG_PART) if kind in KINDS else (0,))]


@pytest.mark.long
@pytest.mark.parametrize(("game_id", "seats", "kind", "first"), LONG_CASES)
def test_long_seeded_matches_end_and_every_round_is_under_its_bound(game_id, seats, kind,
                                                                    first):
    matches = LONG_PART if kind in KINDS else ISMCTS_MATCHES
    check(measure(game_id, seats, kind, first, matches))


# ----------------------------------------------------------------------------- measuring
def _measure_case(case: tuple[str, int, str, int, int]) -> Lengths:
    return measure(*case)


def main(argv: list[str] | None = None) -> None:
    """Measure the longest rounds (what the rules pages' bounds come from), e.g.
    ``.venv/bin/python tests/test_match_ends.py --matches 2000 --jobs 2``."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--matches", type=int, default=LONG_MATCHES)
    parser.add_argument("--ismcts-matches", type=int, default=ISMCTS_MATCHES)
    parser.add_argument("--kinds", default=",".join(LONG_KINDS))
    parser.add_argument("--games", default=",".join(game_ids()))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    cases = []
    for game_id, seats in seatings():
        if game_id not in args.games.split(","):
            continue
        for kind in kinds:
            total = args.matches if kind in KINDS else args.ismcts_matches
            cases += [(game_id, seats, kind, first, min(LONG_PART, total - first))
                      for first in range(0, total, LONG_PART)]
    start = time.time()
    merged: dict[tuple[str, int, str], Lengths] = {}
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for seen in pool.map(_measure_case, cases):
            key = (seen.game_id, seen.seats, seen.kind)
            into = merged.setdefault(key, Lengths(*key))
            into.merge(seen)
            print(json.dumps({"game": seen.game_id, "seats": seen.seats, "kind": seen.kind,
                              "matches": into.matches, "longest": into.longest,
                              "at": into.longest_at, "round_stops": len(into.round_stops),
                              "match_stops": len(into.match_stops),
                              "seconds": round(time.time() - start)}), flush=True)
    print("\n| game | seats | bots | matches | rounds | longest round (actions) | "
          "round stops | match stops |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for (game_id, seats, kind), seen in merged.items():
        print(f"| {game_id} | {seats} | {kind} | {seen.matches:,} | {seen.rounds:,} | "
              f"{seen.longest} | {len(seen.round_stops)} | {len(seen.match_stops)} |")


if __name__ == "__main__":
    main()
