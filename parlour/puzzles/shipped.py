"""The mined puzzles a game's folder ships, ``puzzles.json.gz``: a fresh install has them
at once (the server loads them into its database on its first start, and ``parlour
puzzles`` plays them at the terminal without a server).

The file holds what ``parlour puzzles mine GAME --ship`` found: ``{"schema", "game",
"mined": {how they were mined}, "puzzles": [...]}``, each puzzle in
:meth:`~parlour.puzzles.model.Puzzle.to_json`'s form, in id order.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from parlour.puzzles.model import SCHEMA_VERSION, Puzzle
from parlour.registry import game_ids, spec

FILE = "puzzles.json.gz"


def path_of(game_id: str) -> Path:
    """Where a game's shipped puzzles are (in its folder)."""
    return spec(game_id).folder / FILE


@cache
def shipped(game_id: str) -> tuple[Puzzle, ...]:
    """The puzzles a game ships (none if its folder has no file)."""
    path = path_of(game_id)
    if not path.exists():
        return ()
    data = json.loads(gzip.decompress(path.read_bytes()))
    if data.get("schema") != SCHEMA_VERSION:
        raise ValueError(f"{path}: puzzles of schema {data.get('schema')!r}; this Parlour "
                         f"reads schema {SCHEMA_VERSION}")
    return tuple(Puzzle.from_json(p) for p in data["puzzles"])


def every_shipped() -> list[Puzzle]:
    """Every game's shipped puzzles, game by game in menu order."""
    return [p for game_id in game_ids() for p in shipped(game_id)]


def write(game_id: str, puzzles: Iterable[Puzzle], mined: Mapping[str, Any],
          path: Path | None = None) -> Path:
    """Write a game's puzzles file (merged with what it holds: a puzzle found again keeps
    its latest judgement), reproducibly: the same puzzles give the same bytes."""
    target = path or path_of(game_id)
    known = {p.id: p for p in (shipped(game_id) if target == path_of(game_id) else ())}
    known.update({p.id: p for p in puzzles})
    body = {"schema": SCHEMA_VERSION, "game": spec(game_id).id, "mined": dict(mined),
            "puzzles": [known[i].to_json() for i in sorted(known)]}
    text = json.dumps(body, separators=(",", ":"), sort_keys=True).encode()
    target.write_bytes(gzip.compress(text, mtime=0))
    shipped.cache_clear()
    return target
