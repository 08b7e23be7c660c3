"""A seat's facts (``state.seen(seat)``) and its view: one source of what a seat sees.

Spades and Hit the Deck gather what a seat may see as compact facts; ``view(seat)`` is built
from those alone and the learning environments encode them directly. These tests play
random matches and check, at every step and for every seat and the spectator, that the view
is the one its facts give, and that redealing everything the seat cannot see
(``determinize``) changes none of its facts, so neither its view nor its observation.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from parlour.engine import JsonDict, State, derive_seed
from parlour.games import get_game
from parlour.games.hit_the_deck import rules as hit_the_deck
from parlour.games.spades import rules as spades
from parlour.registry import GAMES, spec

VIEW_OF: dict[str, Callable[[Any], JsonDict]] = {
    "spades": spades.view_of,
    "hit-the-deck": hit_the_deck.view_of,
}
CASES = [("spades", None, {"target": 150, "max_deals": 3}),
         ("spades", None, {"blind_nil": True, "blind_nil_deficit": 0, "target": 150,
                           "max_deals": 3}),
         ("hit-the-deck", 2, {"target": 30}), ("hit-the-deck", 3, {"target": 30}),
         ("hit-the-deck", 6, {"target": 20})]


def random_states(game_id: str, seats: int | None, options: dict[str, Any],
                  matches: int) -> list[State]:
    """Every state of a few random matches, the finished one included."""
    game = get_game(game_id)
    states = []
    for m in range(matches):
        state = game.new(700 + m, seats, **options)
        rng = random.Random(m)
        states.append(state.clone())
        while state.to_act:
            actor = rng.choice(state.to_act)
            state.apply(rng.choice(state.legal_actions(actor)), actor)
            states.append(state.clone())
    return states


@pytest.mark.parametrize(("game_id", "seats", "options"), CASES)
def test_the_view_is_built_from_the_facts_alone(game_id: str, seats: int | None,
                                                 options: dict[str, Any]) -> None:
    view_of = VIEW_OF[game_id]
    for state in random_states(game_id, seats, options, 2):
        for seat in [None, *range(state.num_seats)]:
            seen = state.seen(seat)  # type: ignore[attr-defined]
            assert state.view(seat) == view_of(seen)
            assert seen.legal == (state.legal_actions(seat) if seat is not None else ())


SEAT_VIEW_CASES = [(game_id, seats, options) for game_id in GAMES
                   if spec(game_id).seat_view is not None
                   for seats, options in [(None, dict(spec(game_id).short_match))]]


@pytest.mark.parametrize(("game_id", "seats", "options"), SEAT_VIEW_CASES)
def test_a_seats_view_is_the_spectators_with_its_own_part(
        game_id: str, seats: int | None, options: dict[str, Any]) -> None:
    """A game's ``seat_view`` (the server sends the spectator's view with each seat's part
    set): the same keys for every seat, and with the spectator's view they make the
    seat's own view, at every step of random matches."""
    part = spec(game_id).seat_view
    assert part is not None
    for state in random_states(game_id, seats, options, 3):
        public = state.view(None)
        keys = set(part(state, None))
        assert keys and keys <= set(public)
        for seat in [None, *range(state.num_seats)]:
            mine = part(state, seat)
            assert set(mine) == keys
            assert {k: v for k, v in public.items() if k not in keys} | mine == \
                state.view(seat)


def test_the_seat_view_check_catches_a_part_that_misses_a_key() -> None:
    """A part without the hand: the seat's view made with it shows the spectator's
    (no hand), and the check above sees it differ."""
    state = random_states("spades", None, {"max_deals": 1}, 1)[5]
    part = spec("spades").seat_view
    assert part is not None
    mine = {k: v for k, v in part(state, 0).items() if k != "hand"}
    public = state.view(None)
    made = {k: v for k, v in public.items() if k not in set(mine)} | mine
    assert made != state.view(0) and made["hand"] is None


def changed_by_redealing(states: list[State], facts: Callable[[State, int | None], Any]
                         ) -> list[tuple[int, int | None]]:
    """The (step, seat) where redealing what the seat cannot see changes ``facts``."""
    found = []
    for step, state in enumerate(states):
        for seat in [None, *range(state.num_seats)]:
            other = state.determinize(seat, random.Random(derive_seed(step, seat)))
            if facts(other, seat) != facts(state, seat):
                found.append((step, seat))
    return found


def seen(state: State, seat: int | None) -> Any:
    return state.seen(seat)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game_id", "seats", "options"), CASES)
def test_redealing_what_a_seat_cannot_see_never_changes_its_facts(
        game_id: str, seats: int | None, options: dict[str, Any]) -> None:
    assert changed_by_redealing(random_states(game_id, seats, options, 2), seen) == []


def test_the_facts_check_catches_a_fact_the_seat_may_not_see() -> None:
    """Facts that also hold the next seat's hand are caught."""
    def peeking(state: State, seat: int | None) -> Any:
        return seen(state, seat), state.hands[((seat or 0) + 1) % 4]  # type: ignore[attr-defined]

    assert changed_by_redealing(random_states("spades", None, {}, 1)[:20], peeking)
