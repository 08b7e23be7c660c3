"""The server's modules import each other without a circle (issue 33): every import counts,
whether at the top of a module, under ``TYPE_CHECKING`` or inside a function, since a
circle hidden in any of them is still a knot in the code's map. And each module imports on
its own, first, in a fresh interpreter (no import order hides a circle at run time).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import parlour.server

SERVER = Path(parlour.server.__file__).parent
PACKAGE = "parlour.server"


def server_modules() -> dict[str, Path]:
    """Every module of the server package, by its dotted name."""
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        parts = path.relative_to(SERVER).with_suffix("").parts
        if "migrations" in parts:  # alembic's scripts, loaded by alembic alone
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((PACKAGE, *parts))] = path
    return found


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The server modules ``name`` (at ``path``) imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in modules:  # a name inside a module: the module
                target = target.rpartition(".")[0]
            if target and target != name and target != PACKAGE:
                out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = server_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports in ``graph`` (its modules in order, the first again at the
    end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph[node]):
            cycle = visit(nxt)
            if cycle is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start)
        if cycle is not None:
            return cycle
    return None


def test_the_checker_finds_a_circle() -> None:
    """The check can fail: a graph with a circle is caught, and the circle named."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_the_hub_and_its_parts() -> None:
    """The graph reads the imports it should (else an empty graph would pass)."""
    graph = import_graph()
    assert "parlour.server.play.room" in graph["parlour.server.play.tables"]
    assert "parlour.server.play.table" in graph["parlour.server.play.turns"]  # under TYPE_CHECKING
    assert "parlour.server.routers.tables" in graph


def test_no_import_circle_in_the_server() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "the server's modules import in a circle: " + " -> ".join(cycle)


#: The modules that used to import in circles (the hub with its clocks, players, reviews,
#: runner and turns; the store with its schema), and the hub's parts.
ONCE_CIRCLED = ["parlour.server.play.tables", "parlour.server.play.clock",
                "parlour.server.people.players", "parlour.server.play.reviews",
                "parlour.server.play.runner", "parlour.server.play.turns",
                "parlour.server.storage.store", "parlour.server.storage.schema",
                "parlour.server.play.room", "parlour.server.play.table",
                "parlour.server.play.match", "parlour.server.play.seating",
                "parlour.server.play.life", "parlour.server.play.ownership",
                "parlour.server.play.desk", "parlour.server.settings"]


#: Imports each module named in argv first, one after another in one interpreter: before
#: each, every module of Parlour is forgotten (the libraries stay loaded, so each import
#: costs only Parlour's own modules); prints "name: error" for each that fails.
ALONE = """
import sys
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "parlour" or m.startswith("parlour.")]:
        del sys.modules[loaded]
    try:
        __import__(name)
    except Exception as err:
        print(f"{name}: {type(err).__name__}: {err}")
"""


def test_each_module_imports_alone() -> None:
    """Each of these modules, imported first (no other module of Parlour loaded), loads:
    an import circle at run time shows as a partly initialised module. One interpreter
    for all of them (a fresh one each cost 16 starts of FastAPI and SQLAlchemy)."""
    run = subprocess.run([sys.executable, "-c", ALONE, *ONCE_CIRCLED],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "", run.stdout


def test_the_import_check_can_fail() -> None:
    """A module that cannot be imported alone is reported (so the check above can fail)."""
    run = subprocess.run([sys.executable, "-c", ALONE, "parlour.server.no_such_module"],
                         capture_output=True, text=True, timeout=300)
    assert run.stdout.startswith("parlour.server.no_such_module: ModuleNotFoundError")
