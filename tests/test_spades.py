"""Spades: every paragraph of the seed, every decision of full-rules/en.md, properties."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from contract import (
    check_determinized_games,
    check_explanations_games,
    check_random_games,
    check_step,
)
from hypothesis.stateful import invariant
from soak import soak
from stateful import RandomPlay, run_machine

from parlour.cards import card_text, cards_of, is_spade, mask_of, parse_card, parse_cards, suit_of
from parlour.engine import IllegalAction, NotationError, OptionError
from parlour.games import get_game
from parlour.games.spades.rules import (
    BID_BASE,
    BLIND_NIL,
    LOOK,
    NIL,
    SpadesState,
    deal_hands,
    score_team,
)
from parlour.i18n import localize

GAME = get_game("spades")
DEFAULTS = GAME.resolve_options()


def bid(n: int) -> int:
    return NIL if n == 0 else BID_BASE + n


def with_hands(hands: list[str], scores: tuple[int, int] = (0, 0), **options: object
               ) -> SpadesState:
    """A new match whose first deal has the given hands (13 cards each), from its position
    text (``GAME.from_position``)."""
    state = GAME.from_position(f"hands: {' | '.join(hands)}; scores: {scores[0]}, {scores[1]}",
                               1, **options)
    assert isinstance(state, SpadesState)
    return state


# Four hands, one suit each: South spades, West hearts, North diamonds, East clubs.
ONE_SUIT = [
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C",
]
MIXED = [
    "AS 2S AH 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C",
    "KS 3S KH 6H 7H 8H 5D 6D 7D 6C 7C 8C 9C",
    "QS 4S QH 9H 10H 2H 8D 9D 10D 10C JC QC KC",
    "JS 5S 6S 7S 8S 9S 10S JH JD QD KD AD AC",
]

VOIDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 2S",
    "10C JC QC KC AC 6H 7H 8H 9H 10H 2D 3D 3S",
    "JH QH KH AH 4D 5D 6D 7D 8D 9D 10D JD 4S",
    "QD KD AD 5S 6S 7S 8S 9S 10S JS QS KS AS",
]


def bid_all(state: SpadesState, bids: list[int]) -> None:
    for n in bids:
        state.apply(bid(n))


def play(state: SpadesState, cards: str) -> None:
    for c in cards.split():
        state.apply(parse_card(c))


# ----------------------------------------------------------------------------- the deal
def test_four_seats_thirteen_cards_each_and_dealer_rotates():
    state = GAME.new(5)
    assert state.num_seats == 4
    assert sorted(h.bit_count() for h in state.hands) == [13] * 4
    assert mask_of(range(52)) == state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    assert state.dealer == 3 and state.to_act == (0,)  # left of the dealer bids first


class DealerTurns(RandomPlay):
    """Random matches, checked as each deal's bidding and play begin: the dealer moves one
    seat each deal, and the player left of the dealer bids first and leads."""

    game_id = "spades"
    starts: Counter[str]

    @invariant()
    def left_of_the_dealer_bids_and_leads(self) -> None:
        state = self.state
        if not state.to_act or sum(state.tricks) or state.view(None)["trick"]:
            return
        first = (state.dealer + 1) % 4
        if state.bids == [None] * 4:
            assert state.dealer == (3 + state.deal - 1) % 4
            assert state.to_act == (first,)
            self.starts["bidding"] += 1
        elif None not in state.bids:
            assert state.to_act == (first,)  # the same player leads
            self.starts["play"] += 1


@pytest.mark.parametrize("matches", soak(3, 30))
def test_dealer_moves_one_seat_each_deal_and_left_of_dealer_bids_and_leads(matches,
                                                                           monkeypatch):
    starts: Counter[str] = Counter()
    monkeypatch.setattr(DealerTurns, "starts", starts, raising=False)
    run_machine(DealerTurns, matches, steps=230)  # four deals of 56 actions
    assert starts["bidding"] >= 4 * matches and starts["play"] >= 4 * matches


def test_deals_come_from_the_seed():
    assert deal_hands(9, 1) == deal_hands(9, 1)
    assert deal_hands(9, 1) != deal_hands(9, 2)
    assert deal_hands(9, 1) != deal_hands(10, 1)
    assert GAME.new(9).hands == GAME.new(9).hands


# ----------------------------------------------------------------------------- bidding
def test_bids_are_nil_or_one_to_thirteen():
    state = GAME.new(1)
    assert list(state.legal_actions()) == [NIL, *[BID_BASE + n for n in range(1, 14)]]
    with pytest.raises(IllegalAction, match="bidding is not over"):
        state.apply(state.hand(0)[0])
    with pytest.raises(IllegalAction, match="blind nil is not played"):
        state.apply(BLIND_NIL)


def test_partners_sit_opposite():
    view = GAME.new(1).view(0)
    assert view["teams"] == [[0, 2], [1, 3]]


# ----------------------------------------------------------------------------- following suit
def test_must_follow_suit_if_possible():
    state = with_hands(MIXED)
    bid_all(state, [3, 3, 3, 3])
    play(state, "2D")  # South leads diamonds
    assert set(state.legal_actions()) == set(parse_cards("5D 6D 7D"))
    with pytest.raises(IllegalAction, match="must follow diamonds"):
        state.apply(parse_card("KH"))


def test_a_player_who_cannot_follow_may_play_any_card():
    state = with_hands(ONE_SUIT)
    bid_all(state, [13, 1, 1, 1])
    # South holds only spades, so may lead one although spades are not broken.
    assert set(state.legal_actions()) == set(parse_cards(ONE_SUIT[0]))
    play(state, "2S")
    assert set(state.legal_actions()) == set(parse_cards(ONE_SUIT[1]))


# ----------------------------------------------------------------------------- trumps
def test_highest_spade_wins_the_trick():
    state = with_hands(MIXED)
    bid_all(state, [3, 3, 3, 3])
    play(state, "2C 6C 10C AC")  # East wins with the ace of clubs
    assert state.tricks == [0, 0, 0, 1] and state.to_act == (3,)
    play(state, "JH 3H KH QH")  # West wins with the king of hearts
    assert state.tricks == [0, 1, 0, 1] and state.to_act == (1,)  # the winner leads


def test_trick_won_by_highest_spade_or_highest_of_suit_led():
    state = with_hands(VOIDS)
    bid_all(state, [1, 4, 4, 4])
    play(state, "2C AC 4D 5S")  # East, void in clubs, trumps
    assert state.tricks == [0, 0, 0, 1]
    assert state.view(0)["spades_broken"] is True
    play(state, "QD 2H 2D 5D")  # no spade: the highest diamond (East's queen) wins
    assert state.tricks == [0, 0, 0, 2] and state.to_act == (3,)
    play(state, "6S 2S 3S 4S")  # spades led: the highest spade wins
    assert state.tricks == [0, 0, 0, 3]
    play(state, "AD 3C 3D 6D")  # South discards: the ace of diamonds wins
    assert state.tricks == [0, 0, 0, 4]
    play(state, "KD 4C 10C 7D")  # South and West discard clubs; the king of diamonds wins
    assert state.tricks == [0, 0, 0, 5] and state.to_act == (3,)


# ----------------------------------------------------------------------------- breaking spades
def test_spades_may_not_be_led_until_broken():
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AS",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD KS",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH QS",
        "AC AD AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS",
    ]
    state = with_hands(hands)
    bid_all(state, [1, 1, 1, 4])
    with pytest.raises(IllegalAction, match="spades not broken"):
        state.apply(parse_card("AS"))
    assert parse_card("AS") not in state.legal_actions()
    play(state, "2C 2D 2H AC")  # nobody could trump: spades still unbroken
    assert state.to_act == (3,)
    assert not state.view(3)["spades_broken"]
    assert not any(c >= 39 for c in state.legal_actions())
    play(state, "AD 3C 3D 3H")
    play(state, "AH 4C 4D 4H")
    # East holds only spades now and may lead one; that breaks spades.
    assert all(c >= 39 for c in state.legal_actions())
    play(state, "2S AS KS QS")  # everyone follows with their one spade; South's ace wins
    assert state.view(0)["spades_broken"] and state.tricks[0] == 1


def test_a_spade_played_on_another_suit_breaks_spades():
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AS",
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH KS",
        "AD AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
    ]
    state = with_hands(hands)
    bid_all(state, [1, 1, 1, 4])
    play(state, "2C")
    play(state, "AS")  # West cannot follow clubs and trumps
    assert state.view(0)["spades_broken"]  # the view counts a spade in the open trick
    play(state, "2H 2S")
    assert state.tricks[1] == 1 and state.to_act == (1,)
    assert parse_card("2D") in state.legal_actions()
    play(state, "2D 3H AD 3C")  # West leads; North and South discard; East wins
    assert state.to_act == (3,)
    assert any(c >= 39 for c in state.legal_actions())  # broken: East may lead a spade


# ----------------------------------------------------------------------------- scoring
def team(bids, tricks, score=0, bags=0, blind=(False, False), **options):
    return score_team(tuple(bids), tuple(blind), tuple(tricks), score, bags,
                      DEFAULTS | options)


def test_made_bid_scores_ten_per_trick_plus_one_per_overtrick():
    r = team((3, 2), (3, 3))
    assert r["points"] == 51 and r["bags"] == 1


def test_seed_worked_example_seven_tricks():
    r = team((3, 2), (4, 3), score=337, bags=7)
    assert (r["points"], r["score"], r["bags"]) == (52, 389, 9)


def test_seed_worked_example_eight_tricks():
    r = team((3, 2), (4, 4), score=337, bags=7)
    assert (r["points"], r["score"], r["bags"]) == (-47, 290, 0)


def test_seed_worked_example_nine_tricks():
    r = team((3, 2), (5, 4), score=337, bags=7)
    assert (r["points"], r["score"], r["bags"]) == (-46, 291, 1)


def test_failing_the_bid_loses_ten_per_trick_bid():
    r = team((4, 3), (3, 3), score=100, bags=4)
    assert (r["points"], r["score"], r["bags"]) == (-70, 30, 4)


def test_twenty_overtricks_have_cost_two_hundred():
    total, bags, score = 0, 0, 0
    for _ in range(4):  # four deals of five overtricks each
        r = team((1, 1), (4, 3), score=score, bags=bags)
        score, bags = r["score"], r["bags"]
        total += r["penalty"]
    assert total == 200 and bags == 0


def test_passing_twenty_bags_in_one_deal_costs_two_hundred():
    r = team((1, 1), (7, 6), score=0, bags=9)  # 9 carried + 11 overtricks = 20 bags
    assert r["penalty"] == 200 and r["bags"] == 0 and r["points"] == 20 + 11 - 200


def test_option_bag_limit_and_penalty():
    r = team((1, 1), (4, 3), score=0, bags=0, bag_limit=5, bag_penalty=50)
    assert r["penalty"] == 50 and r["bags"] == 0


def test_made_nil_adds_one_hundred_to_the_partners_score():
    r = team((0, 4), (0, 5))
    assert r["points"] == 100 + 41 and r["nil"] == 100


def test_failed_nil_loses_one_hundred_but_keeps_the_partners_score():
    r = team((0, 4), (2, 4))
    # -100 for the nil, +40 for the contract, +2 for the nil bidder's tricks as bags
    assert r["points"] == -100 + 40 + 2 and r["bags"] == 2


def test_nil_bidders_tricks_do_not_count_toward_the_partners_bid():
    r = team((0, 4), (2, 3))
    assert r["contract"] == -40 and r["bag_points"] == 2 and r["points"] == -100 - 40 + 2


def test_option_nil_tricks_count_for_the_partner():
    r = team((0, 4), (2, 3), nil_tricks_count=True)
    assert r["contract"] == 40 and r["points"] == -100 + 41 and r["bags"] == 1


def test_both_partners_nil():
    assert team((0, 0), (0, 0))["points"] == 200
    r = team((0, 0), (1, 0))
    assert r["points"] == 100 - 100 + 1 and r["bags"] == 1


def test_option_nil_value():
    assert team((0, 3), (0, 3), nil_value=50)["points"] == 80


def test_option_ten_for_two_hundred():
    assert team((6, 4), (6, 5), ten_for_two_hundred=True)["points"] == 201
    assert team((6, 4), (6, 5))["points"] == 101
    assert team((6, 3), (6, 5), ten_for_two_hundred=True)["points"] == 92


def test_blind_nil_scores_two_hundred():
    assert team((0, 3), (0, 3), blind=(True, False))["points"] == 230
    assert team((0, 3), (1, 3), blind=(True, False))["points"] == -200 + 30 + 1


def test_a_whole_deal_scores_both_teams():
    state = with_hands(ONE_SUIT)
    bid_all(state, [13, 0, 0, 1])  # South carries the contract, North and West bid nil
    for _ in range(13):
        state.apply(max(state.legal_actions()))
        for _ in range(3):
            state.apply(min(state.legal_actions()))
    deal = state.deals[0]
    assert deal["tricks"] == [13, 0, 0, 0]
    assert state.scores == [130 + 100, 100 - 10]
    assert deal["bids"] == [13, "nil", "nil", 1]


def test_a_deals_summary_is_the_same_whenever_it_is_read():
    """A finished deal's summary is made when first read: read at each deal's end, or only
    at the match's end, or from a clone made before it was read, it is the same, and it
    holds the scores and bags the match stood at after that deal."""
    def play(seed: int, read_each_deal: bool) -> tuple[SpadesState, list[object]]:
        state = GAME.new(seed, target=200, max_deals=5)
        rng = random.Random(seed)
        clones: list[object] = []
        deal = state.deal
        while state.outcome is None:
            state.apply(rng.choice(state.legal_actions()))
            if state.deal != deal or state.outcome is not None:
                deal = state.deal
                scores, bags = list(state.scores), list(state.bags)
                if read_each_deal:
                    assert state.deals[-1]["scores"] == scores
                    assert state.deals[-1]["bags"] == bags
                    assert [t["score"] for t in state.deals[-1]["teams"]] == scores
                clones.append((state.clone(), scores, bags))
        return state, clones

    for seed in range(6):
        eager, _ = play(seed, True)
        lazy, clones = play(seed, False)
        assert lazy.deals == eager.deals and len(eager.deals) >= 2
        for n, (clone, scores, bags) in enumerate(clones, 1):
            assert clone.deals == eager.deals[:n]
            assert (clone.deals[-1]["scores"], clone.deals[-1]["bags"]) == (scores, bags)


# ----------------------------------------------------------------------------- winning
def finish_deal_with_scores(a: int, b: int, **options: object) -> SpadesState:
    """A match standing at the team scores ``a`` and ``b``, its deal then played out with
    everyone bidding so that the deal scores exactly: South takes all 13 tricks on a 13
    bid, the rest bid nil (North-South +230, East-West +200)."""
    state = with_hands(ONE_SUIT, (a, b), **options)
    for n in (13, 0, 0, 0):
        state.apply(bid(n))
    for _ in range(13):
        state.apply(max(state.legal_actions()))
        for _ in range(3):
            state.apply(min(state.legal_actions()))
    return state


def test_first_team_to_reach_500_wins():
    state = finish_deal_with_scores(400, 0)
    assert state.scores == [630, 200]
    assert state.outcome is not None
    assert state.outcome.placing == (1, 2, 1, 2)
    assert state.outcome.points == (630, 200, 630, 200)
    assert state.to_act == ()
    assert state.view(0)["last_trick"]["deal"] == state.deal == 1  # the final deal's trick


def test_both_teams_over_500_the_higher_wins():
    state = finish_deal_with_scores(300, 350)  # 530 against 550
    assert state.outcome is not None and state.outcome.winners == (1, 3)


def test_equal_scores_over_500_play_another_deal():
    state = finish_deal_with_scores(370, 400)  # 600 and 600
    assert state.scores == [600, 600]
    assert state.outcome is None and state.deal == 2


def test_option_target():
    state = finish_deal_with_scores(0, -300, target=100)
    assert state.outcome is not None and state.outcome.winners == (0, 2)


def test_option_mercy_threshold():
    state = finish_deal_with_scores(-200, -600, mercy=-200)  # 30 against -400
    assert state.outcome is not None and state.outcome.winners == (0, 2)
    state = finish_deal_with_scores(-200, -600)
    assert state.outcome is None


def test_option_max_deals_stops_the_match_and_says_so():
    state = finish_deal_with_scores(0, 30, max_deals=1)  # 230 against 230: a drawn match
    assert state.outcome is not None and state.outcome.is_draw
    told = ("The match stops after 1 deal, the most it may last, without a winner by the "
            "rules: the higher score wins, and equal scores draw.")
    assert localize(state.view(0)["stopped"], "en") == told
    told = localize(state.view(None)["stopped"], "pt_BR")
    assert told.startswith("A partida para depois de 1 mão")
    assert [(s.option, s.round, s.match) for s in state.safety_stops] == [("max_deals", 1, True)]
    # The target reached in the last deal the stop allows: the rules ended the match.
    state = finish_deal_with_scores(400, 0, max_deals=1)
    assert state.outcome is not None and state.view(0)["stopped"] is None
    assert state.safety_stops == ()


# ----------------------------------------------------------------------------- positions
def test_a_position_round_trips_at_every_deal_of_random_matches():
    rng = random.Random(8)
    deals = 0
    for seed in range(4):
        state = GAME.new(seed, target=150, mercy=-150)
        while state.to_act:
            text = state.position_text()
            if not state.history or (state.deals and state.bids == [None] * 4):
                built = GAME.from_position(text, 77, target=150, mercy=-150)
                assert built.position_text() == text
                mine = {**state.view(0), "deals": None, "last_trick": None}
                assert {**built.view(0), "deals": None, "last_trick": None} == mine
                assert built.legal_actions() == state.legal_actions()
                deals += 1
            state.apply(rng.choice(state.legal_actions()))
            if state.to_act and state.bids != [None] * 4:
                assert state.position_text() == text  # a deal's position is its start
    assert deals >= 5


def test_a_position_names_its_fields():
    state = GAME.from_position(f"hands: {' | '.join(ONE_SUIT)}\ndeal: 3; scores: 120, -40;"
                               f" bags: 2, 9", 5)
    assert (state.deal, state.dealer, state.scores, state.bags) == (3, 1, [120, -40], [2, 9])
    assert state.to_act == (2,) and state.hand(0) == sorted(parse_cards(ONE_SUIT[0]))
    assert state.history == [] and state.deals == []


@pytest.mark.parametrize(("text", "error"), [
    ("deal: 1", "needs its hands"),
    ("hands: AS KS", "four hands of 13 cards"),
    ("hands: " + " | ".join(["AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"] * 4), "exactly once"),
    ("hands: ZZ", "not a card"),
    ("hands: x; deal: 0", "not a card"),
    ("scores: 1, 2; bags: 0", "hands"),
    ("hands: x; trumps: hearts", "not a position field"),
])
def test_a_bad_position_is_refused_with_its_reason(text, error):
    with pytest.raises(ValueError, match=error):
        GAME.from_position(text)


def test_a_bad_position_field_is_refused():
    good = f"hands: {' | '.join(ONE_SUIT)}"
    for extra, error in (("deal: 0", "number from 1"), ("scores: 1", "two whole numbers"),
                         ("bags: -1, 0", "two whole numbers"), ("deal: 101", "max_deals"),
                         ("deal: 2; deal: 3", "given twice")):
        with pytest.raises(ValueError, match=error):
            GAME.from_position(f"{good}; {extra}")


# ----------------------------------------------------------------------------- blind nil
def test_blind_nil_offered_only_to_a_team_behind_by_100():
    state = GAME.new(4, blind_nil=True)
    assert LOOK not in state.legal_actions()  # level at the start: no blind nil
    behind = state.position_text().replace("scores: 0, 0", "scores: 0, 150")  # same cards
    state = GAME.from_position(behind, 4, blind_nil=True)
    assert set(state.legal_actions()) == {BLIND_NIL, LOOK}
    assert state.view(0)["hand"] is None and state.view(0)["hand_hidden"]
    with pytest.raises(IllegalAction, match="look at your cards first"):
        state.apply(bid(3))
    state.apply(BLIND_NIL)
    assert state.view(0)["bids"][0] == "blind nil"
    assert state.view(0)["hand"] is not None
    assert set(state.legal_actions()) == {bid(n) for n in range(14)}  # West: not eligible
    state.apply(bid(2))
    assert set(state.legal_actions()) == {BLIND_NIL, LOOK}  # North: partner of South
    state.apply(LOOK)
    with pytest.raises(IllegalAction, match="before looking"):
        state.apply(BLIND_NIL)
    state.apply(bid(4))


# ----------------------------------------------------------------------------- notation & errors
def test_notation_round_trips_and_bad_text_is_explained():
    for a in range(GAME.num_actions):
        assert GAME.parse_action(GAME.action_text(a)) == a
    assert GAME.parse_action("th") == parse_card("10H")
    assert GAME.parse_action(" Bid  4 ") == bid(4)
    assert GAME.parse_action("4") == bid(4)
    with pytest.raises(NotationError, match="expected a card like QS"):
        GAME.parse_action("queen")
    with pytest.raises(NotationError, match="nil or 1 to 13"):
        GAME.parse_action("bid 14")


def test_bad_options_are_refused_clearly():
    with pytest.raises(OptionError, match="no option 'targte'"):
        GAME.new(1, targte=300)
    with pytest.raises(OptionError, match="at least 10"):
        GAME.new(1, target=0)
    with pytest.raises(OptionError, match="true or false"):
        GAME.new(1, blind_nil="perhaps")
    with pytest.raises(OptionError, match="4 seats"):
        GAME.new(1, seats=3)
    assert GAME.new(1, mercy="off").options["mercy"] is None
    assert GAME.new(1, mercy="-200").options["mercy"] == -200


def test_illegal_actions_name_the_rule_and_change_nothing():
    state = with_hands(MIXED)
    bid_all(state, [3, 3, 3, 3])
    before = json.dumps([state.view(s) for s in range(4)])
    for action, reason in [(parse_card("KS"), "you do not hold KS"),
                           (parse_card("AS"), "spades not broken"),
                           (bid(3), "bidding is over"),
                           (99, "unknown action 99"),
                           ("QS", "whole number")]:
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    with pytest.raises(IllegalAction, match="not West's turn"):
        state.apply(parse_card("2D"), seat=1)
    assert json.dumps([state.view(s) for s in range(4)]) == before


# ----------------------------------------------------------------------------- views
def test_view_shows_own_hand_bids_trick_and_scores():
    state = with_hands(MIXED)
    bid_all(state, [3, 0, 3, 3])
    play(state, "2D 5D")
    v = state.view(2)
    assert v["hand"] == ["QS", "4S", "QH", "10H", "9H", "2H", "KC", "QC", "JC", "10C",
                         "10D", "9D", "8D"]
    assert v["bids"] == [3, "nil", 3, 3]
    assert v["trick"] == [{"seat": 0, "card": "2D"}, {"seat": 1, "card": "5D"}]
    assert v["to_act"] == [2] and v["legal"] == ["8D", "9D", "10D"]
    assert localize(v["why_not"], "en")["QS"] == "must follow diamonds"
    assert localize(v["why_not"], "pt_BR")["QS"] == "é preciso seguir ouros"
    assert v["scores"] == [0, 0] and v["bags"] == [0, 0]
    assert state.view(0)["legal"] == [] and state.view(None)["hand"] is None


class SpadesViews(RandomPlay):
    """Checked by card at every step: no card in another seat's hand appears anywhere in a
    view (the previous deal's last trick, shown until a trick of the new deal is complete,
    excepted)."""

    def new_game(self, seed: int) -> SpadesState:
        return GAME.new(seed, max_deals=2)

    @invariant()
    def no_view_holds_a_card_of_another_hand(self) -> None:
        state = self.state
        for seat in [0, 1, 2, 3, None]:
            view = state.view(seat)
            if view["last_trick"] and view["last_trick"]["deal"] != view["deal"]:
                view["last_trick"] = None
            text = json.dumps(view)
            for other in range(4):
                if other != seat:
                    for card in state.hand(other):
                        assert f'"{card_text(card)}"' not in text


@pytest.mark.parametrize("games", soak(8, 60))
def test_views_hold_no_card_of_another_hand(games):
    run_machine(SpadesViews, games, steps=120)  # two deals: 2 x (4 bids + 52 cards), more


# ----------------------------------------------------------------------------- properties
def cards_accounted_for(state: SpadesState) -> None:
    """All 52 cards are in a hand or played this deal, each exactly once."""
    if state.is_over:
        return
    held = [c for s in range(4) for c in state.hand(s)]
    played = [c for _, c in state.plays()]
    assert sorted(held + played) == list(range(52))
    # tricks won equal the completed tricks
    assert sum(state.tricks) == len(played) // 4
    # the match score is the sum of the deal scores
    for t in (0, 1):
        assert state.scores[t] == sum(d["teams"][t]["points"] for d in state.deals)


CARD_RE = re.compile(r'"((?:10|[2-9JQKA])[CDHS])"')


def no_other_hand_in_view(state: SpadesState, seat: int | None, view: dict, text: str) -> None:
    """Checked by card: no card held by another seat appears anywhere in the view (the
    previous deal's last trick, shown until a trick of the new deal is complete, aside)."""
    if view["last_trick"] and view["last_trick"]["deal"] != view["deal"]:
        text = json.dumps({**view, "last_trick": None})
    shown = {parse_card(c) for c in CARD_RE.findall(text)}
    for other in range(4):
        if other != seat:
            assert not shown & set(state.hand(other)), f"seat {seat} sees {other}'s cards"


@pytest.mark.parametrize("games", soak(12, 500))
def test_random_matches_keep_every_invariant(games):
    # Random play bids wildly and never reaches 500; short targets and the mercy rule end
    # matches within a few deals. Every step checks the cards, the scores and every view by
    # card; about one step in sixty also checks illegal actions, clones and
    # determinizations. ``games`` matches per variant (2,000 in all under make test-long).
    variants = [dict(mercy=-100, target=100), dict(max_deals=2), dict(blind_nil=True, mercy=-150),
                dict(nil_tricks_count=True, ten_for_two_hundred=True, mercy=-100)]
    total = 0
    for i, options in enumerate(variants):
        states = check_random_games("spades", games, seed=i, invariant=cards_accounted_for,
                                    deep_every=60, replay_every=min(25, games // 2),
                                    view_check=no_other_hand_in_view, **options)
        total += len(states)
        assert all(s.outcome is not None for s in states)
    assert total == 4 * games


def test_deep_contract_checks_on_random_matches():
    check_random_games("spades", 12, seed=99, deep_every=7, invariant=cards_accounted_for,
                       replay_every=1, max_deals=2, blind_nil=True)





def legal_by_the_rules(state: SpadesState) -> None:
    """The cached legal cards are the ones the rules give for the cards held now: follow
    the lead if you can; lead a spade only when spades are broken or you hold nothing else."""
    if state.phase != 1:  # playing
        return
    hand = state.hands[state.turn]
    plays = state.plays()
    trick = plays[len(plays) - len(plays) % 4:]
    spades = 0x1FFF << 39
    if trick:
        lead = 0x1FFF << 13 * (trick[0][1] // 13)
        allowed = hand & lead or hand
    else:
        allowed = hand & ~spades if not state.broken and hand & ~spades else hand
    assert set(state.legal_actions()) == set(cards_of(allowed))


def spades_invariant(state: SpadesState) -> None:
    cards_accounted_for(state)
    legal_by_the_rules(state)


def test_determinize_for_any_seat_leaves_legal_cards_the_redealt_hand_holds():
    # The case: South plays; a determinization for South (or anyone but West, or
    # for nobody) redeals West, whose legal cards must come from the new hand.
    state = get_game("spades").new(7)
    for _ in range(4):
        state.apply(state.parse_action("bid 3"))
    state.apply(state.legal_actions()[0])
    for seat in (0, 2, 3, None):
        det = state.determinize(seat, random.Random(1))
        assert set(det.legal_actions()) <= set(det.hand(1))
        det.apply(det.legal_actions()[0])
        cards_accounted_for(det)
    check_determinized_games("spades", 2, seed=3, invariant=spades_invariant, max_deals=1,
                             blind_nil=True, blind_nil_deficit=0)


def test_determinize_respects_voids_and_sizes():
    state = with_hands(VOIDS)
    bid_all(state, [1, 4, 4, 4])
    play(state, "2C AC 4D 5S 6S")  # North and East show they hold no clubs
    voids = state.voids()
    assert voids == [0, 0, 1, 1]
    rng = random.Random(1)
    for _ in range(50):
        det = state.determinize(0, rng)
        assert det.hands[0] == state.hands[0]
        for seat in range(4):
            assert det.hands[seat].bit_count() == state.hands[seat].bit_count()
            for suit in range(4):
                if voids[seat] >> suit & 1:
                    assert not det.hands[seat] & (0x1FFF << 13 * suit)
    check_step(state, rng, deep=True)


def test_determinize_depends_only_on_what_the_seat_knows():
    a = with_hands(MIXED)
    swapped = MIXED[:]
    swapped[1], swapped[3] = MIXED[3], MIXED[1]
    b = with_hands(swapped)
    for s in (a, b):
        s.apply(bid(3))
    da, db = a.determinize(0, random.Random(5)), b.determinize(0, random.Random(5))
    assert da.hands == db.hands


# ----------------------------------------------------------------------------- explanations
def spades_explains(state: SpadesState, seat: int, action: int, message: str) -> None:
    """The reason given for refusing ``action`` is true of the state (each message once)."""
    hand = state.hands[seat]
    plays = state.plays()
    trick = plays[len(plays) - len(plays) % 4:]
    suits = {suit_of(c) for c in cards_of(hand)}
    team_behind = state.scores[seat & 1] <= state.scores[1 - seat & 1] - \
        state.options["blind_nil_deficit"]
    if state.phase == 0:  # bidding
        if action < 52:
            assert message == "bidding is not over: bid before playing a card"
        elif not state.looked[seat]:
            assert action not in (BLIND_NIL, LOOK)
            assert message == "look at your cards first, or bid blind nil without looking"
        elif action == BLIND_NIL and not state.options["blind_nil"]:
            assert message == "blind nil is not played at this table"
        elif action == BLIND_NIL and not team_behind:
            assert message.startswith("blind nil is only allowed to a team behind by ")
        elif action == BLIND_NIL:
            assert message == "blind nil must be bid before looking at your cards"
        else:
            assert action == LOOK and message == "you have already seen your cards"
        return
    if action >= 52:
        assert message == "bidding is over: play a card"
    elif not hand >> action & 1:
        assert message == f"you do not hold {card_text(action)}"
    elif trick:
        lead = suit_of(trick[0][1])
        assert lead in suits and suit_of(action) != lead
        assert message == f"must follow {('clubs', 'diamonds', 'hearts', 'spades')[lead]}"
    else:
        assert is_spade(action) and not state.broken and suits != {3}
        assert message == "spades not broken: lead another suit"


def test_every_refused_action_is_explained_by_the_rule_that_refuses_it():
    checked = check_explanations_games("spades", 1, spades_explains, seed=4, max_deals=1)
    checked += check_explanations_games("spades", 1, spades_explains, seed=5, max_deals=1,
                                        blind_nil=True, blind_nil_deficit=0)
    checked += check_explanations_games("spades", 1, spades_explains, seed=6, max_deals=1,
                                        blind_nil=True)
    assert checked > 5000
