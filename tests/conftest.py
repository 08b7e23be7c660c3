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


@pytest.fixture(autouse=True, scope="session")
def _light_password_hashes():
    """The servers a test runs in its own process hash passwords with Argon2id at its
    lightest (one pass over 1 MiB: a millisecond) instead of the production cost (three
    passes over 64 MiB: 0.3 s of CPU for each sign-up, log-in and password change, on each
    database). What the tests check is what is stored and when a
    password is accepted, which the cost leaves alone; the servers bench/abuse.py starts
    (tests/test_bench_abuse.py) hash at the production cost."""
    from argon2 import PasswordHasher

    from parlour.server.people import accounts

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=1024,
                                                         parallelism=1))
        yield


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch):
    """Every test starts in English whatever the developer's locale (the terminal and the
    command line follow LANG and friends); a test of another language sets it itself."""
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(scope="session")
def browser_server(tmp_path_factory):
    """The test process's Chromium, shared by its browser modules (browser_kit's
    BrowserServer), started by the first of them."""
    from browser_kit import BrowserServer

    server = BrowserServer(tmp_path_factory.mktemp("browser-server"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(request, browser_server):
    """Debian's Chromium through Playwright, for one test module (one Chromium per test
    process, each page in a fresh context of its own). A module marked
    ``reduced_motion`` opens its pages with prefers-reduced-motion (a player's setting the
    pages honour): the modules whose subject is not motion (layouts, languages, accounts,
    pages around the tables, and the play of test_browser_tables, _truth, _foursquare,
    _hit_the_deck and _cluster), which spares Chromium drawing every card's flight (a
    quarter of the CPU of test_browser_fit.py, 30% of test_browser_tables.py's, whose
    play with motion also failed once in three under load). Play keeps its motion where
    motion is the subject or meets the play: test_browser.py (the flights' timings, two
    deals played with them) and the lobby (its log's entrance)."""
    from browser_kit import REDUCED_MOTION, chromium

    REDUCED_MOTION[0] = request.node.get_closest_marker("reduced_motion") is not None
    try:
        with chromium(browser_server) as b:
            yield b
    finally:
        REDUCED_MOTION[0] = False


@pytest.fixture
def base(tmp_path):
    """A web parlour in a thread of the test process (no bot pause); its base URL."""
    from browser_kit import parlour

    with parlour(tmp_path) as url:
        yield url


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves a picture of each page it had open
    (browser_kit.shot_failed)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed and "browser" in item.fixturenames:
        from browser_kit import shot_failed

        shot_failed(item.name)


@pytest.fixture(autouse=True)
def _pages_clean(request):
    """A browser test fails on any console error, page error or failed request of a page it
    opened (browser_kit.page_of)."""
    yield
    if "browser" in request.fixturenames:
        from browser_kit import check_pages_clean

        check_pages_clean()


# Every store and server test (tests/test_server_*.py) that uses a database runs twice, on
# SQLite and on PostgreSQL (issue 19): the ``database`` fixture, parametrized per module so
# that a module's shared server starts once per database (such a fixture asks for
# ``database``). A test uses a database when it makes files (``tmp_path`` or
# ``tmp_path_factory``): server_kit names each server's database by a file, which on
# PostgreSQL stands for a database of the test worker's own (services.StandIns). A test may
# keep to one database with ``@pytest.mark.databases("postgresql")``, saying why. A test
# whose subject is not the database (what a message shows, the API's shapes) runs on
# PostgreSQL only in make test-long, with ``@pytest.mark.long_on("postgresql")``: the same
# check on the second database found nothing the first did not, for a third of make
# test's CPU of those modules.
# These modules are about one database by nature and run as they are:
ONE_DATABASE = {
    "test_server_backup",  # SQLite's online backup file; pg_dump restored into an empty database
    "test_server_schema",  # an old SQLite file upgrading itself; old and empty PostgreSQL ones
    "test_server_relay",  # several processes on PostgreSQL and Redis (SQLite has no leases)
    "test_server_failover",  # likewise, with owners killed and paused
}
DATABASES = ("sqlite", "postgresql")
FILES = {"tmp_path", "tmp_path_factory"}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "databases(*kinds): the only databases the test "
                                       "runs on (tests/conftest.py)")
    config.addinivalue_line("markers", "long_on(*kinds): the databases the test runs on "
                                       "only in make test-long (tests/conftest.py)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    name = metafunc.module.__name__
    if not name.startswith("test_server_") or name in ONE_DATABASE \
            or not FILES & set(metafunc.fixturenames):
        return
    marker = metafunc.definition.get_closest_marker("databases")
    kinds = marker.args if marker is not None else DATABASES
    soaked = metafunc.definition.get_closest_marker("long_on")
    later = set(soaked.args) if soaked is not None else set()
    metafunc.parametrize("database", [pytest.param(k, marks=pytest.mark.long) if k in later
                                      else k for k in kinds], indirect=True, scope="module")


@pytest.fixture(scope="session")
def stand_ins():
    """This test worker's PostgreSQL databases (services.StandIns), dropped at the end."""
    from services import StandIns

    databases = StandIns()
    try:
        yield databases
    finally:
        databases.close()


@pytest.fixture(scope="module", autouse=True)
def database(request):
    """``sqlite`` (each test's own files, as server_kit names them) or ``postgresql`` (a
    database of the worker's for each file: server_kit.DATABASES)."""
    kind = getattr(request, "param", "sqlite")
    if kind != "postgresql":
        yield kind
        return
    import server_kit

    stand_ins = request.getfixturevalue("stand_ins")
    with stand_ins.scope():  # what the module's shared fixtures ask for
        server_kit.DATABASES = stand_ins
        try:
            yield kind
        finally:
            server_kit.DATABASES = None


@pytest.fixture(autouse=True)
def _database_of_the_test(request):
    """On PostgreSQL, the databases a test asks for are its own until it ends."""
    if request.getfixturevalue("database") != "postgresql":
        yield
        return
    with request.getfixturevalue("stand_ins").scope():
        yield


# The modules whose tests take longest (browsers, servers in subprocesses, whole matches)
# are collected first, the rest after them in their usual order: pytest-xdist hands tests
# out in collection order, so a long test collected near the end kept one worker busy while
# the other had nothing left to do.
LONG_FIRST = ("test_browser", "test_server_failover", "test_server_restart",
              "test_server_openapi", "test_server_leak", "test_bench_abuse",
              "test_spite_and_malice_search", "test_rl", "test_same_results",
              "test_docs_commands")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not getattr(item.module, "__name__", "").startswith(LONG_FIRST))
