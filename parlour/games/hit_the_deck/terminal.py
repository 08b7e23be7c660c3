"""Hit the Deck at the terminal: the hand in colour, the shout typed, the slap timed.

A With a Hand is played by typing the shout, ``HIT THE DECK WITH A HAND!`` (any case, the
punctuation optional) or its short form ``hit hand!``; typing ``hit hand`` plays it without
the shout, which costs four cards. When the slap comes, the terminal shows a prompt and
measures the time until Enter is pressed: that is your reaction time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from parlour.engine import Action, Game, JsonDict, Seat, State
from parlour.games.hit_the_deck.rules import HAND_SHOUT, SHOUT, slap_action
from parlour.terminal import Quit, ReadLine, TableUI

STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}
HIT_STYLE = "bold magenta"


def card_markup(text: str, dim: bool = False) -> Text:
    """A card as coloured text: the four colours, Hit the Deck cards in magenta."""
    style = HIT_STYLE if text.startswith("hit") else STYLE.get(text[:1], "bold")
    if dim:
        style = style.replace("bold", "dim")
    return Text(text, style=style)


def _markup(text: str) -> str:
    card = card_markup(text)
    return f"[{card.style}]{escape(text)}[/]"


class UI(TableUI):
    clock: Callable[[], float] = staticmethod(time.perf_counter)

    def help_text(self, view: JsonDict) -> str:
        return self.t("""\
[bold]Hit the Deck[/]: get rid of your cards. Play one card that matches the top of
the discard pile in colour or number ([bold]R3[/] on any red card or any 3). A Cut fits a
Cut, a Flip fits a Flip. Hit the Deck cards fit anything.
Type a card as shown in your hand: [bold]R3[/], [bold]B cut[/], [bold]G flip[/], [bold]hit 4[/],
[bold]hit Y[/]. With nothing to play, type [bold]draw[/]; you may play the card you drew at once
or [bold]pass[/].
[bold]Cut the Deck[/]: the next player types [bold]cut[/]: a card from the middle of the pile
turns up and becomes the top. [bold]Flip the Deck[/]: the next player types [bold]swap[/]: the
piles change places, play turns round, and the Flip player plays again.
[bold]Hit the Deck With a Number / Colour[/]: the next player must play that number / colour
(or a Hit the Deck card), or draw; it passes on until someone does.
[bold]Hit the Deck With a Hand[/]: play it by shouting - type [bold]{shout}[/] (or the short
[bold]hit hand![/]). [bold]hit hand[/] alone plays it silently and costs four cards. Then
everyone slaps the pile: press Enter as fast as you can. The slowest draws four.
A round ends when someone plays their last card; the others score what they hold (numbers
face value, every other card 10). At {target} points the game ends: the lowest total wins.
[bold]?[/] lists your moves with a hint, [bold]help[/] shows this,
[bold]q[/] leaves (you can save the record).""", shout=SHOUT,
                      target=view["options"]["target"])

    def legend(self, view: JsonDict) -> str:
        return self.t("Cards are typed with the English colour letters: {colours}; [bold]hit[/] "
                      "cards as [bold]hit 4[/], [bold]hit Y[/], [bold]hit hand[/].",
                      colours=", ".join(f"[bold]{letter}[/] {self.t.p('colour', word)}"
                                        for letter, word in _COLOUR_WORDS.items()))

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        super().__init__(game, console, seat, seats, lang)
        self._told = (0, 0)  # (round, events of that round already told)

    def _untold(self, view: JsonDict) -> list[JsonDict]:
        """The round's public events not yet told (cuts, swaps, slaps, penalties...)."""
        told_round, told = self._told
        start = told if view["round"] == told_round else 0
        events: list[JsonDict] = view["events"]
        self._told = (view["round"], len(events))
        return events[start:]

    # ----------------------------------------------------------------- drawing
    def render(self, view: JsonDict) -> None:
        c = self.console
        for event in self._untold(view):
            for line in self._event(event):
                c.print(line)
        rule = (self.t("Round {round} - dealer {dealer} - play goes left", round=view["round"],
                       dealer=self.name(view["dealer"])) if view["direction"] == "left" else
                self.t("Round {round} - dealer {dealer} - play goes right", round=view["round"],
                       dealer=self.name(view["dealer"])))
        c.rule(rule)
        c.print(self._table(view))
        top = Text(self.t("Top of the pile: "))
        top.append_text(card_markup(view["top"]))
        top.append("    " + self.t("draw pile {draw}, discard pile {discard}",
                                   draw=view["draw_size"], discard=view["discard_size"]))
        c.print(top)
        obligation = view["obligation"]
        if obligation and obligation != "any":
            c.print(self._obligation(obligation, view["legal"]))
        elif obligation == "any" and view["phase"] == "play":
            c.print(self.t("Any card may be played on it."))
        hand = view["hand"] or []
        legal = set(view["legal"])
        hand_line = Text(self.t("Your hand: "))
        for card in hand:
            fits = card in legal or (card == "hit hand" and "hit hand!" in legal)
            hand_line.append_text(card_markup(card, dim=view["phase"] == "play" and not fits))
            hand_line.append(" ")
        c.print(hand_line)
        if view["phase"] in ("play", "drawn") and view["legal"]:
            c.print(self.t("You may: {moves}", moves=", ".join(
                self._may(t) for t in view["legal"])))

    def _obligation(self, obligation: str, legal: list[str]) -> str:
        """What the top card demands, and what that leaves you (from your legal moves: you
        draw only when nothing you hold answers it)."""
        kind, what = obligation.split()
        demand = (self.t("play a {number} (or a Hit the Deck card)", number=what)
                  if kind == "number" else
                  self.t("play a {colour} card (or a Hit the Deck card)",
                         colour=self.t.p("colour", _COLOUR_WORDS[what])))
        answers = [move for move in legal if move not in ("draw", "pass")]
        if not answers and "draw" in legal:
            return self.t("[bold]Obligation:[/] {demand}; you have none, so draw.",
                          demand=demand)
        if not answers and "pass" in legal:
            return self.t("[bold]Obligation:[/] {demand}; you cannot, so pass.", demand=demand)
        return self.t("[bold]Obligation:[/] {demand}.", demand=demand)

    def _may(self, action: str) -> str:
        """A legal move as listed under the hand: With a Hand twice, shouted and silent."""
        if action == "hit hand!":
            return self.t("{move} (or the shout, [bold]{shout}[/])", move=_markup(action),
                          shout=SHOUT)
        if action == "hit hand":
            return self.t("{move} (without the shout: you draw four)", move=_markup(action))
        return _markup(action)

    def _table(self, view: JsonDict) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column(self.t("Player"))
        table.add_column(self.t("Cards"), justify="right")
        table.add_column(self.t("Score"), justify="right")
        for seat in range(view["seats"]):
            marker = "> " if seat in view["to_act"] else "  "
            table.add_row(marker + self.name(seat), str(view["hand_sizes"][seat]),
                          str(view["scores"][seat]))
        return table

    def prompt(self, view: JsonDict) -> str:
        phase = view["phase"]
        if phase == "cut":
            return self.t("A Cut the Deck: cut the deck (type cut)")
        if phase == "swap":
            return self.t("A Flip the Deck: swap the piles (type swap)")
        if phase == "drawn":
            return self.t("Play the card you drew, or pass")
        if view["legal"] == ["draw"]:
            return self.t("Nothing fits: draw")
        return self.t("Your card")

    # ----------------------------------------------------------------- input
    def parse(self, state: State, text: str) -> Action:
        if text.strip().lower().replace(" ", "") in ("htdwah", "htdwah!"):
            return HAND_SHOUT
        return state.parse_action(text)

    def human_action(self, state: State, seat: Seat, view: JsonDict,
                     read: ReadLine) -> Action | None:
        """The slap: time from showing the prompt to the key press."""
        if view["phase"] != "slap":
            return None
        who = self.name(view["slap"]["player"])
        self.console.print(self.t("[bold]{who} played Hit the Deck With a Hand![/]", who=who))
        start = self.clock()
        answer = read(self.t("[bold reverse] SLAP! [/] press Enter > "))
        elapsed = (self.clock() - start) * 1000.0
        if answer.strip().lower() in ("q", "quit", "exit"):
            raise Quit
        return slap_action(elapsed)

    # ----------------------------------------------------------------- narration
    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        who = self.name(seat)
        lines: list[str] = []
        if action.startswith("slap"):
            if seat == self.seat:
                ms = action.split()[1].removesuffix("ms")
                lines.append(self.t("You slap the pile ({ms} ms).", ms=ms))
            else:
                lines.append(self.t("{who} slaps the pile.", who=who))
        elif action == "draw":
            if seat == self.seat:
                got = _new_card(before["hand"] or [], after["hand"] or [])
                lines.append(self.t("You draw {card}.", card=_markup(got)) if got
                             else self.t("You draw a card."))
            else:
                lines.append(self.t("{who} draws a card.", who=who))
        elif action == "pass":
            lines.append(self.t("{who} passes.", who=who))
        elif action in ("cut", "swap"):
            pass  # told by the events below
        elif action.startswith("hit hand"):
            if action == "hit hand!":
                lines.append(self.t("{who} plays {card} and shouts [bold]{shout}[/]", who=who,
                                    card=_markup("hit hand"), shout=SHOUT))
            else:
                lines.append(self.t("{who} plays {card} [bold red]without the shout![/]",
                                    who=who, card=_markup("hit hand")))
        else:
            lines.append(self.t("{who} plays {card}.", who=who, card=_markup(action)))
        if after["round"] != before["round"] or after["outcome"]:
            for line in lines:  # before the round's table
                self.console.print(line)
            lines = []
            self._round_summary(after["rounds"][-1])
            if after["outcome"]:
                return lines
        for event in self._untold(after):
            lines.extend(self._event(event))
        return lines

    def _event(self, e: JsonDict) -> list[str]:
        kind = e["type"]
        t = self.t
        if kind == "first":
            return [t("Round begins: the first card is {card}.", card=_markup(e["card"]))]
        if kind == "reburied":
            return [t("A With a Hand turned first goes back into the draw pile.")]
        if kind == "cut":
            if e["card"] is None:
                return [t("{who} has nothing to cut.", who=self.name(e["seat"]))]
            return [t("{who} cuts the deck: {card} turns up.", who=self.name(e["seat"]),
                      card=_markup(e["card"]))]
        if kind == "swap":
            if e["card"] is None:
                return [t("{who} cannot swap an empty pile; play turns round.",
                          who=self.name(e["seat"]))]
            if e["buried"]:
                return [t("{who} swaps the piles: the top is now {card} ({buried} Flip "
                          "buried), and play turns round.", who=self.name(e["seat"]),
                          card=_markup(e["card"]), buried=str(e["buried"]))]
            return [t("{who} swaps the piles: the top is now {card}, and play turns round.",
                      who=self.name(e["seat"]), card=_markup(e["card"]))]
        if kind == "flip back":
            return [t("A second Flip in a row goes back into the draw pile.")]
        if kind == "reshuffle":
            return [t("The discards are shuffled into a new draw pile ({count} cards).",
                      count=e["cards"])]
        if kind == "penalty":
            return [t("{who} did not shout and draws {count}.", who=self.name(e["seat"]),
                      count=e["cards"])]
        if kind == "slap":
            times = ", ".join(f"{self.name(s)} {ms} ms" for s, ms in enumerate(e["ms"]))
            slowest = (t("[bold]{who} was slowest (a tie, drawn by lot) and draws {count}.[/]",
                         who=self.name(e["slowest"]), count=e["cards"]) if e["tied"] else
                       t("[bold]{who} was slowest and draws {count}.[/]",
                         who=self.name(e["slowest"]), count=e["cards"]))
            return [t("Slaps: {times}.", times=times), slowest]
        if kind == "blocked":
            return [t("Nobody can play or draw: the round is blocked.")]
        return []

    def _round_summary(self, summary: JsonDict) -> None:
        out = summary["out"]
        head = (self.t("{who} played the last card", who=self.name(out)) if out is not None
                else self.t("The round ended without a winner"))
        table = Table(title=self.t("Round {round}: {head}", round=summary["round"], head=head),
                      header_style="bold")
        for i, col in enumerate((self.t("Player"), self.t("Points"), self.t("Total"))):
            table.add_column(col, justify="right" if i else "left")
        for s, (pts, total) in enumerate(zip(summary["points"], summary["scores"],
                                             strict=True)):
            table.add_row(self.name(s), str(pts), str(total))
        self.console.print(table)
        if summary.get("stopped"):  # the round reached the max_turns safety stop
            self.console.print(f"[bold]{self.told(summary['stopped'])}[/]")

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        scores = view["scores"]
        winners = outcome["winners"]
        names = self.t(" and ").join(self.name(s) for s in winners)
        mine = self.t("You win") if self.seat in winners else self.t("You lose")
        totals = ", ".join(f"{self.name(s)} {self.t.number(total)}"
                           for s, total in enumerate(scores))
        self.console.print(self.t("[bold]{result}![/] Lowest total: {names} with {score}. "
                                  "Totals: {totals}", result=mine, names=names,
                                  score=scores[winners[0]], totals=totals))


_COLOUR_WORDS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


def _new_card(before: list[str], after: list[str]) -> str | None:
    rest = list(before)
    for card in after:
        if card in rest:
            rest.remove(card)
        else:
            return card
    return None
