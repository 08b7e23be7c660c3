"""The server's edge under abuse (issue 14, items 1-3, 13, 14): bodies past the limit
whatever their framing, per-client limits with 429 and Retry-After, the open-table caps
without a race, who a client is (trusted proxies, IPv6 /64), the websocket's Origin, the
CSP, strict types and the one error shape. Each test here failed on the server before it.
The slow-client guard, which needs a real server and real sockets, is in
test_server_slow_clients.py; bench/abuse.py replays the same attacks at full size."""

from __future__ import annotations

import asyncio
import json

import pytest
from fastapi.testclient import TestClient
from server_kit import BOTS3, PEOPLE4, ROOMY, Clock, Player, app_client, create, settings_for
from starlette.testclient import WebSocketDenialResponse
from waits import next_json

from parlour.server.app import create_app
from parlour.server.edge.errors import MAX_MESSAGE
from parlour.server.edge.limits import Limits, client_key
from parlour.server.play.tables import Hub
from parlour.server.storage.store import Store

# The subject is the edge's limits and shapes, not the database: PostgreSQL in make test-long
# only.
pytestmark = pytest.mark.long_on("postgresql")

PROXY = ("10.0.0.1", 4000)
CREATE = {"game": "spades", "seats": BOTS3, "name": "Ann"}


def error_of(res, status: int, code: str) -> str:
    """The message of an error answer, after checking its status and shape."""
    assert res.status_code == status, res.text
    body = res.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    return body["error"]["message"]


def limited(tmp_path, **limits) -> TestClient:
    """A client of an app with these limits (roomy otherwise), whose clock stands still:
    no bucket fills again while a slow machine runs the test."""
    return app_client(tmp_path / "edge.sqlite3", limits=Limits(**(ROOMY | limits)),
                      **Clock().settings())


def proxied(tmp_path, **limits) -> TestClient:
    """A client behind a trusted proxy: each request names its client in X-Forwarded-For.
    Its clock stands still, as :func:`limited`'s."""
    settings = settings_for(tmp_path / "edge.sqlite3",
                            limits=Limits(**(ROOMY | limits | {"trusted_proxies": [PROXY[0]]})),
                            **Clock().settings())
    return TestClient(create_app(settings), client=PROXY)


def as_client(ip: str) -> dict[str, str]:
    return {"X-Forwarded-For": ip}


# ----------------------------------------------------------------------------- bodies
def test_a_chunked_body_past_the_limit_is_refused_and_creates_nothing(tmp_path):
    body = json.dumps(CREATE).encode()
    padded = body[:-1] + b" " * 20_000 + b"}"  # valid JSON, past the 16 KiB limit

    def chunks():
        for i in range(0, len(padded), 1000):
            yield padded[i:i + 1000]

    with limited(tmp_path) as client:
        res = client.post("/api/tables", content=chunks(),
                          headers={"content-type": "application/json"})
        assert res.request.headers["transfer-encoding"] == "chunked"
        error_of(res, 413, "too_big")
        assert client.get("/api/tables").json()["tables"] == []
        assert client.post("/api/tables", content=body,
                           headers={"content-type": "application/json"}).status_code == 201


def test_errors_quote_at_most_a_short_excerpt_of_what_they_refuse(tmp_path):
    with limited(tmp_path) as client:
        name = "x" * 12_000
        res = client.post("/api/tables", json=CREATE | {"options": {name: 1}})
        message = error_of(res, 400, "bad_options")
        assert len(message) <= MAX_MESSAGE and "x" * 100 not in message
        res = client.post("/api/tables", json=CREATE | {"options": {name: [1]}})
        message = error_of(res, 400, "bad_request")
        assert len(message) <= MAX_MESSAGE and "x" * 100 not in message


# ----------------------------------------------------------------------------- strict input
@pytest.mark.parametrize(("field", "value"), [
    ("seat", "0"), ("seat", True), ("seat", 0.0), ("deal", True), ("name", 5),
    ("options", {"target": [300]}), ("seats", [{"kind": "person", "extra": 1}] * 4),
    ("colour", "red"),
])
def test_request_bodies_are_strictly_typed(tmp_path, field, value):
    with limited(tmp_path) as client:
        body = CREATE | {"seats": PEOPLE4} | {field: value}
        error_of(client.post("/api/tables", json=body), 400, "bad_request")
        assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("raw", [
    b"[" * 8000 + b"]" * 8000,  # deep nesting
    b'{"game": "spades", "seat": ' + b"7" * 5000 + b"}",  # a 5,000-digit number
    b'{"game": "spades", "seat": NaN}',
    b"\xff\xfe{}",
    b"",
])
def test_unreadable_bodies_get_the_error_shape(tmp_path, raw):
    with limited(tmp_path) as client:
        res = client.post("/api/tables", content=raw, headers={"content-type":
                                                               "application/json"})
        error_of(res, 400, "bad_request")


@pytest.mark.parametrize("kind", ["application/csp-report+json", "application/x+json",
                                  "text/plain", "application/x-www-form-urlencoded",
                                  "text/json", None])
def test_a_json_endpoint_takes_only_application_json(tmp_path, kind):
    """Issue 30 item 8: a body sent as anything but application/json (FastAPI would read
    any +json, or a body with no type, as JSON) is refused with 415 and creates nothing."""
    body = json.dumps({"game": "spades", "seats": BOTS3, "name": "Ann"}).encode()
    with limited(tmp_path) as client:
        headers = {} if kind is None else {"content-type": kind}
        error_of(client.post("/api/tables", content=body, headers=headers), 415,
                 "bad_content_type")
        assert client.get("/api/tables").json()["tables"] == []
        res = client.post("/api/tables", content=body,
                          headers={"content-type": "application/json; charset=utf-8"})
        assert res.status_code == 201


def test_the_frameworks_own_refusals_get_the_error_shape(tmp_path):
    with limited(tmp_path) as client:
        error_of(client.get("/no/such/page"), 404, "not_found")
        error_of(client.delete("/api/tables"), 405, "method_not_allowed")
        table = create(client, PEOPLE4)["table"]["id"]
        error_of(client.get(f"/api/tables/{table}/matches/one/record"), 400, "bad_request")
        error_of(client.post(f"/api/tables/{table}/join", json={"name": "Bo", "seat": "1"}),
                 400, "bad_request")


def test_notation_takes_ascii_digits_only(tmp_path):
    with limited(tmp_path) as client:
        res = create(client, BOTS3)
        south = Player(client, res["table"]["id"], res["token"])
        south.view()
        south.act("bid \u0661")  # an Arabic-Indic 1
        assert south.error()["code"] == "unknown_action"
        assert south.sync()["version"] == 0
        south.close()


# ----------------------------------------------------------------------------- per client
def test_creating_tables_is_limited_per_client_with_retry_after(tmp_path):
    with proxied(tmp_path, create_burst=3, creates_per_minute=1) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=CREATE,
                               headers=as_client("198.51.100.7")).status_code == 201
        res = client.post("/api/tables", json=CREATE, headers=as_client("198.51.100.7"))
        error_of(res, 429, "rate_limited")
        assert 1 <= int(res.headers["retry-after"]) <= 60
        assert client.post("/api/tables", json=CREATE,
                           headers=as_client("198.51.100.8")).status_code == 201


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(tmp_path):
    """A client that is not the proxy cannot pick its address by sending the header."""
    with limited(tmp_path, create_burst=2, creates_per_minute=1,
                 trusted_proxies=["10.0.0.1"]) as client:  # the test client is not 10.0.0.1
        codes = [client.post("/api/tables", json=CREATE,
                             headers=as_client(f"203.0.113.{i}")).status_code
                 for i in range(4)]
        assert codes == [201, 201, 429, 429]


def test_an_ipv6_client_counts_per_64():
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:1:2:3") \
        == "ip:2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.9") == client_key("192.0.2.9") == "ip:192.0.2.9"


def test_ipv6_clients_of_one_64_share_their_limit(tmp_path):
    with proxied(tmp_path, create_burst=2, creates_per_minute=1) as client:
        codes = [client.post("/api/tables", json=CREATE,
                             headers=as_client(f"2001:db8:7:7::{i}")).status_code
                 for i in range(1, 4)]
        assert codes == [201, 201, 429]


def test_open_tables_are_capped_per_client_and_for_the_server(tmp_path):
    with proxied(tmp_path, open_tables_per_client=2, open_tables=3) as client:
        def post(ip):
            return client.post("/api/tables", json=CREATE | {"seats": PEOPLE4, "public": True},
                               headers=as_client(ip))
        assert [post("192.0.2.1").status_code for _ in range(2)] == [201, 201]
        error_of(post("192.0.2.1"), 429, "rate_limited")
        assert post("192.0.2.2").status_code == 201
        res = post("192.0.2.3")
        error_of(res, 503, "busy")
        assert int(res.headers["retry-after"]) >= 1
        assert len(client.get("/api/tables").json()["tables"]) == 3


@pytest.mark.long_on()  # a race among writers: both databases in make test
def test_concurrent_creates_cannot_pass_the_server_cap(tmp_path):
    async def run() -> int:
        settings = settings_for(tmp_path / "race.sqlite3",
                                limits=Limits(**(ROOMY | {"open_tables": 5})))
        hub = Hub(settings, Store(settings.db_url))
        results = await asyncio.gather(
            *(hub.create("spades", {}, PEOPLE4, "Ann", None, client=f"ip:192.0.2.{i}")
              for i in range(30)), return_exceptions=True)
        refused = [r for r in results if isinstance(r, Exception)]
        assert all(getattr(r, "code", None) == "busy" for r in refused), refused
        await hub.close()
        hub.store.close()
        return len([t for t in hub.tables.values() if t.is_open])  # listed or private

    assert asyncio.run(run()) == 5


def test_joining_is_limited_per_client(tmp_path):
    with proxied(tmp_path, join_burst=2, joins_per_minute=1) as client:
        tables = [create(client, PEOPLE4)["table"]["id"] for _ in range(3)]
        codes = [client.post(f"/api/tables/{t}/join", json={"name": "Bo"},
                             headers=as_client("192.0.2.50")).status_code for t in tables]
        assert codes == [200, 200, 429]


def test_websockets_are_limited_per_table_and_per_client(tmp_path):
    with limited(tmp_path, sockets_per_table=2, sockets_per_client=3) as client:
        one, two = (create(client, PEOPLE4)["table"]["id"] for _ in range(2))
        held = [Player(client, one, None), Player(client, one, None)]
        with pytest.raises(WebSocketDenialResponse) as refused:
            Player(client, one, None)
        error_of(refused.value, 429, "rate_limited")
        assert refused.value.headers["retry-after"]
        held.append(Player(client, two, None))
        with pytest.raises(WebSocketDenialResponse):
            Player(client, two, None)  # three in all already
        held.pop().close()
        held.append(Player(client, two, None))  # a closed one is counted out
        for p in held:
            p.close()


# ----------------------------------------------------------------------------- origin, CSP
def test_the_websocket_checks_the_origin(tmp_path):
    with limited(tmp_path, allowed_origins=["https://friend.example"]) as client:
        table = create(client, PEOPLE4)["table"]["id"]
        for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
            with pytest.raises(WebSocketDenialResponse) as refused:
                client.websocket_connect(f"/ws/tables/{table}",
                                         headers={"Origin": origin}).__enter__()
            error_of(refused.value, 403, "bad_origin")
        for origin in ("http://testserver", "https://friend.example"):
            with client.websocket_connect(f"/ws/tables/{table}",
                                          headers={"Origin": origin}) as ws:
                ws.send_json({"type": "hello"})
                assert next_json(ws, "the welcome")["type"] == "welcome"


def test_the_csp_lets_the_page_connect_to_its_own_host_only(tmp_path):
    with limited(tmp_path) as client:
        policy = client.get("/").headers["content-security-policy"]
        connect = next(d for d in policy.split(";") if d.strip().startswith("connect-src"))
        assert connect.split() == ["connect-src", "'self'", "ws://testserver",
                                   "wss://testserver"]
        odd = client.get("/", headers={"Host": "x; script-src *"})
        assert "script-src *" not in odd.headers["content-security-policy"]


# ----------------------------------------------------------------------------- settings
def test_limits_are_settings_from_flags_and_the_environment(monkeypatch, capsys):
    monkeypatch.setenv("PARLOUR_OPEN_TABLES", "77")
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", "10.0.0.1, 2001:db8::/64")
    limits = Limits()
    assert limits.open_tables == 77 and limits.trusted_proxies == ["10.0.0.1", "2001:db8::/64"]
    assert Limits(open_tables=5).open_tables == 5  # a flag wins over the environment
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", "somewhere")
    with pytest.raises(ValueError, match="somewhere"):
        Limits()
    monkeypatch.delenv("PARLOUR_TRUSTED_PROXIES")

    from parlour.cli import main

    assert main(["serve", "--max-body", "10"]) == 2
    assert "--max-body" in capsys.readouterr().err


def test_the_schema_documents_the_error_shape_only(tmp_path):
    with limited(tmp_path) as client:
        schema = client.get("/openapi.json").json()
        assert "detail" not in json.dumps(schema)
        create = schema["paths"]["/api/tables"]["post"]["responses"]
        assert {"400", "413", "429", "503"} <= set(create)
        assert create["429"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/ErrorBody")
