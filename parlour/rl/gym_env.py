"""Gymnasium single-agent environments: one seat learns, Parlour bots play the others."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from parlour.engine import Seat, derive_seed
from parlour.rl import platform
from parlour.rl.match import Match


class ParlourSingleAgentEnv(gym.Env[np.ndarray, np.int64]):
    """One seat of a Parlour game; the other seats are Parlour bots.

    The observation is the seat's encoding (a float32 vector, see ``docs/rl.md``); the legal
    actions come as ``info["action_mask"]`` and from :meth:`action_masks` (what
    sb3-contrib's maskable algorithms call). ``opponents`` is one bot kind for every other
    seat (``"rule"``) or a kind per other seat, in seat order (``"rule,random,rule"``).
    The bots are seeded from the deal's seed, so ``reset(seed=s)`` replays the same match
    for the same actions. Rewards and illegal actions are as in :class:`Match`.
    """

    # gymnasium declares ``metadata`` an instance attribute of Env, so no ClassVar here
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, game_id: str, opponents: str | list[str] = "rule", seat: Seat = 0,
                 render_mode: str | None = None, **kwargs: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.match = Match(game_id, **kwargs)
        if isinstance(seat, bool) or not isinstance(seat, int) or not (
                0 <= seat < self.match.seats):
            raise ValueError(f"{self.match.game.name} has seats 0 to {self.match.seats - 1}, "
                             f"not {seat!r}")
        self.seat = seat
        kinds = opponents.split(",") if isinstance(opponents, str) else list(opponents)
        kinds = [k.strip() for k in kinds if k.strip()] or ["rule"]
        others = [s for s in range(self.match.seats) if s != seat]
        self._kinds = {s: kinds[i % len(kinds)] for i, s in enumerate(others)}
        for s, kind in self._kinds.items():  # a bad kind fails here, not at the first reset
            platform.bot(self.match.game, kind, s, 0)
        self.render_mode = render_mode
        layout = self.match.encoder.layout
        self.observation_space = spaces.Box(layout.low, layout.high, (layout.size,),
                                            np.float32)
        self.action_space = spaces.Discrete(self.match.num_actions)
        self._bots: dict[Seat, Any] = {}
        self._rng = random.Random(0)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2 ** 63 - 1))
        deal = self.match.reset(seed)
        game = self.match.game
        self._bots = {s: platform.bot(game, kind, s, derive_seed(deal, "bot", s))
                      for s, kind in self._kinds.items()}
        self._rng = random.Random(derive_seed(deal, "observe"))
        reward = self._play_bots()
        del reward  # nothing is won before the learner's first move
        obs = self.match.observe(self.seat)
        return obs["observation"], self._info(obs)

    def _play_bots(self) -> float:
        """Bots move until the learner is to act alone, or the match is over; the reward
        the learner got meanwhile."""
        match, total = self.match, 0.0
        while True:
            others = [s for s in match.to_act if s != self.seat]
            if not others:
                return total
            seat = others[0]
            action = platform.bot_action(self._bots[seat], match.state, seat, self._rng)
            total += match.act(seat, action)[self.seat]

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.match.over:
            raise ValueError("the match is over: call reset()")
        reward = self.match.act(self.seat, action)[self.seat]
        if not self.match.over:
            reward += self._play_bots()
        obs = self.match.observe(self.seat)
        info = self._info(obs)
        if self.match.illegal is not None:
            info["illegal_action"] = True
        return obs["observation"], float(reward), self.match.over, False, info

    def _info(self, obs: dict[str, np.ndarray]) -> dict[str, Any]:
        return {"action_mask": obs["action_mask"]}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans."""
        return self.match.observe(self.seat)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return None if self.render_mode is None else self.match.render(self.seat)
