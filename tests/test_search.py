"""ISMCTS, hints and tournaments."""

import random

import pytest
from hypothesis.stateful import invariant
from soak import soak
from stateful import RandomPlay, run_machine

from parlour.arena import elo_difference, kind_scores, seatings, tournament
from parlour.bots import hint, make_bot, observe
from parlour.bots.ismcts import ISMCTSBot
from parlour.bots.search import random_rollout, search
from parlour.engine import State
from parlour.games import get_game
from parlour.games.spades.rules import BID_BASE

GAME = get_game("spades")


def first_trick() -> object:
    state = GAME.new(2026)
    for _ in range(4):
        state.apply(BID_BASE + 3)
    return state


class WestsSearch(RandomPlay):
    """Two states that differ only in cards West cannot see yield the same decision for the
    same seed, at every decision of West's through random deals."""

    game_id = "spades"
    checked: list[int]

    def new_game(self, seed: int) -> State:
        return GAME.new(seed, max_deals=1)

    @invariant()
    def west_decides_on_what_west_sees(self) -> None:
        state = self.state
        if 1 not in state.to_act or len(state.legal_actions(1)) == 1:
            return
        other = state.determinize(1, random.Random(len(state.history)))
        # the iteration budget alone decides, whatever the machine's load
        a = ISMCTSBot(GAME, 1, 7, iterations=60).act(observe(state, 1, random.Random(3),
                                                             sample=True))
        b = ISMCTSBot(GAME, 1, 7, iterations=60).act(observe(other, 1, random.Random(3),
                                                             sample=True))
        assert a == b
        self.checked.append(len(state.history))


@pytest.mark.parametrize("deals", soak(1, 10))
def test_ismcts_decision_ignores_hidden_cards(deals, monkeypatch):
    checked: list[int] = []
    monkeypatch.setattr(WestsSearch, "checked", checked, raising=False)
    run_machine(WestsSearch, deals, steps=56)  # a deal: 4 bids and 52 cards
    assert len(checked) >= 8 * deals


def test_search_visits_every_legal_move_and_respects_the_budget():
    state = first_trick()
    obs = observe(state, 0, random.Random(1), sample=True)
    children = search(obs, random.Random(2), 300)
    assert set(children) == set(state.legal_actions())
    assert sum(c.visits for c in children.values()) == 300
    assert all(0.0 <= c.total / c.visits <= 1.0 for c in children.values())


@pytest.mark.parametrize("game_id", ["spades", "hit-the-deck", "spite-and-malice", "cangkul",
                                     "clockwork-spades", "foursquare"])
def test_random_rollout_plays_the_round_out_as_its_rule_says(game_id):
    """The rollout plays the first seat to act's ``legal[int(rand() * len(legal))]``, move
    after move, until the round ends (or the game), and says how many moves it played."""
    game = get_game(game_id)
    for seed in range(3):
        state, mirror = game.new(seed), game.new(seed)
        played = random_rollout(state, random.Random(seed).random)
        rand, moves = random.Random(seed).random, 0
        while mirror.to_act and mirror.round == 1:
            seat = mirror.to_act[0]
            legal = mirror.legal_actions(seat)
            mirror.apply(legal[int(rand() * len(legal))], seat)
            moves += 1
        assert state.history == mirror.history
        assert played == moves > 0
        assert state.round == 2 or state.outcome is not None


def test_random_rollout_stops_at_its_limit_and_at_a_given_round():
    state = GAME.new(5)
    assert random_rollout(state, random.Random(1).random, limit=10) == 10
    assert len(state.history) == 10
    # told the round began earlier (a search's start), it plays nothing
    assert random_rollout(state, random.Random(1).random, start_round=0) == 0
    assert len(state.history) == 10
    over = GAME.new(5, max_deals=1)
    random_rollout(over, random.Random(2).random)
    assert over.outcome is not None
    assert random_rollout(over, random.Random(2).random) == 0  # nothing left to play


def test_ismcts_plays_whole_matches_legally():
    from parlour.arena import play_game

    state = play_game(GAME, 5, ["ismcts:easy", "random"], {"max_deals": 2})
    assert state.outcome is not None


def test_levels_and_bad_level():
    hard, normal = make_bot(GAME, "ismcts:hard", 0, 1), make_bot(GAME, "ismcts", 0, 1)
    assert hard.iterations > normal.iterations
    with pytest.raises(ValueError, match="easy, normal, hard"):
        make_bot(GAME, "ismcts:genius", 0, 1)


def test_hint_gives_a_legal_choice_and_values():
    state = first_trick()
    advice = hint(state, level="easy")
    assert advice.action in state.legal_actions()
    assert advice.text == state.action_text(advice.action)
    assert next(iter(advice.values)) == advice.text
    assert set(advice.values) <= {state.action_text(a) for a in state.legal_actions()}
    bid = hint(GAME.new(4), level="easy")
    assert bid.text.startswith("bid") or bid.text == "nil"
    assert "score" in bid.unit


def test_tournament_seatings_and_scores():
    assert seatings(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert seatings(["a", "b"], 2) == [("a", "b"), ("b", "a")]
    assert elo_difference(0.5) == 0 and round(elo_difference(0.75)) == 191


def test_tournament_is_duplicate_and_independent_of_jobs():
    one = tournament("spades", ["rule", "random"], 4, 3, {"max_deals": 2}, jobs=1)
    two = tournament("spades", ["rule", "random"], 4, 3, {"max_deals": 2}, jobs=2)
    assert one["results"] == two["results"] and one["games"] == 4
    assert one["results"]["rule"]["score"] + one["results"]["random"]["score"] == 4
    assert one["pairs"]["both"] + one["pairs"]["split"] + one["pairs"]["neither"] == 2
    with pytest.raises(ValueError, match="two different"):
        tournament("spades", ["rule", "rule"], 2, 0)


def test_kind_scores_split_shared_first_places():
    from parlour.arena import GameResult
    from parlour.engine import Outcome

    won = GameResult(0, 0, Outcome((1, 0, 1, 0), (1, 2, 1, 2)), 10, ("a", "b", "a", "b"))
    assert kind_scores(won) == {"a": 1.0, "b": 0.0}
    draw = GameResult(0, 0, Outcome((1, 1, 1, 1), (1, 1, 1, 1)), 10, ("a", "b", "a", "b"))
    assert kind_scores(draw) == {"a": 0.5, "b": 0.5}
