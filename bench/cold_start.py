"""A fresh clone's first ``make run``, timed: when the first line is printed, when the server
answers its first page, and when the compiled build it starts in the background is ready;
then a second ``make run`` in the same clone, which should serve on that compiled build.

    .venv/bin/python bench/cold_start.py [--warm-build-cache] [--write]

The clone is of HEAD (commit what you mean to measure). uv's download cache is used as it is
(warm on a machine that ran ``make`` before); the compiled build's cache
(``~/.cache/parlour/compiled``, :mod:`parlour.build`) is an empty folder of the run's own
unless ``--warm-build-cache``, so the build is made from nothing as on a machine that never
built these sources. Every figure is seconds from the start of ``make run``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

import report

SERVE_WITHIN = 300.0  # seconds for a start to answer its first page
BUILD_WITHIN = 900.0  # seconds for the background build to finish


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Start:
    """One ``make run``: its output lines with the second each came, and when it answered."""

    lines: list[tuple[float, str]] = field(default_factory=list)
    answered: float | None = None
    build: str = ""  # the build /health names

    def first_line(self) -> float | None:
        return self.lines[0][0] if self.lines else None

    def said(self, text: str) -> float | None:
        return next((at for at, line in self.lines if text in line), None)


def get(url: str) -> bytes | None:
    try:
        with urlopen(url, timeout=2) as answer:
            body: bytes = answer.read()
            return body if answer.status == 200 else None
    except (URLError, OSError):
        return None


def make_run(clone: Path, env: dict[str, str]) -> tuple[Start, subprocess.Popen[str], float]:
    """Start ``make run`` in ``clone`` and wait for its first page; the start, the process
    (still serving) and when it started (monotonic)."""
    port = free_port()
    start = Start()
    began = time.monotonic()
    proc = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=clone, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            start.lines.append((time.monotonic() - began, line.rstrip("\n")))
            sys.stdout.write(f"{time.monotonic() - began:7.1f} s  {line}")

    threading.Thread(target=read, daemon=True).start()
    deadline = began + SERVE_WITHIN
    while time.monotonic() < deadline and proc.poll() is None:
        if get(f"http://127.0.0.1:{port}/") is not None:
            start.answered = time.monotonic() - began
            health = get(f"http://127.0.0.1:{port}/health") or b"{}"
            start.build = str(json.loads(health).get("build", ""))
            break
        time.sleep(0.1)
    return start, proc, began


def stop(proc: subprocess.Popen[str]) -> None:
    """End ``make run`` and the server it started (its own process group)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def build_done(clone: Path, began: float) -> tuple[float | None, str]:
    """Wait for the background build of ``clone`` to finish: when (seconds from ``began``)
    and its log's last line."""
    log = clone / "build" / "compiled" / "build.log"
    deadline = began + BUILD_WITHIN
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        last = text.strip().splitlines()[-1] if text.strip() else ""
        if any(end in last for end in (" modules with mypyc in ", "build failed",
                                       "copied from the build cache")):
            return time.monotonic() - began, last
        time.sleep(0.5)
    return None, "not finished"


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-build-cache", action="store_true",
                        help="use the user's compiled-build cache as it is")
    report.add_write_flags(parser)
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="parlour-cold-"))
    env = {k: v for k, v in os.environ.items()
           if k not in ("PARLOUR_BUILD", "PARLOUR_PURE", "VIRTUAL_ENV", "PYTHONPATH")}
    if not args.warm_build_cache:
        env["PARLOUR_BUILD_CACHE"] = str(scratch / "build-cache")
    clone = scratch / "parlour"
    try:
        subprocess.run(["git", "clone", "-q", str(report.ROOT), str(clone)], check=True)
        first, proc, began = make_run(clone, env)
        built, outcome = build_done(clone, began) if first.answered is not None \
            else (None, "no page")
        stop(proc)
        second, proc, _ = make_run(clone, env) if built is not None else (Start(), None, 0.0)
        if proc is not None:
            stop(proc)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = [["`make run` in a fresh clone", "seconds"],
            ["first line printed", seconds(first.first_line())],
            ["`.venv` made, packages installing", seconds(first.said("Installing the web"))],
            ["says the compiled build is being made", seconds(first.said("in the background"))],
            ["server started", seconds(first.said("Parlour is serving"))],
            [f"first page answered ({first.build or 'no'} build)", seconds(first.answered)],
            ["compiled build ready", seconds(built)],
            [f"second `make run`: first page ({second.build or 'no'} build)",
             seconds(second.answered)]]
    for label, value in rows[1:]:
        print(f"{label:55} {value}")
    print(f"build: {outcome}")
    ok = first.answered is not None and second.build == "compiled"
    if args.write and ok:
        report.write(report.Section(
            "cold-start", "Cold start: a fresh clone's first `make run`",
            "A new clone of HEAD, `make run` timed from its start: `.venv` made and the web "
            "server's packages installed (uv's cache warm), the server serving on the pure "
            "build while the compiled one is made in the background "
            + ("(the compiled-build cache as it was)" if args.warm_build_cache else
               "(from nothing: the compiled-build cache empty)")
            + ", then a second `make run` in the same clone, on the compiled build.",
            rows, [f"The background build's last line: {outcome.split(' (/')[0]}."]), args.doc,
            "the clone's own builds (pure, then compiled)")
    elif args.write:
        print("not written: the first start did not answer, or the second was not compiled",
              file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
