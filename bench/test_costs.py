#!/usr/bin/env python3
"""What each test module costs: the CPU of everything it starts (servers, browsers, worker
processes, their orphans included), counted by a cgroup of its own, and its wall time.

    .venv/bin/python bench/test_costs.py                    # every tests/test_*.py, one at a time
    .venv/bin/python bench/test_costs.py tests/test_rl.py   # some
    .venv/bin/python bench/test_costs.py --json costs.json

Each module runs alone (``pytest -p no:xdist``, the services of ``tests/with_services.py``)
inside a new cgroup of Linux's ``cpuacct`` controller (cgroup v1, as root), so the CPU it
reports includes Chromium's renderers and the servers' workers, which ``time`` misses once
their parent has gone. The sum is close to ``make test``'s CPU (the build, ruff and mypy
aside). Needs root and ``/sys/fs/cgroup/cpuacct``; says so otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CGROUPS = Path("/sys/fs/cgroup/cpuacct")


def cost(module: str) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and pytest's exit status of ``module`` run alone."""
    group = CGROUPS / f"parlour-test-{os.getpid()}"
    group.mkdir(exist_ok=True)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            [sys.executable, "tests/with_services.py", sys.executable, "-m", "pytest", "-q",
             "-p", "no:xdist", "-p", "no:randomly", "--timeout", "600", module],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: (group / "cgroup.procs").write_text(str(os.getpid())))
        status = proc.wait()
        wall = time.monotonic() - started
        cpu = int((group / "cpuacct.usage").read_text()) / 1e9
    finally:
        for pid in (group / "cgroup.procs").read_text().split():  # orphans left behind
            subprocess.run(["kill", "-9", pid], check=False)
        time.sleep(0.2)
        group.rmdir()
    return cpu, wall, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="test modules (default: tests/test_*.py)")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    if not CGROUPS.is_dir() or os.geteuid() != 0:
        print(f"bench/test_costs.py needs root and {CGROUPS} (cgroup v1's cpuacct)")
        return 2
    modules = args.modules or sorted(str(p.relative_to(ROOT)) for p in
                                     (ROOT / "tests").glob("test_*.py"))
    rows = []
    for module in modules:
        cpu, wall, status = cost(module)
        rows.append({"module": module, "cpu": round(cpu, 1), "wall": round(wall, 1),
                     "status": status})
        print(f"{cpu:7.1f} s CPU {wall:7.1f} s wall  {module}" + ("" if status == 0 else
              f"  (pytest exit {status})"), flush=True)
    rows.sort(key=lambda r: -r["cpu"])
    total = sum(r["cpu"] for r in rows)
    print(f"\n{total:.0f} s of CPU in all; the most costly first:")
    for r in rows[:25]:
        print(f"{r['cpu']:7.1f} s  {r['module']}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
