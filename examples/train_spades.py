"""Learn Spades card play against Parlour's rule bots: a short PyTorch actor-critic script.

    .venv/bin/python examples/train_spades.py --steps 300 --eval-deals 5       # a few seconds
    .venv/bin/python examples/train_spades.py --steps 30000 --eval-deals 300   # docs/rl.md's run

The learner sits South (seat 0) in ``parlour.rl.single_agent("spades", opponents="rule")``,
one deal an episode (``max_deals=1``) and the per-deal reward (its team's points for the
deal, / 100 here). Its partner and both opponents are rule bots; so are its own bids (the
wrapper below asks the rule bot whenever the mask offers only bids), so what it learns is
card play. The policy is a small network whose logits for illegal cards are set to -inf
before sampling; the update is REINFORCE with a learned baseline. The evaluation plays new
deals with the most likely legal card and compares the team's points per deal with the rule
bot playing South on the same deals.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from torch import nn

from parlour import rl
from parlour.engine import derive_seed
from parlour.games.spades.rules import NIL
from parlour.rl import platform

SCALE = 100.0  # reward units: points / 100


class RuleBids(gym.Wrapper):
    """The rule bot makes the learner's bids; the learner only ever sees card play."""

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        env = self.env.unwrapped
        seed = env.match.state.seed  # type: ignore[attr-defined]
        self._bidder = platform.bot(env.match.game, "rule", env.seat,  # type: ignore[attr-defined]
                                    derive_seed(seed, "learner bids"))
        self._rng = random.Random(derive_seed(seed, "learner bids"))
        obs, _, _, info = self._bid(obs, info)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, done, truncated, info = self.env.step(action)
        if not done:
            obs, more, done, info = self._bid(obs, info)
            reward += more
        return obs, reward, done, truncated, info

    def _bid(self, obs: np.ndarray, info: dict[str, Any]
             ) -> tuple[np.ndarray, float, bool, dict[str, Any]]:
        env = self.env.unwrapped
        total, done = 0.0, False
        while not done and info["action_mask"][NIL:].any():
            action = platform.bot_action(self._bidder, env.match.state,  # type: ignore[attr-defined]
                                         env.seat, self._rng)  # type: ignore[attr-defined]
            obs, reward, done, _, info = self.env.step(action)
            total += reward
        return obs, total, done, info


def make_env() -> gym.Env:
    return RuleBids(rl.single_agent("spades", opponents="rule", reward="deal", max_deals=1))


class Policy(nn.Module):
    def __init__(self, size: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.ReLU(),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor
                ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(~mask, -torch.inf)
        return torch.distributions.Categorical(logits=logits), self.value(h).squeeze(-1)


def play_deal(env: gym.Env, policy: Policy, seed: int, greedy: bool = False
              ) -> tuple[list[torch.Tensor], list[torch.Tensor], float, int]:
    """One deal: the log-probabilities and values of the learner's choices, the reward."""
    obs, info = env.reset(seed=seed)
    logps, values, total, done, steps = [], [], 0.0, False, 0
    while not done:
        dist, value = policy(torch.as_tensor(obs)[None],
                             torch.as_tensor(info["action_mask"].astype(bool))[None])
        action = dist.probs.argmax(-1) if greedy else dist.sample()
        logps.append(dist.log_prob(action)[0])
        values.append(value[0])
        obs, reward, done, _, info = env.step(int(action))
        total += reward
        steps += 1
    return logps, values, total, steps


def rule_points(deals: int, first_seed: int) -> float:
    """The team points per deal when the rule bot plays South too, on the same deals."""
    env = rl.single_agent("spades", opponents="rule", reward="deal", max_deals=1)
    total = 0.0
    for i in range(deals):
        seed = first_seed + i
        env.reset(seed=seed)
        bot = platform.bot(env.match.game, "rule", 0, derive_seed(seed, "learner bids"))
        rng = random.Random(derive_seed(seed, "learner bids"))
        done = False
        while not done:
            action = platform.bot_action(bot, env.match.state, 0, rng)
            _, reward, done, _, _ = env.step(action)
            total += reward
    return total / deals


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="learner card plays")
    parser.add_argument("--batch", type=int, default=16, help="deals per update")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-deals", type=int, default=500)
    parser.add_argument("--eval-seed", type=int, default=10_000_000)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    env = make_env()
    space = env.observation_space
    assert isinstance(space, gym.spaces.Box) and isinstance(env.action_space, gym.spaces.Discrete)
    policy = Policy(space.shape[0], int(env.action_space.n))
    optimiser = torch.optim.Adam(policy.parameters(), lr=3e-4)
    started = time.monotonic()
    steps = deals = 0
    seeds = random.Random(args.seed)
    while steps < args.steps:
        loss = torch.zeros(())
        batch_rewards = []
        for _ in range(args.batch):
            logps, values, reward, n = play_deal(env, policy, seeds.randrange(10_000_000))
            steps += n
            deals += 1
            batch_rewards.append(reward)
            target = torch.full((len(values),), reward / SCALE)
            value = torch.stack(values)
            advantage = (target - value).detach()
            loss = (loss - (torch.stack(logps) * advantage).sum()
                    + 0.5 * ((target - value) ** 2).sum())
        optimiser.zero_grad()
        (loss / args.batch).backward()
        optimiser.step()
        if deals % (args.batch * 50) == 0:
            print(f"{steps} plays, {deals} deals: mean points {np.mean(batch_rewards):+.1f}")
    trained = time.monotonic() - started
    with torch.no_grad():
        learned = sum(play_deal(env, policy, args.eval_seed + i, greedy=True)[2]
                      for i in range(args.eval_deals)) / args.eval_deals
    rule = rule_points(args.eval_deals, args.eval_seed)
    result = {"steps": steps, "deals": deals, "training_seconds": round(trained, 1),
              "seconds": round(time.monotonic() - started, 1),
              "eval_deals": args.eval_deals, "learned_points_per_deal": learned,
              "rule_points_per_deal": rule}
    print(f"trained on {deals} deals ({steps} card plays) in {trained:.0f} s; on "
          f"{args.eval_deals} new deals the team scores {learned:+.1f} points a deal with the "
          f"learner South, {rule:+.1f} with the rule bot South ({result['seconds']:.0f} s in "
          "all)")
    return result


if __name__ == "__main__":
    main()
