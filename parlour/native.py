"""Which build of the hot modules runs: the compiled one (mypyc) or the pure Python one.

Parlour is pure Python, and stays so: the same source files (:data:`MODULES`) can also be
compiled by mypyc into C extensions that run the same code several times faster
(``python -m parlour.build``, which ``make run`` and ``make test`` call). Each build goes to
its own folder ``build/compiled/<digest>/``, named by the digest of the sources and the
Python it was made from, beside the package and never beside the sources (Python loads a
built ``.so`` before the ``.py`` beside it).

At import, ``parlour/__init__.py`` calls :func:`activate`, which decides once for the
process's whole life:

- ``PARLOUR_PURE=1`` in the environment: the pure modules;
- a process started by a Parlour process (a search worker, a review worker, any
  subprocess) runs **the build its parent runs**: the parent leaves its choice in
  ``PARLOUR_BUILD`` (the build's folder, or ``pure``), so a worker never loads a newer build,
  nor a build its parent does not use, even if the sources or the builds changed since;
- otherwise the build made from exactly today's sources by this Python, if there is one,
  else the pure modules.

A compiled build is loaded without touching ``sys.path``: its shared library
(``parlour__mypyc``) is loaded from its file, and the build's folders go first on the
package's and subpackages' ``__path__`` only. (A build folder on ``sys.path`` made a spawned
worker, started from the ``parlour`` console script, import that folder as a namespace
package ``parlour``, without the package's own modules.) While a process uses a build it
holds a shared lock on it, and a new build removes only the builds nobody holds.
:func:`status` says which build runs, and why. Both builds play every seeded game, bot and
record identically (``tests/test_same_results.py``).
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import IO

PACKAGE = Path(__file__).resolve().parent
#: The shared modules compiled: the hot paths of play, search and the learning environments
#: (whose observations ``parlour.features`` computes, without NumPy, and whose steps
#: ``parlour.rl.match`` takes: its NumPy calls stay Python's, the rest of a step compiled).
SHARED_MODULES = (
    "parlour.cards",
    "parlour.engine",
    "parlour.sampling",
    "parlour.bots.search",
    "parlour.features",
    "parlour.rl.match",
)
#: A game's modules the compiled build compiles where its folder names none: its rules (the
#: hot path of play). A folder names its own in its ``__init__.py``, as a literal
#: ``COMPILED = ("rules", "features")``, read here without importing it (this module runs
#: before any game is imported, so it cannot ask the registry; a test checks every
#: registered game's rules are compiled).
GAME_MODULES = ("rules",)


def compiled_of(folder: Path) -> tuple[str, ...]:
    """The modules a game's folder has compiled: its ``__init__.py``'s ``COMPILED``."""
    import ast

    for node in ast.parse((folder / "__init__.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            names = ast.literal_eval(node.value)
            assert isinstance(names, tuple) and all(isinstance(n, str) for n in names)
            return names
    return GAME_MODULES


def game_modules() -> tuple[str, ...]:
    """The compiled modules of every game folder (``parlour.games.<game>.rules``...)."""
    return tuple(f"parlour.games.{folder.name}.{name}"
                 for folder in sorted((PACKAGE / "games").iterdir())
                 if (folder / "__init__.py").is_file() for name in compiled_of(folder))


#: Every module compiled.
MODULES = SHARED_MODULES + game_modules()
BUILD = PACKAGE.parent / "build" / "compiled"  # one folder per build, named by its digest
STAMP_NAME = "SOURCES"  # in a build's folder: the digest it was made from, written last
IN_USE_NAME = "IN-USE"  # in a build's folder: locked (shared) by every process using it
PURE_VARIABLE = "PARLOUR_PURE"
#: Set by a process for the processes it starts: the folder of the build it runs, or "pure".
BUILD_VARIABLE = "PARLOUR_BUILD"
SHARED_LIBRARY = "parlour__mypyc"  # mypyc's group library, which every compiled module loads

_status = "pure: not activated"
_folder: Path | None = None  # the build in use
_held: IO[bytes] | None = None  # the shared lock on it, held for the process's life


def source_path(module: str) -> Path:
    return PACKAGE.parent / (module.replace(".", "/") + ".py")


def source_digest() -> str:
    """What a build must have been made from: the compiled modules' sources and this
    Python (a build for another interpreter or of older sources is not used)."""
    digest = hashlib.sha256(f"{sys.version}|{sys.platform}".encode())
    for module in MODULES:
        digest.update(module.encode() + b"\0" + source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def build_folder(digest: str) -> Path:
    """Where the build made from ``digest`` lives (it may not exist)."""
    return BUILD / digest[:20]


def is_complete(folder: Path, digest: str | None = None) -> bool:
    """Whether ``folder`` holds a finished build (of ``digest``, if given)."""
    try:
        stamp = (folder / STAMP_NAME).read_text()
    except OSError:
        return False
    return digest is None or stamp == digest


def current_build() -> Path | None:
    """The build made from today's sources by this Python, if there is one."""
    digest = source_digest()
    folder = build_folder(digest)
    return folder if is_complete(folder, digest) else None


def hold(folder: Path) -> IO[bytes] | None:
    """A shared lock on ``folder``'s build, kept while the returned file is open: a new build
    removes no build someone holds (:func:`remove_unused`)."""
    try:
        handle = open(folder / IN_USE_NAME, "ab")  # noqa: SIM115 (held for the process's life)
        fcntl.flock(handle, fcntl.LOCK_SH)
    except OSError:
        return None
    return handle


def remove_unused(keep: Path) -> list[Path]:
    """Remove every build but ``keep`` that no process holds; the removed folders."""
    import shutil

    removed = []
    for folder in sorted(BUILD.iterdir()) if BUILD.is_dir() else []:
        if folder == keep or not folder.is_dir() or folder.name == "work":
            continue
        if not (folder / STAMP_NAME).exists() and not folder.name.endswith(".new") \
                and folder.name != "lib":
            continue  # not a build (something else of the builder's)
        try:
            with open(folder / IN_USE_NAME, "ab") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(folder)
        except OSError:
            continue  # in use (or not ours to remove): left for a later build
        removed.append(folder)
    return removed


def _load(folder: Path) -> bool:
    """Load ``folder``'s shared library under its module name, without ``sys.path``."""
    if SHARED_LIBRARY in sys.modules:
        return True
    libraries = sorted(folder.glob(SHARED_LIBRARY + ".*"))
    spec = importlib.util.spec_from_file_location(SHARED_LIBRARY, libraries[0]) \
        if libraries else None
    if spec is None or spec.loader is None:
        return False
    module = importlib.util.module_from_spec(spec)
    sys.modules[SHARED_LIBRARY] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[SHARED_LIBRARY]
        raise
    return True


def _choose() -> tuple[Path | None, str]:
    """The build this process runs (None: pure) and why, from the environment and disk."""
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return None, f"pure: {PURE_VARIABLE}={os.environ[PURE_VARIABLE]}"
    inherited = os.environ.get(BUILD_VARIABLE, "")
    if inherited == "pure":
        return None, "pure: as the process that started this one"
    if inherited:
        folder = Path(inherited)
        if is_complete(folder):
            return folder, "compiled"
        return None, f"pure: the build of the process that started this one is gone ({folder})"
    digest = source_digest()
    folder = build_folder(digest)
    if is_complete(folder, digest):
        return folder, "compiled"
    if BUILD.is_dir() and any(is_complete(f) for f in BUILD.iterdir()):
        return None, "pure: the compiled build is older than the sources (python -m parlour.build)"
    return None, "pure: no compiled build (python -m parlour.build makes one)"


def activate(package_path: list[str]) -> bool:
    """Decide which build this process runs (the module's docstring says how), put a
    compiled one first on ``parlour``'s path, and leave the choice in the environment for
    the processes this one starts. Called once, by ``parlour/__init__.py``."""
    global _status, _folder, _held
    folder, why = _choose()
    if folder is not None:
        held = hold(folder)
        try:
            loaded = held is not None and _load(folder)
        except ImportError as err:
            loaded, why = False, f"pure: the compiled build does not load ({err})"
        if not loaded:
            if held is not None:
                held.close()
            if why == "compiled":
                why = f"pure: the compiled build in {folder} could not be loaded"
            folder = None
        else:
            _held = held
    _status, _folder = why, folder
    if folder is None:
        if not os.environ.get(PURE_VARIABLE):
            os.environ[BUILD_VARIABLE] = "pure"
        return False
    os.environ[BUILD_VARIABLE] = str(folder)
    package_path.insert(0, str(folder / "parlour"))
    return True


def extend(subpackage_path: list[str], name: str) -> None:
    """Put the compiled build first on a subpackage's path too (``parlour.games``,
    ``parlour.bots``)."""
    if _folder is not None:
        subpackage_path.insert(0, str(_folder / "parlour" / name))


def status() -> str:
    """``compiled``, or ``pure: <why>``."""
    return _status


def compiled() -> bool:
    """Whether the compiled modules are the ones loaded."""
    return _folder is not None


def folder() -> Path | None:
    """The folder of the compiled build in use (None: pure)."""
    return _folder
