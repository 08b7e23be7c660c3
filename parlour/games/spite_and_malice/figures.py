"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

from parlour.howto.figures import H, W, card, svg


def build() -> str:
    """A centre pile built up from the ace, a king standing in for the four."""
    cards = ("AC", "2H", "3S", "KD", "5C", "6H")
    return svg(5 * 36 + W + 8, H + 8, (card(4 + 36 * i, 4, c, lit=c == "KD")
                                        for i, c in enumerate(cards)))


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"build": build}
