"""What the benchmarks share: their sections of docs/benchmarks.md, and one clear line when
a script is run by a Python that lacks what it needs.

Each benchmark owns one section of ``docs/benchmarks.md``, between ``<!-- bench:KEY -->``
and ``<!-- /bench:KEY -->``. A script run with ``--write`` rewrites its section from the
run's results (:func:`write`): its title, the command that made it, the date, the machine
(CPU model, cores, Python, which build of Parlour, the load average) and one table. The
rest of the page, other sections included, is left as it is; a section not yet on the page
is added at its end.

Only the standard library is imported here: a script imports this module to say what to
run when one of its own imports fails (:func:`needs`).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"

#: Packages of the ``bench`` extra (the peers and the profiler), which ``make
#: .venv/.installed-bench`` adds to the development install.
BENCH_EXTRA = {"pyspiel", "open_spiel", "rlcard", "pyinstrument"}


def needs(missing: ImportError) -> str:
    """The one line a bench script exits with when an import fails: what is missing and
    the commands to run instead (``sys.exit(needs(err))``)."""
    name = missing.name or str(missing)
    extra = "bench" if name.split(".")[0] in BENCH_EXTRA else "dev"
    target = f".venv/.installed-{extra}"
    script = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    again = shlex.join([".venv/bin/python", script, *sys.argv[1:]])
    return (f"{script} needs {name}, which {sys.executable} does not have: run `make {target}` "
            f"once, then `{again}`")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def build() -> str:
    """Which build of Parlour this process runs: ``compiled build``, or ``pure build`` and
    why (``parlour.native.status``)."""
    from parlour.native import status

    state = status()
    if state == "compiled":
        return "compiled build"
    return f"pure build ({state.removeprefix('pure: ').split(' (')[0]})"


def machine(build_said: str | None = None) -> str:
    """One line: the CPU model, its cores, the Python, the build of Parlour that ran (this
    checkout's, unless ``build_said`` says which) and the load average at the end of the
    run (others' work on the machine slows a timing)."""
    ran = build_said or f"Parlour's {build()}"
    return (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{ran}, load average {os.getloadavg()[0]:.1f} at the end")


def command() -> str:
    """The command this run was started with, as a reader would type it from the
    repository's root (``--write`` and ``--doc FILE`` left out)."""
    args, rest = [], iter(sys.argv[1:])
    for arg in rest:
        if arg == "--doc":
            next(rest, None)
        elif arg != "--write" and not arg.startswith("--doc="):
            args.append(arg)
    script = os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)
    pure = os.environ.get("PARLOUR_PURE", "")
    prefix = f"PARLOUR_PURE={pure} " if pure not in ("", "0") else ""
    # a URL's password never reaches the page
    args = [re.sub(r"(://[^:/@\s]+):[^@\s]*@", r"\1:***@", arg) for arg in args]
    return prefix + shlex.join([".venv/bin/python", script, *args])


@dataclass
class Section:
    """One benchmark's part of the page: a title, what it measures, and its table (the
    header row first)."""

    key: str
    title: str
    about: str
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)

    def markdown(self, command: str, date: str, machine: str) -> str:
        header, *body = self.rows
        lines = [f"<!-- bench:{self.key} -->", f"## {self.title}", "",
                 f"`{command}` on {date}: {machine}.", "", self.about, "",
                 "| " + " | ".join(header) + " |",
                 "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(header))) + " |"]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        if self.notes:
            lines += ["", *self.notes]
        lines.append(f"<!-- /bench:{self.key} -->")
        return "\n".join(lines)


def replace_section(page: str, key: str, text: str) -> str:
    """The page with section ``key`` replaced by ``text`` (added at the end if absent)."""
    pattern = re.compile(rf"<!-- bench:{re.escape(key)} -->.*?<!-- /bench:{re.escape(key)} -->",
                         re.DOTALL)
    if pattern.search(page):
        return pattern.sub(lambda _: text, page, count=1)
    return page.rstrip("\n") + "\n\n" + text + "\n"


def stamp(build_said: str | None = None) -> dict[str, str]:
    """What the page says of a run: its command, date and machine, taken as it ends (a
    run saved as JSON keeps its own, to be written later from another machine state)."""
    return {"command": command(), "date": datetime.date.today().isoformat(),
            "machine": machine(build_said)}


def write(section: Section, path: Path = DOC, build_said: str | None = None,
          ran: dict[str, str] | None = None) -> None:
    """Rewrite ``section`` on the page at ``path`` from this run (or from ``ran``, the
    :func:`stamp` of a saved run)."""
    ran = ran or stamp(build_said)
    text = section.markdown(ran["command"], ran["date"], ran["machine"])
    page = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    path.write_text(replace_section(page, section.key, text), encoding="utf-8")
    print(f"wrote the section {section.key!r} of {named(path)}", file=sys.stderr)


def named(path: Path) -> str:
    """``path`` as a page or a message names it: from the repository's root when it lies
    inside, else as given."""
    whole = path.resolve()
    return str(whole.relative_to(ROOT)) if whole.is_relative_to(ROOT) else str(path)


def add_write_flags(parser: argparse.ArgumentParser, doc: Path = DOC) -> None:
    """``--write`` (rewrite this benchmark's section of the page) and ``--doc FILE`` (the
    page: ``doc``, docs/benchmarks.md unless told)."""
    shown = named(doc)
    parser.add_argument("--write", action="store_true",
                        help=f"rewrite this benchmark's section of {shown}")
    parser.add_argument("--doc", type=Path, default=doc, metavar="FILE",
                        help=f"the page --write rewrites (default: {shown})")


def number(value: float | None, digits: int = 0, missing: str = "not installed") -> str:
    """A figure as the page shows it: thousands separated, or why there is none."""
    return missing if value is None else f"{value:,.{digits}f}"
