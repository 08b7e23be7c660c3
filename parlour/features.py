"""What the learning environments compute for every game without NumPy: the action mask,
as bytes the NumPy side (``parlour.rl``) wraps without a copy.

This module is compiled with the hot modules (``parlour.native.MODULES``), which is why it
lives outside ``parlour.rl`` and imports no NumPy: the core package must build and run
without it. A game's own observation code, where it is hot, is compiled in its folder
(Hit the Deck's ``features.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class FloatBuffer(Protocol):
    """Where a lean encoder writes an observation: a float32 buffer's ``memoryview``
    (``parlour.rl.encoding.base.Encoder.encode`` hands one over), whose items take a
    float as a C float. Setting an item through the memoryview skips the format-string
    parse that the ``array('f')`` under it runs for every value (``PyArg_Parse``): a Hit the
    Deck learning step's writes cost about 5,600 instructions instead of 10,000 (docs/rl.md)."""

    def __setitem__(self, index: int, value: float, /) -> None: ...

    def __getitem__(self, index: int, /) -> float: ...


def action_mask(legal: tuple[int, ...], size: int) -> bytearray:
    """The action mask of the legal action numbers ``legal``: ``size`` bytes, 1 where an
    action is legal (the NumPy side wraps it without a copy). A run of consecutive numbers
    in ``legal`` (a slap's three hundred reaction times) is set in one slice; legal
    actions come in ascending order, but any order gives the same mask."""
    mask = bytearray(size)
    n = len(legal)
    i = 0
    while i < n:
        first = legal[i]
        j = i + 1
        while j < n and legal[j] == first + j - i:
            j += 1
        if j - i == 1:
            mask[first] = 1
        else:
            mask[first:first + j - i] = b"\x01" * (j - i)
        i = j
    return mask


def filled(seen: Any, filler: Callable[[Any, FloatBuffer], None], zeros: Any) -> Any:
    """A lean encoder's observation of a seat's facts ``seen`` as a float32 buffer (an
    ``array('f')`` the NumPy side wraps without a copy): a copy of ``zeros``, the layout's
    zeroed buffer, that ``filler`` wrote ``seen`` into through a memoryview."""
    o = zeros[:]
    filler(seen, memoryview(o))
    return o


def lean_buffers(state: Any, seat: int, filler: Callable[[Any, FloatBuffer], None],
                 zeros: Any, num_actions: int) -> tuple[Any, bytearray]:
    """The buffers of a seat's observation from a lean encoder, in one compiled call (the
    learning environment's step makes one or two): the :func:`filled` observation of the
    seat's facts (``state.seen(seat)``), and the :func:`action_mask` of their legal
    actions."""
    seen = state.seen(seat)
    return filled(seen, filler, zeros), action_mask(seen.legal, num_actions)


class LeanObservations:
    """A lean encoder's observations of the seats of one match as it goes on: each seat's
    last facts and buffer are kept, so that where the encoder can rewrite an observation
    (``refiller(before, seen, buffer)``: Hit the Deck's), the next one of that seat writes
    only what changed since. ``wrap`` makes the caller's array of a buffer without a copy
    (NumPy's ``frombuffer``, given by ``parlour.rl``: this module never imports NumPy); each
    observation handed out is the wrapped kept buffer's ``copy()``, the callers' to keep
    (and change). :meth:`clear` forgets them all (a new match)."""

    def __init__(self, filler: Callable[[Any, FloatBuffer], None],
                 refiller: Callable[[Any, Any, FloatBuffer], None] | None, zeros: Any,
                 num_actions: int, wrap: Callable[[Any], Any]) -> None:
        self.filler = filler
        self.refiller = refiller
        self.zeros = zeros
        self.num_actions = num_actions
        self.wrap = wrap
        self.facts: dict[int, Any] = {}  # seat -> the facts of its last observation
        self.buffers: dict[int, Any] = {}  # seat -> its last observation, kept here
        self.copies: dict[int, Callable[[], Any]] = {}  # seat -> its wrapped buffer's copy

    def clear(self) -> None:
        self.facts = {}
        self.buffers = {}
        self.copies = {}

    def observe(self, state: Any, seat: int) -> tuple[Any, bytearray]:
        """``seat``'s observation of ``state``, the match's state now, wrapped, and the
        buffer of its action mask (as :func:`lean_buffers`)."""
        refiller = self.refiller
        if refiller is None:
            buffer, mask = lean_buffers(state, seat, self.filler, self.zeros, self.num_actions)
            return self.wrap(buffer), mask
        seen = state.seen(seat)
        kept = self.buffers.get(seat)
        if kept is None:
            kept = self.buffers[seat] = filled(seen, self.filler, self.zeros)
            self.copies[seat] = self.wrap(kept).copy
        else:
            refiller(self.facts[seat], seen, memoryview(kept))
        self.facts[seat] = seen
        return self.copies[seat](), action_mask(seen.legal, self.num_actions)
