"""One match driven for learning agents: observations, masks, rewards, illegal moves.

The PettingZoo (AEC and parallel) and Gymnasium environments are thin shells over
:class:`Match`, so each rule (what an agent observes, what it is rewarded, what an illegal
move does, how episodes are seeded) lives here once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.engine import Action, IllegalAction, Seat, State
from parlour.features import LeanObservations, action_mask, lean_buffers
from parlour.rl import platform
from parlour.rl.encoding import encoder_for
from parlour.rl.encoding.base import FLOAT32

REWARDS = ("match", "deal")
MASK_TYPE = np.dtype(np.int8)  # a dtype object: NumPy makes one of ``np.int8`` each call
_frombuffer = np.frombuffer  # (a global's lookup, not the module's attribute, each step)


def agent_name(seat: Seat) -> str:
    return f"seat_{seat}"


class Match:
    """A game, its options and the state of the match being played.

    ``reward="match"``: each seat gets ``2 * state.reward(seat) - 1`` when the match ends
    (+1 first place, -1 last, 0 for a shared first place or the middle of three places).
    ``reward="deal"``: at the end of each deal or round, each seat gets the change in its
    match score (the game's own points, signed so that more is better); in a game of one
    deal (Clockwork Spades, Foursquare) that is the match reward.
    An illegal action ends the match: the offender gets ``illegal_reward``, the others 0.
    """

    # (the arguments checked here are Any: the compiled build would refuse a wrong type with
    # its own TypeError before the check's clear error; and mypyc fails on a float argument
    # with a default before ``**options``)
    def __init__(self, game_id: str, seats: Any = None, reward: Any = "match",
                 illegal_reward: Any = -1.0, **options: Any) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.game = platform.game(game_id)
        self.options = self.game.resolve_options(options)
        self.seats = self.game.check_seats(seats)
        self.reward_mode = reward
        self.illegal_reward = float(illegal_reward)
        self.encoder = encoder_for(self.game.id, self.seats, self.options)
        self.num_actions = self.game.num_actions
        self._action_of = {self.game.action_text(a): a for a in range(self.num_actions)}
        self._seeds = random.Random()
        self.state: State = self.game.new(0, self.seats, **self.options)
        self.illegal: Seat | None = None
        #: Whether the match has ended (its outcome is in, or an illegal move ended it):
        #: kept by :meth:`reset` and :meth:`act`, the only ways the match moves on (read at
        #: every step, it is not worked out again each time).
        self.over = False
        self._points: list[float] = []
        self._round = 1
        #: The last observation handed out in this state, and whose (-1: none): ``last``
        #: and ``observe`` of the same agent in one step share it (one slot: a dict's lookup
        #: and store cost more a step)
        self._cached_seat = -1
        self._cached: dict[str, np.ndarray] = {}
        #: A lean encoder's observations of this match, seat by seat (None: not lean).
        self._lean = (LeanObservations(self.encoder.filler, self.encoder.refiller,
                                       self.encoder.zeros, self.num_actions, _as_floats)
                      if self.encoder.lean else None)
        #: What :meth:`act` returns when it rewards no one (most steps): one tuple.
        self.no_rewards: tuple[float, ...] = (0.0,) * self.seats
        #: The rewards of the last :meth:`step` that returned -1.
        self.rewards: Sequence[float] = self.no_rewards
        #: Whether each deal or round ends with its points as rewards (else only the match's
        #: end rewards, as in a game of one deal); settled once, read at every step.
        self._per_deal = reward == "deal" and not self.encoder.one_deal

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: Any = None) -> int:
        """A new match: dealt from ``seed`` exactly as ``game.new(seed)`` deals it; without
        a seed, the next of a sequence that the last given seed fixes. Returns the seed."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise ValueError(f"a seed is a whole number, not {seed!r}")
            seed = int(seed)
            self._seeds = random.Random(seed)
        else:
            seed = self._seeds.getrandbits(63)
        self.state = self.game.new(seed, self.seats, **self.options)
        self.illegal = None
        self.over = self.state.outcome is not None
        self._round = self.state.round
        self._points = [] if self.encoder.one_deal else self.encoder.points(self.state)
        self._cached_seat = -1
        if self._lean is not None:
            self._lean.clear()
        return seed

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.over else self.state.to_act

    # ------------------------------------------------------------------ observing
    def observe(self, seat: Seat) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` for ``seat``: what it sees, and nothing else."""
        if seat == self._cached_seat:
            return self._cached
        if self._lean is not None:  # (the match's own state: only what changed is written)
            observation, mask = self._lean.observe(self.state, seat)
            obs = _observed(observation, mask)
        else:
            obs = self.observation(self.state, seat)
        if self.illegal is not None:  # the match was ended by an illegal move
            obs["action_mask"][:] = 0
        self._cached_seat = seat
        self._cached = obs
        return obs

    def observation(self, state: State, seat: Seat) -> dict[str, np.ndarray]:
        """The observation of ``seat`` in ``state``: the encoding of what the seat sees
        (its facts, ``state.seen(seat)``, for a lean encoder; its view otherwise) and the
        mask of the legal actions they list."""
        encoder = self.encoder
        if encoder.lean:  # (the buffers in one compiled call, NumPy wrapping them here)
            return _wrapped(*lean_buffers(state, seat, encoder.filler, encoder.zeros,
                                          self.num_actions))
        view = state.view(seat)
        action_of = self._action_of
        legal = tuple([action_of[text] for text in view["legal"]])
        observation = encoder.encode(view)
        return _observed(observation, action_mask(legal, self.num_actions))

    def render(self, seat: Seat) -> str:
        return platform.render_text(self.game, self.state.view(seat), seat, self.seats)

    # ------------------------------------------------------------------ acting
    def step(self, seat: Seat, action: Any) -> Seat:
        """:meth:`act`, for the AEC environment's step, where most actions reward no one
        and end nothing: then the seat to act next; else -1, and :attr:`rewards` holds
        the rewards :meth:`act` gave (one compiled call where three reads were)."""
        rewards = self.act(seat, action)
        if rewards is self.no_rewards and not self.over:
            return self.state.to_act[0]
        self.rewards = rewards
        return -1

    def act(self, seat: Seat, action: Any) -> Sequence[float]:
        """Play ``action`` for ``seat``; the reward each seat gets for it (:attr:`no_rewards`
        itself when nobody is rewarded)."""
        self._cached_seat = -1  # (the observations handed out are the callers' to keep)
        state = self.state
        try:
            state.apply(action if type(action) is int else _as_action(action), seat)
        except IllegalAction:
            self.illegal = seat
            self.over = True
            rewards = [0.0] * self.seats
            rewards[seat] = self.illegal_reward
            return rewards
        over = self.over = state.outcome is not None
        if self._per_deal:
            if state.round == self._round and not over:
                return self.no_rewards
            points = self.encoder.points(state)
            rewards = [now - before for now, before in zip(points, self._points, strict=True)]
            self._points = points
            self._round = state.round
            return rewards
        if over:
            return [2.0 * state.reward(s) - 1.0 for s in range(self.seats)]
        return self.no_rewards


def _as_floats(buffer: Any) -> np.ndarray:
    """A lean observation's buffer as a NumPy array, without a copy."""
    return _frombuffer(buffer, FLOAT32)


def _wrapped(buffer: Any, mask: bytearray) -> dict[str, np.ndarray]:
    """A lean observation's buffers as NumPy arrays, without a copy."""
    return _observed(_as_floats(buffer), mask)


def _observed(observation: np.ndarray, mask: bytearray) -> dict[str, np.ndarray]:
    """An observation and its action mask's buffer (wrapped without a copy) as one."""
    return {"observation": observation, "action_mask": _frombuffer(mask, MASK_TYPE)}


def _as_action(action: Any) -> Action:
    """An int action from an int or a NumPy integer (anything else is illegal)."""
    if isinstance(action, np.integer):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalAction(f"an action is a whole number, not {action!r}")
    return action
