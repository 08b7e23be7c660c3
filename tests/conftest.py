"""Shared test set-up: ``tests/`` on the path (for contract.py and the kits) and the
browser tests' fixtures (a test file may override ``base`` with its own server)."""

import sys
from pathlib import Path

import pytest

# tests/contract.py is shared by every game's tests
sys.path.insert(0, str(Path(__file__).parent))


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
