import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

import parlour.cards as cards_module
from parlour.cards import (
    ACE,
    FULL_MASK,
    KING,
    SPADES,
    SUIT_MASKS,
    TEN,
    card_text,
    cards_in,
    cards_of,
    hand_of,
    is_rank,
    is_spade,
    keyed_order,
    make_card,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    same_suit,
    sort_hand,
    suit_cards_in,
    suit_of,
)


def test_every_card_round_trips_through_its_text():
    assert len({card_text(c) for c in range(52)}) == 52
    for c in range(52):
        assert parse_card(card_text(c)) == c


def test_notation_accepts_ten_as_t_and_any_case():
    assert parse_card("TH") == parse_card("10h") == parse_card("10H")
    assert card_text(parse_card("th")) == "10H"
    assert parse_card("as") == make_card(ACE, SPADES) == 51
    assert parse_card("Q♠") == parse_card("QS")
    assert parse_cards("AS, 10H QD 2C") == [51, parse_card("10H"), parse_card("QD"), 0]


def test_higher_int_is_higher_card_within_a_suit():
    assert parse_card("AS") > parse_card("KS") > parse_card("2S")
    assert parse_card("10D") // 13 == 1 and parse_card("10D") % 13 == TEN


@pytest.mark.parametrize("bad", ["", "Q", "1S", "11H", "QX", "ZZ", "10"])
def test_bad_card_text_is_explained(bad):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_masks_and_sorting():
    cards = parse_cards("2C AS 10H QD")
    assert cards_of(mask_of(cards)) == sorted(cards)
    assert [card_text(c) for c in sort_hand(cards)] == ["AS", "10H", "2C", "QD"]
    assert hand_of(mask_of(cards)) == sort_hand(cards) and hand_of(0) == []


@given(st.integers(0, FULL_MASK))
def test_a_masks_hand_comes_in_the_sorted_order(mask: int) -> None:
    assert hand_of(mask) == sort_hand(cards_of(mask))


def test_card_predicates_agree_with_the_notation():
    for c in range(52):
        text = card_text(c)
        assert suit_of(c) == "CDHS".index(text[-1])
        assert is_spade(c) == text.endswith("S")
        assert rank_of(c) == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                              "A").index(text[:-1])
        assert is_rank(c, KING) == text.startswith("K")
        for d in range(52):
            assert same_suit(c, d) == (text[-1] == card_text(d)[-1])


@given(st.integers(min_value=0, max_value=FULL_MASK), st.integers(min_value=0, max_value=3))
def test_a_masks_cards_by_table_are_its_cards_lowest_first(mask, suit):
    """The trick games' legal cards come from these tables: every card of the mask, each
    once, in card order; a suit's lookup reads that suit's cards only, whatever else the
    mask holds."""
    assert cards_in(mask) == tuple(cards_of(mask))
    assert suit_cards_in(mask, suit) == tuple(cards_of(mask & SUIT_MASKS[suit]))


def test_the_tables_hold_the_edges():
    assert cards_in(0) == ()
    assert cards_in(FULL_MASK) == tuple(range(52))
    assert suit_cards_in(FULL_MASK, SPADES) == tuple(range(39, 52))


def _reference_order(key: bytes, cards: list[int]) -> list[int]:
    """keyed_order's rule, written the slow, plain way: card i's key is bytes 4i..4i+3 of
    SHAKE-128(key), little-endian; sorted by key, then by card."""
    digest = hashlib.shake_128(key).digest(4 * len(cards))
    keyed = [(int.from_bytes(digest[4 * i:4 * i + 4], "little"), card)
             for i, card in enumerate(cards)]
    return [card for _, card in sorted(keyed)]


@pytest.mark.parametrize("compiled_way", [False, True])
@given(key=st.binary(max_size=24), cards=st.lists(st.integers(0, 63), max_size=120))
def test_a_keyed_order_is_the_cards_sorted_by_their_keys(compiled_way, key, cards):
    """Both ways the module reads the keys (the compiled build's byte by byte, the pure
    build's by struct) give the rule's order; in the compiled build the module's own way
    runs whatever the flag (the same-results test compares the builds)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cards_module, "COMPILED", compiled_way)
        assert keyed_order(key, cards) == _reference_order(key, cards)
        assert keyed_order(key) == _reference_order(key, list(range(52)))  # a deck
    assert sorted(keyed_order(key, cards)) == sorted(cards)
