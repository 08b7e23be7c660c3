"""``parlour db backup`` while the server runs, and a restore that plays on (SQLite's
online backup; PostgreSQL's pg_dump and pg_restore)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from server_kit import app_client, create
from services import pg_database
from waits import wait_until

from parlour.cli import main

BOTS4 = [{"kind": "bot", "bot": "rule"}] * 4


def played(client, table_id: str, at_least: int) -> int:  # type: ignore[no-untyped-def]
    def version() -> int:
        return int(client.get(f"/api/tables/{table_id}").json()["table"]["version"])
    return wait_until(lambda: (v := version()) >= at_least and v,
                      f"table {table_id} to reach version {at_least}")


def test_a_sqlite_backup_taken_during_play_opens_and_plays_on(tmp_path, capsys):
    db, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    with app_client(db, bot_pause=0.02) as client:
        table = create(client, BOTS4)["table"]["id"]
        played(client, table, 5)
        assert main(["db", "backup", "--db", f"sqlite:///{db}", "--to", str(copy)]) == 0
        assert "online backup" in capsys.readouterr().out
    with app_client(copy, bot_pause=0.02) as restored:
        at = restored.get(f"/api/tables/{table}").json()["table"]["version"]
        assert at >= 5
        played(restored, table, at + 3)  # restored by replay; its bots carry on


def test_a_backup_without_a_target_or_a_database_is_refused(tmp_path, capsys):
    assert main(["db", "backup", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}"]) == 2
    assert main(["db", "backup", "--db", f"sqlite:///{tmp_path / 'none.sqlite3'}",
                 "--to", str(tmp_path / "x")]) == 1
    assert "no SQLite database" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_postgresql_dump_restores_into_an_empty_database_and_plays_on(tmp_path, capsys):
    if shutil.which("pg_restore") is None:
        pytest.skip("pg_restore is not installed")
    archive = tmp_path / "parlour.dump"
    with pg_database("scale_backup") as source:
        with app_client(tmp_path / "x", db_url=source, bot_pause=0.02) as client:
            table = create(client, BOTS4)["table"]["id"]
            played(client, table, 5)
            assert main(["db", "backup", "--db", source, "--to", str(archive)]) == 0
        assert "pg_restore" in capsys.readouterr().out
        with pg_database("scale_restore") as target:
            libpq = target.replace("+psycopg", "")
            subprocess.run(["pg_restore", "--no-owner", "--dbname", libpq, str(archive)],
                           check=True)
            assert main(["db", "status", "--db", target]) == 0  # at this server's schema
            with app_client(tmp_path / "y", db_url=target, bot_pause=0.02) as restored:
                # its lease runs out (the database's clock), then the server takes it
                wait_until(lambda: table in restored.app.state.hub.tables,
                           "the restored server to take the table over")
                at = restored.app.state.hub.tables[table].version
                assert at >= 5
                played(restored, table, at + 3)
