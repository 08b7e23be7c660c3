"""One observation encoding per game, read from ``view(seat)`` alone (see ``docs/rl.md``):
each game's is in its folder (``parlour/games/<game>/encoding.py``), named by its spec's
``encoder``."""

from __future__ import annotations

from typing import Any

from parlour.registry import spec
from parlour.rl.encoding.base import Encoder, Field, Layout, Writer

__all__ = ["Encoder", "Field", "Layout", "Writer", "default_encoder", "encoder_for", "markdown"]


def encoder_for(game_id: str, seats: int, options: dict[str, Any]) -> Encoder:
    """The encoder of ``game_id`` for this many seats and these (resolved) options."""
    found = spec(game_id).encoder
    if found is None:
        raise ValueError(f"{game_id} has no reinforcement-learning encoding yet")
    return found()(seats, options)


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

