"""Bots stop on their budgets, never on the clock: a seeded bot plays the same moves on any
machine and under any load. Only whoever runs a bot may cap its thinking time
(``Bot.time_cap``); the web server does, for the pace of its tables.

The clock here is made to jump an hour at every reading, as if each step of a search ran
on a machine slowed without limit: a bot that reads the clock to stop plays differently."""

from __future__ import annotations

import asyncio
import itertools
import random
import time

import pytest

from parlour.bots import hint, make_bot, observe, observe_for
from parlour.bots.base import Observation
from parlour.bots.ismcts import ISMCTSBot
from parlour.bots.search import paired_search, search
from parlour.games import game_ids, get_game
from parlour.games.spades.rules import BID_BASE
from parlour.server.play.tables import Hub
from parlour.server.settings import Settings
from parlour.server.storage.store import Store

#: Decisions with a real choice that each game's seeded bots make under both clocks.
DECISIONS = 10


def jump_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock the bots could read now advances an hour per reading."""
    for name in ("perf_counter", "monotonic", "time"):
        real, ticks = getattr(time, name), itertools.count()
        monkeypatch.setattr(time, name, lambda real=real, ticks=ticks: real() + 3600.0 *
                            next(ticks))


def count_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the determinizations the bots draw (``Observation.sample``)."""
    drawn = [0]
    sample = Observation.sample

    def counted(self: Observation, rng: random.Random):
        drawn[0] += 1
        return sample(self, rng)

    monkeypatch.setattr(Observation, "sample", counted)
    return drawn


def seeded_moves(game_id: str, kind: str, **params: object) -> list[str]:
    """The first :data:`DECISIONS` real choices of seeded bots of ``kind`` in every seat."""
    game = get_game(game_id)
    rng = random.Random(5)
    played: list[str] = []
    for seed in itertools.count(11):  # a short game (Clockwork Spades) is followed by more
        state = game.new(seed)
        bots = [make_bot(game, kind, s, seed + s, **params) for s in range(state.num_seats)]
        while state.to_act:
            seat = state.to_act[0]
            bot = bots[seat]
            action = bot.act(observe_for(bot, state, seat, rng))
            if len(state.legal_actions(seat)) > 1:
                played.append(f"{seat}: {game.action_text(action)}")
                if len(played) == DECISIONS:
                    return played
            state.apply(action, seat)
    raise AssertionError("unreachable")


#: Easy: the level sets the samples of Spades' bids by simulation (24, over the 16 after
#: which a time cap may stop them).
SEARCHING = [(g, "ismcts:easy", {"iterations": 48}) for g in game_ids()] + [
    ("foursquare", "solver", {})]


@pytest.mark.parametrize(("game_id", "kind", "params"), SEARCHING,
                         ids=[f"{g}-{k}" for g, k, _ in SEARCHING])
def test_a_seeded_bot_plays_the_same_moves_whatever_the_clock(monkeypatch, game_id, kind,
                                                              params):
    calm = seeded_moves(game_id, kind, **params)
    jump_the_clock(monkeypatch)
    assert seeded_moves(game_id, kind, **params) == calm


def spades_trick_obs() -> Observation:
    state = get_game("spades").new(2026)
    for _ in range(4):
        state.apply(BID_BASE + 3)
    return observe(state, 0, random.Random(1), sample=True)


def test_searches_read_the_clock_only_when_given_a_cap(monkeypatch):
    jump_the_clock(monkeypatch)
    obs = spades_trick_obs()
    full = search(obs, random.Random(2), 64)
    assert sum(c.visits for c in full.values()) == 64
    capped = search(obs, random.Random(2), 64, seconds=1.0)
    assert sum(c.visits for c in capped.values()) == 15  # the clock is read every 16th
    drawn = count_samples(monkeypatch)
    paired_search(obs, random.Random(2), 200)
    assert drawn[0] > 1
    drawn[0] = 0
    paired_search(obs, random.Random(2), 200, seconds=1.0)
    assert drawn[0] == 1


def test_a_bot_given_a_time_cap_stops_on_it(monkeypatch):
    obs = spades_trick_obs()
    drawn = count_samples(monkeypatch)
    jump_the_clock(monkeypatch)
    ISMCTSBot(obs.game, 0, 3, iterations=64).act(obs)
    assert drawn[0] == 64
    drawn[0] = 0
    ISMCTSBot(obs.game, 0, 3, iterations=64, time_cap=1.0).act(obs)
    assert drawn[0] == 15
    drawn[0] = 0
    hint(obs, seed=3, time_cap=1.0)
    assert drawn[0] == 15  # ismcts:normal would draw 1,500


def test_the_server_caps_its_bots_thinking_by_level(monkeypatch):
    """The server's setting, not the bot, bounds a decision at a table: under the jumping
    clock its capped bot stops after the first check of the clock."""
    settings = Settings(db_url="sqlite://", bot_processes=0)
    assert settings.bot_time_caps == {"easy": 0.1, "normal": 0.22, "hard": 2.0}
    hub = Hub(settings, Store("sqlite://", auto_upgrade=True))
    obs = spades_trick_obs()
    drawn = count_samples(monkeypatch)
    jump_the_clock(monkeypatch)
    try:
        for level in ("easy", "hard"):
            bot = make_bot(obs.game, f"ismcts:{level}", 0, 3)
            drawn[0] = 0
            action, _ = asyncio.run(hub.runner._think(None, 0, bot, obs))  # type: ignore[arg-type]
            assert action in obs.legal
            assert bot.time_cap == settings.bot_time_caps[level]
            assert drawn[0] == 15
    finally:
        hub.runner.pool.shutdown()
