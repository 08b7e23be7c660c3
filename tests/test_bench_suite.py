"""bench/suite.py: one timed run, and the soak (several runs in a row beside CPU-bound
processes) that says which run failed and which tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "bench" / "suite.py"


def suite(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SUITE), *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def test_a_soak_prints_each_run_and_its_failed_tests_and_fails_if_one_did(tmp_path):
    # the second run fails (a counter file), printing pytest's lines as a failed run does
    count = tmp_path / "count"
    command = (f"n=$(cat {count} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {count}; "
               "echo '3 passed in 1.50s'; if [ $n = 2 ]; then "
               "echo 'FAILED tests/test_x.py::test_y - assert 1 == 2'; "
               "echo '1 failed, 2 passed in 1.50s'; exit 1; fi")
    done = suite("--command", command, "--repeat", "3", "--hogs", "2")
    lines = [line for line in done.stdout.splitlines() if line.startswith(("run ", "  ", "2 of"))]
    assert done.returncode == 1, done.stdout + done.stderr
    assert lines[0].startswith("run 1 of 3 beside 2 hogs: ") and "exit status 0" in lines[0]
    assert "3 tests passed" in lines[0]
    assert lines[1].startswith("run 2 of 3 beside 2 hogs: ") and "exit status 1" in lines[1]
    assert "2 tests passed" in lines[1]
    assert lines[2] == "  FAILED tests/test_x.py::test_y - assert 1 == 2"
    assert lines[3].startswith("run 3 of 3") and "exit status 0" in lines[3]
    assert lines[4] == "2 of 3 runs passed beside 2 CPU-bound processes"


def test_a_soak_writes_no_figures_and_bad_counts_are_refused():
    for args in (["--repeat", "2", "--write"], ["--hogs", "1", "--json"], ["--repeat", "0"],
                 ["--hogs", "-1"]):
        done = suite("--command", "true", *args)
        assert done.returncode == 2 and done.stdout == "", args
        assert "error:" in done.stderr, args
