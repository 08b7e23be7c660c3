"""Progress of the command line's long work (review, analyse, simulate, tournament), on
standard error so that what the command prints on standard output stays clean.

On a terminal it is a rich bar with the count and the time left; anywhere else (piped into
a file, a log, ``tee``) it is a plain line every few seconds, and one at the end::

    reviewing: 73 of 392 decisions (19%), about 0:26 left

``PARLOUR_PROGRESS_SECONDS`` sets how often that line comes (5 seconds by default; 0 writes
one per step). Progress is display only: the work tells it what is done and never reads it
back, so the clock decides when a line is written and nothing else.

>>> import io
>>> out = io.StringIO()
>>> with progress("counting", "steps", 2, stream=out, interval=0) as bar:
...     bar.advance()
...     bar.advance()
>>> print(out.getvalue().splitlines()[-1])
counting: 2 of 2 steps (100%) in 0:00
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO, Protocol

#: How often a plain line is written when standard error is no terminal, in seconds.
DEFAULT_INTERVAL = 5.0
INTERVAL_VARIABLE = "PARLOUR_PROGRESS_SECONDS"


class Tracker(Protocol):
    """What long work is handed: it says how far it is, and nothing comes back."""

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are done."""

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` are done, of ``total`` if that is now known."""

    def __enter__(self) -> Tracker: ...

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None: ...


def progress(label: str, unit: str, total: int | None = None, *, transient: bool = False,
             stream: IO[str] | None = None, interval: float | None = None,
             clock: Callable[[], float] = time.monotonic) -> Tracker:
    """A tracker for ``total`` steps (None: not known yet) of ``unit`` (``"deals"``),
    shown as ``label``: a rich bar on a terminal (gone at the end if ``transient``), else
    plain lines on ``stream`` (standard error) every ``interval`` seconds (default: the
    ``PARLOUR_PROGRESS_SECONDS`` variable, else 5)."""
    from rich.console import Console

    console = Console(file=stream, stderr=stream is None)
    if console.is_interactive:  # a terminal that can redraw a line (not TERM=dumb)
        return _Bar(label, unit, total, console, transient)
    return _Lines(label, unit, total, console.file,
                  interval_from_environment() if interval is None else interval, clock)


def interval_from_environment() -> float:
    """``PARLOUR_PROGRESS_SECONDS`` as seconds (0 or more), else :data:`DEFAULT_INTERVAL`."""
    text = os.environ.get(INTERVAL_VARIABLE, "").strip()
    if not text:
        return DEFAULT_INTERVAL
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not (math.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"{INTERVAL_VARIABLE} is a number of seconds, 0 or more, "
                         f"not {text!r}")
    return seconds


def clock_text(seconds: float) -> str:
    """``0:26``, ``12:05``, ``1:02:03``."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class _Lines:
    """Plain lines: the first step's, then one every ``interval`` seconds, then the last."""

    def __init__(self, label: str, unit: str, total: int | None, stream: IO[str],
                 interval: float, clock: Callable[[], float]) -> None:
        self.label, self.unit, self.total = label, unit, total
        self.stream, self.interval, self.clock = stream, interval, clock
        self.done = 0
        self.start = self.last = clock()
        self.written = False

    def __enter__(self) -> _Lines:
        if self.total is not None:
            self._write(self.clock())
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self._write(self.clock(), finished=True)

    def advance(self, steps: int = 1) -> None:
        self.update(self.done + steps)

    def update(self, done: int, total: int | None = None) -> None:
        self.done = done
        if total is not None:
            self.total = total
        if self.total is not None and done >= self.total:
            return  # the last line is written at the end, with the time it took
        now = self.clock()
        if not self.written or now - self.last >= self.interval:
            self._write(now)

    def line(self, now: float, finished: bool = False) -> str:
        """What is written at ``now``: the count, the share done, and the time left (or,
        at the end, the time it took)."""
        elapsed = now - self.start
        count = (f"{self.done} {self.unit}" if self.total is None
                 else f"{self.done} of {self.total} {self.unit}")
        if self.total:
            count += f" ({self.done / self.total:.0%})"
        if finished:
            return f"{self.label}: {count} in {clock_text(elapsed)}"
        if self.total is not None and 0 < self.done < self.total:
            left = elapsed * (self.total - self.done) / self.done
            return f"{self.label}: {count}, about {clock_text(left)} left"
        return f"{self.label}: {count}"

    def _write(self, now: float, finished: bool = False) -> None:
        self.stream.write(self.line(now, finished) + "\n")
        self.stream.flush()
        self.last, self.written = now, True


class _Bar:
    """A rich progress bar: the label, the bar, done/total, the unit, the time left."""

    def __init__(self, label: str, unit: str, total: int | None, console: object,
                 transient: bool) -> None:
        from rich.console import Console
        from rich.markup import escape
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        assert isinstance(console, Console)
        self.bar = Progress(TextColumn(f"[bold]{escape(label)}[/]"), BarColumn(),
                            MofNCompleteColumn(), TextColumn(escape(unit)),
                            TimeRemainingColumn(), console=console, transient=transient)
        self.task = self.bar.add_task(label, total=total)

    def __enter__(self) -> _Bar:
        self.bar.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.bar.stop()

    def advance(self, steps: int = 1) -> None:
        self.bar.advance(self.task, steps)

    def update(self, done: int, total: int | None = None) -> None:
        if total is None:
            self.bar.update(self.task, completed=done)
        else:
            self.bar.update(self.task, completed=done, total=total)

