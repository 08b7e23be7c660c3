"""Puzzles in Debian's Chromium (issue 35, item 1): Ana, signed in on a computer in English,
finds the puzzles from the lobby, plays the answer on the game's own table and sees her
rating rise, then misses the next one and is shown the best move on the cards; a guest on
a phone reading Indonesian solves the puzzle of the day, the page within the phone's width.
The answers come from the shipped set the server loaded as it started."""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from browser_kit import OVERLAPS, page_of, parlour, shot
from game_checks import piece
from playwright.sync_api import expect

from parlour.puzzles.model import Puzzle
from parlour.puzzles.shipped import every_shipped

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

PASSWORD = "correct horse 7"


@pytest.fixture
def base(tmp_path):
    with parlour(tmp_path, puzzles_shipped=True) as url:
        yield url


def shown_percent(chance: float) -> str:
    """A chance as the page writes it (``Intl.NumberFormat``'s percent: half away from zero,
    on the number's exact value; Python's ``round`` rounds 62.5 to 62, the page to 63)."""
    return f"{(Decimal(chance) * 100).quantize(Decimal(1), ROUND_HALF_UP)}%"


def shown(page: Any) -> Puzzle:
    """The puzzle the page shows once the last one asked for is there (its link names
    it), with its answer from the set."""
    expect(page.locator(".puzzle-head")).to_have_attribute("aria-busy", "false")
    expect(page.locator(".puzzle-link")).to_be_visible()
    puzzle_id = page.locator(".puzzle-link").get_attribute("href").rsplit("/", 1)[-1]
    return next(p for p in every_shipped() if p.id == puzzle_id)


def play(page: Any, move: str, tap: bool = False) -> None:
    """Play ``move`` on the puzzle's table as a person does: its card or its button; in
    Spite & Malice the card, then where it goes; Hit the Deck's shouted With a Hand, the
    shout, then the card."""
    board = page.locator(".puzzle-board")

    def press(selector: str) -> None:
        target = board.locator(selector).first
        if tap:  # a phone's fanned hand: the card is reached as a finger reaches it
            target.dispatch_event("click")
        else:
            target.click()

    if re.fullmatch(r"[hps]\d?>[cs]\d", move):
        source, target = move.split(">")
        press(f'[data-key="{source}"]')
        press(f'[data-key="{target}"]')
    elif move == "hit hand!":
        press(".htd-shout")
        press('[data-card="hit hand"]')
    else:
        press(f'[data-card="{move}"], [data-action="{move}"]')


def test_a_signed_in_player_solves_and_misses_on_the_cards(browser, base):
    ana = page_of(browser, 1280, 900)
    res = ana.request.post(base + "/api/account/signup", data=json.dumps(
        {"name": "Ana", "password": PASSWORD}), headers={"Content-Type": "application/json"})
    assert res.ok, res.text()
    ana.goto(base + "/")
    ana.locator(".players-links a", has_text="Puzzles").click()
    expect(ana.locator(".puzzle-standing")).to_contain_text("Your puzzle rating: 1500")
    ana.locator("#puzzle-game").select_option("spades")
    puzzle = shown(ana)
    assert puzzle.game == "spades"
    expect(ana.locator(".puzzle-prompt")).to_contain_text("Spades: find the best move.")
    play(ana, puzzle.answer)
    expect(ana.locator(".puzzle-verdict")).to_contain_text("Right, that is the best move")
    expect(ana.locator(".puzzle-standing .puzzle-up")).to_be_visible()
    rows = ana.locator(".puzzle-chances li")
    expect(rows).to_have_count(len(puzzle.chances))
    expect(rows.first).to_contain_text(shown_percent(puzzle.chances[puzzle.answer]))
    shot(ana, "puzzle-solved")

    ana.locator(".puzzle-next-after").click()
    expect(ana.locator(".puzzle-result")).to_be_hidden()
    missed = shown(ana)
    assert missed.id != puzzle.id and missed.game == "spades"
    wrong = next(t for t in missed.chances if t not in missed.answers)
    play(ana, wrong)
    expect(ana.locator(".puzzle-verdict")).to_contain_text("Not the best. The best move:")
    expect(ana.locator(".puzzle-board .review-best").first).to_be_visible()
    expect(ana.locator(".puzzle-standing .puzzle-down")).to_be_visible()
    expect(ana.locator(".puzzle-chances li.played")).to_contain_text("(yours)")

    ana.locator(".puzzle-next-after").click()  # the third: shown without a try
    third = shown(ana)
    ana.locator(".puzzle-give-up").click()
    expect(ana.locator(".puzzle-verdict")).to_have_text(re.compile(r"^The best move:"))
    expect(ana.locator(".puzzle-chances li.best").first).to_contain_text(
        shown_percent(third.chances[third.answer]))


def test_a_guest_on_a_phone_solves_the_puzzle_of_the_day_in_indonesian(browser, base):
    wayan = page_of(browser, 390, 844, touch=True)
    wayan.context.add_cookies([{"name": "parlour_lang", "value": "id", "url": base}])
    wayan.context.add_init_script("localStorage.setItem('parlour.lang', 'id')")
    wayan.goto(base + "/puzzles/daily")
    expect(wayan.locator(".puzzle-prompt")).to_contain_text("Teka-teki hari ini")
    expect(wayan.locator(".puzzle-standing")).to_contain_text("Masuk untuk mendapat peringkat")
    puzzle = shown(wayan)
    assert wayan.url.endswith(f"/puzzles/{puzzle.id}")  # the day's puzzle has its address
    play(wayan, puzzle.answer, tap=True)
    expect(wayan.locator(".puzzle-verdict")).to_contain_text("Benar, itu langkah terbaik")
    expect(wayan.locator(".puzzle-result h2").first).to_have_text(
        "Peluang menang setelah tiap langkah")
    assert wayan.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(wayan, "puzzle-daily-phone")


def test_every_games_puzzle_is_drawn_by_its_table_and_answered(browser, base):
    """One puzzle of each game that ships some, by its address: its own table draws the
    seat's view, its pieces apart as on the table's own page (the puzzles page gives a felt
    less height: Hit the Deck's once laid its obligation over the seat's plate), and the
    answer played on it is judged."""
    page = page_of(browser, 1280, 900)
    games = sorted({p.game for p in every_shipped()})
    assert "spades" in games
    for game in games:
        puzzle = min((p for p in every_shipped() if p.game == game), key=lambda p: p.id)
        page.goto(f"{base}/puzzles/{puzzle.id}")
        expect(page.locator(".puzzle-prompt")).to_contain_text("find the best move")
        assert shown(page).id == puzzle.id
        apart = list(piece(game, "BROWSER_FIT")["apart"])
        assert not page.evaluate(OVERLAPS, apart), (game, page.evaluate(OVERLAPS, apart))
        play(page, puzzle.answer, tap=True)
        expect(page.locator(".puzzle-verdict")).to_contain_text("Right, that is the best move")
