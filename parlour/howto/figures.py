"""The how-to pages' figures: small SVG drawings of cards, with no words in them (so one
drawing serves every language; the page's alt text says what it shows).

This module is the drawing kit (a card, a card's back, an arrow, a Hit the Deck card); each
game draws its own figures with it (its folder's ``figures.py``, named by its spec's
``figures``), written to its folder's ``howto/<name>.svg`` by ``python -m
parlour.howto.figures`` and served as ``/static/games/<folder>/howto/<name>.svg``; a test
checks that the files are what the code draws. Colours and sizes are SVG presentation attributes,
never ``style`` (the page's Content-Security-Policy forbids inline styles).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from xml.sax.saxutils import escape

W, H = 50, 70  # a card
RED, BLACK, GOLD, FELT = "#b3261e", "#1d1d1b", "#d4a017", "#1f5e3b"
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
COLOURS = {"R": "#c62828", "Y": "#e0a800", "G": "#2e7d32", "B": "#1565c0"}


def svg(width: float, height: float, parts: Iterable[str]) -> str:
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
            f'width="{width:g}" height="{height:g}" font-family="DejaVu Sans, sans-serif">\n'
            f"{body}\n</svg>\n")


def _text(x: float, y: float, text: str, size: float, fill: str = BLACK,
          anchor: str = "middle", weight: str = "bold") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(text)}</text>')


def card(x: float, y: float, code: str, lit: bool = False, w: float = W, h: float = H) -> str:
    """A playing card by its code (``QS``, ``10H``): rank in the corner, suit in the middle;
    ``lit`` rings it in gold."""
    rank, suit = code[:-1], SUITS[code[-1]]
    ink = RED if code[-1] in "HD" else BLACK
    edge = f'stroke="{GOLD}" stroke-width="3"' if lit else 'stroke="#8a8a80" stroke-width="1"'
    return "\n".join((
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="5" fill="#fffdf7" {edge}/>',
        _text(x + 3, y + max(h * 0.24, 14), rank, max(h * 0.2, 13), ink, "start"),
        _text(x + w / 2, y + h * 0.75, suit, h * 0.42, ink)))


def back(x: float, y: float, w: float = W, h: float = H) -> str:
    """A card face down."""
    return "\n".join((
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="5" fill="#2f4f8f" '
        'stroke="#8a8a80" stroke-width="1"/>',
        f'<rect x="{x + 5:g}" y="{y + 5:g}" width="{w - 10:g}" height="{h - 10:g}" rx="3" '
        'fill="none" stroke="#9fb3dd" stroke-width="1.5"/>'))


def arrow(x1: float, y: float, x2: float) -> str:
    return (f'<path d="M{x1:g} {y:g} H{x2 - 8:g} M{x2 - 14:g} {y - 6:g} L{x2 - 4:g} {y:g} '
            f'L{x2 - 14:g} {y + 6:g}" fill="none" stroke="{BLACK}" stroke-width="2.5" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


def colour_mark(cx: float, cy: float, colour: str, r: float = 4.5) -> str:
    """A Hit the Deck colour's shape, as the cards draw it (hit_the_deck.js): red a
    triangle, yellow a circle, green a square, blue a diamond; white on the card's colour."""
    if colour == "Y":
        return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="#ffffff"/>'
    if colour == "G":
        return (f'<rect x="{cx - r * .85:g}" y="{cy - r * .85:g}" width="{r * 1.7:g}" '
                f'height="{r * 1.7:g}" fill="#ffffff"/>')
    points = {"R": ((0, -1), (1, .85), (-1, .85)), "B": ((0, -1.15), (1, 0), (0, 1.15), (-1, 0))}
    path = " ".join(f"{cx + r * dx:g},{cy + r * dy:g}" for dx, dy in points[colour])
    return f'<polygon points="{path}" fill="#ffffff"/>'


def colour_card(x: float, y: float, colour: str | None, sign: str, lit: bool = False) -> str:
    """A Hit the Deck card: its colour (None: the black Hit the Deck cards), its colour's
    shape in the corner and its sign."""
    fill = COLOURS[colour] if colour else "#262626"
    edge = f'stroke="{GOLD}" stroke-width="3"' if lit else 'stroke="#8a8a80" stroke-width="1"'
    return "\n".join((
        f'<rect x="{x:g}" y="{y:g}" width="{W}" height="{H}" rx="6" fill="{fill}" {edge}/>',
        f'<ellipse cx="{x + W / 2:g}" cy="{y + H / 2:g}" rx="19" ry="26" fill="#ffffff"/>',
        *((colour_mark(x + 7, y + 8, colour, 4),) if colour else ()),
        _hand(x + W / 2, y + H / 2, fill) if sign == "hand" else
        _text(x + W / 2, y + H / 2 + 9, sign, 26, fill)))


def _hand(cx: float, cy: float, fill: str) -> str:
    """An open hand (the With a Hand card's sign): a palm, four fingers and a thumb."""
    fingers = "\n".join(
        f'<rect x="{cx - 11 + 6 * i:g}" y="{cy - 17 + (2 if i in (0, 3) else 0):g}" width="4.6" '
        f'height="{16 - (3 if i == 3 else 0):g}" rx="2.3" fill="{fill}"/>' for i in range(4))
    return "\n".join((
        fingers,
        f'<rect x="{cx - 11:g}" y="{cy - 5:g}" width="22.6" height="18" rx="6" fill="{fill}"/>',
        f'<rect x="{cx - 19:g}" y="{cy - 3:g}" width="4.6" height="14" rx="2.3" fill="{fill}" '
        f'transform="rotate(-35 {cx - 16.7:g} {cy + 4:g})"/>'))


# ----------------------------------------------------------------------------- writing
def drawings() -> dict[Path, Callable[[], str]]:
    """Every registered game's figures (its spec's ``howto_figures``), by the file each is
    written to."""
    from parlour.registry import game_ids, spec

    return {spec(g).folder / "howto" / f"{name}.svg": draw for g in game_ids()
            for name, draw in spec(g).figures().items()}


def write_all() -> list[Path]:
    written = []
    for path, draw in drawings().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(draw(), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for written in write_all():
        print(written)
