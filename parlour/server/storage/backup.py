"""``parlour db backup``: a consistent copy of the database while the server runs.

SQLite: the online backup API (``sqlite3.Connection.backup``) copies the file page by page
while the server goes on writing; the copy is one committed state (WAL included) and opens
as a database of its own. PostgreSQL: ``pg_dump --format=custom`` (one snapshot, while the
servers run), restored with ``pg_restore`` into an empty database (docs/deploy.md has the
routine; tests/test_server_backup.py restores one and plays on).
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(RuntimeError):
    """The backup could not be made (the message says why)."""


def backup(url: str, target: Path) -> str:
    """Copy the database at ``url`` to the file ``target``; returns what was done."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        source = parsed.database
        if not source or source == ":memory:" or not Path(source).exists():
            raise BackupError(f"there is no SQLite database at {source!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        src, dst = sqlite3.connect(source), sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        return f"SQLite online backup of {source} written to {target}"
    if parsed.get_backend_name() == "postgresql":
        dump = shutil.which("pg_dump")
        if dump is None:
            raise BackupError("pg_dump is not installed (Debian: apt-get install "
                              "postgresql-client)")
        libpq = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        done = subprocess.run([dump, "--format=custom", "--no-owner", "--file", str(target),
                               "--dbname", libpq], capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_dump failed: {done.stderr.strip()[:500]}")
        return f"PostgreSQL dump (pg_dump --format=custom) written to {target}; restore it " \
               f"with pg_restore --no-owner --dbname <an empty database> {target}"
    raise BackupError(f"no backup routine for {parsed.get_backend_name()} databases")
