"""How an encoding is laid out: named slices of one flat float32 vector.

Each game's encoder lists its :class:`Field` s (name, length, meaning, bounds); the layout
gives every field its slice, the bounds become the observation space, and
:class:`Writer` fills a vector field by field. ``docs/rl.md`` prints the same table, and a
test keeps the two equal.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from parlour.features import FloatBuffer, filled

#: The observations' element type (a dtype object: NumPy reads a type given as
#: ``np.float32`` into one on every call).
FLOAT32 = np.dtype(np.float32)


@dataclass(frozen=True)
class Field:
    """One slice of an observation: ``size`` numbers meaning ``meaning``, each in
    ``low..high`` (values outside are clipped)."""

    name: str
    size: int
    meaning: str
    low: float = 0.0
    high: float = 1.0


class Layout:
    """The fields laid end to end: ``layout["hand"]`` is the slice of the field ``hand``."""

    def __init__(self, fields: Sequence[Field]) -> None:
        self.fields = tuple(fields)
        self.slices: dict[str, slice] = {}
        at = 0
        for f in self.fields:
            if f.name in self.slices:
                raise ValueError(f"field {f.name!r} appears twice")
            self.slices[f.name] = slice(at, at + f.size)
            at += f.size
        self.size = at
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in self.fields])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in self.fields])
        self._bounds = {f.name: (f.low, f.high) for f in self.fields}
        self.low_list: list[float] = self.low.tolist()
        self.high_list: list[float] = self.high.tolist()

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def start(self, name: str) -> int:
        return self.slices[name].start

    def bounds(self, name: str) -> tuple[float, float]:
        return self._bounds[name]

    def table(self) -> list[tuple[str, str, int, str]]:
        """``(name, "start:stop", size, meaning)`` per field, for the docs."""
        return [(f.name, f"{self.slices[f.name].start}:{self.slices[f.name].stop}", f.size,
                 f.meaning) for f in self.fields]


class Writer:
    """Collects an observation and writes it with two NumPy calls: ``hot`` holds the indices
    set to 1; :meth:`num` records a number at an index, clipped to its field's bounds."""

    __slots__ = ("high", "hot", "idx", "layout", "low", "val")

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.low, self.high = layout.low_list, layout.high_list
        self.hot: list[int] = []
        self.idx: list[int] = []
        self.val: list[float] = []

    def one(self, name: str, index: int) -> None:
        """Set item ``index`` of field ``name`` to 1 (a one-hot, or one flag of a set)."""
        sl = self.layout.slices[name]
        if not 0 <= index < sl.stop - sl.start:
            raise IndexError(f"{name}[{index}] is outside the field")
        self.hot.append(sl.start + index)

    def many(self, name: str, indices: Iterable[int]) -> None:
        start = self.layout.slices[name].start
        self.hot.extend([start + i for i in indices])

    def num(self, at: int, value: float) -> None:
        """The number ``value`` at absolute index ``at``, clipped to its field's bounds."""
        self.idx.append(at)
        high = self.high[at]
        low = self.low[at]
        self.val.append(high if value > high else low if value < low else value)

    def scalar(self, name: str, value: float, index: int = 0) -> None:
        self.num(self.layout.slices[name].start + index, value)

    def done(self) -> np.ndarray:
        out = np.zeros(self.layout.size, np.float32)
        if self.hot:
            out[self.hot] = 1.0
        if self.idx:
            out[self.idx] = self.val
        return out


class Encoder:
    """A game's observation encoding; subclasses set ``game_id`` and write :meth:`fields`
    and :meth:`encode`. An encoder reads nothing but what the seat sees: its view, or (an
    encoder with ``lean`` set) the facts its view is built from (``state.seen(seat)``),
    which cost a fraction of the view to gather."""

    game_id: ClassVar[str]
    #: Whether the match is one deal (the per-deal reward is then the match reward).
    one_deal: ClassVar[bool] = False
    #: Whether :meth:`encode` reads the seat's facts (``state.seen(seat)``, with their
    #: ``legal`` actions as ints) rather than its view.
    lean: ClassVar[bool] = False

    def __init__(self, seats: int, options: dict[str, Any]) -> None:
        self.seats = seats
        self.options = options
        self.layout = Layout(self.fields())
        #: Where each field starts (for encoders that index the vector directly).
        self.at = {name: sl.start for name, sl in self.layout.slices.items()}
        #: The layout's zeroed float32 buffer, which a lean encoder's observation copies.
        self.zeros = array("f", bytes(4 * self.layout.size))
        #: What writes a lean encoder's observation into a zeroed buffer: its :meth:`fill`,
        #: or a compiled one (Hit the Deck's, in its folder's ``features.py``).
        self.filler: Callable[[Any, FloatBuffer], None] = self.fill
        #: What rewrites a lean encoder's observation of a seat's earlier facts into that
        #: of its facts now (``refiller(before, seen, buffer)``), writing only what changed;
        #: None where the encoder has none (each observation is then filled anew).
        self.refiller: Callable[[Any, Any, FloatBuffer], None] | None = None

    def fields(self) -> list[Field]:
        raise NotImplementedError

    def fill(self, seen: Any, o: FloatBuffer) -> None:
        """(A lean encoder's) write the observation of a seat's facts ``seen`` into ``o``, a
        zeroed float32 buffer of the layout's size: setting its items is cheaper than
        NumPy's fancy indexing."""
        raise NotImplementedError

    def encode(self, view: Any) -> np.ndarray:
        """The observation of ``view`` (a lean encoder's: of the seat's facts, written by
        :attr:`filler` into a fresh buffer that NumPy wraps without a copy); an encoder of
        views overrides this."""
        return np.frombuffer(filled(view, self.filler, self.zeros), FLOAT32)

    def points(self, state: Any) -> list[float]:
        """Each seat's match score, higher better (for the per-deal reward); one-deal games
        need not say."""
        raise NotImplementedError

    def relative(self, seat: int, me: int) -> int:
        """``seat`` counted from ``me``: 0 is me, 1 the next seat in play order."""
        return (seat - me) % self.seats
