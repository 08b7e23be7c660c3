import random

import pytest

from parlour.engine import (
    IllegalAction,
    Option,
    OptionError,
    Outcome,
    ascii_int,
    derive_rng,
    derive_seed,
    format_options,
    parse_option_pairs,
    placing_by,
    play_random,
    position_fields,
    quoted,
    seeded_shuffle,
    shuffle,
)
from parlour.games import game_ids, get_game


def test_games_are_discovered_in_menu_order():
    assert game_ids()[0] == "spades"
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        get_game("chess")
    assert get_game("Spades").id == "spades"


def test_derived_seeds_are_stable_and_distinct():
    assert derive_seed(7, "deal", 1) == derive_seed(7, "deal", 1)
    assert derive_seed(7, "deal", 1) != derive_seed(7, "deal", 2)
    assert derive_rng(3, "x").random() == derive_rng(3, "x").random()


def test_shuffle_draws_what_random_shuffle_draws():
    """engine.shuffle (which the compiled build runs natively) makes random.shuffle's order
    from the same draws, so seeded deals are unchanged, and leaves the generator where
    random.shuffle leaves it; another generator class shuffles its own way."""
    for seed in range(60):
        for n in (0, 1, 2, 3, 5, 17, 40, 52, 104):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(a, ours)
            theirs.shuffle(b)
            assert a == b
            assert ours.getrandbits(64) == theirs.getrandbits(64)

    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    items = [1, 2, 3]
    shuffle(items, Reversing(1))
    assert items == [3, 2, 1]


def test_seeded_shuffle_is_random_shuffle_of_the_derived_generator():
    """seeded_shuffle (batched words in the compiled build) orders as random.shuffle does
    with derive_rng of the same parts: decks of every size a game deals, and past 256 cards,
    where a draw needs more than a word's top byte."""
    for seed in range(80):
        for n in (0, 1, 2, 3, 5, 17, 40, 52, 104, 108, 255, 256, 257, 300, 700):
            ours, theirs = list(range(n)), list(range(n))
            seeded_shuffle(ours, seed, "deal", n)
            derive_rng(seed, "deal", n).shuffle(theirs)
            assert ours == theirs, (seed, n)


def test_option_coercion_and_errors():
    opt = Option("target", int, 500, "points", minimum=10, maximum=1000)
    assert opt.coerce("300") == 300
    with pytest.raises(OptionError, match="at least 10"):
        opt.coerce(5)
    with pytest.raises(OptionError, match="whole number"):
        opt.coerce("lots")
    with pytest.raises(OptionError, match="whole number"):
        opt.coerce(True)
    flag = Option("blind", bool, False, "blind nil")
    assert flag.coerce("on") is True and flag.coerce("false") is False
    off = Option("mercy", int, None, "mercy", nullable=True)
    assert off.coerce("off") is None and off.coerce(-200) == -200
    choice = Option("piles", int, 3, "centre piles", choices=(3, 4))
    with pytest.raises(OptionError, match="one of 3, 4"):
        choice.coerce(5)


def test_option_pairs_round_trip():
    pairs = parse_option_pairs(["target=300", "blind-nil=on"])
    assert pairs == {"target": "300", "blind_nil": "on"}
    with pytest.raises(OptionError, match="key=value"):
        parse_option_pairs(["target"])
    game = get_game("spades")
    opts = game.resolve_options({"mercy": -200, "blind_nil": True})
    again = game.resolve_options(parse_option_pairs(format_options(opts).split()))
    assert again == opts


def test_outcome_text_round_trips_and_placing_shares_ties():
    out = Outcome((510.0, 320.0, 510.0, 320.0), (1, 2, 1, 2))
    assert Outcome.parse(out.text()) == out
    assert out.winners == (0, 2) and not out.is_draw
    assert placing_by([10, 30, 30, 5]) == (3, 1, 1, 4)
    assert placing_by([10, 30, 30, 5], higher_is_better=False) == (2, 3, 3, 1)
    with pytest.raises(ValueError):
        Outcome.parse("nonsense")


def test_seed_must_be_an_int_and_game_over_refuses_actions():
    game = get_game("spades")
    with pytest.raises(OptionError, match="whole number"):
        game.new("7")
    state = play_random(game.new(1, max_deals=1), random.Random(0))
    assert state.to_act == () and state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0)
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, 1)


def test_same_seed_and_actions_reproduce_the_game():
    game = get_game("spades")
    a = play_random(game.new(5, max_deals=3), random.Random(1))
    b = game.replay(5, None, a.options, a.history)
    assert b.history == a.history and b.outcome == a.outcome
    assert [b.view(s) for s in range(4)] == [a.view(s) for s in range(4)]


def test_position_fields_read_names_and_values_and_refuse_the_rest():
    names = ("hands", "to act")
    assert position_fields("hands: R1, G2 | Y3\n To  Act : 1;", names) == {
        "hands": "R1, G2 | Y3", "to act": "1"}
    assert position_fields("", names) == {}
    with pytest.raises(ValueError, match="not a position field: 'turn: 1'"):
        position_fields("hands: R1; turn: 1", names)
    with pytest.raises(ValueError, match="not a position field: 'hands R1'"):
        position_fields("hands R1", names)
    with pytest.raises(ValueError, match="'hands' is given twice"):
        position_fields("hands: R1; hands: G2", names)


OTHER_DIGITS = ["\u0661", "\u0665", "\uff15", "\u00b9", "\u09e7", "1_0", "\u0661\u0660"]


def test_numbers_in_notation_and_options_are_ascii_digits_only():
    assert ascii_int("7") == 7 and ascii_int("013") == 13
    for text in [*OTHER_DIGITS, "", "-1", "+1", " 1", "1" * 19]:
        assert ascii_int(text) is None, text
    whole = Option("target", int, 500, "points")
    share = Option("share", float, 0.5, "a share")
    assert whole.coerce("300") == 300 and share.coerce("1e2") == 100.0
    for text in [*OTHER_DIGITS, "nan", "inf", "-inf", "\u0661.5"]:
        for opt in (whole, share):
            with pytest.raises(OptionError):
                opt.coerce(text)
    for value in (float("nan"), float("inf")):
        with pytest.raises(OptionError):
            share.coerce(value)


@pytest.mark.parametrize(("game", "ascii_text", "other"), [
    ("spades", "bid 1", "bid \u0661"),
    ("spades", "bid 5", "bid \uff15"),
    ("clockwork-spades", "take 1", "take \u0661"),
    ("hit-the-deck", "slap 120ms", "slap \u0661\u0662\u0660ms"),
])
def test_games_refuse_other_scripts_digits_in_actions(game, ascii_text, other):
    g = get_game(game)
    g.parse_action(ascii_text)
    with pytest.raises(ValueError, match="not a"):
        g.parse_action(other)


def test_errors_quote_only_an_excerpt():
    assert quoted("x" * 5000) == repr("x" * 5000)[:40] + "..."
    assert quoted("bid 3") == "'bid 3'"
    spades = get_game("spades")
    with pytest.raises(OptionError) as err:
        spades.resolve_options({"y" * 5000: 1})
    assert len(str(err.value)) < 300
    with pytest.raises(OptionError) as err:
        spades.resolve_options({"target": "z" * 5000})
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("game_id", game_ids())
def test_every_option_is_bounded(game_id):
    """A table's options come from anyone on the internet: every number has a least and a
    greatest value (so no match can be asked to run for ever), every text a list of
    choices."""
    game = get_game(game_id)
    for opt in game.options:
        if opt.kind is bool:
            continue
        if opt.choices is None:
            assert opt.kind in (int, float), opt.name
            assert opt.minimum is not None and opt.maximum is not None, opt.name
            assert opt.minimum <= opt.default <= opt.maximum if opt.default is not None \
                else True, opt.name
            with pytest.raises(OptionError, match="at most"):
                opt.coerce(opt.maximum + 1)
