"""Foursquare at the terminal: the grid with its coordinates, the card in hand, where it may
go, and a hint from the solver on ``?``."""

from __future__ import annotations

import random

from babel.numbers import format_percent
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from parlour.bots import make_bot, observe
from parlour.cards import SUIT_SYMBOLS, SUITS
from parlour.engine import Action, Code, Game, JsonDict, NotationError, Seat, State, derive_seed
from parlour.games.foursquare.bots import FoursquareSolverBot
from parlour.games.foursquare.rules import (
    CENTRE,
    COLUMNS,
    END_REASONS,
    FRAME,
    MAX_DOWN,
    SIZE,
    STACK,
    cell_name,
    parse_cell,
)
from parlour.terminal import TableUI
from parlour.terminal.cards import card_inline


def card_markup(text: str, up: bool = True) -> Text:
    """``7H`` as a coloured ``7♥``; a face-down top in brackets, dimmed."""
    suit = SUITS.index(text[-1])
    shown = text[:-1] + SUIT_SYMBOLS[suit]
    colour = "red" if suit in (1, 2) else "bright_white"
    if up:
        return Text(shown, style="bold " + colour)
    return Text(f"({shown})", style="dim " + colour)



class UI(TableUI):

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        super().__init__(game, console, seat, seats, lang)
        self._hinter: FoursquareSolverBot | None = None

    def help_text(self, view: JsonDict) -> str:
        return self.t("""\
[bold]Foursquare[/] (Wil Su): build a 4 x 4 grid of piles with every top card face up.
Each turn you place the card in hand: [bold]c3[/] puts it at c3, as a new pile if the cell is
empty (it must be beside a pile, not diagonally, and the grid may not grow past 4 x 4) or
on top of the pile there (a pile holds at most 4 cards). Long forms: [bold]place at c3[/],
[bold]stack on c3[/]. Green [green]+[/] marks the cells where a new pile may go.
After placing, look along the card's row: if it is strictly higher or strictly lower than
every face-up top of the other piles there (or they are all face down), every other top in
the row turns over; a tie turns nothing. Then the same for its column.
You win with sixteen piles all face up; your score is the cards left in the stock. You lose
with more than four face-down tops, or when the stock runs out.
[bold]?[/] lists the legal moves with the solver's hint ([bold]hint[/]: the hint alone),
[bold]help[/] shows this, [bold]q[/] leaves.""")

    def legend(self, view: JsonDict) -> str:
        """How cells are named, from the game's frame: the grid starts at its centre and may
        grow up to SIZE x SIZE any way from there, so the names run over the whole frame."""
        return self.t("Cells are named by the column letter and row number around the grid: "
                      "[bold]c3[/] is column c, row 3. The grid starts at {centre} and may grow "
                      "to {size} x {size} in any direction from there, so columns run "
                      "{first}-{last} and rows 1-{rows}.", centre=cell_name(CENTRE), size=SIZE,
                      first=COLUMNS[0], last=COLUMNS[FRAME - 1], rows=FRAME)

    # ------------------------------------------------------------------ drawing
    def render(self, view: JsonDict) -> None:
        c = self.console
        c.rule(self.t("Card {number} of {total}", number=view["placed"] + 1, total=40))
        self._print_grid(view)
        line = Text(self.t("In hand: "))
        if view["card"]:
            line.append_text(card_markup(view["card"]))
        line.append("    " + self.t("stock: {stock} cards    face-down tops: {down} of at most "
                                   "{most}", stock=view["stock"], down=view["face_down"],
                                   most=MAX_DOWN))
        c.print(line)
        if view["placed"] == 0:
            c.print(self.t("The first card starts the grid: type [bold]{cell}[/].",
                           cell=cell_name(CENTRE)))

    def _print_grid(self, view: JsonDict) -> None:
        """The grid, then what its marks mean."""
        self.console.print(self.grid(view))
        key = self.grid_key(view)
        if key:
            self.console.print(key)

    def grid_key(self, view: JsonDict) -> str:
        """What the marks the grid shows mean, only those it shows (rich markup)."""
        shown = self._marks(view)
        parts = []
        if "place" in shown:
            parts.append(self.t("[bold green]+[/] a new pile may go here"))
        if "empty" in shown:
            parts.append(self.t("[dim]·[/] empty: no pile may go there now"))
        if "down" in shown:
            parts.append(self.t("a card in brackets: a face-down top"))
        if "pile" in shown:
            parts.append(self.t("the number after a card: the cards in its pile"))
        return self.t("Key: {marks}.", marks="; ".join(parts)) if parts else ""

    def _marks(self, view: JsonDict) -> set[str]:
        cells = {name: kind for row in self._layout(view) for name, kind in row}
        found = set(cells.values())
        if any(not pile["up"] for pile in view["piles"].values()):
            found.add("down")
        return found

    def _layout(self, view: JsonDict) -> list[list[tuple[str, str]]]:
        """The cells the grid draws, row by row, each with what it shows: ``pile``,
        ``place`` (a new pile may go there) or ``empty``."""
        piles = view["piles"]
        places = self._places(view)
        cells = set(piles) | places or {cell_name(CENTRE)}
        rows = sorted({int(n[1]) for n in cells})
        cols = sorted({COLUMNS.index(n[0]) for n in cells})
        return [[(f"{COLUMNS[col]}{row}",
                  "pile" if f"{COLUMNS[col]}{row}" in piles else
                  "place" if f"{COLUMNS[col]}{row}" in places else "empty")
                 for col in range(cols[0], cols[-1] + 1)]
                for row in range(rows[0], rows[-1] + 1)]

    @staticmethod
    def _places(view: JsonDict) -> set[str]:
        return {t.removeprefix("place at ") for t in view["legal"] if t.startswith("place")}

    def grid(self, view: JsonDict) -> Table:
        """The grid with its coordinates: every pile's top (face-down ones in brackets) and
        height, and a green + where a new pile may go."""
        piles = view["piles"]
        layout = self._layout(view)
        table = Table(box=None, show_header=True, header_style="bold cyan", pad_edge=False,
                      padding=(0, 1))
        table.add_column("", style="bold cyan", justify="right")
        for name, _ in layout[0]:
            table.add_column(name[0], justify="center", min_width=6)
        for row in layout:
            out: list[Text | str] = [row[0][0][1:]]
            for name, kind in row:
                if kind == "pile":
                    pile = piles[name]
                    cell = card_markup(pile["cards"][-1], pile["up"])
                    cell.append(f" {len(pile['cards'])}", style="dim")
                    out.append(cell)
                elif kind == "place":
                    out.append(Text("+", style="bold green"))
                else:
                    out.append(Text("·", style="dim"))
            table.add_row(*out)
        return table

    def prompt(self, view: JsonDict) -> str:
        return self.t("Where does it go (a cell like c3)")

    # ------------------------------------------------------------------ input
    def parse(self, state: State, text: str) -> Action:
        """A bare cell places a new pile there if the cell is empty, else stacks on it."""
        t = text.strip().lower()
        if len(t) == 2:
            cell = parse_cell(t)
            view = state.view(self.seat)
            return STACK + cell if cell_name(cell) in view["piles"] else cell
        try:
            return state.parse_action(text)
        except NotationError:
            raise NotationError("not a placement: {text} (type a cell like c3, or 'place at c3' / "
                                "'stack on c3')", text=Code(repr(text))) from None

    def command(self, state: State, seat: Seat, text: str) -> bool:
        if text.strip().lower() != "hint":
            return False
        self.show_hint(state, seat)
        return True

    def show_hint(self, state: State, seat: Seat) -> None:
        action, chance = self.hint(state, seat)
        self.console.print(self.t("Hint: [bold]{move}[/] (the solver's estimated chance to win: "
                                  "{chance})", move=escape(state.action_text(action)),
                                  chance=format_percent(chance, locale=self.lang)))

    def hint(self, state: State, seat: Seat) -> tuple[Action, float]:
        """The solver's choice and its estimated chance to win, from the seat's view only."""
        if self._hinter is None:
            bot = make_bot(self.game, "solver", seat, derive_seed(state.seed, "hint"))
            assert isinstance(bot, FoursquareSolverBot)
            self._hinter = bot
        obs = observe(state, seat, random.Random(0), view=True, sample=False)
        choice = self._hinter.analyse(obs)
        return choice.action, choice.chance

    # ------------------------------------------------------------------ telling
    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        last = after["last"]
        shown = card_inline(last["card"])
        cell = action.removeprefix("place at ").removeprefix("stack on ")
        lines = [self.t("You place {card} as a new pile at {cell}.", card=shown, cell=cell)
                 if action.startswith("place") else
                 self.t("You place {card} on {cell}.", card=shown, cell=cell)]
        if last["flipped"]:
            turned = [self.t("{cell} face up", cell=name) if after["piles"][name]["up"]
                      else self.t("{cell} face down", cell=name) for name in last["flipped"]]
            lines.append("  " + self.t("Turned over: {cells}.", cells=", ".join(turned)))
        return lines

    def render_end(self, view: JsonDict) -> None:
        c = self.console
        self._print_grid(view)
        if view["result"] == "won":
            c.print(self.t("[bold green]You win![/] Score {score} (cards left in the stock).",
                           score=view["score"]))
        else:
            reason = END_REASONS.get(view["reason"] or "")
            c.print(self.t("[bold red]You lose:[/] {reason}.", reason=escape(
                self.t.render(reason) if reason is not None else view["reason"] or "")))
