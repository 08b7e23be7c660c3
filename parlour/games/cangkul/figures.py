"""The figures of its how-to pages (``howto/<name>.svg`` beside them), drawn with the kit
of :mod:`parlour.howto.figures` (``python -m parlour.howto.figures`` writes them)."""

from __future__ import annotations

from parlour.howto.figures import H, W, arrow, back, card, svg


def dig() -> str:
    """A trick led with the 7 of hearts: a player with no heart digs in the stock (a club,
    a spade, then the 9 of hearts, which it plays)."""
    parts = [card(4, 4, "7H"), back(84, 4), arrow(84 + W + 4, 4 + H / 2, 84 + W + 28)]
    parts += [card(84 + W + 34 + 36 * i, 4, c, lit=c == "9H")
              for i, c in enumerate(("4C", "JS", "9H"))]
    return svg(84 + W + 34 + 36 * 2 + W + 4, H + 8, parts)


def trick() -> str:
    """A trick led in hearts: the highest heart takes it; the ace of spades is no trump."""
    cards = ("7H", "QH", "AS", "9H")
    return svg(4 * 62 + 4, H + 8, (card(4 + 62 * i, 4, c, lit=c == "QH")
                                    for i, c in enumerate(cards)))


#: Each figure's name (its file, ``howto/<name>.svg``) and its drawing.
DRAWINGS = {"dig": dig, "trick": trick}
