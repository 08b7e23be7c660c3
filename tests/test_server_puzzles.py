"""Puzzles through the server's API (issue 35, item 1): the shipped puzzles are kept as the
server starts (once), a puzzle is shown as its seat saw it and nothing more, an answer is
judged and a signed-in person's first try rated (both ratings move, later tries count for
nothing), the next puzzle avoids what was tried or seen, the day's puzzle is everyone's
for the (server's) day, and bad input is refused and changes nothing. What the database
does (keeping, rating, tries, mining the tables) runs on SQLite and PostgreSQL; the rest on
PostgreSQL only in make test-long."""

from __future__ import annotations

import json

import pytest
from players_kit import sign_up, signed_in
from server_kit import Clock, app_client, connect, ok, refused
from sqlalchemy import func, select

from parlour.i18n import localize
from parlour.puzzles.shipped import every_shipped, shipped
from parlour.server.people import puzzles
from parlour.server.storage.store import puzzle_ratings_t, puzzle_tries_t, puzzles_t

SECRETS = ("seed", "moves", "line", "answer", "chances", "same_as", "source")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "puzzles.sqlite3"


@pytest.fixture
def server(db, clock):
    with app_client(db, puzzles_shipped=True, **clock.settings()) as client:
        yield client


def kept(db):
    with connect(db) as conn:
        return conn.execute(select(func.count()).select_from(puzzles_t)).scalar_one()


def solution(puzzle_id):
    return next(p for p in every_shipped() if p.id == puzzle_id)


def test_the_shipped_puzzles_are_kept_once(server, db, clock):
    assert kept(db) == len(every_shipped()) > 0
    assert puzzles.load_shipped(server.app.state.hub.store.engine) == 0
    catalogue = ok(server.get("/api/puzzles"))
    assert sum(g["puzzles"] for g in catalogue["games"]) == kept(db)
    assert catalogue["me"] is None
    spades = next(g for g in catalogue["games"] if g["id"] == "spades")
    assert spades["name"] == "Spades" and spades["themes"]
    assert all(t["puzzles"] > 0 for t in spades["themes"])


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_a_puzzle_shows_only_its_seats_view(server):
    shown = ok(server.get("/api/puzzles/next", params={"game": "spades"}))["puzzle"]
    puzzle = solution(shown["id"])
    # (the view in the solver's language, as every view is sent: a guest's is English)
    assert shown["view"] == json.loads(json.dumps(localize(puzzle.view(), "en")))
    assert shown["seat"] == puzzle.seat and shown["game"] == "spades"
    assert not set(SECRETS) & set(shown), "the answer or the deal leaks"
    text = json.dumps(shown)
    state = puzzle.position()
    for seat in range(state.num_seats):
        if seat != puzzle.seat:
            for card in state.view(seat)["hand"]:
                assert f'"{card}"' not in text


def test_an_answer_is_judged_and_a_first_try_rated(server, db, clock):
    _, token = sign_up(db, "Ida", now=clock.now())
    signed_in(server, token)
    shown = ok(server.get("/api/puzzles/next"))["puzzle"]
    puzzle = solution(shown["id"])
    wrong = next(t for t in puzzle.chances if t not in puzzle.answers)
    got = ok(server.post(f"/api/puzzles/{shown['id']}/answer", json={"move": wrong}))
    assert not got["solved"] and got["answer"] == puzzle.answer
    assert [c["move"] for c in got["chances"]] == list(puzzle.chances)
    assert got["rating"]["counted"] and got["rating"]["after"] < got["rating"]["before"] == 1500
    assert len(got["line"]) == len(puzzle.line) and got["answer_words"]
    again = ok(server.post(f"/api/puzzles/{shown['id']}/answer",
                           json={"move": puzzle.answer}))
    assert again["solved"] and not again["rating"]["counted"]
    assert again["rating"]["after"] == got["rating"]["after"]  # a second try counts nothing
    with connect(db) as conn:
        row = conn.execute(select(puzzles_t).where(puzzles_t.c.id == shown["id"])).one()
        mine = conn.execute(select(puzzle_ratings_t)).one()
        tries = conn.execute(select(puzzle_tries_t)).all()
    assert (row.tries, row.solved) == (1, 0) and puzzles.display(row.mu) > puzzle.rating
    assert (mine.tries, mine.solved) == (1, 0) and len(tries) == 1
    me = ok(server.get("/api/puzzles"))["me"]
    assert me["rating"] == got["rating"]["after"] and me["recent"][0]["puzzle"] == shown["id"]
    assert ok(server.get("/api/account/export"))["puzzle_tries"][0]["played"] == wrong
    profile = ok(server.get("/api/players/Ida"))["puzzles"]
    assert profile == {"rating": me["rating"], "tries": 1, "solved": 0}
    # the next puzzle is one not tried yet
    for _ in range(5):
        assert ok(server.get("/api/puzzles/next"))["puzzle"]["id"] != shown["id"]


def test_a_solved_puzzle_raises_the_rating(server, db, clock):
    _, token = sign_up(db, "Bo", now=clock.now())
    signed_in(server, token)
    shown = ok(server.get("/api/puzzles/next"))["puzzle"]
    got = ok(server.post(f"/api/puzzles/{shown['id']}/answer",
                         json={"move": solution(shown["id"]).answer}))
    assert got["solved"] and got["rating"]["after"] > got["rating"]["before"]
    assert got["puzzle_rating"] < solution(shown["id"]).rating


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_a_guest_tries_but_is_not_rated(server, db):
    shown = ok(server.get("/api/puzzles/next"))["puzzle"]
    got = ok(server.post(f"/api/puzzles/{shown['id']}/answer",
                         json={"move": solution(shown["id"]).answer}))
    assert got["solved"] and got["rating"] is None
    with connect(db) as conn:
        assert conn.execute(select(func.count()).select_from(puzzle_tries_t)).scalar_one() == 0
    ids = [p.id for p in shipped("spades") if "set-nil" in p.themes]
    assert 2 <= len(ids) <= puzzles.SEEN_MOST
    seen = ",".join(ids[:-1])
    for _ in range(3):  # what the page has just shown does not come back
        assert ok(server.get("/api/puzzles/next", params={
            "game": "spades", "theme": "set-nil", "seen": seen}))["puzzle"]["id"] == ids[-1]


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_the_puzzle_of_the_day_is_everyones_for_the_day(server, clock):
    first = ok(server.get("/api/puzzles/daily"))
    assert first["daily"] and ok(server.get("/api/puzzles/daily")) == first
    days = {first["puzzle"]["id"]}
    for _ in range(6):
        clock.advance(86400)
        days.add(ok(server.get("/api/puzzles/daily"))["puzzle"]["id"])
    assert len(days) > 1  # another day, (most likely) another puzzle
    # a puzzle kept during the day is no candidate that day (so mining cannot change the
    # day's puzzle): made today, today's puzzle would give way to another
    today = ok(server.get("/api/puzzles/daily"))["puzzle"]["id"]
    with server.app.state.hub.store.engine.begin() as conn:
        conn.execute(puzzles_t.update().where(puzzles_t.c.id == today).values(
            created=clock.now()))
    assert ok(server.get("/api/puzzles/daily"))["puzzle"]["id"] != today


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_the_answer_comes_in_the_readers_language(server):
    shown = ok(server.get("/api/puzzles/next", params={"game": "spades"},
                          headers={"Accept-Language": "pt-BR"}))["puzzle"]
    got = ok(server.post(f"/api/puzzles/{shown['id']}/answer",
                         json={"move": solution(shown["id"]).answer},
                         headers={"Accept-Language": "pt-BR"}))
    assert got["answer_words"].split()[0] in ("pedir", "jogar")  # to bid, to play
    themes = ok(server.get("/api/puzzles", headers={"Accept-Language": "id"}))["games"]
    assert "Teka-teki" not in json.dumps(themes) and any(
        t["name"] != t["id"] for g in themes for t in g["themes"])


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_bad_input_is_refused_and_changes_nothing(server, db, clock):
    _, token = sign_up(db, "Cy", now=clock.now())
    signed_in(server, token)
    shown = ok(server.get("/api/puzzles/next"))["puzzle"]
    address = f"/api/puzzles/{shown['id']}/answer"
    refused(server.post(address, json={"move": "ZZ"}), 400, "bad_move")
    refused(server.post(address, json={"move": ""}), 400, "bad_request")
    refused(server.post(address, json={"move": "x" * 41}), 400, "bad_request")
    refused(server.post(address, json={"move": "7H", "extra": 1}), 400, "bad_request")
    refused(server.post("/api/puzzles/000000000000/answer", json={"move": "7H"}), 404,
            "not_found")
    refused(server.get("/api/puzzles/not-an-id"), 400, "bad_request")
    refused(server.get("/api/puzzles/next", params={"game": "chess"}), 400, "bad_game")
    refused(server.get("/api/puzzles/next", params={"theme": "avoid-bags"}), 400,
            "bad_request")
    refused(server.get("/api/puzzles/next", params={"game": "spades", "theme": "nope"}),
            400, "bad_request")
    refused(server.get("/api/puzzles/next", params={"seen": "a,b"}), 400, "bad_request")
    with connect(db) as conn:
        assert conn.execute(select(func.count()).select_from(puzzle_tries_t)).scalar_one() == 0
        assert conn.execute(select(func.sum(puzzles_t.c.tries))).scalar_one() == 0


@pytest.mark.long_on("postgresql")  # its subject is not the database
def test_an_address_asking_too_fast_is_slowed(db, clock):
    from parlour.server.edge.limits import Limits

    with app_client(db, puzzles_shipped=True, limits=Limits(puzzle_burst=3),
                    **clock.settings()) as client:
        for _ in range(3):
            ok(client.get("/api/puzzles/daily"))
        refused(client.get("/api/puzzles/daily"), 429, "rate_limited")


def test_asking_for_the_answer_counts_as_not_found(server, db, clock):
    guest = ok(server.get("/api/puzzles/next"))["puzzle"]
    shown = ok(server.post(f"/api/puzzles/{guest['id']}/solution", json={}))
    assert shown["played"] is None and not shown["solved"] and shown["rating"] is None
    assert shown["answer"] == solution(guest["id"]).answer
    refused(server.post(f"/api/puzzles/{guest['id']}/solution", json={"move": "x"}), 400,
            "bad_request")
    _, token = sign_up(db, "Di", now=clock.now())
    signed_in(server, token)
    mine = ok(server.get("/api/puzzles/next"))["puzzle"]
    given = ok(server.post(f"/api/puzzles/{mine['id']}/solution", json={}))
    assert given["rating"]["counted"] and given["rating"]["after"] < 1500
    assert ok(server.get("/api/account/export"))["puzzle_tries"] == [{
        "puzzle": mine["id"], "solved": False, "played": None, "rating_before": 1500,
        "rating_after": given["rating"]["after"], "at": clock.now()}]


def test_peoples_finished_matches_are_mined_a_daily_deal_once_its_day_is_over(
        server, db, clock, capsys):
    from server_kit import Player, create, db_url_for

    from parlour.cli import main
    from parlour.server.storage.store import tables_t

    made = create(server, [{"kind": "person"}, {"kind": "bot", "bot": "rule"}],
                  game="clockwork-spades", name="Ann", seat=0)
    ann = Player(server, made["table"]["id"], made["token"])
    view = ann.view()
    while view["status"] != "finished":
        if 0 in view["view"]["to_act"] and view["view"]["legal"]:
            ann.act(view["view"]["legal"][0])
        view = ann.view()
    ann.close()
    engine = server.app.state.hub.store.engine
    table = made["table"]["id"]
    found = puzzles.finished_matches(engine, clock.now(), clock.now() - 3600)
    assert [(t, m, s.is_over) for t, m, s in found] == [(table, 1, True)]
    with engine.begin() as conn:  # were it today's daily deal, it would wait for tomorrow
        conn.execute(tables_t.update().where(tables_t.c.id == table).values(
            daily=puzzles.day_of(clock.now())))
    assert puzzles.finished_matches(engine, clock.now(), clock.now() - 3600) == []
    assert len(puzzles.finished_matches(engine, clock.now() + 86400, 0)) == 1
    with engine.begin() as conn:
        conn.execute(tables_t.update().where(tables_t.c.id == table).values(daily=None))
    before = kept(db)
    assert main(["puzzles", "mine", "--tables", "--days", "400", "--db", db_url_for(db)]) == 0
    said = capsys.readouterr().out
    assert "kept in the database:" in said
    with connect(db) as conn:
        mined = conn.execute(select(puzzles_t.c.source, puzzles_t.c.table_id).where(
            puzzles_t.c.created > 0)).all()
    assert kept(db) == before + len(mined)
    assert all(row == ("table", table) for row in mined)
