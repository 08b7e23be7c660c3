"""bench/abuse.py runs: its quick attacks, on the edge and on the life of tables, against
servers it starts, all hold and no server logs a traceback (the long ones, slowloris, the
cap race, the search hog and orphaned workers, are covered by their own tests and run in
full by ``python bench/abuse.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = ("chunked_body,echoed_excerpt,create_flood,forged_forwarding,join_flood,"
         "foreign_origin,lax_input,rules_probe,password_guessing,account_input,endless_tables,"
         "squatter,bad_row,review_flood,daily_peek")


def test_the_quick_attacks_of_the_abuse_bench_hold():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "abuse.py"), "--only", QUICK],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert len([line for line in lines if line.startswith("held ")]) == QUICK.count(",") + 1
    assert lines[-1] == "server tracebacks logged: 0"


def test_the_abuse_bench_refuses_an_unknown_attack_name():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "abuse.py"), "--only",
                          "squatter,nonesuch"], capture_output=True, text=True, timeout=60,
                         cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert "no such attack: nonesuch" in run.stderr
