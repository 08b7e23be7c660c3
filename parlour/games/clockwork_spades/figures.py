"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

import math

from parlour.howto.figures import back, card, svg


def clock() -> str:
    """The clock: ace to queen of spades round the stock, the first turn's three lit."""
    w, h, r, cx, cy = 32, 44, 80, 108, 104
    parts = [back(cx - w / 2 - 3, cy - h / 2 - 3, w, h), back(cx - w / 2, cy - h / 2, w, h)]
    for hour in range(1, 13):
        angle = math.radians(hour * 30 - 90)
        x, y = cx + r * math.cos(angle) - w / 2, cy + r * math.sin(angle) - h / 2
        rank = {1: "A", 11: "J", 12: "Q"}.get(hour, str(hour))
        parts.append(card(round(x, 1), round(y, 1), rank + "S", lit=hour <= 3, w=w, h=h))
    return svg(216, 208, parts)


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"clock": clock}
