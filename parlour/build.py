"""``python -m parlour.build``: compile the hot modules with mypyc (see :mod:`parlour.native`).

The build is made beside the package in ``build/compiled/`` and used only while it matches
the sources. Without mypy (the ``fast`` extra) or a C compiler, or if the build fails, it
says so in one line and Parlour runs as pure Python.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import time

from parlour.native import BUILD, LIB, MODULES, PACKAGE, STAMP, source_digest, source_path


def build(jobs: int = 2, quiet: bool = True) -> None:
    """Compile :data:`MODULES` with mypyc into :data:`LIB` (replacing an older build only
    once the new one is complete). Needs mypy (the ``dev`` or ``fast`` extra) and a C
    compiler; raises if either is missing or the build fails."""
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
                # its own cache: `make test` runs mypy beside the build, and two mypy runs
                # sharing .mypy_cache can crash one ("INTERNAL ERROR")
                ["--no-warn-unused-configs", "--config-file", str(root / "pyproject.toml"),
                 "--cache-dir", str(work / "mypy_cache"),
                 *(str(source_path(m).relative_to(root)) for m in MODULES)],
                opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"), group_name="parlour",
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
