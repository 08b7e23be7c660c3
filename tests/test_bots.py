import random
from collections import Counter

import pytest
from hypothesis.stateful import invariant
from soak import soak
from stateful import RandomPlay, run_machine

from parlour.arena import play_game, simulate
from parlour.bots import RandomBot, bot_kinds, make_bot, observe
from parlour.cards import card_text, parse_cards
from parlour.engine import OptionError, State
from parlour.games import get_game
from parlour.games.spades.bots import SpadesRuleBot, count_tricks, wants_nil
from parlour.games.spades.rules import BID_BASE, NIL

GAME = get_game("spades")


def test_bot_kinds_and_errors():
    assert {"random", "rule"} <= set(bot_kinds("spades"))
    with pytest.raises(OptionError, match=r"choose from random, .*rule"):
        make_bot(GAME, "genius", 0, 1)
    assert isinstance(make_bot(GAME, "random", 0, 1), RandomBot)


def test_observation_holds_no_hidden_card():
    """The sampler inside an observation is a determinization: the true hands of other
    seats are not reachable from it."""
    state = GAME.new(3)
    obs = observe(state, 0, random.Random(1), sample=True)
    inner = obs._sampler
    assert inner is not state
    assert inner.hands[0] == state.hands[0]
    assert inner.hands[1:] != state.hands[1:]
    assert obs.sample(random.Random(2)).hands[0] == state.hands[0]


class SouthsRuleBot(RandomPlay):
    """Two states that differ only in cards South cannot see give South's bot the same
    decision: at every South turn of random matches, the real state and a redeal of the
    hidden cards (a determinization) are shown to two identically seeded bots."""

    game_id = "spades"
    tally: Counter[str]

    def new_game(self, seed: int) -> State:
        return GAME.new(seed, max_deals=3)

    @invariant()
    def south_decides_on_what_south_sees(self) -> None:
        state = self.state
        if 0 not in state.to_act:
            return
        other = state.determinize(0, random.Random(len(state.history)))
        mine = SpadesRuleBot(GAME, 0, 5).act(observe(state, 0, random.Random(9)))
        theirs = SpadesRuleBot(GAME, 0, 5).act(observe(other, 0, random.Random(9)))
        assert mine == theirs
        self.tally["decisions"] += 1
        self.tally["redealt"] += other.hands[1:] != state.hands[1:]


@pytest.mark.parametrize("matches", soak(3, 30))
def test_rule_bot_decision_ignores_hidden_cards(matches, monkeypatch):
    tally: Counter[str] = Counter()
    monkeypatch.setattr(SouthsRuleBot, "tally", tally, raising=False)
    run_machine(SouthsRuleBot, matches, steps=170)  # three deals of 56 actions
    # South decided often, and on hidden cards really dealt again (late in a deal a redeal
    # can only give the other hands back: what they hold is known by then)
    assert tally["decisions"] > 30 * matches
    assert tally["redealt"] > 0.8 * tally["decisions"]


def hand(text: str) -> list[int]:
    cards = parse_cards(text)
    assert len(cards) == 13
    return cards


def south_holds(text: str):
    """A Spades match whose first deal gives South these cards (the rest dealt in order),
    built from its position text."""
    south = hand(text)
    rest = [card_text(c) for c in range(52) if c not in south]
    hands = [text] + [" ".join(rest[i:i + 13]) for i in (0, 13, 26)]
    return GAME.from_position("hands: " + " | ".join(hands))


def test_counting_tricks():
    strong = hand("AS KS QS JS 10S AH KH AD KD AC 2C 3C 4C")
    assert count_tricks(strong) >= 8
    weak = hand("2S 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C")
    assert count_tricks(weak) < 1
    assert wants_nil(weak) and not wants_nil(strong)
    # a long spade suit counts its length
    assert count_tricks(hand("9S 8S 7S 6S 5S 4S 3S 2S 2H 3H 4H 2D 3D")) >= 5


def test_rule_bot_bids_nil_with_a_weak_hand_and_counts_otherwise():
    bot = SpadesRuleBot(GAME, 0, 1)
    state = south_holds("2S 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C")
    assert bot.act(observe(state, 0, random.Random(0))) == NIL
    state = south_holds("AS KS QS JS 10S AH KH AD KD AC 2C 3C 4C")
    assert bot.act(observe(state, 0, random.Random(0))) >= BID_BASE + 8


def test_bid_values_count_the_partners_real_bid(monkeypatch):
    """The simulated partner's bid is read before the playout ends the deal (which clears
    the bids): a partner who bid by count is never scored as a failed nil."""
    import parlour.games.spades.bots as spades_bots

    scored: list[tuple[int, int]] = []
    real = spades_bots.score_team

    def spy(bids, *rest):
        scored.append(bids)
        return real(bids, *rest)

    monkeypatch.setattr(spades_bots, "score_team", spy)
    state = GAME.new(3)
    seat = state.to_act[0]
    values = spades_bots.bid_values(observe(state, seat, random.Random(0), sample=True),
                                    random.Random(1), "easy")
    assert values is not None
    partners = Counter(partner for _, partner in scored)
    assert sum(n for bid, n in partners.items() if bid > 0) > partners[0]  # mostly counted
    assert max(values.values()) > 0  # a sensible bid at 0-0 gains points


def test_a_face_down_hand_values_looking_too():
    """Before looking, looking is valued (by then bidding the hand's count) beside blind
    nil, so the search bot and the hint do not bid blind nil just because it is offered."""
    from parlour.games.spades.bots import bid_values
    from parlour.games.spades.rules import BLIND_NIL, LOOK

    state = GAME.new(3, blind_nil=True, blind_nil_deficit=0)  # 0-0: every team may
    seat = state.to_act[0]
    assert set(state.legal_actions(seat)) == {BLIND_NIL, LOOK}
    values = bid_values(observe(state, seat, random.Random(0), sample=True),
                        random.Random(1), "easy")
    assert values is not None and set(values) == {BLIND_NIL, LOOK}
    assert values[LOOK] > values[BLIND_NIL]  # level scores: blind nil's risk is not worth it
    bot = make_bot(GAME, "ismcts:easy", seat, 2)
    assert bot.act(observe(state, seat, random.Random(0), sample=True)) == LOOK


def test_rule_bots_always_play_legally_and_beat_random():
    summary = simulate("spades", 30, 3, ["rule", "random"])
    assert summary["wins"][0] >= 28  # a rule partnership against a random one


def test_rule_partnership_scores_well_against_itself():
    state = play_game(GAME, 12, ["rule"])
    assert state.outcome is not None and max(state.scores) >= 500
    made = sum(1 for d in state.deals for t in d["teams"] if t["contract"] > 0)
    failed = sum(1 for d in state.deals for t in d["teams"] if t["contract"] < 0)
    assert made > failed
