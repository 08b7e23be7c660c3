"""Spite & Malice, every part of it in this folder: the rules (``rules.py``, which loads nothing
above the engine), bots (``bots.py``, standing on the turn planner in ``planner.py``),
terminal table (``terminal.py``), web table (``table.js``, ``table.css``), how-to and full
rules pages (``howto/``, ``full-rules/``), learning encoder (``encoding.py``), figures
(``stats.py``), and ``spec.py``, the
:class:`~parlour.registry.GameSpec` that names them all with the game's traits and settings.
"""

from parlour.native import extend

#: Its modules the compiled build compiles (parlour.native): the rules, and the planner that
#: the rule bot and the search bot's playouts spend nearly all their time in.
COMPILED = ("rules", "planner")

extend(__path__, "games/spite_and_malice")  # the compiled rules, when the compiled build is in use
