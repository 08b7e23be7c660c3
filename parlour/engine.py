"""The contract every Parlour game meets.

A :class:`Game` describes a game (its id, seats, options, action space and notation) and
makes a :class:`State` from a seed. A state is the whole match: it says who may act
(``to_act``), which actions are legal, applies them, and shows each seat exactly what that
seat may see (``view``). Actions are plain ints in a fixed per-game range; their text form
comes from ``game.action_text`` / ``game.parse_action``.

All randomness comes from the seed: a game draws its shuffles from :func:`derive_rng` keyed
by the seed and a counter (the deal number, the reshuffle number; :func:`seeded_shuffle` for
a generator used for one shuffle, :func:`parlour.cards.keyed_order` for a keyed sort), so
``new(seed)`` plus the same actions reproduces a game exactly, and a clone needs no
generator state of its own.

>>> from parlour.games import get_game
>>> state = get_game("spades").new(seed=7)
>>> state.to_act
(0,)
"""

from __future__ import annotations

import _random
import copyreg
import hashlib
import math
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Container, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self, TypeVar, cast

from mypy_extensions import mypyc_attr

from parlour.message import Code, Explained, Many, Message, Param, PlayingCard, Term, plural_message

__all__ = ["GAME_OVER", "Code", "Explained", "Many", "Message", "Param", "PlayingCard", "Term",
           "plural_message"]

Seat = int
Action = int
JsonDict = dict[str, Any]
T = TypeVar("T")

#: The reason every game gives for any action once it is over.
GAME_OVER: Final = Message("the game is over")


class IllegalAction(Explained):
    """An action the rules do not allow now. Its :class:`Message` (``err.message``) names the
    rule that was broken; ``str(err)`` is the English text."""


class NotationError(Explained):
    """Text that is not an action of this game; the message says what was expected."""


class OptionError(Explained):
    """An unknown option, or a value the option does not accept."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (``derive_seed(seed, "deal", 3)``), stable across runs."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def derive_rng(*parts: object) -> random.Random:
    """A generator keyed by ``parts``: the only source of randomness inside games."""
    return random.Random(derive_seed(*parts))


def shuffle(items: list[T], rng: _random.Random) -> None:
    """``rng.shuffle(items)``, draw for draw: the same calls to ``rng.getrandbits`` and the
    same order, so seeded deals stay what they were. Written out because the compiled build
    runs this loop natively, where ``random.shuffle`` and its ``_randbelow`` are interpreted
    Python. ``random.Random`` and its C base draw so; a generator of another class (whose
    draws may differ) shuffles its own way."""
    if type(rng) is not random.Random and type(rng) is not _random.Random:
        cast(random.Random, rng).shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        # CPython's _randbelow_with_getrandbits(i + 1): k bits, drawn again while too big
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def seeded_shuffle(items: list[T], *parts: object) -> None:
    """``shuffle(items, derive_rng(*parts))``, the same order, for a generator used for this
    one shuffle: it is made as the C generator alone (the state ``random.Random`` seeds, without
    its Python layer, which costs a sixth of making one)."""
    shuffle(items, _random.Random(derive_seed(*parts)))


# --------------------------------------------------------------------------- options

_TRUE: Final = {"1", "true", "yes", "on"}
_FALSE: Final = {"0", "false", "no", "off"}
_NONE: Final = {"none", "off", "null", ""}
_NUMBER: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?")
MAX_DIGITS: Final = 18  # digits a whole number in notation may have


def quoted(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, to quote input back in a message
    (whatever its size, an error quotes only an excerpt of it)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def ascii_int(text: str) -> int | None:
    """``text`` as a whole number if it is 1 to :data:`MAX_DIGITS` ASCII digits, else None.

    Notation is ASCII: ``int()`` and ``str.isdigit()`` would also take other scripts' digits
    (``"١"``, ``"５"``), superscripts and ``"1_0"``, so a parse function asks this instead."""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


@dataclass(frozen=True)
class Option:
    """A typed game option with its default and the values it accepts."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False  # None switches the option off (e.g. no mercy rule)
    #: What a player reads: a short label (``N_("Points to win")``) and, for options with
    #: ``choices``, one plain phrase per choice; both translated where they are shown.
    label: str = ""
    choice_labels: tuple[str, ...] | None = None
    #: The value a match recorded before this option existed was played under: a record's
    #: Options tag and a stored table name every option of their time, so one that does not
    #: name this option takes this value (see :meth:`Game.recorded_options`), not the
    #: default. None: the default (the option changed nothing that was played before it).
    legacy: Any = None

    def coerce(self, value: Any) -> Any:
        """Check ``value`` (text from a command line is parsed) and return it typed."""
        if isinstance(value, str):
            value = self._parse(value)
        if value is None:
            if self.nullable:
                return None
            raise OptionError("option {option} needs a value ({values})", option=self._quoted,
                              values=self.values_message())
        is_bool = isinstance(value, bool)
        ok = isinstance(value, self.kind) and not (self.kind is not bool and is_bool)
        if self.kind is float and isinstance(value, int) and not is_bool:
            value, ok = float(value), True
        if isinstance(value, float) and not math.isfinite(value):
            ok = False
        if not ok or (self.choices is not None and value not in self.choices):
            raise OptionError("option {option} takes {values}, not {value}", option=self._quoted,
                              values=self.values_message(), value=Code(quoted(value)))
        if self.minimum is not None and value < self.minimum:
            raise OptionError("option {option} must be at least {minimum}, not {value}",
                              option=self._quoted, minimum=self.minimum, value=Code(quoted(value)))
        if self.maximum is not None and value > self.maximum:
            raise OptionError("option {option} must be at most {maximum}, not {value}",
                              option=self._quoted, maximum=self.maximum, value=Code(quoted(value)))
        return value

    @property
    def _quoted(self) -> Code:
        return Code(repr(self.name))

    def _parse(self, text: str) -> Any:
        t = text.strip()
        if self.nullable and t.lower() in _NONE:
            return None
        if self.kind is bool:
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise OptionError("option {option} takes true or false, not {value}",
                              option=self._quoted, value=Code(quoted(text)))
        if self.kind in (int, float):
            try:
                if not _NUMBER.fullmatch(t):  # ASCII digits only; no nan, inf or 1_000
                    raise ValueError(t)
                return self.kind(t)
            except ValueError:
                raise OptionError("option {option} takes {values}, not {value}",
                                  option=self._quoted, values=self.values_message(),
                                  value=Code(quoted(text))) from None
        return t

    def describe_values(self) -> str:
        """The values the option takes, in English (``a whole number of at least 10``)."""
        return str(self.values_message())

    def values_message(self) -> Message:
        """The values the option takes, as a :class:`Message`."""
        what: Message
        if self.choices is not None:
            what = Message("one of {choices}",
                           choices=Many(tuple(Code(str(c)) for c in self.choices)))
        elif self.kind is bool:
            what = Message("true or false")
        else:
            kind = {int: Message("a whole number"), float: Message("a number"),
                    str: Message("text")}[self.kind]
            if self.minimum is not None and self.maximum is not None:
                what = Message("{kind} from {minimum} to {maximum}", kind=kind,
                               minimum=self.minimum, maximum=self.maximum)
            elif self.minimum is not None:
                what = Message("{kind} of at least {minimum}", kind=kind, minimum=self.minimum)
            elif self.maximum is not None:
                what = Message("{kind} of at most {maximum}", kind=kind, maximum=self.maximum)
            else:
                what = kind
        return Message("{values} or off", values=what) if self.nullable else what

    def to_json(self) -> JsonDict:
        return {"name": self.name, "type": self.kind.__name__, "default": self.default,
                "help": self.help, "values": self.describe_values(),
                "label": self.label or self.name.replace("_", " "),
                "choices": list(self.choices) if self.choices is not None else None,
                "choice_labels": (list(self.choice_labels) if self.choice_labels is not None
                                  else None),
                "minimum": self.minimum, "maximum": self.maximum, "nullable": self.nullable}


def format_options(options: Mapping[str, Any]) -> str:
    """``key=value`` pairs as a record or a command line writes them."""
    def fmt(v: Any) -> str:
        return "off" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
    return " ".join(f"{k}={fmt(v)}" for k, v in options.items())


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["target=300", "blind_nil=on"]`` to a dict of raw text values."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError("option {pair} should look like key=value", pair=Code(repr(pair)))
        out[key.strip().replace("-", "_")] = value
    return out


# --------------------------------------------------------------------------- outcome

@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: points and placing per seat (1 is best; ties share)."""

    points: tuple[float, ...]
    placing: tuple[int, ...]

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, p in enumerate(self.placing) if p == 1)

    @property
    def is_draw(self) -> bool:
        return all(p == 1 for p in self.placing)

    def to_json(self) -> JsonDict:
        return {"points": list(self.points), "placing": list(self.placing),
                "winners": list(self.winners)}

    def text(self) -> str:
        pts = " ".join(_num(p) for p in self.points)
        return f"points {pts}; placing {' '.join(map(str, self.placing))}"

    @classmethod
    def parse(cls, text: str) -> Outcome:
        """Inverse of :meth:`text`."""
        try:
            pts, _, plc = text.partition(";")
            points = tuple(float(x) for x in pts.split()[1:])
            placing = tuple(int(x) for x in plc.split()[1:])
        except ValueError:
            raise ValueError(f"not a result: {text!r}") from None
        if not points or len(points) != len(placing):
            raise ValueError(f"not a result: {text!r}")
        return cls(points, placing)


def _reduce_outcome(outcome: Outcome) -> tuple[type[Outcome], tuple[Any, ...]]:
    return Outcome, (outcome.points, outcome.placing)


# Pickled by value: a compiled frozen dataclass cannot be unpickled field by field.
copyreg.pickle(Outcome, _reduce_outcome)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def placing_by(scores: Sequence[float], higher_is_better: bool = True) -> tuple[int, ...]:
    """Competition ranking: the best gets 1, equal scores share a place (1, 1, 3)."""
    sign = 1 if higher_is_better else -1
    return tuple(1 + sum(1 for o in scores if sign * o > sign * s) for s in scores)


# --------------------------------------------------------------------------- safety stops

@dataclass(frozen=True)
class SafetyStop:
    """A round, or the whole match, that a safety stop ended (an option such as
    ``max_turns``) rather than the game's rules, with the message that tells the players
    so (a view carries the same message)."""

    option: str  # the option whose limit was reached: "max_turns"
    round: int  # the round (or deal) it ended; for a match, its last
    match: bool  # True: it ended the match; False: one round
    message: Message


# --------------------------------------------------------------------------- reactions

@dataclass(frozen=True)
class Reaction:
    """A timed simultaneous phase: every seat in ``to_act`` answers against the clock, and
    its answer is an action that carries its time (the slap of Hit the Deck).

    The engine only declares it; an interface does the timing: it measures each seat from
    the moment it shows the phase to the seat's answer and applies ``action(ms)``, and for
    a seat that has not answered after ``window_ms`` it applies ``action(window_ms)``, the
    slowest. ``key`` tells one such phase from the next; ``actions`` are every action of
    the phase (whatever their time) and ``ms(action)`` the time an action stands for.
    """

    key: Hashable
    name: str
    window_ms: int
    action: Callable[[float], Action]
    ms: Callable[[Action], float]
    actions: Container[Action]


# --------------------------------------------------------------------------- game & state

# The compiled build (parlour/native.py) makes classes native; these two stay open to
# subclasses that are not compiled (an add-on game, a variant made in a test).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game: what it is, how it is set up, and its action notation."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    default_seats: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    num_actions: ClassVar[int]

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError("{game} has no option {option} (its options: {known})",
                          game=Code(self.id), option=Code(quoted(name)), known=Code(known))

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every option with its default, overridden by ``given``; validated."""
        out = {o.name: o.default for o in self.options}
        if not given:
            return out
        for name, value in given.items():
            out[name] = self.option(name.replace("-", "_")).coerce(value)
        self.check_options(out)
        return out

    def recorded_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The options of a recorded match (a record's Options tag, a stored table), which
        name every option of their time: an option added since then takes its ``legacy``
        value, the rules the match was played under, rather than its default. Validated."""
        named = {name.replace("-", "_") for name in given}
        legacy = {o.name: o.legacy for o in self.options
                  if o.legacy is not None and o.name not in named}
        return self.resolve_options({**legacy, **given})

    def check_options(self, options: dict[str, Any]) -> None:  # noqa: B027  (optional hook)
        """Hook for checks that span several options; raise :class:`OptionError`."""

    def check_seats(self, seats: object) -> int:
        if seats is None:
            return self.default_seats
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
                self.min_seats <= seats <= self.max_seats):
            if self.min_seats == self.max_seats:
                raise OptionError("{game} is played by {seats} seats, not {value}",
                                  game=Term("game", self.name), seats=self.min_seats,
                                  value=Code(repr(seats)))
            raise OptionError("{game} is played by {low} to {high} seats, not {value}",
                              game=Term("game", self.name), low=self.min_seats,
                              high=self.max_seats, value=Code(repr(seats)))
        return seats

    def new(self, seed: object, seats: object = None, **options: Any) -> State:
        """A new match, dealt from ``seed``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError("the seed must be a whole number, not {seed}", seed=Code(repr(seed)))
        return self._new(seed, self.check_seats(seats), self.resolve_options(options))

    @abstractmethod
    def _new(self, seed: int, seats: int, options: dict[str, Any]) -> State: ...

    @abstractmethod
    def action_text(self, action: object) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> Action: ...

    def seat_name(self, seat: Seat, seats: int) -> str:
        return f"seat {seat}"

    def seat_param(self, seat: Seat, seats: int) -> Param:
        """The seat as a message parameter: its name as a word to translate (``North``,
        ``player``), or the numbered ``seat 2``."""
        name = self.seat_name(seat, seats)
        if name == f"seat {seat}":
            return Message("seat {number}", number=seat)
        return Term("seat", name)

    def describe(self) -> JsonDict:
        return {"id": self.id, "name": self.name, "seats": [self.min_seats, self.max_seats],
                "default_seats": self.default_seats, "actions": self.num_actions,
                "options": [o.to_json() for o in self.options]}

    def replay(self, seed: int, seats: int | None, options: Mapping[str, Any],
               moves: Sequence[tuple[Seat, Action]]) -> State:
        """Rebuild a state from its seed, options and history of ``(seat, action)``."""
        state = self.new(seed, seats, **dict(options))
        for seat, action in moves:
            state.apply(action, seat)
        return state


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One match in progress. Subclasses keep their fields in ``__slots__`` for speed."""

    __slots__ = ()

    game: Game
    seed: int
    num_seats: int
    options: dict[str, Any]

    @property
    @abstractmethod
    def to_act(self) -> tuple[Seat, ...]:
        """The seats that may act now: one in ordinary turns, several in a simultaneous
        phase, none once the game is over."""

    @abstractmethod
    def legal_actions(self, seat: Seat | None = None) -> tuple[Action, ...]:
        """The legal actions of ``seat`` (default: the one seat to act): a cached tuple."""

    @abstractmethod
    def apply(self, action: object, seat: object = None) -> None:
        """Play ``action`` for ``seat``; raise :class:`IllegalAction` and change nothing
        if the rules do not allow it."""

    @abstractmethod
    def view(self, seat: Seat | None) -> JsonDict:
        """Everything ``seat`` may see, JSON-ready; ``None`` is a spectator."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @property
    @abstractmethod
    def history(self) -> list[tuple[Seat, Action]]:
        """Every action applied so far, as ``(seat, action)``; a copy."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def determinize(self, seat: Seat | None, rng: random.Random) -> Self:
        """A full state that ``seat`` cannot tell from this one: the cards it has not seen
        are redealt at random, consistent with all it has seen, and future shuffles are
        reseeded. The result depends only on what the seat knows and on ``rng``."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def reaction(self) -> Reaction | None:
        """The timed phase open now (see :class:`Reaction`); None in most games and phases."""
        return None

    @property
    def round(self) -> int:
        """Which deal or round of the match is being played (1 for one-round games).
        Search stops its playouts when this changes."""
        return 1

    @property
    def safety_stops(self) -> tuple[SafetyStop, ...]:
        """The rounds and the match that a safety stop ended so far, oldest first (none in
        a game without one). Every one is also told to the players in the views."""
        return ()

    def reward(self, seat: Seat) -> float:
        """How well ``seat`` did in a finished game, from 0 to 1: 1 for first place, 0 for
        the last place taken, evenly between; 0.5 when every seat shares first place."""
        outcome = self.outcome
        if outcome is None:
            raise ValueError("the game is not over")
        mine = outcome.placing[seat]
        if len(outcome.placing) == 1:
            return 1.0 if mine == 1 else 0.0
        worst = max(outcome.placing)
        if worst == 1:
            return 0.5
        return (worst - mine) / (worst - 1)

    def value(self, seat: Seat) -> float:
        """An estimate in [0, 1] of how well ``seat`` stands, for search that stops before
        the end: the reward once the game is over, else 0.5. Games with several rounds
        override it to judge the match score."""
        return self.reward(seat) if self.outcome is not None else 0.5

    def action_text(self, action: Action) -> str:
        return self.game.action_text(action)

    def parse_action(self, text: str) -> Action:
        return self.game.parse_action(text)

    def acting_seat(self, seat: object) -> Seat:
        """The seat an action is for, or :class:`IllegalAction` saying why none can act."""
        to_act = self.to_act
        if seat is not None and type(seat) is not int:  # as an action: True, 1.0 are not 1
            raise IllegalAction("there is no seat {seat}", seat=Code(repr(seat)))
        if seat is None:
            if len(to_act) == 1:
                return to_act[0]
            if not to_act:
                raise IllegalAction(GAME_OVER)
            raise IllegalAction("several seats may act now: say which seat acts")
        if seat not in to_act:
            if not to_act:
                raise IllegalAction(GAME_OVER)
            if isinstance(seat, bool) or not isinstance(seat, int) or not (
                    0 <= seat < self.num_seats):
                raise IllegalAction("there is no seat {seat}", seat=Code(repr(seat)))
            names = Many(tuple(self.game.seat_param(s, self.num_seats) for s in to_act))
            raise IllegalAction("it is not {seat}'s turn ({names} to act)",
                                seat=self.game.seat_param(seat, self.num_seats), names=names)
        return seat


def reduce_state(state: State) -> tuple[Any, tuple[Any, ...]]:
    """How a state is pickled (bots' searches are sent to worker processes): its game, seed,
    seats and options, and every field. Each game registers it for its state class
    (``copyreg.pickle(SpadesState, reduce_state)``), because a compiled class cannot be
    unpickled the default way (without calling its ``__init__``)."""
    fields: dict[str, Any] = {}
    for cls in type(state).__mro__:
        names: tuple[str, ...] = getattr(cls, "__mypyc_attrs__", ()) or getattr(
            cls, "__slots__", ())
        for name in names:
            if name != "__dict__" and name not in fields and hasattr(state, name):
                fields[name] = getattr(state, name)
    return restore_state, (state.game, state.seed, state.num_seats, state.options, fields)


def restore_state(game: Game, seed: int, seats: int, options: dict[str, Any],
                  fields: dict[str, Any]) -> State:
    """The state :func:`reduce_state` pickled: a new match, every field then set back."""
    state = game.new(seed, seats, **options)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def check_action_range(game: Game, action: object) -> int:
    """The action as an int in the game's action space, or :class:`IllegalAction`."""
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalAction("an action is a whole number, not {action}", action=Code(repr(action)))
    if not 0 <= action < game.num_actions:
        raise IllegalAction("unknown action {action}: {game} actions are 0 to {last}",
                            action=action, game=Term("game", game.name),
                            last=game.num_actions - 1)
    return action


def position_fields(text: str, names: Sequence[str]) -> dict[str, str]:
    """The ``name: value`` fields of a game's position text (``;`` or new lines between
    them, any order, names in any case and spacing), each one of ``names`` and given once;
    a :class:`ValueError` naming the field otherwise. Each game reads the values."""
    fields: dict[str, str] = {}
    for part in text.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        name = " ".join(name.lower().split())
        if not sep or name not in names:
            raise ValueError(f"not a position field: {part.strip()!r} (fields: "
                             f"{', '.join(names)})")
        if name in fields:
            raise ValueError(f"the field {name!r} is given twice")
        fields[name] = value.strip()
    return fields


def play_random(state: State, rng: random.Random, limit: int = 1_000_000) -> State:
    """Play uniformly random legal actions until the game ends (for tests and rollouts)."""
    for _ in range(limit):
        to_act = state.to_act
        if not to_act:
            return state
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise RuntimeError(f"game did not end within {limit} actions")

