"""``parlour puzzles mine``: find puzzles in bots' games (or in the matches people
finished at a parlour's tables, ``--tables``), show the progress, and write them to the
game's shipped set (``--ship``), a file (``--out``) or a parlour's database (``--db``)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Any

from parlour.engine import OptionError
from parlour.progress import progress
from parlour.puzzles.mining import MineSettings, mine_bot_games, mine_state
from parlour.puzzles.model import Puzzle
from parlour.puzzles.shipped import write
from parlour.registry import spec


def mine(args: argparse.Namespace) -> int:
    """Mine as the command line asks; 0 when done."""
    if args.games < 1 or args.jobs < 1:
        raise OptionError("--games and --jobs are at least 1")
    if not args.tables and args.game is None:
        raise OptionError("name the --game to mine")
    settings = MineSettings(budget=args.budget, seed=args.seed or 0)
    began = time.monotonic()
    found: list[Puzzle] = []
    if args.tables:
        found = _from_tables(args, settings)
        played = "finished matches"
    else:
        game_id = spec(args.game).id
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        with progress(f"mining {game_id}", "games", args.games) as bar:
            for puzzles in mine_bot_games(game_id, args.games, settings.seed, bots, settings,
                                          args.jobs):
                found.extend(puzzles)
                bar.advance()
        played = f"{args.games} games of {','.join(bots)} bots"
    found.sort(key=lambda p: p.id)
    themes = Counter(t for p in found for t in p.themes)
    print(f"found {len(found)} puzzles in {played} in {time.monotonic() - began:.0f} s"
          + (": " + ", ".join(f"{t} {n}" for t, n in themes.most_common()) if themes else ""))
    mined: dict[str, Any] = {"bots": args.bots, "budget": args.budget, "seed": settings.seed,
                             "verify_seeds": settings.verify_seeds,
                             "min_gap": settings.min_gap}
    by_game: dict[str, list[Puzzle]] = {}
    for p in found:
        by_game.setdefault(p.game, []).append(p)
    if args.ship:
        for game_id, puzzles in by_game.items():
            print(f"shipped with {game_id}: {write(game_id, puzzles, mined)}")
    if args.out is not None:
        if args.game is None:
            raise OptionError("--out holds one game's puzzles: name the --game")
        game_id = spec(args.game).id
        print(f"written: {write(game_id, by_game.get(game_id, []), mined, args.out)}")
    if args.db is not None and not args.tables:
        print(f"kept in the database: {_keep(args.db, found)} new")
    return 0


def _engine(url: str | None) -> Any:
    try:
        from parlour.server.storage.database import make_engine
        from parlour.server.storage.schema import check
        from parlour.server.storage.store import default_url
    except ImportError as err:
        print(f"parlour puzzles needs the web extra (pip install -e '.[web]'): {err}",
              file=sys.stderr)
        raise SystemExit(2) from err
    url = url or default_url()
    check(url)
    return make_engine(url)


def _keep(url: str, puzzles: list[Puzzle]) -> int:
    from parlour.server.people.puzzles import add

    return add(_engine(url), puzzles, time.time())


def _from_tables(args: argparse.Namespace, settings: MineSettings) -> list[Puzzle]:
    from parlour.server.people.puzzles import add, finished_matches

    engine = _engine(args.db)
    now = time.time()
    matches = finished_matches(engine, now, now - args.days * 86400)
    if args.game is not None:
        matches = [m for m in matches if m[2].game.id == spec(args.game).id]
    found: list[Puzzle] = []
    with progress("mining the tables' matches", "matches", len(matches)) as bar:
        for table_id, match, state in matches:
            found.extend(mine_state(state, {"kind": "table", "table": table_id,
                                            "match": match}, settings))
            bar.advance()
    print(f"kept in the database: {add(engine, found, now)} new")
    return found
