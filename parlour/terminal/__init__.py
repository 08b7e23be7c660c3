"""Terminal play: one person at one seat, bots at the others.

The loop is the same for every game; what differs is the game's :class:`TableUI` subclass
(its spec's ``terminal``, by convention ``UI`` in ``parlour.terminal.<game module>``), which
draws the table from the person's view and narrates what each action did. Everything shown
comes from ``view(seat)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from babel.numbers import format_percent
from rich.console import Console
from rich.markup import escape

from parlour.bots import Bot, make_bot, observe_for
from parlour.cards import parse_card
from parlour.console import output_console
from parlour.engine import (
    Action,
    Game,
    IllegalAction,
    JsonDict,
    NotationError,
    Seat,
    State,
    derive_seed,
)
from parlour.games import get_game
from parlour.i18n import Translator, from_environment, render_error
from parlour.message import SUIT_WORDS, PlayingCard, message_from_json
from parlour.record import record_text
from parlour.registry import spec

ReadLine = Callable[[str], str]


class TableUI:
    """How one game looks in the terminal. Override :meth:`render`; the rest is optional.
    Every text it shows goes through ``self.t`` (a :class:`~parlour.i18n.Translator` for the
    player's language): ``self.t("Your card")``, ``self.t("{who} bids {bid}.", who=..)``."""

    help = ""

    def __init__(self, game: Game, console: Console, seat: Seat, seats: int,
                 lang: str = "en") -> None:
        self.game = game
        self.console = console
        self.seat = seat
        self.seats = seats
        self.lang = lang
        self.t = Translator(lang)

    def help_text(self, view: JsonDict) -> str:
        """``help``: the rules in brief for this table (``view`` is the seat's, with the
        table's options), in the player's language (override to translate)."""
        return self.help

    def legend(self, view: JsonDict) -> str:
        """What the typed notation means at this table now (``view`` is the seat's), in the
        player's language (the codes themselves are the same in every language); empty if
        the game's help says it all."""
        return ""

    def render(self, view: JsonDict) -> None:
        self.console.print(view)

    def prompt(self, view: JsonDict) -> str:
        return self.t("Your move")

    def narrate(self, before: JsonDict, seat: Seat, action: str, after: JsonDict) -> list[str]:
        """Lines (rich markup) telling what ``seat`` playing ``action`` did."""
        return [f"{self.name(seat)}: {escape(action)}"]

    def seat_label(self, seat: Seat) -> str:
        """The seat's name in the player's language (``Utara``, ``Norte``)."""
        return self.t.render(self.game.seat_param(seat, self.seats))

    def show_hint(self, state: State, seat: Seat) -> None:
        """``?``: the strong bot's suggestion, computed from this seat's observation."""
        from parlour.bots import hint

        try:
            advice = hint(state, seat, seed=len(state.history))
        except ValueError as err:
            self.console.print("[dim]" + self.t("No hint: {reason}",
                                                reason=escape(render_error(err, self.lang)))
                               + "[/]")
            return
        self.console.print(self.hint_line(advice.text, advice.values, advice.unit))

    def hint_line(self, move: str, values: dict[str, float], unit: str, top: int = 5) -> str:
        """The hint in words: the move, what the values measure, and the best few moves'
        values in that measure (a chance as a percentage, points as points), written as the
        language writes numbers."""
        measure = _measure(unit)
        if len(values) < 2 and not measure:  # "the only sensible move": no number to weigh
            return self.t("[bold]Hint:[/] {move} ({unit})", move=escape(move), unit=self.t(unit))

        def shown(value: float) -> str:
            if measure == "chance":
                return format_percent(value, locale=self.lang)
            return self.t.number(round(value, 1))
        listed = escape(", ".join(f"{text} = {shown(v)}"
                                  for text, v in list(values.items())[:top]))
        if measure == "points":
            return self.t("[bold]Hint:[/] {move} ({unit}, in points: {values})",
                          move=escape(move), unit=self.t(unit), values=listed)
        return self.t("[bold]Hint:[/] {move} ({unit}: {values})", move=escape(move),
                      unit=self.t(unit), values=listed)

    def command(self, state: State, seat: Seat, text: str) -> bool:
        """Handle a typed command of the game's own (a hint, say) before the generic ones
        (``help``, ``?`` for the legal moves and a hint, ``q`` quit) and before parsing an
        action; True if it was handled."""
        return False

    def parse(self, state: State, text: str) -> Action:
        """Turn typed text into an action (games may accept short forms)."""
        return state.parse_action(text)

    def human_action(self, state: State, seat: Seat, view: JsonDict,
                     read: ReadLine) -> Action | None:
        """A move that is not typed, such as a key press timed by the terminal in a
        simultaneous phase: return it, or ``None`` (the default) to prompt for a typed move."""
        return None

    def render_end(self, view: JsonDict) -> None:
        outcome = view.get("outcome") or {}
        winners = outcome.get("winners", [])
        names = ", ".join(self.name(s) for s in winners)
        self.console.print(self.t("[bold]Game over.[/] Winner: {names}",
                                  names=names or self.t("nobody")))

    def render_stop(self, view: JsonDict) -> None:
        """After the end: why the match ended early, when a safety stop ended it (the
        view's ``stopped``, a message the engine made)."""
        stopped = view.get("stopped")
        if stopped:
            self.console.print(f"[bold]{self.told(stopped)}[/]")

    def told(self, message: JsonDict) -> str:
        """A message the engine put in a view (as JSON: ``message_to_json``) in the
        player's language, as markup."""
        return escape(self.t.render(message_from_json(message)))

    def name(self, seat: Seat) -> str:
        label = self.seat_label(seat)
        return self.t("{seat} (you)", seat=label) if seat == self.seat else label


def reflow(text: str) -> str:
    """A help text's lines as the console's width wraps them: the catalogs break their
    lines at about 90 columns, which a narrower terminal would wrap again into ragged
    halves. A break stays after a sentence's end (or a colon), around an indented line (a
    table of moves) and at a blank line; the others become spaces."""
    out: list[str] = []
    for line in text.split("\n"):
        last = out[-1] if out else ""
        if (last and line and not last.endswith((".", "!", "?", ":"))
                and not last[0].isspace() and not line[0].isspace()):
            out[-1] = f"{last} {line}"
        else:
            out.append(line)
    return "\n".join(out)


def _measure(unit: str) -> str:
    """What a hint's values are, read from its unit (the bots' English msgid): ``chance``
    (a share, 0 to 1), ``points`` (an expected score or margin), else ``""``."""
    if "chance" in unit:
        return "chance"
    if "point" in unit or "score" in unit:
        return "points"
    return ""


def card_legend(t: Translator) -> str:
    """The card notation explained in the player's language: the letters stay English (a
    Portuguese ``7C`` would read as seven of copas), so the legend names what each means."""
    ranks = ", ".join(f"[bold]{code}[/] {t.p('rank', word)}" for code, word in
                      (("J", "jack"), ("Q", "queen"), ("K", "king"), ("A", "ace")))
    suits = ", ".join(f"[bold]{code}[/] {t.p('suit', word)}" for code, word in
                      zip("CDHS", SUIT_WORDS, strict=True))
    return t("Cards are typed rank then suit, in the English letters: {ranks}; {suits} (so "
             "[bold]QS[/] is {example}).", ranks=ranks, suits=suits,
             example=t.render(PlayingCard(parse_card("QS"))))


def load_ui(game: Game, console: Console, seat: Seat, seats: int, lang: str = "en") -> TableUI:
    """The game's own table (its spec's ``terminal``) for ``seat`` of ``seats``, speaking
    ``lang``."""
    return spec(game.id).terminal()(game, console, seat, seats, lang)


class Quit(Exception):
    """The person asked to leave."""


def play(game_id: str, seed: int | None = None, seat: Seat = 0, bots: str = "rule",
         options: dict[str, Any] | None = None, seats: int | None = None,
         console: Console | None = None, read_line: ReadLine | None = None,
         record_dir: Path | None = None, lang: str | None = None) -> State:
    """Play one game in the terminal, in ``lang`` (else the language of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``); returns the final (or abandoned) state."""
    lang = lang or from_environment()
    t = Translator(lang)
    console = console or output_console()
    read = read_line or console.input
    game = get_game(game_id)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    state = game.new(seed, seats, **(options or {}))
    if not 0 <= seat < state.num_seats:
        raise ValueError(t("{game} has seats 0 to {last}, not {seat}",
                           game=t.p("game", game.name), last=state.num_seats - 1, seat=seat))
    kinds = [k.strip() for k in bots.split(",") if k.strip()] or ["rule"]
    players: dict[Seat, Bot] = {}
    others = [s for s in range(state.num_seats) if s != seat]
    for i, s in enumerate(others):
        players[s] = make_bot(game, kinds[i % len(kinds)], s, derive_seed(seed, "bot", s))
    ui = load_ui(game, console, seat, state.num_seats, lang)
    names = ["you" if s == seat else players[s].kind for s in range(state.num_seats)]
    if state.num_seats > 1:
        console.print(t("[bold]{game}[/] - deal number [cyan]{seed}[/] (replay it with --seed "
                        "{seed}). You are {you}. Type [bold]help[/] for the rules, [bold]?[/] "
                        "for your moves and a hint.", game=t.p("game", game.name),
                        seed=str(seed), you=ui.seat_label(seat)))
    else:  # a solitaire: no seat to tell
        console.print(t("[bold]{game}[/] - deal number [cyan]{seed}[/] (replay it with --seed "
                        "{seed}). Type [bold]help[/] for the rules, [bold]?[/] for your moves "
                        "and a hint.", game=t.p("game", game.name), seed=str(seed)))
    legend = ui.legend(state.view(seat))
    if legend:
        console.print(legend)
    rng = random.Random(derive_seed(seed, "observe"))
    try:
        while state.to_act:
            if seat in state.to_act:
                _human_turn(state, seat, ui, read)
            else:
                actor = next(s for s in state.to_act if s != seat)
                bot = players[actor]
                action = bot.act(observe_for(bot, state, actor, rng))
                _apply_and_narrate(state, actor, action, ui, seat)
        ui.render_end(state.view(seat))
        ui.render_stop(state.view(seat))
    except (KeyboardInterrupt, EOFError, Quit):
        console.print("\n[yellow]" + t("Leaving the table.") + "[/]")
    _offer_save(state, names, console, read, record_dir, t)
    return state


def _human_turn(state: State, seat: Seat, ui: TableUI, read: ReadLine) -> None:
    console = ui.console
    view = state.view(seat)
    ui.render(view)
    action = ui.human_action(state, seat, view, read)
    if action is not None:
        _apply_and_narrate(state, seat, action, ui, seat)
        return
    while True:
        text = read(f"{ui.prompt(view)} > ").strip()
        if not text:
            continue
        if ui.command(state, seat, text):
            continue
        if text in ("help", "h"):
            console.print(reflow(ui.help_text(view)))
            legend = ui.legend(view)
            if legend:
                console.print(legend)
            continue
        if text == "?":
            legal = ", ".join(state.action_text(a) for a in state.legal_actions(seat))
            console.print(ui.t("[bold]Legal now:[/] {moves}", moves=escape(legal)))
            ui.show_hint(state, seat)
            continue
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        try:
            action = ui.parse(state, text)
            _apply_and_narrate(state, seat, action, ui, seat)
            return
        except (NotationError, IllegalAction) as err:
            reason = escape(render_error(err, ui.lang))
            console.print(ui.t("[red]{reason}[/] - try again ([bold]?[/] for your moves, "
                               "[bold]help[/] for the rules)", reason=reason))


def _apply_and_narrate(state: State, actor: Seat, action: Action, ui: TableUI,
                       seat: Seat) -> None:
    before = state.view(seat)
    state.apply(action, actor)
    for line in ui.narrate(before, actor, state.action_text(action), state.view(seat)):
        ui.console.print(line)


def _offer_save(state: State, players: list[str], console: Console, read: ReadLine,
                record_dir: Path | None, t: Translator) -> None:
    """Save the record into ``record_dir`` if given, else ask whether and where."""
    try:
        if record_dir is not None:
            record_dir.mkdir(parents=True, exist_ok=True)
            path = record_dir / f"{state.game.id}-{state.seed}.txt"
        else:
            answer = read(escape(t("Save the record of this game? [y/N] "))).strip().lower()
            if answer not in ("y", "yes", t("y"), t("yes")):
                return
            default = f"{state.game.id}-{state.seed}.txt"
            path = Path(read(escape(t("File to save it in [{file}]: ", file=default))).strip()
                        or default)
        path.write_text(record_text(state, players), encoding="utf-8")
        console.print(t("Saved the record to [bold]{file}[/].", file=escape(str(path))))
    except (KeyboardInterrupt, EOFError):
        console.print()
