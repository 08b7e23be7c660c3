"""What the learning environments compute for every game without NumPy: the action mask,
as bytes the NumPy side (``parlour.rl``) wraps without a copy.

This module is compiled with the hot modules (``parlour.native.MODULES``), which is why it
lives outside ``parlour.rl`` and imports no NumPy: the core package must build and run
without it. A game's own observation code, where it is hot, is compiled in its folder
(Hit the Deck's ``features.py``).
"""

from __future__ import annotations

from typing import Protocol


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
