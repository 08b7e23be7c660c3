"""Cangkul: every decision of full-rules/en.md, its worked example, a referee that replays
seeded games against the page's rules, and the contract's properties."""

from __future__ import annotations

import json
import random
import re

import pytest
from contract import check_determinized_games, check_explanations_games, check_random_games
from hypothesis import given, settings
from hypothesis import strategies as st
from soak import soak

from parlour.cards import SUIT_NAMES, card_text, cards_of, mask_of, parse_card, suit_of
from parlour.engine import IllegalAction, NotationError, OptionError
from parlour.games import get_game
from parlour.games.cangkul.rules import DRAW, PASS, TAKE, CangkulState, deal_order
from parlour.registry import spec

GAME = get_game("cangkul")
RULES_PAGE = spec("cangkul").rules_page


def position(hands: list[str], stock: str, **fields: str) -> str:
    """A position's text: the hands, then the stock (the given top cards, then every other
    card of the deck in card order)."""
    held = {parse_card(c) for h in hands for c in h.split()}
    top = [parse_card(c) for c in stock.split()]
    rest = [c for c in range(52) if c not in held and c not in top]
    cards = " ".join(card_text(c) for c in top + rest)
    extra = "".join(f"; {k}: {v}" for k, v in fields.items())
    return f"hands: {' | '.join(hands)}; stock: {cards}{extra}"


def at(hands: list[str], stock: str = "", seed: int = 1, **options: object) -> CangkulState:
    """A match whose first deal is dealt as given (``hand_size`` the hands' size)."""
    options.setdefault("hand_size", len(hands[0].split()))
    state = GAME.from_position(position(hands, stock), seed, **options)
    assert isinstance(state, CangkulState)
    return state


def play(state: CangkulState, moves: str) -> None:
    for text in moves.split():
        state.apply(state.parse_action(text))


# ----------------------------------------------------------------------------- the deal
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_seven_cards_each_the_rest_is_the_stock_and_the_last_seat_deals_first(seats):
    state = GAME.new(3, seats)
    assert [len(state.hand(s)) for s in range(seats)] == [7] * seats
    assert len(state.stock) == 52 - 7 * seats
    every = sorted([c for s in range(seats) for c in state.hand(s)] + state.stock)
    assert every == list(range(52))
    assert state.dealer == seats - 1 and state.to_act == (0,)
    assert state.view(0)["stock_size"] == 52 - 7 * seats


def test_deals_come_from_the_seed_and_the_deal_number():
    assert deal_order(5, 1) == deal_order(5, 1) != deal_order(5, 2)
    assert sorted(deal_order(5, 1)) == list(range(52))
    assert GAME.new(5).hands == GAME.new(5).hands != GAME.new(6).hands


def test_bad_seats_and_options_are_refused():
    with pytest.raises(OptionError, match="at most 10"):
        GAME.new(1, 5, hand_size=11)
    assert len(GAME.new(1, 5, hand_size=10).stock) == 2
    with pytest.raises(OptionError):
        GAME.new(1, 6)
    with pytest.raises(OptionError):
        GAME.new(1, 4, empty_stock="discard")


# ----------------------------------------------------------------------------- a trick
def test_the_leader_plays_any_card_and_the_others_must_follow_suit():
    state = at(["9H 4H KC", "QH 2S 5D", "7C 3C 8S"], "6D JH")
    assert set(state.legal_actions()) == {parse_card(c) for c in ("9H", "4H", "KC")}
    play(state, "9H")
    assert state.legal_actions() == (parse_card("QH"),)
    with pytest.raises(IllegalAction, match="must follow hearts"):
        state.apply(parse_card("2S"))
    with pytest.raises(IllegalAction, match="you can follow hearts"):
        state.apply(DRAW)


def test_a_player_without_the_suit_digs_until_it_comes_and_plays_it():
    state = at(["9H 4H KC", "QH 2S 5D", "7C 3C 8S"], "6D JH 2D")
    play(state, "9H QH")
    assert state.legal_actions() == (DRAW,)
    view = state.view(2)
    assert set(view["why_not"]) == {"7C", "3C", "8S"}
    play(state, "draw")
    assert state.legal_actions() == (DRAW,) and state.turn == 2  # 6D: no heart yet
    play(state, "draw")
    assert state.legal_actions() == (parse_card("JH"),)  # the one heart, drawn just now
    assert state.drawn[2] == 2 and len(state.stock) == 52 - 9 - 2


def test_the_highest_card_of_the_suit_led_takes_the_trick_and_leads():
    state = at(["9H 4H KC", "QH 2S 5D", "7C 3C 8S"], "6D JH 2D")
    play(state, "9H QH draw draw JH")
    assert state.tricks == [0, 1, 0] and state.turn == 1 and not state.trick
    assert state.view(0)["last_trick"]["winner"] == 1


def test_the_worked_example_of_the_rules_page_plays_as_written():
    page = RULES_PAGE.read_text(encoding="utf-8")
    assert "seat 0\nholds 9H 4H KC, seat 1 holds QH 2S 5D, seat 2 holds 7C 3C 8S" in page
    state = at(["9H 4H KC", "QH 2S 5D", "7C 3C 8S"], "6D JH 2D 10C AS", seed=4, hand_size=3,
               losses=2)
    play(state, "9H QH draw draw JH")  # 1.
    assert state.turn == 1
    play(state, "5D 6D draw 2D")  # 2.
    assert state.turn == 2 and state.tricks == [0, 1, 1]
    play(state, "8S draw draw AS 2S")  # 3.
    assert state.out == [1] and state.turn == 0
    play(state, "KC 3C")  # 4.
    assert state.turn == 0
    play(state, "10C 7C")  # 5.
    deal = state.deals[0]
    assert deal["out"] == [1, 2] and deal["losers"] == [0] and deal["tricks"] == [3, 1, 1]
    assert state.losses == [1, 0, 0] and state.firsts == [0, 1, 0]
    assert state.deal == 2 and state.dealer == 0 and state.to_act == (1,)  # the loser deals


# ----------------------------------------------------------------------------- empty stock
# Five players of ten cards leave a stock of two: seat 0 leads 5S; seat 1, with no spade,
# draws KH and AH, and finds the stock empty.
EMPTY = ["AS KS QS JS 10S 9S 8S 7S 6S 5S", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC",
         "4S 3S 2S QC KC AC 2D 3D 4D 5D", "6D 7D 8D 9D 10D JD QD KD AD 2H",
         "3H 4H 5H 6H 7H 8H 9H 10H JH QH"]


def test_skip_the_player_who_cannot_follow_passes_and_the_trick_goes_on():
    state = at(EMPTY, "KH AH")
    play(state, "5S draw draw")
    assert state.stock == [] and state.legal_actions() == (PASS,)
    with pytest.raises(IllegalAction, match="cannot follow passes"):
        state.apply(TAKE)
    with pytest.raises(IllegalAction, match="the stock is empty"):
        state.apply(DRAW)
    play(state, "pass")
    assert state.turn == 2 and state.voids[1] == 1 << 3  # no spade; hearts may be held now
    play(state, "2S")
    assert state.legal_actions() == (PASS,)  # seat 3: no spade either
    play(state, "pass pass")  # seat 3, then seat 4
    assert state.turn == 0 and state.tricks[0] == 1


def test_take_the_player_takes_the_tricks_cards_and_the_next_player_leads():
    state = at(EMPTY, "KH AH", empty_stock="take")
    play(state, "5S draw draw")
    assert state.legal_actions() == (TAKE,)
    play(state, "take")
    assert {card_text(c) for c in state.hand(1)} >= {"5S", "KH", "AH"}
    assert state.turn == 2 and not state.trick and state.tricks == [0] * 5
    for seat in (0, 2, None):
        view = state.view(seat)
        assert view["known"][1] == ["5S"] and view["last_trick"]["taker"] == 1
        assert "KH" not in json.dumps(view)
    play(state, "4S take")  # seat 3, with no spade, takes 4S: seat 4 leads
    assert state.turn == 4 and state.view(None)["known"][3] == ["4S"]
    play(state, "3H take")  # seat 0, all spades, takes 3H: seat 1 leads
    assert state.turn == 1
    play(state, "5S")  # known no more once played
    assert state.view(0)["known"][1] == []


def test_take_a_card_goes_back_into_a_hand_once_a_trick_holding_one_taken_is_passed():
    state = at(EMPTY, "KH AH", empty_stock="take")
    play(state, "5S draw draw take 4S take 3H take")  # 5S, 4S and 3H have each been taken
    assert {card_text(c) for c in cards_of(state.taken)} == {"5S", "4S", "3H"}
    assert state.view(None)["taken"] == ["5S", "4S", "3H"]  # sorted as a hand is
    play(state, "5S 3S 4S")  # seat 1 leads 5S back; seats 2 and 3 follow
    assert state.turn == 4 and state.legal_actions() == (PASS,)  # no spade, 5S taken before
    with pytest.raises(IllegalAction, match="taken back into a hand before: pass"):
        state.apply(TAKE)
    reasons = state.view(4)["why_not"]
    assert set(reasons) == {card_text(c) for c in state.hand(4)}
    assert "taken back before: pass" in reasons["QH"]["$message"]
    play(state, "pass")  # the trick goes on, as at a skip table
    assert state.turn == 0 and state.voids[4] == 1 << 3
    play(state, "AS")  # seat 0 wins: the trick (a taken card in it too) is set aside
    assert state.tricks[0] == 1 and not state.trick and state.turn == 0
    assert not any(state.hands[s] >> parse_card("5S") & 1 for s in range(5))
    play(state, "KS")  # a trick of cards never taken is taken, as before
    assert state.turn == 1 and state.legal_actions() == (TAKE,)
    play(state, "take")
    assert state.turn == 2 and state.view(None)["known"][1] == ["KS"]


def test_the_looping_take_deal_of_issue_37_now_ends():
    """Rule bots at three seats, match 1 of seed 28: its second deal went round 3C and 8D
    (lead it, the next player takes it, the one after leads the other) until the stop."""
    from parlour.arena import Job, game_seed, run_job
    result = run_job(Job("cangkul", 1, game_seed(28, 1), ("rule",),
                         (("empty_stock", "take"),), 3))
    assert result.stops == () and result.longest_round <= take_bound()


def take_bound() -> int:
    """The longest deal at a take table that the rules page allows, in actions."""
    found = re.findall(r"`take` deal is held to at most ([0-9,]+) actions",
                       " ".join(RULES_PAGE.read_text(encoding="utf-8").split()))
    assert len(found) == 1
    return int(found[0].replace(",", ""))


def most_actions(seats: int, hand_size: int) -> int:
    """The rules page's guarantee for a take deal: each card is played at most twice (once
    taken back, never again), each trick has one action per player at most, and the stock
    is drawn once."""
    return 104 * seats + 52 - seats * hand_size


@pytest.mark.parametrize("games", soak(12, 200))
@pytest.mark.parametrize("kind", ["random", "rule"])
@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_take_deals_between_bots_never_reach_the_safety_stop(seats, kind, games):
    from parlour.arena import Job, game_seed, run_job
    bound = take_bound()
    assert bound < most_actions(seats, 7) < 1000  # the stop (max_turns) cannot be reached
    deals = 0
    for index in range(games):
        result = run_job(Job("cangkul", index, game_seed(28, index), (kind,),
                             (("empty_stock", "take"),), seats))
        assert result.stops == (), (index, result.stops)
        assert result.longest_round <= bound, (index, result.longest_round_at)
        deals += result.rounds
    assert deals >= 12


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), hand_size=st.integers(3, 10),
       play=st.integers(0, 2**32))
def test_any_take_deal_ends_within_the_pages_guarantee(seed, seats, hand_size, play):
    rng = random.Random(play)
    state = GAME.new(seed, seats, empty_stock="take", losses=1, hand_size=hand_size,
                     max_turns=5000)
    while state.to_act:
        state.apply(rng.choice(state.legal_actions()))
    assert state.deals[0]["stopped"] is None
    assert len(state.history) <= most_actions(seats, hand_size)


# ----------------------------------------------------------------------------- going out
def random_steps(seeds: range, seats: int, **options: object):
    """Each step of seeded random matches: the state before (a clone), the action, after."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new(seed, seats, **options)
        while state.to_act:
            before = state.clone()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            yield before, action, state


def test_a_player_is_out_at_once_and_a_winner_who_is_out_hands_the_lead_on():
    handed = 0
    for before, action, after in random_steps(range(40), 5, losses=1):
        if after.deal != before.deal or not after.to_act:
            continue
        seat = before.turn
        if action < 52 and before.hands[seat] == 1 << action:
            assert seat in after.out  # out at once, in the middle of a trick too
        last = after.view(None)["last_trick"]
        winner = last["winner"] if before.trick and last else None
        if winner is not None and not after.trick and not after.hands[winner]:
            handed += 1
            nxt = next((winner + i) % 5 for i in range(1, 5) if after.hands[(winner + i) % 5])
            assert after.turn == nxt
    assert handed >= 5


def test_the_deal_ends_as_soon_as_one_player_holds_cards_even_mid_trick():
    cut_short = 0
    for before, _action, after in random_steps(range(60), 4, losses=1):
        if after.outcome is None:
            assert sum(1 for h in after.hands if h) >= 2
            continue
        deal = after.deals[-1]
        assert [s for s, n in enumerate(deal["cards_left"]) if n] == deal["losers"]
        assert deal["ranking"] == deal["out"] + deal["losers"]
        if before.to_answer:  # players were still to answer the trick
            cut_short += 1
            assert after.view(None)["last_trick"]["winner"] is None
    assert cut_short >= 1


# ----------------------------------------------------------------------------- the match
def test_the_match_ends_when_a_player_has_lost_the_set_number_of_deals():
    rng = random.Random(2)
    for losses in (1, 2, 4):
        state = GAME.new(7, 3, losses=losses)
        while state.to_act:
            state.apply(rng.choice(state.legal_actions()))
        assert max(state.losses) == losses and sum(state.losses) == len(state.deals)
        loser = state.losses.index(losses)
        assert state.outcome.placing[loser] == 3 and state.outcome.points[loser] == losses
        for deal in state.deals[1:]:
            before = state.deals[deal["deal"] - 2]
            assert deal["dealer"] == before["losers"][0]


def test_places_fewer_losses_first_then_more_deals_won():
    from parlour.games.cangkul.rules import match_placing
    assert match_placing([0, 1, 3], [2, 1, 0]) == (1, 2, 3)
    assert match_placing([1, 1, 3], [1, 2, 0]) == (2, 1, 3)
    assert match_placing([1, 1, 3], [1, 1, 1]) == (1, 1, 3)


def test_max_deals_stops_the_match_and_says_so():
    rng = random.Random(1)
    state = GAME.new(3, 4, losses=20, max_deals=2)
    while state.to_act:
        state.apply(rng.choice(state.legal_actions()))
    assert len(state.deals) == 2 and max(state.losses) == 1
    (stop,) = state.safety_stops
    assert stop.option == "max_deals" and stop.match
    assert state.view(0)["stopped"] is not None


def test_max_turns_ends_a_long_take_deal_and_the_most_cards_lose():
    found = False
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new(seed, 3, empty_stock="take", max_turns=50, losses=1)
        while state.to_act:
            state.apply(rng.choice(state.legal_actions()))
        deal = state.deals[0]
        if deal["stopped"]:
            found = True
            sizes = deal["cards_left"]
            assert deal["losers"] == [s for s in range(3) if sizes[s] == max(sizes)]
            assert state.safety_stops[0].option == "max_turns"
            assert sum(1 for _ in state.history) == 50
    assert found


def test_a_skip_deal_cannot_go_round():
    """Every draw shrinks the stock and every trick sheds its lead: a bound on any deal."""
    rng = random.Random(9)
    for seats in (2, 5):
        for seed in range(30):
            state = GAME.new(seed, seats, losses=1)
            while state.to_act:
                state.apply(rng.choice(state.legal_actions()))
            assert len(state.history) <= (52 - 7 * seats) + 52 * seats


# ----------------------------------------------------------------------------- notation
def test_notation_round_trips_and_bad_text_is_explained():
    for action in range(GAME.num_actions):
        assert GAME.parse_action(GAME.action_text(action)) == action
    assert GAME.parse_action(" TH ") == parse_card("10H") and GAME.parse_action("Draw") == DRAW
    with pytest.raises(NotationError, match="not a Cangkul action"):
        GAME.parse_action("dig deeper")
    with pytest.raises(NotationError):
        GAME.action_text(55)


def test_a_position_round_trips_at_every_deal_of_random_matches():
    rng = random.Random(4)
    for seats in (2, 4, 5):
        state = GAME.new(11, seats)
        deal = 0
        while state.to_act:
            if state.deal != deal:
                deal = state.deal
                text = state.position_text()
                again = GAME.from_position(text, 3)
                assert again.hands == state.hands and again.stock == state.stock
                assert again.position_text() == text
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("text", "error"), [
    ("stock: 2C", "needs its hands"),
    ("hands: AS | KS", "every card of the deck"),
    ("hands: AS 2C | KS", "same number of cards"),
    (position(["AS 2C", "KS 3C"], "") + "; dealer: 7", "dealer is a seat"),
    (position(["AS 2C", "KS 3C"], "") + "; losses: 1", "losses: 2 whole numbers"),
])
def test_a_bad_position_is_refused_with_its_reason(text, error):
    with pytest.raises(ValueError, match=error):
        GAME.from_position(text)


# ----------------------------------------------------------------------------- the views
def known_in_hand(state: CangkulState) -> None:
    """Every card is in one place; the cards known to be held are held; a seat's cards not
    known include no suit it has shown it lacks, but for the one it has just drawn."""
    if state.outcome is not None:
        return
    places = [*state.hands, mask_of(state.stock), mask_of(c for _, c in state.trick)]
    total = 0
    for mask in places:
        assert total & mask == 0, "a card in two places"
        total |= mask
    for seat in range(state.num_seats):
        assert state.known[seat] & ~state.hands[seat] == 0
        unknown = cards_of(state.hands[seat] & ~state.known[seat])
        lacking = [c for c in unknown if state.voids[seat] >> suit_of(c) & 1]
        assert len(lacking) <= (1 if state._fresh == seat else 0), (seat, lacking)


CARD_RE = re.compile(r'"((?:10|[2-9JQKA])[CDHS])"')


def no_hidden_card_in_view(state: CangkulState, seat: int | None, view: dict,
                           text: str) -> None:
    """No card of another hand (unless everyone saw it taken) nor of the stock shows."""
    if state.outcome is not None:
        return
    shown = {parse_card(c) for c in CARD_RE.findall(json.dumps(
        {**view, "moves": [], "deals": [], "last_trick": None, "trick": []}))}
    hidden = set(state.stock)
    for other in range(state.num_seats):
        if other != seat:
            hidden |= set(cards_of(state.hands[other] & ~state.known[other]))
    assert not shown & hidden, f"seat {seat} sees {sorted(shown & hidden)}"


@pytest.mark.parametrize("games", soak(2, 200))
def test_random_matches_keep_the_contract(games):
    total = 0
    for i, (seats, rule) in enumerate([(2, "skip"), (3, "take"), (4, "skip"), (5, "take")]):
        states = check_random_games("cangkul", games, seed=i, invariant=known_in_hand,
                                    deep_every=60, replay_every=2,
                                    view_check=no_hidden_card_in_view, seats=seats,
                                    empty_stock=rule, losses=1, max_turns=300)
        total += len(states)
    assert total == 4 * games


def test_determinizations_hold_together_at_every_step():
    check_determinized_games("cangkul", 1, seed=3, invariant=known_in_hand, seats=3,
                             empty_stock="take", losses=1, max_turns=70, hand_size=4)


def explains(state: CangkulState, seat: int, action: int, message: str) -> None:
    hand = state.hands[seat]
    if action < 52 and not hand >> action & 1:
        assert message.startswith("you do not hold")
    elif not state.trick:
        assert message == "you lead this trick: play any card"
    elif hand & (0x1FFF << 13 * state.lead_suit):
        assert f"follow {SUIT_NAMES[state.lead_suit]}" in message
    else:
        assert SUIT_NAMES[state.lead_suit] in message or "stock is empty" in message or \
            "at this table" in message


def test_every_refused_action_is_explained_by_the_rule_that_refuses_it():
    assert check_explanations_games("cangkul", 2, explains, seats=3, losses=1,
                                    hand_size=4) > 1000


# ----------------------------------------------------------------------------- the referee
class Referee:
    """The rules page, read again independently and plainly (sets and lists, no masks): what
    is legal at each step, and what each deal and the match come to."""

    def __init__(self, seed: int, seats: int, options: dict) -> None:
        self.seed, self.n, self.options = seed, seats, options
        self.losses, self.firsts, self.deal = [0] * seats, [0] * seats, 0
        self.deals: list[tuple[list[int], list[int]]] = []
        self.over = False
        self.start(seats - 1)

    def start(self, dealer: int) -> None:
        self.deal += 1
        self.dealer = dealer
        size = self.options["hand_size"]
        order = deal_order(self.seed, self.deal)  # the shuffle is the seed's, not a rule
        self.hands = [set() for _ in range(self.n)]
        for i in range(self.n):
            self.hands[(dealer + 1 + i) % self.n] = set(order[size * i:size * (i + 1)])
        self.stock = order[size * self.n:]  # the top first
        self.turn, self.trick, self.out, self.moves = (dealer + 1) % self.n, [], [], 0
        self.answering: list[int] = []
        self.taken: set[int] = set()  # cards taken back into a hand: never taken again

    def legal(self) -> set[int]:
        hand = self.hands[self.turn]
        if not self.trick:
            return set(hand)
        suit = suit_of(self.trick[0][1])
        same = {c for c in hand if suit_of(c) == suit}
        if same:
            return same
        if self.stock:
            return {DRAW}
        if self.options["empty_stock"] == "skip" or {c for _, c in self.trick} & self.taken:
            return {PASS}
        return {TAKE}

    def apply(self, action: int) -> None:
        assert action in self.legal()
        self.moves += 1
        seat = self.turn
        if action == DRAW:
            self.hands[seat].add(self.stock.pop(0))
        elif action == TAKE:  # the taker loses the turn: the next still holding cards leads
            self.hands[seat] |= {c for _, c in self.trick}
            self.taken |= {c for _, c in self.trick}
            self.trick, self.answering = [], []
            self.turn = next((seat + i) % self.n for i in range(1, self.n + 1)
                             if self.hands[(seat + i) % self.n])
        else:
            if action != PASS:
                self.hands[seat].discard(action)
                if not self.trick:
                    self.answering = [(seat + i) % self.n for i in range(1, self.n)
                                      if self.hands[(seat + i) % self.n]]
                self.trick.append((seat, action))
                if not self.hands[seat]:
                    self.out.append(seat)
                    if sum(1 for h in self.hands if h) == 1:
                        return self.end(False)
            if self.answering:
                self.turn = self.answering.pop(0)
            else:
                suit = suit_of(self.trick[0][1])
                winner = max((c, s) for s, c in self.trick if suit_of(c) == suit)[1]
                self.trick = []
                while not self.hands[winner]:
                    winner = (winner + 1) % self.n
                self.turn = winner
        if self.moves >= self.options["max_turns"]:
            self.end(True)

    def end(self, stopped: bool) -> None:
        sizes = [len(h) for h in self.hands]
        losers = [s for s in range(self.n) if sizes[s] and sizes[s] == max(sizes)]
        losers.sort(key=lambda s: (s - self.dealer - 1) % self.n)  # clockwise from the left
        for s in losers:
            self.losses[s] += 1
        if self.out:
            self.firsts[self.out[0]] += 1
        self.deals.append((list(self.out), losers))
        if max(self.losses) >= self.options["losses"] or self.deal >= self.options["max_deals"]:
            self.over = True
            return
        self.start(losers[0])


def referee_games(games: int, seed: int) -> int:
    checked = 0
    for i in range(games):
        seats = 2 + i % 4
        options = GAME.resolve_options({"losses": 1 + i % 2, "hand_size": 5 + i % 3,
                                        "empty_stock": ("skip", "take")[i // 4 % 2],
                                        "max_turns": 200})
        rng = random.Random(seed * 7919 + i)
        state = GAME.new(seed * 7919 + i, seats, **options)
        ref = Referee(seed * 7919 + i, seats, options)
        while state.to_act:
            assert not ref.over and state.to_act == (ref.turn,)
            assert set(state.legal_actions()) == ref.legal()
            action = rng.choice(state.legal_actions())
            state.apply(action)
            ref.apply(action)
            checked += 1
        assert ref.over and state.losses == ref.losses and state.firsts == ref.firsts
        assert [(d["out"], d["losers"]) for d in state.deals] == ref.deals
    return checked


@pytest.mark.parametrize("games", soak(240, 5000))
def test_seeded_games_follow_the_rules_page_move_by_move(games):
    assert referee_games(games, 1) > games * 20
