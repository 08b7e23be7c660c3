"""One observation encoding per game, read from ``view(seat)`` alone (see ``docs/rl.md``)."""

from __future__ import annotations

import importlib
from typing import Any

from parlour.games import module_name
from parlour.rl.encoding.base import Encoder, Field, Layout, Writer

__all__ = ["Encoder", "Field", "Layout", "Writer", "encoder_for"]


def encoder_for(game_id: str, seats: int, options: dict[str, Any]) -> Encoder:
    """The encoder of ``game_id`` for this many seats and these (resolved) options."""
    try:
        module = importlib.import_module(f"{__name__}.{module_name(game_id)}")
    except ModuleNotFoundError as err:
        raise ValueError(f"{game_id} has no reinforcement-learning encoding yet") from err
    kind = next(v for v in vars(module).values()
                if isinstance(v, type) and issubclass(v, Encoder) and v is not Encoder)
    return kind(seats, options)
