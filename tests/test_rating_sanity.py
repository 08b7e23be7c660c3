"""Rating sanity (bench/ratings.py at small counts): bots of clearly different strength,
rated as people are, come out in their order within a few matches; Clockwork Spades'
bots, which barely differ, stay within their uncertainty."""

from __future__ import annotations

import pytest
from bench_kit import load_bench

bench = load_bench("ratings")


@pytest.mark.parametrize("game_id", ["spades", "spite-and-malice", "hit-the-deck"])
def test_random_ranks_below_rule_and_the_order_settles_within_ten_matches(game_id):
    found = bench.simulate(game_id, ["random", "rule"], 20, seed=3,
                           options=bench.DEFAULTS[game_id]["options"])
    assert found["order"] == ["random", "rule"]
    assert found["settled_after"] is not None and found["settled_after"] <= 10
    gap = found["ratings"]["rule"]["mu"] - found["ratings"]["random"]["mu"]
    assert gap > 10


def test_clockwork_spades_bots_stay_within_their_uncertainty():
    found = bench.simulate("clockwork-spades", ["random", "rule"], 60, seed=5)
    assert found["within_uncertainty"]
