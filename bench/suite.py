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

The soak of the first-hour issue, ten consecutive fresh-clone runs beside two CPU-bound
processes, each run's figures and failed tests printed as it ends (exit status 1 if any
run failed):

    python3 bench/suite.py --fresh-clone --command "CI=true bash .ci/run" --repeat 10 --hogs 2
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
from collections.abc import Iterator
from contextlib import contextmanager
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
    failures: list[str] = field(default_factory=list)  # pytest's FAILED and ERROR lines


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(command: str, where: Path = report.ROOT) -> Run:
    """Run ``command`` in ``where`` (the repository's root), its output shown as it comes."""
    started, cpu = time.monotonic(), children_cpu()
    proc = subprocess.Popen(command, shell=True, cwd=where, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    pytest_seconds, counts, failures = None, {}, []
    for line in proc.stdout:
        sys.stdout.write(line)
        if line.startswith(("FAILED ", "ERROR ")):
            failures.append(line.strip())
        found = SUMMARY.search(line)
        if found:
            pytest_seconds = float(found["seconds"])
            counts = {kind: int(n) for n, kind in re.findall(r"(\d+) (\w+)", found["counts"])}
    status = proc.wait()
    return Run(command, status, round(time.monotonic() - started, 1),
               round(children_cpu() - cpu, 1), pytest_seconds, counts, failures)


def run_in_fresh_clone(command: str) -> Run:
    """``command`` in a new clone of the repository's HEAD (a temporary folder, removed)."""
    scratch = Path(tempfile.mkdtemp(prefix="parlour-suite-"))
    try:
        subprocess.run(["git", "clone", "-q", str(report.ROOT), str(scratch / "parlour")],
                       check=True)
        done = run(command, scratch / "parlour")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    done.command += " (fresh clone)"
    return done


def summary(done: Run) -> str:
    return (f"{done.command}: exit status {done.status} after {minutes(done.seconds)} "
            f"({done.cpu_seconds:.0f} s of CPU); {done.counts.get('passed', 0)} tests passed")


@contextmanager
def hogs(count: int) -> Iterator[None]:
    """``count`` CPU-bound processes (``while True: pass``) running until the block ends."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def soak(command: str, fresh_clone: bool, repeat: int, beside: int) -> int:
    """``command`` ``repeat`` times in a row beside ``beside`` hogs; 1 if any run failed.
    The hogs are reaped after the last run, so no run's CPU counts theirs."""
    failed = 0
    with hogs(beside):
        for n in range(1, repeat + 1):
            done = run_in_fresh_clone(command) if fresh_clone else run(command)
            failed += done.status != 0
            print(f"run {n} of {repeat} beside {beside} hogs: {summary(done)}", flush=True)
            for line in done.failures:
                print(f"  {line}", flush=True)
    print(f"{repeat - failed} of {repeat} runs passed beside {beside} CPU-bound processes")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", default="make test", help="what to time (make test)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fresh-clone", action="store_true",
                        help="run it in a new clone of HEAD, as CI does")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run it N times in a row (a soak: each run's figures printed)")
    parser.add_argument("--hogs", type=int, default=0, metavar="K",
                        help="with K CPU-bound processes running beside it")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.hogs < 0:
        parser.error("--repeat takes 1 or more, --hogs 0 or more")
    if args.repeat > 1 or args.hogs:
        if args.write or args.json:
            parser.error("a soak (--repeat, --hogs) prints its runs; it writes no figures")
        return soak(args.command, args.fresh_clone, args.repeat, args.hogs)
    done = run_in_fresh_clone(args.command) if args.fresh_clone else run(args.command)
    if args.json:
        print(json.dumps(asdict(done)))
    else:
        print(summary(done))
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
