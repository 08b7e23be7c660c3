"""One observation encoding per game, read from ``view(seat)`` alone (see ``docs/rl.md``)."""

from __future__ import annotations

from typing import Any

from parlour.rl.encoding.base import Encoder, Field, Layout, Writer
from parlour.rl.encoding.clockwork_spades import ClockworkSpadesEncoder
from parlour.rl.encoding.foursquare import FoursquareEncoder
from parlour.rl.encoding.hit_the_deck import HitTheDeckEncoder
from parlour.rl.encoding.spades import SpadesEncoder
from parlour.rl.encoding.spite_and_malice import SpiteAndMaliceEncoder

#: The encoding of each game (the ``rl`` extra's own list: the game's spec cannot name it,
#: since the core package does not depend on numpy). A new game adds its encoder here.
ENCODERS: dict[str, type[Encoder]] = {
    "spades": SpadesEncoder,
    "spite-and-malice": SpiteAndMaliceEncoder,
    "hit-the-deck": HitTheDeckEncoder,
    "clockwork-spades": ClockworkSpadesEncoder,
    "foursquare": FoursquareEncoder,
}

__all__ = ["Encoder", "Field", "Layout", "Writer", "default_encoder", "encoder_for", "markdown"]


def encoder_for(game_id: str, seats: int, options: dict[str, Any]) -> Encoder:
    """The encoder of ``game_id`` for this many seats and these (resolved) options."""
    if game_id not in ENCODERS:
        raise ValueError(f"{game_id} has no reinforcement-learning encoding yet")
    return ENCODERS[game_id](seats, options)


def markdown(encoder: Encoder) -> str:
    """The encoding as the Markdown table ``docs/rl.md`` shows (a test keeps them equal)."""
    rows = ["| field | slice | size | meaning | range |", "| --- | --- | --- | --- | --- |"]
    for f in encoder.layout.fields:
        sl = encoder.layout[f.name]
        rows.append(f"| `{f.name}` | {sl.start}:{sl.stop} | {f.size} | {f.meaning} | "
                    f"{f.low:g} to {f.high:g} |")
    rows.append(f"| **total** | 0:{encoder.layout.size} | {encoder.layout.size} | | |")
    return "\n".join(rows)


def default_encoder(game_id: str) -> Encoder:
    """The encoder of a game with its default seats and options."""
    from parlour.rl import platform

    game = platform.game(game_id)
    return encoder_for(game.id, game.default_seats, game.resolve_options())

