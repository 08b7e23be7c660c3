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
