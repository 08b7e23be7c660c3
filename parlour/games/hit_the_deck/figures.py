"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

from parlour.howto.figures import H, W, arrow, colour_card, svg


def play() -> str:
    """Matching colour or number, then a Hit the Deck With a Hand (it goes on anything)."""
    signs = (("R", "3"), ("R", "5"), ("B", "5"), (None, "hand"))
    parts: list[str] = []
    for i, (colour, sign) in enumerate(signs):
        x = 4 + 80 * i
        parts.append(colour_card(x, 4, colour, sign, lit=colour is None))
        if i:
            parts.append(arrow(x - 28, 4 + H / 2, x - 2))
    return svg(80 * 3 + W + 8, H + 8, parts)


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"play": play}
