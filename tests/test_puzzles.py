"""Puzzles (issue 35, item 1): mining finds positions where one choice is clearly best from
the seat's view and keeps only those a second and third judgement (other seeds, twice the
budget) agree on; a puzzle rebuilds its position, shows only the seat's view, accepts
exactly its answers; the shipped sets hold; the terminal asks and answers."""

from __future__ import annotations

import gzip
import io
import json
import math
import random

import pytest
from rich.console import Console

from parlour.analysis.review import Reviewer
from parlour.arena import play_game
from parlour.cli import main
from parlour.engine import derive_seed
from parlour.puzzles import mining
from parlour.puzzles.mining import (
    MineSettings,
    bot_games,
    gap_settled,
    judge_position,
    mine_bot_game,
    verdict,
)
from parlour.puzzles.model import MIN_GAP, Puzzle, puzzle_id
from parlour.puzzles.shipped import path_of, shipped, write
from parlour.puzzles.terminal import pick, solve
from parlour.registry import game_ids, get_game, spec

#: A seeded Spades deal between rule bots that holds puzzles (bot_games("spades", 1, 5)).
SPADES_SEED = 5


@pytest.fixture(scope="module")
def mined():
    """The puzzles of one seeded Spades deal between rule bots."""
    return mine_bot_game(bot_games("spades", 1, SPADES_SEED)[0])


def test_the_verdict_wants_one_clear_best_or_exact_equals():
    assert verdict({1: 0.8, 2: 0.55, 3: 0.1}) == frozenset({1})
    assert verdict({1: 0.8, 2: 0.61}) is None  # 19 points: not clear enough
    assert verdict({1: 0.8, 2: 0.8, 3: 0.3}) == frozenset({1, 2})  # the same judgement
    assert verdict({1: 0.5, 2: 0.5}) is None  # nothing to find
    assert verdict({1: 0.9}) is None  # a forced move is no puzzle
    assert verdict({1: 0.8, 2: 0.6}) == frozenset({1})  # exactly the gap


def test_the_gap_rule_stops_once_the_samples_settle_it():
    settled = gap_settled(0.2)
    rng = random.Random(1)
    clear = [[0.9 + rng.random() * 0.01 for _ in range(40)],
             [0.2 + rng.random() * 0.01 for _ in range(40)]]
    assert settled((0, 1), clear, [0, 1])  # far ahead: a puzzle, no need to go on
    close = [[0.6 + rng.random() * 0.01 for _ in range(40)],
             [0.59 + rng.random() * 0.01 for _ in range(40)]]
    assert settled((0, 1), close, [0, 1])  # surely within the gap: no puzzle
    noisy = [[rng.random() for _ in range(8)], [rng.random() for _ in range(8)]]
    assert not settled((0, 1), noisy, [0, 1])  # not known yet
    same = [[0.9, 0.8, 0.7] * 5, [0.9, 0.8, 0.7] * 5, [0.1] * 15]
    assert settled((0, 1, 2), same, [0, 1, 2])  # an equal answer does not hide the gap


def test_mined_puzzles_hold_their_verdict_from_the_seats_view(mined):
    assert mined, "this deal holds puzzles"
    game = get_game("spades")
    for puzzle in mined:
        state = puzzle.position()
        assert puzzle.seat in state.to_act
        assert set(puzzle.chances) == {state.action_text(a)
                                       for a in state.legal_actions(puzzle.seat)}
        assert puzzle.gap() >= MIN_GAP - 1e-9
        assert max(puzzle.chances.values()) == puzzle.chances[puzzle.answer]
        assert set(puzzle.themes) <= set(spec("spades").puzzles().names)
        assert puzzle.id == puzzle_id("spades", puzzle.seed, 4, dict(puzzle.options),
                                      len(puzzle.moves))
        assert Puzzle.from_json(json.loads(json.dumps(puzzle.to_json()))) == puzzle
        # judged again with yet another seed, the same answer comes out
        again = Reviewer("spades", None, 99).chances(state, puzzle.seat)
        assert verdict(again, 0.1) == frozenset(
            {game.parse_action(a) for a in puzzle.answers})
        # the line is the game's own moves after the answer, within the deal
        after = state.clone()
        after.apply(after.parse_action(puzzle.answer), puzzle.seat)
        for seat, text in puzzle.line:
            after.apply(after.parse_action(text), seat)
        assert after.round == state.round


def test_a_puzzle_shows_the_seats_view_and_nothing_hidden(mined):
    for puzzle in mined:
        state = puzzle.position()
        view = puzzle.view()
        assert view == state.view(puzzle.seat)
        hidden = {c for s in range(4) if s != puzzle.seat
                  for c in state.view(s)["hand"]}  # every other hand, as its seat sees it
        assert not hidden & set(view["hand"])
        text = json.dumps(view)
        for card in hidden:
            assert f'"{card}"' not in text, f"{card} of another hand shows"


def test_a_verdict_that_changes_on_judging_again_is_thrown_away(mined, monkeypatch):
    puzzle = mined[0]
    state = puzzle.position()
    answer = state.parse_action(puzzle.answer)
    other = next(a for a in state.legal_actions(puzzle.seat) if a != answer)
    calls = []

    def judged(self, state, seat, index=None, settled=None):
        calls.append(self.seed)
        legal = state.legal_actions(seat)
        best = answer if len(calls) == 1 else other  # the second judgement disagrees
        return {a: (0.9 if a == best else 0.3) for a in legal}

    monkeypatch.setattr(Reviewer, "chances", judged)
    assert judge_position(state, puzzle.seat) is None
    assert calls == [0, derive_seed(0, "verify", 0)]  # a judgement with another seed
    calls.clear()
    monkeypatch.setattr(mining, "verdict", lambda chances, gap: frozenset({answer}))
    assert judge_position(state, puzzle.seat, MineSettings(verify_seeds=2)) is not None
    assert len(calls) == 3  # the first judgement and two more


def test_a_solver_judges_a_position_once_the_same_with_any_seed(monkeypatch):
    puzzle = shipped("foursquare")[0]  # Foursquare is reviewed by its exact expectimax
    state = puzzle.position()
    index = len(state.history)
    chances = {seed: Reviewer("foursquare", None, seed).chances(state, puzzle.seat, index)
               for seed in (0, derive_seed(0, "verify", 0), 12345)}
    assert chances[0] == chances[12345] == chances[derive_seed(0, "verify", 0)]
    calls = []
    judged = Reviewer.chances

    def counted(self, *args, **kwargs):
        calls.append(self.seed)
        return judged(self, *args, **kwargs)

    monkeypatch.setattr(Reviewer, "chances", counted)
    found = judge_position(state, puzzle.seat, MineSettings(verify_seeds=2))
    assert found == chances[0] and calls == [0]  # judging again would only repeat it
    best = max(found, key=lambda a: found[a])
    assert state.action_text(best) == puzzle.answer


def test_mining_judges_no_decision_before_the_games_first_move(monkeypatch):
    first_move = spec("foursquare").puzzles().first_move
    assert first_move > 0 and spec("spades").puzzles().first_move == 0
    judged = []

    def judge(state, seat, settings):
        judged.append(len(state.history))
        return None

    monkeypatch.setattr(mining, "judge_position", judge)
    job = bot_games("foursquare", 1, 3)[0]
    assert mine_bot_game(job) == []
    game = get_game("foursquare")
    played = play_game(game, job.seed, job.bots, dict(job.options), job.seats)
    state = game.new(job.seed, played.num_seats, **dict(job.options))
    decisions = []
    for seat, action in played.history:
        if len(state.legal_actions(seat)) > 1:
            decisions.append(len(state.history))
        state.apply(action, seat)
    assert judged == [i for i in decisions if i >= first_move] and min(decisions) < first_move


def test_only_the_answers_solve_a_puzzle(mined):
    puzzle = mined[0]
    state = puzzle.position()
    assert puzzle.solved_by(state, puzzle.answer)
    assert puzzle.solved_by(state, f"  {puzzle.answer} ")
    for text in puzzle.chances:
        assert puzzle.solved_by(state, text) == (text in puzzle.answers)
    assert not puzzle.solved_by(state, "ZZ") and puzzle.action_of(state, "ZZ") is None


def test_a_puzzle_that_does_not_hold_says_so(mined):
    broken = Puzzle.from_json({**mined[0].to_json(), "seat": (mined[0].seat + 1) % 4})
    with pytest.raises(ValueError, match="not seat"):
        broken.position()
    with pytest.raises(ValueError, match="schema"):
        Puzzle.from_json({**mined[0].to_json(), "schema": 99})


def test_a_puzzles_file_is_written_reproducibly(mined, tmp_path):
    path = tmp_path / "p.json.gz"
    write("spades", mined, {"seed": 5}, path)
    first = path.read_bytes()
    write("spades", list(reversed(mined)), {"seed": 5}, path)  # in id order whatever comes
    assert path.read_bytes() == first
    kept = json.loads(gzip.decompress(first))["puzzles"]
    assert [p["id"] for p in kept] == sorted(p.id for p in mined)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_shipped_puzzle_holds(game_id):
    puzzles = shipped(game_id)
    if not path_of(game_id).exists():
        pytest.skip(f"{game_id} ships no puzzles yet")
    names = spec(game_id).puzzles().names
    ids = set()
    for puzzle in puzzles:
        state = puzzle.position()  # rebuilds, and the answer is the seat's to play
        assert set(puzzle.chances) == {state.action_text(a)
                                       for a in state.legal_actions(puzzle.seat)}
        assert puzzle.gap() >= MIN_GAP - 1e-9 and puzzle.themes
        assert set(puzzle.themes) <= set(names)
        assert all(math.isclose(puzzle.chances[a], puzzle.chances[puzzle.answer])
                   for a in puzzle.answers)
        assert puzzle.game == game_id and puzzle.id not in ids
        ids.add(puzzle.id)


def test_the_terminal_asks_and_answers(mined):
    puzzle = mined[0]
    wrong = next(t for t in puzzle.chances if t not in puzzle.answers)
    typed = iter(["?", "ZZ", wrong, "", puzzle.answer, "q"])
    out = io.StringIO()
    score = solve([puzzle, puzzle], "en", Console(file=out, width=100), lambda _: next(typed))
    text = out.getvalue()
    assert (score.tried, score.solved) == (2, 1)
    assert "Legal now:" in text and "is not a move of this position" not in text
    assert "Not the best" in text and "Right:" in text
    assert "Chance to win after each move" in text and "Solved 1 of 2." in text


def test_the_terminal_speaks_the_readers_language(mined):
    out = io.StringIO()
    typed = iter([mined[0].answer, "q"])
    solve(mined[:1], "id", Console(file=out, width=100), lambda _: next(typed))
    assert "Benar:" in out.getvalue() and "Terpecahkan 1 dari 1." in out.getvalue()


def test_pick_narrows_by_game_and_theme():
    every = pick(None, None, 1)
    assert len(every) == sum(len(shipped(g)) for g in game_ids())
    spades = pick("spades", None, 1)
    assert all(p.game == "spades" for p in spades)
    if spades:
        theme = spades[0].themes[0]
        assert all(theme in p.themes for p in pick("spades", theme, 1))


def test_mine_writes_a_puzzles_file(tmp_path, capsys):
    out = tmp_path / "mined.json.gz"  # Clockwork Spades: its deals take milliseconds
    assert main(["puzzles", "mine", "--game", "clockwork-spades", "--games", "3",
                 "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "found" in said and out.exists()
    assert json.loads(gzip.decompress(out.read_bytes()))["game"] == "clockwork-spades"
    assert main(["puzzles", "mine", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_spades_themes_read_the_seats_bidding_and_tricks():
    game = get_game("spades")
    state = game.new(5, 4, max_deals=1)
    kit = spec("spades").puzzles()
    nil_bidder = state.to_act[0]
    assert kit.of(state, nil_bidder, game.parse_action("nil")) == ("bid-nil",)
    assert kit.of(state, nil_bidder, game.parse_action("bid 3")) == ("bidding",)
    while state.view(state.to_act[0])["phase"] == "bid":
        seat = state.to_act[0]
        state.apply(game.parse_action("nil" if seat == nil_bidder else "bid 3"), seat)
    partner, opponents = (nil_bidder + 2) % 4, {(nil_bidder + 1) % 4, (nil_bidder + 3) % 4}
    seen: dict[int, tuple[str, ...]] = {}
    while len(seen) < 4 and not state.view(0)["tricks"][nil_bidder]:
        seat = state.to_act[0]
        seen.setdefault(seat, kit.of(state, seat, state.legal_actions(seat)[0]))
        state.apply(state.legal_actions(seat)[0], seat)
    assert "keep-nil" in seen[nil_bidder] and "cover-nil" in seen[partner]
    assert all("set-nil" in seen[s] for s in opponents if s in seen)
