#!/usr/bin/env python3
"""Where the time goes: a workload of bench/engine.py or bench/rl.py under pyinstrument.

    .venv/bin/python bench/hotpath.py spades               # bench/engine.py's Spades deals
    .venv/bin/python bench/hotpath.py rl:spades            # bench/rl.py's Spades environment steps
    .venv/bin/python bench/hotpath.py hit_the_deck --flat  # self time per function, most first

Needs the ``bench`` extra (pyinstrument). The profile is of the build that is imported
(compiled or pure, see ``parlour.native``); compiled functions show as their callers' time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import report

try:
    import engine
    import rl
    from pyinstrument import Profiler
    from pyinstrument.renderers import ConsoleRenderer
except ImportError as missing:  # not the venv's Python: say what to run instead
    sys.exit(report.needs(missing))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    choices = [*engine.WORKLOADS, *(f"rl:{name}" for name in rl.WORKLOADS)]
    parser.add_argument("workload", choices=choices)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--flat", action="store_true", help="self time per function")
    args = parser.parse_args(argv)
    profiler = Profiler(interval=0.0005)
    profiler.start()
    if args.workload.startswith("rl:"):
        rl.steps_per_second(rl.WORKLOADS[args.workload[3:]][0], args.seconds)
    else:
        engine.WORKLOADS[args.workload][1](args.seconds)
    profiler.stop()
    print(profiler.output(ConsoleRenderer(unicode=False, color=False, flat=args.flat,
                                          show_all=False, short_mode=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
