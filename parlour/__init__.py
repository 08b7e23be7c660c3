"""Parlour: a card-game parlour (engine, bots, records, terminal and web play)."""

__version__ = "0.1.0"
