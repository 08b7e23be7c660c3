"""bench/levels.py: each level against the one below in duplicate one-deal matches, played
in chunks kept as they finish, and the table that says whether a level is separated."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from bench_kit import load_bench

PATH = Path(__file__).resolve().parent.parent / "bench" / "levels.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("levels")


def test_a_chunk_plays_the_pair_on_the_same_deals_both_ways_and_is_kept(bench, tmp_path):
    out = tmp_path / "levels.jsonl"
    bench.play("cangkul", "rule", "ismcts:easy", chunks=2, first=0, games=4, seed=7, jobs=1,
               out=out)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(x["high"], x["low"], x["seed"], x["games"]) for x in lines] == [
        ("ismcts:easy", "rule", 7, 4), ("ismcts:easy", "rule", 8, 4)]
    # each line says what the levels were when it was played: Cangkul's easy budget
    assert all(x["iterations"] == [800, None] for x in lines)
    for line in lines:  # two deals a chunk, each played twice: a deal scores 0, 1 or 2
        assert len(line["pairs"]) == 2 and all(p in (0, 1, 2) for p in line["pairs"])
        assert line["score"] == sum(line["pairs"])


def test_the_table_counts_deals_and_separates_only_above_the_bar(bench, tmp_path):
    out = tmp_path / "levels.jsonl"
    # Cangkul's budgets today: easy 800, normal 3,000, hard 6,000 iterations
    rows = [  # easy wins 3 of 4 deals both times and splits one: 7 of 8 games
        {"high": "ismcts:easy", "low": "rule", "iterations": [800, None], "seed": 1,
         "games": 8, "score": 7, "pairs": [2, 2, 2, 1]},
        # normal against easy: 400 deals split, exactly even
        {"high": "ismcts:normal", "low": "ismcts:easy", "iterations": [3000, 800], "seed": 2,
         "games": 800, "score": 400, "pairs": [1] * 400},
        # hard against normal, two chunks on two seeds: 600 of 800
        {"high": "ismcts:hard", "low": "ismcts:normal", "iterations": [6000, 3000],
         "seed": 3, "games": 400, "score": 300, "pairs": [2] * 100 + [1] * 100},
        {"high": "ismcts:hard", "low": "ismcts:normal", "iterations": [6000, 3000],
         "seed": 4, "games": 400, "score": 300, "pairs": [2] * 100 + [1] * 100},
        # played when hard had another budget: another bot, so not counted
        {"high": "ismcts:hard", "low": "ismcts:normal", "iterations": [9000, 3000],
         "seed": 5, "games": 400, "score": 0, "pairs": [0] * 200},
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    header, easy, normal, hard = bench.rows("cangkul", out)
    assert header[0] == "higher level" and header[-1] == "separated"
    assert easy[:6] == ["ismcts:easy", "rule", "800 vs -", "8", "87.5%", "52.9%-97.8%"]
    assert easy[7:] == ["3", "1", "0", "no"]  # too few games for the interval to clear 55%
    assert normal[2:5] == ["3,000 vs 800", "800", "50.0%"]
    assert normal[7:] == ["0", "400", "0", "no"]
    assert hard[2:5] == ["6,000 vs 3,000", "800", "75.0%"]
    assert hard[7:] == ["200", "200", "0", "yes"]


def test_every_kept_chunk_names_the_budgets_it_was_played_at():
    """The chunks in docs/img/levels were played at the budgets their lines name, and the
    table shows only those at today's: a level moved since is not counted as itself."""
    folder = PATH.parent.parent / "docs" / "img" / "levels"
    for path in sorted(folder.glob("*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = json.loads(raw)
            assert len(line["iterations"]) == 2, (path.name, line["chunk"])
            assert (line["iterations"][1] is None) == (line["low"] == "rule"), path.name


def test_the_section_names_a_file_outside_the_repository_as_given(bench, tmp_path):
    out = tmp_path / "levels.jsonl"
    out.write_text(json.dumps({"high": "ismcts:easy", "low": "rule", "iterations": [800, None],
                               "seed": 1, "games": 2, "score": 1, "pairs": [1]}) + "\n")
    assert f"`{out}`" in bench.section("cangkul", out).about
    inside = bench.out_path("cangkul")
    assert "`docs/img/levels/cangkul.jsonl`" in bench.section("cangkul", inside).about
