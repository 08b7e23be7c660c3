"""Puzzles in the parlour (issue 35, item 1): the mined positions (:mod:`parlour.puzzles`),
kept in the database with their source game, tried by anyone, rated for the signed-in.

- **The set.** Each game's shipped puzzles are loaded on the server's first start
  (:func:`load_shipped`, and again when a newer Parlour ships more); ``parlour puzzles
  mine`` adds more. A puzzle's row holds the puzzle (its position, answer, chances, line)
  and where it came from; a puzzle found in a person's game names the table, which is never
  shown (puzzles are shown without names), and a daily deal's game is mined only once its
  day is over.
- **What a solver is shown** is the seat's view of the position, its themes and its rating
  (:func:`shown`): never the seed, the moves or the line, which would tell every card.
- **Ratings.** A signed-in person's first try at a puzzle is rated: the person and the
  puzzle are two players of OpenSkill's Plackett-Luce model (as every rating of Parlour),
  the person winning if they found the answer. Both move. Later tries of the same puzzle
  count for nothing, as on lichess. A puzzle starts at its mined rating (lower if the rule
  bot finds it).
- **Choosing.** A signed-in person gets a puzzle they have not tried, near their rating; a
  guest a random one (the page sends the ids it has just shown, so they do not come back).
- **The puzzle of the day** is the same for everyone on a UTC day (:func:`daily_id`).

Functions here block (the database); the router runs them in a thread.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from parlour.engine import State
from parlour.i18n import localize, render, translate
from parlour.message import Term
from parlour.puzzles.model import MIN_GAP, Puzzle
from parlour.puzzles.shipped import every_shipped
from parlour.registry import game_ids, spec
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.daily import day_of, day_over, day_start
from parlour.server.people.ratings import MU, SIGMA, Rating, rate
from parlour.server.people.ratings import puzzle_display as display
from parlour.server.people.ratings import puzzle_mu as mu_of
from parlour.server.play.pages import action_words
from parlour.server.storage.store import (
    actions_t,
    matches_t,
    puzzle_ratings_t,
    puzzle_tries_t,
    puzzles_t,
    seats_t,
    tables_t,
)

#: Puzzles considered when choosing one near a person's rating (one is drawn among them).
NEAREST = 24
#: Ids of puzzles a guest's page has just shown that it may send, so they do not come back.
SEEN_MOST = 50
#: Tries a person's puzzle page lists.
RECENT_TRIES = 20


def _row(puzzle: Puzzle, created: float) -> dict[str, Any]:
    source = dict(puzzle.source)
    return {"id": puzzle.id, "game": puzzle.game, "themes": " ".join(puzzle.themes),
            "data": json.dumps(puzzle.to_json(), separators=(",", ":")),
            "source": str(source.get("kind", "bots"))[:10],
            "table_id": source.get("table"), "match": source.get("match"),
            "mu": mu_of(puzzle.rating), "sigma": SIGMA, "tries": 0, "solved": 0,
            "created": created}


def add(engine: Engine, puzzles: list[Puzzle], created: float) -> int:
    """Keep the puzzles not kept yet (by id), as made at ``created``; how many were new.
    Two processes adding the same puzzles at once both end with each kept once."""
    if not puzzles:
        return 0
    with engine.begin() as conn:
        known = _known(conn, [p.id for p in puzzles])
        fresh = [_row(p, created) for p in puzzles if p.id not in known]
        if not fresh:
            return 0
    try:
        with engine.begin() as conn:
            conn.execute(insert(puzzles_t), fresh)
        return len(fresh)
    except IntegrityError:  # another process kept some at the same moment: one by one
        added = 0
        for row in fresh:
            try:
                with engine.begin() as conn:
                    conn.execute(insert(puzzles_t).values(**row))
                added += 1
            except IntegrityError:
                pass
        return added


def _known(conn: Connection, ids: list[str]) -> set[str]:
    known: set[str] = set()
    for i in range(0, len(ids), 500):
        known.update(conn.execute(select(puzzles_t.c.id).where(
            puzzles_t.c.id.in_(ids[i:i + 500]))).scalars())
    return known


def load_shipped(engine: Engine) -> int:
    """Keep every shipped puzzle not kept yet (a fresh install's first start loads them
    all); how many were new. They count as made at time 0: mined before any day of the
    parlour, so each may be any day's puzzle (:func:`daily_id`)."""
    return add(engine, every_shipped(), 0.0)


# ----------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class Kept:
    """A kept puzzle and its standing."""

    puzzle: Puzzle
    mu: float
    sigma: float
    tries: int
    solved: int

    @property
    def rating(self) -> int:
        return display(self.mu)


def _kept(row: Any) -> Kept:
    return Kept(Puzzle.from_json(json.loads(row.data)), row.mu, row.sigma, row.tries,
                row.solved)


def get(engine: Engine, puzzle_id: str) -> Kept:
    with engine.connect() as conn:
        row = conn.execute(select(puzzles_t).where(puzzles_t.c.id == puzzle_id)).first()
    if row is None:
        raise ProtocolError("not_found", "there is no puzzle {id}", id=puzzle_id)
    return _kept(row)


def _check_choice(game: str | None, theme: str | None) -> str | None:
    if game is None:
        if theme is not None:
            raise ProtocolError("bad_request", "a theme is chosen within a game")
        return None
    if game not in game_ids():
        raise ProtocolError("bad_game", "unknown game {game}: expected one of {expected}",
                            game=repr(game), expected=", ".join(game_ids()))
    found = spec(game)
    if theme is not None and theme not in found.puzzles().names:
        raise ProtocolError("bad_request", "{game} has no puzzle theme {theme}",
                            game=Term("game", found.game.name), theme=theme)
    return found.id


def player_rating(conn: Connection, account_id: int) -> Rating:
    row = conn.execute(select(puzzle_ratings_t).where(
        puzzle_ratings_t.c.account_id == account_id)).first()
    return Rating() if row is None else Rating(row.mu, row.sigma)


def choose(engine: Engine, account_id: int | None, game: str | None = None,
           theme: str | None = None, seen: tuple[str, ...] = (),
           rng: random.Random | None = None) -> Kept:
    """The next puzzle for a person: one they have not tried near their rating (signed
    in), or a random one not in ``seen`` (a guest); within ``game`` and ``theme`` if
    named."""
    game = _check_choice(game, theme)
    rng = rng or random.Random()
    query = select(puzzles_t)
    if game is not None:
        query = query.where(puzzles_t.c.game == game)
    if theme is not None:  # themes are space-separated ids of letters and hyphens
        query = query.where((" " + puzzles_t.c.themes + " ").like(f"% {theme} %"))
    if seen:
        query = query.where(puzzles_t.c.id.not_in(seen[:SEEN_MOST]))
    with engine.connect() as conn:
        if account_id is not None:
            mine = player_rating(conn, account_id)
            tried = select(puzzle_tries_t.c.puzzle_id).where(
                puzzle_tries_t.c.account_id == account_id)
            rows = conn.execute(query.where(puzzles_t.c.id.not_in(tried)).order_by(
                func.abs(puzzles_t.c.mu - mine.mu), puzzles_t.c.id).limit(NEAREST)).all()
        else:
            count = conn.execute(select(func.count()).select_from(query.subquery())
                                 ).scalar_one()
            rows = conn.execute(query.order_by(puzzles_t.c.id).offset(
                rng.randrange(count)).limit(1)).all() if count else []
    if not rows:
        raise ProtocolError("not_found", "no puzzle is left to try here: choose another "
                                         "game or theme")
    return _kept(rng.choice(rows))


def daily_id(engine: Engine, now: float) -> str:
    """The puzzle of the UTC day of ``now``: the same for everyone that day, on any
    process: of the puzzles kept before the day began (every shipped one; a puzzle mined
    during the day cannot change it), the one whose id, hashed with the day, comes first."""
    day = day_of(now)
    with engine.connect() as conn:
        ids = list(conn.execute(select(puzzles_t.c.id).where(
            puzzles_t.c.created < day_start(day))).scalars())
    if not ids:
        raise ProtocolError("not_found", "no puzzle is kept yet")
    return min(ids, key=lambda i: hashlib.sha256(f"{day}:{i}".encode()).digest())


# ----------------------------------------------------------------------------- showing
def theme_names(game_id: str, lang: str) -> dict[str, str]:
    return {k: translate(lang, v) for k, v in spec(game_id).puzzles().names.items()}


def shown(kept: Kept, lang: str) -> dict[str, Any]:
    """What a solver is shown of a puzzle: the seat's view of the position, its themes
    and rating; nothing that tells a card the seat had not seen."""
    puzzle = kept.puzzle
    names = theme_names(puzzle.game, lang)
    return {"id": puzzle.id, "game": puzzle.game,
            "game_name": translate(lang, spec(puzzle.game).game.name), "seat": puzzle.seat,
            "view": localize(puzzle.view(), lang),
            "themes": [{"id": t, "name": names.get(t, t)} for t in puzzle.themes],
            "rating": kept.rating, "tries": kept.tries, "solved": kept.solved}


def catalogue(engine: Engine, account_id: int | None, lang: str) -> dict[str, Any]:
    """The puzzles kept, per game and theme, with the person's puzzle rating."""
    with engine.connect() as conn:
        counts: dict[str, dict[str, int]] = {}
        for game, themes, n in conn.execute(select(
                puzzles_t.c.game, puzzles_t.c.themes, func.count()).group_by(
                puzzles_t.c.game, puzzles_t.c.themes)):
            per = counts.setdefault(game, {"": 0})
            per[""] += n
            for t in themes.split():
                per[t] = per.get(t, 0) + n
        mine = _standing(conn, account_id) if account_id is not None else None
    games = []
    for game_id in game_ids():
        if game_id not in counts:
            continue
        names = theme_names(game_id, lang)
        games.append({"id": game_id, "name": translate(lang, spec(game_id).game.name),
                      "puzzles": counts[game_id][""],
                      "themes": [{"id": t, "name": name, "puzzles": counts[game_id].get(t, 0)}
                                 for t, name in names.items() if counts[game_id].get(t)]})
    return {"games": games, "me": mine}


def _standing(conn: Connection, account_id: int) -> dict[str, Any]:
    row = conn.execute(select(puzzle_ratings_t).where(
        puzzle_ratings_t.c.account_id == account_id)).first()
    recent = conn.execute(select(puzzle_tries_t, puzzles_t.c.game).join(
        puzzles_t, puzzles_t.c.id == puzzle_tries_t.c.puzzle_id).where(
        puzzle_tries_t.c.account_id == account_id).order_by(
        puzzle_tries_t.c.created.desc()).limit(RECENT_TRIES)).all()
    return {"rating": display(row.mu) if row else display(MU),
            "tries": row.tries if row else 0, "solved": row.solved if row else 0,
            "recent": [{"puzzle": r.puzzle_id, "game": r.game, "solved": bool(r.solved),
                        "rating": r.rating_after} for r in recent]}


# ----------------------------------------------------------------------------- answering
def answer(engine: Engine, puzzle_id: str, move: str | None, account_id: int | None,
           lang: str, now: float) -> dict[str, Any]:
    """Judge ``move`` at a puzzle (None: the solver asks to be shown the answer, which
    counts as not found): whether it is an answer, every choice's chance to win (in the
    reader's words), the line that followed, and for a signed-in person's first try the
    rating before and after. A move that is not legal there is refused, and changes
    nothing."""
    kept = get(engine, puzzle_id)
    puzzle = kept.puzzle
    state = puzzle.position()
    played: str | None = None
    if move is not None:
        action = puzzle.action_of(state, move)
        if action is None:
            raise ProtocolError("bad_move", "{move} is not a move of this position",
                                move=move[:40])
        played = state.action_text(action)
    solved = played is not None and puzzle.solved_by(state, played)
    rating: dict[str, Any] | None = None
    if account_id is not None:
        rating = _rate(engine, kept, account_id, played, solved, now)
    view = state.view(puzzle.seat)
    game = state.game
    words = {text: render(action_words(game, view, text), lang) for text in puzzle.chances}
    line_state = state.clone()
    line_state.apply(line_state.parse_action(puzzle.answer), puzzle.seat)
    line = []
    for seat, text in puzzle.line:
        line.append({"seat": seat, "move": text,
                     "words": render(action_words(game, line_state.view(seat), text), lang)})
        line_state.apply(line_state.parse_action(text), seat)
    return {"solved": solved, "played": played, "answer": puzzle.answer,
            "answers": list(puzzle.answers),
            "chances": [{"move": text, "words": words[text], "chance": chance}
                        for text, chance in puzzle.chances.items()],
            "gap": puzzle.gap(), "min_gap": MIN_GAP,
            "answer_words": words[puzzle.answer], "line": line, "rating": rating,
            "puzzle_rating": rating["puzzle"] if rating else kept.rating}


def _rate(engine: Engine, kept: Kept, account_id: int, played: str | None, solved: bool,
          now: float) -> dict[str, Any]:
    with engine.begin() as conn:
        first = conn.execute(select(puzzle_tries_t.c.solved).where(
            puzzle_tries_t.c.account_id == account_id,
            puzzle_tries_t.c.puzzle_id == kept.puzzle.id)).first() is None
        mine = player_rating(conn, account_id)
        row = conn.execute(select(puzzles_t.c.mu, puzzles_t.c.sigma).where(
            puzzles_t.c.id == kept.puzzle.id)).one()
        theirs = Rating(row.mu, row.sigma)
        if not first:
            return {"before": display(mine.mu), "after": display(mine.mu), "counted": False,
                    "puzzle": display(theirs.mu)}
        (me,), (it,) = rate([[mine], [theirs]], [1, 2] if solved else [2, 1])
        try:
            conn.execute(insert(puzzle_tries_t).values(
                account_id=account_id, puzzle_id=kept.puzzle.id, solved=solved,
                played=played or "", rating_before=display(mine.mu), rating_after=display(me.mu),
                created=now))
        except IntegrityError:  # the same try sent twice at once: the first counted
            raise ProtocolError("try_counting", "this try is being counted already") from None
        conn.execute(update(puzzles_t).where(puzzles_t.c.id == kept.puzzle.id).values(
            mu=it.mu, sigma=it.sigma, tries=puzzles_t.c.tries + 1,
            solved=puzzles_t.c.solved + int(solved)))
        changed = conn.execute(update(puzzle_ratings_t).where(
            puzzle_ratings_t.c.account_id == account_id).values(
            mu=me.mu, sigma=me.sigma, tries=puzzle_ratings_t.c.tries + 1,
            solved=puzzle_ratings_t.c.solved + int(solved), updated=now)).rowcount
        if not changed:
            conn.execute(insert(puzzle_ratings_t).values(
                account_id=account_id, mu=me.mu, sigma=me.sigma, tries=1,
                solved=int(solved), updated=now))
    return {"before": display(mine.mu), "after": display(me.mu), "counted": True,
            "puzzle": display(it.mu)}


def export_puzzles(conn: Connection, account_id: int) -> dict[str, Any]:
    """What "export my data" holds of a person's puzzles: their rating and every try."""
    row = conn.execute(select(puzzle_ratings_t).where(
        puzzle_ratings_t.c.account_id == account_id)).first()
    tries = conn.execute(select(puzzle_tries_t).where(
        puzzle_tries_t.c.account_id == account_id).order_by(puzzle_tries_t.c.created)).all()
    return {"puzzle_rating": None if row is None else
            {"mu": row.mu, "sigma": row.sigma, "tries": row.tries, "solved": row.solved,
             "updated": row.updated},
            "puzzle_tries": [{"puzzle": r.puzzle_id, "solved": bool(r.solved),
                              "played": r.played or None, "rating_before": r.rating_before,
                              "rating_after": r.rating_after, "at": r.created}
                             for r in tries]}



# ----------------------------------------------------------------------------- mining
def finished_matches(engine: Engine, now: float, since: float) -> list[tuple[str, int, State]]:
    """People's matches finished at the parlour's tables since ``since`` (a table with a
    person's seat), each replayed to its end: ``(table, match, state)``. A daily deal's
    match is left out until its day is over (its deal is secret until then)."""
    found: list[tuple[str, int, State]] = []
    with engine.connect() as conn:
        rows = conn.execute(select(
            tables_t.c.id, tables_t.c.game, tables_t.c.num_seats, tables_t.c.options,
            tables_t.c.daily, matches_t.c.match, matches_t.c.seed).join(
            matches_t, matches_t.c.table_id == tables_t.c.id).where(
            matches_t.c.finished.is_not(None), matches_t.c.finished >= since).order_by(
            matches_t.c.finished)).all()
        people = set(conn.execute(select(seats_t.c.table_id).where(
            seats_t.c.kind == "person").distinct()).scalars())
        for row in rows:
            if row.id not in people or row.game not in game_ids():
                continue
            if row.daily is not None and not day_over(row.daily, now):
                continue
            state = spec(row.game).game.new(row.seed, row.num_seats, **json.loads(row.options))
            for seat, text in conn.execute(select(actions_t.c.seat, actions_t.c.action).where(
                    actions_t.c.table_id == row.id, actions_t.c.match == row.match).order_by(
                    actions_t.c.idx)):
                state.apply(state.parse_action(text), seat)
            if state.is_over:
                found.append((row.id, row.match, state))
    return found
