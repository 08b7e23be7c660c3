"""The terminal loop shared by every game: help and ``?`` agree, prompts keep their
brackets, the greeting is said once, and Hit the Deck lists the shout it accepts."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from rich.console import Console

from parlour.games import get_game
from parlour.games.hit_the_deck import HAND_SHOUT, SHOUT, HitTheDeckState
from parlour.registry import game_ids
from parlour.terminal import load_ui, play


def scripted(game_id: str, lines: list[str], seed: int = 5) -> tuple[str, list[str]]:
    """Play ``game_id`` at the terminal with typed ``lines``; the output and the prompts."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    answers = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    play(game_id, seed=seed, console=console, read_line=read)
    return out.getvalue(), prompts


@pytest.mark.parametrize("game_id", game_ids())
def test_help_says_what_the_question_mark_does(game_id):
    text, _ = scripted(game_id, ["help", "?", "q", "n"])
    shown_help = text[:text.index("Legal now:")]
    # help tells "?" lists the moves with a hint (never "? shows this"), and "?" does that
    assert re.search(r"\?\s+lists (your|the legal)\s+moves", shown_help), shown_help
    assert re.search(r"help\s+shows\s+this", shown_help)
    assert not re.search(r"\?\s+shows\s+this", shown_help)
    after = text[text.index("Legal now:"):]
    assert "Hint" in after


def test_the_save_prompts_keep_their_brackets(tmp_path):
    # The real command, whose prompts go through rich: "[y/N]" must not be eaten as markup.
    target = tmp_path / "kept.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "play", "foursquare", "--seed", "5"],
        input=f"q\ny\n{target}\n", capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Save the record of this game? [y/N]" in proc.stdout
    assert "File to save it in [foursquare-5.txt]:" in proc.stdout
    assert target.exists()


def test_the_foursquare_greeting_is_said_once():
    text, _ = scripted("foursquare", ["q", "n"])
    assert len(re.findall(r"Type help for the rules", text)) == 1, text


def hit_hand_position() -> HitTheDeckState:
    text = ("hands: hit hand, R1 | G3, B4 | G2, B5; draw: Y1, Y2, Y3, Y4, Y5, Y1, Y2, Y3; "
            "discard: R3; to act: 0; phase: play; direction: left")
    state = get_game("hit-the-deck").from_position(text, 1)
    assert isinstance(state, HitTheDeckState)
    return state


def test_hit_the_deck_lists_the_shout_and_every_listed_form_plays_it():
    game = get_game("hit-the-deck")
    state = hit_hand_position()
    out = io.StringIO()
    ui = load_ui(game, Console(file=out, width=200, color_system=None), 0, 3)
    ui.render(state.view(0))
    may = next(line for line in out.getvalue().splitlines() if line.startswith("You may: "))
    assert f"hit hand! (or the shout, {SHOUT})" in may
    assert "hit hand (without the shout: you draw four)" in may
    for typed in ("hit hand!", SHOUT, SHOUT.lower().rstrip("!")):
        played = state.clone()
        played.apply(ui.parse(played, typed), 0)
        assert played.history[-1] == (0, HAND_SHOUT), typed
        assert played.sizes[0] == 1  # one card gone, no penalty
        assert not any(e["type"] == "penalty" for e in played.view(0)["events"])


def test_hit_the_deck_typed_shout_at_the_table_costs_nothing():
    # Typed at the prompt through the loop: the shout form plays With a Hand shouted.
    text = scripted_hit(SHOUT)
    assert f"plays hit hand and shouts {SHOUT}" in text
    assert "did not shout" not in text


def scripted_hit(typed: str) -> str:
    """The first deal where seat 0 opens holding a With a Hand: it types ``typed``, slaps,
    then leaves; the output."""
    game = get_game("hit-the-deck")
    for seed in range(1, 200):
        state = game.new(seed, 3)
        if state.turn == 0 and "hit hand!" in {game.action_text(a)
                                                for a in state.legal_actions(0)}:
            break
    else:  # pragma: no cover - the deck holds four
        raise AssertionError("no deal opens with seat 0 holding a With a Hand")
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    answers = iter([typed, "", "q", "n"])  # "" answers the slap prompt
    play("hit-the-deck", seed=seed, seats=3, console=console,
         read_line=lambda _prompt: next(answers))
    return out.getvalue()


def finished_at_a_stop(game_id: str, seats: int, **options: object):
    """A match played at random to its end with its safety stops set low."""
    import random

    state = get_game(game_id).new(4, seats, **options)
    rng = random.Random(4)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def shown(game_id: str, seats: int, lang: str, draw) -> str:
    out = io.StringIO()
    ui = load_ui(get_game(game_id), Console(file=out, width=200, color_system=None), 0, seats,
                 lang)
    draw(ui)
    return " ".join(out.getvalue().split())


@pytest.mark.parametrize(("lang", "round_told", "match_told"), [
    ("en", "Round 1 reached 20 moves, the most a round may last",
     "The game stops after 1 round, the most it may last: nobody reached 1,000"),
    ("id", "Babak 1 mencapai 20 langkah", "Permainan berhenti setelah 1 babak"),
    ("pt_BR", "A rodada 1 chegou a 20 jogadas", "O jogo para depois de 1 rodada")])
def test_the_terminal_tells_the_players_of_a_safety_stop(lang, round_told, match_told):
    state = finished_at_a_stop("hit-the-deck", 3, max_turns=20, max_rounds=1, target=1000)
    view = state.view(0)
    text = shown("hit-the-deck", 3, lang, lambda ui: (ui._round_summary(view["rounds"][0]),
                                                      ui.render_end(view),
                                                      ui.render_stop(view)))
    assert round_told in text and match_told in text
    spades = finished_at_a_stop("spades", 4, max_deals=1)
    text = shown("spades", 4, lang, lambda ui: ui.render_stop(spades.view(0)))
    assert text.startswith({"en": "The match stops after 1 deal", "id": "Pertandingan berhenti",
                            "pt_BR": "A partida para depois de 1 mão"}[lang])
    # A match its rules ended: nothing more is said.
    clockwork = finished_at_a_stop("clockwork-spades", 2)
    assert shown("clockwork-spades", 2, lang, lambda ui: ui.render_stop(clockwork.view(0))) == ""
