"""Spades at the terminal: the hand in suit colours, bids, the trick, scores after each deal."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from parlour.cards import DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS, parse_card, suit_of
from parlour.engine import JsonDict, Seat
from parlour.terminal import TableUI

HELP = """[bold]Spades[/]: four players, partners sit opposite (you and North against West
and East).
Bid how many tricks you expect to take ([bold]bid 4[/] or just [bold]4[/]), or [bold]nil[/] to
take none. Then play a card by typing it: [bold]QS[/], [bold]10H[/] (or TH), [bold]2c[/].
Follow the suit led if you can; otherwise play anything. A spade beats every other suit.
You may not lead a spade until spades are broken (a spade has been played), unless you hold
only spades. Your team scores 10 per trick bid if it makes its bid, each extra trick is a
bag worth 1, and every 10 bags cost 100. A made nil is +100, a failed one -100.
First team to 500 wins. [bold]?[/] lists your moves with a hint from the strongest bot,
[bold]q[/] leaves (you can save the record), [bold]help[/] shows this."""


def card_markup(text: str, dim: bool = False) -> Text:
    """``QS`` as a coloured ``Q♠``."""
    card = parse_card(text)
    colour = "red" if suit_of(card) in (DIAMONDS, HEARTS) else "bright_white"
    shown = text[:-1] + SUIT_SYMBOLS[SUITS.index(text[-1])]
    return Text(shown, style=("dim " if dim else "bold ") + colour)


class UI(TableUI):
    help = HELP

    def render(self, view: JsonDict) -> None:
        c = self.console
        c.rule(f"Deal {view['deal']} - dealer {self.name(view['dealer'])}")
        c.print(self._table(view))
        if view["trick"]:
            line = Text("On the table: ")
            for play in view["trick"]:
                line.append(f"{self.name(play['seat'])} ")
                line.append_text(card_markup(play["card"]))
                line.append("   ")
            c.print(line)
        elif view["last_trick"] and view["phase"] == "play":
            last = view["last_trick"]
            line = Text("Last trick: ")
            for play in last["cards"]:
                line.append_text(card_markup(play["card"], dim=True))
                line.append(" ")
            line.append(f"won by {self.name(last['winner'])}")
            c.print(line)
        if view["hand_hidden"]:
            c.print("Your cards are face down: bid [bold]blind nil[/] or [bold]look[/].")
        elif view["hand"]:
            legal = set(view["legal"])
            hand = Text("Your hand: ")
            for card in view["hand"]:
                hand.append_text(card_markup(card, dim=view["phase"] == "play"
                                             and bool(legal) and card not in legal))
                hand.append(" ")
            c.print(hand)
        if view["legal"] and view["phase"] == "play":
            c.print("You may play: " + " ".join(view["legal"]))

    def _table(self, view: JsonDict) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("Player")
        table.add_column("Bid", justify="right")
        table.add_column("Tricks", justify="right")
        table.add_column("Team score", justify="right")
        table.add_column("Bags", justify="right")
        for seat in range(4):
            bid = view["bids"][seat]
            team = seat & 1
            marker = "> " if seat in view["to_act"] else "  "
            table.add_row(marker + self.name(seat), "-" if bid is None else str(bid),
                          str(view["tricks"][seat]), str(view["scores"][team]),
                          str(view["bags"][team]))
        return table

    def prompt(self, view: JsonDict) -> str:
        if view["hand_hidden"]:
            return "Blind nil or look"
        return "Your bid" if view["phase"] == "bid" else "Your card"

    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        lines: list[str] = []
        who = self.name(seat)
        if before["phase"] == "bid":
            if action == "look":
                lines.append(f"{who} looks at the cards.")
            else:
                lines.append(f"{who} bids [bold]{action.removeprefix('bid ')}[/].")
        else:
            card = card_markup(action)
            lines.append(f"{who} plays [{card.style}]{card.plain}[/].")
            if len(before["trick"]) == 3:
                winner = (after["last_trick"] or {}).get("winner")
                if winner is not None:
                    lines.append(f"  {self.name(winner)} wins the trick.")
        if len(after["deals"]) > len(before["deals"]):
            lines.extend(self._deal_summary(after))
        return lines

    def _deal_summary(self, view: JsonDict) -> list[str]:
        deal = view["deals"][-1]
        table = Table(title=f"Deal {deal['deal']} scored", header_style="bold")
        for col in ("Team", "Bids", "Tricks", "Contract", "Nil", "Bags", "Penalty", "Deal",
                    "Score", "Bag count"):
            table.add_column(col, justify="right" if col != "Team" else "left")
        for team, res in enumerate(deal["teams"]):
            seats = (team, team + 2)
            table.add_row(view["team_names"][team],
                          " + ".join(str(deal["bids"][s]) for s in seats),
                          " + ".join(str(deal["tricks"][s]) for s in seats),
                          str(res["contract"]), str(res["nil"]), str(res["bag_points"]),
                          str(-res["penalty"]), f"{res['points']:+d}", str(res["score"]),
                          str(res["bags"]))
        self.console.print(table)
        return []

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        team = 0 if 0 in outcome["winners"] else 1
        scores = view["scores"]
        if len(outcome["winners"]) == 4:
            self.console.print(f"[bold]The match is drawn[/] at {scores[0]} all.")
            return
        mine = "You win" if self.seat & 1 == team else "You lose"
        self.console.print(f"[bold]{mine}![/] {view['team_names'][team]} take the match "
                           f"{scores[team]} to {scores[1 - team]}.")
