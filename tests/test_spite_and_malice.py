"""Spite & Malice: every paragraph of the seed, every decision of
full-rules/en.md, the bots, terminal play, and properties over random matches."""

from __future__ import annotations

import collections
import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from contract import (
    check_determinized_games,
    check_explanations_games,
    check_random_games,
    check_replay,
    check_step,
    snapshot,
)
from hypothesis import given, settings
from hypothesis.stateful import invariant
from rich.console import Console
from soak import soak
from stateful import SEEDS, RandomPlay, run_machine

from parlour.arena import play_game
from parlour.bots import make_bot, observe_for
from parlour.engine import IllegalAction, NotationError, OptionError, derive_rng, derive_seed
from parlour.games import get_game
from parlour.games.spite_and_malice.bots import SpiteAndMaliceRuleBot
from parlour.games.spite_and_malice.planner import choose_discard
from parlour.games.spite_and_malice.rules import (
    EMPTY,
    JOKER,
    NUM_ACTIONS,
    TOP_ORDER,
    VALUE,
    WILD,
    SpiteAndMaliceState,
    decode,
    face_text,
    new_deck,
    parse_face,
)
from parlour.i18n import localize, render
from parlour.record import parse_record, record_text, replay
from parlour.terminal import play

GAME = get_game("spite-and-malice")
A = GAME.parse_action


def faces(text: str) -> list[int]:
    return [parse_face(t) for t in text.split()]


def slots(text: str) -> list[int]:
    """A hand: up to five cards, ``-`` for an empty slot."""
    out = [EMPTY if t == "-" else parse_face(t) for t in text.split()]
    return out + [EMPTY] * (5 - len(out))


def ladder(n: int) -> str:
    """A centre pile of ``n`` cards, ace up (suits mixed)."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
    return " ".join(r + "CDHS"[i % 4] for i, r in enumerate(ranks[:n]))


def table(hands: tuple[str, str] = ("", ""), payoff: tuple[str, str] = ("9C 9D", "9H 9S"),
          side: tuple[list[str], list[str]] | None = None, centre: tuple[str, ...] = ("",) * 3,
          stock: str | None = None, turn: int = 0, **options: object) -> SpiteAndMaliceState:
    """A match whose table is laid out by hand (the cards need not add up to 104), from the
    game's position text (``GAME.from_position``)."""
    piles = side or (["", "", "", ""], ["", "", "", ""])
    text = "; ".join([
        f"hands: {hands[0] or '-'} | {hands[1] or '-'}",
        f"payoffs: {payoff[0]} | {payoff[1]}",
        "sides: " + " | ".join(", ".join(p or "-" for p in piles[s]) for s in (0, 1)),
        "centre: " + ", ".join(c or "-" for c in centre),
        f"stock: {'2C 3C 4C 5C 6C 7C 8C 9C ' * 3 if stock is None else stock or '-'}",
        f"to act: {turn}"])
    state = GAME.from_position(text, 1, **options)
    assert isinstance(state, SpiteAndMaliceState)
    return state


def legal_texts(state: SpiteAndMaliceState) -> set[str]:
    return {GAME.action_text(a) for a in state.legal_actions()}


# ----------------------------------------------------------------------------- the deal
def test_two_decks_twenty_card_payoff_piles_five_card_hands_three_centre_piles():
    state = GAME.new(5)
    assert state.num_seats == 2
    assert sorted(state.all_cards()) == sorted(new_deck(0)) and len(state.all_cards()) == 104
    assert [len(p) for p in state.payoff] == [20, 20]
    assert [len(state.hand(s)) for s in (0, 1)] == [5, 5]
    assert state.side == [[[], [], [], []], [[], [], [], []]]
    assert state.centre == [[], [], []]
    assert len(state.stock) == 104 - 50
    view = state.view(0)
    assert [p["size"] for p in view["payoff"]] == [20, 20]
    assert view["payoff"][1]["top"] == face_text(state.payoff[1][-1])  # top face up


def test_every_card_twice():
    deck = new_deck(0)
    assert collections.Counter(deck) == {f: 2 for f in range(52)}


def test_options_payoff_size_centre_piles_and_jokers():
    state = GAME.new(5, payoff_size=10, centre_piles=4, jokers=4)
    assert [len(p) for p in state.payoff] == [10, 10]
    assert len(state.centre) == 4
    assert len(state.all_cards()) == 108 and state.all_cards().count(JOKER) == 4
    with pytest.raises(OptionError, match="3, 4"):
        GAME.new(1, centre_piles=5)
    with pytest.raises(OptionError, match="at most 4"):
        GAME.new(1, jokers=5)
    with pytest.raises(OptionError, match="no option 'payof'"):
        GAME.new(1, payof=3)
    with pytest.raises(OptionError, match="2 seats"):
        GAME.new(1, seats=3)


def test_deals_come_from_the_seed():
    assert snapshot(GAME.new(9)) == snapshot(GAME.new(9))
    assert GAME.new(9).payoff != GAME.new(10).payoff


# ----------------------------------------------------------------------------- who starts
def test_ranks_for_building_and_for_the_first_player():
    assert VALUE[parse_face("AS")] == 1 and VALUE[parse_face("QH")] == 12
    assert VALUE[parse_face("10D")] == 10 and VALUE[parse_face("KC")] == WILD
    assert VALUE[JOKER] == WILD
    order = [TOP_ORDER[f] for f in faces("AS 2S 10S JS QS KS")] + [TOP_ORDER[JOKER]]
    assert order == sorted(order) and len(set(order)) == len(order)


class RoundStarts(RandomPlay):
    """Random matches of one-card payoffs (short rounds), checked as each round is dealt:
    the payoff tops differ and the higher one's owner starts."""

    game_id = "spite-and-malice"
    rounds: list[int]

    def new_game(self, seed: int) -> SpiteAndMaliceState:
        return GAME.new(seed, payoff_size=1, target=3, king_starts=True)

    @invariant()
    def the_higher_payoff_top_starts(self) -> None:
        state = self.state
        if state.to_act and not state._moves:  # a round just dealt
            tops = [TOP_ORDER[p[-1]] for p in state.payoff]
            assert tops[0] != tops[1]
            assert state.first == (0 if tops[0] > tops[1] else 1)
            assert state.to_act == (state.first,)
            self.rounds.append(state.round)


@pytest.mark.parametrize("matches", soak(6, 60))
def test_the_higher_payoff_top_starts_every_round(matches, monkeypatch):
    rounds: list[int] = []
    monkeypatch.setattr(RoundStarts, "rounds", rounds, raising=False)
    run_machine(RoundStarts, matches, steps=300)  # a random round takes about 140 actions
    assert len(rounds) > 2 * matches and max(rounds) >= 3


def test_equal_tops_are_dealt_again_from_the_seed():
    seed = next(s for s in range(500) if GAME.new(s).redeals)
    state = GAME.new(seed)
    n = state.redeals
    for attempt in range(n + 1):
        deck = new_deck(0)
        derive_rng(seed, "deal", 1, attempt).shuffle(deck)
        tops = (deck[19], deck[39])
        assert (TOP_ORDER[tops[0]] == TOP_ORDER[tops[1]]) == (attempt < n)
    assert state.payoff == [deck[0:20], deck[20:40]]
    assert state.hands == [deck[40:45], deck[45:50]] and state.stock == deck[50:]
    redeals = [e for e in state.view(0)["log"] if e["kind"] == "redeal"]
    assert len(redeals) == n and redeals[0]["tops"][0][:-1] == redeals[0]["tops"][1][:-1]
    assert state.view(0)["redeals"] == n
    assert snapshot(GAME.new(seed)) == snapshot(state)  # a replay redeals the same way


# ----------------------------------------------------------------------------- centre piles
def test_centre_piles_start_with_an_ace_and_ignore_suits():
    state = table(hands=("AD 2S 3H 5C QS", ""))
    assert legal_texts(state) >= {"h1>c1", "h1>c2", "h1>c3"}
    assert not legal_texts(state) & {"h2>c1", "h3>c1", "h4>c1", "h5>c1"}
    for move in ("h1>c1", "h2>c1", "h3>c1"):
        state.apply(A(move))
    assert state.centre[0] == faces("AD 2S 3H")
    view = state.view(0)["centre"][0]
    assert view["stands_at"] == 3 and view["rank"] == "3" and view["needs"] == "4"
    with pytest.raises(IllegalAction, match="centre pile 1 needs a 4, not the 5C"):
        state.apply(A("h4>c1"))


def test_a_king_stands_for_the_rank_the_pile_needs():
    state = table(hands=("KH QD JS 4C 4D", ""), centre=(ladder(10), "", ""))
    state.apply(A("h1>c1"))  # a king on the ten is the jack
    pile = state.view(0)["centre"][0]
    assert pile["stands_at"] == 11 and pile["rank"] == "J" and pile["needs"] == "Q"
    assert A("h3>c1") not in state.legal_actions()  # a real jack no longer fits
    stock = len(state.stock)
    state.apply(A("h2>c1"))  # the queen completes the pile
    assert state.centre[0] == [] and len(state.stock) == stock + 12


def test_a_king_on_a_jack_completes_the_pile():
    state = table(hands=("KH 4C 4D", ""), centre=(ladder(11), "", ""))
    stock = len(state.stock)
    state.apply(A("h1>c1"))
    assert state.centre[0] == [] and len(state.stock) == stock + 12
    assert state.view(0)["completed"] == 1


def test_a_king_may_not_start_an_empty_pile_by_default():
    state = table(hands=("KH 4C", ""), centre=("", "AS", ""))
    assert {a for a in legal_texts(state) if a.startswith("h1>c")} == {"h1>c2"}
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="a king may not start an empty centre pile"):
        state.apply(A("h1>c1"))
    assert snapshot(state) == before


def test_option_king_starts_a_pile_as_an_ace():
    state = table(hands=("KH 2C", ""), king_starts=True)
    state.apply(A("h1>c1"))
    assert state.view(0)["centre"][0]["stands_at"] == 1
    state.apply(A("h2>c1"))  # the two goes on the king standing for the ace
    assert state.view(0)["centre"][0]["rank"] == "2"


def test_jokers_are_wild_like_kings():
    state = table(hands=("Joker 4C", ""), centre=("", ladder(3), ""), jokers=2)
    assert {a for a in legal_texts(state) if a.startswith("h1>c")} == {"h1>c2"}
    with pytest.raises(IllegalAction, match="a joker may not start"):
        state.apply(A("h1>c1"))
    state.apply(A("h1>c2"))
    assert state.view(0)["centre"][1]["rank"] == "4"


def test_a_completed_pile_is_shuffled_into_the_stock():
    state = table(hands=("QH 4C 4D", ""), centre=(ladder(11), "AS", ""), stock="2H 3H 4H")
    pile = faces(ladder(11)) + faces("QH")
    state.apply(A("h1>c1"))
    assert state.centre[0] == [] and state.centre[1] == faces("AS")
    assert sorted(state.stock) == sorted(faces("2H 3H 4H") + pile)
    assert state.stock != faces("2H 3H 4H") + pile  # shuffled, not stacked
    again = table(hands=("QH 4C 4D", ""), centre=(ladder(11), "AS", ""), stock="2H 3H 4H")
    again.apply(A("h1>c1"))
    assert again.stock == state.stock  # the shuffle comes from the seed
    events = [e["kind"] for e in state.view(1)["log"]]
    assert events[-2:] == ["build", "complete"]
    assert state.to_act == (0,)  # the turn goes on


def test_four_centre_piles_by_option():
    state = table(hands=("AH 4C", ""), centre=("", "", "", ""), centre_piles=4)
    assert {a for a in legal_texts(state) if a.startswith("h1>")} >= {"h1>c4"}
    three = table(hands=("AH 4C", ""))
    with pytest.raises(IllegalAction, match="there is no centre pile 4"):
        three.apply(A("h1>c4"))


# ----------------------------------------------------------------------------- turns
def test_a_turn_starts_by_drawing_to_five():
    state = table(hands=("7C 8C", "AH 2H - QS -"), stock="2D 3D 4D 5D 6D")
    state.apply(A("h1>s1"))
    assert state.to_act == (1,)
    assert state.hands[1] == faces("AH 2H 6D QS 5D")  # empty slots filled, lowest first
    assert state.stock == faces("2D 3D 4D")
    last = state.view(1)["log"][-1]
    assert last["kind"] == "draw" and last["count"] == 2 and last["seat"] == 1


def test_moves_from_payoff_side_piles_and_hand():
    side = (["5S 3C", "", "", ""], ["", "", "", ""])
    state = table(hands=("AH 2C 4C JS JD", ""), payoff=("7H 7S 2D", "9H"), side=side)
    state.apply(A("h1>c1"))
    assert {"p>c1", "h2>c1"} <= legal_texts(state)
    state.apply(A("p>c1"))  # the payoff two on the ace
    assert state.view(0)["payoff"][0] == {"top": "7S", "size": 2}  # the next card turned up
    state.apply(A("s1>c1"))  # the side-pile three
    assert state.side[0][0] == faces("5S")
    state.apply(A("h3>c1"))
    state.apply(A("s1>c1"))  # the five now on top of side pile 1
    assert state.view(0)["centre"][0]["stands_at"] == 5 and state.to_act == (0,)


def test_only_the_top_of_a_side_pile_may_be_played():
    side = (["AH 2S", "", "", ""], ["", "", "", ""])
    state = table(hands=("9C", ""), side=side)
    assert not any(a.startswith("s1>") for a in legal_texts(state))
    with pytest.raises(IllegalAction, match="centre pile 1 needs an A, not the 2S"):
        state.apply(A("s1>c1"))
    with pytest.raises(IllegalAction, match="side pile 2 is empty"):
        state.apply(A("s2>c1"))


def test_cards_never_go_to_a_side_pile_except_from_the_hand():
    with pytest.raises(NotationError, match="only a hand card may go onto a side pile"):
        A("s1>s2")
    with pytest.raises(NotationError, match="only a hand card may go onto a side pile"):
        A("p>s1")


def test_a_side_pile_takes_any_card_and_the_discard_ends_the_turn():
    side = (["9C", "2D", "", ""], ["", "", "", ""])
    state = table(hands=("KH QS 3D 3D AC", "5H 5H 5H 5H 5H"), side=side)
    assert legal_texts(state) >= {f"h{i}>s{k}" for i in range(1, 6) for k in range(1, 5)}
    state.apply(A("h2>s2"))  # a queen on a two: no restriction
    assert state.side[0][1] == faces("2D QS")
    assert state.to_act == (1,) and state.hands[0][1] == EMPTY
    assert state.view(1)["side_piles"][0] == [["9C"], ["QS", "2D"], [], []]  # top first


def test_emptying_the_hand_by_building_draws_five_more():
    state = table(hands=("- AH - 2C -", "5H"), stock="3D 4D 5D 6D 7D 8D 9D")
    state.apply(A("h2>c1"))
    assert state.hand(0) == faces("2C")
    state.apply(A("h4>c1"))
    assert state.hands[0] == faces("9D 8D 7D 6D 5D")  # drawn from the top of the stock
    assert state.stock == faces("3D 4D")
    assert state.to_act == (0,)  # and the turn goes on
    kinds = [e["kind"] for e in state.view(1)["log"]]
    assert kinds[-3:] == ["build", "hand emptied", "draw"]


def test_a_pile_completed_by_the_last_hand_card_is_in_the_stock_before_the_draw():
    state = table(hands=("QH", "5H"), centre=(ladder(11), "", ""), stock="3D 4D")
    state.apply(A("h1>c1"))  # 2 + 12 cards in the stock, then five drawn
    assert state.round == 1 and len(state.hand(0)) == 5 and len(state.stock) == 9


# ----------------------------------------------------------------------------- end of a round
def test_emptying_the_payoff_pile_wins_the_round_and_scores_the_other_payoff():
    state = table(hands=("8C", ""), payoff=("5H", "2C 3C 4C 5C 6C 7C 8C"),
                  centre=(ladder(4), "", ""))
    state.apply(A("p>c1"))
    assert state.scores == [7, 0]
    r = state.rounds[0]
    assert (r["winner"], r["reason"], r["points"], r["payoff_left"]) == (
        0, "payoff emptied", 7, [0, 7])
    assert state.round == 2 and state.outcome is None
    assert [len(p) for p in state.payoff] == [20, 20]  # a fresh deal
    assert sorted(state.all_cards()) == sorted(new_deck(0))


def test_option_win_bonus_adds_five():
    state = table(hands=("8C", ""), payoff=("5H", "2C 3C"), centre=(ladder(4), "", ""),
                  win_bonus=5)
    state.apply(A("p>c1"))
    assert state.scores == [7, 0]


def test_the_round_ends_when_the_payoff_empties_even_mid_turn_on_a_completing_card():
    state = table(hands=("8C 8D", ""), payoff=("QH", "2C 3C 4C"), centre=(ladder(11), "", ""))
    state.apply(A("p>c1"))
    assert state.scores == [3, 0] and state.round == 2


def test_an_empty_stock_when_a_card_is_owed_draws_the_round():
    state = table(hands=("7C 8C", "AH 2H 3H - -"), stock="4D", payoff=("9C", "9H 9D"))
    state.apply(A("h1>s1"))  # North draws the 4D, owes one more card: the stock is empty
    assert state.rounds[0]["reason"] == "stock exhausted"
    assert state.rounds[0]["winner"] is None and state.rounds[0]["points"] == 0
    assert state.scores == [0, 0] and state.round == 2


def test_a_stock_emptied_by_a_full_draw_plays_on():
    state = table(hands=("7C 8C", "AH 2H 3H - -"), stock="4D 5D")
    state.apply(A("h1>s1"))
    assert state.round == 1 and state.stock == [] and state.to_act == (1,)
    assert state.hands[1] == faces("AH 2H 3H 5D 4D")
    for move in ("h1>c1", "h2>c1", "h3>c1", "h5>c1"):
        state.apply(A(move))
    assert state.round == 1
    state.apply(A("h4>c1"))  # the hand is empty and nothing can refill it
    assert state.round == 2 and state.rounds[0]["reason"] == "stock exhausted"


# ----------------------------------------------------------------------------- the match
def test_the_match_goes_on_until_a_player_reaches_fifty():
    state = table(hands=("8C", ""), payoff=("5H", "2C 3C 4C 5C"), centre=(ladder(4), "", ""))
    state.scores = [45, 30]
    state.apply(A("p>c1"))  # 49: not yet
    assert state.scores == [49, 30] and state.outcome is None and state.round == 2
    state = table(hands=("8C", ""), payoff=("5H", "2C 3C 4C 5C 6C"), centre=(ladder(4), "", ""))
    state.scores = [45, 30]
    state.apply(A("p>c1"))  # 50 wins
    assert state.outcome is not None
    assert state.outcome.points == (50, 30) and state.outcome.winners == (0,)
    assert state.to_act == () and state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(A("h1>s1"))
    assert state.view(0)["outcome"]["winners"] == [0]


def test_option_target():
    state = table(hands=("8C", ""), payoff=("5H", "2C"), centre=(ladder(4), "", ""), target=1)
    state.apply(A("p>c1"))
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_safety_stop_on_turns_draws_the_round():
    state = GAME.new(3, max_turns=10)
    while state.round == 1:
        state.apply(state.legal_actions()[-1])  # discard every turn
    assert state.rounds[0]["reason"] == "turn limit" and state.rounds[0]["turns"] == 11
    assert state.scores == [0, 0]
    assert [(s.option, s.round, s.match, render(s.message, "en"))
            for s in state.safety_stops] == [
        ("max_turns", 1, False, "Round 1 is drawn: the turn limit was reached.")]


def test_safety_stop_on_rounds_ends_the_match_and_says_so():
    state = GAME.new(3, max_rounds=1, max_turns=10)
    while state.to_act:
        state.apply(state.legal_actions()[-1])
    assert state.outcome is not None and state.outcome.is_draw and state.round == 1
    told = ("The match stops after 1 round, the most it may last: nobody reached 50, so the "
            "higher score wins, and equal scores draw.")
    assert localize(state.view(1)["stopped"], "en") == told
    assert [(s.option, s.match) for s in state.safety_stops] == [("max_turns", False),
                                                                  ("max_rounds", True)]


def test_a_match_the_target_ends_names_no_stop():
    state = table(hands=("8C", ""), payoff=("5H", "2C"), centre=(ladder(4), "", ""), target=1,
                  max_rounds=1)
    state.apply(A("p>c1"))
    assert state.outcome is not None and state.view(0)["stopped"] is None
    assert state.safety_stops == ()


# ----------------------------------------------------------------------------- notation & errors
def test_notation_exactly_as_the_issue_shows():
    for text in ("h3>c1", "p>c2", "s2>c1", "h5>s4"):
        assert GAME.action_text(A(text)) == text
    assert [GAME.action_text(a) for a in range(NUM_ACTIONS)].count("p>c1") == 1
    for a in range(NUM_ACTIONS):
        assert A(GAME.action_text(a)) == a
    assert A("H3 > C1") == A("h3 c1") == A("h3-c1") == A("h3c1") == A("h3>c1")
    assert A(" P>C2 ") == A("p c2")


def test_bad_notation_says_what_was_expected():
    with pytest.raises(NotationError, match="a hand slot is 1 to 5, not 6"):
        A("h6>c1")
    with pytest.raises(NotationError, match="a centre pile is 1 to 4, not 5"):
        A("h1>c5")
    with pytest.raises(NotationError, match="a side pile is 1 to 4, not 0"):
        A("s0>c1")
    with pytest.raises(NotationError, match="expected a move like h3>c1"):
        A("play the queen")
    with pytest.raises(NotationError):
        GAME.action_text(60)


def test_illegal_actions_name_the_rule_and_change_nothing():
    state = table(hands=("- 5C KD", "AH"), payoff=("9C 9D", "9H 9S"))
    before = snapshot(state)
    for action, reason in [(A("h1>c1"), "hand slot 1 is empty"),
                           (A("h1>s1"), "hand slot 1 is empty"),
                           (A("h2>c1"), "centre pile 1 needs an A, not the 5C"),
                           (A("h3>c2"), "a king may not start"),
                           (A("p>c1"), "needs an A, not the 9D"),
                           (A("s3>c1"), "side pile 3 is empty"),
                           (A("h2>c4"), "there is no centre pile 4"),
                           (60, "unknown action 60"), (-1, "unknown action"),
                           ("h1>c1", "whole number"), (True, "whole number")]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)  # type: ignore[arg-type]
        assert snapshot(state) == before
    with pytest.raises(IllegalAction, match="not North's turn"):
        state.apply(A("h2>s1"), seat=1)
    assert snapshot(state) == before


def test_legal_actions_ascend_and_apply_takes_exactly_them():
    """``apply`` finds an action among the legal ones by a binary search: they ascend, and
    every other action of the space is refused, through random rounds."""
    game = get_game("spite-and-malice")
    for seed in range(4):
        state = game.new(seed)
        rng = random.Random(seed)
        for _ in range(150):
            if state.outcome is not None:
                break
            legal = state.legal_actions()
            assert list(legal) == sorted(set(legal))
            for action in set(range(-1, game.num_actions + 1)) - set(legal):
                with pytest.raises(IllegalAction):
                    state.apply(action)
            state.apply(rng.choice(legal))


def test_a_player_always_has_a_move():
    state = table(hands=("- - 7C - -", ""))
    assert legal_texts(state) == {"h3>s1", "h3>s2", "h3>s3", "h3>s4"}


# ----------------------------------------------------------------------------- views
def test_a_position_round_trips_at_every_move_of_random_rounds():
    rng = random.Random(5)
    for seed in range(3):
        state = GAME.new(seed, payoff_size=4, target=3, max_turns=40, max_rounds=2)
        moves = 0
        while state.to_act:
            text = state.position_text()
            built = GAME.from_position(text, 9, payoff_size=4, target=3, max_turns=40)
            assert built.position_text() == text
            assert built.legal_actions() == state.legal_actions()
            view, again = state.view(state.turn), built.view(state.turn)
            for key in ("hand", "payoff", "side_piles", "centre", "stock", "scores", "legal",
                        "to_act"):
                assert again[key] == view[key], key
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
        assert moves > 20
        with pytest.raises(ValueError, match="match is over"):
            state.position_text()


@pytest.mark.parametrize(("text", "error"), [
    ("hands: AH | -", "needs its payoff piles"),
    ("payoffs: 9C | 9H; hands: AH", "one for each seat"),
    ("payoffs: 9C | -; hands: AH | -", "never empty"),
    ("payoffs: 9C | 9H; hands: - | AH", "holds a card"),
    ("payoffs: 9C | 9H; hands: AH 2H 3H 4H 5H 6H | -", "5 slots"),
    ("payoffs: 9C | 9H; hands: ZZ | -", "hand 0"),
    ("payoffs: 9C | 9H; hands: AH | -; sides: -, - | -, -, -, -", "4 side piles"),
    ("payoffs: 9C | 9H; hands: AH | -; centre: AS 3S, -, -", "not built up"),
    ("payoffs: 9C | 9H; hands: AH | -; centre: -, -", "3 centre piles"),
    ("payoffs: 9C | 9H; hands: AH | -; to act: 2", "seat 0 or 1"),
    ("payoffs: 9C | 9H; hands: AH | -; scores: 1", "two whole numbers"),
    ("payoffs: 9C | 9H; hands: AH | -; trumps: S", "not a position field"),
])
def test_a_bad_position_is_refused_with_its_reason(text, error):
    with pytest.raises(ValueError, match=error):
        GAME.from_position(text)


def test_the_view_shows_the_table():
    side = (["9C 8D", "", "", ""], ["QS", "", "", "KH 4C"])
    state = table(hands=("7C - KD 2S 2S", "AH 3H"), payoff=("3S 4S", "5D 5H 6H"), side=side,
                  centre=(ladder(3), "", ""), stock="2D 3D 4D")
    v = state.view(0)
    assert v["hand"] == ["7C", None, "KD", "2S", "2S"]
    assert v["hand_sizes"] == [4, 2]
    assert v["payoff"] == [{"top": "4S", "size": 2}, {"top": "6H", "size": 3}]
    assert v["side_piles"] == [[["8D", "9C"], [], [], []], [["QS"], [], [], ["4C", "KH"]]]
    assert v["centre"][0] == {"cards": ["AC", "2D", "3H"], "stands_at": 3, "rank": "3",
                              "needs": "4"}
    assert v["centre"][1]["rank"] == "-" and v["centre"][1]["needs"] == "A"
    assert v["stock"] == 3 and v["scores"] == [0, 0] and v["round"] == 1
    assert "h3>c1" in v["legal"] and v["to_act"] == [0]
    assert v["outcome"] is None
    assert state.view(1)["hand"] == ["AH", "3H", None, None, None]
    assert state.view(1)["legal"] == [] and state.view(None)["hand"] is None


def test_views_hide_the_other_hand_the_payoff_below_the_top_and_the_stock_order():
    state = GAME.new(8)
    state.apply(state.legal_actions()[-1])
    views = [json.dumps(state.view(s), sort_keys=True) for s in (0, 1, None)]
    other = state.clone()
    held = other.hand(1)
    fresh = iter(other.stock[-len(held):])
    other.stock[-len(held):] = held
    other.hands[1] = [EMPTY if f == EMPTY else next(fresh) for f in other.hands[1]]
    other.stock.reverse()
    for p in other.payoff:
        p[:-1] = reversed(p[:-1])
    assert json.dumps(other.view(0), sort_keys=True) == views[0]
    assert json.dumps(other.view(1), sort_keys=True) != views[1]  # (North sees its hand)
    assert json.dumps(other.view(None), sort_keys=True) == views[2]
    assert state.view(0)["stock"] == len(state.stock)  # only the size


def test_determinize_redeals_only_what_the_seat_has_not_seen():
    state = GAME.new(12)
    rng = random.Random(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))

    @settings(max_examples=20)
    @given(redeal=SEEDS)
    def redeals_only_the_unseen(redeal: int) -> None:
        det = state.determinize(0, random.Random(redeal))
        assert det.hands[0] == state.hands[0]
        assert [f == EMPTY for f in det.hands[1]] == [f == EMPTY for f in state.hands[1]]
        assert len(det.stock) == len(state.stock) and det.side == state.side
        assert [p[-1] for p in det.payoff] == [p[-1] for p in state.payoff]
        assert sorted(det.all_cards()) == sorted(state.all_cards())
        assert det.view(0) == state.view(0)

    redeals_only_the_unseen()
    check_step(state, rng, deep=True)


def test_determinize_depends_only_on_what_the_seat_knows():
    a = GAME.new(21)
    b = a.clone()
    b.hands[1], b.stock[:5] = b.stock[:5], b.hand(1)  # another truth, the same to South
    random.Random(0).shuffle(b.stock)
    assert a.view(0) == b.view(0)
    da, db = a.determinize(0, random.Random(5)), b.determinize(0, random.Random(5))
    assert snapshot(da) == snapshot(db) and da.stock == db.stock and da.hands == db.hands


# ----------------------------------------------------------------------------- properties
def cards_accounted_for(state: SpiteAndMaliceState) -> None:
    """All 104 cards (and the jokers) are somewhere, each exactly once; hands hold 0-5."""
    assert sorted(state.all_cards()) == SORTED_DECKS[state.options["jokers"]]
    assert all(len(h) == 5 for h in state.hands)
    if state.to_act:
        assert state.hand(state.turn), "the player to act holds a card"
        assert all(len(p) < 12 for p in state.centre)
    assert sum(r["points"] for r in state.rounds) == sum(state.scores)
    for pile in state.centre:  # built up from the ace, a king or joker standing for any
        assert all(VALUE[f] in (WILD, i + 1) for i, f in enumerate(pile))


SORTED_DECKS = {n: sorted(new_deck(n)) for n in range(5)}

# Random play almost never empties a payoff pile, so these variants use short payoff piles
# (rounds won and matches ended by the target), long ones (rounds drawn by an empty stock)
# and the safety stops; 2,000 matches in all.
VARIANTS = [  # (options, how rounds end)
    (dict(payoff_size=30, max_rounds=2), {"stock exhausted"}),
    (dict(payoff_size=1, target=1, max_turns=40, king_starts=True, jokers=4),
     {"payoff emptied", "turn limit"}),
    (dict(payoff_size=2, centre_piles=4, target=2, win_bonus=5, max_turns=40, max_rounds=2),
     {"payoff emptied", "turn limit"}),
    (dict(payoff_size=25, jokers=2, king_starts=True, max_rounds=2), {"stock exhausted"}),
]


@pytest.mark.parametrize("games", soak(30, 500))  # the first redeals: games 11-26
@pytest.mark.parametrize("i", range(len(VARIANTS)))
def test_random_matches_keep_every_invariant(i, games):
    options, endings = VARIANTS[i]
    states = check_random_games("spite-and-malice", games, seed=i, invariant=cards_accounted_for,
                                replay_every=min(50, games // 2), **options)
    assert len(states) == games and all(s.outcome is not None for s in states)
    reasons = collections.Counter(r["reason"] for s in states for r in s.rounds)
    assert set(reasons) == endings
    assert any(s.redeals for s in states)  # equal tops happened and were dealt again


def test_deep_contract_checks_on_random_matches():
    check_random_games("spite-and-malice", 6, seed=99, deep_every=5,
                       invariant=cards_accounted_for, replay_every=1, payoff_size=3,
                       target=3, max_rounds=2, max_turns=30)


def test_determinize_for_any_seat_keeps_the_state_whole():
    check_determinized_games("spite-and-malice", 3, seed=13, invariant=cards_accounted_for,
                             payoff_size=3, target=3, max_rounds=2, max_turns=30)


def test_bot_matches_keep_every_invariant_and_replay():
    """Rule bots complete piles and empty hands, which random play rarely does."""
    seen: collections.Counter[str] = collections.Counter()
    for i in range(12):
        seed = derive_seed("bots", i)
        state = GAME.new(seed, payoff_size=8, target=12)
        kinds = ["rule", "rule" if i % 2 else "random"]
        bots = [make_bot(GAME, k, s, derive_seed(seed, s)) for s, k in enumerate(kinds)]
        rng = random.Random(i)
        while state.to_act:
            seat = state.to_act[0]
            state.apply(bots[seat].act(observe_for(bots[seat], state, seat, rng)), seat)
            cards_accounted_for(state)
            for e in state.view(None)["log"]:
                seen[e["kind"]] += 1
        check_replay(state)
    assert {"complete", "hand emptied", "round over", "draw", "build", "discard"} <= set(seen)


def test_records_replay():
    state = play_game(GAME, 77, ["rule", "random"], {"payoff_size": 5, "target": 10})
    text = record_text(state, ["rule", "random"])
    assert '[Game "spite-and-malice"]' in text and "\n0 h" in text
    again = replay(parse_record(text))
    assert snapshot(again) == snapshot(state)


# ----------------------------------------------------------------------------- bots
def rule_action(state: SpiteAndMaliceState, seat: int = 0) -> str:
    bot = make_bot(GAME, "rule", seat, 1)
    return GAME.action_text(bot.act(observe_for(bot, state, seat, random.Random(0))))


def rule_turn(state: SpiteAndMaliceState) -> list[str]:
    """The moves the rule bot makes until its turn ends (or the round does)."""
    bot = make_bot(GAME, "rule", state.turn, 1)
    seat, rnd, moves = state.turn, state.round, []
    while state.to_act == (seat,) and state.round == rnd:
        a = bot.act(observe_for(bot, state, seat, random.Random(0)))
        moves.append(GAME.action_text(a))
        state.apply(a)
    return moves


def test_rule_bot_builds_its_way_to_the_payoff():
    side = (["3D", "", "", ""], ["", "", "", ""])
    state = table(hands=("9C 2C JD 10S 6H", ""), payoff=("8H 8H 4S", "QH"), side=side,
                  centre=(ladder(1), "", ""))
    moves = rule_turn(state)
    assert moves[:3] == ["h2>c1", "s1>c1", "p>c1"]
    assert state.payoff[0] == faces("8H 8H")


def test_rule_bot_keeps_kings_for_the_payoff():
    state = table(hands=("KC 9C JD 10S 6H", ""), payoff=("9H 7S", "QH"),
                  centre=(ladder(2), "", ""))
    assert not rule_action(state).startswith("h1>c")  # the king would not reach the 7
    state = table(hands=("KC 9C JD 10S 6H", ""), payoff=("9H 4S", "QH"),
                  centre=(ladder(2), "", ""))
    assert rule_turn(state)[:2] == ["h1>c1", "p>c1"]  # here it does


def test_rule_bot_does_not_feed_the_opponents_payoff_top():
    state = table(hands=("5C 9C JD 10S 10H", ""), payoff=("9H QS", "2C 6H"),
                  centre=(ladder(4), "", ""))
    assert rule_action(state) != "h1>c1"  # a five would leave the pile needing a six
    state = table(hands=("5C 9C JD 10S 10H", ""), payoff=("9H QS", "2C 9S"),
                  centre=(ladder(4), "", ""))
    assert rule_action(state) == "h1>c1"  # harmless here


def test_rule_bot_discards_into_descending_runs_and_keeps_kings():
    assert choose_discard([7, 13, 3, 0, 0], [8, 0, 0, 0], [0, 0, 0]) == (0, 0)
    assert choose_discard([13, 12, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0])[0] == 1
    assert choose_discard([13, 13, 0, 0, 0], [5, 0, 0, 0], [0, 0, 0])[0] in (0, 1)
    state = table(hands=("KC 7D QS 3C 3C", ""), payoff=("9H 10S", "2C JH"),
                  side=(["8H", "JD", "", ""], ["", "", "", ""]))
    assert rule_action(state) == "h2>s1"


def test_rule_bot_reads_only_its_observation():
    assert SpiteAndMaliceRuleBot.needs_sample is False
    state = GAME.new(4)
    seat = state.turn
    bot = make_bot(GAME, "rule", seat, 1)
    obs = observe_for(bot, state, seat, random.Random(0))
    assert obs._sampler is None and obs.legal
    state.hands[1 - seat] = [EMPTY] * 5  # the truth behind the observation changes nothing
    assert bot.act(obs) in obs.legal


def test_rule_bot_beats_random():
    wins = 0
    for i in range(8):
        rule_seat = i % 2
        kinds = ["rule", "random"] if rule_seat == 0 else ["random", "rule"]
        state = play_game(GAME, derive_seed("duel", i), kinds, {"payoff_size": 10, "target": 20})
        assert state.outcome is not None
        wins += state.outcome.winners == (rule_seat,)
    assert wins >= 7


# ----------------------------------------------------------------------------- terminal
def test_terminal_answers_bad_input_with_the_reason_and_plays_on():
    lines = iter(["h9>c1", "c1>h1", "s1>s2", "h1>c1", "q", "n"])
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    play("spite-and-malice", seed=3, console=console, read_line=lambda _: next(lines))
    text = out.getvalue()
    assert "a hand slot is 1 to 5, not 9" in text
    assert "expected a move like h3>c1" in text
    assert "only a hand card may go onto a side pile" in text
    assert "centre pile 1 needs an A" in text
    assert "Centre" in text and "Stock:" in text and "Your hand:" in text
    assert "payoff [" in text and "Leaving the table." in text


def greedy_lines() -> list[str]:
    """Every move, builds first: a typist who tries them all until one is accepted."""
    moves = [GAME.action_text(a) for a in range(NUM_ACTIONS)]
    return [m for m in moves if m.startswith("p")] + [m for m in moves if not m.startswith("p")]


def test_terminal_plays_a_whole_match_to_the_end():
    cycle = greedy_lines()
    count = 0

    def read(prompt: str) -> str:
        nonlocal count
        count += 1
        assert count < 200_000
        return "n" if prompt.startswith("Save") else cycle[count % len(cycle)]

    out = io.StringIO()
    state = play("spite-and-malice", seed=11, console=Console(file=out, width=120),
                 read_line=read, options={"payoff_size": 2, "target": 1, "max_rounds": 3})
    assert state.outcome is not None
    text = out.getvalue()
    assert "Round 1" in text and ("You win" in text or "You lose" in text or "drawn" in text)


def run_cli(args: list[str], stdin: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb"}
    return subprocess.run([sys.executable, "-m", "parlour.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)


def test_cli_play_quits_cleanly(tmp_path):
    done = run_cli(["play", "spite-and-malice", "--seed", "5"], "h1>c9\nq\nn\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "a centre pile is 1 to 4, not 9" in done.stdout
    assert "Leaving the table." in done.stdout


def test_cli_play_finishes_a_match_and_saves_the_record(tmp_path):
    stdin = "\n".join(greedy_lines() * 400) + "\n"
    done = run_cli(["play", "spite-and-malice", "--seed", "8", "--record", str(tmp_path),
                    "--option", "payoff_size=1", "--option", "target=1",
                    "--option", "max_rounds=2"], stdin, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Leaving the table." not in done.stdout
    assert "You win" in done.stdout or "You lose" in done.stdout or "drawn" in done.stdout
    record = tmp_path / "spite-and-malice-8.txt"
    assert record.exists()
    replayed = run_cli(["replay", str(record)], "", tmp_path)
    assert replayed.returncode == 0 and "verified" in replayed.stdout


# ----------------------------------------------------------------------------- explanations
def spite_explains(state: SpiteAndMaliceState, seat: int, action: int, message: str) -> None:
    """A refused move names the true reason: an empty source, a missing pile, or a card
    that does not build on the centre pile."""
    kind, src, dst = decode(action)
    hand = state.hands[seat]
    if kind in ("hc", "hs") and hand[src] == EMPTY:
        assert message == f"hand slot {src + 1} is empty"
        return
    assert kind != "hs", "a held card may always go onto a side pile"
    if dst >= len(state.centre):
        assert message == (f"there is no centre pile {dst + 1}: this table has "
                           f"{len(state.centre)}")
        return
    if kind == "pc":
        if not state.payoff[seat]:
            assert message == "your payoff pile is empty"
            return
        face = state.payoff[seat][-1]
    elif kind == "sc":
        if not state.side[seat][src]:
            assert message == f"side pile {src + 1} is empty"
            return
        face = state.side[seat][src][-1]
    else:
        face = hand[src]
    pile = state.centre[dst]
    if VALUE[face] == WILD:
        assert not pile and not state.options["king_starts"]
        assert message.endswith(f"may not start an empty centre pile: centre pile {dst + 1} "
                                f"needs an ace")
    else:
        assert VALUE[face] != len(pile) + 1
        assert message.startswith(f"centre pile {dst + 1} needs ")
        assert message.endswith(f"not the {face_text(face)}")


def test_every_refused_action_is_explained_by_the_rule_that_refuses_it():
    checked = check_explanations_games("spite-and-malice", 2, spite_explains, seed=6,
                                       payoff_size=3, target=3, max_rounds=2, max_turns=30)
    checked += check_explanations_games("spite-and-malice", 1, spite_explains, seed=7,
                                        payoff_size=3, target=3, max_rounds=2, max_turns=30,
                                        centre_piles=4, jokers=2)
    assert checked > 3000
