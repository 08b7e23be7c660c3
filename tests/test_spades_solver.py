"""The open-hand search of Spades (parlour/games/spades/solver.py): exact on small endgames
(checked against brute force over the engine's own rules), and its scorer agrees with the
engine's scoring."""

import random

import pytest

from parlour.games import get_game
from parlour.games.spades.rules import BID_BASE, NIL, SpadesState
from parlour.games.spades.solver import Solver, deal_scorer, nil_made, position_of, team_tricks

GAME = get_game("spades")


def endgame(seed: int, tricks_left: int) -> SpadesState:
    """A one-deal match played at random (random bids, a nil now and then) until
    ``tricks_left`` tricks remain, then a random part of the next trick."""
    rng = random.Random(seed)
    state = GAME.new(seed, max_deals=1)
    assert isinstance(state, SpadesState)
    while state.phase == 0:
        state.apply(NIL if rng.random() < 0.2 else BID_BASE + rng.randint(1, 5))
    while len(state.hand(state.turn)) > tricks_left or state.trick_len:
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(rng.randrange(4)):
        state.apply(rng.choice(state.legal_actions()))
    return state


def brute_force(state: SpadesState, team: int, score) -> float:
    """Minimax over every legal card, by the engine's own rules: no pruning, no table."""
    if state.phase != 1:
        return score(tuple(state.deals[-1]["tricks"]))
    values = []
    for card in state.legal_actions():
        after = state.clone()
        after.apply(card)
        values.append(brute_force(after, team, score))
    return max(values) if state.turn & 1 == team else min(values)


def exact_values(state: SpadesState, score) -> dict[int, float]:
    values = {}
    for card in state.legal_actions():
        after = state.clone()
        after.apply(card)
        values[card] = brute_force(after, state.turn & 1, score)
    return values


@pytest.mark.parametrize("seed", range(12))
def test_the_search_is_exact_on_small_endgames(seed):
    state = endgame(seed, 3)
    seat = state.turn
    for score in (deal_scorer(state, seat), team_tricks(seat), nil_made(seat ^ 1)):
        solver = Solver(seat & 1, score, 1_000_000)
        assert solver.values(position_of(state)) == exact_values(state, score)
        assert solver.exact


def test_the_scorer_agrees_with_the_engine():
    """Played to its end, a deal's engine scores give the scorer's value."""
    for seed in range(20):
        state = endgame(seed, 2)
        seat = state.turn
        score = deal_scorer(state, seat)
        cost = state.options["bag_penalty"] / state.options["bag_limit"]
        while state.phase == 1:
            state.apply(state.legal_actions()[0])
        team = seat & 1
        worth = [state.scores[t] - cost * state.bags[t] for t in (0, 1)]
        assert score(tuple(state.deals[-1]["tricks"])) == worth[team] - worth[1 - team]


def test_a_budget_cut_short_answers_from_the_last_whole_pass():
    state = endgame(3, 9)
    seat = state.turn
    small = Solver(seat & 1, deal_scorer(state, seat), 300)
    values = small.values(position_of(state))
    assert set(values) == set(state.legal_actions())
    assert not small.exact and small.depth >= 0
    assert small.nodes <= 301
