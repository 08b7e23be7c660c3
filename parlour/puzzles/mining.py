"""Finding puzzles in finished games.

Every decision of a finished game (every seat's; a forced move or a reflex is no puzzle) is
judged as the post-game review judges it (:class:`~parlour.analysis.review.Reviewer`: the
game's strongest searcher, from the seat's observation alone, each choice's chance to win),
with a stop of its own: the search ends as soon as its samples show whether one choice
leads every other by :data:`~parlour.puzzles.model.MIN_GAP` (20 points) or cannot
(:func:`gap_settled`), so the many positions without a clear best move cost little.

A position that passes is **judged again** :data:`VERIFY_SEEDS` times, each with other
seeds (other determinizations, other playouts) and twice the review's budget; it is kept
only if every judgement names the same answer, ahead of every other choice by the full
gap. The last judgement's chances are the ones shown after the answer. A game reviewed by
a solver (Foursquare's exact expectimax) gives the same chances every time, whatever the
seed, so its one judgement is the verdict: judging it again would only repeat it.

After the answer, the puzzle shows the line the game takes from the true position: the
next :data:`LINE_MOST` moves of the game's hint-strength bots, within the same deal.

Games come from bots playing one-deal matches (the daily deal's options, so a chance to
win is the chance to win that deal), seeded, in parallel (:func:`mine_bot_games`), or from
any finished state (:func:`mine_state`: the server's tables, records).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.analysis.review import Reviewer, default_budget, reviewer_kind, turns
from parlour.arena import game_seed, play_game, unordered_map
from parlour.bots import make_bot, observe
from parlour.bots.search import Settled
from parlour.engine import Action, Seat, State, derive_seed
from parlour.puzzles.model import MIN_GAP, START_RATING, Puzzle, puzzle_id
from parlour.registry import get_game, spec

#: Judgements after the first, each with other seeds and twice the review's budget.
VERIFY_SEEDS = 2
#: Moves of the line shown after the answer (within the deal).
LINE_MOST = 4
#: The bots whose games are mined unless others are named.
DEFAULT_BOTS = ("rule",)
#: Standard errors the gap rule trusts (as the review's settled rule).
GAP_Z = 3.0
#: Chances this close to the best one's are the same judgement (equal to the figures
#: shown): such choices are answers too.
TIE = 1e-6
#: How far a starting rating moves for a puzzle the rule bot solves or misses.
RULE_BOT_STEP = 150

Found = Callable[[Puzzle], None]


def gap_settled(min_gap: float = MIN_GAP, z: float = GAP_Z,
                ignore: frozenset[Action] = frozenset()) -> Settled:
    """A paired search's stop for mining: settled once the samples show, ``z`` standard
    errors either side, that the leader is ahead of every other move by ``min_gap``, or
    that some other move is within ``min_gap`` of it (no puzzle). Moves in ``ignore`` (no
    real choice: :attr:`~parlour.registry.PuzzleKit.not_choices`) are left out."""
    def settled(moves: Sequence[Action], results: list[list[float]], live: list[int]
                ) -> bool:
        means = [sum(r) / len(r) if r and moves[i] not in ignore else -math.inf
                 for i, r in enumerate(results)]
        lead = max(range(len(moves)), key=means.__getitem__)
        clear = True
        for j, theirs in enumerate(results):
            if j == lead or moves[j] in ignore:
                continue
            n = min(len(theirs), len(results[lead]))
            if n < 2:
                return False
            diffs = [a - b for a, b in zip(results[lead][:n], theirs[:n], strict=True)]
            if not any(diffs):
                continue  # the same result on every sample: an equal answer (same_as)
            mean = sum(diffs) / n
            spread = z * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
            if mean + spread < min_gap:
                return True  # a choice as good as the leader, near enough: no puzzle
            if mean - spread < min_gap:
                clear = False
        return clear

    return settled


def verdict(chances: Mapping[Action, float], min_gap: float = MIN_GAP
            ) -> frozenset[Action] | None:
    """The best choices, if they are ahead of every other by at least ``min_gap``: the
    best one and any judged exactly as good (:data:`TIE`: a placement the grid's symmetry
    makes the same, two side piles both empty), which are answers too; None if there is
    no such lead, or if every choice is as good as the best."""
    if len(chances) < 2:
        return None
    top = max(chances.values())
    best = frozenset(a for a, v in chances.items() if v >= top - TIE)
    rest = [v for a, v in chances.items() if a not in best]
    if not rest or top - max(rest) < min_gap - 1e-9:
        return None
    return best


@dataclass(frozen=True)
class MineSettings:
    """How puzzles are judged: the first judgement's budget (the review's by default; a
    smaller one is a cheaper sieve), the verifying judgements' (twice the review's,
    whatever the first's), how many, the gap, the seed."""

    budget: int | None = None
    verify_budget: int | None = None
    verify_seeds: int = VERIFY_SEEDS
    min_gap: float = MIN_GAP
    seed: int = 0

    def budgets(self, game_id: str) -> tuple[int | None, int | None]:
        if reviewer_kind(game_id).startswith("solver"):
            return None, None  # a solver takes no budget
        review = default_budget(game_id)
        return self.budget or review, self.verify_budget or 2 * review


def judge_position(state: State, seat: Seat, settings: MineSettings = MineSettings()
                   ) -> dict[Action, float] | None:
    """The verified chances of ``seat``'s choices in ``state`` if one is clearly best
    (see the module's docstring), else None."""
    game_id = state.game.id
    first, again = settings.budgets(game_id)
    index = len(state.history)
    ignore = not_choices(state, seat)
    stop = gap_settled(settings.min_gap, ignore=ignore)

    def choices(chances: dict[Action, float]) -> dict[Action, float]:
        return {a: v for a, v in chances.items() if a not in ignore}

    chances = Reviewer(game_id, first, settings.seed).chances(state, seat, index, stop)
    best = verdict(choices(chances), settings.min_gap)
    if best is None:
        return None
    if first is None:  # a solver's judgement: the same with any seed (see above)
        return chances
    for k in range(settings.verify_seeds):
        judge = Reviewer(game_id, again, derive_seed(settings.seed, "verify", k))
        chances = judge.chances(state, seat, index, stop)
        if verdict(choices(chances), settings.min_gap) != best:
            return None
    return chances


def not_choices(state: State, seat: Seat) -> frozenset[Action]:
    """The seat's legal moves that are no real choice (its game's ``not_choices``)."""
    texts = set(spec(state.game.id).puzzles().not_choices)
    return frozenset(a for a in state.legal_actions(seat) if state.action_text(a) in texts)


def line_after(state: State, seat: Seat, answer: Action, seed: int) -> list[tuple[Seat, str]]:
    """The moves that follow ``answer`` in ``state`` (the true position), played by the
    game's hint-strength bots from their own views, within the deal: at most
    :data:`LINE_MOST`."""
    game = state.game
    after = state.clone()
    after.apply(answer, seat)
    kind = "solver" if spec(game.id).hint_bot == "solver" else "ismcts:normal"
    rng = random.Random(derive_seed(seed, "line"))
    line: list[tuple[Seat, str]] = []
    deal = after.round
    while len(line) < LINE_MOST and after.to_act and after.round == deal:
        mover = after.to_act[0]
        if after.reaction() is not None:
            break  # a timed reflex (the slap) is no move of a line
        bot = make_bot(game, kind, mover, derive_seed(seed, "line", len(line)))
        action = bot.act(observe(after, mover, rng, sample=bot.needs_sample))
        line.append((mover, after.action_text(action)))
        after.apply(action, mover)
    return line


def starting_rating(state: State, seat: Seat, answers: frozenset[Action], seed: int) -> int:
    """A puzzle's rating before anyone tries it: lower if the rule bot finds an answer
    from the seat's view, higher if it does not (the server's ratings move from there)."""
    if "rule" not in spec(state.game.id).bots:
        return START_RATING
    bot = make_bot(state.game, "rule", seat, derive_seed(seed, "rule"))
    found = bot.act(observe(state, seat, random.Random(seed), sample=bot.needs_sample))
    return START_RATING + (-RULE_BOT_STEP if found in answers else RULE_BOT_STEP)


def themes_of(state: State, seat: Seat, answer: Action) -> tuple[str, ...]:
    """The game's themes of a puzzle (its spec's ``puzzle_kit``), or none."""
    return spec(state.game.id).puzzles().of(state, seat, answer)


def mine_state(final: State, source: Mapping[str, Any],
               settings: MineSettings = MineSettings(),
               seats: Sequence[Seat] | None = None) -> list[Puzzle]:
    """Every puzzle in the finished match ``final`` (replayed from its seed and options),
    for ``seats`` (every seat by default)."""
    game = final.game
    options = dict(final.options)
    start = game.new(final.seed, final.num_seats, **options)
    chosen = tuple(range(final.num_seats)) if seats is None else tuple(seats)
    first_move = spec(game.id).puzzles().first_move
    found: list[Puzzle] = []
    moves: list[tuple[Seat, str]] = []
    for turn in turns(start, final.history, chosen):
        state = turn.state
        while len(moves) < turn.index:  # the moves before this turn, in notation
            s, a = final.history[len(moves)]
            moves.append((s, game.action_text(a)))
        if (turn.index < first_move or len(state.legal_actions(turn.seat)) < 2
                or state.reaction() is not None):
            continue
        chances = judge_position(state, turn.seat, settings)
        if chances is None:
            continue
        ignore = not_choices(state, turn.seat)
        best = verdict({a: v for a, v in chances.items() if a not in ignore}, settings.min_gap)
        assert best is not None
        answer = max(best, key=lambda a: (chances[a], -a))
        text = state.action_text
        key = derive_seed(settings.seed, "puzzle", final.seed, turn.index)
        found.append(Puzzle(
            puzzle_id(game.id, final.seed, final.num_seats, options, turn.index),
            game.id, final.seed, final.num_seats, options, tuple(moves), turn.seat,
            text(answer),
            {text(a): round(chances[a], 4) for a in sorted(chances, key=lambda a: -chances[a])},
            tuple(line_after(state, turn.seat, answer, key)),
            themes_of(state, turn.seat, answer),
            starting_rating(state, turn.seat, best, key), dict(source),
            tuple(sorted(text(a) for a in best if a != answer))))
    return found


@dataclass(frozen=True)
class BotGame:
    """One bot game to mine: the game, its seed and options, the bots at its seats."""

    game: str
    seed: int
    seats: int | None
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    settings: MineSettings


def mine_bot_game(job: BotGame) -> list[Puzzle]:
    """The puzzles of one seeded bot game (a module function: it runs in workers)."""
    final = play_game(get_game(job.game), job.seed, job.bots, dict(job.options), job.seats)
    return mine_state(final, {"kind": "bots", "bots": list(job.bots)}, job.settings)


def bot_games(game_id: str, games: int, seed: int = 0, bots: Sequence[str] = DEFAULT_BOTS,
              settings: MineSettings = MineSettings()) -> list[BotGame]:
    """The seeded one-deal bot games :func:`mine_bot_games` plays, in order."""
    found = spec(game_id)
    seats = found.daily_seats if found.daily_seats is not None else None
    return [BotGame(found.id, game_seed(seed, i), seats, dict(found.one_deal), tuple(bots),
                    settings) for i in range(games)]


def mine_bot_games(game_id: str, games: int, seed: int = 0,
                   bots: Sequence[str] = DEFAULT_BOTS, settings: MineSettings = MineSettings(),
                   jobs: int = 1) -> Iterator[list[Puzzle]]:
    """Each game's puzzles as its mining ends (in any order with ``jobs`` > 1; each game
    is seeded, so what is found does not depend on ``jobs``)."""
    return unordered_map(mine_bot_game, bot_games(game_id, games, seed, bots, settings),
                         jobs, most=1)
