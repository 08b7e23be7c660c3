"""Schemathesis against the server's own OpenAPI schema (``/openapi.json``): every endpoint
with generated valid and invalid requests; no answer is a 500, every status and body is
the documented one, and every error is in the one error shape."""

from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from players_kit import sign_up
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode
from server_kit import BOTS3, create, server_thread

from parlour.server.people.identity import SESSION_COOKIE

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
                         "GET /api/daily/{game_id}/{day}", "POST /api/quick",
                         "POST /api/quick/{seek_id}", "POST /api/quick/{seek_id}/cancel",
                         "POST /api/turns"} | PEOPLE


#: The people's endpoints (issue 34), fuzzed again signed in (below).
PEOPLE = {"GET /api/people", "GET /api/people/events", "GET /api/people/relation/{name}",
          "POST /api/people/follow", "POST /api/people/block", "POST /api/people/settings",
          "POST /api/people/challenges", "POST /api/people/challenges/{challenge_id}/accept",
          "POST /api/people/challenges/{challenge_id}/decline",
          "POST /api/people/challenges/{challenge_id}/cancel"}


def test_the_people_endpoints_answer_as_documented_signed_in(tmp_path):
    """The people's endpoints with a session (the run above is a guest's, refused before
    its bodies mean anything): Ana and Bea are friends, so that a generated name or
    challenge id may hit a real one. The event stream is left out: with a session it
    answers for as long as the client listens (the browser test reads it)."""
    db = tmp_path / "people.sqlite3"
    with server_thread(db) as base:
        _, ana = sign_up(db, "Ana")
        _, bea = sign_up(db, "Bea")
        for token, other in ((ana, "Bea"), (bea, "Ana")):
            res = httpx.post(f"{base}/api/people/follow", json={"name": other},
                             cookies={SESSION_COOKIE: token})
            assert res.status_code == 200, res.text
        res = httpx.post(f"{base}/api/people/challenges", json={"to": "Bea", "game": "spades"},
                         cookies={SESSION_COOKIE: ana})
        assert res.status_code == 201, res.text
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        fuzzed = set()
        for result in schema.get_all_operations():
            operation = result.ok()
            name = f"{operation.method.upper()} {operation.path}"
            if name not in PEOPLE or name == "GET /api/people/events":
                continue
            fuzzed.add(name)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

                @given(case=operation.as_strategy(generation_mode=mode))
                @settings(max_examples=EXAMPLES, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck))
                def answers_as_documented(case) -> None:
                    response = case.call(base_url=base, cookies={SESSION_COOKIE: bea})
                    case.validate_response(response, checks=CHECKS)
                    error_shape(response)

                try:
                    answers_as_documented()
                except Unsatisfiable:
                    assert mode is GenerationMode.NEGATIVE
        assert fuzzed == PEOPLE - {"GET /api/people/events"}
