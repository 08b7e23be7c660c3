"""Which build of the hot modules runs: the compiled one (mypyc) or the pure Python one.

Parlour is pure Python, and stays so: the same source files (:data:`MODULES`) can also be
compiled by mypyc into C extensions that run the same code several times faster
(``python -m parlour.build``, which ``make run`` and ``make test`` call). The build goes
to ``build/compiled/`` beside the package, never beside the sources, because Python loads a
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
import sys
from pathlib import Path

#: The modules compiled: the hot paths of play, search and the learning environments (whose
#: observations ``parlour.features`` computes, without NumPy).
MODULES = (
    "parlour.cards",
    "parlour.engine",
    "parlour.sampling",
    "parlour.games.spades",
    "parlour.games.hit_the_deck",
    "parlour.games.spite_and_malice",
    "parlour.games.clockwork_spades",
    "parlour.games.foursquare",
    "parlour.bots.search",
    "parlour.features",
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
    """Put the compiled build first on a subpackage's path too (``parlour.games``,
    ``parlour.bots``)."""
    if _status == "compiled":
        subpackage_path.insert(0, str(LIB / "parlour" / name))


def status() -> str:
    """``compiled``, or ``pure: <why>``."""
    return _status


def compiled() -> bool:
    """Whether the compiled modules are the ones loaded."""
    return _status == "compiled"


