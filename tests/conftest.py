"""Shared test set-up: ``tests/`` on the path (for contract.py and the kits), Hypothesis's
settings, and the browser tests' fixtures (a test file may override ``base`` with its own
server)."""

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# tests/contract.py is shared by every game's tests
sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis tries the same examples on every run and machine (derandomize, no example
# database) and never times one (a loaded machine is slow, not wrong): a test's result
# depends on the code alone. Counts are set per test (light in make test, see soak.py).
settings.register_profile(
    "parlour", derandomize=True, database=None, deadline=None, print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("parlour")


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch):
    """Every test starts in English whatever the developer's locale (the terminal and the
    command line follow LANG and friends); a test of another language sets it itself."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright, one per test module."""
    from browser_kit import chromium

    with chromium() as b:
        yield b


@pytest.fixture
def base(tmp_path):
    """A web parlour in a thread of the test process (no bot pause); its base URL."""
    from browser_kit import parlour

    with parlour(tmp_path) as url:
        yield url


@pytest.fixture(autouse=True)
def _pages_clean(request):
    """A browser test fails on any console error, page error or failed request of a page it
    opened (browser_kit.page_of)."""
    yield
    if "browser" in request.fixturenames:
        from browser_kit import check_pages_clean

        check_pages_clean()


# The store and server tests that run twice, on SQLite and on PostgreSQL (issue 19): each
# of their tests gets the ``database`` fixture, parametrized. On PostgreSQL every app and
# server process a test starts shares one database of the test worker's, emptied before
# each test (server_kit reads its URL).
BOTH_DATABASES = {"test_server_ws", "test_server_lobby", "test_server_rejoin",
                  "test_server_timed", "test_server_games", "test_server_slow_clients",
                  "test_server_bots_fair", "test_server_pages", "test_server_edge"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.module.__name__ in BOTH_DATABASES and "database" in metafunc.fixturenames:
        metafunc.parametrize("database", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture(scope="session")
def worker_pg():
    """A PostgreSQL database of this test worker's own, at the newest schema."""
    from services import pg_database

    from parlour.server.store import Store

    with pg_database("parlour_test_worker") as url:
        Store(url).close()
        yield url


@pytest.fixture(autouse=True)
def database(request):
    """``sqlite`` (each test's own files, as server_kit makes them) or ``postgresql``."""
    kind = getattr(request, "param", "sqlite")
    if kind != "postgresql":
        yield kind
        return
    import server_kit
    from sqlalchemy import create_engine, text

    url = request.getfixturevalue("worker_pg")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            names = [r[0] for r in conn.execute(text(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                "AND tablename LIKE 'parlour_%' AND tablename <> 'parlour_secrets'"))]
            conn.execute(text(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()
    server_kit.DATABASE_URL = url
    try:
        yield kind
    finally:
        server_kit.DATABASE_URL = None
