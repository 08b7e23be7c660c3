"""Schema migrations: a database made by the server as it was before migrations (its schema
code taken from git) upgrades in place and plays on, on SQLite (by itself, at start) and on
PostgreSQL (refused until ``parlour db upgrade``, which fixes it)."""

from __future__ import annotations

import asyncio
import hashlib
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_kit import ROOT, Player, app_client
from services import pg_database
from sqlalchemy import create_engine, inspect, text

from parlour.cli import main
from parlour.games import get_game
from parlour.server.storage import schema
from parlour.server.storage.schema import SchemaError
from parlour.server.storage.store import Store

BEFORE_MIGRATIONS = "3aa7a2e"  # main as it was before migrations
TOKENS = [f"token-{s}" for s in range(4)]


def old_store() -> types.ModuleType:
    """The store as it was before migrations (at its path then, below), from git."""
    try:
        source = subprocess.run(["git", "show", f"{BEFORE_MIGRATIONS}:parlour/server/store.py"],
                                cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("needs the project's git history")
    module = types.ModuleType("parlour_old_store")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, "old_store.py", "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


def make_old_database(url: str) -> str:
    """A database written by the old store: a table of four people, match 1, one bid made.
    Returns the table's id."""
    old = old_store()
    store = old.Store(url)
    game = get_game("spades")
    state = game.new(42, 4)
    bid = state.legal_actions(0)[3]
    seats = [old.SeatRow("person", None, f"P{s}", hashlib.sha256(t.encode()).hexdigest())
             for s, t in enumerate(TOKENS)]
    row = old.TableRow("oldtable", "spades", 4, game.resolve_options({}), 1.0e9, "waiting", 0,
                       seats, {})

    async def write() -> None:
        await store.write(old.Store.op_create_table(row))
        await store.write(old.Store.op_start_match("oldtable", 1, 42))
        await store.write(old.Store.op_action("oldtable", 1, 0, 0, game.action_text(bid)))
        await store.write(old.Store.op_create_table(old.TableRow(
            "oldfinished", "spades", 4, game.resolve_options({}), 1.0e9, "finished", 0,
            seats, {})))

    asyncio.run(write())
    store.close()
    return "oldtable"


def plays_on(client, table_id: str) -> None:
    """The upgraded table is where it was, and takes the next bid."""
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["status"] == "playing" and summary["version"] == 1
    west = Player(client, table_id, TOKENS[1])
    assert west.view()["version"] == 1
    west.act("bid 2")
    assert west.view()["version"] == 2
    west.close()


def test_an_old_sqlite_database_upgrades_itself_at_start(tmp_path):
    db = tmp_path / "old.sqlite3"
    url = f"sqlite:///{db}"
    table_id = make_old_database(url)
    engine = create_engine(url)
    assert "listed" not in {c["name"] for c in inspect(engine).get_columns("parlour_tables")}
    assert schema.revision(engine) == schema.BASELINE
    with app_client(db) as client:
        plays_on(client, table_id)
    assert schema.revision(engine) == schema.head()
    engine.dispose()


def test_an_empty_database_is_made_at_the_newest_schema(tmp_path):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    Store(url, auto_upgrade=False).close()
    engine = create_engine(url)
    assert schema.revision(engine) == schema.head()
    engine.dispose()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped after it."""
    with pg_database() as url:
        yield url


def test_an_old_postgresql_database_is_refused_until_upgraded(pg_url, capsys):
    table_id = make_old_database(pg_url)
    with pytest.raises(SchemaError, match="parlour db upgrade"):
        Store(pg_url)
    assert main(["serve", "--db", pg_url, "--port", "1"]) == 2  # refuses before listening
    assert "parlour db upgrade" in capsys.readouterr().err
    assert main(["db", "status", "--db", pg_url]) == 1
    assert main(["db", "upgrade", "--db", pg_url]) == 0
    assert f"-> {schema.head()}" in capsys.readouterr().out
    assert main(["db", "status", "--db", pg_url]) == 0
    from fastapi.testclient import TestClient

    from parlour.server.app import create_app
    from parlour.server.settings import Settings

    with TestClient(create_app(Settings(db_url=pg_url, bot_pause=0.0, rate=1000.0,
                                        burst=1000))) as client:
        plays_on(client, table_id)
        finished = client.get("/api/tables/oldfinished").json()["table"]
        assert finished["status"] == "finished" and finished["listed"] is True


def test_a_fresh_postgresql_database_plays(pg_url):
    from fastapi.testclient import TestClient
    from server_kit import BOTS3, create

    from parlour.server.app import create_app
    from parlour.server.settings import Settings

    with TestClient(create_app(Settings(db_url=pg_url, bot_pause=0.0, rate=1000.0,
                                        burst=1000))) as client:
        res = create(client, BOTS3)
        south = Player(client, res["table"]["id"], res["token"])
        assert south.view()["view"]["seat"] == 0
        south.close()
    assert schema.revision(create_engine(pg_url)) == schema.head()


CHECK = "import sys; from parlour.server.storage.schema import check; check(sys.argv[1])"


def waits_for_the_lock(engine, pid: int) -> bool:
    """Whether process ``pid`` is blocked on ``engine``'s migration lock: a waiting
    ``flock`` in /proc/locks (SQLite), an ungranted advisory lock (PostgreSQL)."""
    if engine.dialect.name == "sqlite":
        return any("->" in line and "FLOCK" in line and f" {pid} " in line
                   for line in Path("/proc/locks").read_text().splitlines())
    with engine.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
            "AND objid = :key AND pid <> pg_backend_pid()"),
            {"key": schema.ADVISORY_LOCK}).scalar())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_second_server_waits_while_the_first_makes_the_database(kind, tmp_path, request):
    """Two servers started at once on a new database: the second waits for the first's
    migration lock and then finds the database made (it once began making it too, found
    half the tables, took them for a database older than migrations, and failed)."""
    url = (f"sqlite:///{tmp_path / 'new.sqlite3'}" if kind == "sqlite"
           else request.getfixturevalue("pg_url"))
    engine = create_engine(url)
    with schema.migration_lock(engine):
        second = subprocess.Popen([sys.executable, "-c", CHECK, url], cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while not waits_for_the_lock(engine, second.pid):
            assert second.poll() is None, \
                f"the second server went on without waiting for the lock:\n{second.stdout.read()}"
            assert time.monotonic() < deadline, "waited 60 s for the second server to " \
                "reach the migration lock"
            time.sleep(0.05)
        schema.make_or_upgrade(engine)  # the first server makes the database meanwhile
    out, _ = second.communicate(timeout=60)
    assert second.returncode == 0, f"the second server failed:\n{out}"
    assert schema.revision(engine) == schema.head()
    engine.dispose()


def test_the_migrations_make_the_schema_the_store_describes(tmp_path):
    """The tables the migrations make are the ones store.py's metadata names, column for
    column (so the two cannot drift apart)."""
    from parlour.server.storage.store import metadata

    url = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    Store(url).close()
    seen = inspect(create_engine(url))
    for name, table in metadata.tables.items():
        assert {c["name"] for c in seen.get_columns(name)} == set(table.columns.keys()), name
    assert Path(schema.MIGRATIONS / "env.py").exists()


def test_a_solitaires_figures_move_to_their_own_columns(tmp_path):
    """Migration 0012: a database at 0011 kept Foursquare's win rate and mean score in the
    rating's mu and sigma; upgraded in place, they are in win_rate and mean_score (mu and
    sigma empty), and another game's rating is untouched."""
    from alembic import command
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(schema._config(conn), "0011")
        conn.execute(text("INSERT INTO parlour_ratings (account_id, game, mu, sigma, matches, "
                          "updated) VALUES (1, 'foursquare', 0.25, 31.5, 8, 1.0), "
                          "(1, 'spades', 27.0, 7.5, 9, 1.0)"))
        conn.execute(text("INSERT INTO parlour_rating_history (account_id, game, at, mu, "
                          "sigma) VALUES (1, 'foursquare', 1.0, 0.25, 31.5), "
                          "(1, 'spades', 1.0, 27.0, 7.5)"))
    assert schema.revision(engine) == "0011"
    assert schema.upgrade(engine) == ("0011", schema.head())
    with engine.connect() as conn:
        for table in ("parlour_ratings", "parlour_rating_history"):
            rows = conn.execute(text(f"SELECT game, mu, sigma, win_rate, mean_score FROM {table} "
                                     "ORDER BY game")).all()
            assert [tuple(r) for r in rows] == [("foursquare", None, None, 0.25, 31.5),
                                                ("spades", 27.0, 7.5, None, None)], table
    with engine.begin() as conn:  # and back: the figures return to mu and sigma
        command.downgrade(schema._config(conn), "0011")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT game, mu, sigma FROM parlour_ratings ORDER BY game"))
        assert [tuple(r) for r in rows] == [("foursquare", 0.25, 31.5), ("spades", 27.0, 7.5)]
    engine.dispose()
