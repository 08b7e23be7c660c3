"""Cangkul at the terminal: the hand in suit colours, the players' cards and lost deals, the
trick, the stock, and who went out."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from parlour.engine import JsonDict, Seat
from parlour.terminal import TableUI, card_legend
from parlour.terminal.cards import card_inline, cards_line, hand_line, trick_line


class UI(TableUI):
    def help_text(self, view: JsonDict) -> str:
        options = view["options"]
        if options["empty_stock"] == "skip":
            empty = self.t("Once the stock is empty, a player who cannot follow types "
                           "[bold]pass[/].")
        else:
            empty = self.t("Once the stock is empty, a player who cannot follow types "
                           "[bold]take[/] to take the trick's cards into hand, and the next "
                           "player leads; a trick holding a card taken before is passed "
                           "([bold]pass[/]).")
        return self.t(
            """[bold]Cangkul[/]: be the first to get rid of your cards. Each player has {hand}
cards; the rest are the stock. The leader plays any card: type it, [bold]QS[/], [bold]10H[/]
(or TH), [bold]2c[/]. Everyone else in turn must follow the suit led. Holding none, type
[bold]draw[/] to dig in the stock, one card at a time, until a card of that suit comes, and
play it. {empty}
The highest card of the suit led (ace high) takes the trick, and its winner leads next.
A player with no cards left is out; the last one holding cards loses the deal and deals
the next. The match ends when a player's lost deals reach {losses}.
[bold]?[/] lists your moves with a hint, [bold]help[/] shows this, [bold]q[/] leaves (you can
save the record).""", hand=options["hand_size"], losses=options["losses"], empty=empty)

    def legend(self, view: JsonDict) -> str:
        return "\n".join((card_legend(self.t), self.t(
            "Other moves: [bold]draw[/] from the stock, [bold]pass[/], [bold]take[/] the "
            "trick's cards (only when you cannot follow).")))

    def render(self, view: JsonDict) -> None:
        c = self.console
        c.rule(self.t("Deal {deal} - dealer {dealer} - stock {stock}", deal=view["deal"],
                      dealer=self.name(view["dealer"]), stock=view["stock_size"]))
        c.print(self._table(view))
        if view["trick"]:
            c.print(trick_line(self.t("On the table: "), view["trick"], self.name))
        elif view["last_trick"] and view["phase"] == "play":
            c.print(self._last_trick(view["last_trick"]))
        if view["hand"]:
            c.print(hand_line(self.t("Your hand: "), view["hand"], view["legal"]))
        if view["legal"]:
            c.print(self.t("You may: {moves}", moves=" ".join(view["legal"])))

    def _last_trick(self, last: JsonDict) -> Text:
        line = cards_line(self.t("Last trick: "), (p["card"] for p in last["cards"]),
                          lambda _: True)
        if last["taker"] is not None:
            line.append(self.t("taken into hand by {who}", who=self.name(last["taker"])))
        elif last["winner"] is not None:
            line.append(self.t("won by {who}", who=self.name(last["winner"])))
        return line

    def _table(self, view: JsonDict) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column(self.t("Player"))
        table.add_column(self.t("Cards"), justify="right")
        table.add_column(self.t("Drawn"), justify="right")
        table.add_column(self.t("Lost deals"), justify="right")
        table.add_column("")
        for seat in range(view["seats"]):
            marker = "> " if seat in view["to_act"] else "  "
            note = ""
            if seat in view["out"]:
                note = self.t("out ({place})", place=view["out"].index(seat) + 1)
            elif view["known"][seat]:
                note = self.t("holds {cards}", cards=" ".join(
                    card_inline(c) for c in view["known"][seat]))
            table.add_row(marker + self.name(seat), str(view["hand_sizes"][seat]),
                          str(view["drawn"][seat]), str(view["losses"][seat]), note)
        return table

    def prompt(self, view: JsonDict) -> str:
        return self.t("Your move")

    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        who = self.name(seat)
        lines: list[str] = []
        if action == "draw":
            lines.append(self.t("{who} draws from the stock.", who=who))
        elif action == "pass":
            lines.append(self.t("{who} cannot follow and passes.", who=who))
        elif action == "take":
            lines.append(self.t("{who} cannot follow and takes the trick's cards.", who=who))
        else:
            lines.append(self.t("{who} plays {card}.", who=who, card=card_inline(action)))
            if before["hand_sizes"][seat] == 1:
                lines.append("  " + self.t("{who} is out!", who=who))
        if len(after["deals"]) > len(before["deals"]):
            deal = after["deals"][-1]
            order = ", ".join(self.name(s) for s in deal["ranking"])
            losers = ", ".join(self.name(s) for s in deal["losers"])
            lines.append(self.t("Deal {deal} is over. In order: {order}. Lost: {losers}.",
                                deal=deal["deal"], order=order, losers=losers))
        elif after["phase"] == "play" and before["trick"] and not after["trick"] and \
                after["last_trick"] and after["last_trick"]["winner"] is not None:
            lines.append("  " + self.t("{who} wins the trick.",
                                       who=self.name(after["last_trick"]["winner"])))
        return lines

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        lost = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(view["losses"]))
        place = outcome["placing"][self.seat]
        if place == 1:
            result = self.t("[bold]You win![/]")
        else:
            result = self.t("[bold]You place {place} of {seats}.[/]", place=place,
                            seats=view["seats"])
        self.console.print(self.t("{result} Lost deals: {lost}.", result=result, lost=lost))
