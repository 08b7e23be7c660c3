"""Schemathesis against the server's own OpenAPI schema (``/openapi.json``): every endpoint
with generated valid and invalid requests; no answer is a 500, every status and body is
the documented one, and every error is in the one error shape."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode
from server_kit import BOTS3, create, server_thread

# The API's shapes do not depend on the database: the fuzz on PostgreSQL is make
# test-long's (tests/conftest.py).
pytestmark = pytest.mark.long_on("postgresql")

#: Requests per endpoint and generation mode. Six reach every line of parlour/server/ that
#: twelve did (coverage.py over the SQLite run, both derandomized; the only lines apart were
#: those of a bot table finishing while the run went on, which either may or may not see)
#: for 30% less CPU; three missed some of the account-name checks.
EXAMPLES = 6
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


def error_shape(response) -> None:
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        assert set(body["error"]) == {"code", "message"}, body
        assert all(isinstance(v, str) for v in body["error"].values()), body
        assert len(body["error"]["message"]) <= 300


def test_every_endpoint_answers_as_documented(tmp_path):
    with server_thread(tmp_path / "api.sqlite3") as base:
        with httpx.Client(base_url=base) as client:
            create(client, BOTS3)  # a table, so that some ids may hit one
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        paths = set()
        for result in schema.get_all_operations():
            operation = result.ok()
            paths.add(f"{operation.method.upper()} {operation.path}")
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(max_examples=EXAMPLES, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))
                def answers_as_documented(case) -> None:
                    response = case.call(base_url=base)
                    case.validate_response(response, checks=CHECKS)
                    error_shape(response)

                try:
                    answers_as_documented()
                except Unsatisfiable:  # nothing to get wrong (GET /api/games takes nothing)
                    assert mode is GenerationMode.NEGATIVE
        assert paths >= {"GET /api/games", "GET /api/tables", "POST /api/tables",
                         "POST /api/tables/{table_id}/join", "POST /api/tables/{table_id}/again",
                         "POST /api/tables/{table_id}/rejoin",
                         "POST /api/tables/{table_id}/rejoin-link",
                         "GET /api/tables/{table_id}/matches/{match}/replay",
                         "GET /health", "GET /metrics",
                         "GET /api/account", "POST /api/account/signup",
                         "POST /api/account/login", "POST /api/account/logout",
                         "POST /api/account/recover", "POST /api/account/password",
                         "POST /api/account/recovery-codes", "GET /api/account/export",
                         "POST /api/account/delete", "POST /api/account/seats/{table_id}/claim",
                         "POST /api/account/reports", "POST /api/account/mutes",
                         "GET /api/account/mutes/{table_id}",
                         "POST /api/tables/{table_id}/matches/{match}/review",
                         "GET /api/tables/{table_id}/matches/{match}/review",
                         "POST /api/tables/{table_id}/matches/{match}/review/try",
                         "GET /api/players/{name}", "GET /api/leaderboards/{game_id}",
                         "GET /api/daily", "POST /api/daily/{game_id}",
                         "GET /api/daily/{game_id}/{day}"}
