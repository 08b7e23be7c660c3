"""Every command the README shows, and every command in an example's docstring, works as
written.

The commands are read from the README's ``sh`` blocks (one a line, comments dropped), its
``python`` blocks (each run as a script) and the indented command lines of
``examples/*.py``'s docstrings. Each is run from a scratch checkout (links to the
repository's files, but none to ``docs/``, ``data/``, ``records/`` or ``artifacts/``, so
what a command writes stays in the scratch), with the smoke settings of :data:`SMOKE` where
its own would take minutes (the same command with smaller counts: the changes are listed
beside it). A command that serves is started, its first page fetched over HTTP, and stopped.
A command is either run or named in :data:`EXEMPT` with the reason: one in neither fails
the test, so a new command in the docs cannot slip in untested.

A last test reads every page of ``docs/`` for a command that calls the system's ``python``
or ``pip`` where the venv's Python must be named.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from server_kit import free_port
from services import pg_database, redis_or_skip, redis_prefix

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

#: What the scratch checkout does not link: the places commands write to.
NOT_LINKED = {"docs", "data", "records", "artifacts", ".git"}


@dataclass(frozen=True)
class Smoke:
    """How the test runs a command: ``replace`` turns the documented command into the one
    run (``{port}``, ``{pg}``, ``{redis}`` and ``{prefix}`` are filled in); ``setup`` runs
    first (commands of the docs whose output this one reads); ``stdin`` is typed in;
    ``serves``: start it, fetch its first page, stop it; ``writes``: the files it must
    leave (in the scratch checkout); ``env``: set for it; ``long``: run by make test-long
    only (a command as costly as a check of its own, whose kind make test runs in another)."""

    replace: tuple[tuple[str, str], ...] = ()
    setup: tuple[str, ...] = ()
    stdin: str = ""
    serves: bool = False
    writes: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    long: bool = False


LEAVE = "q\n\n"  # leave the table, and do not save its record
RECORD = ".venv/bin/parlour simulate spades --games 10 --bots rule --option max_deals=1 " \
         "--record records/"
PG_URL = "postgresql+psycopg://parlour@db.example.org/parlour"
FOURSQUARE_CHART = tuple(f"artifacts/docs-img/rl-foursquare-ppo.{kind}" for kind in ("png", "json"))

#: Commands run otherwise than as written, and how. The rest run exactly as written.
SMOKE: dict[str, Smoke] = {
    # Served on a free port; PARLOUR_PURE=1 so that a stale compiled build is not compiled
    # in the background while the suite runs (make test has just made it anyway).
    "make run": Smoke((("make run", "make run PORT={port}"),), serves=True,
                      env=(("PARLOUR_PURE", "1"),)),
    "make run HOST=0.0.0.0 PORT=8080": Smoke(
        (("HOST=0.0.0.0 PORT=8080", "HOST=127.0.0.1 PORT={port}"),), serves=True,
        env=(("PARLOUR_PURE", "1"),)),
    ".venv/bin/parlour serve --host 0.0.0.0 --port 8080 --bot-pause 0.8": Smoke(
        (("--host 0.0.0.0 --port 8080", "--host 127.0.0.1 --port {port}"),), serves=True),
    # The terminal: into the table, then leave it.
    ".venv/bin/parlour": Smoke(stdin="1\n" + LEAVE),
    ".venv/bin/parlour play spades": Smoke(stdin=LEAVE),
    ".venv/bin/parlour play spades --seed 42 --bots ismcts:hard --option target=300":
        Smoke(stdin=LEAVE),
    ".venv/bin/parlour play hit-the-deck --seats 3": Smoke(stdin=LEAVE),
    ".venv/bin/parlour play foursquare --seed 5 --lang id": Smoke(stdin=LEAVE),
    # Several machines: this machine's PostgreSQL (a fresh database) and Redis stand in for
    # db.example.org.
    f".venv/bin/parlour db upgrade --db {PG_URL}": Smoke(((PG_URL, "{pg}"),)),
    f".venv/bin/parlour serve --host 0.0.0.0 --db {PG_URL} --redis redis://db.example.org:6379/0":
        Smoke(((PG_URL, "{pg}"), ("--host 0.0.0.0", "--host 127.0.0.1 --port {port}"),
               ("redis://db.example.org:6379/0", "{redis} --redis-prefix {prefix}")),
              setup=(f".venv/bin/parlour db upgrade --db {PG_URL}",), serves=True),
    ".venv/bin/parlour db backup --to backup.sqlite3": Smoke(
        setup=(".venv/bin/parlour db upgrade",), writes=("backup.sqlite3",)),  # a database
    # Bots, tournaments and records, with fewer games.
    ".venv/bin/parlour simulate spades --games 1000 --seed 7 --bots rule,random --json":
        Smoke((("--games 1000", "--games 4"),)),
    RECORD: Smoke(writes=("records/spades-0-00000.txt", "records/spades-0-00009.txt")),
    ".venv/bin/parlour replay records/spades-0-00000.txt": Smoke(setup=(RECORD,)),
    ".venv/bin/parlour review records/spades-0-00000.txt --seat 0": Smoke(
        (("--seat 0", "--seat 0 --budget 40"),), setup=(RECORD,)),
    ".venv/bin/parlour tournament spades --bots ismcts:easy,rule --games 400 --plot spades.png":
        Smoke((("--games 400", "--games 2 --option max_deals=1"),), writes=("spades.png",)),
    ".venv/bin/parlour analyse foursquare --games 2000 --png winnability.png":
        Smoke((("--games 2000", "--games 2"),), writes=("winnability.png",)),
    ".venv/bin/parlour puzzles --game spades --theme cover-nil": Smoke(stdin="q\n"),
    ".venv/bin/parlour puzzles mine --game cangkul --games 40 --jobs 2 --out "
    "cangkul-puzzles.json.gz": Smoke((("--games 40 --jobs 2", "--games 1"),),
                                     writes=("cangkul-puzzles.json.gz",)),
    # The examples: each writes a chart and its data; their full runs at smoke counts (the
    # output folder a scratch one, not the committed pictures of docs/img).
    # The Foursquare example's smoke and its full run share one run (11 s of CPU, most of it
    # PyTorch's import, its optimiser's and the chart's), written to a scratch folder: in
    # make test-long only, as make test trains the Spades example below (the same kind).
    ".venv/bin/python examples/train_foursquare.py --smoke": Smoke(
        (("--smoke", "--smoke --out artifacts/docs-img"),), writes=FOURSQUARE_CHART,
        long=True),
    ".venv/bin/python examples/train_foursquare.py --steps 2000000 --max-minutes 14 "
    "--out docs/img": Smoke(
        (("--steps 2000000 --max-minutes 14 --out docs/img", "--smoke --out artifacts/docs-img"),),
        writes=FOURSQUARE_CHART, long=True),
    ".venv/bin/python examples/train_spades.py --steps 30000 --eval-deals 300": Smoke(
        (("--steps 30000 --eval-deals 300", "--steps 300 --eval-deals 5"),)),
}

#: Commands not run here, each with the reason.
EXEMPT: dict[str, str] = {
    "make test": "this test is part of it",
    "sudo apt-get install python3-venv python3-pip chromium postgresql redis-server":
        "changes the system, as root",
    ".venv/bin/python -m pip install -e '.[web,postgres]'":
        "installs into .venv from the network; make test's install has these packages",
}


# ----------------------------------------------------------------------------- reading
def shell_lines(block: str) -> list[str]:
    """The commands of a shell block: one a line (a trailing backslash joins the next),
    comments dropped."""
    commands, pending = [], ""
    for line in block.splitlines():
        line = pending + line.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1]
            continue
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def readme_commands() -> tuple[list[str], list[str]]:
    """The README's shell commands and its Python blocks, in order."""
    text = README.read_text(encoding="utf-8")
    shell: list[str] = []
    python: list[str] = []
    for lang, body in re.findall(r"^```(\w*)\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        if lang in ("sh", "bash", "shell", "console"):
            shell += shell_lines(body)
        elif lang == "python":
            python.append(body)
        else:
            raise AssertionError(f"README.md: a ```{lang} block: say sh or python")
    return shell, python


def example_commands() -> list[str]:
    """The command lines of the examples' docstrings (indented, naming the venv or make)."""
    out = []
    for path in EXAMPLES:
        doc = path.read_text(encoding="utf-8").split('"""')[1]
        out += [re.sub(r"\s+#.*$", "", line).strip() for line in doc.splitlines()
                if re.match(r"\s+(\.venv/|make\b|python)", line)]
    return out


SHELL, PYTHON_BLOCKS = readme_commands()
COMMANDS = list(dict.fromkeys(SHELL + example_commands()))


def smoke_form(command: str) -> str:
    """The command as the test runs it, placeholders not yet filled."""
    for old, new in SMOKE.get(command, Smoke()).replace:
        assert old in command, f"SMOKE for {command!r}: {old!r} is not in it"
        command = command.replace(old, new)
    return command


#: Each command run once: two documented commands whose smoke forms are the same (a full
#: run and its smoke) run once, under the first.
RUN = {}
for _command in COMMANDS:
    if _command not in EXEMPT:
        RUN.setdefault(smoke_form(_command), _command)


def test_every_command_in_the_docs_is_run_or_exempt_and_the_tables_name_only_documented_ones():
    assert SHELL and PYTHON_BLOCKS and example_commands()
    for command in COMMANDS:
        assert re.match(r"(\.venv/bin/|make\b|sudo )", command), (
            f"{command!r}: run the venv's programs (.venv/bin/...) or make")
    stale = [c for c in [*SMOKE, *EXEMPT] if c not in COMMANDS]
    assert not stale, f"SMOKE or EXEMPT name commands no longer in the docs: {stale}"
    assert not set(SMOKE) & set(EXEMPT)


# ----------------------------------------------------------------------------- running
@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A scratch checkout: links to the repository's files but the places commands write."""
    for entry in ROOT.iterdir():
        if entry.name not in NOT_LINKED:
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def environment(extra: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update({"PYTHONUNBUFFERED": "1", "MPLBACKEND": "Agg"}, **dict(extra))
    return env


def run(command: str, cwd: Path, stdin: str = "", env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, shell=True, cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=env or environment())
    assert done.returncode == 0, (f"{command!r} exited with {done.returncode}:\n"
                                  f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    assert "Traceback (most recent call last)" not in done.stderr, done.stderr[-3000:]
    return done


def serve(command: str, cwd: Path, port: int, env: dict[str, str]) -> None:
    """Start ``command``, fetch its first page, stop it (its whole process group)."""
    log = cwd / f"serve-{port}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(command, shell=True, cwd=cwd, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        # make run on a clone without .venv installs first, and a stale compiled build
        # is made before serving until make run compiles in the background
        deadline = time.monotonic() + 300
        page = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert page is not None, (f"{command!r} served nothing on port {port} within 300 s "
                                  f"(exit status {proc.poll()}):\n{log.read_text()[-3000:]}")
        assert page.status_code == 200 and "Parlour" in page.text, page.text[:500]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


@contextmanager
def services_for(text: str, values: dict[str, str]) -> Iterator[None]:
    """A fresh PostgreSQL database and a Redis prefix, for commands that name them."""
    with ExitStack() as stack:
        if "{pg}" in text:
            values["pg"] = stack.enter_context(pg_database("parlour_docs"))
        if "{redis}" in text:
            values["redis"] = redis_or_skip()
            values["prefix"] = stack.enter_context(redis_prefix())
        yield


@pytest.mark.parametrize("command", [
    pytest.param(c, id=RUN[c], marks=[pytest.mark.long] if SMOKE.get(RUN[c], Smoke()).long else [])
    for c in RUN])
def test_the_command_works_as_written(command: str, checkout: Path) -> None:
    smoke = SMOKE.get(RUN[command], Smoke())
    values = {"port": str(free_port())}
    setup = [smoke_form(before) for before in smoke.setup]
    with services_for(" ".join([command, *setup]), values):
        env = environment(smoke.env)
        for before in setup:
            run(before.format(**values), checkout, env=env)
        if smoke.serves:
            serve(command.format(**values), checkout, int(values["port"]), env)
        else:
            done = run(command.format(**values), checkout, smoke.stdin, env)
            assert done.stdout.strip(), f"{command!r} printed nothing"
        for path in smoke.writes:
            assert (checkout / path).stat().st_size > 0, f"{command!r} did not write {path}"


@pytest.mark.parametrize("index", range(len(PYTHON_BLOCKS)))
def test_the_readmes_python_runs(index: int, checkout: Path) -> None:
    script = checkout / f"block_{index}.py"
    script.write_text(PYTHON_BLOCKS[index], encoding="utf-8")
    done = run(f".venv/bin/python {script.name}", checkout)
    assert done.stdout.strip()


# ----------------------------------------------------------------------------- the pages
#: A command that runs the system's Python or pip (``python x``, ``nice -n 19 python x``,
#: ``pip install``), where the venv's must be named (``.venv/bin/python``, ``-m pip``).
BARE = re.compile(r"(?<![\w/.-])(?<!-m )(?:python3?|pip3?)\s")


def code_of(page: Path) -> Iterator[tuple[int, str]]:
    """The code of a page: its fenced blocks' lines and its `spans` (which may go on over a
    line's end), each with the line it starts on."""
    fenced, prose = False, []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            yield number, line
        else:
            prose.append((number, line))
    text = "\n".join(line for _, line in prose)
    starts = [number for number, line in prose for _ in range(len(line) + 1)]
    for span in re.finditer(r"`([^`]+)`", text):
        yield starts[span.start()], span[1]


def test_the_docs_name_the_venvs_python() -> None:
    found = [f"{page.relative_to(ROOT)}:{number}: {' '.join(code.split())}"
             for page in [README, *sorted((ROOT / "docs").rglob("*.md"))]
             for number, code in code_of(page) if BARE.search(code)]
    assert not found, "write .venv/bin/python (or make) in:\n" + "\n".join(found)
