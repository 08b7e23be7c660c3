"""Review a finished match: the strong bot judges every decision of a seat.

For every decision of the reviewed seat with more than one legal action, the position is
rebuilt, the seat's own observation is made (:func:`parlour.bots.observe`: its view, and
determinizations that redeal every card it has not seen; never the true hidden cards), and
the game's strongest searcher values every legal action as a **chance to win the match**
(0 to 1), at a fixed iteration budget and a seed derived from the review's seed and the
decision's index, so the same review comes out on any machine.

A decision's *loss* is the best action's chance less the chosen one's (never below 0); its
mark (fine / inaccuracy / mistake / blunder) compares the loss with the game's
:class:`Thresholds` (see ``docs/review.md`` for how they were chosen). Forced decisions
(one legal action) and reflexes (a timed :class:`~parlour.engine.Reaction`, Hit the Deck's
slap) are not judged and not counted. A seat's accuracy is its share of fine decisions,
with its mean loss beside.

The reviewer is ``ismcts`` at the ``hard`` level with its budget replaced by the review's,
searching by paired playouts (:func:`parlour.bots.search.paired_search`: every action
played out from the same determinizations, so a poor action's chance rests on as many
playouts as it takes to show it poor, not on the tree's one or two visits), with the
game's policy and value but without its ``values`` hook, whose numbers are in another
unit: where that hook answers (Spades bids, in expected points), its numbers are kept
*beside* the chances, not used for the mark. A game whose hints come from another bot
(Foursquare's ``solver``) is reviewed by that bot at its strongest level, which gives
chances itself. Spite & Malice's paired playouts go by whole turns (its search's
``playout`` hook: the rest of the turn and the next two, each as the rule bot plays it),
so a decision takes seconds, not the minutes of a tree search by single moves.

:meth:`Review.to_json` is the stored form (``schema`` :data:`SCHEMA_VERSION`), read back by
:meth:`Review.from_json`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.bots import make_bot, observe
from parlour.bots.base import Observation
from parlour.bots.ismcts import ISMCTSBot, level_iterations, search_hooks
from parlour.bots.search import Settled, paired_search
from parlour.engine import Action, JsonDict, OptionError, Seat, State, derive_seed
from parlour.message import Code, Term
from parlour.record import Record, replay
from parlour.registry import spec

#: The version of :meth:`Review.to_json`'s layout; bump it on any change a reader sees.
SCHEMA_VERSION = 1

FINE, INACCURACY, MISTAKE, BLUNDER = "fine", "inaccuracy", "mistake", "blunder"
MARKS = (FINE, INACCURACY, MISTAKE, BLUNDER)

#: What every chance in a review measures.
UNIT = "chance to win the match"

#: ``progress(done, total)``: called once before the first decision and after each.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss (drop in the chance to win, 0 to 1) of each mark."""

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 1:
            raise ValueError("thresholds must rise: 0 < inaccuracy <= mistake <= blunder <= 1")

    def mark(self, loss: float) -> str:
        """The mark of a decision that lost ``loss``: the worst threshold it reaches."""
        if loss >= self.blunder:
            return BLUNDER
        if loss >= self.mistake:
            return MISTAKE
        if loss >= self.inaccuracy:
            return INACCURACY
        return FINE

    def to_json(self) -> JsonDict:
        return {INACCURACY: self.inaccuracy, MISTAKE: self.mistake, BLUNDER: self.blunder}


#: Lichess's steps (0.1 / 0.2 / 0.3 of a -1..+1 winning chance) on a 0..1 chance.
LICHESS = Thresholds(0.05, 0.10, 0.15)

#: Each game's thresholds come from its spec (``review_steps``), from the losses measured
#: over bot games (docs/review.md, ``bench/blunders.py``): the inaccuracy step sits above
#: the reviewer's disagreement with ``ismcts:hard`` (its noise floor: the largest loss it
#: gave hard's decisions), so a strong player is next to never marked, and the blunder step
#: at the rule bot's rare real errors. A game that names none uses :data:`LICHESS`
#: (Foursquare, whose solver's losses are near 0 or near 1: lichess's steps sit in the gap).
def thresholds_for(game_id: str) -> Thresholds:
    steps = spec(game_id).review_steps
    return LICHESS if steps is None else Thresholds(*steps)


#: Standard errors on either side of a paired difference that the settled rule trusts
#: (the same as the paired search's own rule for dropping a move).
SETTLED_Z = 3.0


def mark_settled(thresholds: Thresholds, played: Action, z: float = SETTLED_Z) -> Settled:
    """The review's stop for a paired search: the mark of ``played`` is settled once every
    loss its paired differences allow (each other move's mean gain over ``played`` on their
    common samples, give or take ``z`` standard errors; the loss is the largest, at least
    0) earns the same mark. A clear blunder, a move as good as any, equal cards: each is
    known after a few hundred samples, and the budget goes to the decisions near a step.

    Over the 180 decisions of ``bench/blunders.py spades`` (4 deals, seed 0) and the 174
    of seed 1's deals it stopped the searches after 13-14% of the playouts, with not one
    mark changed (docs/review.md, *How long a review takes*)."""
    def settled(moves: Sequence[Action], results: list[list[float]], live: list[int]
                ) -> bool:
        if played not in moves:
            return False
        p = moves.index(played)
        mine = results[p]
        low = high = 0.0
        for j, theirs in enumerate(results):
            n = min(len(theirs), len(mine))
            if j == p or n < 2:
                continue
            diffs = [a - b for a, b in zip(theirs[:n], mine[:n], strict=True)]
            mean = sum(diffs) / n
            spread = z * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
            low, high = max(low, mean - spread), max(high, mean + spread)
        return thresholds.mark(low) == thresholds.mark(high)

    return settled


def reviewer_kind(game_id: str) -> str:
    """The bot that reviews a game: its solver at its strongest where the game's hints come
    from a solver (Foursquare), which takes no budget; else ``ismcts:hard``."""
    return "solver:strong" if spec(game_id).hint_bot == "solver" else "ismcts:hard"


def default_budget(game_id: str) -> int:
    """The review's default iterations per decision: the game's ``review_iterations``, else
    twice the ``hard`` level's."""
    return search_hooks(game_id).review_iterations or 2 * level_iterations(game_id, "hard")


@dataclass(frozen=True)
class Decision:
    """One judged decision."""

    index: int  # its place in the match's history (0 is the first action)
    round: int  # the deal or round it was taken in
    seat: Seat
    played: str  # the action taken, in the game's notation
    best: str  # the reviewer's choice
    chance: float  # the chance to win after the action taken
    best_chance: float
    loss: float  # best_chance - chance, at least 0
    mark: str
    #: Every legal action's chance (by text), best first.
    chances: dict[str, float]
    #: The game's own figures where its hints use another unit (Spades bids), best first.
    beside: dict[str, float] | None = None
    beside_unit: str | None = None

    def to_json(self) -> JsonDict:
        out: JsonDict = {"index": self.index, "round": self.round, "seat": self.seat,
                         "played": self.played, "best": self.best, "chance": self.chance,
                         "best_chance": self.best_chance, "loss": self.loss,
                         "mark": self.mark, "chances": dict(self.chances)}
        if self.beside is not None:
            out["beside"] = dict(self.beside)
            out["beside_unit"] = self.beside_unit
        return out

    @classmethod
    def from_json(cls, data: JsonDict) -> Decision:
        return cls(int(data["index"]), int(data["round"]), int(data["seat"]),
                   str(data["played"]), str(data["best"]), float(data["chance"]),
                   float(data["best_chance"]), float(data["loss"]), str(data["mark"]),
                   {str(k): float(v) for k, v in data["chances"].items()},
                   ({str(k): float(v) for k, v in data["beside"].items()}
                    if data.get("beside") is not None else None),
                   data.get("beside_unit"))


@dataclass(frozen=True)
class SeatSummary:
    """A seat's figures: its judged decisions by mark, accuracy and mean loss."""

    seat: Seat
    judged: int
    forced: int
    marks: dict[str, int]
    accuracy: float  # share of fine decisions (1.0 with none judged)
    mean_loss: float

    def to_json(self) -> JsonDict:
        return {"seat": self.seat, "judged": self.judged, "forced": self.forced,
                "marks": dict(self.marks), "accuracy": self.accuracy,
                "mean_loss": self.mean_loss}


def summarise(seat: Seat, decisions: Sequence[Decision], forced: int) -> SeatSummary:
    mine = [d for d in decisions if d.seat == seat]
    marks = {m: sum(d.mark == m for d in mine) for m in MARKS}
    n = len(mine)
    return SeatSummary(seat, n, forced, marks, marks[FINE] / n if n else 1.0,
                       round(sum(d.loss for d in mine) / n, 4) if n else 0.0)


@dataclass(frozen=True)
class Review:
    """A match's review: settings, every judged decision, a summary per reviewed seat."""

    game: str
    seed: int  # the match's seed
    seats: tuple[Seat, ...]  # the reviewed seats
    reviewer: str
    budget: int  # iterations a decision; 0 for a reviewer without (Foursquare's solver)
    review_seed: int
    thresholds: Thresholds
    decisions: tuple[Decision, ...]
    summaries: tuple[SeatSummary, ...]
    unit: str = UNIT

    def marked(self) -> list[Decision]:
        """The decisions worse than fine, in match order."""
        return [d for d in self.decisions if d.mark != FINE]

    def to_json(self) -> JsonDict:
        return {"schema": SCHEMA_VERSION, "game": self.game, "seed": self.seed,
                "seats": list(self.seats), "reviewer": self.reviewer, "budget": self.budget,
                "review_seed": self.review_seed, "unit": self.unit,
                "thresholds": self.thresholds.to_json(),
                "decisions": [d.to_json() for d in self.decisions],
                "summaries": [s.to_json() for s in self.summaries]}

    @classmethod
    def from_json(cls, data: JsonDict) -> Review:
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"a review of schema {data.get('schema')!r}; this Parlour "
                             f"reads schema {SCHEMA_VERSION}")
        t = data["thresholds"]
        return cls(str(data["game"]), int(data["seed"]), tuple(data["seats"]),
                   str(data["reviewer"]), int(data["budget"]), int(data["review_seed"]),
                   Thresholds(t[INACCURACY], t[MISTAKE], t[BLUNDER]),
                   tuple(Decision.from_json(d) for d in data["decisions"]),
                   tuple(SeatSummary(int(s["seat"]), int(s["judged"]), int(s["forced"]),
                                     {str(k): int(v) for k, v in s["marks"].items()},
                                     float(s["accuracy"]), float(s["mean_loss"]))
                         for s in data["summaries"]),
                   str(data["unit"]))


# ----------------------------------------------------------------------------- judging
@dataclass
class Reviewer:
    """Judges single decisions of one game at a fixed budget and seed."""

    game_id: str
    budget: int | None = None
    seed: int = 0
    thresholds: Thresholds | None = None
    #: Stop a decision's search once its mark is settled (:func:`mark_settled`); False
    #: spends the whole budget on every decision (the review before the rule, for
    #: ``bench/review.py``'s comparison).
    settle: bool = True
    kind: str = field(init=False)

    def __post_init__(self) -> None:
        found = spec(self.game_id)
        self.game_id = found.id
        if self.budget is not None and self.budget < 1:
            raise ValueError(f"the budget is at least 1 iteration, not {self.budget}")
        self.kind = reviewer_kind(found.id)
        if self.kind.startswith("solver") and self.budget is not None:
            raise OptionError("{game} is reviewed by its {bot} bot, which takes no "
                              "iteration budget", game=Term("game", found.game.name),
                              bot=Code(self.kind))
        if self.kind.startswith("ismcts") and self.budget is None:
            self.budget = default_budget(found.id)
        if self.thresholds is None:
            self.thresholds = thresholds_for(found.id)

    def judge(self, state: State, seat: Seat, action: Action, index: int | None = None
              ) -> Decision | None:
        """Judge ``seat`` taking ``action`` in ``state`` (before it is applied), from the
        seat's observation alone; None for a forced decision or a reflex. ``index`` (the
        decision's place in the history, by default the state's) keys the seeds."""
        legal = state.legal_actions(seat)
        if action not in legal:
            raise ValueError(f"{state.action_text(action)!r} is not legal for seat {seat}")
        if len(legal) == 1 or state.reaction() is not None:
            return None
        index = len(state.history) if index is None else index
        assert self.thresholds is not None
        chances, beside, unit = self._values(
            self.observe(state, seat, index), derive_seed(self.seed, "judge", index),
            mark_settled(self.thresholds, action) if self.settle else None, beside=True)
        text = state.action_text
        order = sorted(chances, key=lambda a: -chances[a])
        best = order[0]
        chance, best_chance = round(chances[action], 4), round(chances[best], 4)
        loss = round(max(0.0, best_chance - chance), 4)  # as shown, to the figures shown
        assert self.thresholds is not None
        return Decision(index, state.round, seat, text(action), text(best),
                        chance, best_chance, loss,
                        self.thresholds.mark(loss),
                        {text(a): round(chances[a], 4) for a in order},
                        ({text(a): v for a, v in sorted(beside.items(), key=lambda i: -i[1])}
                         if beside is not None else None), unit)

    def observe(self, state: State, seat: Seat, index: int) -> Observation:
        """What ``seat`` saw in ``state``, able to redeal what it did not see, seeded by
        the reviewer's seed and the decision's ``index``."""
        return observe(state, seat, random.Random(derive_seed(self.seed, "observe", index)),
                       sample=True)

    def chances(self, state: State, seat: Seat, index: int | None = None,
                settled: Settled | None = None) -> dict[Action, float]:
        """Every legal action's chance to win for ``seat`` in ``state``, judged from its
        observation alone as :meth:`judge` judges it; ``settled`` (a rule on the samples,
        as :func:`mark_settled`) may stop the search before the budget is spent."""
        index = len(state.history) if index is None else index
        found, _, _ = self._values(self.observe(state, seat, index),
                                   derive_seed(self.seed, "judge", index), settled,
                                   beside=False)
        return found

    def _values(self, obs: Observation, seed: int, settled: Settled | None, *, beside: bool
                ) -> tuple[dict[Action, float], dict[Action, float] | None, str | None]:
        bot = make_bot(obs.game, self.kind, obs.seat, seed,
                       **({"iterations": self.budget} if self.kind.startswith("ismcts")
                          else {}))
        if not isinstance(bot, ISMCTSBot):
            choice: Any = getattr(bot, "analyse")(obs)  # noqa: B009  (a solver's Choice)
            chances = {a: float(choice.chances.get(a, 0.0)) for a in obs.legal}
            return chances, None, None
        figures: dict[Action, float] | None = None
        unit: str | None = None
        if beside and bot.values_hook is not None:
            answer = bot.values_hook(obs, random.Random(seed), bot.level, bot)
            if answer is not None and len(answer) > 1:  # figures for a real choice
                figures, unit = answer, bot.values_unit
        # Chances from the search itself, for every legal action (no hook in another
        # unit, no narrowing) and by paired playouts: every action played out from the
        # same samples until it is clearly worse, so the chosen action's chance rests on
        # at least 64 playouts, where a tree would leave a poor move a visit or two; and
        # no further than it takes to settle the mark of the move played.
        chances = paired_search(obs, bot.rng, bot.iterations, None, bot.policy,
                                bot.rollout_limit, None, bot.play_out, bot.value, settled)
        missing = [a for a in obs.legal if a not in chances]
        if missing:  # none in practice (every action is played out from the first
            # sample on); an action the search left out would count as its worst
            worst = min(chances.values(), default=0.5)
            chances |= dict.fromkeys(missing, worst)
        return chances, figures, unit


# ----------------------------------------------------------------------------- matches
@dataclass(frozen=True)
class Turn:
    """One action of a reviewed seat, about to be judged: ``state`` stands before it."""

    index: int  # its place in the match's history
    seat: Seat
    action: Action
    state: State


def reviewed_seats(state: State, seats: Sequence[Seat] | None) -> tuple[Seat, ...]:
    """The seats a review covers (every seat by default); ValueError for one not at the
    table."""
    reviewed = tuple(range(state.num_seats)) if seats is None else tuple(seats)
    for s in reviewed:
        if not 0 <= s < state.num_seats:
            raise ValueError(f"seat {s} is not at this {state.num_seats}-seat table")
    return reviewed


def turns(start: State, actions: Iterable[tuple[Seat, Action]], seats: tuple[Seat, ...]
          ) -> Iterator[Turn]:
    """Every action of ``seats`` played from ``start`` (left unchanged), with the state
    before it; the state is the live one, valid until the next turn is asked for (clone it
    to keep it). Whoever judges a turn may do it anywhere (:meth:`Reviewer.judge` is the
    same in a worker process), so the loop that walks a match is this one."""
    state = start.clone()
    first = len(state.history)
    for i, (seat, action) in enumerate(actions):
        if seat in seats:
            yield Turn(first + i, seat, action, state)
        state.apply(action, seat)


def assemble(judge: Reviewer, start: State, seats: tuple[Seat, ...],
             judged: Sequence[Decision | None], turns_of: Sequence[Seat]) -> Review:
    """The review of ``start``'s match from the judgements of its turns (None: forced),
    ``turns_of`` naming each turn's seat, in order."""
    decisions = [d for d in judged if d is not None]
    forced = {s: sum(d is None and seat == s for d, seat in zip(judged, turns_of, strict=True))
              for s in seats}
    return Review(start.game.id, start.seed, seats, judge.kind, judge.budget or 0, judge.seed,
                  judge.thresholds or LICHESS, tuple(decisions),
                  tuple(summarise(s, decisions, forced[s]) for s in seats))


def review_actions(start: State, actions: Iterable[tuple[Seat, Action]],
                   seats: Sequence[Seat] | None = None, *, budget: int | None = None,
                   seed: int = 0, thresholds: Thresholds | None = None,
                   progress: Progress | None = None) -> Review:
    """Review ``actions`` played from ``start`` (which is left unchanged) for ``seats``
    (every seat by default)."""
    moves = list(actions)
    reviewed = reviewed_seats(start, seats)
    judge = Reviewer(start.game.id, budget, seed, thresholds)
    total = sum(seat in reviewed for seat, _ in moves)
    if progress is not None:
        progress(0, total)
    judged: list[Decision | None] = []
    seats_of: list[Seat] = []
    for turn in turns(start, moves, reviewed):
        judged.append(judge.judge(turn.state, turn.seat, turn.action, turn.index))
        seats_of.append(turn.seat)
        if progress is not None:
            progress(len(judged), total)
    return assemble(judge, start, reviewed, judged, seats_of)


def review_state(state: State, seats: Sequence[Seat] | None = None, **settings: Any
                 ) -> Review:
    """Review the match ``state`` holds, replayed from its seed and options."""
    start = state.game.new(state.seed, state.num_seats, **state.options)
    return review_actions(start, state.history, seats, **settings)


def review_record(record: Record, seats: Sequence[Seat] | None = None, **settings: Any
                  ) -> Review:
    """Review the match of a record (replayed and verified first)."""
    final = replay(record)
    return review_state(final, seats, **settings)
