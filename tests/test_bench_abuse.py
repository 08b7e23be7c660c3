"""bench/abuse.py runs: its quick attacks, against a server it starts, all hold (the long
ones, slowloris and the cap race, are covered by their own tests and run in full by
``python bench/abuse.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = ("chunked_body,echoed_excerpt,create_flood,forged_forwarding,join_flood,"
         "foreign_origin,lax_input")


def test_the_quick_attacks_of_the_abuse_bench_hold():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "abuse.py"), "--only", QUICK],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert len([line for line in lines if line.startswith("held ")]) == QUICK.count(",") + 1
    assert lines[-1] == "server tracebacks logged: 0"
