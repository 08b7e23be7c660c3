#!/usr/bin/env python3
"""Engine speed as instruction counts: repeatable on a busy machine, where timings are not.

Each workload of ``bench/engine.py`` (and ``rl:<name>`` of ``bench/rl.py``, ``search`` of
``bench/search.py``, and ``whole:<name>``: a workload of first rounds each played by one call
of Parlour's compiled rollout, no benchmark loop around its moves) runs under
``valgrind --tool=callgrind`` for ``count`` and ``2 * count`` units (deals, rounds,
environment steps, search iterations); the difference over the extra units is the
instructions one unit costs, start-up and imports left out. Each peer
runs the same way, and the ratio is the peer's instructions over Parlour's: how many times
faster Parlour is, on instructions (a proxy for time: cache misses and branch mispredictions
are not counted, so the timing ratio of ``bench/engine.py`` on a quiet machine is the figure
that counts).

    .venv/bin/python bench/instructions.py spades hit_the_deck rl:spades search
    .venv/bin/python bench/instructions.py --json spades
    .venv/bin/python bench/instructions.py --pure-too --write     # docs/benchmarks.md's table
    PARLOUR_PURE=1 .venv/bin/python bench/instructions.py --engines parlour --count 10 foursquare
    .venv/bin/python bench/instructions.py --pure-too whole:hit_the_deck   # the build's own ratio

``--pure-too`` counts Parlour a second time with ``PARLOUR_PURE=1`` (the pure build) when
the compiled build runs, for a column of each.

The same seeds are played whatever the build, so the pure and the compiled build's counts
of one workload compare exactly even with small counts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import report

#: Units per run by default: about a second of work each under callgrind.
COUNTS = {"spades": 60, "spades_cpp": 60, "spades_loop": 60, "spite_and_malice": 20,
          "hit_the_deck": 60, "hit_the_deck_4": 40, "clockwork_spades": 40, "foursquare": 60,
          "rl:spades": 600, "rl:hit_the_deck": 600, "search": 400}


def engines(name: str) -> dict[str, Callable[[int], int] | None]:
    """The workload's engines, Parlour first: each a function that plays ``count`` units
    (or a little more) and returns how many it played; None for a missing peer."""
    if name.startswith("rl:"):
        import rl

        ours, peer_name, peer_factory = rl.WORKLOADS[name[3:]]
        peer = peer_factory()
        return {"parlour": _episodes(ours),
                peer_name: None if peer is None else _episodes(peer)}
    if name.startswith("whole:"):
        import engine

        whole = engine.WORKLOADS[name[6:]][1].whole
        if whole is None:
            raise SystemExit(f"{name[6:]} has no whole-round variant (its rounds are not "
                             "first_rounds)")
        return {"parlour": _units(whole)}
    if name == "search":
        import search

        def ours(count: int) -> int:
            search.parlour_rate(count)
            return count

        def peer(count: int) -> int:
            search.openspiel_rate(count)
            return count

        return {"parlour": ours, "openspiel": peer}
    import engine

    _, parlour, peers = engine.WORKLOADS[name]
    out: dict[str, Callable[[int], int] | None] = {"parlour": _units(parlour.make)}
    out.update({p: _units(rated.make) for p, rated in peers.items()})
    return out


def _units(make: Callable[[], Callable[[int], None] | None]) -> Callable[[int], int] | None:
    def run(count: int) -> int:
        work = make()
        assert work is not None
        for i in range(count):
            work(i)
        return count

    return run


def _episodes(make: Callable[[], Callable[[], int]]) -> Callable[[int], int]:
    def run(count: int) -> int:
        episode = make()
        steps = 0
        while steps < count:
            steps += episode()
        return steps

    return run


def available(name: str, engine: str) -> bool:
    return engines(name).get(engine) is not None


#: The measured runs' environment: the same string hashes each run, no bytecode written
#: (see :func:`warm`), and NumPy's BLAS with no thread pool of its own (a peer imports
#: NumPy: its pool's threads spinning as they start would be counted, more or less each
#: run, though they do none of the workload).
QUIET_ENV = {"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1",
             "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def inner(name: str, engine: str, count: int) -> None:
    """Run in the child, under callgrind: play ``count`` units and print how many."""
    run = engines(name)[engine]
    assert run is not None
    print(run(count) if count else 0)


def instructions(name: str, engine: str, count: int, pure: bool = False) -> tuple[int, int]:
    """Instructions and units of one run under callgrind (``pure``: of the pure build)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, __file__, "--inner", name, engine, str(count)],
            capture_output=True, text=True, env={**os.environ, **QUIET_ENV, **build_env(pure)})
        if proc.returncode:
            raise RuntimeError(proc.stderr[-2000:])
        found = re.search(r"Collected : (\d+)", proc.stderr)
        assert found, proc.stderr[-2000:]
        return int(found[1]), int(proc.stdout.split()[-1])


def build_env(pure: bool) -> dict[str, str]:
    return {"PARLOUR_PURE": "1"} if pure else {}


def warm(name: str, engine: str, pure: bool = False) -> None:
    """Ten units, not counted, with Python free to write the bytecode of what it imports:
    a measured run that compiled a module the other found compiled would count the
    compiling as the units' (the difference of a workload's two runs came out negative for
    RLCard so, and Hit the Deck's round half its cost). Both measured runs then write no
    bytecode, so they start from the same files."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(build_env(pure))
    subprocess.run([sys.executable, __file__, "--inner", name, engine, "10"], check=True,
                   capture_output=True, env=env)


def per_unit(name: str, engine: str, count: int, pure: bool = False) -> float:
    warm(name, engine, pure)
    low, units_low = instructions(name, engine, count, pure)
    high, units_high = instructions(name, engine, 2 * count, pure)
    return (high - low) / (units_high - units_low)


def section(results: dict[str, dict[str, float | None]], build: str) -> report.Section:
    """docs/benchmarks.md's table of this run."""
    builds = ["compiled", "pure"] if any("parlour_pure" in r for r in results.values()) else [
        "compiled" if build == "compiled" else "pure"]
    keys = {"compiled": "parlour", "pure": "parlour_pure" if len(builds) == 2 else "parlour"}
    rows = [["workload", *(f"Parlour, {b}" for b in builds), "peer", "peer's count",
             *(f"peer / Parlour, {b}" for b in builds)]]
    for name, row in results.items():
        peer = next((k for k in row if k not in ("parlour", "parlour_pure")
                     and not k.startswith("ratio")), None)
        ours = [row.get(keys[b]) for b in builds]
        count = None if peer is None else row[peer]
        rows.append([f"`{name}`", *(report.number(v, missing="") for v in ours), peer or "",
                     "" if peer is None else report.number(count),
                     *("" if not count or not v else f"{count / v:.2f}x" for v in ours)])
    return report.Section(
        "instructions", "Instructions per unit of work (callgrind)",
        "Each workload of `bench/engine.py` (and `rl:<name>` of `bench/rl.py`, `search` of "
        "`bench/search.py`) run under `valgrind --tool=callgrind` for a count of units and for "
        "twice as many: the difference over the extra units is one unit's instructions, "
        "start-up and imports left out. Counts repeat within 0.03% from run to run whatever "
        "the machine's load, so they compare builds and changes where timings cannot; a peer's "
        "count over Parlour's says how many times fewer instructions Parlour needs.", rows)


def every_workload() -> list[str]:
    """The workloads of ``--all``, from the benchmarks' own lists (so a new game is counted
    without naming it here or in the Makefile)."""
    import engine
    import rl

    return [*engine.WORKLOADS, "search", *(f"rl:{name}" for name in rl.WORKLOADS)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="*", default=["spades", "hit_the_deck"])
    parser.add_argument("--all", action="store_true",
                        help="every workload: each of bench/engine.py (every registered game), "
                        "search, and each learning environment of bench/rl.py")
    parser.add_argument("--count", type=int, help="units per run (default: per workload)")
    parser.add_argument("--engines", help="comma-separated engines to count (default: all; "
                        "e.g. parlour, to compare the pure and compiled builds)")
    parser.add_argument("--pure-too", action="store_true",
                        help="count Parlour's pure build too (when the compiled one runs)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inner", nargs=3, help=argparse.SUPPRESS)
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args.inner[0], args.inner[1], int(args.inner[2]))
        return 0
    try:
        from parlour.native import status
    except ImportError as missing:  # not the venv's Python: say what to run instead
        sys.exit(report.needs(missing))

    if args.all:
        args.workloads = every_workload()
    results: dict[str, dict[str, float | None]] = {}
    pure_too = args.pure_too and status() == "compiled"
    if not args.json:
        print(f"parlour build: {status()}", flush=True)
    for name in args.workloads:
        count = args.count or COUNTS.get(name.removeprefix("whole:"), 40)
        row: dict[str, float | None] = {}
        wanted = args.engines.split(",") if args.engines else list(engines(name))
        for engine in [e for e in engines(name) if e in wanted]:
            row[engine] = (round(per_unit(name, engine, count)) if available(name, engine)
                           else None)
            if engine == "parlour" and pure_too:
                row["parlour_pure"] = round(per_unit(name, engine, count, pure=True))
        peers = [v for k, v in row.items() if not k.startswith("parlour")]
        ours = row.get("parlour")
        if len(peers) == 1 and ours is not None:
            row["ratio"] = round(peers[0] / ours, 2) if peers[0] and ours else None
        results[name] = row
        if not args.json:
            parts = "   ".join(f"{k} {v:,.2f}" if k == "ratio" and v is not None
                               else f"{k} {'missing' if v is None else f'{v:,.0f}'}"
                               for k, v in row.items())
            print(f"{name:18} instructions per unit: {parts}", flush=True)
    if args.write:
        report.write(section(results, status()), args.doc)
    if args.json:
        print(json.dumps({"build": status(), **results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
