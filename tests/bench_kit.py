"""The measurements' scripts (``bench/``, ``examples/``) loaded as modules, for their tests:
they are scripts, not a package, so each is loaded from its file."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(path: Path, name: str | None = None) -> ModuleType:
    """The script at ``path`` as a module named ``name`` (its file's stem by default),
    registered in ``sys.modules`` so that what it defines pickles into worker processes."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def load_bench(script: str) -> ModuleType:
    """``bench/<script>.py`` as the module ``bench_<script>``."""
    return load_script(ROOT / "bench" / f"{script}.py", f"bench_{script}")
