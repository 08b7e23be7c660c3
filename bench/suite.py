#!/usr/bin/env python3
"""The test suite's run time: ``make test`` (or another command) timed from start to end.

    .venv/bin/python bench/suite.py                 # time make test, print the figures
    .venv/bin/python bench/suite.py --write         # and rewrite its section of docs/benchmarks.md
    .venv/bin/python bench/suite.py --command "bash .ci/run"

The command's output passes through as it comes. The figures: the whole wall-clock time,
and from pytest's last summary line, the tests passed, skipped and failed and the time
pytest itself took (the rest is setting up ``.venv``, the compiled build, ruff and mypy).
A run on a fresh clone also counts installing the packages.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

#: pytest's last line: "===== 1382 passed, 3 skipped in 481.20s (0:08:01) ====="
SUMMARY = re.compile(r"=+ (?P<counts>[^=]*?) in (?P<seconds>[\d.]+)s")


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {round(seconds % 60):02d} s"


@dataclass
class Run:
    command: str
    status: int
    seconds: float
    pytest_seconds: float | None = None
    counts: dict[str, int] = field(default_factory=dict)  # passed, skipped, failed, ...


def run(command: str) -> Run:
    """Run ``command`` from the repository's root, its output shown as it comes."""
    started = time.monotonic()
    proc = subprocess.Popen(command, shell=True, cwd=report.ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    pytest_seconds, counts = None, {}
    for line in proc.stdout:
        sys.stdout.write(line)
        found = SUMMARY.search(line)
        if found:
            pytest_seconds = float(found["seconds"])
            counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", found["counts"])}
    status = proc.wait()
    return Run(command, status, round(time.monotonic() - started, 1), pytest_seconds, counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", default="make test", help="what to time (make test)")
    parser.add_argument("--json", action="store_true")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    done = run(args.command)
    if args.json:
        print(json.dumps(asdict(done)))
    else:
        print(f"{done.command}: exit status {done.status} after {minutes(done.seconds)}; "
              f"{done.counts.get('passed', 0)} tests passed")
    if args.write and done.status == 0:
        report.write(report.Section(
            "suite", "The test suite's run time",
            "The command from start to end, then how long pytest itself took (the rest is "
            "setting up `.venv` when needed, the compiled build, ruff and mypy). The budget "
            "is 10 minutes on 2 cores.",
            [["command", "wall time", "pytest", "passed", "skipped"],
             [f"`{done.command}`", minutes(done.seconds),
              "" if done.pytest_seconds is None else minutes(done.pytest_seconds),
              str(done.counts.get("passed", "")), str(done.counts.get("skipped", 0))]]),
            args.doc)
    elif args.write:
        print("not written: the command failed", file=sys.stderr)
    return done.status


if __name__ == "__main__":
    sys.exit(main())
