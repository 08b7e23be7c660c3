"""Spades' pimc bot and its open-hands bound (parlour/games/spades/pimc.py): legal play in
the arena, the same moves for the same seed, decisions from the seat's view alone, and the
bound only where the arena shows it the deal."""

import random

import pytest
from hypothesis.stateful import invariant
from stateful import RandomPlay, run_machine

from parlour.arena import tournament
from parlour.bots import make_bot, observe
from parlour.bots.base import observe_open
from parlour.engine import OptionError, State
from parlour.games import get_game
from parlour.games.spades.pimc import OpenHandsBot, PimcBot
from parlour.games.spades.rules import NIL

GAME = get_game("spades")
SMALL = {"samples": 3, "nodes": 150}  # the tests' budget: cheap, the same code


class NorthsPimc(RandomPlay):
    """Two states that differ only in cards North cannot see give North's pimc bot the
    same decision for the same seed, bids and cards alike."""

    game_id = "spades"
    checked: list[int]

    def new_game(self, seed: int) -> State:
        return GAME.new(seed, max_deals=1)

    @invariant()
    def north_decides_on_what_north_sees(self) -> None:
        state = self.state
        if 2 not in state.to_act or len(state.legal_actions(2)) == 1:
            return
        other = state.determinize(2, random.Random(len(state.history)))
        a = PimcBot(GAME, 2, 7, **SMALL).act(observe(state, 2, random.Random(3), sample=True))
        b = PimcBot(GAME, 2, 7, **SMALL).act(observe(other, 2, random.Random(3), sample=True))
        assert a == b
        self.checked.append(len(state.history))


def test_pimc_decides_on_what_its_seat_sees(monkeypatch):
    checked: list[int] = []
    monkeypatch.setattr(NorthsPimc, "checked", checked, raising=False)
    run_machine(NorthsPimc, 1, steps=56)  # a deal: 4 bids and 52 cards
    assert len(checked) >= 8


def play_deal(seed: int) -> State:
    """One deal, pimc (the tests' budget) as North-South against rule bots."""
    state = GAME.new(seed, max_deals=1)
    bots = [PimcBot(GAME, s, seed + s, **SMALL) if s % 2 == 0 else make_bot(GAME, "rule", s, s)
            for s in range(4)]
    rng = random.Random(seed)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(bots[seat].act(observe(state, seat, rng, sample=True)), seat)
    return state


def test_pimc_plays_legally_and_the_same_for_the_same_seed():
    """A whole deal, twice: every move legal (the engine refuses any other), both bids in,
    and the same deal played the same way."""
    first, again = play_deal(11), play_deal(11)
    assert first.outcome is not None and first.history == again.history
    assert sum(1 for s, a in first.history if a >= NIL and s % 2 == 0) == 2


def test_pimc_bids_nil_on_a_hand_that_cannot_take_a_trick():
    """South holds the lowest cards of every suit: every sampled deal makes its nil."""
    state = GAME.from_position("hands: 2S 3S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C 6C | "
                               "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S AH KH | "
                               "QH JH 10H 9H 8H 7H 6H 5H AD KD QD JD 10D | "
                               "9D 8D 7D 6D 5D AC KC QC JC 10C 9C 8C 7C")
    bot = PimcBot(GAME, 0, 1, samples=4, nodes=400)
    assert bot.act(observe(state, 0, random.Random(1), sample=True)) == NIL


def test_open_hands_is_shown_the_deal_by_the_arena_alone():
    with pytest.raises(OptionError, match="yardstick"):
        make_bot(GAME, "open-hands", 0, 1)
    bot = make_bot(GAME, "open-hands", 0, 1, shown=True)
    assert isinstance(bot, OpenHandsBot) and bot.sees_everything
    state = GAME.new(4, max_deals=1)
    with pytest.raises(RuntimeError, match="shown the deal"):
        bot.act(observe(state, 0, random.Random(1), sample=True))
    assert bot.act(observe_open(state, 0)) in state.legal_actions(0)
    assert observe_open(state, 0).sample(random.Random(1)).hands == state.hands


def test_tournaments_seat_the_bound():
    result = tournament("spades", ["open-hands", "rule"], 2, 3, {"max_deals": 1}, jobs=1)
    assert result["games"] == 2 and set(result["results"]) == {"open-hands", "rule"}
    assert len(result["deal_scores"]) == 1
