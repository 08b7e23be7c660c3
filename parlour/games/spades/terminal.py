"""Spades at the terminal: the hand in suit colours, bids, the trick, scores after each deal."""

from __future__ import annotations

from rich.table import Table

from parlour.engine import JsonDict, Seat
from parlour.terminal import TableUI, card_legend
from parlour.terminal.cards import card_inline, cards_line, hand_line, trick_line


class UI(TableUI):
    def help_text(self, view: JsonDict) -> str:
        options = view["options"]
        return self.t(
            """[bold]Spades[/]: four players, partners sit opposite (you and North against West
and East).
Bid how many tricks you expect to take ([bold]bid 4[/] or just [bold]4[/]), or [bold]nil[/] to
take none. Then play a card by typing it: [bold]QS[/], [bold]10H[/] (or TH), [bold]2c[/].
Follow the suit led if you can; otherwise play anything. A spade beats every other suit.
You may not lead a spade until spades are broken (a spade has been played), unless you hold
only spades. Your team scores 10 per trick bid if it makes its bid, each extra trick is a
bag worth 1, and every {bags} bags cost {penalty}. A made nil is +{nil}, a failed one -{nil}.
First team to {target} wins. [bold]?[/] lists your moves with a hint from the strongest bot,
[bold]q[/] leaves (you can save the record), [bold]help[/] shows this.""",
            bags=options["bag_limit"], penalty=options["bag_penalty"],
            nil=options["nil_value"], target=options["target"])

    def legend(self, view: JsonDict) -> str:
        """The cards and the bids this table plays: blind nil only where its option is on,
        and ``look`` only while the cards are face down."""
        lines = [card_legend(self.t)]
        options = view["options"]
        if options["blind_nil"]:
            lines.append(self.t("Bids: [bold]bid 4[/] (or [bold]4[/]) or [bold]nil[/]; a "
                                "player whose team is behind by {points} or more may bid "
                                "[bold]blind nil[/] before looking at the cards.",
                                points=options["blind_nil_deficit"]))
        else:
            lines.append(self.t("Bids: [bold]bid 4[/] (or [bold]4[/]) or [bold]nil[/]."))
        if view["hand_hidden"]:
            lines.append(self.t("Your cards are face down: [bold]blind nil[/] bids without "
                                "seeing them, [bold]look[/] turns them up to bid as usual."))
        return "\n".join(lines)

    def render(self, view: JsonDict) -> None:
        c = self.console
        c.rule(self.t("Deal {deal} - dealer {dealer}", deal=view["deal"],
                      dealer=self.name(view["dealer"])))
        c.print(self._table(view))
        if view["trick"]:
            c.print(trick_line(self.t("On the table: "), view["trick"], self.name))
        elif view["last_trick"] and view["phase"] == "play":
            last = view["last_trick"]
            line = cards_line(self.t("Last trick: "), (p["card"] for p in last["cards"]),
                              lambda _: True)
            line.append(self.t("won by {who}", who=self.name(last["winner"])))
            c.print(line)
        if view["hand_hidden"]:
            c.print(self.t("Your cards are face down: bid [bold]blind nil[/] or [bold]look[/]."))
        elif view["hand"]:
            playable = view["legal"] if view["phase"] == "play" else []
            c.print(hand_line(self.t("Your hand: "), view["hand"], playable))
        if view["legal"] and view["phase"] == "play":
            c.print(self.t("You may play: {cards}", cards=" ".join(view["legal"])))

    def _table(self, view: JsonDict) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column(self.t("Player"))
        table.add_column(self.t("Bid"), justify="right")
        table.add_column(self.t("Tricks"), justify="right")
        table.add_column(self.t("Team score"), justify="right")
        table.add_column(self.t("Bags"), justify="right")
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
            return self.t("Blind nil or look")
        return self.t("Your bid") if view["phase"] == "bid" else self.t("Your card")

    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        lines: list[str] = []
        who = self.name(seat)
        if before["phase"] == "bid":
            if action == "look":
                lines.append(self.t("{who} looks at the cards.", who=who))
            else:
                lines.append(self.t("{who} bids [bold]{bid}[/].", who=who,
                                    bid=action.removeprefix("bid ")))
        else:
            lines.append(self.t("{who} plays {card}.", who=who, card=card_inline(action)))
            if len(before["trick"]) == 3:
                winner = (after["last_trick"] or {}).get("winner")
                if winner is not None:
                    lines.append("  " + self.t("{who} wins the trick.", who=self.name(winner)))
        if len(after["deals"]) > len(before["deals"]):
            lines.extend(self._deal_summary(after))
        return lines

    def _deal_summary(self, view: JsonDict) -> list[str]:
        deal = view["deals"][-1]
        table = Table(title=self.t("Deal {deal} scored", deal=deal["deal"]), header_style="bold")
        columns = (self.t("Team"), self.t("Bids"), self.t("Tricks"), self.t("Contract"),
                   self.t("Nil"), self.t("Bags"), self.t("Penalty"),
                   self.t.p("points of the deal", "Deal"), self.t("Score"), self.t("Bag count"))
        for i, col in enumerate(columns):
            table.add_column(col, justify="right" if i else "left")
        for team, res in enumerate(deal["teams"]):
            seats = (team, team + 2)
            table.add_row(self.team_name(view, team),
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
            self.console.print(self.t("[bold]The match is drawn[/] at {score} all.",
                                      score=scores[0]))
            return
        mine = self.t("You win") if self.seat & 1 == team else self.t("You lose")
        self.console.print(self.t("[bold]{result}![/] {team} take the match {score} to {other}.",
                                  result=mine, team=self.team_name(view, team),
                                  score=scores[team], other=scores[1 - team]))

    def team_name(self, view: JsonDict, team: int) -> str:
        """``North-South`` in the player's language."""
        return self.t("{a}-{b}", a=self.seat_label(team + 2), b=self.seat_label(team))
