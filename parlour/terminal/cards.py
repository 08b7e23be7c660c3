"""Cards as the terminal tables show them: one colouring of a card, and the lines every
trick-taking table draws (the trick on the table, the last trick, the hand)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rich.markup import escape
from rich.text import Text

from parlour.cards import DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS
from parlour.engine import JsonDict, Seat

JOKER = "Joker"


def card_markup(text: str, dim: bool = False) -> Text:
    """``QS`` as a coloured ``Q♠`` (red hearts and diamonds), dimmed if ``dim``; a joker as
    ``Jkr``."""
    weight = "dim " if dim else "bold "
    if text == JOKER:
        return Text("Jkr", style=weight + "magenta")
    suit = SUITS.index(text[-1])
    colour = "red" if suit in (DIAMONDS, HEARTS) else "bright_white"
    return Text(text[:-1] + SUIT_SYMBOLS[suit], style=weight + colour)


def card_inline(text: str) -> str:
    """The card as rich markup inside a sentence (``{who} plays {card}.``)."""
    card = card_markup(text)
    return f"[{card.style}]{escape(card.plain)}[/]"


def trick_line(title: str, plays: Iterable[JsonDict], name: Callable[[Seat], str]) -> Text:
    """``title`` then each play of a trick in a view (``{"seat", "card"}``) as the seat's
    name and its card."""
    line = Text(title)
    for play in plays:
        line.append(f"{name(play['seat'])} ")
        line.append_text(card_markup(play["card"]))
        line.append("   ")
    return line


def cards_line(title: str, cards: Iterable[str], dimmed: Callable[[str], bool] = lambda _: False
               ) -> Text:
    """``title`` then the cards, each dimmed where ``dimmed`` says (a card that may not be
    played, a trick already over)."""
    line = Text(title)
    for card in cards:
        line.append_text(card_markup(card, dim=dimmed(card)))
        line.append(" ")
    return line


def hand_line(title: str, hand: Sequence[str], playable: Sequence[str]) -> Text:
    """The seat's hand, the cards it may not play now dimmed (none while it has no move)."""
    legal = set(playable)
    return cards_line(title, hand, lambda card: bool(legal) and card not in legal)
