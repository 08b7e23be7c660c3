"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

from collections.abc import Iterable

from parlour.howto.figures import H, arrow, back, card, svg


def flip() -> str:
    """A row before and after an 8 is placed in it: higher than every other face-up top,
    so the other piles of the row turn over."""
    def row(x0: float, cards: Iterable[str | None], lit: int) -> list[str]:
        out = []
        for i, c in enumerate(cards):
            x = x0 + 56 * i
            out.append(back(x, 4) if c is None else card(x, 4, c, lit=i == lit))
        return out
    before = row(4, ("3C", "5H", "8D", "6S"), 2)
    after = row(4 + 56 * 4 + 40, (None, None, "8D", None), 2)
    return svg(2 * 56 * 4 + 40 + 2, H + 8, [*before, arrow(4 + 56 * 4, 4 + H / 2,
                                                              4 + 56 * 4 + 36), *after])


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"flip": flip}
