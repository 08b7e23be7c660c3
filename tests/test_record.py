import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from soak import soak
from stateful import SEEDS

from parlour.arena import play_game
from parlour.engine import play_random
from parlour.games import get_game
from parlour.record import (
    RecordError,
    escape_tag,
    parse_record,
    read_record,
    record_players,
    record_text,
    replay,
    unescape_tag,
)
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.account_names import clean_account_name
from parlour.server.play.seating import clean_name

GAME = get_game("spades")


def finished(seed: int, **options):
    return play_random(GAME.new(seed, **options), random.Random(seed))


def test_record_has_tags_then_one_action_per_line():
    state = finished(3, max_deals=1)
    text = record_text(state, ["ann", "rule", "rule", "rule"], date="2026-11-29")
    lines = text.splitlines()
    assert lines[0] == '[Game "spades"]'
    assert '[Seed "3"]' in lines and '[Seats "4"]' in lines
    assert '[Players "ann, rule, rule, rule"]' in lines and '[Date "2026-11-29"]' in lines
    assert any(line.startswith('[Options "target=500 ') for line in lines)
    assert f'[Result "{state.outcome.text()}"]' in lines
    moves = lines[lines.index("") + 1:]
    assert len(moves) == len(state.history) and moves[0].startswith("0 bid ")


@pytest.mark.parametrize("games", soak(40, 200))
def test_random_games_replay_exactly(games):
    @settings(max_examples=games)
    @given(seed=SEEDS)
    def replays(seed: int) -> None:
        state = finished(seed, max_deals=2)
        again = replay(parse_record(record_text(state)))
        assert again.history == state.history
        assert again.outcome == state.outcome
        assert again.view(None) == state.view(None)

    replays()


def test_bot_games_replay_exactly(tmp_path):
    state = play_game(GAME, 11, ["rule", "random"], {"max_deals": 3})
    path = tmp_path / "game.txt"
    path.write_text(record_text(state))
    _, again = read_record(path)
    assert again.outcome == state.outcome and again.scores == state.scores


def test_unfinished_games_record_and_replay():
    state = GAME.new(4)
    for _ in range(10):
        state.apply(state.legal_actions()[-1])
    text = record_text(state)
    assert '[Result "*"]' in text
    assert replay(parse_record(text)).history == state.history


def damage(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.fixture(scope="module")
def good() -> str:
    return record_text(finished(8, max_deals=1), date="2026-11-29")


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_changed_move_is_rejected_with_its_line(good):
    lines = good.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("0 ") and "bid" not in line)
    lines[i] = "0 ZZ"
    with pytest.raises(RecordError, match=rf"line {i + 1}: 'ZZ' for seat 0: not a Spades"):
        replay(parse_record("\n".join(lines)))


def test_an_illegal_move_is_rejected_with_the_rule(good):
    lines = good.splitlines()
    i = lines.index("") + 1
    lines[i] = "1 bid 3"  # the first bid belongs to seat 0
    with pytest.raises(RecordError, match=rf"line {i + 1}: .*not West's turn"):
        replay(parse_record("\n".join(lines)))


def test_a_wrong_result_is_rejected(good):
    bad = damage(good, "placing 1 2 1 2", "placing 2 1 2 1") if "placing 1 2 1 2" in good \
        else damage(good, "placing 2 1 2 1", "placing 1 2 1 2")
    with pytest.raises(RecordError, match=rf"line {line_of(bad, 'Result')}: the record says"):
        replay(parse_record(bad))


def test_a_truncated_record_no_longer_matches_its_result(good):
    cut = "\n".join(good.splitlines()[:-5])
    with pytest.raises(RecordError, match="unfinished game"):
        replay(parse_record(cut))


@pytest.mark.parametrize("old,new,message", [
    ('[Game "spades"]', '[Game "chess"]', "line 1: unknown game 'chess'"),
    ('[Seed "8"]', '[Seed "eight"]', "line 2: the seed must be a whole number"),
    ("target=500", "target=5", "line 4: option 'target' must be at least 10"),
    ('[Seats "4"]', '[Seats "4"', "line 3: a tag looks like"),
    ('[Seats "4"]\n', "", 'the record has no [Seats'),
])
def test_damaged_tags_are_rejected(good, old, new, message):
    with pytest.raises(RecordError, match=message.replace("[", r"\[")):
        replay(parse_record(damage(good, old, new)))


def test_a_move_line_without_a_seat_is_rejected(good):
    bad = good + "bid 4\n"
    with pytest.raises(RecordError, match=rf"line {len(bad.splitlines())}: a move looks like"):
        parse_record(bad)


# ----------------------------------------------------------------------------- old rules
OLD_FLIP_RECORD = Path(__file__).parent / "records" / "hit-the-deck-flip-chain.txt"


def test_a_record_made_under_an_older_reading_replays_as_it_was_played():
    """Made by the rule bots before ``flips_in_a_row`` existed (every Flip went back until
    another card was played): its Options tag does not name the option, so it replays under
    that first reading (the option's ``legacy``), to its stored result: a round the Flips
    kept going until its 120-move safety stop."""
    text = OLD_FLIP_RECORD.read_text(encoding="utf-8")
    assert "flips_in_a_row" not in text
    record, state = read_record(OLD_FLIP_RECORD)
    assert state.options["flips_in_a_row"] == "chain"
    assert state.outcome is not None and state.outcome.text() == record.tags["Result"]
    assert [(s.option, s.round) for s in state.safety_stops] == [("max_turns", 1)]
    # The same moves under the rules' reading are another game: they do not replay.
    tags = record.tags["Options"]
    with pytest.raises(RecordError, match="line"):
        replay(parse_record(text.replace(tags, tags + " flips_in_a_row=pair")))


def test_a_new_record_names_every_option_so_it_replays_under_its_own_reading():
    hit = get_game("hit-the-deck")
    state = play_game(hit, 3, ["rule", "random"], {"target": 20}, 2)
    text = record_text(state)
    assert "flips_in_a_row=pair" in text
    again = replay(parse_record(text))
    assert again.options == state.options and again.outcome == state.outcome


def test_recorded_options_give_a_missing_option_its_legacy_value():
    hit = get_game("hit-the-deck")
    assert hit.resolve_options({"target": 50})["flips_in_a_row"] == "pair"  # a new game
    recorded = hit.recorded_options({"target": "50"})  # a record of before the option
    assert recorded["flips_in_a_row"] == "chain" and recorded["target"] == 50
    assert hit.recorded_options({"flips-in-a-row": "pair"})["flips_in_a_row"] == "pair"
    assert GAME.recorded_options({}) == GAME.resolve_options()  # no legacy values in Spades


def _accepted(clean):
    def accepted(name: str) -> bool:
        try:
            clean(name)
        except ProtocolError:
            return False
        return True
    return accepted


#: Any name the server seats: a guest's (printable, trimmed, 1 to 24 characters) or an
#: account's, and the awkward characters a record's syntax uses.
SEATED_NAMES = st.one_of(
    st.text(min_size=1, max_size=30).filter(_accepted(clean_name)).map(clean_name),
    st.text(min_size=2, max_size=24).filter(_accepted(clean_account_name))
    .map(clean_account_name),
    st.lists(st.sampled_from(['#', '"', "\\", ",", ", ", "]", "[", "a", " ", "\\,", "\\n"]),
             min_size=1, max_size=8).map("".join).filter(_accepted(clean_name))
    .map(clean_name))


@settings(max_examples=150, deadline=None)
@given(names=st.lists(SEATED_NAMES, min_size=4, max_size=4),
       comment=st.text(max_size=40))
def test_a_record_reads_back_any_seated_name(names, comment):
    """Issue 30 item 7: tag values are quoted and escaped both ways, so any name the server
    seats (a #, a quote, a backslash, a comma among them) reads back from the record, and
    so does any tag value with a newline or another line break."""
    state = GAME.new(3)
    record = parse_record(record_text(state, names, date="2026-12-06", comment=comment))
    assert record_players(record) == names
    assert replay(record).seed == 3


@given(value=st.text(max_size=40))
def test_any_tag_value_is_one_line_and_reads_back(value):
    escaped = escape_tag(value)
    assert len(f'[Event "{escaped}"]'.splitlines()) == 1
    assert unescape_tag(escaped) == value
    assert parse_record(f'[Event "{escaped}"]  # a comment\n' + record_text(GAME.new(1))
                        ).tags["Event"] == value


def test_an_older_record_s_players_read_as_before():
    record = parse_record('[Players "you, rule, rule, rule"]\n' + record_text(GAME.new(1)))
    assert record_players(record) == ["you", "rule", "rule", "rule"]
