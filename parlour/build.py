"""The compiled build: the engine, the cards and the games' rules compiled with mypyc.

Parlour is pure Python, and stays so: the same source files (:data:`MODULES`) can also be
compiled by mypyc into C extensions, which run the same code several times faster. The
build goes to ``build/compiled/`` beside the package (``python -m parlour.build``, which
``make run`` and ``make test`` call), never beside the sources, because Python loads a
built ``.so`` before the ``.py`` beside it.

At import, ``parlour/__init__.py`` calls :func:`activate`: when the environment does not
say ``PARLOUR_PURE=1`` and ``build/compiled/`` holds a build made from exactly today's
sources by this Python, that directory goes first on the package's path and the compiled
modules load; otherwise the pure ones do. :func:`status` says which, and why. Both builds
play every seeded game, bot and record identically (``tests/test_same_results.py``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

#: The modules compiled: the hot paths of play, search and the learning environments.
MODULES = (
    "parlour.cards",
    "parlour.engine",
    "parlour.sampling",
    "parlour.games.spades",
    "parlour.games.hit_the_deck",
    "parlour.games.spite_and_malice",
    "parlour.games.clockwork_spades",
    "parlour.games.foursquare",
)
PACKAGE = Path(__file__).resolve().parent
BUILD = PACKAGE.parent / "build" / "compiled"
LIB = BUILD / "lib"  # what goes on the path: parlour/.../*.so and the shared parlour__mypyc
STAMP = LIB / "SOURCES"  # the digest of the sources the build was made from
PURE_VARIABLE = "PARLOUR_PURE"

_status = "pure: not activated"


def source_path(module: str) -> Path:
    return PACKAGE.parent / (module.replace(".", "/") + ".py")


def source_digest() -> str:
    """What a build must have been made from: the compiled modules' sources and this
    Python (a build for another interpreter or of older sources is not used)."""
    digest = hashlib.sha256(f"{sys.version}|{sys.platform}".encode())
    for module in MODULES:
        digest.update(module.encode() + b"\0" + source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def activate(package_path: list[str]) -> bool:
    """Put the compiled build first on ``parlour``'s path if it may be used; say why not
    otherwise (:func:`status`). Called once, by ``parlour/__init__.py``."""
    global _status
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        _status = f"pure: {PURE_VARIABLE}={os.environ[PURE_VARIABLE]}"
        return False
    try:
        stamp = STAMP.read_text()
    except OSError:
        _status = "pure: no compiled build (python -m parlour.build makes one)"
        return False
    if stamp != source_digest():
        _status = "pure: the compiled build is older than the sources (python -m parlour.build)"
        return False
    sys.path.insert(0, str(LIB))
    package_path.insert(0, str(LIB / "parlour"))
    _status = "compiled"
    return True


def extend(subpackage_path: list[str], name: str) -> None:
    """Put the compiled build first on a subpackage's path too (``parlour.games``)."""
    if _status == "compiled":
        subpackage_path.insert(0, str(LIB / "parlour" / name))


def status() -> str:
    """``compiled``, or ``pure: <why>``."""
    return _status


def compiled() -> bool:
    """Whether the compiled modules are the ones loaded."""
    return _status == "compiled"


def build(jobs: int = 2, quiet: bool = True) -> None:
    """Compile :data:`MODULES` with mypyc into :data:`LIB` (replacing an older build only
    once the new one is complete). Needs mypy (the ``dev`` or ``fast`` extra) and a C
    compiler; raises if either is missing or the build fails."""
    import contextlib
    import io

    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    root = PACKAGE.parent
    work = BUILD / "work"
    new_lib = BUILD / "lib.new"
    shutil.rmtree(new_lib, ignore_errors=True)
    digest = source_digest()
    cwd = os.getcwd()
    out = io.StringIO()
    try:
        os.chdir(root)  # mypy names modules by their path from here
        with contextlib.redirect_stdout(out) if quiet else contextlib.nullcontext():
            extensions = mypycify(
                ["--no-warn-unused-configs", "--config-file", str(root / "pyproject.toml"),
                 *(str(source_path(m).relative_to(root)) for m in MODULES)],
                opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"), group_name="parlour",
                target_dir=str(work / "c"))
            dist = Distribution({"name": "parlour-compiled", "ext_modules": extensions,
                                 "script_args": ["-q"] if quiet else []})
            dist.parse_command_line()
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
    (new_lib / "SOURCES").write_text(digest)
    shutil.rmtree(LIB, ignore_errors=True)
    new_lib.rename(LIB)


def main(argv: list[str] | None = None) -> int:
    """``python -m parlour.build [--check] [--strict]``: build unless the build is current.

    A build that cannot be made (no mypy, no compiler, an error) is reported in one line
    and Parlour runs pure; ``--strict`` makes that an error (exit status 1)."""
    args = sys.argv[1:] if argv is None else argv
    current = STAMP.exists() and STAMP.read_text() == source_digest()
    if "--check" in args:
        print("compiled build is current" if current else "compiled build is missing or stale")
        return 0 if current else 1
    if current and "--force" not in args:
        return 0
    start = time.perf_counter()
    try:
        build(quiet="--verbose" not in args)
    except (Exception, SystemExit) as err:  # setuptools reports a failed compile as SystemExit
        print(f"parlour: the compiled build failed ({type(err).__name__}: {err}); "
              "Parlour runs as pure Python", file=sys.stderr)
        return 1 if "--strict" in args else 0
    print(f"parlour: compiled {len(MODULES)} modules with mypyc in "
          f"{time.perf_counter() - start:.0f} s ({LIB})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
