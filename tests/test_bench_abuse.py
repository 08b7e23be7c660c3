"""bench/abuse.py runs: its quick attacks, on the edge and on the life of tables, against
servers it starts, all hold and no server logs a traceback (the long ones, slowloris, the
cap race, the search hog, orphaned workers and the flood of recovery names, are covered by
their own tests and run in full by ``.venv/bin/python bench/abuse.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The quick attacks that share one server (make test).
SHARED = ("chunked_body,echoed_excerpt,create_flood,forged_forwarding,join_flood,"
          "foreign_origin,lax_input,rules_probe,password_guessing,account_input,daily_peek,"
          "banned_oracle,record_names,shape_leaks,talk_flood,invisible_names,guest_impostor,"
          "rating_farm,follow_flood,challenge_spam,room_streams,quick_play_spam,turns_probe,"
          "puzzle_probe")
#: The quick attacks that start a server each, 23 of the 37 CPU seconds of the two
#: (make test-long). make test checks what they do in the server tests, in process and on
#: both databases: endless options (test_engine) and `again` at an unwatched bot table,
#: a garbled action after a restart (test_server_life), a friend's seat kept out of the
#: lobby (test_server_lobby), a flood of reviews (test_server_reviews).
OWN_SERVER = "endless_tables,squatter,bad_row,review_flood"


@pytest.mark.parametrize("attacks", [
    pytest.param(SHARED, id="shared"),
    pytest.param(OWN_SERVER, id="own-server", marks=pytest.mark.long)])
def test_the_quick_attacks_of_the_abuse_bench_hold(attacks):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "abuse.py"), "--only", attacks],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert len([line for line in lines if line.startswith("held ")]) == attacks.count(",") + 1
    assert lines[-1] == "server tracebacks logged: 0"


def test_the_abuse_bench_refuses_an_unknown_attack_name():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "abuse.py"), "--only",
                          "squatter,nonesuch"], capture_output=True, text=True, timeout=60,
                         cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert "no such attack: nonesuch" in run.stderr
