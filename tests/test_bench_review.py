"""bench/review.py: the review timed before and after the settled rule (the same review in
worker processes as in one), its playouts counted, and the two ways' marks compared."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from bench_kit import load_bench

from parlour.analysis import review as reviewing
from parlour.bots import search

PATH = Path(__file__).resolve().parent.parent / "bench" / "review.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("review")


def test_timings_count_fewer_playouts_after_for_the_same_marks(bench):
    summary = bench.timings(deals=1, seed=3, jobs=1, budget=600)
    before, after = summary["ways"]["before"], summary["ways"]["after"]
    assert [r["seats"] for r in before] == [r["seats"] for r in after] == [1, 4]
    for b, a in zip(before, after, strict=True):
        assert b["marks"] == a["marks"] and b["decisions"] == a["decisions"] > 0
        # (a search may pass its budget by the last sample's moves: 13 at most here)
        assert 0 < a["playouts"] < b["playouts"] <= (600 + 13) * b["decisions"]
        assert a["cpu"] > 0 and a["wall"] > 0
    assert reviewing.paired_search is search.paired_search  # the count's wrapper is gone
    section = bench.table(summary)
    assert section.rows[0][0] == "review" and len(section.rows) == 5
    assert "the same" in section.notes[0]


def test_marks_compares_both_ways_on_the_same_positions(bench, monkeypatch):
    from parlour.arena import play_game
    from parlour.games import get_game

    def few(game_id, deals, seed, options=None):
        game = get_game(game_id)
        match = play_game(game, seed, ["rule"], {"max_deals": 1})
        state = game.new(match.seed, **match.options)
        for i, (seat, action) in enumerate(match.history):
            if 30 <= i < 40:
                yield state, seat, action, "rule"
            state.apply(action, seat)

    monkeypatch.setattr(bench.blunders, "positions", few)
    summary = bench.marks(deals=1, seed=2, budget=400)
    assert summary["judged"] > 0 and summary["changed"] == []
    cost = summary["cost"]
    assert 0 < cost["after"]["playouts"] < cost["before"]["playouts"]
