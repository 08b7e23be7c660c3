"""Run a command (the test suite) with the services its tests need: PostgreSQL and Redis.

    python tests/with_services.py python -m pytest ...

The tests reach PostgreSQL through ``PARLOUR_TEST_PG`` (an SQLAlchemy URL of a database
they may create other databases from). Where PostgreSQL already answers on
127.0.0.1:5432 with trust auth (developers' and CI's machines), that one is used. Where it
does not (a fresh machine), Debian's ``postgresql`` is installed if missing and a
throwaway instance is started as the ``postgres`` user (``initdb`` refuses root) in a
temporary directory on a free port, then stopped and removed after the command.
``PARLOUR_THROWAWAY_PG=1`` starts the throwaway one even where a server answers (to test
this script).

Redis likewise (``PARLOUR_TEST_REDIS``, a redis:// URL): the one on 127.0.0.1:6379 where it
answers, else Debian's ``redis-server`` (installed if missing) started on a free port in a
temporary directory, with no persistence, and stopped after the command
(``PARLOUR_THROWAWAY_REDIS=1`` forces it). The tests keep apart on one Redis by a key and
channel prefix of their own (tests/services.py). Nothing is ever mocked.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOCAL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"


def answers(port: int) -> bool:
    """Whether a PostgreSQL server takes a trust-auth login on 127.0.0.1:``port``."""
    try:
        import psycopg
    except ImportError:
        return False
    try:
        with psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres",
                             connect_timeout=3):
            return True
    except psycopg.Error:
        return False


def bin_dir() -> Path:
    """The directory of Debian's PostgreSQL server programs, installing them if missing."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        print("with_services: installing Debian's postgresql for the tests", file=sys.stderr)
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql"], check=True,
                       env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"})
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Throwaway:
    """A PostgreSQL instance of its own, in a temporary directory, owned by ``postgres``."""

    def __init__(self) -> None:
        self.bin = bin_dir()
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        shutil.chown(self.dir, "postgres", "postgres")

    def as_postgres(self, *args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                       stdout=subprocess.DEVNULL)

    def start(self) -> str:
        self.as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                         "-U", "postgres")
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        self.as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                         "-l", str(self.dir / "server.log"), "-w", "start")
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self.as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                             "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def redis_answers(port: int) -> bool:
    """Whether a Redis server answers PING on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class ThrowawayRedis:
    """A Redis server of its own on a free port, keeping nothing on disk."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            print("with_services: installing Debian's redis-server for the tests",
                  file=sys.stderr)
            subprocess.run(["apt-get", "update", "-qq"], check=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", "redis-server"], check=True,
                           env=os.environ | {"DEBIAN_FRONTEND": "noninteractive"})
            binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.binary = binary
        self.dir = Path(tempfile.mkdtemp(prefix="parlour-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if redis_answers(self.port):
                return f"redis://127.0.0.1:{self.port}/0"
            time.sleep(0.1)
        raise RuntimeError("the throwaway redis-server did not start")

    def stop(self) -> None:
        try:
            if self.proc is not None:
                self.proc.terminate()
                self.proc.wait(10)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def main(command: list[str]) -> int:
    if not command:
        print("usage: with_services.py COMMAND...", file=sys.stderr)
        return 2
    throwaway = None
    if os.environ.get("PARLOUR_THROWAWAY_PG") != "1" and answers(5432):
        url = LOCAL
    else:
        throwaway = Throwaway()
        url = throwaway.start()
        print(f"with_services: a throwaway PostgreSQL on port {throwaway.port}",
              file=sys.stderr)
    redis = None
    try:
        if os.environ.get("PARLOUR_THROWAWAY_REDIS") != "1" and redis_answers(6379):
            redis_url = LOCAL_REDIS
        else:
            redis = ThrowawayRedis()
            redis_url = redis.start()
            print(f"with_services: a throwaway Redis on port {redis.port}", file=sys.stderr)
        env = os.environ | {"PARLOUR_TEST_PG": url, "PARLOUR_TEST_REDIS": redis_url}
        return subprocess.run(command, env=env).returncode
    finally:
        if redis is not None:
            redis.stop()
        if throwaway is not None:
            throwaway.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
