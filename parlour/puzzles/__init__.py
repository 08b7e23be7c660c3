"""Card puzzles (issue 35): positions from finished games where one choice is clearly best
from the seat's own view, asked as "find the best move" and answered with every choice's
chance to win and the line that followed.

- :mod:`parlour.puzzles.model`: a :class:`~parlour.puzzles.model.Puzzle`, its position and
  its seat's view, its stored form.
- :mod:`parlour.puzzles.mining`: finding puzzles in finished games, judged and judged again.
- :mod:`parlour.puzzles.shipped`: the mined set each game's folder ships
  (``puzzles.json.gz``), which a fresh install loads on its first start.
- :mod:`parlour.puzzles.terminal`: ``parlour puzzles`` at the terminal.

The server keeps the puzzles, the tries and the puzzle ratings
(:mod:`parlour.server.people.puzzles`).
"""
