"""Reinforcement-learning environments for every Parlour game (the ``rl`` extra).

>>> from parlour import rl
>>> env = rl.env("spades")                     # PettingZoo AEC
>>> par = rl.parallel_env("hit-the-deck")      # PettingZoo parallel
>>> one = rl.single_agent("spades", opponents="rule")   # Gymnasium, bots at the others

Observations are built from what the seat sees alone (``view(seat)``, or the facts it is
built from, ``state.seen(seat)``); ``docs/rl.md`` documents each encoding,
the rewards and the seeding.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as err:  # pragma: no cover - depends on the install
    raise ModuleNotFoundError(
        f"parlour.rl needs the 'rl' extra ({err.name} is missing): "
        "pip install 'parlour[rl]'") from err

from parlour.native import extend

extend(__path__, "rl")  # the compiled match (match.py), when the compiled build is in use

from parlour.rl import platform  # noqa: E402  (after the path is set)
from parlour.rl.aec import ParlourAECEnv, ParlourParallelEnv  # noqa: E402
from parlour.rl.gym_env import ParlourSingleAgentEnv  # noqa: E402
from parlour.rl.match import REWARDS, Match  # noqa: E402

__all__ = ["REWARDS", "Match", "ParlourAECEnv", "ParlourParallelEnv", "ParlourSingleAgentEnv",
           "env", "games", "gym_id", "parallel_env", "raw_env", "single_agent"]


def gym_id(game_id: str) -> str:
    """The Gymnasium id of a game's single-agent environment: ``parlour/Spades-v0``."""
    return "parlour/" + "".join(w.capitalize() for w in game_id.split("-")) + "-v0"


def _register() -> None:
    """``gymnasium.make("parlour/Foursquare-v0", opponents=...)`` for every game."""
    for game_id in platform.games():
        if gym_id(game_id) not in gymnasium.registry:
            gymnasium.register(gym_id(game_id),
                               entry_point="parlour.rl.gym_env:ParlourSingleAgentEnv",
                               kwargs={"game_id": game_id})


def games() -> tuple[str, ...]:
    """The game ids there are environments for."""
    return platform.games()


def raw_env(game_id: str, **kwargs: Any) -> ParlourAECEnv:
    """The AEC environment without PettingZoo's order-enforcing wrapper."""
    return ParlourAECEnv(game_id, **kwargs)


def env(game_id: str, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``game_id``: keyword arguments are the game's
    options (``target=300``), ``seats``, ``reward`` ("match" or "deal"),
    ``illegal_reward`` and ``render_mode`` ("ansi")."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(raw_env(game_id, **kwargs))


def parallel_env(game_id: str, **kwargs: Any) -> ParlourParallelEnv:
    """A PettingZoo parallel environment of ``game_id`` (same arguments as :func:`env`)."""
    return ParlourParallelEnv(game_id, **kwargs)


def single_agent(game_id: str, opponents: str | list[str] = "rule", seat: int = 0,
                 **kwargs: Any) -> ParlourSingleAgentEnv:
    """A Gymnasium environment: ``seat`` learns, bots of kind ``opponents`` play the rest."""
    return ParlourSingleAgentEnv(game_id, opponents=opponents, seat=seat, **kwargs)


_register()
