"""A puzzle: a position of a finished game, the seat whose decision it is, and the choice
that is clearly best from that seat's view.

A puzzle is kept as the game that holds it (seed, seats, options), the moves played up to
the decision, and the verdict: the answer, every legal choice's chance to win as the
verifying judgement gave it, and the line the game took after the answer. Its **position**
is rebuilt from those; what a solver is shown is the seat's :meth:`view` of it, the one
source of truth of what a seat may see, so a puzzle shows exactly what that seat saw (its
hand, the bidding, the tricks so far, the other piles) and nothing the seat had not seen.
The seed, the moves and the line are never shown before the answer: they tell every card.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.engine import Action, JsonDict, NotationError, Seat, State
from parlour.registry import get_game, spec

#: The version of :meth:`Puzzle.to_json`'s layout; bump it on any change a reader sees.
SCHEMA_VERSION = 1

#: How far the answer's chance to win must lead every other choice's (0 to 1): 20 points.
MIN_GAP = 0.20

#: A puzzle's rating before anyone has tried it, on the displayed scale (1500 a newcomer).
START_RATING = 1500


def puzzle_id(game_id: str, seed: int, seats: int, options: Mapping[str, Any],
              ply: int) -> str:
    """A puzzle's id: the same position of the same game gets the same id wherever it is
    mined (a short hash of the game, its seed, seats and options, and the decision's ply)."""
    key = json.dumps([game_id, seed, seats, dict(sorted(options.items())), ply],
                     separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module's docstring)."""

    id: str
    game: str
    seed: int
    seats: int
    options: Mapping[str, Any]
    #: The moves played before the decision, as ``(seat, action text)``.
    moves: tuple[tuple[Seat, str], ...]
    seat: Seat  # whose decision it is
    answer: str  # the best choice, in the game's notation
    #: Every legal choice's chance to win (0 to 1) by its text, best first.
    chances: Mapping[str, float]
    #: The moves that followed the answer in the game's real deal (the true cards).
    line: tuple[tuple[Seat, str], ...] = ()
    themes: tuple[str, ...] = ()
    rating: int = START_RATING  # its starting rating (the server's moves as people try it)
    #: Where it was found: ``{"kind": "bots", "bots": [...]}`` or ``{"kind": "table",
    #: "table": ..., "match": ...}`` (never shown to a solver: puzzles are shown without
    #: names).
    source: Mapping[str, Any] = field(default_factory=dict)
    #: Other choices judged exactly as good as the answer (a placement the grid's symmetry
    #: makes the same): answers too.
    same_as: tuple[str, ...] = ()

    def position(self) -> State:
        """The position of the decision, rebuilt (a :class:`ValueError` if the puzzle does
        not hold: a move that is not legal, or a decision that is not the seat's)."""
        game = get_game(self.game)
        state = game.new(self.seed, self.seats, **dict(self.options))
        try:
            for seat, text in self.moves:
                state.apply(state.parse_action(text), seat)
            answer = state.parse_action(self.answer)
        except NotationError as err:
            raise ValueError(f"puzzle {self.id}: {err}") from err
        if self.seat not in state.to_act or answer not in state.legal_actions(self.seat):
            raise ValueError(f"puzzle {self.id}: {self.answer!r} is not seat {self.seat}'s "
                             "to play here")
        return state

    def view(self) -> JsonDict:
        """What the seat saw at the decision: its view of the position."""
        return self.position().view(self.seat)

    def action_of(self, state: State, text: str) -> Action | None:
        """The legal action of the seat that ``text`` names in ``state`` (the puzzle's
        position), or None for text that names none."""
        try:
            action = state.parse_action(text.strip())
        except (NotationError, ValueError):
            return None
        return action if action in state.legal_actions(self.seat) else None

    @property
    def answers(self) -> tuple[str, ...]:
        """Every choice that solves the puzzle: the answer, and those as good."""
        return (self.answer, *self.same_as)

    def solved_by(self, state: State, text: str) -> bool:
        """Whether ``text`` plays an answer (any notation of the same action)."""
        action = self.action_of(state, text)
        return action is not None and action in {state.parse_action(a) for a in self.answers}

    def gap(self) -> float:
        """How far the answer's chance leads the best other choice's (a move that is no
        real choice, :attr:`~parlour.registry.PuzzleKit.not_choices`, left out)."""
        skip = set(spec(self.game).puzzles().not_choices)
        others = [v for k, v in self.chances.items() if k not in self.answers and k not in skip]
        return round(self.chances[self.answer] - max(others, default=0.0), 4)

    def to_json(self) -> JsonDict:
        return {"schema": SCHEMA_VERSION, "id": self.id, "game": self.game, "seed": self.seed,
                "seats": self.seats, "options": dict(self.options),
                "moves": [[s, a] for s, a in self.moves], "seat": self.seat,
                "answer": self.answer, "chances": dict(self.chances),
                "line": [[s, a] for s, a in self.line], "themes": list(self.themes),
                "rating": self.rating, "source": dict(self.source),
                "same_as": list(self.same_as)}

    @classmethod
    def from_json(cls, data: JsonDict) -> Puzzle:
        if data.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"a puzzle of schema {data.get('schema')!r}; this Parlour reads "
                             f"schema {SCHEMA_VERSION}")
        return cls(str(data["id"]), str(data["game"]), int(data["seed"]), int(data["seats"]),
                   dict(data["options"]), _moves(data["moves"]), int(data["seat"]),
                   str(data["answer"]),
                   _best_first({str(k): float(v) for k, v in data["chances"].items()}),
                   _moves(data.get("line", [])), tuple(str(t) for t in data.get("themes", [])),
                   int(data.get("rating", START_RATING)), dict(data.get("source", {})),
                   tuple(str(a) for a in data.get("same_as", [])))


def _best_first(chances: dict[str, float]) -> dict[str, float]:
    """The chances best first (a stored file may keep them in another order)."""
    return dict(sorted(chances.items(), key=lambda item: (-item[1], item[0])))


def _moves(items: Sequence[Sequence[Any]]) -> tuple[tuple[Seat, str], ...]:
    return tuple((int(seat), str(text)) for seat, text in items)
