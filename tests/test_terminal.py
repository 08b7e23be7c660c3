"""The terminal loop shared by every game: help and ``?`` agree, prompts keep their
brackets, the greeting is said once, Hit the Deck lists the shout it accepts; and what each
table says is true: the bids a Spades table plays, the hint's unit, Foursquare's cells and
marks, Hit the Deck's obligation, the rules' controls, the command line's help and
output."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from rich.console import Console

from parlour.engine import IllegalAction, NotationError
from parlour.games import get_game
from parlour.games.hit_the_deck.rules import HAND_SHOUT, SHOUT, HitTheDeckState
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


# ----------------------------------------------------------------------------- saying what is true
def first_screen(game_id: str, seed: int = 5, typed: tuple[str, ...] = (), **kwargs: object
                 ) -> str:
    """What the terminal shows from the greeting until the player leaves after ``typed``."""
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    answers = iter([*typed, "q", "n"])
    play(game_id, seed=seed, console=console, read_line=lambda _prompt: next(answers),
         **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def test_spades_offers_blind_nil_only_where_the_table_plays_it():
    plain = first_screen("spades")
    assert "Bids: bid 4 (or 4) or nil." in plain
    assert "blind nil" not in plain and "look" not in plain
    # Played, but no team is behind by 100: told of, and the cards are face up (no "look").
    allowed = first_screen("spades", options={"blind_nil": True})
    assert "may bid blind nil before looking at the cards" in allowed
    assert "behind by 100 or more" in allowed
    assert "look" not in allowed.replace("looking", "")


def test_spades_tells_of_look_only_while_the_cards_are_face_down():
    # Behind by 0 or more: every seat starts face down, so "look" is offered and explained;
    # once looked, the legend (help) no longer mentions it.
    options = {"blind_nil": True, "blind_nil_deficit": 0}
    hidden = first_screen("spades", typed=("help",), options=options)
    assert hidden.count("look turns them up to bid as usual") == 2  # greeting and help
    looked = first_screen("spades", typed=("look", "help"), options=options)
    after = looked[looked.index("South (you) looks at the cards."):]
    assert "Bids: bid 4 (or 4) or nil; a player whose team" in after  # the help's legend
    assert "look turns them up" not in after and "Your cards are face down" not in after


def test_spades_help_tells_the_tables_own_numbers():
    options = {"target": 300, "nil_value": 50, "bag_limit": 5, "bag_penalty": 60}
    told = " ".join(first_screen("spades", typed=("help",), options=options).split())
    assert "every 5 bags cost 60. A made nil is +50, a failed one -50." in told
    assert "First team to 300 wins." in told
    assert "500" not in told and "+100" not in told


def test_the_spades_bid_hint_says_its_numbers_are_points():
    text = first_screen("spades", seed=3, typed=("?",))
    hint = " ".join(text[text.index("Hint:"):].split())
    assert hint.startswith("Hint: bid ")
    assert "(expected team score after this deal, less the cost of its bags, in points: " in hint
    assert len(re.findall(r"(nil|bid \d+) = (-?[\d,.]+)", hint)) == 5  # each move's value


def test_a_foursquare_player_is_not_told_a_seat_and_the_grid_is_explained():
    from parlour.games.foursquare.rules import COLUMNS, FRAME, SIZE, parse_cell

    text = first_screen("foursquare", typed=("d4",))
    assert "You are" not in text and "(you)" not in text
    legend = (f"The grid starts at d4 and may grow to {SIZE} x {SIZE} in any direction from "
              f"there, so columns run {COLUMNS[0]}-{COLUMNS[FRAME - 1]} and rows 1-{FRAME}.")
    assert legend in text
    # the range told is exactly the cells the notation takes
    parse_cell(f"{COLUMNS[0]}1")
    parse_cell(f"{COLUMNS[FRAME - 1]}{FRAME}")
    for outside in (f"{chr(ord(COLUMNS[FRAME - 1]) + 1)}1", f"a{FRAME + 1}"):
        with pytest.raises(NotationError):
            parse_cell(outside)
    # under each grid, the key to the marks it shows (and only those)
    screens = text.split("Card ")[1:]
    assert "Key: + a new pile may go here." in screens[0]
    assert ("Key: + a new pile may go here; · empty: no pile may go there now; the number "
            "after a card: the cards in its pile.") in screens[1]


def test_the_foursquare_key_names_a_face_down_top_when_there_is_one():
    from parlour.games.foursquare.terminal import UI

    game = get_game("foursquare")
    state = game.new(5)
    ui = UI(game, Console(file=io.StringIO()), 0, 1)
    while not any(not pile["up"] for pile in state.view(0)["piles"].values()):
        state.apply(state.legal_actions(0)[0], 0)
    assert "a card in brackets: a face-down top" in ui.grid_key(state.view(0))


def hit_obligation(hand: str, top: str = "hit 3") -> HitTheDeckState:
    text = (f"hands: {hand} | G3, B4 | G2, B5; draw: Y1, Y2, Y3, Y4, Y5, Y1, Y2, Y3; "
            f"discard: R1, {top}; to act: 0; phase: play; direction: left")
    state = get_game("hit-the-deck").from_position(text, 1)
    assert isinstance(state, HitTheDeckState)
    return state


@pytest.mark.parametrize(("hand", "top", "line", "typed"), [
    ("R3, B4", "hit 3", "Obligation: play a 3 (or a Hit the Deck card).", "R3"),
    ("Y1, B4", "hit 3", "Obligation: play a 3 (or a Hit the Deck card); you have none, so "
     "draw.", "draw"),
    ("B2, G4", "hit B", "Obligation: play a blue card (or a Hit the Deck card).", "B2"),
    ("Y2, G4", "hit B", "Obligation: play a blue card (or a Hit the Deck card); you have none, "
     "so draw.", "draw"),
])
def test_hit_the_deck_obligation_offers_only_what_is_legal(hand, top, line, typed):
    game = get_game("hit-the-deck")
    state = hit_obligation(hand, top)
    out = io.StringIO()
    ui = load_ui(game, Console(file=out, width=200, color_system=None), 0, 3)
    ui.render(state.view(0))
    shown = next(t for t in out.getvalue().splitlines() if t.startswith("Obligation:"))
    assert shown == line
    state.apply(ui.parse(state, typed), 0)  # what the line says to do is legal
    if typed != "draw":
        with pytest.raises(IllegalAction):  # and drawing, which it does not offer, is not
            hit_obligation(hand, top).apply(ui.parse(state, "draw"), 0)


def test_parlour_games_and_rules_leave_no_trailing_spaces(capsys):
    from parlour.cli import main

    for args in (["games"], ["rules", "spades"], ["games", "--lang", "id"]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert out.strip(), args
        assert [line for line in out.splitlines() if line != line.rstrip()] == [], args


@pytest.mark.parametrize(("lang", "terminal", "browser"), [
    ("en", ["type hit hand!", "press Enter when SLAP! shows"], ["H key", "space bar"]),
    ("id", ["ketik hit hand!", "tekan Enter begitu muncul TEPUK!"], ["tekan H", "tekan spasi"]),
    ("pt-BR", ["digite hit hand!", "aperte Enter quando aparecer TAPA!"],
     ["tecla H", "barra de espaço"]),
])
def test_parlour_rules_gives_the_terminals_controls(capsys, lang, terminal, browser):
    from parlour.cli import main
    from parlour.howto import howto_markdown
    from parlour.i18n import normalize

    assert main(["rules", "hit-the-deck", "--lang", lang]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for words in terminal:
        assert words in out
    for words in browser:
        assert words not in out
    page = " ".join(howto_markdown("hit-the-deck", normalize(lang) or lang).split())
    for words in browser:  # the web page keeps the browser's
        assert words in page


def test_every_flag_of_every_command_is_described():
    import argparse

    from parlour.cli import build_parser

    undescribed = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    walk(child, f"{name} {sub}")
            elif not action.help:
                undescribed.append(f"{name} {'/'.join(action.option_strings) or action.dest}")

    walk(build_parser(serving=True), "parlour")
    assert undescribed == []


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("lang", ["en", "id", "pt_BR"])
def test_help_is_reflowed_to_the_terminals_width(game_id, lang):
    """The catalogs break help lines at about 90 columns; shown as they are, an 80-column
    terminal wraps each again into a long and a short half. Reflowed, a line ends only
    where a sentence does (or before or after an indented table), and no word is lost."""
    from parlour.terminal import reflow

    game = get_game(game_id)
    ui = load_ui(game, Console(file=io.StringIO()), 0, game.new(1).num_seats, lang)
    text = ui.help_text(game.new(1).view(0))
    flowed = reflow(text)
    assert flowed.split() == text.split()
    lines = flowed.split("\n")
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if line and not line[0].isspace() and after and not after[0].isspace():
            assert line.endswith((".", "!", "?", ":")), line
    assert len(lines) < len(text.split("\n"))  # some breaks were only the catalog's
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
    ("id", "Ronde 1 mencapai 20 langkah", "Permainan berhenti setelah 1 ronde"),
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


def test_the_help_tells_the_tables_own_rules():
    """Hit the Deck's help names the table's target, Spite & Malice's what a king may do
    at this table (both said one fixed thing whatever the options)."""
    hit = first_screen("hit-the-deck", typed=("help",), options={"target": 150})
    assert "At 150 points the game ends" in hit and "At 100 points" not in hit
    plain = first_screen("spite-and-malice", typed=("help",))
    assert "A king may not start an empty centre pile." in plain
    kings = first_screen("spite-and-malice", typed=("help",), options={"king_starts": True})
    assert "A king may also start an empty centre pile." in kings
