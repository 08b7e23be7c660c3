"""Spite & Malice at the terminal: both payoff piles, side piles fanned top first, the
centre piles with the rank each stands at, your numbered hand, the stock and the scores."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from parlour.cards import SUIT_SYMBOLS, SUITS
from parlour.engine import Game, JsonDict, Seat
from parlour.terminal import TableUI

HELP = """[bold]Spite & Malice[/]: be the first to empty your payoff pile.
Centre piles are built up from the ace to the queen, suits ignored; a king is wild and
stands for the rank the pile needs (but may not start an empty pile). A finished pile is
shuffled into the stock. Your turn starts by drawing to five cards. Then move, typing:
  [bold]h3>c1[/]  hand card 3 onto centre pile 1
  [bold]p>c2[/]   your payoff top onto centre pile 2
  [bold]s2>c1[/]  the top of your side pile 2 onto centre pile 1
  [bold]h5>s4[/]  hand card 5 onto your side pile 4 - this ends your turn
Hand slots keep their number all turn; drawn cards fill the empty ones. Play out your whole
hand and you draw five more. Side piles take any card; only the top one may be played, and
only onto a centre pile. Emptying your payoff wins the round and scores the cards left in
the other payoff pile; a round is drawn if the stock runs out. First to the target wins.
[bold]?[/] lists your moves with a hint, [bold]help[/] shows this, [bold]q[/] leaves (you can
save the record)."""


def card_markup(text: str, dim: bool = False) -> Text:
    """``QS`` as a coloured ``Q♠``; a joker as ``Jkr``."""
    if text == "Joker":
        return Text("Jkr", style=("dim " if dim else "bold ") + "magenta")
    suit = SUITS.index(text[-1])
    colour = "red" if suit in (1, 2) else "bright_white"
    return Text(text[:-1] + SUIT_SYMBOLS[suit], style=("dim " if dim else "bold ") + colour)


def _plain(text: str) -> str:
    return card_markup(text).plain


class UI(TableUI):
    help = HELP

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int) -> None:
        super().__init__(game, console, seat, seats)
        self._told = 0  # the number of the last logged event already told

    def _untold(self, view: JsonDict) -> list[str]:
        """Lines for the events of the view's log not yet told, oldest first."""
        lines = []
        for e in view["log"]:
            if e["n"] > self._told:
                self._told = e["n"]
                line = self._event(e)
                if line:
                    lines.append(line)
        return lines

    # ------------------------------------------------------------------ the table
    def render(self, view: JsonDict) -> None:
        c = self.console
        for line in self._untold(view):
            c.print(line)
        me, opp = self.seat, 1 - self.seat
        scores = view["scores"]
        c.rule(f"Round {view['round']} - {self.name(me)} {scores[me]}, "
               f"{self.name(opp)} {scores[opp]} (first to {view['target']})")
        c.print(self._player_line(view, opp))
        c.print(self._side_lines(view, opp))
        c.print(self._centre_line(view))
        c.print(Text(f"Stock: {view['stock']} cards    Piles completed this round: "
                     f"{view['completed']}", style="dim"))
        c.print(self._side_lines(view, me))
        c.print(self._player_line(view, me))
        if view["hand"] is not None:
            c.print(self._hand_line(view["hand"]))
        if view["legal"]:
            builds = [m for m in view["legal"] if ">c" in m]
            c.print("Builds you can make: " + (" ".join(builds) if builds else "none")
                    + "   (or discard: h<slot>>s<pile>)")

    def _player_line(self, view: JsonDict, seat: Seat) -> Text:
        pay = view["payoff"][seat]
        line = Text(f"{self.name(seat):14} payoff ")
        if pay["top"]:
            line.append("[")
            line.append_text(card_markup(pay["top"]))
            line.append("]")
        else:
            line.append("empty")
        line.append(f" {pay['size']} left")
        if seat != self.seat:
            line.append(f"    hand: {view['hand_sizes'][seat]} cards")
        if seat in view["to_act"]:
            line.append("   < to play", style="bold yellow")
        return line

    def _side_lines(self, view: JsonDict, seat: Seat) -> Text:
        line = Text("  ")
        for k, pile in enumerate(view["side_piles"][seat], start=1):
            line.append(f"s{k}: " if seat == self.seat else f"side {k}: ", style="bold")
            if not pile:
                line.append("-")
            for i, card in enumerate(pile):  # top first
                line.append_text(card_markup(card, dim=i > 0))
                line.append(" ")
            line.append("   ")
        return line

    def _centre_line(self, view: JsonDict) -> Text:
        line = Text("Centre  ")
        for j, pile in enumerate(view["centre"], start=1):
            line.append(f"c{j}: ", style="bold")
            if pile["cards"]:
                top = pile["cards"][-1]
                line.append_text(card_markup(top))
                stands = pile["rank"]
                wild = top == "Joker" or top[:-1] == "K"
                line.append(f" at {stands}" + (" (wild)" if wild else ""))
            else:
                line.append("empty")
            line.append(f", needs {pile['needs']}")
            line.append("     ")
        return line

    def _hand_line(self, hand: list[str | None]) -> Text:
        line = Text("Your hand:  ")
        for i, card in enumerate(hand, start=1):
            line.append(f"{i}:", style="cyan")
            if card is None:
                line.append("-")
            else:
                line.append_text(card_markup(card))
            line.append("   ")
        return line

    def prompt(self, view: JsonDict) -> str:
        return "Your move (h3>c1, p>c2, s2>c1, h5>s4)"

    # ------------------------------------------------------------------ narration
    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        return self._untold(after)

    def _event(self, e: JsonDict) -> str | None:
        kind = e["kind"]
        who = self.name(e["seat"]) if e["seat"] >= 0 else ""
        if kind == "build":
            src = e["action"].split(">")[0]
            where = ("the payoff pile" if src == "p" else f"side pile {src[1:]}"
                     if src[0] == "s" else f"hand slot {src[1:]}")
            return (f"{who} plays [bold]{_plain(e['card'])}[/] from {where} onto centre "
                    f"pile {e['centre']} (now at {e['stands_at']}).")
        if kind == "discard":
            return (f"{who} puts [bold]{_plain(e['card'])}[/] on side pile {e['side']}; "
                    f"end of turn.")
        if kind == "draw":
            n = e["count"]
            return f"[dim]{who} draws {n} card{'s' if n != 1 else ''}.[/]"
        if kind == "hand emptied":
            return f"{who} has played the whole hand and draws five more."
        if kind == "complete":
            return (f"Centre pile {e['centre']} is complete: shuffled into the stock "
                    f"({e['stock']} cards).")
        if kind == "redeal":
            tops = " and ".join(_plain(t) for t in e["tops"])
            return f"The payoff tops are equal ({tops}): the cards are shuffled and dealt again."
        if kind == "deal":
            tops = e["tops"]
            return (f"[bold]Round {e['round']}[/]: payoff tops {self.name(0)} "
                    f"{_plain(tops[0])}, {self.name(1)} {_plain(tops[1])}; "
                    f"{self.name(e['first'])} starts.")
        if kind == "round over":
            scores = " - ".join(f"{self.name(s)} {e['scores'][s]}" for s in (0, 1))
            if e["winner"] is None:
                why = ("the stock has run out" if e["reason"] == "stock exhausted"
                       else "the turn limit is reached")
                return f"[bold]Round {e['round']} is drawn[/]: {why}. Scores: {scores}."
            return (f"[bold]{self.name(e['winner'])} empties the payoff pile and wins round "
                    f"{e['round']}[/], scoring {e['points']}. Scores: {scores}.")
        return escape(str(e))

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        scores = view["scores"]
        if len(outcome["winners"]) != 1:
            self.console.print(f"[bold]The match is drawn[/] at {scores[0]} - {scores[1]}.")
            return
        winner = outcome["winners"][0]
        mine = "You win" if winner == self.seat else "You lose"
        self.console.print(f"[bold]{mine}![/] {self.name(winner)} takes the match "
                           f"{scores[winner]} to {scores[1 - winner]}.")
