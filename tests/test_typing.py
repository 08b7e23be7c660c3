"""mypy's settings (pyproject.toml) hold what docs/architecture.md says: every module of the
engine, cards, sampling, the registry, the games and the bots gets every flag of mypy's own
``--strict``, and the rest of parlour/ has its bodies checked. Read through mypy's own
config parser, so a flag or module dropped from the override, or a flag that a newer mypy
adds to ``--strict``, fails here rather than silently weakening ``make lint``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from mypy.config_parser import parse_config_file
from mypy.main import define_options
from mypy.options import PER_MODULE_OPTIONS, Options

ROOT = Path(__file__).resolve().parent.parent
STRICT_ROOTS = ("parlour.engine", "parlour.message", "parlour.i18n", "parlour.cards",
                "parlour.sampling", "parlour.registry",
                "parlour.games", "parlour.bots")


def _modules() -> list[str]:
    """Every module of parlour/, found by file (nothing is imported)."""
    names = []
    for path in sorted((ROOT / "parlour").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _is_strict_module(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in STRICT_ROOTS)


@pytest.fixture(scope="module")
def options() -> Options:
    opts = Options()
    err = io.StringIO()
    parse_config_file(opts, lambda: pytest.fail("`strict` is global in mypy: list the flags"),
                      str(ROOT / "pyproject.toml"), stdout=io.StringIO(), stderr=err)
    assert not err.getvalue(), err.getvalue()  # an unknown or misspelt key
    return opts


def _strict_flags() -> list[tuple[str, bool]]:
    """The per-module settings ``--strict`` makes (the global ones are checked apart)."""
    _, _, assignments = define_options()
    return [(dest, value) for dest, value in assignments if dest in PER_MODULE_OPTIONS]


def test_the_module_lists_cover_real_modules():
    names = _modules()
    for root in STRICT_ROOTS:
        assert root in names, f"{root} is in the strict list but is no module"
    assert sum(map(_is_strict_module, names)) >= 15  # the games and bots are found


def test_engine_games_and_bots_get_every_strict_flag(options: Options):
    flags = _strict_flags()
    assert ("disallow_untyped_defs", True) in flags  # mypy's list was read
    for name in filter(_is_strict_module, _modules()):
        mod = options.clone_for_module(name)
        wrong = [dest for dest, value in flags if getattr(mod, dest) != value]
        assert not wrong, f"{name} is not checked with {', '.join(wrong)}"


def test_the_rest_of_parlour_has_its_bodies_checked(options: Options):
    rest = [n for n in _modules() if not _is_strict_module(n)]
    assert "parlour.server.app" in rest and "parlour.cli" in rest
    for name in rest:
        mod = options.clone_for_module(name)
        assert mod.check_untyped_defs and mod.strict_equality and mod.warn_unused_ignores, name
    assert options.warn_redundant_casts and options.files == ["parlour"]
