"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

from parlour.howto.figures import H, card, svg


def trick() -> str:
    """A trick led in hearts, won by the one spade in it."""
    cards = ("10H", "KH", "3S", "AH")
    return svg(4 * 62 + 4, H + 8, (card(4 + 62 * i, 4, c, lit=c == "3S")
                                    for i, c in enumerate(cards)))


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"trick": trick}
