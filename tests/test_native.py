"""Which build runs (parlour/native.py): the compiled one only when it is current and not
refused; otherwise the same modules as pure Python, saying why."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parlour import build, native
from parlour.games import game_ids

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, cwd: Path = ROOT, **env: str) -> str:
    """``code`` in a new interpreter deciding its build afresh (no inherited choice)."""
    environ = {k: v for k, v in os.environ.items()
               if k not in (native.PURE_VARIABLE, native.BUILD_VARIABLE)}
    environ.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=environ, cwd=cwd, check=True,
                          capture_output=True, text=True, timeout=120).stdout.strip()


def needs_current_build() -> Path:
    folder = native.current_build()
    if folder is None:
        pytest.skip("no current compiled build here")
    return folder


def test_parlour_pure_runs_the_sources():
    out = run_python("import parlour.native as n, parlour.engine as e, "
                     "parlour.games.spades.rules as s;"
                     "print(n.status(), e.__file__, s.__file__)", PARLOUR_PURE="1")
    status, engine, spades = out.rsplit(" ", 2)
    assert status == "pure: PARLOUR_PURE=1"
    assert engine == str(ROOT / "parlour" / "engine.py")
    assert spades == str(ROOT / "parlour" / "games" / "spades" / "rules.py")


def test_a_current_build_is_the_one_loaded():
    folder = needs_current_build()
    out = run_python("import sys, parlour.native as n, parlour.games.spades.rules as s, "
                     "parlour.bots.search as b; print(n.status(), s.__file__, b.__file__, "
                     "any('compiled' in p for p in sys.path))")
    status, spades, search, on_sys_path = out.split(" ")
    assert status == "compiled" and on_sys_path == "False"
    assert spades.startswith(str(folder)) and search.startswith(str(folder))
    assert spades.endswith(".so") and search.endswith(".so")


#: A worker process started the way the server starts its search workers (spawned), from a
#: program that found ``parlour`` as an installed package (the ``parlour`` console script),
#: not from the source folder: it must import the whole package and run its parent's build.
SPAWNED_WORKER = """
import multiprocessing, sys
from concurrent.futures import ProcessPoolExecutor

def report():
    import parlour.native as n
    from parlour.games import game_ids, get_game
    import parlour.games.spades.rules as s
    return n.status(), s.__file__, len(game_ids())

if __name__ == "__main__":
    import parlour.native as n
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        print(n.status(), *pool.submit(report).result(timeout=100), sep="|")
"""


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_spawned_worker_of_an_installed_parlour_runs_its_parents_build(tmp_path, pure):
    if not pure:
        needs_current_build()
    script = tmp_path / "server.py"
    script.write_text(SPAWNED_WORKER)
    environ = {k: v for k, v in os.environ.items()
               if k not in (native.PURE_VARIABLE, native.BUILD_VARIABLE, "PYTHONPATH")}
    if pure:
        environ[native.PURE_VARIABLE] = "1"
    found = subprocess.run([sys.executable, "-c", "import parlour; print(parlour.__file__)"],
                           env=environ, cwd=tmp_path, capture_output=True, text=True,
                           timeout=60)
    if found.returncode:
        pytest.skip("parlour is not installed in this interpreter (only the source folder)")
    out = subprocess.run([sys.executable, str(script)], env=environ, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    parent, worker, spades, games = out.stdout.strip().split("|")
    assert worker == parent == ("pure: PARLOUR_PURE=1" if pure else "compiled")
    assert spades.endswith(".py" if pure else ".so") and int(games) == len(game_ids())


def test_a_child_runs_the_build_its_parent_chose(tmp_path):
    """A worker runs its parent's build for the parent's whole life: a build the parent
    uses is loaded even once it is not current any more (a copy stands for it here), and
    a parent that started pure keeps its children pure although a current build exists."""
    folder = needs_current_build()
    older = tmp_path / "an-older-build"
    shutil.copytree(folder, older, ignore=shutil.ignore_patterns(native.IN_USE_NAME))
    out = run_python("import parlour.native as n, parlour.games.spades.rules as s;"
                     "print(n.status(), s.__file__)", **{native.BUILD_VARIABLE: str(older)})
    status, spades = out.split(" ")
    assert status == "compiled" and spades.startswith(str(older))
    out = run_python("import os, parlour.native as n, parlour.games.spades.rules as s;"
                     "print(n.status(), s.__file__)", **{native.BUILD_VARIABLE: "pure"})
    assert out == f"pure: as the process that started this one {ROOT}/parlour/games/spades/rules.py"


def test_a_stale_or_missing_build_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "_status", native.status())
    monkeypatch.setattr(native, "_folder", native.folder())
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    monkeypatch.delenv(native.BUILD_VARIABLE, raising=False)
    monkeypatch.setattr(native, "BUILD", tmp_path)
    path: list[str] = []
    assert not native.activate(path) and path == []
    assert native.status().startswith("pure: no compiled build")
    (tmp_path / "0123").mkdir()
    (tmp_path / "0123" / native.STAMP_NAME).write_text("a digest of other sources")
    monkeypatch.delenv(native.BUILD_VARIABLE, raising=False)
    assert not native.activate(path) and path == []
    assert native.status() == ("pure: the compiled build is older than the sources "
                               "(python -m parlour.build)")
    assert os.environ[native.BUILD_VARIABLE] == "pure"  # what its children will run


def test_a_new_build_removes_only_the_builds_nobody_uses(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "BUILD", tmp_path)
    for name in ("kept", "held", "unused", "lib"):
        (tmp_path / name).mkdir()
        (tmp_path / name / native.STAMP_NAME).write_text(name)
    (tmp_path / "work").mkdir()
    held = native.hold(tmp_path / "held")
    try:
        removed = native.remove_unused(keep=tmp_path / "kept")
    finally:
        assert held is not None
        held.close()
    assert sorted(p.name for p in removed) == ["lib", "unused"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["held", "kept", "work"]


def test_the_digest_follows_every_compiled_source(monkeypatch):
    before = native.source_digest()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:
        data = real(self)
        return data + b"# edited" if self.as_posix().endswith("foursquare/rules.py") \
            else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert native.source_digest() != before


def test_a_failed_build_says_so_once_and_leaves_parlour_pure(tmp_path, monkeypatch, capsys):
    def fails(**_: object) -> None:
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(build, "build", fails)
    monkeypatch.setattr(build, "current_build", lambda: None)
    monkeypatch.setattr(build, "is_complete", lambda *_: False)
    monkeypatch.setattr(build, "BUILD", tmp_path)
    monkeypatch.setattr(build, "LAST_SECONDS", tmp_path / "last")
    assert build.main([]) == 0
    assert build.main(["--strict"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["parlour: the compiled build failed (RuntimeError: no C compiler); "
                   "Parlour runs as pure Python"] * 2
    assert build.main(["--check"]) == 1


def test_the_background_build_runs_below_the_server(tmp_path, monkeypatch):
    """``make run``'s build in the background starts at nice 10 (the server beside it, and
    then its players, come first for the CPU), in a session of its own, logging to a file."""
    started: list[dict[str, object]] = []

    def popen(args: list[str], **kwargs: object) -> None:
        started.append({"args": args, **kwargs})

    monkeypatch.setattr(build.subprocess, "Popen", popen)
    monkeypatch.setattr(build, "BUILD", tmp_path)
    monkeypatch.setattr(build, "LOG", tmp_path / "build.log")
    build.start_in_background()
    [run] = started
    assert run["args"][1:] == ["-m", "parlour.build"] and run["start_new_session"] is True
    lower = run["preexec_fn"]
    assert callable(lower)
    child = os.fork()
    if child == 0:  # what the build's process does before it runs
        before = os.nice(0)
        lower()
        os._exit(0 if os.nice(0) == min(19, before + 10) else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("game_id", game_ids())
def test_states_and_outcomes_pickle_on_this_build(game_id):
    """Bots' searches go to worker processes pickled; a compiled state pickles by its
    fields (engine.reduce_state), a determinized one included."""
    import pickle
    import random

    from parlour.engine import play_random
    from parlour.games import get_game

    state, rng = get_game(game_id).new(3), random.Random(1)
    for _ in range(30):
        if not state.to_act:
            break
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    sample = state.determinize(state.to_act[0] if state.to_act else None, random.Random(2))
    again = pickle.loads(pickle.dumps(sample))
    assert type(again) is type(sample) and again.history == sample.history
    assert again.to_act == sample.to_act
    for seat in [None, *range(sample.num_seats)]:
        assert again.view(seat) == sample.view(seat)
    done = play_random(get_game(game_id).new(4), random.Random(4))
    assert pickle.loads(pickle.dumps(done)).outcome == done.outcome


def test_a_build_is_kept_in_the_users_cache_and_another_checkout_copies_it(
        tmp_path, monkeypatch, capsys):
    """A fresh clone of the same sources takes the build from the cache (no compiler run);
    the cache keeps only its most recently used builds."""
    checkout, cache = tmp_path / "checkout", tmp_path / "cache"
    monkeypatch.setattr(native, "BUILD", checkout)
    monkeypatch.setattr(build, "BUILD", checkout)
    monkeypatch.setattr(build, "LAST_SECONDS", checkout / "last")
    monkeypatch.setenv(build.CACHE_VARIABLE, str(cache))
    digest = native.source_digest()
    made = native.build_folder(digest)
    made.mkdir(parents=True)
    (made / "parlour__mypyc.so").write_bytes(b"compiled")
    (made / native.STAMP_NAME).write_text(digest)
    held = native.hold(made)  # a lock file of this checkout's: not copied
    build.keep_in_cache(made, digest)
    assert held is not None
    held.close()
    shutil.rmtree(checkout)  # another checkout of the same sources, never built

    def compiles(**_: object) -> None:
        raise AssertionError("compiled although the cache had the build")

    monkeypatch.setattr(build, "build", compiles)
    assert build.main([]) == 0
    assert "copied from the build cache" in capsys.readouterr().out
    assert (made / "parlour__mypyc.so").read_bytes() == b"compiled"
    assert native.is_complete(made, digest) and not (made / native.IN_USE_NAME).exists()
    assert build.main(["--check"]) == 0

    monkeypatch.setenv("MYPYC_OPT_LEVEL", "0")  # another build of the same sources
    assert build.restore(digest) is None
    for n in range(build.CACHED_BUILDS + 2):  # older builds are pruned, the newest kept
        monkeypatch.setenv("MYPYC_OPT_LEVEL", f"level-{n}")
        build.keep_in_cache(made, digest)
    kept = {p.name for p in cache.iterdir()}
    assert len(kept) == build.CACHED_BUILDS and build.cache_key(digest) in kept
    monkeypatch.setenv(build.CACHE_VARIABLE, "off")
    assert build.cache_folder() is None and build.restore(digest) is None
