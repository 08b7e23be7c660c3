"""Random play driven by Hypothesis: a state machine that deals a game and then, step by
step, lets Hypothesis choose the seat to act and its legal action. A game's property is an
``@invariant`` of a subclass, checked after the deal and after every action; a failure is
shrunk by Hypothesis to a short game and reported with the steps that reach it.

``run_machine(Machine, games, steps)`` runs one: ``games`` runs of ``steps`` actions (a
finished game is followed by a new deal), with the fixed, database-free settings of the
``parlour`` profile (tests/conftest.py), so the same games are played on every run."""

from __future__ import annotations

from typing import ClassVar

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule, run_state_machine_as_test

from parlour.engine import State
from parlour.games import get_game

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


class RandomPlay(RuleBasedStateMachine):
    """Deals ``game_id`` (the seed Hypothesis's choice) and plays it."""

    game_id: ClassVar[str]
    state: State

    def new_game(self, seed: int) -> State:
        """The game dealt from ``seed`` (a subclass may pass options)."""
        return get_game(self.game_id).new(seed)

    @initialize(seed=SEEDS)
    def deal(self, seed: int) -> None:
        self.state = self.new_game(seed)
        self.dealt()

    def dealt(self) -> None:
        """Called after every deal (a subclass keeps what it tracks per game here)."""

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """One legal action of a seat to act; a new deal once the game is over."""
        state = self.state
        if not state.to_act:
            self.deal(data.draw(SEEDS, label="seed"))
            return
        seat = data.draw(st.sampled_from(state.to_act), label="seat")
        action = data.draw(st.sampled_from(state.legal_actions(seat)), label="action")
        state.apply(action, seat)


def run_machine(machine: type[RandomPlay], games: int, steps: int) -> None:
    """Run ``machine`` ``games`` times, ``steps`` actions each (a game over before that is
    followed by another)."""
    run_state_machine_as_test(machine, settings=settings(
        settings.default, max_examples=games, stateful_step_count=steps))
