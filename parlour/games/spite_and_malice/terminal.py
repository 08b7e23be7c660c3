"""Spite & Malice at the terminal: both payoff piles, side piles fanned top first, the
centre piles with the rank each stands at, your numbered hand, the stock and the scores."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from parlour.engine import Game, JsonDict, Seat
from parlour.terminal import TableUI, card_legend
from parlour.terminal.cards import card_markup


def _plain(text: str) -> str:
    return card_markup(text).plain


class UI(TableUI):

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        super().__init__(game, console, seat, seats, lang)
        self._told = 0  # the number of the last logged event already told

    def help_text(self, view: JsonDict) -> str:
        return self.t(
            """[bold]Spite & Malice[/]: be the first to empty your payoff pile.
Centre piles are built up from the ace to the queen, suits ignored; a king is wild and
stands for the rank the pile needs. A finished pile is
shuffled into the stock. Your turn starts by drawing to five cards. Then move, typing:
  [bold]h3>c1[/]  hand card 3 onto centre pile 1
  [bold]p>c2[/]   your payoff top onto centre pile 2
  [bold]s2>c1[/]  the top of your side pile 2 onto centre pile 1
  [bold]h5>s4[/]  hand card 5 onto your side pile 4 - this ends your turn
Hand slots keep their number all turn; drawn cards fill the empty ones. Play out your whole
hand and you draw five more. Side piles take any card; only the top one may be played, and
only onto a centre pile. Emptying your payoff wins the round and scores the cards left in
the other payoff pile; a round is drawn if the stock runs out. First to the target wins.
[bold]?[/] lists your moves with a hint, [bold]help[/] shows this,
[bold]q[/] leaves (you can save the record).""") + "\n" + (
            self.t("A king may also start an empty centre pile.")
            if view["options"]["king_starts"] else
            self.t("A king may not start an empty centre pile."))

    def legend(self, view: JsonDict) -> str:
        return card_legend(self.t) + "\n" + self.t(
            "Moves: [bold]h[/] hand slot, [bold]p[/] payoff pile, [bold]s[/] side pile, "
            "[bold]c[/] centre pile ([bold]h3>c1[/], [bold]p>c2[/], [bold]s2>c1[/], "
            "[bold]h5>s4[/]).")

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
        c.rule(self.t("Round {round} - {me} {my_score}, {opp} {opp_score} (first to {target})",
                      round=view["round"], me=self.name(me), my_score=scores[me],
                      opp=self.name(opp), opp_score=scores[opp], target=view["target"]))
        c.print(self._player_line(view, opp))
        c.print(self._side_lines(view, opp))
        c.print(self._centre_line(view))
        c.print(Text(self.t("Stock: {stock} cards    Piles completed this round: {completed}",
                            stock=view["stock"], completed=view["completed"]), style="dim"))
        c.print(self._side_lines(view, me))
        c.print(self._player_line(view, me))
        if view["hand"] is not None:
            c.print(self._hand_line(view["hand"]))
        if view["legal"]:
            builds = [m for m in view["legal"] if ">c" in m]
            c.print(self.t("Builds you can make: {builds}   (or discard: h<slot>>s<pile>)",
                           builds=" ".join(builds) if builds else self.t.p("builds", "none")))

    def _player_line(self, view: JsonDict, seat: Seat) -> Text:
        pay = view["payoff"][seat]
        line = Text(f"{self.name(seat):14} " + self.t("payoff") + " ")
        if pay["top"]:
            line.append("[")
            line.append_text(card_markup(pay["top"]))
            line.append("]")
        else:
            line.append(self.t.p("pile", "empty"))
        line.append(" " + self.t("{count} left", count=pay["size"]))
        if seat != self.seat:
            line.append("    " + self.t("hand: {count} cards", count=view["hand_sizes"][seat]))
        if seat in view["to_act"]:
            line.append("   " + self.t("< to play"), style="bold yellow")
        return line

    def _side_lines(self, view: JsonDict, seat: Seat) -> Text:
        line = Text("  ")
        for k, pile in enumerate(view["side_piles"][seat], start=1):
            line.append(f"s{k}: " if seat == self.seat else self.t("side {pile}: ", pile=k),
                        style="bold")
            if not pile:
                line.append("-")
            for i, card in enumerate(pile):  # top first
                line.append_text(card_markup(card, dim=i > 0))
                line.append(" ")
            line.append("   ")
        return line

    def _centre_line(self, view: JsonDict) -> Text:
        line = Text(self.t("Centre") + "  ")
        for j, pile in enumerate(view["centre"], start=1):
            line.append(f"c{j}: ", style="bold")
            if pile["cards"]:
                top = pile["cards"][-1]
                line.append_text(card_markup(top))
                stands = pile["rank"]
                wild = top == "Joker" or top[:-1] == "K"
                line.append(" " + (self.t("at {rank} (wild)", rank=stands) if wild
                                   else self.t("at {rank}", rank=stands)))
            else:
                line.append(self.t.p("pile", "empty"))
            line.append(", " + self.t("needs {rank}", rank=pile["needs"]))
            line.append("     ")
        return line

    def _hand_line(self, hand: list[str | None]) -> Text:
        line = Text(self.t("Your hand: ") + " ")
        for i, card in enumerate(hand, start=1):
            line.append(f"{i}:", style="cyan")
            if card is None:
                line.append("-")
            else:
                line.append_text(card_markup(card))
            line.append("   ")
        return line

    def prompt(self, view: JsonDict) -> str:
        return self.t("Your move") + " (h3>c1, p>c2, s2>c1, h5>s4)"

    # ------------------------------------------------------------------ narration
    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        return self._untold(after)

    def _event(self, e: JsonDict) -> str | None:
        kind = e["kind"]
        who = self.name(e["seat"]) if e["seat"] >= 0 else ""
        if kind == "build":
            src = e["action"].split(">")[0]
            # (these words follow "from" only: a language may put its preposition in them)
            where = (self.t("the payoff pile") if src == "p"
                     else self.t("side pile {pile}", pile=src[1:]) if src[0] == "s"
                     else self.t("hand slot {slot}", slot=src[1:]))
            return self.t("{who} plays [bold]{card}[/] from {where} onto centre pile {pile} "
                          "(now at {rank}).", who=who, card=_plain(e["card"]), where=where,
                          pile=e["centre"], rank=e["stands_at"])
        if kind == "discard":
            return self.t("{who} puts [bold]{card}[/] on side pile {pile}; end of turn.",
                          who=who, card=_plain(e["card"]), pile=e["side"])
        if kind == "draw":
            return "[dim]" + self.t.n("{who} draws {n} card.", "{who} draws {n} cards.",
                                      e["count"], who=who) + "[/]"
        if kind == "hand emptied":
            return self.t("{who} has played the whole hand and draws five more.", who=who)
        if kind == "complete":
            return self.t("Centre pile {pile} is complete: shuffled into the stock ({stock} "
                          "cards).", pile=e["centre"], stock=e["stock"])
        if kind == "redeal":
            tops = self.t("{a} and {b}", a=_plain(e["tops"][0]), b=_plain(e["tops"][1]))
            return self.t("The payoff tops are equal ({tops}): the cards are shuffled and dealt "
                          "again.", tops=tops)
        if kind == "deal":
            tops = e["tops"]
            return self.t("[bold]Round {round}[/]: payoff tops {a} {a_top}, {b} {b_top}; "
                          "{first} starts.", round=e["round"], a=self.name(0),
                          a_top=_plain(tops[0]), b=self.name(1), b_top=_plain(tops[1]),
                          first=self.name(e["first"]))
        if kind == "round over":
            scores = " - ".join(f"{self.name(s)} {self.t.number(e['scores'][s])}"
                                for s in (0, 1))
            if e["winner"] is None:
                why = (self.t("the stock has run out") if e["reason"] == "stock exhausted"
                       else self.t("the turn limit is reached"))
                return self.t("[bold]Round {round} is drawn[/]: {why}. Scores: {scores}.",
                              round=e["round"], why=why, scores=scores)
            return self.t("[bold]{who} empties the payoff pile and wins round {round}[/], "
                          "scoring {points}. Scores: {scores}.", who=self.name(e["winner"]),
                          round=e["round"], points=e["points"], scores=scores)
        return escape(str(e))

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        scores = view["scores"]
        if len(outcome["winners"]) != 1:
            self.console.print(self.t("[bold]The match is drawn[/] at {a} - {b}.", a=scores[0],
                                      b=scores[1]))
            return
        winner = outcome["winners"][0]
        mine = self.t("You win") if winner == self.seat else self.t("You lose")
        self.console.print(self.t("[bold]{result}![/] {who} takes the match {score} to "
                                  "{other}.", result=mine, who=self.name(winner),
                                  score=scores[winner], other=scores[1 - winner]))
