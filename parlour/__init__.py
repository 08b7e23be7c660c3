"""Parlour: a card-game parlour (engine, bots, records, terminal and web play)."""

from parlour.native import activate

__version__ = "0.1.0"

# The compiled build of the hot modules, when there is a current one and PARLOUR_PURE is
# not set (parlour/build.py); otherwise the same modules run as pure Python.
activate(__path__)
