"""The server's worker processes (parlour/server/play/runner.py ``Workers``): a pool that breaks
is replaced and its job run again; workers that break as they start are given up for a
while, and the callers work in threads meanwhile."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from parlour.server.play.runner import Workers, WorkersDown


def dies_once(marker: str) -> int:
    """Kill the worker the first time (as an out-of-memory kill would), answer after."""
    if not Path(marker).exists():
        Path(marker).write_text("died")
        os._exit(9)
    return os.getpid()


def always_dies() -> int:
    os._exit(9)


def test_a_broken_pool_is_replaced_and_the_job_run_again(tmp_path):
    workers = Workers(1, "tests")

    async def go() -> tuple[int, int]:
        try:
            first = await workers.run(dies_once, str(tmp_path / "marker"))
            return first, await workers.run(dies_once, str(tmp_path / "marker"))
        finally:
            workers.close()

    first, second = asyncio.run(asyncio.wait_for(go(), 120))
    assert first == second != os.getpid()  # the new pool's worker answered both


def test_workers_that_keep_breaking_are_given_up_for_a_while():
    workers = Workers(1, "tests")

    async def go() -> float:
        loop = asyncio.get_running_loop()
        try:
            with pytest.raises(WorkersDown):
                await workers.run(always_dies)
            assert workers.pool is None
            began = loop.time()
            with pytest.raises(WorkersDown, match="down"):
                await workers.run(always_dies)  # at once: no pool is started
            return loop.time() - began
        finally:
            workers.close()

    assert asyncio.run(asyncio.wait_for(go(), 120)) < 0.5
