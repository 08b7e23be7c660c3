"""Digests of seeded games, bot games and learning-environment episodes, to prove that a
change (a faster hot path, the compiled build) plays exactly as before.

``python tests/same_results.py`` prints the digests of the build it runs on as JSON;
``tests/test_same_results.py`` compares them with the ones stored there, taken before the
speed work, and with the other build's (pure or compiled).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from game_checks import Pieces

from parlour.bots import make_bot, observe_for
from parlour.engine import derive_seed, play_random
from parlour.games import game_ids, get_game
from parlour.record import record_text

SEEDS = (1, 7, 2026)


class _Short:
    """Options that keep each match short enough for a test: its game's own
    (``SAME_RESULTS["options"]`` in its folder's checks.py)."""

    def __getitem__(self, game_id: str) -> dict[str, Any]:
        options: dict[str, Any] = Pieces("SAME_RESULTS")[game_id]["options"]
        return options


SHORT = _Short()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _record(state: Any) -> str:
    return record_text(state, date="2026-12-01")


def random_games(game_id: str) -> str:
    """Seeded random playouts through the public contract (every seat, slaps too)."""
    game = get_game(game_id)
    records = [_record(play_random(game.new(seed, **SHORT[game_id]), random.Random(seed)))
               for seed in SEEDS]
    return _sha("".join(records))


def bot_games(game_id: str) -> str:
    """A seeded game between the rule bot, a small ISMCTS and the random bot."""
    game = get_game(game_id)
    state = game.new(SEEDS[1], **SHORT[game_id])
    kinds = ["rule", "ismcts", "random"]
    bots = [make_bot(game, kinds[s % 3], s, derive_seed(SEEDS[1], "bot", s),
                     **({"iterations": 40} if kinds[s % 3] == "ismcts" else {}))
            for s in range(state.num_seats)]
    rng = random.Random(5)
    while state.to_act:
        seat = state.to_act[0]
        state.apply(bots[seat].act(observe_for(bots[seat], state, seat, rng)), seat)
    return _sha(_record(state))


def rl_episodes(game_id: str, steps: int = 400) -> str:
    """The observations, masks and rewards of random-policy AEC steps from seeded resets."""
    import numpy as np

    from parlour import rl

    env = rl.raw_env(game_id, **SHORT[game_id])
    rng = np.random.default_rng(3)
    env.reset(seed=11)
    digest = hashlib.sha256()
    for _ in range(steps):
        if not env.agents:
            env.reset()
        obs, reward, term, trunc, _ = env.last()
        digest.update(obs["observation"].tobytes())
        digest.update(obs["action_mask"].tobytes())
        digest.update(repr((env.agent_selection, reward, term, trunc)).encode())
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return digest.hexdigest()[:16]


KINDS = {"random": random_games, "bots": bot_games, "rl": rl_episodes}


def digests() -> dict[str, dict[str, str]]:
    return {gid: {kind: make(gid) for kind, make in KINDS.items()} for gid in game_ids()}


if __name__ == "__main__":
    json.dump(digests(), sys.stdout, indent=1, sort_keys=True)
    print()
