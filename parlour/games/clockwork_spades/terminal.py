"""Clockwork Spades at the terminal: the clock drawn as a clock, due positions lit, and a
short log line for every automatic step (King passed, dead card discarded, forced plays,
spade taken), read from the view's event log."""

from __future__ import annotations

import math
import re

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from parlour.cards import SUIT_SYMBOLS, SUITS
from parlour.engine import Game, JsonDict, Seat
from parlour.games.clockwork_spades.rules import narrate_event
from parlour.i18n import Translator, cards_as_symbols
from parlour.terminal import TableUI
from parlour.terminal.cards import card_inline

_SYMBOL = re.compile(r"(?:10|[2-9AJQK])[\u2663\u2666\u2665\u2660]")

WIDTH, HEIGHT = 53, 15
RX, RY = 21.0, 6.0


def symbol(card: str) -> str:
    """``QS`` as ``Q♠``."""
    return card[:-1] + SUIT_SYMBOLS[SUITS.index(card[-1])]


def _symbol_markup(shown: str) -> str:
    """``Q♠`` (as the narration shows a card) in the card's colour."""
    colour = "red" if shown[-1] in "\u2666\u2665" else "bright_white"
    return f"[bold {colour}]{escape(shown)}[/]"


def clock_cells() -> dict[int, tuple[int, int]]:
    """Where each position's label is centred: (column, row) on a WIDTH x HEIGHT grid."""
    cx, cy = WIDTH // 2, HEIGHT // 2
    cells = {}
    for p in range(1, 13):
        angle = math.radians(30 * p)
        cells[p] = (round(cx + RX * math.sin(angle)), round(cy - RY * math.cos(angle)))
    return cells


CELLS = clock_cells()


def draw_clock(view: JsonDict, t: Translator | None = None) -> list[Text]:
    """The clock as rows of text: each spade with the number of cards played on it, due
    spades lit, empty positions as a dim number, the stock in the centre (its words in
    ``t``'s language, English by default)."""
    t = t or Translator("en")
    placed: dict[int, list[tuple[int, Text]]] = {}
    for spot in view["clock"]:
        p = spot["position"]
        if spot["spade"] is None:
            label = Text(f"({p})", style="dim")
        else:
            label = Text(symbol(spot["spade"]))
            if spot["cards"]:
                label.append(f"+{len(spot['cards'])}")
            label.stylize("bold black on yellow" if spot["due"] else "bold")
            if spot["due"]:
                label = Text("[", style="yellow") + label + Text("]", style="yellow")
        col, row = CELLS[p]
        placed.setdefault(row, []).append((col - len(label.plain) // 2, label))
    cx, cy = WIDTH // 2, HEIGHT // 2
    stock = view["stock_size"]
    centre = [Text(t("stock"), style="dim"), Text(t.n("{n} card", "{n} cards", stock)),
              Text(t("K♠ under it") if view["king_of_spades_in_stock"] else t("K♠ drawn"),
                   style="dim")]
    for i, line in enumerate(centre):
        placed.setdefault(cy - 1 + i, []).append((cx - len(line.plain) // 2, line))
    rows = []
    for r in range(HEIGHT):
        line = Text("  ")
        at = 0
        for col, label in sorted(placed.get(r, []), key=lambda x: x[0]):
            col = max(col, at)
            line.append(" " * (col - at))
            line.append_text(label)
            at = col + len(label.plain)
        rows.append(line)
    return rows


class UI(TableUI):

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        super().__init__(game, console, seat, seats, lang)
        self.shown = -1  # the last event already told

    def help_text(self, view: JsonDict) -> str:
        return self.t(
            """[bold]Clockwork Spades[/]: the spades Ace to Queen lie on a clock (Ace at 1,
Jack at 11, Queen at 12), the King of Spades in the centre under the stock.
Each turn is [bold]due[/] on the next three spades clockwise, empty positions skipped.
Every card in your hand that matches a due spade is played onto it for you.
If you can play nothing, take one of the due spades as a penalty: type
[bold]take 5[/] (or [bold]5[/], or [bold]5s[/]). Cards on a taken spade are discarded.
A card whose spade has gone is discarded at the start of your turn and replaced.
A King you draw goes face up to your opponent.
The game ends when a draw reaches the King of Spades: its drawer wins with all
four Kings; otherwise (and once all twelve spades are taken) fewer penalty
spades win. [bold]?[/] lists your moves with a hint, [bold]help[/] shows this,
[bold]q[/] leaves.""")

    def legend(self, view: JsonDict) -> str:
        return self.t("Type [bold]take 5[/] (or [bold]5[/]) to take the spade at position 5; "
                      "A is 1, J is 11, Q is 12.")

    # ----------------------------------------------------------------- the table
    def render(self, view: JsonDict) -> None:
        self._tell(view)
        c = self.console
        c.rule(self.t("Clockwork Spades - turn {turn}", turn=view["turn"]))
        for row in draw_clock(view, self.t):
            c.print(row)
        self._status(view)

    def _status(self, view: JsonDict) -> None:
        c = self.console
        me, other = self.seat, 1 - self.seat
        if view["due"]:
            spades = {s["position"]: s["spade"] for s in view["clock"]}
            due = " ".join(card_inline(spades[p]) for p in view["due"])
            c.print(self.t("Due now: {spades}", spades=due))
        piles = [f"{card_inline(s['spade'])}: " + " ".join(card_inline(x) for x in s["cards"])
                 for s in view["clock"] if s["cards"]]
        if piles:
            c.print(self.t("On the clock: {piles}", piles="   ".join(piles)))
        for seat in (me, other):
            pen = (" ".join(card_inline(x) for x in view["penalty"][seat])
                   or self.t.p("penalty spades", "none"))
            kings = (" ".join(card_inline(x) for x in view["kings"][seat])
                     or self.t.p("kings", "none"))
            c.print(self.t("{who}: penalty {count} ({cards}); Kings {kings}",
                           who=self.name(seat), count=len(view["penalty"][seat]), cards=pen,
                           kings=kings))
        c.print(self.t("{who} holds {count} cards. Discard pile: {discards}.",
                       who=self.name(other), count=view["hand_sizes"][other],
                       discards=view["discard_size"]))
        if view["hand"] is not None:
            live = {s["position"] for s in view["clock"] if s["spade"]}
            shown = []
            for card in view["hand"]:
                rank = card[:-1]
                pos = {"A": 1, "J": 11, "Q": 12}.get(rank) or int(rank)
                dead = pos not in live
                mark = card_inline(card) + ("[dim]" + self.t("(dead)") + "[/]" if dead else "")
                shown.append(mark)
            c.print(self.t("Your hand: ") + (" ".join(shown) or self.t.p("hand", "empty")))
        if view["legal"]:
            c.print(self.t("You can play nothing on the due spades: take one - {moves}",
                           moves=", ".join(f"[bold]{a}[/]" for a in view["legal"])))

    def prompt(self, view: JsonDict) -> str:
        return self.t("Take which spade")

    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        return self._lines(after)

    def render_end(self, view: JsonDict) -> None:
        self._tell(view)
        c = self.console
        c.rule(self.t("Game over"))
        for row in draw_clock(view, self.t):
            c.print(row)
        self._status(view)
        end = view["end"] or {}
        pen = end.get("penalties", [0, 0])
        if end.get("four_kings") is not None:
            who = end["four_kings"]
            verdict = self._verdict(who)
            c.print(self.t("[bold]{verdict}[/] with all four Kings.", verdict=verdict))
        elif end.get("winner") is None:
            c.print(self.t("[bold]A draw[/]: {count} penalty spades each.", count=pen[0]))
        else:
            who = end["winner"]
            c.print(self.t("[bold]{verdict}[/]: {count} penalty spades to {other}.",
                           verdict=self._verdict(who), count=pen[who], other=pen[1 - who]))

    def _verdict(self, who: Seat) -> str:
        return self.t("You win") if who == self.seat else self.t("{who} wins",
                                                                  who=self.name(who))

    # ----------------------------------------------------------------- the log
    def _tell(self, view: JsonDict) -> None:
        for line in self._lines(view):
            self.console.print(line)

    def _lines(self, view: JsonDict) -> list[str]:
        """Log lines for the events not told yet: one per turn and one per step, the draws
        of one player in a row folded into one line."""
        new = [ev for ev in view["events"] if ev["seq"] > self.shown]
        if not new:
            return []
        self.shown = new[-1]["seq"]
        lines: list[str] = []
        i = 0
        while i < len(new):
            ev = new[i]
            if ev["kind"] == "draw":
                j = i
                while j < len(new) and new[j]["kind"] == "draw" and new[j]["seat"] == ev["seat"]:
                    j += 1
                lines.append(self._draws(new[i:j]))
                i = j
                continue
            line = self._event(ev)
            if line:
                lines.append(line)
            i += 1
        return lines

    def _draws(self, draws: list[JsonDict]) -> str:
        who = self.name(draws[0]["seat"])
        cards = [d["card"] for d in draws if d.get("card")]
        if cards:
            return "  " + self.t("[dim]{who} draws[/] {cards}", who=escape(who),
                                 cards=" ".join(card_inline(c) for c in cards))
        return "  " + self.t.n("[dim]{who} draws[/] {n} card", "[dim]{who} draws[/] {n} cards",
                               len(draws), who=escape(who))

    def _event(self, ev: JsonDict) -> str:
        """The game's own sentence for an event, with the cards in colour."""
        kind = ev["kind"]
        if kind in ("draw", "end"):  # draws are grouped by _draws; the end by render_end
            return ""
        message = cards_as_symbols(narrate_event(ev, [self.name(s) for s in range(2)]))
        text = escape(self.t.render(message))
        text = _SYMBOL.sub(lambda m: _symbol_markup(m.group(0)), text)
        if kind == "turn":
            return f"[bold]{text}[/]"
        if kind == "take":
            return f"  [red]{text}[/]"
        return f"  {text}"
