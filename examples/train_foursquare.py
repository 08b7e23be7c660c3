"""Train a Foursquare player with maskable PPO (sb3-contrib) and measure it on new deals.

    .venv/bin/python examples/train_foursquare.py --smoke     # a few seconds: does it all run?
    .venv/bin/python examples/train_foursquare.py --steps 2000000 --max-minutes 14 --out docs/img

The second is the run behind docs/rl.md's chart (about half an hour on 2 cores); it writes
over the committed ``docs/img/rl-foursquare-ppo.png`` and ``.json``. Without ``--out`` a run
writes them to ``artifacts/train_foursquare/`` (ignored by git).

The environment is ``parlour.rl.single_agent("foursquare")``: a 806-number observation read
from the player's view (docs/rl.md) and a mask of the legal placements, which PPO's policy
applies before sampling. First the policy clones the rule bot's moves on ``--imitate``
training deals (two PPO runs from scratch, 426,000 and 643,000 steps, never won a game:
random play wins none of 2,000 deals, so there is no win to learn from); then PPO trains
it on the game's reward.
The game's reward is +1 for a win and -1 for a loss, at the end;
``--shaping`` adds potential-based shaping on the share of piles face up (which leaves the
best policy unchanged; 0 turns it off). Training deals come from one seeded
sequence; the evaluation deals (``--eval-seed`` onwards) are new ones. The rule bot plays
the same evaluation deals for comparison; the solver's rate (99.2%) is quoted from
docs/bots.md. The run writes a learning curve (PNG and its data, JSON) and the results.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from parlour import rl
from parlour.arena import wilson
from parlour.engine import derive_seed
from parlour.rl import platform

RULE_RATE, SOLVER_RATE = 0.0945, 0.992  # docs/bots.md, parlour/games/foursquare/full-rules/en.md


class FaceUpShaping(gym.Wrapper):
    """Potential-based shaping (Ng, Harada and Russell, 1999), which leaves the best policy
    unchanged: the potential is ``weight`` times the share of the sixteen piles showing
    their faces (read from the observation's ``face_up`` field), 0 once the game is over."""

    def __init__(self, env: gym.Env, weight: float, gamma: float) -> None:
        super().__init__(env)
        self.weight, self.gamma = weight, gamma
        layout = env.unwrapped.match.encoder.layout  # type: ignore[attr-defined]
        self.face_up = layout["face_up"]
        self.potential = 0.0

    def _potential(self, obs: np.ndarray) -> float:
        return self.weight * float(obs[self.face_up].sum()) / 16

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        self.potential = self._potential(obs)
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        after = 0.0 if terminated else self._potential(obs)
        reward += self.gamma * after - self.potential
        self.potential = after
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


class Curve(BaseCallback):
    """Records every finished training game: the step it ended at and whether it was won."""

    def __init__(self, max_seconds: float | None = None) -> None:
        super().__init__()
        self.games: list[tuple[int, bool]] = []
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done:
                won = info.get("episode_won", False)
                self.games.append((self.num_timesteps, bool(won)))
        return self.deadline is None or time.monotonic() < self.deadline


class MarkWins(gym.Wrapper):
    """Puts ``episode_won`` in the last info of a game (the curve reads it)."""

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated:
            state = self.env.unwrapped.match.state  # type: ignore[attr-defined]
            info["episode_won"] = state.outcome is not None and state.outcome.placing[0] == 1
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


GAMMA = 0.995


def make_env(shaping: float, seed: int) -> gym.Env:
    env: gym.Env = MarkWins(rl.single_agent("foursquare"))
    if shaping:
        env = FaceUpShaping(env, shaping, GAMMA)
    env.reset(seed=seed)
    return env


def imitate(model: MaskablePPO, games: int, seed: int, epochs: int) -> float:
    """Behaviour cloning before PPO: the policy learns to choose the rule bot's moves on
    ``games`` training deals (cross-entropy over the legal moves). Returns the last loss."""
    env = rl.single_agent("foursquare")
    game = env.match.game
    observations, masks, actions = [], [], []
    for i in range(games):
        deal = derive_seed(seed, "imitate", i) % 1_000_000
        obs, info = env.reset(seed=deal)
        bot = platform.bot(game, "rule", 0, derive_seed(deal, "bot", 0))
        rng = random.Random(deal)
        done = False
        while not done:
            action = platform.bot_action(bot, env.match.state, 0, rng)
            observations.append(obs)
            masks.append(info["action_mask"].astype(bool))
            actions.append(action)
            obs, _, done, _, info = env.step(action)
    obs_t = torch.as_tensor(np.array(observations))
    mask_t = torch.as_tensor(np.array(masks))
    act_t = torch.as_tensor(actions)
    policy = model.policy
    optimiser = torch.optim.Adam(policy.parameters(), lr=1e-3)
    order = torch.Generator().manual_seed(seed)
    loss = torch.zeros(())
    for _ in range(epochs):
        for batch in torch.randperm(len(act_t), generator=order).split(256):
            dist = policy.get_distribution(obs_t[batch], action_masks=mask_t[batch].numpy())
            loss = -dist.log_prob(act_t[batch]).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
    return float(loss.detach())


def evaluate(model: MaskablePPO, deals: int, first_seed: int) -> list[bool]:
    """The trained policy (its most likely legal action) on ``deals`` new deals."""
    env = rl.single_agent("foursquare")
    wins = []
    for i in range(deals):
        obs, info = env.reset(seed=first_seed + i)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool),
                                      deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        state = env.match.state
        wins.append(state.outcome is not None and state.outcome.placing[0] == 1)
    return wins


def rule_bot_wins(deals: int, first_seed: int) -> list[bool]:
    """The rule bot on the same deals."""
    game = platform.game("foursquare")
    wins = []
    for i in range(deals):
        seed = first_seed + i
        state = game.new(seed)
        bot = platform.bot(game, "rule", 0, derive_seed(seed, "bot", 0))
        rng = random.Random(derive_seed(seed, "observe"))
        while state.to_act:
            state.apply(platform.bot_action(bot, state, 0, rng), 0)
        wins.append(state.outcome is not None and state.outcome.placing[0] == 1)
    return wins


def rate(wins: list[bool]) -> dict[str, float]:
    low, high = wilson(sum(wins), len(wins))
    return {"games": len(wins), "wins": sum(wins), "rate": sum(wins) / max(1, len(wins)),
            "low95": low, "high95": high}


def learning_curve(games: list[tuple[int, bool]], window: int, points: int = 200
                   ) -> list[list[float]]:
    """``[step, share of the last window games won]``, at most ``points`` of them."""
    if len(games) < window:
        return []
    won = np.array([w for _, w in games], float)
    rolling = np.convolve(won, np.ones(window) / window, mode="valid")
    steps = [s for s, _ in games][window - 1:]
    every = max(1, len(steps) // points)
    return [[steps[i], round(float(rolling[i]), 4)] for i in range(0, len(steps), every)]


def plot(curve: list[list[float]], window: int, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    if curve:
        ax.plot([s for s, _ in curve], [100 * r for _, r in curve],
                label=f"PPO, last {window} training games")
    ax.axhline(100 * RULE_RATE, color="tab:orange", ls="--", label="rule bot (9.45%)")
    ax.set_xlabel("environment steps (cards placed)")
    ax.set_ylabel("games won (%)")
    ax.set_title(title)
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


#: ``--smoke``: a run of a few seconds that goes through every part (cloning, PPO, the
#: evaluation, the chart); any flag given as well still wins.
SMOKE = {"steps": 256, "envs": 2, "imitate": 10, "imitate_epochs": 2, "eval_deals": 4}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=600_000, help="training steps")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--shaping", type=float, default=1.0,
                        help="weight of the face-up shaping (0: the game's reward alone)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--imitate", type=int, default=3000,
                        help="rule-bot games to clone before PPO (0: none)")
    parser.add_argument("--imitate-epochs", type=int, default=20)
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--eval-seed", type=int, default=10_000_000,
                        help="the first evaluation deal (training deals never reach it)")
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="stop training early after this long (the steps done are "
                             "reported)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", type=Path, default=Path("artifacts/train_foursquare"),
                        help="folder for rl-foursquare-ppo.png/.json (docs/img holds the "
                             "committed ones)")
    parser.add_argument("--smoke", action="store_true",
                        help="a check that everything runs, in seconds: "
                             + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in SMOKE.items()))
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**SMOKE)
        args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    vec = DummyVecEnv([lambda i=i: make_env(args.shaping, derive_seed(args.seed, "env", i)
                                            % 1_000_000)
                       for i in range(args.envs)])
    n_steps = max(8, min(512, args.steps // args.envs))
    model = MaskablePPO("MlpPolicy", vec, n_steps=n_steps, batch_size=min(256, n_steps),
                        n_epochs=5, learning_rate=3e-4, gamma=GAMMA, ent_coef=0.01,
                        policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, device="cpu")
    seconds: dict[str, float] = {}
    cloned = cloned_rate = None
    if args.imitate:
        clock = time.monotonic()
        cloned = imitate(model, args.imitate, args.seed, args.imitate_epochs)
        seconds["imitation"] = time.monotonic() - clock
        cloned_rate = rate(evaluate(model, args.eval_deals, args.eval_seed))
        print(f"cloned the rule bot's moves on {args.imitate} games ({args.imitate_epochs} "
              f"epochs, loss {cloned:.3f}) in {seconds['imitation']:.0f} s: "
              f"{cloned_rate['rate']:.2%} of {cloned_rate['games']} new deals won before PPO",
              flush=True)
    curve = Curve(None if args.max_minutes is None else 60 * args.max_minutes)
    clock = time.monotonic()
    model.learn(total_timesteps=args.steps, callback=curve)
    seconds["ppo"] = time.monotonic() - clock
    steps_done = model.num_timesteps
    clock = time.monotonic()
    policy = rate(evaluate(model, args.eval_deals, args.eval_seed))
    rule = rate(rule_bot_wins(args.eval_deals, args.eval_seed))
    seconds["evaluation"] = time.monotonic() - clock
    result = {
        "command": ".venv/bin/python examples/train_foursquare.py "
                   + " ".join(sys.argv[1:] if argv is None else argv),
        "steps": steps_done, "steps_asked": args.steps, "envs": args.envs,
        "shaping": args.shaping, "imitated_games": args.imitate, "imitation_loss": cloned,
        "policy_after_imitation": cloned_rate,
        "training_games": len(curve.games),
        "imitation_seconds": round(seconds.get("imitation", 0.0), 1),
        "ppo_seconds": round(seconds["ppo"], 1),
        "evaluation_seconds": round(seconds["evaluation"], 1),
        "seconds": round(time.monotonic() - started, 1),
        "eval_first_seed": args.eval_seed, "policy": policy, "rule_bot_same_deals": rule,
        "rule_bot_reference": RULE_RATE, "solver_reference": SOLVER_RATE,
    }
    window = max(1, min(1000, len(curve.games) // 10))
    result["curve_window"] = window
    result["curve"] = learning_curve(curve.games, window)
    plot(result["curve"], window, args.out / "rl-foursquare-ppo.png",
         f"Foursquare, maskable PPO: {policy['rate']:.1%} of {policy['games']} new deals won")
    (args.out / "rl-foursquare-ppo.json").write_text(json.dumps(result) + "\n")
    print(f"PPO: {steps_done} steps ({len(curve.games)} games) in {seconds['ppo']:.0f} s; "
          f"evaluated on {policy['games']} new deals in {seconds['evaluation']:.0f} s")
    print(f"policy: {policy['wins']}/{policy['games']} won = {policy['rate']:.2%} "
          f"(95% {policy['low95']:.2%}-{policy['high95']:.2%}); rule bot on the same deals "
          f"{rule['rate']:.2%}; references: rule {RULE_RATE:.2%}, solver {SOLVER_RATE:.1%}")
    print(f"{result['seconds']:.0f} s in all; the chart and its data: "
          f"{args.out / 'rl-foursquare-ppo.png'}, {args.out / 'rl-foursquare-ppo.json'}")
    return result


if __name__ == "__main__":
    main()
