"""``parlour puzzles`` at the terminal: the shipped puzzles, one after another.

Each puzzle is drawn by the game's own terminal table from the seat's view (what that
seat saw, nothing more); you type your move as at a table (``help`` for the rules, ``?``
for the legal moves: no hint here, that is the puzzle). Then you are told whether it was
the best, every choice's chance to win, and the line the game took after the best move.
Puzzles play offline, from the set each game ships; nothing is rated here (the web
parlour rates a signed-in person's tries).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.console import output_console
from parlour.engine import JsonDict, NotationError, State
from parlour.i18n import Translator, from_environment, render_error
from parlour.message import Message
from parlour.puzzles.model import Puzzle
from parlour.puzzles.shipped import every_shipped, shipped
from parlour.registry import spec
from parlour.terminal import Quit, load_ui, reflow

ReadLine = Callable[[str], str]


@dataclass
class Score:
    tried: int = 0
    solved: int = 0


def pick(game_id: str | None, theme: str | None, seed: int | None) -> list[Puzzle]:
    """The shipped puzzles of ``game_id`` (every game's if None) with ``theme``, in an
    order drawn from ``seed`` (a fresh one if None)."""
    found = list(shipped(spec(game_id).id) if game_id else every_shipped())
    if theme is not None:
        found = [p for p in found if theme in p.themes]
    random.Random(seed if seed is not None else random.SystemRandom().random()
                  ).shuffle(found)
    return found


def said(state: State, view: JsonDict, text: str, t: Translator) -> str:
    """A move in the reader's words ("playing 9H"), from the view of the seat to make it."""
    say = spec(state.game.id).say_action
    if say is None:
        return text
    words = say(view, text)
    return t.render(words) if isinstance(words, Message) else str(words)


def solve(puzzles: Sequence[Puzzle], lang: str | None = None, console: Console | None = None,
          read_line: ReadLine | None = None) -> Score:
    """Ask each puzzle in turn until they run out or the person quits; the score."""
    lang = lang or from_environment()
    t = Translator(lang)
    console = console or output_console()
    read = read_line or console.input
    score = Score()
    if not puzzles:
        console.print(t("No puzzle matches: try another game or theme."))
        return score
    try:
        for n, puzzle in enumerate(puzzles, 1):
            if not _one(puzzle, n, len(puzzles), t, console, read, score):
                break
    except (KeyboardInterrupt, EOFError, Quit):
        console.print()
    console.print(t("[bold]Solved {solved} of {tried}.[/]", solved=score.solved,
                    tried=score.tried))
    return score


def _one(puzzle: Puzzle, n: int, total: int, t: Translator, console: Console,
         read: ReadLine, score: Score) -> bool:
    state = puzzle.position()
    view = state.view(puzzle.seat)
    ui = load_ui(state.game, console, puzzle.seat, state.num_seats, t.lang)
    names = spec(puzzle.game).puzzles().names
    console.rule(t("Puzzle {n} of {total}: {game}", n=n, total=total,
                   game=t.p("game", state.game.name)))
    if puzzle.themes:
        console.print(t("Theme: {themes}", themes=", ".join(t(names.get(x, x))
                                                           for x in puzzle.themes)))
    ui.render(view)
    if state.num_seats > 1:
        console.print(t("You are {you}. Find the best move.", you=ui.seat_label(puzzle.seat)))
    else:
        console.print(t("Find the best move."))
    while True:
        text = read(f"{ui.prompt(view)} > ").strip()
        if not text:
            continue
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        if text in ("help", "h"):
            console.print(reflow(ui.help_text(view)))
            continue
        if text == "?":
            legal = ", ".join(state.action_text(a) for a in state.legal_actions(puzzle.seat))
            console.print(t("[bold]Legal now:[/] {moves}", moves=escape(legal)))
            continue
        try:
            action = ui.parse(state, text)
        except NotationError as err:
            console.print(t("[red]{reason}[/] - try again ([bold]?[/] for your moves, "
                            "[bold]help[/] for the rules)",
                            reason=escape(render_error(err, t.lang))))
            continue
        if action not in state.legal_actions(puzzle.seat):
            console.print(t("[red]{move} is not a move of this position[/]",
                            move=escape(text)))
            continue
        break
    played = state.action_text(action)
    score.tried += 1
    best = said(state, view, puzzle.answer, t)
    if puzzle.solved_by(state, played):
        score.solved += 1
        console.print("[green]" + t("Right: {move} is the best move.", move=escape(best)) + "[/]")
    else:
        console.print("[red]" + t("Not the best: {move} was.", move=escape(best)) + "[/]")
    table = Table(title=t("Chance to win after each move"))
    table.add_column(t("Move"))
    table.add_column(t("Chance to win"), justify="right")
    for text, chance in puzzle.chances.items():
        mark = " ←" if text == played else ""
        table.add_row(escape(said(state, view, text, t)) + mark, f"{round(chance * 100)}%")
    console.print(table)
    if puzzle.line:
        after = state.clone()
        console.print(t("[bold]What followed the best move:[/]"))
        for line in ui.narrate(view, puzzle.seat, puzzle.answer, _then(after, puzzle)):
            console.print(line)
        for seat, text in puzzle.line:
            before = after.view(puzzle.seat)
            after.apply(after.parse_action(text), seat)
            for line in ui.narrate(before, seat, text, after.view(puzzle.seat)):
                console.print(line)
    again = read(t("Enter for the next puzzle, q to stop") + " > ").strip().lower()
    return again not in ("q", "quit", "exit")


def _then(state: State, puzzle: Puzzle) -> JsonDict:
    """Apply the answer to ``state`` (the puzzle's position); the seat's view after it."""
    state.apply(state.parse_action(puzzle.answer), puzzle.seat)
    return state.view(puzzle.seat)
