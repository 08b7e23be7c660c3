"""Which build runs (parlour/native.py): the compiled one only when it is current and not
refused; otherwise the same modules as pure Python, saying why."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parlour import build, native

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    environ.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], env=environ, cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=120).stdout.strip()


def test_parlour_pure_runs_the_sources():
    out = run_python("import parlour.native as n, parlour.engine as e, parlour.games.spades as s;"
                     "print(n.status(), e.__file__, s.__file__)", PARLOUR_PURE="1")
    status, engine, spades = out.rsplit(" ", 2)
    assert status == "pure: PARLOUR_PURE=1"
    assert engine == str(ROOT / "parlour" / "engine.py")
    assert spades == str(ROOT / "parlour" / "games" / "spades.py")


def test_a_current_build_is_the_one_loaded():
    if not (native.STAMP.exists() and native.STAMP.read_text() == native.source_digest()):
        pytest.skip("no current compiled build here")
    out = run_python("import parlour.native as n, parlour.games.spades as s, "
                     "parlour.bots.search as b; print(n.status(), s.__file__, b.__file__)")
    status, spades, search = out.split(" ")
    assert status == "compiled" and spades.endswith(".so") and search.endswith(".so")


def test_a_stale_or_missing_build_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "_status", native.status())
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    path: list[str] = []
    monkeypatch.setattr(native, "STAMP", tmp_path / "SOURCES")
    assert not native.activate(path) and path == []
    assert native.status().startswith("pure: no compiled build")
    (tmp_path / "SOURCES").write_text("a digest of other sources")
    assert not native.activate(path) and path == []
    assert native.status() == ("pure: the compiled build is older than the sources "
                               "(python -m parlour.build)")


def test_the_digest_follows_every_compiled_source(monkeypatch):
    before = native.source_digest()
    real = Path.read_bytes

    def edited(self: Path) -> bytes:
        data = real(self)
        return data + b"# edited" if self.name == "foursquare.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert native.source_digest() != before


def test_a_failed_build_says_so_once_and_leaves_parlour_pure(monkeypatch, capsys):
    def fails(**_: object) -> None:
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(build, "build", fails)
    monkeypatch.setattr(build, "STAMP", Path("/nonexistent/SOURCES"))
    assert build.main([]) == 0
    assert build.main(["--strict"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["parlour: the compiled build failed (RuntimeError: no C compiler); "
                   "Parlour runs as pure Python"] * 2
    assert build.main(["--check"]) == 1


@pytest.mark.parametrize("game_id", ["spades", "hit-the-deck", "spite-and-malice",
                                     "clockwork-spades", "foursquare"])
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
