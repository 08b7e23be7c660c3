"""parlour.rl: the PettingZoo and Gymnasium environments of every game.

PettingZoo's and Gymnasium's own checkers run on all five games with their warnings turned
into errors (but the two every Dict-observation environment gets); the honesty test redeals
what a seat cannot see at every step of random matches and requires the seat's observation
to stay the same.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from game_checks import Pieces
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

from parlour import rl
from parlour.engine import OptionError, State, derive_seed
from parlour.features import action_mask
from parlour.games import game_ids, get_game
from parlour.games.hit_the_deck.rules import SLAP_BASE
from parlour.rl.encoding import default_encoder, markdown
from parlour.rl.match import Match

ROOT = Path(__file__).resolve().parent.parent
GAMES = game_ids()
#: Options that keep random matches short (the encodings are the same): each game's own
#: (RL_SHORT in its folder's checks.py).
SHORT = Pieces("RL_SHORT")
#: What PettingZoo's checker says of every environment with Dict observations (its own
#: classic games included, which it lists by name to silence them).
DICT_OBS_WARNINGS = ("Observation space for each agent probably", "Observation is not a NumPy")


@contextmanager
def strict_warnings() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for text in DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=text)
        yield


def test_every_game_has_environments() -> None:
    assert rl.games() == GAMES


# --------------------------------------------------------------------------- the checkers
@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_api(game_id: str) -> None:
    with strict_warnings():
        api_test(rl.env(game_id, **SHORT[game_id]), num_cycles=150)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_parallel_api(game_id: str) -> None:
    with strict_warnings():
        parallel_api_test(rl.parallel_env(game_id, **SHORT[game_id]), num_cycles=150)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seeding(game_id: str) -> None:
    with strict_warnings():
        seed_test(lambda: rl.env(game_id, **SHORT[game_id]), num_cycles=60)
        parallel_seed_test(lambda: rl.parallel_env(game_id, **SHORT[game_id]), num_cycles=60)


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_check_env(game_id: str) -> None:
    with strict_warnings():
        check_env(gymnasium.make(rl.gym_id(game_id), **SHORT[game_id]).unwrapped,
                  skip_render_check=False)


def test_hit_the_deck_four_and_six_seats_pass_too() -> None:
    with strict_warnings():
        for seats in (2, 6):
            api_test(rl.env("hit-the-deck", seats=seats, target=25), num_cycles=80)
            parallel_api_test(rl.parallel_env("hit-the-deck", seats=seats, target=25),
                              num_cycles=80)


# --------------------------------------------------------------------------- honesty
Observe = Callable[[Match, State, int], dict[str, np.ndarray]]


def view_observation(match: Match, state: State, seat: int) -> dict[str, np.ndarray]:
    return match.observation(state, seat)


def dishonest_violations(game_id: str, observe: Observe, matches: int, seats: int | None = None,
                         **options: Any) -> list[str]:
    """Random matches; at every step, for every seat, the observation of a determinization
    for that seat against the real one. Returns where they differ."""
    match = Match(game_id, seats=seats, **options)
    found: list[str] = []
    for m in range(matches):
        match.reset(seed=1000 + m)
        state = match.state
        rng = random.Random(m)
        step = 0
        while state.to_act and not found:
            for seat in range(match.seats):
                real = observe(match, state, seat)
                other = state.determinize(seat, random.Random(derive_seed(m, step, seat)))
                seen = observe(match, other, seat)
                for key in ("observation", "action_mask"):
                    if not np.array_equal(real[key], seen[key]):
                        where = np.flatnonzero(real[key] != seen[key])[:5].tolist()
                        found.append(f"match {m} step {step} seat {seat}: {key} differs at "
                                     f"{where}")
            actor = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
            state.apply(rng.choice(state.legal_actions(actor)), actor)
            step += 1
    return found


#: Matches per case; PARLOUR_RL_HONESTY=<factor> multiplies them for a longer soak.
SOAK = int(os.environ.get("PARLOUR_RL_HONESTY", "1"))
#: Every game at its default seats, and the cases a game's own options or seats open.
HONESTY = [(game_id, None, 2, {}) for game_id in GAMES] + [
    ("spades", None, 1, {"blind_nil": True, "blind_nil_deficit": 0}),
    ("hit-the-deck", 2, 2, {}), ("hit-the-deck", 6, 1, {}),
    ("clockwork-spades", None, 4, {}), ("foursquare", None, 4, {})]


@pytest.mark.parametrize(("game_id", "seats", "matches", "options"), HONESTY)
def test_redealing_what_a_seat_cannot_see_never_changes_its_observation(
        game_id: str, seats: int | None, matches: int, options: dict[str, Any]) -> None:
    assert dishonest_violations(game_id, view_observation, matches * SOAK, seats,
                                **(SHORT[game_id] | options)) == []


def test_the_honesty_check_catches_an_observation_that_peeks() -> None:
    """An observation that also encodes the next card of the stock (which the player has
    not seen) is caught at once."""
    def peeking(match: Match, state: State, seat: int) -> dict[str, np.ndarray]:
        obs = view_observation(match, state, seat)
        hidden = state.deal()[state.placed + 1] if state.stock else 0  # type: ignore[attr-defined]
        return {**obs, "observation": np.append(obs["observation"], hidden)}

    assert dishonest_violations("foursquare", peeking, 1)


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_an_observation_rewritten_as_the_match_goes_is_the_one_written_anew(seats: int) -> None:
    """Hit the Deck's environment writes a seat's observation over its last one, only what
    changed (``refill``): at every step of random matches (slaps, rounds and resets
    included), every seat's observation is the one written from zeros, and changing an
    observation handed out changes nothing the environment hands out next."""
    env = rl.raw_env("hit-the-deck", seats=seats, target=60)
    match = env.match
    rng = random.Random(seats)
    steps = 0
    for episode in range(3):
        env.reset(seed=episode)
        for _agent in env.agent_iter(max_iter=700):
            for seat in rng.sample(range(seats), seats):  # each seat, in any order
                if match.over:
                    break
                got = env.observe(f"seat_{seat}")
                fresh = match.observation(match.state, seat)
                assert np.array_equal(got["observation"], fresh["observation"])
                assert np.array_equal(got["action_mask"], fresh["action_mask"])
                got["observation"][:] = 9.0  # the caller's to change
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            obs["action_mask"][:] = 1  # the caller's too
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    assert steps > 300  # (three matches to 60 points: hundreds of steps)


def test_last_is_what_the_agent_selected_observes_and_is_owed() -> None:
    """The AEC environment's own ``last`` (it asks the match directly) gives what
    PettingZoo's does: the selected agent's observation, its reward since it last acted, its
    end flags and info; with ``observe=False``, no observation."""
    env = rl.raw_env("hit-the-deck", seats=3, target=25)
    rng = random.Random(5)
    checked = ended = rewarded = 0
    for seed in range(6):  # whole matches: their last steps end and reward the agents
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            expected = env.observe(agent)
            assert np.array_equal(obs["observation"], expected["observation"])
            assert np.array_equal(obs["action_mask"], expected["action_mask"])
            assert (reward, term, trunc, info) == (env._cumulative_rewards[agent],
                                                   env.terminations[agent],
                                                   env.truncations[agent], env.infos[agent])
            assert env.last(observe=False)[0] is None
            checked += 1
            rewarded += reward != 0
            if term or trunc:
                ended += 1
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert checked > 150 and ended == 6 * 3 and rewarded >= 6


def test_agent_iter_is_pettingzoos() -> None:
    """The AEC environment's own ``agent_iter`` yields what PettingZoo's does: the agent
    selected, while there are agents, at most ``max_iter`` of them, anew each time it is
    iterated."""
    from pettingzoo import AECEnv

    ours, theirs = rl.raw_env("spades", max_deals=1), rl.raw_env("spades", max_deals=1)
    for env in (ours, theirs):
        env.reset(seed=3)
    both = ours.agent_iter(max_iter=5), AECEnv.agent_iter(theirs, max_iter=5)
    walks: list[list[str]] = [[], []]
    for _ in range(2):  # iterated twice: five agents each time
        for walk, env, agents in zip(walks, (ours, theirs), both, strict=True):
            for agent in agents:
                walk.append(agent)
                env.step(legal_of(env))
    assert walks[0] == walks[1] and len(walks[0]) == 10
    for env in (ours, theirs):  # to the end: no agents, no more
        for _agent in env.agent_iter():
            env.step(None if env.terminations[env.agent_selection] else legal_of(env))
    assert list(ours.agent_iter()) == list(AECEnv.agent_iter(theirs)) == []


def legal_of(env: Any) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


# --------------------------------------------------------------------------- seeding
@pytest.mark.parametrize("game_id", GAMES)
def test_reset_with_a_seed_deals_parlours_seeded_deal(game_id: str) -> None:
    env = rl.raw_env(game_id)
    env.reset(seed=77)
    game = get_game(game_id)
    state = game.new(77)
    ours = env.match.state
    rng = random.Random(3)
    for _ in range(30):
        if not state.to_act:
            break
        for seat in range(state.num_seats):
            assert ours.view(seat) == state.view(seat)
        seat = state.to_act[0]
        action = rng.choice(state.legal_actions(seat))
        assert env.agent_selection == f"seat_{seat}"
        env.step(action)
        state.apply(action, seat)
    assert ours.history == state.history


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = rl.raw_env("spades"), rl.raw_env("spades")
    a.reset(seed=5)
    b.reset(seed=5)
    seeds_a = [a.match.reset() for _ in range(3)]
    seeds_b = [b.match.reset() for _ in range(3)]
    assert seeds_a == seeds_b and len(set(seeds_a)) == 3 and 5 not in seeds_a


@pytest.mark.parametrize("game_id", ["spades", "hit-the-deck", "spite-and-malice"])
def test_single_agent_matches_replay_exactly_from_a_seed(game_id: str) -> None:
    def trajectory() -> list[tuple[bytes, float]]:
        env = rl.single_agent(game_id, opponents="rule", **SHORT[game_id])
        obs, info = env.reset(seed=11)
        rng = np.random.default_rng(0)
        out = [(obs.tobytes(), 0.0)]
        for _ in range(40):
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            out.append((obs.tobytes(), reward))
            if done:
                break
        return out

    assert trajectory() == trajectory()


def test_the_bots_move_until_the_learner_is_to_act() -> None:
    env = rl.single_agent("spades", opponents="random,rule,random", seat=2)
    _, info = env.reset(seed=8)
    state = env.match.state
    assert state.to_act == (2,) and [s for s, _ in state.history] == [0, 1]
    assert [b.kind for _, b in sorted(env._bots.items())] == ["random", "rule", "random"]
    assert info["action_mask"].astype(bool).tolist() == env.action_masks().tolist()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # nil
    # East bids, South leads the first trick, West follows: North (the learner) is next.
    assert state.to_act == (2,) and [s for s, _ in state.history] == [0, 1, 2, 3, 0, 1]


# --------------------------------------------------------------------------- rewards
def play_out(env: Any, seed: int) -> dict[str, float]:
    """Random legal moves to the end of the match; each agent's total reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("game_id", GAMES)
def test_match_reward_is_the_placing_at_the_end(game_id: str) -> None:
    env = rl.raw_env(game_id, **SHORT[game_id])
    totals = play_out(env, 4)
    state = env.match.state
    assert state.outcome is not None
    assert totals == {f"seat_{s}": 2 * state.reward(s) - 1 for s in range(state.num_seats)}


@pytest.mark.parametrize(("game_id", "sign", "team"),
                         [("spades", 1, True), ("spite-and-malice", 1, False),
                          ("hit-the-deck", -1, False)])
def test_deal_rewards_add_up_to_the_match_score(game_id: str, sign: int, team: bool) -> None:
    env = rl.raw_env(game_id, reward="deal", **SHORT[game_id])
    totals = play_out(env, 9)
    state: Any = env.match.state
    assert len(getattr(state, "deals", getattr(state, "rounds", []))) >= 2  # several deals
    for seat in range(state.num_seats):
        score = state.scores[seat & 1] if team else state.scores[seat]
        assert totals[f"seat_{seat}"] == sign * score


def test_deal_rewards_come_at_the_end_of_each_deal() -> None:
    env = rl.raw_env("spades", reward="deal", target=100, max_deals=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    paid_at = []
    while env.agents:
        obs, _, term, _, _ = env.last()
        deal = env.match.state.deal
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.agents and any(env.rewards.values()):
            paid_at.append((deal, len(env.match.state.deals)))
    assert paid_at and all(done == deal for deal, done in paid_at)


# --------------------------------------------------------------------------- illegal moves
def test_an_illegal_action_ends_the_match_with_a_penalty_and_changes_nothing() -> None:
    env = rl.env("spades", illegal_reward=-5)
    env.reset(seed=1)
    before = env.unwrapped.match.state.history
    offender = env.agent_selection
    env.step(0)  # a card during the bidding
    assert env.unwrapped.match.state.history == before
    assert all(env.terminations.values())
    assert env.rewards == {a: (-5.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.infos[offender] == {"illegal_action": offender}
    for _ in env.agent_iter():
        obs, _, term, _, _ = env.last()
        assert term and not obs["action_mask"].any()
        env.step(None)
    assert env.agents == []


def test_single_agent_and_parallel_treat_an_illegal_action_alike() -> None:
    one = rl.single_agent("foursquare")
    one.reset(seed=3)
    _, reward, done, truncated, info = one.step(0)  # a1: the first card must go to d4
    assert (reward, done, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ValueError, match="call reset"):
        one.step(24)
    par = rl.parallel_env("clockwork-spades")
    obs, _ = par.reset(seed=3)
    actor = next(a for a in par.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[actor]["action_mask"] == 0)[0])
    _, rewards, terms, _, _ = par.step(dict.fromkeys(par.possible_agents, illegal))
    assert rewards[actor] == -1.0 and all(terms.values()) and par.agents == []


@pytest.mark.parametrize("bad", [1.5, "3", None, -1, 10_000, np.float32(2.0)])
def test_actions_that_are_not_actions_are_illegal(bad: Any) -> None:
    env = rl.raw_env("foursquare")
    env.reset(seed=1)
    env.step(bad)
    assert env.terminations["seat_0"] and env.rewards["seat_0"] == -1.0
    assert env.match.state.history == []


def test_numpy_integers_are_actions() -> None:
    env = rl.raw_env("foursquare")
    env.reset(seed=1)
    env.step(np.int64(24))
    assert env.match.state.history == [(0, 24)]


def test_bad_arguments_get_clear_errors() -> None:
    with pytest.raises(ValueError, match="reward must be one of match, deal"):
        rl.env("spades", reward="points")
    with pytest.raises(OptionError, match="unknown game"):
        rl.env("poker")
    with pytest.raises(OptionError, match="no option 'trumps'"):
        rl.env("spades", trumps=1)
    with pytest.raises(OptionError, match="no 'genius' bot"):
        rl.single_agent("spades", opponents="genius")
    with pytest.raises(ValueError, match="seats 0 to 3"):
        rl.single_agent("spades", seat=4)
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("spades", render_mode="human")
    with pytest.raises(ValueError, match="seed is a whole number"):
        rl.raw_env("spades").reset(seed="7")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the slap
def test_the_slap_is_a_turn_per_seat_whose_action_is_the_reaction_time() -> None:
    env = rl.raw_env("hit-the-deck", seats=3)
    rng = np.random.default_rng(0)
    for seed in range(40):
        env.reset(seed=seed)
        while env.agents and env.match.state.reaction() is None:
            obs, _, term, _, _ = env.last()
            env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.agents:
            break
    else:
        pytest.fail("no slap in 40 random matches")
    state = env.match.state
    slaps_before = len(state.history)
    order = []
    times = {"seat_0": 250, "seat_1": 40, "seat_2": 1200}
    for _ in range(3):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        assert np.flatnonzero(mask).tolist() == list(range(SLAP_BASE, SLAP_BASE + 300))
        order.append(agent)
        env.step(SLAP_BASE + times[agent] // 10)
    assert order == ["seat_0", "seat_1", "seat_2"]
    assert state.reaction() is None
    assert state.history[slaps_before:] == [(s, SLAP_BASE + times[f"seat_{s}"] // 10)
                                            for s in range(3)]
    assert state.view(0)["last_slap"]["slowest"] == 2


def test_the_parallel_slap_takes_every_seat_at_once() -> None:
    par = rl.parallel_env("hit-the-deck", seats=3)
    rng = np.random.default_rng(1)
    for seed in range(40):
        obs, _ = par.reset(seed=seed)
        while par.agents and par.match.state.reaction() is None:
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                       if obs[a]["action_mask"].any() else 0 for a in par.agents}
            obs, *_ = par.step(actions)
        if par.agents:
            break
    state = par.match.state
    assert all(obs[a]["action_mask"][SLAP_BASE:].all() for a in par.agents)
    par.step({"seat_0": SLAP_BASE + 5, "seat_1": SLAP_BASE + 90, "seat_2": SLAP_BASE})
    assert state.reaction() is None and state.view(0)["last_slap"]["slowest"] == 1


# --------------------------------------------------------------------------- the rest
@pytest.mark.parametrize("game_id", GAMES)
def test_ansi_render_is_the_terminal_table(game_id: str) -> None:
    env = rl.env(game_id, render_mode="ansi")
    env.reset(seed=2)
    out = env.render()
    assert isinstance(out, str) and "\x1b[" not in out
    assert len(out.strip().splitlines()) >= 3  # the table, as the terminal draws it
    assert rl.env(game_id).unwrapped.render() is None  # no render_mode: nothing drawn
    one = rl.single_agent(game_id, render_mode="ansi")
    one.reset(seed=2)
    drawn = one.render()
    assert isinstance(drawn, str) and len(drawn.strip().splitlines()) >= 3


@pytest.mark.parametrize("game_id", GAMES)
def test_docs_show_each_encoding_as_it_is(game_id: str) -> None:
    docs = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert markdown(default_encoder(game_id)) in docs


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_lie_in_their_space_and_agents_see_only_their_turn(game_id: str) -> None:
    env = rl.raw_env(game_id, **SHORT[game_id])
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(200):
        if not env.agents:
            break
        for agent in env.agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            seat = int(agent.removeprefix("seat_"))
            state = env.match.state
            legal = sorted(state.legal_actions(seat)) if seat in state.to_act else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        obs, _, term, _, _ = env.last()
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("legal", [(), (0,), (5, 7), (3, 4, 5, 9), (0, 1, 2),
                                   tuple(range(SLAP_BASE, SLAP_BASE + 300)), (2, 40, 41, 342),
                                   (9, 3, 4, 5, 1, 0)])
def test_the_action_mask_is_one_exactly_at_the_legal_actions(legal: tuple[int, ...]) -> None:
    mask = action_mask(legal, 343)
    assert len(mask) == 343 and [i for i, b in enumerate(mask) if b] == sorted(legal)
    assert set(mask) <= {0, 1}


@pytest.mark.parametrize("game_id", ["spades", "hit-the-deck"])
def test_a_lean_encoders_fill_writes_what_encode_returns(game_id: str) -> None:
    match = Match(game_id, **SHORT[game_id])
    match.reset(seed=3)
    encoder, state = match.encoder, match.state
    for seat in range(match.seats):
        seen = state.seen(seat)  # type: ignore[attr-defined]
        buffer = array("f", bytes(4 * encoder.layout.size))
        encoder.fill(seen, buffer)
        assert np.array_equal(np.frombuffer(buffer, np.float32), encoder.encode(seen))
        assert any(buffer)


def test_the_core_package_needs_no_learning_library() -> None:
    code = ("import sys, parlour, parlour.cli, parlour.arena, parlour.record, parlour.terminal, "
            "parlour.server.app\n"
            "from parlour.games import game_ids, get_game\n"
            "from parlour.bots import bot_kinds\n"
            "for g in game_ids(): get_game(g); bot_kinds(g)\n"
            "print(sorted(m for m in ('torch', 'gymnasium', 'pettingzoo', 'sb3_contrib', "
            "'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert "torch" not in "".join(out) and "gymnasium" not in "".join(out)
    assert "pettingzoo" not in "".join(out)
    core = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[project.optional")[0]
    assert all(name not in core for name in ("torch", "gymnasium", "pettingzoo"))


def _load(path: Path) -> Any:
    from bench_kit import load_script

    return load_script(path)


def test_the_rl_benchmark_runs() -> None:
    bench = _load(ROOT / "bench" / "rl.py")
    results = bench.measure(rounds=1, seconds=0.05)
    assert set(results) == {"spades", "hit_the_deck"}
    assert all(r["parlour"] > 0 for r in results.values())
