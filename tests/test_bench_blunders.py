"""bench/blunders.py's yardstick: the player shown every card plays from the true state,
is no bot kind (nothing at a table can seat it), and the share of the gap is worked out
as documented."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest
from bench_kit import load_bench

from parlour.bots import bot_kinds, make_bot
from parlour.engine import OptionError
from parlour.games import get_game

PATH = Path(__file__).resolve().parent.parent / "bench" / "blunders.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("blunders")


def test_the_player_shown_everything_is_no_bot_kind(bench):
    for game_id in ("spades", "hit-the-deck"):
        assert bench.SHOWN not in bot_kinds(game_id)
        with pytest.raises((OptionError, ValueError, KeyError)):
            make_bot(get_game(game_id), bench.SHOWN, 0, 0)


def test_it_plays_from_the_true_state_and_sees_what_no_seat_may(bench):
    """Two states that differ only in cards seat 0 cannot see: the yardstick is given the
    states themselves, and its samples are the true state, hidden cards and all."""
    game = get_game("spades")
    state = game.new(4)
    twin = state.determinize(0, random.Random(1))
    player = bench.ShownEverything("spades", 0, seed=3)
    player._state = state
    assert player.sample(random.Random(0)).view(1) == state.view(1)  # seat 1's hand too
    assert twin.view(1) != state.view(1)
    player._state = None
    action = player.act_on(state)
    assert action in state.legal_actions(0) and player._state is None


def test_the_gap_closed_is_the_share_of_the_rule_to_top_gain(bench):
    chances = {"rule": [0.4, 0.5, 0.6, 0.5], "ismcts:easy": [0.45, 0.55, 0.65, 0.55],
               bench.SHOWN: [0.5, 0.6, 0.7, 0.6]}
    gap = bench.gap_closed(chances, seed=0, resamples=200)
    assert gap["ismcts:easy"]["closed"] == pytest.approx(0.5)
    assert gap["ismcts:easy"]["closed_interval"] == pytest.approx((0.5, 0.5))
    assert gap[bench.SHOWN]["closed"] == pytest.approx(1.0)
    assert gap["rule"]["gain"][0] == 0.0
    flat = bench.gap_closed({"rule": [0.5, 0.5], bench.SHOWN: [0.5, 0.5]}, seed=0)
    assert flat["rule"]["closed"] is None and flat["rule"]["closed_interval"] is None
