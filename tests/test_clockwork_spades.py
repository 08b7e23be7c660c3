"""Clockwork Spades: each paragraph of the seed, each decision of
full-rules/en.md (D1..D16), the bots, terminal play and the properties."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from contract import (
    check_determinized,
    check_determinized_games,
    check_explanations_games,
    check_random_games,
    check_step,
)
from hypothesis import given, settings
from hypothesis.stateful import invariant
from rich.console import Console
from soak import soak
from stateful import SEEDS, RandomPlay, run_machine

from parlour.arena import simulate
from parlour.bots import make_bot, observe
from parlour.cards import KING, SPADES, card_text, parse_card, parse_cards
from parlour.engine import IllegalAction, NotationError, OptionError
from parlour.games import get_game
from parlour.games.clockwork_spades.bots import choice_scores
from parlour.games.clockwork_spades.rules import (
    KING_OF_SPADES,
    SPADE_AT,
    ClockworkState,
    describe_event,
    feasible,
    narrate_event,
    position_of,
)
from parlour.i18n import render
from parlour.record import parse_record, record_text, replay

GAME = get_game("clockwork-spades")
KINGS = [parse_card(k) for k in ("KC", "KD", "KH")]


def dealt(draws: str) -> ClockworkState:
    """A new game whose stock yields ``draws`` first, then the other cards (clubs 2 up,
    then diamonds, then hearts)."""
    first = parse_cards(draws)
    rest = [c for c in range(39) if c not in first]
    return ClockworkState(GAME, 0, {}, stock=first + rest)


def arrange(south: str, north: str, stock: str = "", taken: tuple[str, str] = ("", ""),
            piles: dict[int, str] | None = None, kings: tuple[str, str] = ("", ""),
            pointer: int = 12, seat: int = 0) -> ClockworkState:
    """A game from a position: the hands, the stock (top first, the King of Spades under
    it), the positions each seat has taken, cards on the clock, the Kings each seat holds;
    then ``seat``'s turn is played as far as the engine goes by itself (the game's position
    text, ``GAME.from_position``)."""
    clock = ", ".join(f"{p}={cards}" for p, cards in (piles or {}).items())
    text = (f"hands: {south or '-'} | {north or '-'}; stock: {stock or '-'}; "
            f"clock: {clock}; taken: {taken[0] or '-'} | {taken[1] or '-'}; "
            f"kings: {kings[0] or '-'} | {kings[1] or '-'}; pointer: {pointer}; "
            f"to act: {seat}")
    state = GAME.from_position(text, 1)
    assert isinstance(state, ClockworkState)
    return state


def kinds(state: ClockworkState) -> list[str]:
    return [e["kind"] for e in state.events]


def events(state: ClockworkState, kind: str) -> list[dict]:
    return [e for e in state.events if e["kind"] == kind]


def hand(state: ClockworkState, seat: int) -> list[str]:
    return state.view(seat)["hand"]


def take(p: int) -> int:
    return GAME.parse_action(f"take {p}")


# ----------------------------------------------------------------------------- setup
def test_layout_spades_on_the_clock_and_king_of_spades_under_the_stock():
    state = GAME.new(4)
    assert isinstance(state, ClockworkState)
    for p in range(1, 13):
        assert position_of(SPADE_AT[p]) == p and SPADE_AT[p] // 13 == SPADES
    assert [card_text(SPADE_AT[p]) for p in (1, 2, 10, 11, 12)] == ["AS", "2S", "10S", "JS",
                                                                      "QS"]
    view = state.view(0)
    assert [s["spade"] for s in view["clock"]][:3] == ["AS", "2S", "3S"]
    assert state.stock[0] == KING_OF_SPADES and view["king_of_spades_in_stock"]
    assert all(c < 39 for c in state.stock[1:])  # no other spade in the stock


def test_the_first_player_draws_three_then_the_second():  # D1, D2
    state = dealt("5C 9H JC QC 8D 3D")
    draws = [(e["seat"], e["card"]) for e in events(state, "draw")]
    assert draws == [(0, "5C"), (0, "9H"), (0, "JC"), (1, "QC"), (1, "8D"), (1, "3D")]
    assert hand(state, 0) == ["5C", "9H", "JC"] and hand(state, 1) == ["3D", "8D", "QC"]
    assert state.view(0)["stock_size"] == 40 - 6


def test_a_king_dealt_goes_to_the_opponent_and_is_replaced():  # D2
    state = dealt("KC 5C 9H JC QC 8D 3D")
    assert kinds(state)[:2] == ["king", "draw"]
    assert state.kings == [[], [parse_card("KC")]]
    assert hand(state, 0) == ["5C", "9H", "JC"]
    assert state.view(1)["kings"] == [[], ["KC"]]


def test_kings_passed_and_replaced_twice_in_a_row():  # D3
    state = dealt("5C KC KH 9H JC QC 8D KD 3D")
    king_events = events(state, "king")
    assert [(e["seat"], e["card"], e["to"]) for e in king_events] == [
        (0, "KC", 1), (0, "KH", 1), (1, "KD", 0)]
    assert hand(state, 0) == ["5C", "9H", "JC"] and hand(state, 1) == ["3D", "8D", "QC"]
    assert state.view(0)["kings"] == [["KD"], ["KC", "KH"]]
    assert not any(c % 13 == KING for h in state.hands for c in h)


def test_a_king_drawn_later_goes_to_the_opponent():
    state = arrange("AC 9H JC", "QC 8D 3D", stock="KD 4C 5C 6C 7C")
    # South plays AC on 1, draws KD (to North) and then 4C.
    assert [(e["kind"], e.get("card")) for e in state.events[:5]] == [
        ("turn", None), ("play", "AC"), ("king", "KD"), ("draw", "4C"), ("turn", None)]
    assert state.kings == [[], [parse_card("KD")]]


# ----------------------------------------------------------------------------- turns
def test_first_turn_due_on_1_2_3_second_on_4_5_6():  # seed: first and second turn
    state = dealt("5C 9H JC QC 8D 3D")
    assert state.to_act == (0,) and state.due == (1, 2, 3)
    assert state.legal_actions() == (take(1), take(2), take(3))
    state.apply(take(2))
    assert state.to_act == (1,) and state.due == (4, 5, 6)
    assert state.view(1)["legal"] == ["take 4", "take 5", "take 6"]


def test_every_matching_card_is_played_every_copy():  # D9
    state = arrange("AC AD 3H", "9C 9D 9H", stock="4C 5C 6C 7C 8C 10C")
    plays = [(e["card"], e["position"]) for e in events(state, "play")][:3]
    assert plays == [("AC", 1), ("AD", 1), ("3H", 3)]
    assert state.view(0)["clock"][0]["cards"] == ["AC", "AD"]
    assert state.view(0)["clock"][2]["cards"] == ["3H"]
    # Then South draws back up to three, at the end of the turn only (D14).
    assert [e["card"] for e in events(state, "draw")][:3] == ["4C", "5C", "6C"]
    assert state.history == []  # forced plays are not actions


def test_cards_played_stay_on_their_spade():  # D10
    state = arrange("2C 9D 10D", "4H 7D 8D", stock="5C 6C 7C 8C 10C JC QC AD 2D 3D")
    assert state.view(0)["clock"][1]["cards"] == ["2C"]  # turn 1: 2C on the 2
    assert state.view(0)["clock"][3]["cards"] == ["4H"]  # turn 2: 4H on the 4


def test_a_take_is_offered_only_without_a_match_and_only_due_spades():  # D11
    state = arrange("9C 10C JC", "QC 8D 7D", stock="4C 5C 6C")
    assert state.to_act == (0,) and state.view(0)["legal"] == ["take 1", "take 2", "take 3"]
    assert events(state, "choose")[0]["options"] == [1, 2, 3]
    with pytest.raises(IllegalAction, match="position 7 is not due"):
        state.apply(take(7))
    state.apply(take(3))
    assert state.penalty == [[SPADE_AT[3]], []]
    assert state.view(1)["clock"][2] == {"position": 3, "spade": None, "cards": [],
                                         "due": False}
    with pytest.raises(IllegalAction, match="position 3 is empty"):
        state.apply(take(3), 1)


def test_with_one_spade_due_the_take_is_automatic():  # D11
    # South's three cards are dead, and so are their three replacements (D12).
    state = arrange("2C 3C 4C", "5C 6C 7C", taken=("1 2 3 4 5", "6 7 8 9 10 11"),
                    stock="8C 9C 10C")
    take_events = events(state, "take")
    assert take_events[0]["seat"] == 0 and take_events[0]["position"] == 12
    assert state.history == []


def test_empty_positions_are_skipped():  # seed: "Continuing play" example
    state = arrange("9C 10C JC", "QC 8D 3D", taken=("2", ""))
    assert state.due == (1, 3, 4)


def test_the_pointer_wraps_from_12_to_1():  # D8
    state = arrange("9C 10C 8C", "QC 8D 3D", pointer=10)
    assert state.due == (11, 12, 1)
    state = arrange("9C 10C 8C", "QC 8D 3D", pointer=10, taken=("12", ""))
    assert state.due == (11, 1, 2)


def test_fewer_than_three_spades_left_are_all_due():  # D8
    taken = ("1 2 3 4 6", "7 8 10 11 12")
    state = arrange("AC 2C 3C", "4D 5D 6D", taken=taken, pointer=6, stock="2D 3D")
    assert state.events[0]["due"] == [9, 5]


def test_the_pointer_follows_the_last_due_position_played_or_taken():  # D8
    state = dealt("5C 9H JC QC 8D 3D")
    state.apply(take(3))  # the last due position taken: the next turn starts after it
    assert state.due == (4, 5, 6)
    state = arrange("AC 9H JC", "QC 8D 3D", stock="4C 5C 6C 7C")
    assert events(state, "turn")[1]["due"] == [4, 5, 6]


def test_a_take_discards_the_cards_on_that_spade():  # seed: special cases
    state = arrange("9C 10C JC", "QC 8D 3D", piles={5: "5H 5D"}, pointer=3)
    assert state.due == (4, 5, 6)
    state.apply(take(5))
    assert state.penalty[0] == [SPADE_AT[5]]
    assert [card_text(c) for c in state.discard] == ["5H", "5D"]
    assert state.clock[5] is None
    assert events(state, "take")[0]["discarded"] == ["5H", "5D"]
    assert state.view(1)["discard"] == ["5H", "5D"]  # D13: the discard pile is public


def test_dead_cards_are_discarded_at_the_start_of_a_turn_and_replaced():  # seed; D12
    state = arrange("7H 2C 9D", "QC 8D 3D", taken=("7", ""), stock="4C 5C 6C 8C 10C")
    first = state.events[:6]
    assert [(e["kind"], e.get("card")) for e in first] == [
        ("turn", None), ("dead", "7H"), ("draw", "4C"), ("play", "2C"), ("draw", "5C"),
        ("turn", None)]
    assert first[1]["position"] == 7
    assert card_text(state.discard[0]) == "7H"


def test_a_dead_replacement_waits_for_the_next_turn():  # D12
    state = arrange("7H 2C 9D", "QC 10D 3D", taken=("7 8", ""),
                    stock="8C 5C 6C 2D 3H 4D 5D")
    assert hand(state, 0) == ["5C", "8C", "9D"]  # 8C is dead, and kept
    assert state.to_act == (1,)  # North can play nothing on 4, 5, 6
    state.apply(take(4))
    dead = events(state, "dead")
    assert [(e["card"], e["turn"]) for e in dead] == [("7H", 1), ("8C", 3)]


def test_a_card_dies_on_the_opponents_turn_but_waits_for_its_holder():  # D12
    state = arrange("9C 10C JC", "5H 8D QD", pointer=3, stock="2C 3C 4C")
    state.apply(take(5))
    # North's 5H is dead from the take on, and is discarded when North's turn starts.
    seq = [(e["kind"], e["seat"]) for e in state.events]
    assert seq[seq.index(("take", 0)) + 1: seq.index(("take", 0)) + 3] == [("turn", 1),
                                                                          ("dead", 1)]


# ----------------------------------------------------------------------------- the end
def test_the_king_of_spades_ends_the_game_and_fewer_spades_win():  # D5, D7
    state = arrange("AC 9D 10D", "QD 8D 3D", taken=("5", "6 7"))
    assert state.is_over and state.stock == []
    assert state.kings[0] == [KING_OF_SPADES]  # D4: the drawer keeps it
    assert state.end == {"reason": "king_of_spades", "four_kings": None,
                         "penalties": [1, 2], "winner": 0}
    assert state.outcome.placing == (1, 2) and state.outcome.points == (1.0, 2.0)
    assert kinds(state)[-2:] == ["king_of_spades", "end"]


def test_the_king_of_spades_counts_no_penalty():  # D7
    state = arrange("AC 9D 10D", "QD 8D 3D", taken=("5", "6"))
    assert state.end["penalties"] == [1, 1] and state.outcome.is_draw


def test_equal_penalties_draw():  # D7
    state = arrange("AC 9D 10D", "QD 8D 3D", taken=("5 9", "6 7"))
    assert state.end["winner"] is None and state.outcome.placing == (1, 1)


def test_four_kings_win_whatever_the_penalties():  # D6
    state = arrange("AC 9D 10D", "QD 8D 3D", taken=("5 9 10", "6"), kings=("KC KD KH", ""))
    assert state.end["four_kings"] == 0 and state.outcome.placing == (1, 2)
    assert state.outcome.points == (3.0, 1.0)  # points stay the penalties
    assert len(state.view(1)["kings"][0]) == 4


def test_three_kings_and_no_king_of_spades_do_not_win():  # D6
    state = arrange("AC 9D 10D", "QD 8D 3D", taken=("5 9 10", "6"), kings=("KC KD", "KH"))
    assert state.end["four_kings"] is None and state.outcome.placing == (2, 1)


def test_the_king_of_spades_ends_even_a_dead_card_replacement():  # D5
    state = arrange("7H 2C 9D", "QC 8D 3D", taken=("7", ""))
    assert kinds(state) == ["turn", "dead", "king_of_spades", "end"]
    assert not events(state, "play")  # the rest of the turn is not played


def test_all_twelve_spades_taken_ends_the_game():  # seed: second ending
    state = arrange("2C 3C 4C", "5C 6C 7C", taken=("1 2 3 4 5", "6 7 8 9 10 11"),
                    stock="8C 9C 10C")
    assert state.end == {"reason": "all_spades", "four_kings": None, "penalties": [6, 6],
                         "winner": None}
    assert state.outcome.is_draw and state.stock  # the stock was not exhausted


def test_a_real_game_ending_with_all_spades_taken():
    state = GAME.new(2247)
    while state.to_act:
        state.apply(state.legal_actions()[0])
    assert state.end["reason"] == "all_spades" and state.end["penalties"] == [7, 5]
    assert state.outcome.placing == (2, 1)
    assert all(p is None for p in state.clock[1:])


def test_a_real_game_won_by_four_kings_with_more_spades():
    state = GAME.new(15)
    while state.to_act:
        state.apply(state.legal_actions()[0])
    assert state.end["four_kings"] == 0 and state.end["penalties"] == [3, 1]
    assert state.outcome.placing == (1, 2)


def test_the_game_can_end_without_a_decision():  # representation
    state = arrange("AC 9D 10D", "QD 8D 3D")
    assert state.is_over and state.history == [] and state.to_act == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(0)


# ----------------------------------------------------------------------------- notation
def test_notation_round_trips_and_bad_text_is_explained():
    for a in range(GAME.num_actions):
        assert GAME.parse_action(GAME.action_text(a)) == a
    for text, position in [("5", 5), (" Take  12 ", 12), ("take qs", 12), ("t 1", 1),
                           ("take ace", 1), ("10s", 10), ("take J", 11)]:
        assert GAME.parse_action(text) == position - 1
    with pytest.raises(NotationError, match="'take N' with N a clock position"):
        GAME.parse_action("take 13")
    with pytest.raises(NotationError, match="King of Spades is in the centre"):
        GAME.parse_action("take KS")
    with pytest.raises(NotationError, match="'take N'"):
        GAME.parse_action("play 5H")
    with pytest.raises(NotationError):
        GAME.action_text(12)


def test_options_and_seats_are_refused_clearly():
    with pytest.raises(OptionError, match="no option"):
        GAME.new(1, speed=2)
    with pytest.raises(OptionError, match="played by 2 seats"):
        GAME.new(1, seats=3)


def test_illegal_actions_name_the_rule_and_change_nothing():
    state = dealt("5C 9H JC QC 8D 3D")
    before = json.dumps([state.view(s) for s in (0, 1, None)])
    for action, reason in [(take(4), "not due"), (12, "unknown action 12"),
                           ("take 1", "whole number"), (True, "whole number"),
                           (-1, "unknown action")]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not North's turn"):
        state.apply(take(1), seat=1)
    with pytest.raises(IllegalAction, match="no seat 5"):
        state.apply(take(1), seat=5)
    assert json.dumps([state.view(s) for s in (0, 1, None)]) == before


# ----------------------------------------------------------------------------- views
def test_view_shows_clock_due_piles_hands_and_events():
    state = arrange("9C 10C JC", "QC 8D 3D", piles={5: "5H"}, pointer=3, taken=("", "2"),
                    kings=("KC", ""), stock="4C 6C 7C")
    v = state.view(0)
    assert v["due"] == [4, 5, 6] and [s["position"] for s in v["clock"] if s["due"]] == [4, 5,
                                                                                       6]
    assert v["clock"][4] == {"position": 5, "spade": "5S", "cards": ["5H"], "due": True}
    assert v["clock"][1]["spade"] is None
    assert v["penalty"] == [[], ["2S"]] and v["penalty_counts"] == [0, 1]
    assert v["kings"] == [["KC"], []]
    assert v["hand"] == ["9C", "10C", "JC"] and v["hand_sizes"] == [3, 3]
    assert v["stock_size"] == 4 and v["discard_size"] == 0
    assert v["legal"] == ["take 4", "take 5", "take 6"] and v["to_act"] == [0]
    assert v["phase"] == "take" and v["outcome"] is None and v["end"] is None
    assert state.view(1)["legal"] == [] and state.view(None)["hand"] is None


def test_draws_show_the_card_only_to_the_drawer():
    state = dealt("5C 9H JC QC 8D 3D")
    mine = [e.get("card") for e in state.view(0)["events"] if e["kind"] == "draw"]
    theirs = [e.get("card") for e in state.view(1)["events"] if e["kind"] == "draw"]
    assert mine == ["5C", "9H", "JC", None, None, None]
    assert theirs == [None, None, None, "QC", "8D", "3D"]
    assert all("card" not in e for e in state.view(None)["events"] if e["kind"] == "draw")


class ClockworkPlay(RandomPlay):
    """Random games, checked at every step: South's events cover every turn since South's
    previous look, and no view holds a card of the opponent's hand or of the stock."""

    game_id = "clockwork-spades"

    def dealt(self) -> None:
        self.seen = -1

    @invariant()
    def events_cover_every_turn_since_the_previous_look(self) -> None:
        seqs = [e["seq"] for e in self.state.view(0)["events"]]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert seqs[0] <= self.seen + 1  # nothing was skipped since the last look
        self.seen = seqs[-1]

    @invariant()
    def views_hold_no_card_of_the_opponents_hand_or_the_stock(self) -> None:
        state = self.state
        for seat in (0, 1, None):
            text = json.dumps(state.view(seat))
            hidden = list(state.stock) + [c for s in (0, 1) if s != seat for c in state.hands[s]]
            for card in hidden:
                if card != KING_OF_SPADES:
                    assert f'"{card_text(card)}"' not in text


@pytest.mark.parametrize("runs", soak(25, 250))
def test_random_games_keep_events_whole_and_views_blind(runs):
    run_machine(ClockworkPlay, runs, steps=20)  # a random game takes about 5 actions


def test_every_event_has_an_english_line():
    state = GAME.new(15)
    while state.to_act:
        state.apply(state.legal_actions()[0])
    lines = [describe_event(e) for e in state.events]
    assert lines[-1] == "South holds all four Kings and wins."
    assert any("passes it face up" in line for line in lines)
    assert all(line and "South: " not in line for line in lines)


@pytest.mark.parametrize(("pen", "winner", "lang", "said"), [
    ((1, 2), 0, "en", "South wins with 1 penalty spade to 2."),
    ((1, 2), 0, "pt_BR", "South vence com 1 espada de castigo contra 2."),
    ((2, 5), 1, "pt_BR", "North vence com 2 espadas de castigo contra 5."),
    ((1, 1), None, "en", "Drawn game: 1 penalty spade each."),
    ((3, 3), None, "pt_BR", "Empate: 3 espadas de castigo para cada um."),
])
def test_the_end_counts_its_penalty_spades_in_the_readers_grammar(pen, winner, lang, said):
    event = {"seq": 9, "turn": 5, "kind": "end", "seat": -1 if winner is None else winner,
             "reason": "all_spades", "four_kings": None, "penalties": list(pen),
             "winner": winner}
    assert render(narrate_event(event), lang) == said


# ----------------------------------------------------------------------------- determinize
def test_determinize_keeps_the_opponent_consistent_with_their_turns():
    # North could play nothing on 4, 5, 6: no determinization gives North a 4, 5 or 6.
    state = dealt("5C 9H JC QC 8D 3D")
    state.apply(take(2))
    assert state.to_act == (1,)

    @settings(max_examples=100)
    @given(redeal=SEEDS)
    def consistent(redeal: int) -> None:
        det = state.determinize(0, random.Random(redeal))
        assert det.hands[0] == state.hands[0] and len(det.hands[1]) == 3
        assert not {position_of(c) for c in det.hands[1]} & {4, 5, 6}
        assert not set(det.hands[1]) & set(KINGS)
        assert det.stock[0] == KING_OF_SPADES
        assert det.legal_actions(1) == state.legal_actions(1)

    consistent()
    check_step(state, random.Random(1), deep=True)


def test_determinize_depends_only_on_what_the_seat_knows():
    a = dealt("5C 9H JC QC 8D 3D")
    b = dealt("5C 9H JC 4H 8H 2D")  # North holds other cards, equally unplayable on 1-3
    for s in (a, b):
        assert s.to_act == (0,)
    da, db = a.determinize(0, random.Random(5)), b.determinize(0, random.Random(5))
    assert da.hands == db.hands and da.stock == db.stock


def test_feasible_assigns_cards_to_draws():
    assert feasible([3], [(0, 0)] * 3)
    assert not feasible([2, 1], [(1, 1), (1, 1), (0, 1)])  # two cards drawn late, one slot
    assert feasible([2, 1], [(0, 0), (0, 1), (1, 1)])
    assert not feasible([3], [(0, 0)] * 2)


# ----------------------------------------------------------------------------- properties
def cards_accounted_for(state: ClockworkState) -> None:
    """All 52 cards, each exactly once: clock spades and piles, penalty piles, Kings,
    hands, stock and discard pile; hands are three or fewer and hold no King; every hand is
    one its holder could hold given everything public."""
    on_clock = [c for p in range(1, 13) if state.clock[p] is not None
                for c in [SPADE_AT[p], *state.clock[p]]]
    every = (on_clock + state.penalty[0] + state.penalty[1] + state.kings[0] + state.kings[1]
             + state.hands[0] + state.hands[1] + state.stock + state.discard)
    assert sorted(every) == list(range(52))
    assert len(state.penalty[0]) + len(state.penalty[1]) == state.clock.count(None) - 1
    for seat in (0, 1):
        assert len(state.hands[seat]) <= 3
        assert not any(c % 13 == KING for c in state.hands[seat])
        assert all(c % 13 == KING for c in state.kings[seat])
        assert state.hand_is_consistent(seat, state.hands[seat])
    if state.to_act:
        assert len(state.hands[state.seat]) == 3
        assert not any(position_of(c) in state.due for c in state.hands[state.seat])
    else:
        assert state.end is not None
        if state.end["reason"] == "king_of_spades":
            assert state.stock == [] and KING_OF_SPADES in state.kings[0] + state.kings[1]
        else:
            assert all(p is None for p in state.clock[1:])


@pytest.mark.parametrize("games", soak(250, 3000))  # "all_spades" first at game 196
def test_random_games_keep_every_invariant(games):
    states = check_random_games("clockwork-spades", games, seed=1,
                                invariant=cards_accounted_for, replay_every=20)
    assert all(s.outcome is not None for s in states)
    reasons = {s.end["reason"] for s in states}
    assert reasons == {"king_of_spades", "all_spades"}


@pytest.mark.parametrize("games", soak(15, 150))
def test_deep_contract_checks_on_random_games(games):
    check_random_games("clockwork-spades", games, seed=7, deep_every=1,
                       invariant=cards_accounted_for, replay_every=1)


def test_determinize_for_any_seat_keeps_the_state_whole():
    check_determinized_games("clockwork-spades", 6, seed=11, invariant=cards_accounted_for)


def test_a_position_round_trips_at_every_decision_of_random_games():
    rng = random.Random(4)
    decisions = 0
    for seed in range(20):
        state = GAME.new(seed)
        while state.to_act:
            text = state.position_text()
            built = GAME.from_position(text, 3)
            assert built.position_text() == text
            assert built.legal_actions() == state.legal_actions()
            for seat in (0, 1):
                view, again = state.view(seat), built.view(seat)
                for key in ("clock", "due", "pointer", "hand", "hand_sizes", "penalty",
                            "kings", "stock_size", "discard", "legal", "to_act"):
                    assert again[key] == view[key], key
            action = rng.choice(state.legal_actions())
            twin = built.clone()
            twin.apply(action)
            state.apply(action)
            cards_accounted_for(built)
            cards_accounted_for(twin)
            if decisions % 10 == 0:  # what a built game infers is sound for search too
                check_determinized(built, rng, cards_accounted_for)
            assert twin.penalty == state.penalty and twin.hands == state.hands
            decisions += 1
    assert decisions > 50


@pytest.mark.parametrize(("text", "error"), [
    ("hands: 2C", "one for each seat"),
    ("hands: 2C 3C 4C 5C | -", "at most 3 cards"),
    ("hands: KC | -", "no King"),
    ("kings: KS | -", "Kings of clubs"),
    ("taken: 1 1 | -", "each taken at most once"),
    ("taken: 13 | -", "positions 1 to 12"),
    ("taken: x | -", "positions 1 to 12, not"),
    ("clock: 5=6H", "only cards of that position's rank"),
    ("clock: five=5H", "not like 5=5H"),
    ("hands: 2C | 2C", "used once"),
    ("hands: 2S | -", "used once"),
    ("pointer: 0", "a position 1 to 12"),
    ("to act: 2", "seat 0 or 1"),
    ("step: later", "start or choose"),
    ("hands: 2C 3C 4C | -; step: choose", "none due"),
    ("taken: 1 2 3 4 5 6 | 7 8 9 10 11 12", "game is over"),
    ("hands: 2C; turn: 3", "not a position field"),
])
def test_a_bad_position_is_refused_with_its_reason(text, error):
    with pytest.raises(ValueError, match=error):
        GAME.from_position(text)


def test_records_replay():
    state = GAME.new(2247)
    while state.to_act:
        state.apply(state.legal_actions()[0])
    text = record_text(state, ["rule", "random"])
    assert "0 take 7" in text and 'Result "points 7 5; placing 2 1"' in text
    again = replay(parse_record(text))
    assert again.events == state.events and again.outcome == state.outcome


# ----------------------------------------------------------------------------- bots
def test_rule_bot_takes_the_rank_with_most_unseen_cards():
    # Two 5s are gone (one on the 5, one discarded) and one 6 is on the 6: the 4 has the
    # most unseen cards, so the opponent most likely holds one; the bot takes 4.
    state = arrange("9C 10C JC", "QC 8D 3D", piles={5: "5H", 6: "6H"}, pointer=3,
                    stock="2C 3C 4C")
    state.discard.append(parse_card("5D"))
    obs = observe(state, 0, random.Random(0))
    scores = choice_scores(obs.view, [4, 5, 6])
    assert [scores[p][1] for p in (4, 5, 6)] == [3, 1, 2]
    bot = make_bot(GAME, "rule", 0, 1)
    assert bot.act(obs) == take(4)


def test_rule_bot_breaks_ties_clockwise_and_plays_whole_games():
    state = dealt("5C 9H JC QC 8D 3D")
    bot = make_bot(GAME, "rule", 0, 1)
    assert bot.act(observe(state, 0, random.Random(0))) == take(1)  # 3 unseen each
    summary = simulate("clockwork-spades", 60, 0, ["rule", "random"])
    assert summary["games"] == 60 and sum(summary["wins"]) + summary["draws"] == 60


# ----------------------------------------------------------------------------- terminal
def test_terminal_play_draws_the_clock_and_tells_each_step(tmp_path: Path):
    from parlour.terminal import play

    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False, color_system=None)
    answers = iter(["?", "take 13", "7"] + [str(p) for p in range(1, 13)] * 10)
    state = play("clockwork-spades", seed=3, bots="rule", console=console,
                 read_line=lambda _: next(answers), record_dir=tmp_path)
    text = out.getvalue()
    assert state.is_over
    assert "Turn 1: South (you) is due on 1, 2, 3." in text
    assert "[A♠]" in text and "[2♠]" in text  # due positions are lit
    assert "passes it face up to North" in text  # a King passed
    assert "discards" in text and "has left the clock" in text  # a dead card
    assert re.search(r"plays \S+ on \d+\.", text) and "takes" in text  # forced play, a take
    assert "'take N'" in text and "not due this turn" in text  # bad input explained
    assert "K♠ under it" in text
    saved = (tmp_path / "clockwork-spades-3.txt").read_text()
    assert replay(parse_record(saved)).outcome == state.outcome


def test_clock_layout_is_round():
    from parlour.games.clockwork_spades.terminal import CELLS

    cols = {p: c for p, (c, _) in CELLS.items()}
    rows = {p: r for p, (_, r) in CELLS.items()}
    assert cols[12] == cols[6] and rows[3] == rows[9]
    assert rows[12] < rows[1] < rows[2] < rows[3] < rows[4] < rows[5] < rows[6]
    assert cols[9] < cols[10] < cols[11] < cols[12] < cols[1] < cols[2] < cols[3]


def test_bench_workload_runs():
    from bench_kit import load_bench

    bench = load_bench("engine")
    unit, work, peers = bench.WORKLOADS["clockwork_spades"]
    assert unit == "games/s" and peers == {}
    assert work(0.05) > 10


# ----------------------------------------------------------------------------- explanations
def clockwork_explains(state: ClockworkState, seat: int, action: int, message: str) -> None:
    """A refused take names the true reason: the position is empty, or not due."""
    position = action + 1
    if state.clock[position] is None:
        assert message.startswith(f"position {position} is empty: its spade was taken")
    else:
        assert position not in state.due
        assert message.startswith(f"position {position} is not due this turn")


def test_every_refused_action_is_explained_by_the_rule_that_refuses_it():
    checked = check_explanations_games("clockwork-spades", 12, clockwork_explains, seed=6)
    assert checked > 500
