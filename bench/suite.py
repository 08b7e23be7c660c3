#!/usr/bin/env python3
"""The test suite's run time: ``make test`` (or another command) timed from start to end.

    .venv/bin/python bench/suite.py                 # time make test, print the figures
    .venv/bin/python bench/suite.py --write         # and rewrite its section of docs/benchmarks.md
    .venv/bin/python bench/suite.py --command "bash .ci/run"
    .venv/bin/python bench/suite.py --fresh-clone --command "bash .ci/run" --write

The command's output passes through as it comes. The figures: the whole wall-clock time,
the CPU time of everything it ran (user + sys of its processes and theirs, as
``/usr/bin/time`` counts them), and from pytest's last summary line, the tests passed,
skipped and failed and the time pytest itself took (the rest is setting up ``.venv``, the
compiled build, ruff and mypy). ``--fresh-clone`` runs the command in a new clone of the
repository's HEAD (in a temporary folder, removed after), as CI does: it also counts making
``.venv`` (uv's cache warm) and takes the compiled build and mypy's results from the user's
caches when they hold these sources (parlour/build.py, the Makefile).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

#: pytest's last line: "===== 1382 passed, 3 skipped in 481.20s (0:08:01) =====", or with
#: -q (make test's) "1651 passed, 2 skipped in 334.02s (0:05:34)"
SUMMARY = re.compile(r"^(?:=+ )?(?P<counts>\d+ \w+(?:, \d+ \w+)*) in (?P<seconds>[\d.]+)s")


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {round(seconds % 60):02d} s"


@dataclass
class Run:
    command: str
    status: int
    seconds: float
    cpu_seconds: float = 0.0  # user + sys of the command's processes and theirs
    pytest_seconds: float | None = None
    counts: dict[str, int] = field(default_factory=dict)  # passed, skipped, failed, ...


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(command: str, where: Path = report.ROOT) -> Run:
    """Run ``command`` in ``where`` (the repository's root), its output shown as it comes."""
    started, cpu = time.monotonic(), children_cpu()
    proc = subprocess.Popen(command, shell=True, cwd=where, stdout=subprocess.PIPE,
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
    return Run(command, status, round(time.monotonic() - started, 1),
               round(children_cpu() - cpu, 1), pytest_seconds, counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", default="make test", help="what to time (make test)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fresh-clone", action="store_true",
                        help="run it in a new clone of HEAD, as CI does")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.fresh_clone:
        scratch = Path(tempfile.mkdtemp(prefix="parlour-suite-"))
        try:
            subprocess.run(["git", "clone", "-q", str(report.ROOT), str(scratch / "parlour")],
                           check=True)
            done = run(args.command, scratch / "parlour")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        done.command += " (fresh clone)"
    else:
        done = run(args.command)
    if args.json:
        print(json.dumps(asdict(done)))
    else:
        print(f"{done.command}: exit status {done.status} after {minutes(done.seconds)} "
              f"({done.cpu_seconds:.0f} s of CPU); {done.counts.get('passed', 0)} tests passed")
    if args.write and done.status == 0:
        report.write(report.Section(
            "suite", "The test suite's run time",
            "The command from start to end, then how long pytest itself took (the rest is "
            "setting up `.venv` when needed, the compiled build, ruff and mypy), and the CPU "
            "time of all it ran (user + sys, children included). The budget on 2 cores: 8 "
            "minutes and 380 s of CPU from a fresh clone (uv's cache warm; the compiled "
            "build and mypy's results come from the user's caches when they hold these "
            "sources: on a machine that never built them, about 80 s more CPU). What each "
            "test module costs: `.venv/bin/python bench/test_costs.py`.",
            [["command", "wall time", "CPU", "pytest", "passed", "skipped"],
             [f"`{done.command}`", minutes(done.seconds), f"{done.cpu_seconds:.0f} s",
              "" if done.pytest_seconds is None else minutes(done.pytest_seconds),
              str(done.counts.get("passed", "")), str(done.counts.get("skipped", 0))]]),
            args.doc,
            # a fresh clone's make test makes its own compiled build (this checkout's is
            # not the one that ran)
            "the tests on the compiled build `make test` makes first" if args.fresh_clone
            else None)
    elif args.write:
        print("not written: the command failed", file=sys.stderr)
    return done.status


if __name__ == "__main__":
    sys.exit(main())
