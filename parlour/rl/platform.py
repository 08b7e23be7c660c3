"""The Parlour entry points the environments use, in one place.

Games, bots and terminal renderers are found through these four functions only, so a change
in how the parlour finds them is adapted here and nowhere else in :mod:`parlour.rl`.
"""

from __future__ import annotations

import io
import random

from rich.console import Console

from parlour.bots import Bot, make_bot, observe_for
from parlour.engine import Action, Game, JsonDict, Seat, State
from parlour.games import game_ids, get_game
from parlour.terminal import load_ui

__all__ = ["bot", "bot_action", "game", "games", "render_text"]


def games() -> tuple[str, ...]:
    """Every installed game id, in menu order."""
    return game_ids()


def game(game_id: str) -> Game:
    """The game with this id; a clear error naming the known ids otherwise."""
    return get_game(game_id)


def bot(game: Game, kind: str, seat: Seat, seed: int) -> Bot:
    """A Parlour bot of ``kind`` (``rule``, ``random``, ``solver`` ...) for ``seat``."""
    return make_bot(game, kind, seat, seed)


def bot_action(player: Bot, state: State, seat: Seat, rng: random.Random) -> Action:
    """The bot's move for ``seat``, from the observation the platform hands bots."""
    return player.act(observe_for(player, state, seat, rng))


def render_text(game: Game, view: JsonDict, seat: Seat, seats: int, width: int = 100) -> str:
    """``view`` drawn by the game's terminal renderer, as plain text (no colour codes)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False,
                      highlight=False, emoji=False)
    load_ui(game, console, seat, seats).render(view)
    return buffer.getvalue()
