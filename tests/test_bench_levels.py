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
    for line in lines:  # two deals a chunk, each played twice: a deal scores 0, 1 or 2
        assert len(line["pairs"]) == 2 and all(p in (0, 1, 2) for p in line["pairs"])
        assert line["score"] == sum(line["pairs"])


def test_the_table_counts_deals_and_separates_only_above_the_bar(bench, tmp_path):
    out = tmp_path / "levels.jsonl"
    rows = [  # easy wins 3 of 4 deals both times and splits one: 7 of 8 games
        {"high": "ismcts:easy", "low": "rule", "seed": 1, "games": 8, "score": 7,
         "pairs": [2, 2, 2, 1]},
        # normal against easy: 400 deals split, exactly even
        {"high": "ismcts:normal", "low": "ismcts:easy", "seed": 2, "games": 800,
         "score": 400, "pairs": [1] * 400},
        # hard against normal, two chunks on two seeds: 600 of 800
        {"high": "ismcts:hard", "low": "ismcts:normal", "seed": 3, "games": 400,
         "score": 300, "pairs": [2] * 100 + [1] * 100},
        {"high": "ismcts:hard", "low": "ismcts:normal", "seed": 4, "games": 400,
         "score": 300, "pairs": [2] * 100 + [1] * 100},
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    header, easy, normal, hard = bench.rows(out)
    assert header[0] == "higher level" and header[-1] == "separated"
    assert easy[:5] == ["ismcts:easy", "rule", "8", "87.5%", "52.9%-97.8%"]
    assert easy[6:] == ["3", "1", "0", "no"]  # too few games for the interval to clear 55%
    assert normal[2:4] == ["800", "50.0%"] and normal[6:] == ["0", "400", "0", "no"]
    assert hard[2:4] == ["800", "75.0%"] and hard[6:] == ["200", "200", "0", "yes"]


def test_the_section_names_a_file_outside_the_repository_as_given(bench, tmp_path):
    out = tmp_path / "levels.jsonl"
    out.write_text(json.dumps({"high": "ismcts:easy", "low": "rule", "seed": 1, "games": 2,
                               "score": 1, "pairs": [1]}) + "\n")
    assert f"`{out}`" in bench.section("cangkul", out).about
    inside = bench.out_path("cangkul")
    assert "`docs/img/levels/cangkul.jsonl`" in bench.section("cangkul", inside).about
