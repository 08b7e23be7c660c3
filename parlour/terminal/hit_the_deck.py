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
from parlour.games.hit_the_deck import HAND_SHOUT, SHOUT, slap_action
from parlour.terminal import Quit, ReadLine, TableUI

HELP = f"""[bold]Hit the Deck[/]: get rid of your cards. Play one card that matches the top of
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
[bold]Hit the Deck With a Hand[/]: play it by shouting - type [bold]{SHOUT}[/] (or the short
[bold]hit hand![/]). [bold]hit hand[/] alone plays it silently and costs four cards. Then
everyone slaps the pile: press Enter as fast as you can. The slowest draws four.
A round ends when someone plays their last card; the others score what they hold (numbers
face value, every other card 10). At 100 points the game ends: the lowest total wins.
[bold]q[/] leaves (you can save the record), [bold]?[/] shows this."""

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
    help = HELP
    clock: Callable[[], float] = staticmethod(time.perf_counter)

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        super().__init__(game, console, seat, seats, lang)
        self._told = (0, 0)  # (round, events of that round already told)

    def _untold(self, view: JsonDict) -> list[JsonDict]:
        """The round's public events not yet told (cuts, swaps, slaps, penalties...)."""
        told_round, told = self._told
        start = told if view["round"] == told_round else 0
        self._told = (view["round"], len(view["events"]))
        return view["events"][start:]

    # ----------------------------------------------------------------- drawing
    def render(self, view: JsonDict) -> None:
        c = self.console
        for event in self._untold(view):
            for line in self._event(event):
                c.print(line)
        arrow = "left" if view["direction"] == "left" else "right"
        c.rule(f"Round {view['round']} - dealer {self.name(view['dealer'])} - play goes {arrow}")
        c.print(self._table(view))
        top = Text("Top of the pile: ")
        top.append_text(card_markup(view["top"]))
        top.append(f"    draw pile {view['draw_size']}, discard pile {view['discard_size']}")
        c.print(top)
        obligation = view["obligation"]
        if obligation and obligation != "any":
            kind, what = obligation.split()
            wanted = f"a {what}" if kind == "number" else f"a {_colour_word(what)} card"
            c.print(f"[bold]Obligation:[/] play {wanted} (or a Hit the Deck card), or draw.")
        elif obligation == "any" and view["phase"] == "play":
            c.print("Any card may be played on it.")
        hand = view["hand"] or []
        legal = set(view["legal"])
        hand_line = Text("Your hand: ")
        for card in hand:
            fits = card in legal or (card == "hit hand" and "hit hand!" in legal)
            hand_line.append_text(card_markup(card, dim=view["phase"] == "play" and not fits))
            hand_line.append(" ")
        c.print(hand_line)
        if view["phase"] in ("play", "drawn") and view["legal"]:
            c.print("You may: " + ", ".join(_markup(t) for t in view["legal"]
                                            if t != "hit hand!"))

    def _table(self, view: JsonDict) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column("Player")
        table.add_column("Cards", justify="right")
        table.add_column("Score", justify="right")
        for seat in range(view["seats"]):
            marker = "> " if seat in view["to_act"] else "  "
            table.add_row(marker + self.name(seat), str(view["hand_sizes"][seat]),
                          str(view["scores"][seat]))
        return table

    def prompt(self, view: JsonDict) -> str:
        phase = view["phase"]
        if phase == "cut":
            return "A Cut the Deck: cut the deck (type cut)"
        if phase == "swap":
            return "A Flip the Deck: swap the piles (type swap)"
        if phase == "drawn":
            return "Play the card you drew, or pass"
        if view["legal"] == ["draw"]:
            return "Nothing fits: draw"
        return "Your card"

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
        self.console.print(f"[bold]{who} played Hit the Deck With a Hand![/]")
        start = self.clock()
        answer = read("[bold reverse] SLAP! [/] press Enter > ")
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
                lines.append(f"You slap the pile ({ms} ms).")
            else:
                lines.append(f"{who} slaps the pile.")
        elif action == "draw":
            if seat == self.seat:
                got = _new_card(before["hand"] or [], after["hand"] or [])
                lines.append(f"You draw {_markup(got) if got else 'a card'}.")
            else:
                lines.append(f"{who} draws a card.")
        elif action == "pass":
            lines.append(f"{who} passes.")
        elif action in ("cut", "swap"):
            pass  # told by the events below
        elif action.startswith("hit hand"):
            if action == "hit hand!":
                lines.append(f"{who} plays {_markup('hit hand')} and shouts "
                             f"[bold]{SHOUT}[/]")
            else:
                lines.append(f"{who} plays {_markup('hit hand')} [bold red]without the "
                             f"shout![/]")
        else:
            lines.append(f"{who} plays {_markup(action)}.")
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
        if kind == "first":
            return [f"Round begins: the first card is {_markup(e['card'])}."]
        if kind == "reburied":
            return ["A With a Hand turned first goes back into the draw pile."]
        if kind == "cut":
            if e["card"] is None:
                return [f"{self.name(e['seat'])} has nothing to cut."]
            return [f"{self.name(e['seat'])} cuts the deck: {_markup(e['card'])} turns up."]
        if kind == "swap":
            if e["card"] is None:
                return [f"{self.name(e['seat'])} cannot swap an empty pile; play turns round."]
            extra = f" ({e['buried']} Flip buried)" if e["buried"] else ""
            return [f"{self.name(e['seat'])} swaps the piles: the top is now "
                    f"{_markup(e['card'])}{extra}, and play turns round."]
        if kind == "flip back":
            return ["A second Flip in a row goes back into the draw pile."]
        if kind == "reshuffle":
            return [f"The discards are shuffled into a new draw pile ({e['cards']} cards)."]
        if kind == "penalty":
            return [f"{self.name(e['seat'])} did not shout and draws {e['cards']}."]
        if kind == "slap":
            times = ", ".join(f"{self.name(s)} {ms} ms" for s, ms in enumerate(e["ms"]))
            tie = " (a tie, drawn by lot)" if e["tied"] else ""
            return [f"Slaps: {times}.",
                    f"[bold]{self.name(e['slowest'])} was slowest{tie} and draws "
                    f"{e['cards']}.[/]"]
        if kind == "blocked":
            return ["Nobody can play or draw: the round is blocked."]
        return []

    def _round_summary(self, summary: JsonDict) -> None:
        out = summary["out"]
        head = (f"{self.name(out)} played the last card" if out is not None
                else "The round ended without a winner")
        table = Table(title=f"Round {summary['round']}: {head}", header_style="bold")
        for col in ("Player", "Points", "Total"):
            table.add_column(col, justify="left" if col == "Player" else "right")
        for s, (pts, total) in enumerate(zip(summary["points"], summary["scores"],
                                             strict=True)):
            table.add_row(self.name(s), str(pts), str(total))
        self.console.print(table)

    def render_end(self, view: JsonDict) -> None:
        outcome = view["outcome"]
        scores = view["scores"]
        winners = outcome["winners"]
        names = " and ".join(self.name(s) for s in winners)
        mine = "You win" if self.seat in winners else "You lose"
        self.console.print(f"[bold]{mine}![/] Lowest total: {names} with "
                           f"{scores[winners[0]]}. Totals: "
                           + ", ".join(f"{self.name(s)} {t}" for s, t in enumerate(scores)))


def _colour_word(letter: str) -> str:
    return {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}[letter]


def _new_card(before: list[str], after: list[str]) -> str | None:
    rest = list(before)
    for card in after:
        if card in rest:
            rest.remove(card)
        else:
            return card
    return None
