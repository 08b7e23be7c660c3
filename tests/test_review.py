"""The post-game review: marks, hidden cards, forced moves, the JSON form, the command."""

import json
import random

import pytest

from parlour.analysis.review import (
    BLUNDER,
    FINE,
    INACCURACY,
    MISTAKE,
    SCHEMA_VERSION,
    Review,
    Reviewer,
    Thresholds,
    mark_settled,
    review_actions,
    review_record,
    review_state,
    thresholds_for,
)
from parlour.arena import play_game
from parlour.cli import main
from parlour.engine import OptionError
from parlour.games import get_game
from parlour.record import parse_record, record_text

SPADES = get_game("spades")
HANDS = [
    "AS KS QS 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C",
    "JS 10S 9S 6H 7H 8H 9H 5D 6D 7D 5C 6C 7C",
    "8S 7S 6S 10H JH QH KH 8D 9D 10D 8C 9C 10C",
    "5S 4S 3S 2S AH JD QD KD AD JC QC KC AC",
]


def position(hands: list[str]) -> str:
    return f"hands: {' | '.join(hands)}; deal: 1; scores: 0, 0"


@pytest.fixture(scope="module")
def short_match():
    """A one-deal Spades match between the rule bots and ismcts:easy."""
    return play_game(SPADES, 5, ["rule", "ismcts:easy"], {"max_deals": 1})


def test_thresholds_apply_exactly():
    t = Thresholds(0.03, 0.06, 0.10)
    assert [t.mark(x) for x in (0.0, 0.0299, 0.03, 0.0599, 0.06, 0.0999, 0.1, 0.9)] == [
        FINE, FINE, INACCURACY, INACCURACY, MISTAKE, MISTAKE, BLUNDER, BLUNDER]
    for bad in ((0.1, 0.05, 0.2), (0.0, 0.1, 0.2), (0.05, 0.1, 1.5)):
        with pytest.raises(ValueError, match="thresholds must rise"):
            Thresholds(*bad)
    assert thresholds_for("Spades") == t


def test_a_review_marks_each_decision_by_its_games_thresholds(short_match):
    review = review_state(short_match, [0], budget=64, seed=3,
                          thresholds=Thresholds(0.01, 0.02, 0.04))
    assert review.decisions
    for d in review.decisions:
        assert d.loss == round(max(0.0, d.best_chance - d.chance), 4)
        assert d.mark == review.thresholds.mark(d.loss)
        assert d.best == next(iter(d.chances)) and d.chances[d.played] == d.chance
        assert max(d.chances.values()) == d.best_chance


def test_a_review_never_reads_hidden_cards():
    # The same South hand, the other three hands dealt differently.
    other = [HANDS[0], HANDS[2], HANDS[3], HANDS[1]]
    a = SPADES.from_position(position(HANDS))
    b = SPADES.from_position(position(other))
    assert a.view(0) == b.view(0) and a.view(1) != b.view(1)
    judge = Reviewer("spades", budget=80, seed=1)
    bid = SPADES.parse_action("bid 4")
    assert judge.judge(a, 0, bid) == judge.judge(b, 0, bid)


def test_every_decision_is_judged_from_what_the_seat_saw(short_match):
    """Through a whole deal, West's decisions judged in the true state and in a state
    with every card West has not seen dealt anew are the same."""
    judge = Reviewer("spades", budget=48, seed=2)
    state = SPADES.new(short_match.seed, **short_match.options)
    checked = 0
    for i, (seat, action) in enumerate(short_match.history):
        if seat == 1:
            other = state.determinize(1, random.Random(i))
            assert other.view(1) == state.view(1)
            mine, theirs = judge.judge(state, 1, action), judge.judge(other, 1, action)
            assert mine == theirs
            checked += mine is not None
        state.apply(action, seat)
    assert checked >= 8


def test_marks_are_stable_for_a_seed_and_budget(short_match):
    one = review_state(short_match, budget=48, seed=7)
    two = review_state(short_match, budget=48, seed=7)
    assert one == two
    assert [d.mark for d in one.decisions] == [d.mark for d in two.decisions]
    assert Review.from_json(json.loads(json.dumps(one.to_json()))) == one


def test_forced_moves_are_neither_marked_nor_counted(short_match):
    review = review_state(short_match, budget=32, seed=1)
    state = SPADES.new(short_match.seed, **short_match.options)
    forced = dict.fromkeys(range(4), 0)
    judged = set()
    for i, (seat, action) in enumerate(short_match.history):
        if len(state.legal_actions(seat)) == 1:
            forced[seat] += 1
        else:
            judged.add(i)
        state.apply(action, seat)
    assert {d.index for d in review.decisions} == judged
    assert any(forced.values())
    for s in review.summaries:
        assert s.forced == forced[s.seat]
        assert s.judged + s.forced == sum(seat == s.seat for seat, _ in short_match.history)
        assert sum(s.marks.values()) == s.judged
        assert s.accuracy == s.marks[FINE] / s.judged


def test_reflexes_are_not_judged():
    game = get_game("hit-the-deck")
    match = play_game(game, 2, ["rule"], {"target": 1})
    slaps = sum(a >= 43 for _, a in match.history)
    assert slaps
    review = review_actions(game.new(match.seed, match.num_seats, **match.options),
                            match.history, budget=16, seed=0)
    assert all(not d.played.startswith("slap") for d in review.decisions)
    assert sum(s.forced for s in review.summaries) >= slaps


def test_progress_counts_every_decision_of_the_reviewed_seat(short_match):
    seen: list[tuple[int, int]] = []
    review_state(short_match, [2], budget=16, progress=lambda d, t: seen.append((d, t)))
    moves = sum(seat == 2 for seat, _ in short_match.history)
    assert seen == [(n, moves) for n in range(moves + 1)]


def test_bad_requests_get_clear_errors(short_match):
    with pytest.raises(ValueError, match="seat 4 is not at this 4-seat table"):
        review_state(short_match, [4], budget=16)
    with pytest.raises(OptionError, match="takes no iteration budget"):
        Reviewer("foursquare", budget=100)
    with pytest.raises(ValueError, match="at least 1 iteration"):
        Reviewer("spades", budget=0)
    with pytest.raises(ValueError, match="schema"):
        Review.from_json({"schema": SCHEMA_VERSION + 1})
    state = SPADES.new(1)
    with pytest.raises(ValueError, match="not legal"):
        Reviewer("spades", budget=16).judge(state, 0, SPADES.parse_action("AS"))


def test_spite_and_malice_is_judged_by_whole_turn_playouts_from_its_view():
    """Its decisions are judged in chances from what the seat saw (a determinized twin
    gets the same judgement), by the turn playouts, at a small budget in seconds."""
    game = get_game("spite-and-malice")
    state = game.new(3, target=1, payoff_size=5)
    judge = Reviewer("spite-and-malice", budget=40, seed=1)
    seat = state.to_act[0]
    twin = state.determinize(seat, random.Random(9))
    action = state.legal_actions(seat)[-1]
    one = judge.judge(state, seat, action)
    assert one is not None and one == judge.judge(twin, seat, action)
    assert set(one.chances) == {state.action_text(a) for a in state.legal_actions(seat)}
    assert all(0.0 <= c <= 1.0 for c in one.chances.values())
    assert one.best == next(iter(one.chances)) and one.loss == round(
        max(0.0, one.best_chance - one.chance), 4)


def test_review_command_end_to_end(tmp_path, capsys, short_match):
    path = tmp_path / "match.txt"
    path.write_text(record_text(short_match, ["you", "rule", "partner", "rule"]))
    assert main(["review", str(path), "--seat", "0", "--budget", "32", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == SCHEMA_VERSION and data["seats"] == [0]
    assert data["budget"] == 32 and data["reviewer"] == "ismcts:hard"
    expected = review_record(parse_record(path.read_text()), [0], budget=32)
    assert data == expected.to_json()
    assert main(["review", str(path), "--seat", "0", "--budget", "32"]) == 0
    out = capsys.readouterr().out
    assert "Accuracy" in out and "you" in out
    for d in expected.marked():
        assert d.played in out and d.best in out
    assert "Mistake" in out and "Blunder" in out and "Accuracy" in out
    assert main(["review", str(path), "--seat", "9", "--budget", "8"]) == 2
    assert "seat 9 is not at this 4-seat table" in capsys.readouterr().err


def test_foursquare_is_reviewed_by_its_solver_from_what_the_player_saw():
    game = get_game("foursquare")
    state = game.new(4)
    seat = state.to_act[0]
    while len(state.legal_actions(seat)) == 1:
        state.apply(state.legal_actions(seat)[0], seat)
    action = state.legal_actions(seat)[-1]
    judge = Reviewer("foursquare")
    decision = judge.judge(state, seat, action)
    assert decision is not None and judge.kind == "solver:strong"
    assert decision == judge.judge(state.determinize(seat, random.Random(1)), seat, action)
    assert set(decision.chances) == {state.action_text(a) for a in state.legal_actions(seat)}


# ----------------------------------------------------------------------------- the settled rule
def test_the_settled_rule_stops_once_no_sample_can_move_the_mark():
    """The rule sees the played move's paired loss, give or take three standard errors:
    equal moves and a plain blunder are settled, a loss astride a step is not."""
    steps = Thresholds(0.03, 0.06, 0.10)
    rng = random.Random(4)
    base = [rng.random() for _ in range(200)]
    noise = [rng.gauss(0, 0.2) for _ in range(200)]
    settled = mark_settled(steps, "a")
    assert settled(("a", "b"), [base, list(base)], [0, 1])  # equal on every sample: fine
    assert settled(("a", "b"), [base, [x + 0.3 for x in base]], [0, 1])  # a blunder
    assert settled(("b", "a"), [[x + 0.3 for x in base], base], [1])  # played, dropped
    astride = [x + 0.03 + e for x, e in zip(base, noise, strict=True)]  # about the step
    assert not settled(("a", "b"), [base, astride], [0, 1])
    assert not mark_settled(steps, "c")(("a", "b"), [base, base], [0, 1])  # not a choice


def test_a_settled_review_gives_the_whole_budgets_marks_for_fewer_playouts(
        short_match, monkeypatch):
    """The same marks as the search spent to its budget, on every decision of a deal (the
    settled stop only ends a search whose mark can no longer change), for fewer playouts."""
    from parlour.analysis import review as reviewing

    real = reviewing.paired_search
    playouts = {True: 0, False: 0}
    way = [True]

    def counted(*args, **kwargs):
        value = args[8]

        def tally(state, seat):
            playouts[way[0]] += 1
            return value(state, seat)

        return real(*args[:8], tally, *args[9:], **kwargs)

    monkeypatch.setattr(reviewing, "paired_search", counted)
    start = SPADES.new(short_match.seed, **short_match.options)
    reviews = {}
    for settle in (True, False):
        way[0] = settle
        judge = Reviewer("spades", 2000, 2, settle=settle)
        reviews[settle] = [judge.judge(*turn) for turn in _turns(start, short_match)]
    marks = {k: [d and d.mark for d in v] for k, v in reviews.items()}
    assert marks[True] == marks[False] and any(marks[True])
    assert playouts[True] < 0.5 * playouts[False]


def _turns(start, match):
    """The state, seat, action and index of the deal's decisions from its sixth trick."""
    state = start.clone()
    for i, (seat, action) in enumerate(match.history):
        if 24 <= i < 52:
            yield state.clone(), seat, action, i
        state.apply(action, seat)
