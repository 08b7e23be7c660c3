"""Foursquare: every rule of the seed and of the designer's text, the decisions of
full-rules/en.md, properties over thousands of random games, the bots' correctness,
the analysis, and terminal play."""

from __future__ import annotations

import io
import json
import random

import pytest
from contract import (
    check_determinized_games,
    check_explanations_games,
    check_random_games,
    check_step,
)
from rich.console import Console
from soak import soak

from parlour.arena import simulate
from parlour.bots import make_bot, observe
from parlour.cards import card_text
from parlour.engine import IllegalAction, NotationError, OptionError
from parlour.games import get_game
from parlour.games.foursquare.bots import (
    LOST,
    UNDECIDED,
    WON,
    ClairvoyantBot,
    FoursquareSolverBot,
    clairvoyant_search,
    position_from_view,
    rule_choice,
)
from parlour.games.foursquare.rules import (
    CENTRE,
    DECK,
    FRAME,
    HEIGHT,
    MAX_DOWN,
    NUM_ACTIONS,
    STACK,
    VALUE,
    FoursquareState,
    bits,
    cell_name,
    deal_order,
    parse_cell,
    parse_deal,
    used_lines,
)
from parlour.record import parse_record, record_text, replay

GAME = get_game("foursquare")


def cell(name: str) -> int:
    return parse_cell(name)


def place(name: str) -> int:
    return cell(name)


def stack(name: str) -> int:
    return STACK + cell(name)


def setup(piles: str, hand: int, flip: str = "designer", extra: int = 0) -> FoursquareState:
    """A game in the middle: ``piles`` like ``"c4=3,5 d4=7*"`` (values bottom first, ``*``
    marks a face-down top), ``hand`` the value of the card to place. The cards were placed
    pile by pile (the flips that led here are not replayed: this is a position to test a
    rule on). ``extra`` more cards of the deck lie buried at the bottom of the piles (for
    positions near the end of the stock). Built from the game's position text."""
    spec: list[tuple[int, list[int], bool]] = []
    for word in piles.split():
        name, _, values = word.partition("=")
        spec.append((cell(name), [int(v) for v in values.rstrip("*").split(",")],
                     not values.endswith("*")))
    values = [v for _, vs, _ in spec for v in vs] + [hand]
    order = list(parse_deal(" ".join(map(str, values))))
    tops, hand_card, rest = order[:len(values) - 1], order[len(values) - 1], order[len(values):]
    buried, rest = rest[:extra], rest[extra:]
    under: list[list[int]] = [[] for _ in spec]
    while buried:  # round the piles, leaving room for one more card on each
        room = [k for k, (_, vs, _) in enumerate(spec) if len(under[k]) + len(vs) < HEIGHT - 1]
        assert room, "no room for the buried cards"
        for k in room:
            if buried:
                under[k].append(buried.pop())
    table: list[tuple[int, list[int]]] = []
    i = 0
    for k, (c, vs, _) in enumerate(spec):
        table.append((c, under[k] + tops[i:i + len(vs)]))
        i += len(vs)
    piles = ", ".join(f"{cell_name(c)}={' '.join(card_text(x) for x in cards)}"
                      f"{'' if is_up else '*'}"
                      for (c, cards), (_, _, is_up) in zip(table, spec, strict=True))
    stock = " ".join(card_text(c) for c in rest)
    state = GAME.from_position(f"piles: {piles}; hand: {card_text(hand_card)}; stock: {stock}",
                               1, flip=flip)
    assert isinstance(state, FoursquareState)
    return state


def faces(state: FoursquareState) -> dict[str, str]:
    """Each pile's top value, with ``*`` when face down."""
    out = {}
    for c in bits(state.occ):
        v = state.vals >> (4 * c) & 15
        out[cell_name(c)] = f"{v}" + ("" if state.up >> c & 1 else "*")
    return out


# ----------------------------------------------------------------------------- the deck
def test_forty_cards_ace_to_ten_suits_do_not_matter():
    assert len(DECK) == 40 and len(set(DECK)) == 40
    values = sorted(VALUE[c] for c in DECK)
    assert values == [v for v in range(1, 11) for _ in range(4)]
    assert {card_text(c)[:-1] for c in DECK} == {"A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                  "10"}
    assert VALUE[DECK[0]] in range(1, 11)


def test_the_deal_comes_from_the_seed():
    assert deal_order(3) == deal_order(3)
    assert deal_order(3) != deal_order(4)
    assert sorted(deal_order(3)) == list(DECK)
    assert GAME.new(3).view(0)["card"] == card_text(deal_order(3)[0])


def test_one_seat_and_the_card_in_hand_is_the_top_of_the_stock():
    state = GAME.new(5)
    assert state.num_seats == 1 and state.to_act == (0,)
    view = state.view(0)
    assert view["card"] == card_text(state.deal()[0])
    assert view["stock"] == 39 and view["placed"] == 0 and view["piles"] == {}
    with pytest.raises(OptionError, match="1 seats"):
        GAME.new(1, seats=2)


# ----------------------------------------------------------------------------- placing
def test_the_first_card_starts_the_grid_at_the_centre():
    state = GAME.new(1)
    assert state.legal_actions() == (CENTRE,)
    assert cell_name(CENTRE) == "d4"
    with pytest.raises(IllegalAction, match="starts the grid at d4"):
        state.apply(place("a1"))
    state.apply(place("d4"))
    assert state.view(0)["piles"] == {"d4": {"cards": [card_text(state.deal()[0])],
                                             "up": True}}


def test_a_new_pile_goes_orthogonally_next_to_a_pile():
    state = setup("d4=5", hand=5)
    legal = {GAME.action_text(a) for a in state.legal_actions()}
    assert legal == {"place at d3", "place at c4", "place at e4", "place at d5", "stack on d4"}
    with pytest.raises(IllegalAction, match="not next to a pile"):
        state.apply(place("e5"))  # diagonal
    with pytest.raises(IllegalAction, match="not next to a pile"):
        state.apply(place("f4"))
    with pytest.raises(IllegalAction, match="already a pile at d4"):
        state.apply(place("d4"))
    with pytest.raises(IllegalAction, match="no pile at e4"):
        state.apply(stack("e4"))


def test_a_pile_holds_at_most_four_cards():
    state = setup("d4=1,2,3 e4=9", hand=4)
    state.apply(stack("d4"))  # the fourth card
    assert state.height(cell("d4")) == HEIGHT == 4
    assert stack("d4") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="already holds 4 cards"):
        state.apply(stack("d4"))


def test_the_grid_never_grows_past_four_columns_or_four_rows():
    state = setup("d4=5 e4=5 f4=5 g4=5", hand=6)
    assert place("c4") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="more than 4 columns wide"):
        state.apply(place("c4"))
    state = setup("d1=5 d2=5 d3=5 d4=5", hand=6)
    assert place("d5") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="more than 4 rows tall"):
        state.apply(place("d5"))
    # the box may be 4 x 4 whichever way it grew from the first card
    state = setup("a1=1 b1=2 c1=3 d1=4 d2=5 d3=6 d4=7", hand=8)
    assert place("a2") in state.legal_actions()
    assert place("e4") not in state.legal_actions() and place("d5") not in state.legal_actions()


# ----------------------------------------------------------------------------- flipping
def test_strictly_highest_in_its_row_turns_the_other_tops_over():
    state = setup("c4=3 d4=5 e4=7", hand=9)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3*", "d4": "5*", "e4": "7*", "f4": "9"}
    assert state.view(0)["last"]["flipped"] == ["c4", "d4", "e4"]


def test_strictly_lowest_in_its_row_turns_the_other_tops_over():
    state = setup("c4=3 d4=5 e4=7", hand=2)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3*", "d4": "5*", "e4": "7*", "f4": "2"}


def test_a_card_between_the_others_turns_nothing():
    state = setup("c4=3 d4=5 e4=7", hand=4)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3", "d4": "5", "e4": "7", "f4": "4"}
    assert state.view(0)["last"]["flipped"] == []


@pytest.mark.parametrize("hand", [7, 3])
def test_a_tie_with_a_face_up_top_turns_nothing(hand):
    # 7 ties the highest and 3 the lowest: neither is strictly higher or lower.
    state = setup("c4=3 d4=5 e4=7", hand=hand)
    state.apply(place("f4"))
    assert faces(state)["c4"] == "3" and faces(state)["e4"] == "7"
    assert state.face_down() == 0


def test_flipping_toggles_so_face_down_tops_turn_face_up():
    # Face-down tops are not compared: 4 is lower than the face-up 5 and 7, so the rule
    # fires, and turning over the whole row raises c4 while it lowers d4 and e4.
    state = setup("c4=3* d4=5 e4=7", hand=4)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3", "d4": "5*", "e4": "7*", "f4": "4"}


def test_face_down_tops_do_not_count_in_the_comparison():
    # 6 is above the face-down 3 but between the face-up 5 and 7: nothing happens.
    state = setup("c4=3* d4=5 e4=7", hand=6)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3*", "d4": "5", "e4": "7", "f4": "6"}


def test_a_row_of_face_down_tops_is_turned_face_up_by_any_card():
    # "If all the cards in a row are face down, this rule applies automatically": even a
    # card equal to one of them (a tie with a face-down card does not count).
    state = setup("c4=3* d4=5* e4=7*", hand=5)
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3", "d4": "5", "e4": "7", "f4": "5"}


def test_a_line_with_no_other_pile_turns_nothing():
    state = setup("d4=5", hand=9)
    state.apply(stack("d4"))  # no other pile in row 4 or column d
    assert faces(state) == {"d4": "9"}
    state = setup("d4=5 e4=6", hand=1)
    state.apply(place("d5"))  # row 5 is empty; column d holds d4 (5, face up): 1 is lower
    assert faces(state) == {"d4": "5*", "e4": "6", "d5": "1"}


def test_the_column_is_checked_as_well_and_independently():
    # Row 4: 9 is highest (c4 and d4 turn down). Column e: 9 is between 2 and 10 (nothing).
    state = setup("c4=1 d4=4 e3=2 e5=10", hand=9)
    state.apply(place("e4"))
    assert faces(state) == {"c4": "1*", "d4": "4*", "e3": "2", "e5": "10", "e4": "9"}
    # Both lines fire: 10 is highest in row 4 and in column e.
    state = setup("c4=1 d4=4 e3=2 e5=3", hand=10)
    state.apply(place("e4"))
    assert faces(state) == {"c4": "1*", "d4": "4*", "e3": "2*", "e5": "3*", "e4": "10"}


def test_the_placed_card_never_turns_itself_over():
    state = setup("c4=1 d4=4 e3=2 e5=3", hand=10)
    state.apply(place("e4"))
    assert state.up >> cell("e4") & 1


def test_stacking_compares_the_new_top_and_the_covered_card_no_longer_counts():
    state = setup("c4=5 d4=8", hand=6)
    state.apply(stack("d4"))  # row 4: 6 against c4's 5 (the covered 8 is gone): higher
    assert faces(state) == {"c4": "5*", "d4": "6"}
    assert state.view(0)["piles"]["d4"]["cards"][0].startswith("8")


def test_stacking_on_a_face_down_top_shows_the_new_card():
    state = setup("c4=5 d4=8* e4=2", hand=3)
    state.apply(stack("d4"))  # 3 is between 2 and 5: quiet; the pile's new top is up
    assert faces(state) == {"c4": "5", "d4": "3", "e4": "2"}


# ----------------------------------------------------------------------------- the seed's reading
def test_seed_reading_a_firing_line_turns_the_placed_card_too():
    state = setup("c4=3 d4=5 e4=7", hand=9, flip="seed")
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3*", "d4": "5*", "e4": "7*", "f4": "9*"}


def test_seed_reading_both_lines_firing_turn_the_card_twice():
    state = setup("c4=1 d4=4 e3=2 e5=3", hand=10, flip="seed")
    state.apply(place("e4"))
    assert faces(state) == {"c4": "1*", "d4": "4*", "e3": "2*", "e5": "3*", "e4": "10"}


def test_seed_reading_a_face_down_row_is_turned_up_and_the_card_stays_up():
    state = setup("c4=3* d4=5* e4=7*", hand=9, flip="seed")
    state.apply(place("f4"))
    assert faces(state) == {"c4": "3", "d4": "5", "e4": "7", "f4": "9"}


def test_seed_reading_a_lone_card_does_not_turn_itself():
    state = setup("d4=5", hand=9, flip="seed")
    state.apply(stack("d4"))
    assert faces(state) == {"d4": "9"}


def test_the_two_readings_differ_in_play():
    designer = simulate("foursquare", 60, 0, ["rule"])
    seed = simulate("foursquare", 60, 0, ["rule"], {"flip": "seed"})
    assert seed["win_rate"][0] > designer["win_rate"][0] + 0.15


# ----------------------------------------------------------------------------- winning and losing
FULL_GRID = ("c3=1 d3=10 e3=2* f3=3 c4=10 d4=1 e4=3 f4=2 c5=4 d5=5 e5=1 f5=10 "
             "c6=5 d6=4 e6=10 f6=1")  # every row and column holds a face-up ace and ten


def test_sixteen_face_up_piles_win_and_the_score_is_the_stock():
    state = setup(FULL_GRID, hand=6)
    assert state.face_down() == 1 and not state.is_over
    state.apply(stack("e3"))  # 6 is between ace and ten in row 3 and column e: quiet
    assert state.outcome is not None
    assert state.outcome.placing == (1,)
    assert state.outcome.points == (40.0 - 17,)  # 17 cards placed, 23 left in the stock
    view = state.view(0)
    assert view["result"] == "won" and view["score"] == 23 and view["stock"] == 23
    assert view["card"] is None and view["legal"] == [] and state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply(stack("e3"))


def test_sixteen_piles_with_a_face_down_top_do_not_win():
    state = setup(FULL_GRID, hand=6)
    state.apply(stack("c3"))  # quiet, but e3 is still face down
    assert state.outcome is None and state.face_down() == 1


def test_the_win_is_checked_before_the_stock_runs_out():
    # The same winning placement with the fortieth card: a win scoring 0, not a loss.
    state = setup(FULL_GRID, hand=6, extra=23)
    assert state.placed == 39 and state.stock == 0
    state.apply(stack("e3"))
    assert state.outcome is not None and state.outcome.placing == (1,)
    assert state.outcome.points == (0.0,)
    assert state.view(0)["reason"] == "all sixteen piles show their faces"


def test_the_stock_running_out_loses():
    state = setup(FULL_GRID, hand=6, extra=23)
    state.apply(stack("c3"))  # the last card, and e3 is still face down
    assert state.outcome is not None and state.outcome.placing == (2,)
    assert state.outcome.points == (0.0,)
    assert state.view(0)["reason"] == "the stock ran out"
    assert state.view(0)["result"] == "lost"


def test_more_than_four_face_down_tops_after_a_placement_lose():
    # Row 3 is all face down (four); 9 in row 4 turns c4 and d4 down (six), while column e
    # (all face down) turns e3 up: five face-down tops, one more than allowed.
    state = setup("c3=1* d3=1* e3=1* f3=1* c4=5 d4=6", hand=9)
    state.apply(place("e4"))
    assert state.face_down() == 5
    assert state.outcome is not None and state.outcome.placing == (2,)
    assert state.view(0)["reason"] == f"more than {MAX_DOWN} face-down tops"


def test_four_face_down_tops_are_allowed():
    state = setup("c3=1* d3=1* e3=1* f3=1* c4=5", hand=5)
    state.apply(place("c5"))  # column c: 5 ties c4 (face up): nothing; four stay down
    assert state.face_down() == 4 and state.outcome is None


# ----------------------------------------------------------------------------- notation
def test_notation_round_trips_and_bad_text_is_explained():
    for a in range(NUM_ACTIONS):
        assert GAME.parse_action(GAME.action_text(a)) == a
    assert GAME.action_text(place("b3")) == "place at b3"
    assert GAME.action_text(stack("c2")) == "stack on c2"
    assert GAME.parse_action("Place B3") == place("b3")
    assert GAME.parse_action(" stack   C2 ") == stack("c2")
    with pytest.raises(NotationError, match="expected 'place at c3'"):
        GAME.parse_action("put 7 on b3")
    with pytest.raises(NotationError, match="a column a-g and a row 1-7"):
        GAME.parse_action("place at h9")
    with pytest.raises(NotationError):
        GAME.action_text(NUM_ACTIONS)


def test_illegal_actions_name_the_rule_and_change_nothing():
    state = setup("d4=5 e4=6", hand=3)
    before = json.dumps(state.view(0))
    for action, reason in [(place("a1"), "not next to a pile"),
                           (stack("a1"), "no pile at a1"),
                           (NUM_ACTIONS, "unknown action"),
                           ("d5", "whole number"),
                           (-1, "unknown action")]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    with pytest.raises(IllegalAction, match="no seat 1"):
        state.apply(place("d5"), seat=1)
    assert json.dumps(state.view(0)) == before


def test_bad_options_are_refused_clearly():
    with pytest.raises(OptionError, match="one of designer, seed"):
        GAME.new(1, flip="sideways")
    assert GAME.new(1, flip="seed").options == {"flip": "seed"}


# ----------------------------------------------------------------------------- views
def test_the_view_shows_every_card_seen_and_hides_only_the_stock_order():
    state = GAME.new(8)
    rng = random.Random(8)
    for _ in range(6):
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    shown = [c for p in view["piles"].values() for c in p["cards"]]
    assert sorted(shown) == sorted(card_text(c) for c in state.deal()[:6])
    assert view["card"] == card_text(state.deal()[6])
    assert view["stock"] == 33
    text = json.dumps(view)
    for c in state.deal()[7:]:
        assert f'"{card_text(c)}"' not in text
    assert state.view(None)["piles"] == view["piles"] and state.view(None)["legal"] == []


def test_determinize_reshuffles_only_the_stock_below_the_card_in_hand():
    state = GAME.new(12)
    rng = random.Random(1)
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    det = state.determinize(0, random.Random(2))
    assert det.deal()[:6] == state.deal()[:6]
    assert sorted(det.deal()) == sorted(state.deal())
    assert det.deal() != state.deal()
    assert det.view(0) == state.view(0)
    check_step(state, rng, deep=True)


def test_determinize_depends_only_on_what_the_player_knows():
    a = GAME.new(12)
    assert isinstance(a, FoursquareState)
    b = a.with_deal(a.deal()[:2] + tuple(reversed(a.deal()[2:])))  # same cards seen
    for s in (a, b):
        s.apply(place("d4"))
    assert b.view(0) == a.view(0) and b.deal() != a.deal()
    assert a.determinize(0, random.Random(5)).deal() == b.determinize(0, random.Random(5)).deal()


# ----------------------------------------------------------------------------- properties
def game_invariants(state: FoursquareState) -> None:
    """All 40 cards accounted for, no pile over four, the box within 4 x 4, at most four
    face-down tops while the game goes on, and the masks agree with the piles."""
    piles = state.piles()
    on_table = [c for cards in piles.values() for c in cards]
    assert len(on_table) == state.placed
    assert sorted(on_table + list(state.deal()[state.placed:])) == list(DECK)
    assert set(piles) == set(bits(state.occ))
    for c, cards in piles.items():
        assert 1 <= len(cards) <= HEIGHT
        assert state.height(c) == len(cards)
        assert state.vals >> (4 * c) & 15 == VALUE[cards[-1]]
    assert state.up & ~state.occ == 0
    rows, cols = used_lines(state.occ)
    for lines in (rows, cols):
        assert lines.bit_length() - (lines & -lines).bit_length() < 4
    assert state.occ >> CENTRE & 1 or state.placed == 0
    view = state.view(0)
    assert view["stock"] + state.placed + (view["card"] is not None) == 40
    if not state.is_over:
        assert state.face_down() <= MAX_DOWN
        assert view["card"] is not None
    else:
        won = state.outcome.placing == (1,)
        assert won == (state.occ.bit_count() == 16 and state.face_down() == 0)
        assert state.outcome.points == ((40.0 - state.placed,) if won else (0.0,))


@pytest.mark.parametrize("games", soak(60, 1000))
def test_random_games_keep_every_invariant(games):
    # ``games`` with each reading of a flip, twice that with the first (3,000 in all under
    # make test-long)
    states = check_random_games("foursquare", 2 * games, seed=1, invariant=game_invariants,
                                replay_every=20)
    states += check_random_games("foursquare", games, seed=2, invariant=game_invariants,
                                 replay_every=20, flip="seed")
    assert len(states) == 3 * games
    assert all(s.outcome is not None for s in states)
    reasons = {s.view(0)["reason"] for s in states}
    assert f"more than {MAX_DOWN} face-down tops" in reasons


def test_a_position_round_trips_at_every_placement_of_random_games():
    rng = random.Random(3)
    for seed in range(6):
        state = GAME.new(seed, flip="seed" if seed % 2 else "designer")
        while state.to_act:
            text = state.position_text()
            built = GAME.from_position(text, 0, **state.options)
            assert built.position_text() == text
            assert built.legal_actions() == state.legal_actions()
            view, again = state.view(0), built.view(0)
            for key in ("piles", "box", "card", "stock", "placed", "face_down", "legal"):
                assert again[key] == view[key], key
            action = rng.choice(state.legal_actions())
            assert snap(built, action) == snap(state, action)  # the same flips follow
            state.apply(action)
        with pytest.raises(ValueError, match="game is over"):
            state.position_text()


def snap(state: FoursquareState, action: int) -> tuple:
    after = state.clone()
    after.apply(action)
    return after.occ, after.up, after.vals, after.outcome


def test_upcoming_cards_reorder_only_the_hand_and_stock():
    state = GAME.new(2)
    state.apply(state.legal_actions()[0])
    order = tuple(reversed(state.deal()[state.placed:]))
    other = state.with_upcoming(order)
    assert other.deal()[state.placed:] == order and other.view(0)["piles"] == \
        state.view(0)["piles"] and state.deal()[state.placed:] != order
    with pytest.raises(ValueError, match="same cards"):
        state.with_upcoming(order[1:])


@pytest.mark.parametrize(("text", "error"), [
    ("hand: 5S", "needs its piles"),
    ("piles: d4=7H", "needs its hand"),
    ("piles: d4=7H; hand: 5S 6S", "one card"),
    ("piles: d4=7H; hand: KS", "not in the Foursquare deck"),
    ("piles: d4=7H; hand: 7H", "used twice"),
    ("piles: d4=7H, d4=8H; hand: 5S", "named twice"),
    ("piles: d4 7H; hand: 5S", "not a pile"),
    ("piles: d4=7H 2H 3H 4H 5H; hand: 5S", "1 to 4 cards"),
    ("piles: a4=7H, e4=8H; hand: 5S", "at most 4 x 4"),
    ("piles: c4=2H*, d4=3H*, e4=4H*, f4=5H*, d5=6H*; hand: 5S", "face-down tops"),
    ("piles: d4=7H; hand: 5S; turn: 1", "not a position field"),
    ("piles: z9=7H; hand: 5S", "not a cell"),
])
def test_a_bad_position_is_refused_with_its_reason(text, error):
    with pytest.raises(ValueError, match=error):
        GAME.from_position(text)


def test_deep_contract_checks_on_random_games():
    check_random_games("foursquare", 20, seed=7, deep_every=3, invariant=game_invariants,
                       replay_every=1)
    check_random_games("foursquare", 10, seed=8, deep_every=3, invariant=game_invariants,
                       replay_every=1, flip="seed")


def test_determinize_keeps_the_state_whole():
    check_determinized_games("foursquare", 4, seed=12, invariant=game_invariants)


def test_records_replay_a_won_game():
    state = play_solver(seed=4)
    text = record_text(state, ["solver"])
    assert '[Game "foursquare"]' in text and "place at d4" in text
    again = replay(parse_record(text))
    assert again.view(0) == state.view(0) and again.outcome == state.outcome


# ----------------------------------------------------------------------------- bots
def play_solver(seed: int, level: str = "normal") -> FoursquareState:
    from parlour.arena import play_game

    state = play_game(GAME, seed, [f"solver:{level}"])
    assert isinstance(state, FoursquareState)
    return state


def test_the_solver_wins_a_deal_and_reads_only_its_observation():
    state = play_solver(seed=4)
    assert state.outcome is not None and state.outcome.placing == (1,)
    # It decides from the view alone: the same view with another stock order behind it
    # gets the same answer.
    probe = GAME.new(21)
    rng = random.Random(0)
    for _ in range(5):
        probe.apply(rng.choice(probe.legal_actions()))
    other = probe.determinize(0, random.Random(3))
    bot = make_bot(GAME, "solver", 0, 1)
    assert isinstance(bot, FoursquareSolverBot)
    assert not bot.needs_sample
    a = bot.act(observe(probe, 0, rng))
    b = bot.act(observe(other, 0, rng))
    assert a == b


def test_the_solver_takes_a_win_and_knows_it_is_certain():
    state = setup(FULL_GRID, hand=6)
    bot = make_bot(GAME, "solver", 0, 1)
    assert isinstance(bot, FoursquareSolverBot)
    choice = bot.analyse(observe(state, 0, random.Random(0)))
    assert choice.action == stack("e3") and choice.chance == 1.0
    # stacking elsewhere wins with the next card whatever it is: as certain, but later
    assert choice.chances[stack("c6")] == 1.0
    assert choice.values[stack("c6")] < choice.values[stack("e3")]


def test_the_solver_avoids_a_placement_that_loses_at_once():
    state = setup("c3=1* d3=1* e3=1* f3=1* c4=5 d4=6", hand=9)
    bot = make_bot(GAME, "solver", 0, 1)
    for level in ("fast", "normal"):
        bot = make_bot(GAME, f"solver:{level}", 0, 1)
        action = bot.act(observe(state, 0, random.Random(0)))
        after = state.clone()
        after.apply(action)
        assert after.outcome is None, GAME.action_text(action)


def exact_chance(state: FoursquareState) -> float:
    """The chance to win with perfect play against a random stock, by brute force: the
    best placement of the card in hand, each judged by :func:`exact_after`."""
    if state.outcome:
        return 1.0 if state.outcome.placing == (1,) else 0.0
    best = 0.0
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        best = max(best, exact_after(after))
    return best


def exact_after(state: FoursquareState) -> float:
    """After a placement: the mean over the cards the stock may turn up next."""
    if state.outcome:
        return 1.0 if state.outcome.placing == (1,) else 0.0
    stock = state.deal()[state.placed:]
    total = 0.0
    for i in range(len(stock)):
        order = list(stock)
        order[0], order[i] = order[i], order[0]
        turned = state.with_upcoming(tuple(order))
        total += exact_chance(turned)
    return total / len(stock)


@pytest.mark.parametrize(("level", "stock"), [("normal", 2), ("strong", 3)])
def test_the_solver_plays_the_end_of_the_stock_exactly(level, stock):
    # Two face-down tops (c3, e3) and a few cards to come: the solver sees to the end.
    state = setup(FULL_GRID.replace("c3=1", "c3=1*"), hand=6, extra=23 - stock)
    assert state.stock == stock
    bot = make_bot(GAME, f"solver:{level}", 0, 1)
    assert isinstance(bot, FoursquareSolverBot)
    choice = bot.analyse(observe(state, 0, random.Random(0)))
    assert bot.search.reached == stock
    assert choice.chance == pytest.approx(exact_chance(state))
    for a, chance in choice.chances.items():
        probe = state.clone()
        probe.apply(a)
        assert chance == pytest.approx(exact_after(probe)), GAME.action_text(a)
    if stock == 3:  # chances, not only sure wins and losses
        assert any(0 < c < 1 for c in choice.chances.values())


def test_solver_levels():
    with pytest.raises(OptionError, match="choose from fast, normal, strong"):
        make_bot(GAME, "solver:perfect", 0, 1)
    state = setup("c4=3 d4=5 e4=7", hand=9)
    strong = make_bot(GAME, "solver:strong", 0, 1)
    action = strong.act(observe(state, 0, random.Random(0)))
    assert action in state.legal_actions()


def test_the_rule_bot_prefers_a_win_then_the_fewest_face_down_tops():
    assert rule_choice(position_from_view(setup(FULL_GRID, hand=6).view(0))) == stack("e3")
    state = setup("c4=3 d4=5 e4=7", hand=5)
    choice = rule_choice(position_from_view(state.view(0)))
    after = state.clone()
    after.apply(choice)
    # a 5 beside d4 (a tie in column d) or on it (between 3 and 7) turns nothing over; the
    # rule bot prefers the new pile
    assert after.face_down() == 0 and choice in (place("d3"), place("d5"))


def test_position_from_view_rebuilds_the_board():
    state = setup("c4=3,9 d4=5* e4=7,1,2,4", hand=9)
    pos = position_from_view(state.view(0))
    assert pos.board == (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
    assert pos.card == 9 and pos.placed == state.placed
    assert sum(pos.left) == 40 - state.placed - 1
    assert pos.left[9] == 2  # one 9 on the table, one in hand


def test_the_clairvoyant_must_be_shown_the_stock():
    with pytest.raises(OptionError, match="must be shown the stock order"):
        make_bot(GAME, "clairvoyant", 0, 1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_proven_win_comes_with_a_line_that_replays_to_a_win(seed):
    order = deal_order(seed)
    result = clairvoyant_search(order, budget=50_000)
    assert result.status == WON
    state = GAME.new(seed)
    for action in result.line:
        state.apply(action)
    assert state.outcome is not None and state.outcome.placing == (1,)
    assert len(result.line) == state.placed


def test_the_clairvoyant_bot_plays_its_line():
    state = GAME.new(9)
    bot = make_bot(GAME, "clairvoyant", 0, 1, deal=state.deal())
    assert isinstance(bot, ClairvoyantBot)
    rng = random.Random(0)
    while state.to_act:
        state.apply(bot.act(observe(state, 0, rng)))
    assert bot.result is not None and bot.result.status == WON
    assert state.outcome is not None and state.outcome.placing == (1,)


def test_the_clairvoyant_proves_a_lost_position_and_stops_at_its_budget():
    # One card left, and e3 is face down: no placement of a 6 on the grid wins, and
    # every line has been tried.
    state = setup(FULL_GRID.replace("c3=1", "c3=1*"), hand=6, extra=23)
    board = (state.occ, state.g2, state.g3, state.full, state.up, state.vals)
    result = clairvoyant_search(state.deal(), board, state.placed, budget=1000)
    assert result.status == LOST and result.line == []
    # With cards to spare it wins, or runs out of budget when it may examine one board.
    result = clairvoyant_search(deal_order(5), budget=1)
    assert result.status == UNDECIDED


# ----------------------------------------------------------------------------- analysis, play
def test_the_analysis_counts_bounds_and_draws_them(tmp_path):
    from parlour.analysis import analysis_for
    from parlour.games.foursquare.analysis import analyse, draw, report

    summary = analyse(games=3, seed=0, bots=["random", "rule"], budget=20_000)
    clair = summary["clairvoyant"]
    assert clair["winnable"] + clair["unwinnable"] + clair["undecided"] == 3
    assert clair["lower"] <= clair["upper"]
    for b in summary["bots"].values():
        assert b["wins_not_proven_winnable"] == 0 or clair["undecided"]
        lo, hi = b["win_interval"]
        assert lo <= b["win_rate"] <= hi
    assert summary["target"] is None  # no solver compared
    # the deals are simulate's: the rule bot wins the same games there
    sim = simulate("foursquare", 3, 0, ["rule"])
    assert sim["wins"][0] == summary["bots"]["rule"]["wins"]
    out = io.StringIO()
    report(summary, Console(file=out, width=120))
    text = out.getvalue()
    assert "clairvoyant: proven winnable" in text and "rule" in text
    assert f"{clair['winnable']} proven winnable" in text
    path = tmp_path / "w.png"
    draw(summary, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(OptionError, match="no analysis of Spades"):
        analysis_for("spades")


def test_analyse_command_prints_json(capsys):
    from parlour.cli import main

    assert main(["analyse", "foursquare", "--games", "2", "--bots", "rule,solver",
                 "--budget", "5000", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 2 and set(summary["bots"]) == {"rule", "solver"}
    assert summary["target"]["bot"] == "solver"


def test_the_clairvoyant_is_no_opponent_at_the_command_line(capsys):
    from parlour.cli import main

    assert main(["simulate", "foursquare", "--bots", "clairvoyant", "--games", "1"]) == 2
    assert "must be shown the stock order" in capsys.readouterr().err
    assert main(["analyse", "spades", "--games", "1"]) == 2
    assert "no analysis of Spades" in capsys.readouterr().err


def test_simulate_reports_wins_and_the_mean_score_of_wins():
    summary = simulate("foursquare", 4, 0, ["solver"])
    wins = summary["wins"][0]
    assert summary["draws"] == 0 and wins >= 3
    assert summary["mean_points_of_wins"][0] == pytest.approx(
        summary["mean_points"][0] * 4 / wins, abs=0.01)
    assert summary["win_interval"][0][0] <= summary["win_rate"][0]


def test_terminal_play_with_a_hint(tmp_path):
    from parlour.terminal import play

    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    lines = iter(["d4", "?", "zz", "place at a1", "help", "e4", "q"])
    state = play("foursquare", seed=5, console=console, read_line=lambda _: next(lines),
                 record_dir=tmp_path)
    text = out.getvalue()
    assert "deal number 5" in text and "In hand:" in text
    assert "Hint: " in text and "estimated chance to win" in text
    assert "not a cell" in text and "not next to a pile" in text
    assert "Legal now:" in text
    assert state.placed == 2 and state.history[0] == (0, CENTRE)
    assert (tmp_path / f"foursquare-{state.seed}.txt").exists()


def test_terminal_board_shows_coordinates_and_marks_placements():
    from parlour.games.foursquare.terminal import UI

    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=False)
    ui = UI(GAME, console, 0, 1)
    state = setup("d4=5* e4=7,2", hand=3)
    console.print(ui.grid(state.view(0)))
    text = out.getvalue()
    header = text.splitlines()[0].split()
    assert header == ["c", "d", "e", "f"]
    assert "(5♠)" in text or "(5" in text  # face-down tops in brackets
    assert text.count("+") == len([a for a in state.legal_actions() if a < STACK])
    assert ui.parse(state, "e4") == stack("e4") and ui.parse(state, "d5") == place("d5")


def test_bench_has_a_foursquare_workload():
    from bench_kit import load_bench

    module = load_bench("engine")
    unit, work, peers = module.WORKLOADS["foursquare"]
    assert unit == "games/s" and peers == {}
    assert work(0.05) > 0


def test_frame_is_seven_by_seven_with_the_first_card_in_the_middle():
    assert FRAME == 7 and cell_name(0) == "a1" and cell_name(48) == "g7"
    assert parse_cell("D4") == CENTRE


# ----------------------------------------------------------------------------- explanations
def foursquare_explains(state: FoursquareState, seat: int, action: int, message: str) -> None:
    """A refused placement names the true reason, from the board's masks."""
    where = action % STACK
    name = cell_name(where)
    occupied = state.occ >> where & 1
    if not state.occ:
        assert action != CENTRE and message == "the first card starts the grid at d4"
    elif action >= STACK and not occupied:
        assert message == f"there is no pile at {name} to stack on"
    elif action >= STACK:
        assert state.height(where) == HEIGHT
        assert message == f"the pile at {name} already holds {HEIGHT} cards"
    elif occupied:
        assert message == f"there is already a pile at {name}: stack on it instead"
    else:
        row, col = divmod(where, FRAME)
        beside = [(row + dr) * FRAME + col + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= row + dr < FRAME and 0 <= col + dc < FRAME]
        if not any(state.occ >> c & 1 for c in beside):
            assert message.startswith(f"{name} is not next to a pile")
            return
        rows, cols = used_lines(state.occ | 1 << where)
        tall = rows.bit_length() - (rows & -rows).bit_length() + 1
        wide = cols.bit_length() - (cols & -cols).bit_length() + 1
        if tall > 4:
            assert message == f"a new pile at {name} would make the grid more than 4 rows tall"
        else:
            assert wide > 4
            assert message == (f"a new pile at {name} would make the grid more than 4 "
                               f"columns wide")


def test_every_refused_action_is_explained_by_the_rule_that_refuses_it():
    checked = check_explanations_games("foursquare", 6, foursquare_explains, seed=6)
    assert checked > 5000
