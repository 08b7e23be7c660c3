"""PettingZoo environments: the AEC one (turn by turn) and a parallel one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from parlour.rl.match import Match, agent_name


def observation_space(match: Match) -> spaces.Dict:
    """``{"observation": Box, "action_mask": Box of 0/1}`` for one agent."""
    layout = match.encoder.layout
    return spaces.Dict({
        "observation": spaces.Box(layout.low, layout.high, (layout.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (match.num_actions,), np.int8),
    })


class _Shell:
    """What both PettingZoo shells share: the match, the agents and their spaces."""

    match: Match
    render_mode: str | None

    def _setup(self, game_id: str, render_mode: str | None, **kwargs: Any) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.match = Match(game_id, **kwargs)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.match.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        # One space object per agent, the same on every call (seeding relies on it).
        self._obs_spaces = {a: observation_space(self.match) for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.match.num_actions)
                            for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    def _render(self, seat: int) -> str | None:
        if self.render_mode is None:
            return None
        return self.match.render(seat)


class ParlourAECEnv(_Shell, AECEnv):
    """A Parlour game as a PettingZoo AEC environment: agents ``seat_0`` .. ``seat_n``,
    the agent selected is the seat to act (in Hit the Deck's slap, every seat in turn,
    lowest first, each choosing its reaction time without seeing the others')."""

    def __init__(self, game_id: str, render_mode: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        self._setup(game_id, render_mode, **kwargs)
        self.metadata = {"render_modes": ["ansi"], "name": f"parlour_{self.match.game.id}_v0",
                         "is_parallelizable": False}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match.reset(seed)
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False  # whether self.rewards holds a reward (else all zeros)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.match.to_act[0])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.match.observe(self._seat[agent])

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Any, Any]:
        """AECEnv's ``agent_iter``: the agent selected, step after step, while there are
        agents (at most ``max_iter`` of them), each time it is iterated; a generator's
        step costs less than PettingZoo's iterator's (issue 36)."""
        return _Agents(self, max_iter)

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool,
                                                  bool, dict[str, Any]]:
        """AECEnv's ``last``, with the observation asked of the match directly (a loop over
        the agents calls it every step)."""
        agent = self.agent_selection
        return (self.match.observe(self._seat[agent]) if observe else None,
                self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        self._cumulative_rewards[agent] = 0.0
        after = match.step(self._seat[agent], action)
        if after >= 0:  # (most steps: no one rewarded, the match goes on)
            if self._rewarded:
                self._unreward()
            self.agent_selection = self.possible_agents[after]
            return
        rewards = match.rewards
        if any(rewards):
            self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
            self._rewarded = True
            self._accumulate_rewards()
        elif self._rewarded:
            self._unreward()
        if match.over:
            self.terminations = dict.fromkeys(self.agents, True)
            if match.illegal is not None:
                for a in self.agents:
                    self.infos[a] = {"illegal_action": agent_name(match.illegal)}
            self._deads_step_first()
            return
        self.agent_selection = self.possible_agents[match.state.to_act[0]]

    def _unreward(self) -> None:
        """The last step's rewards gone: the zeros stand until someone is rewarded (most
        steps reward no one, so they are not made again each step)."""
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False

    def render(self) -> str | None:
        """The table as the selected agent sees it, drawn by the terminal renderer."""
        if self.render_mode is None:
            return None
        return self._render(self._seat.get(getattr(self, "agent_selection", ""), 0))

    def close(self) -> None:
        pass


class _Agents(AECIterable[str, Any, Any]):
    """:meth:`ParlourAECEnv.agent_iter`'s iterable: each iteration a generator."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class ParlourParallelEnv(_Shell, ParallelEnv):
    """A Parlour game as a PettingZoo parallel environment: each step, every seat to act
    plays the action given for it (one seat in ordinary turns; every seat at once in Hit the
    Deck's slap); the actions of the other agents are ignored (their masks are all zero)."""

    def __init__(self, game_id: str, render_mode: str | None = None, **kwargs: Any) -> None:
        self._setup(game_id, render_mode, **kwargs)
        self.metadata = {"render_modes": ["ansi"],
                         "name": f"parlour_{self.match.game.id}_parallel_v0"}
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.match.reset(seed)
        self.agents = self.possible_agents.copy()
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self.match.observe(self._seat[a]) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float],
                                                     dict[str, bool], dict[str, bool],
                                                     dict[str, Any]]:
        if not self.agents:
            raise ValueError("the match is over: call reset()")
        totals = [0.0] * self.match.seats
        for seat in self.match.to_act:
            agent = agent_name(seat)
            if agent not in actions:
                raise ValueError(f"{agent} is to act: give an action for it")
            for s, r in enumerate(self.match.act(seat, actions[agent])):
                totals[s] += r
            if self.match.over:
                break
        observations = self._observations()
        rewards = {a: totals[self._seat[a]] for a in self.agents}
        over = self.match.over
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.match.illegal is not None:
            infos = {a: {"illegal_action": agent_name(self.match.illegal)} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        to_act = self.match.to_act
        return self._render(to_act[0] if to_act else 0)

    def close(self) -> None:
        pass
