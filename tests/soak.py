"""Counts for soak tests: a light count in ``make test``, the long one in ``make test-long``.

A soak is parametrized by ``soak(light, long)``: the light case runs with every ``make
test``; the long case carries the ``long`` marker, which ``make test`` deselects and
``make test-long`` selects (``-m long``). One test, one switch, every check in both."""

from __future__ import annotations

import pytest


def soak(light: int, long: int) -> list:
    """The two counts of a soak, as ``pytest.mark.parametrize`` values."""
    return [pytest.param(light, id=f"{light}"),
            pytest.param(long, id=f"{long}", marks=pytest.mark.long)]
