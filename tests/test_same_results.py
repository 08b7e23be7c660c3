"""Every seeded game, bot game and environment episode plays exactly as before the speed
work (issue 20): the digests below were taken on main before any hot path was changed.
They hold for the pure build and the compiled one alike. A change of rules or of a bot's
play changes its game's digests on purpose: take them again (``python tests/same_results.py``)
and say why in the commit and here:
- Hit the Deck's ``random`` and ``bots`` (issue 28): its option ``flips_in_a_row`` came; the
  records they hash name every option, so the new one changed them; the moves are the same
  (with the option left out of the Options tag the old digests come back).
- Spades' ``bots`` (issue 29): the search bot's bid values read the partner's bid before the
  playout, not after it.
- Hit the Deck's ``bots`` (issue 30): after a Flip swap the search bot's determinizations
  keep the draw pile's public order (the old discards reversed) instead of shuffling it.
- Spite & Malice's ``bots`` (issue 35): its levels moved up one, so the search bot at the
  default level (normal) compares as many plans and discards as hard did (10 and 6, not 6
  and 4); its turn planner, now compiled, plays exactly as before (the old digest comes back
  with the old widths)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from game_checks import piece
from same_results import KINDS

from parlour.games import game_ids
from parlour.native import BUILD_VARIABLE, PURE_VARIABLE, compiled, current_build, status
from parlour.registry import folder_name


def expected(game_id: str) -> dict[str, str]:
    """The digests recorded in the game's folder (its checks.py's SAME_RESULTS)."""
    recorded = piece(game_id, "SAME_RESULTS")
    return {kind: recorded[kind] for kind in KINDS}


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_digests(game_id):
    assert set(expected(game_id)) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("game_id", game_ids())
def test_seeded_play_is_unchanged(game_id, kind):
    assert KINDS[kind](game_id) == expected(game_id)[kind], (
        f"{game_id}'s seeded {kind} play is not what its folder recorded: if the change was "
        f"meant (or the game is new), run .venv/bin/python tests/same_results.py and copy "
        f"its digests into SAME_RESULTS in parlour/games/{folder_name(game_id)}/checks.py")


def test_the_other_build_plays_the_same(tmp_path):
    """The pure build and the compiled one (parlour/native.py) give the same digests: the
    one this test runs on is checked above, the other runs here in a subprocess."""
    if compiled():
        env = {**os.environ, PURE_VARIABLE: "1"}
    elif current_build() is not None and not os.environ.get(PURE_VARIABLE):
        pytest.fail("a current compiled build exists but was not loaded")
    elif current_build() is not None:
        env = {k: v for k, v in os.environ.items() if k not in (PURE_VARIABLE, BUILD_VARIABLE)}
    else:
        pytest.skip(f"no compiled build to compare with ({status()})")
    root = Path(__file__).resolve().parent.parent
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    script = ("import json, sys; sys.path.insert(0, 'tests'); import parlour.native as b; "
              "from same_results import digests; print(json.dumps([b.status(), digests()]))")
    proc = subprocess.run([sys.executable, "-c", script], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600, check=True)
    other_status, other = json.loads(proc.stdout)
    assert other_status != status()
    assert other == {g: expected(g) for g in sorted(game_ids())}
