"""``python -m parlour.build``: compile the hot modules with mypyc (see :mod:`parlour.native`).

Each build is made beside the package in ``build/compiled/<digest>/`` and used only by
processes started while it matches the sources (and by the processes they start). Without
mypy (the ``fast`` extra) or a C compiler, or if the build fails, it says so in one line and
Parlour runs as pure Python.

A finished build is also kept in the user's build cache (``~/.cache/parlour/compiled``, as
uv and pip keep what they built), under a key of the sources, Python, mypyc's version, the
optimisation level and the C compiler: another checkout of the same sources (a fresh clone,
a worktree, CI's) copies it in a moment rather than compiling for a minute or two.
``PARLOUR_BUILD_CACHE`` names another folder, or ``off`` for none; the
:data:`CACHED_BUILDS` most recently used are kept.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from parlour.native import (
    BUILD,
    IN_USE_NAME,
    MODULES,
    PACKAGE,
    PURE_VARIABLE,
    STAMP_NAME,
    build_folder,
    current_build,
    is_complete,
    remove_unused,
    source_digest,
    source_path,
)

LOG = BUILD / "build.log"  # a build's output when it runs in the background
LAST_SECONDS = BUILD / "last-build-seconds"  # how long the last build here took
USUAL = "about 2 to 4 minutes on 2 cores"  # said before the first build on a machine
CACHE_VARIABLE = "PARLOUR_BUILD_CACHE"  # another build cache folder, or "off"
CACHED_BUILDS = 4  # builds the cache keeps, the most recently used


def opt_level() -> str:
    return os.environ.get("MYPYC_OPT_LEVEL", "3")


def cache_folder() -> Path | None:
    """The build cache every checkout of this user shares: ``$PARLOUR_BUILD_CACHE``, else
    ``$XDG_CACHE_HOME/parlour/compiled`` (``~/.cache/parlour/compiled``); None if "off"."""
    chosen = os.environ.get(CACHE_VARIABLE, "")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "parlour" / "compiled"


def cache_key(digest: str) -> str:
    """The cache's name for the build of ``digest`` (the sources and Python) by this mypyc,
    at this optimisation level, with this C compiler."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        mypyc = version("mypy")
    except PackageNotFoundError:
        mypyc = "none"
    made_by = f"{digest}|{mypyc}|{opt_level()}|{sysconfig.get_config_var('CC')}"
    return hashlib.sha256(made_by.encode()).hexdigest()[:20]


def _copy(source: Path, target: Path) -> None:
    """``source``'s build into ``target`` (made whole under a temporary name, then renamed:
    a reader never sees half of it)."""
    part = target.with_name(f"{target.name}.new-{os.getpid()}")
    shutil.rmtree(part, ignore_errors=True)
    try:
        shutil.copytree(source, part, ignore=shutil.ignore_patterns(IN_USE_NAME))
        shutil.rmtree(target, ignore_errors=True)
        part.rename(target)
        os.utime(target)  # copytree kept the source's time: this copy is the newest
    finally:
        shutil.rmtree(part, ignore_errors=True)


def restore(digest: str) -> Path | None:
    """Copy the build of ``digest`` from the build cache into this checkout, if the cache
    has it; the folder it now lives in."""
    cache = cache_folder()
    if cache is None:
        return None
    found = cache / cache_key(digest)
    if not is_complete(found, digest):
        return None
    final = build_folder(digest)
    try:
        _copy(found, final)
        os.utime(found)  # recently used: the last to be pruned
    except OSError:
        return None
    remove_unused(keep=final)
    return final


def keep_in_cache(final: Path, digest: str) -> None:
    """Keep the build in ``final`` (of ``digest``) in the build cache, and prune the cache to
    its :data:`CACHED_BUILDS` most recently used. A cache that cannot be written is skipped."""
    cache = cache_folder()
    if cache is None:
        return
    with contextlib.suppress(OSError):
        cache.mkdir(parents=True, exist_ok=True)
        target = cache / cache_key(digest)
        if not is_complete(target, digest):
            _copy(final, target)
        builds = sorted((p for p in cache.iterdir() if p.is_dir() and ".new-" not in p.name),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in builds[CACHED_BUILDS:]:
            shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def building() -> Iterator[None]:
    """Held while a build is made: one build at a time (two ``make run``s, or ``make run``
    beside ``make test``, wait for each other rather than compile the same files at once)."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / "BUILDING", "ab") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build(jobs: int = 2, quiet: bool = True) -> None:
    """Compile :data:`MODULES` with mypyc into :data:`LIB` (replacing an older build only
    once the new one is complete). Needs mypy (the ``dev`` or ``fast`` extra) and a C
    compiler; raises if either is missing or the build fails."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    root = PACKAGE.parent
    work = BUILD / "work"
    digest = source_digest()
    new_lib = build_folder(digest).with_name(build_folder(digest).name + ".new")
    shutil.rmtree(new_lib, ignore_errors=True)
    cwd = os.getcwd()
    out = io.StringIO()
    try:
        os.chdir(root)  # mypy names modules by their path from here
        with contextlib.redirect_stdout(out) if quiet else contextlib.nullcontext():
            extensions = mypycify(
                # its own cache: `make test` runs mypy beside the build, and two mypy runs
                # sharing .mypy_cache can crash one ("INTERNAL ERROR"). The modules it
                # follows from the compiled ones are read for their types, their errors
                # not reported: `make run`'s .venv lacks the learning extras, and a module
                # the registry names for type checking only (parlour.rl, importing
                # Gymnasium) failed every build there ("Cannot find implementation");
                # `make lint` checks them all
                ["--no-warn-unused-configs", "--follow-imports=silent",
                 "--config-file", str(root / "pyproject.toml"),
                 "--cache-dir", str(work / "mypy_cache"),
                 *(str(source_path(m).relative_to(root)) for m in MODULES)],
                opt_level=opt_level(), group_name="parlour",
                # a C file per module, compiled two at a time (one file took gcc ~2 minutes
                # on one core); the same instructions per deal, round and search iteration
                # as one file, within 0.01% (bench/instructions.py)
                multi_file=True, target_dir=str(work / "c"))
            dist = Distribution({"name": "parlour-compiled", "ext_modules": extensions})
            dist.verbose = 0 if quiet else 1
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(new_lib)
            command.build_temp = str(work / "temp")
            command.parallel = jobs
            dist.run_command("build_ext")
    except BaseException:
        sys.stderr.write(out.getvalue())
        raise
    finally:
        os.chdir(cwd)
    (new_lib / STAMP_NAME).write_text(digest)
    final = build_folder(digest)
    shutil.rmtree(final, ignore_errors=True)
    new_lib.rename(final)
    remove_unused(keep=final)
    keep_in_cache(final, digest)


def expected_time() -> str:
    """How long a build usually takes here, for the line said before one."""
    try:
        return f"the last build here took {float(LAST_SECONDS.read_text()):.0f} s"
    except (OSError, ValueError):
        return USUAL


def start_in_background() -> None:
    """Make the build in a process of its own (its output in :data:`LOG`) and return at
    once: ``make run`` serves on the pure build meanwhile."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(LOG, "wb") as log:
        subprocess.Popen([sys.executable, "-m", "parlour.build"], stdout=log,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True, cwd=PACKAGE.parent, preexec_fn=_yield_cpu,
                         env={k: v for k, v in os.environ.items() if k != "PARLOUR_BUILD"})


def _yield_cpu() -> None:
    """In the background build's process, before it runs: a lower priority (nice 10), so
    the server starting beside it, and then its players, come first for the CPU (on 2 cores
    the build's mypy and gcc slowed a fresh clone's first page by seconds)."""
    with contextlib.suppress(OSError):
        os.nice(10)


def main(argv: list[str] | None = None) -> int:
    """``python -m parlour.build [--check] [--strict] [--background] [--force]``: build
    unless the build for today's sources is made already.

    ``--background`` starts the build in a process of its own and returns at once (saying
    so, unless the build is current). A build that cannot be made (no mypy, no compiler, an
    error) is reported in one line and Parlour runs pure; ``--strict`` makes that an error
    (exit status 1)."""
    args = sys.argv[1:] if argv is None else argv
    current = current_build() is not None
    if "--check" in args:
        print("compiled build is current" if current else "compiled build is missing or stale")
        return 0 if current else 1
    if current and "--force" not in args:
        return 0
    if "--background" in args and os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return 0  # this process, and whatever it starts next, runs the sources
    if "--force" not in args:
        with building():
            if current_build() is not None:
                return 0  # another process made it meanwhile
            restored = restore(source_digest())
        if restored is not None:
            print(f"parlour: the compiled build of these sources was copied from the build "
                  f"cache ({cache_folder()})", flush=True)
            return 0
    if "--background" in args:
        print(f"parlour: the compiled build (mypyc: the bots think 2-3x faster) is being made "
              f"in the background ({expected_time()}; its log: {LOG.relative_to(PACKAGE.parent)}"
              "). Until then Parlour runs the pure build: the same games, slower bots; "
              "the next start after it is made runs it.", flush=True)
        start_in_background()
        return 0
    print(f"parlour: compiling the hot modules with mypyc ({expected_time()}; "
          "PARLOUR_PURE=1 runs without it)...", flush=True)
    start = time.perf_counter()
    try:
        with building():
            if is_complete(build_folder(source_digest()), source_digest()) \
                    and "--force" not in args:
                print("parlour: another process made the compiled build meanwhile")
                return 0
            build(quiet="--verbose" not in args)
    except (Exception, SystemExit) as err:  # setuptools reports a failed compile as SystemExit
        print(f"parlour: the compiled build failed ({type(err).__name__}: {err}); "
              "Parlour runs as pure Python", file=sys.stderr)
        return 1 if "--strict" in args else 0
    seconds = time.perf_counter() - start
    with contextlib.suppress(OSError):
        LAST_SECONDS.write_text(f"{seconds:.1f}")
    print(f"parlour: compiled {len(MODULES)} modules with mypyc in {seconds:.0f} s "
          f"({build_folder(source_digest())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
