"""The test kit's own promises, where breaking one would leave a mess behind other tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from waits import ended, line_from, wait_until

TESTS = Path(__file__).resolve().parent

# A test process starting a child the way ServerProcess starts `parlour serve` (a long sleep
# stands in for the server, which takes seconds to come up).
STARTER = """
import os, subprocess, sys
sys.path.insert(0, {tests!r})
from children import child_setup
child = subprocess.Popen(["sleep", "600"], preexec_fn=child_setup(os.getpid(), None))
print(child.pid, flush=True)
sys.stdin.read()  # until killed
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead, waiting for its reaper
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_server_subprocess_dies_with_the_test_that_started_it() -> None:
    # A pytest timeout or a killed run kills the test process; its `parlour serve` went on
    # holding its port and database until found by hand.
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER.format(tests=str(TESTS))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    server = int(line_from(starter, "the pid of the server the test process started"))
    assert alive(server)
    starter.send_signal(signal.SIGKILL)
    ended(starter, "the killed test process to end", 10)
    wait_until(lambda: not alive(server), "the server to die with the test process that "
                                          "started it", 10)
