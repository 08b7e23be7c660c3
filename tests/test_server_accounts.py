"""Accounts (issue 17): sign up, log in and out, the session cookie, passwords stored and
logged only as Argon2id hashes, recovery codes, export and deletion, names unique across
case and look-alikes, the limits on log-in, sign-up and recovery, seats that follow a
person (guest seats kept at sign-up, a seat taken back on another device), reports,
mutes, and the operators' ``parlour admin`` commands."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from server_kit import (
    BOTS3,
    PEOPLE4,
    ROOMY,
    AppClient,
    Clock,
    app_client,
    connect,
    create,
    db_url_for,
    join,
    settings_for,
    stored_bytes,
)
from sqlalchemy import create_engine, select, update

from parlour.cli import main
from parlour.i18n import render
from parlour.server.app import create_app
from parlour.server.edge.limits import Limits, PerClient
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.account_names import bot_names, clean_account_name, name_key
from parlour.server.people.identity import SESSION_COOKIE, session_hash
from parlour.server.storage.store import (
    accounts_t,
    admin_log_t,
    recovery_codes_t,
    reports_t,
    seats_t,
    sessions_t,
)

PASSWORD = "correct horse battery"


def sign_up(client, name="Ana", password=PASSWORD, seats=None, status=201):
    res = client.post("/api/account/signup",
                      json={"name": name, "password": password, "seats": seats or []})
    assert res.status_code == status, res.text
    return res.json()


def log_in(client, name="Ana", password=PASSWORD, status=200, seats=None):
    res = client.post("/api/account/login",
                      json={"name": name, "password": password, "seats": seats or []})
    assert res.status_code == status, res.text
    return res.json()


def whoami(client):
    res = client.get("/api/account")
    assert res.status_code == 200, res.text
    return res.json()


def device(client):
    """Another browser on the same server: its own cookies."""
    return AppClient(client.app)


def rows(db, table):
    with connect(db) as conn:
        return conn.execute(select(table)).all()


def test_sign_up_signs_in_with_a_safe_cookie_and_stores_only_hashes(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        res = client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD})
        assert res.status_code == 201, res.text
        body = res.json()
        assert body["account"] == {"name": "Ana", "role": "player"}
        codes = body["recovery_codes"]
        assert len(codes) == 8 and len(set(codes)) == 8
        cookie = res.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE}=")
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain HTTP here; over TLS it is Secure (next test)
        token = client.cookies[SESSION_COOKIE]
        assert len(token) >= 43  # 256 bits, URL-safe base64
        assert whoami(client)["account"]["name"] == "Ana"
        assert whoami(client)["recovery_codes_left"] == 8
    (account,) = rows(db, accounts_t)
    assert account.password_hash.startswith("$argon2id$")
    (session,) = rows(db, sessions_t)
    assert session.token_hash == session_hash(token) != token
    stored = {r.code_hash for r in rows(db, recovery_codes_t)}
    assert len(stored) == 8 and not stored & {c.replace("-", "") for c in codes}
    dump = stored_bytes(db)
    assert PASSWORD.encode() not in dump and token.encode() not in dump
    assert not any(c.replace("-", "").encode() in dump for c in codes)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in logged and account.password_hash not in logged
    assert token not in logged and "argon2" not in logged


def test_the_cookie_is_secure_over_tls(tmp_path):
    app = create_app(settings_for(tmp_path / "a.sqlite3"))
    with AppClient(app, base_url="https://testserver") as client:
        res = client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD})
        assert res.status_code == 201 and "Secure" in res.headers["set-cookie"]


def test_log_in_log_out_and_a_wrong_password(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    with app_client(tmp_path / "a.sqlite3") as client:
        sign_up(client)
        old = client.cookies[SESSION_COOKIE]
        res = client.post("/api/account/logout")
        assert res.status_code == 200 and res.json() == {"account": None}
        assert SESSION_COOKIE not in client.cookies
        assert whoami(client) == {"account": None}
        client.cookies.set(SESSION_COOKIE, old)  # the old cookie signs nobody in now
        assert whoami(client) == {"account": None}
        client.cookies.clear()
        wrong = log_in(client, password="not the password", status=403)
        assert wrong["error"]["code"] == "bad_login"
        nobody = log_in(client, name="Nobody", status=403)
        assert nobody["error"] == wrong["error"]  # no telling who has an account
        assert log_in(client, name="ANA")["account"]["name"] == "Ana"  # any case
        assert whoami(client)["account"]["name"] == "Ana"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert PASSWORD not in logged and "not the password" not in logged


@pytest.mark.parametrize("other", ["ana", "ANA", "Аna", "Ａｎａ", "A n a".replace(" ", ""),
                                   "ＡＮＡ"])
def test_names_are_unique_across_case_and_look_alikes(tmp_path, other):
    with app_client(tmp_path / "a.sqlite3") as client:
        sign_up(client, "Ana")
        client.cookies.clear()
        res = sign_up(client, other, status=409)
        assert res["error"]["code"] == "name_taken"


def test_look_alike_keys():
    assert name_key("Paulo") == name_key("Paul0") == name_key("PAUL0")
    assert name_key("Bill") == name_key("BiII") == name_key("Bi11")
    assert name_key("mia") == name_key("rnia")
    assert name_key("Ana") != name_key("Anna")
    assert name_key("Dewi") == name_key("Dеwi")  # a Cyrillic е


@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Lt", "Nd"]), min_size=2,
               max_size=24))
@settings(max_examples=300)
def test_a_name_key_ignores_case_in_every_script(name):
    key = name_key(name)
    assert len(key) <= 160
    for other in (name.upper(), name.lower(), name.swapcase(), name.casefold()):
        assert name_key(other) == key


@pytest.mark.parametrize("name", ["admin", "ADMIN", "аdmin", "AdmIn", "Admln", "Parlour",
                                  "bot", "B0T", "you", "YOU", "rule", "ismcts", "random"])
def test_reserved_names_and_their_look_alikes_are_refused(tmp_path, name):
    with app_client(tmp_path / "a.sqlite3") as client:
        res = sign_up(client, name, status=400)
        assert res["error"]["code"] == "name_reserved"
        assert whoami(client) == {"account": None}


#: Issue 30 item 2: characters that draw as nothing (Default_Ignorable_Code_Point).
IGNORABLES = ["\u034f", "\ufe00", "\ufe0f", "\U000e0100", "\u180b", "\u17b4", "\u3164",
              "\u115f", "\u200d", "\u2060", "\uffa0"]


@pytest.mark.parametrize("mark", IGNORABLES)
def test_a_name_with_a_character_that_shows_as_nothing_is_refused(mark):
    for name in (f"Ana{mark}", f"Admin{mark}", f"Bill{mark}", f"{mark}Ana", f"An{mark}a"):
        with pytest.raises(ProtocolError) as refused:
            clean_account_name(name)
        assert refused.value.code in ("bad_name", "name_reserved")
        assert name_key(name) == name_key(name.replace(mark, ""))  # and folds away


def test_the_ignorable_characters_come_from_unicode_s_data_not_a_list():
    """Every Default_Ignorable_Code_Point of the regex module's Unicode tables is refused
    and folded: the whole property, not a hand-picked few."""
    from parlour.server.people.account_names import IGNORABLE
    found = [chr(c) for c in range(0x110000) if IGNORABLE.match(chr(c))]
    assert len(found) > 4000 and set(IGNORABLES) <= set(found)  # the tag and VS blocks
    assert all(name_key(f"Ana{ch}") == name_key("Ana") for ch in found[::97])


def test_old_look_alike_accounts_are_renamed_by_the_migration_and_told_once(tmp_path):
    """Issue 30 item 2: accounts made before the change whose names now fold together:
    the older keeps its name, the later is renamed (told at its next sign-in, once)."""
    from alembic import command

    from parlour.server.storage import schema

    db = tmp_path / "a.sqlite3"
    with app_client(db, **Clock().settings()) as client:
        sign_up(client, "Ana")
        sign_up(device(client), "Bea")
        sign_up(device(client), "Ana 2")  # the renamed one must not take this name
    engine = create_engine(db_url_for(db))
    with engine.begin() as conn:
        command.downgrade(schema._config(conn), "0009")
        # as the old code let them in: Bea became "Ana" with a U+034F, a key of its own
        conn.execute(update(accounts_t).where(accounts_t.c.name == "Bea").values(
            name="Ana\u034f", name_key="ana\u034f"))
    schema.upgrade(engine)
    engine.dispose()
    names = {r.name: r.renamed_from for r in rows(db, accounts_t)}
    assert names == {"Ana": None, "Ana 2": None, "Ana 3": "Ana\u034f"}
    with app_client(db, **Clock().settings()) as client:
        res = log_in(client, "Ana 3")
        assert res["account"]["name"] == "Ana 3" and res["renamed_from"] == "Ana\u034f"
        assert "renamed_from" not in whoami(client)  # told once
        assert log_in(device(client), "Ana")["account"]["name"] == "Ana"
    log = rows(db, admin_log_t)
    assert [(r.action, r.operator) for r in log] == [("rename", "migration 0010")]


@pytest.mark.parametrize("body, code", [
    ({"name": "x", "password": PASSWORD}, "bad_name"),
    ({"name": "Ana\u200b", "password": PASSWORD}, "bad_name"),
    ({"name": "<b>Ana</b>", "password": PASSWORD}, "bad_name"),
    ({"name": "Ana", "password": "short"}, "bad_password"),
    ({"name": "Anabelle", "password": "anabelle"}, "bad_password"),
    ({"name": "Ana", "password": PASSWORD, "role": "admin"}, "bad_request"),
    ({"name": "Ana", "password": 12345678}, "bad_request"),
    ({"name": "Ana", "password": PASSWORD, "seats": [{"table": "../x", "token": "t"}]},
     "bad_request"),
])
def test_bad_sign_ups_are_refused_and_change_nothing(tmp_path, body, code):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        res = client.post("/api/account/signup", json=body)
        assert res.status_code == 400 and res.json()["error"]["code"] == code, res.text
        assert SESSION_COOKIE not in client.cookies
    assert rows(db, accounts_t) == [] and rows(db, sessions_t) == []


def test_log_in_is_limited_per_address_and_per_account(tmp_path):
    limits = Limits(**(ROOMY | {"login_burst": 3, "logins_per_minute": 1}))
    with app_client(tmp_path / "a.sqlite3", limits=limits, **Clock().settings()) as client:
        sign_up(client)
        client.cookies.clear()
        for _ in range(3):
            log_in(client, password="wrong password", status=403)
        res = client.post("/api/account/login", json={"name": "Ana", "password": PASSWORD})
        assert res.status_code == 429 and res.json()["error"]["code"] == "rate_limited"
        assert int(res.headers["Retry-After"]) >= 1
        assert SESSION_COOKIE not in client.cookies  # even the right password waits
        guard = client.app.state.guard
        # the account's name is counted too: from any address, its bucket is empty
        logins = guard.buckets["login"]
        assert logins.wait(f"account:{name_key('ana')}") > 0
        assert logins.wait("ip:192.0.2.9") == 0  # another address, another name: free


def test_sign_up_and_recovery_are_limited_per_address(tmp_path):
    limits = Limits(**(ROOMY | {"signup_burst": 2, "recovery_burst": 2}))
    with app_client(tmp_path / "a.sqlite3", limits=limits, **Clock().settings()) as client:
        codes = sign_up(client, "Ana")["recovery_codes"]
        sign_up(client, "Bea")
        res = client.post("/api/account/signup", json={"name": "Cai", "password": PASSWORD})
        assert res.status_code == 429 and "Retry-After" in res.headers
        for _ in range(2):
            res = client.post("/api/account/recover", json={
                "name": "Ana", "code": "aaaa-aaaa-aaaa-aaaa", "password": "new password 1"})
            assert res.status_code == 403 and res.json()["error"]["code"] == "bad_code"
        res = client.post("/api/account/recover", json={
            "name": "Ana", "code": codes[0], "password": "new password 1"})
        assert res.status_code == 429  # even with a good code: wait


def test_a_guest_cannot_sit_under_an_account_s_or_the_parlour_s_name(tmp_path):
    """Issue 30 item 3: joining, opening a table or a daily deal as a guest under an
    account's name (or a look-alike), the parlour's or a bot's is refused."""
    with app_client(tmp_path / "a.sqlite3", **Clock().settings()) as client:
        sign_up(client, "Bob Real")
        table = create(client, PEOPLE4)["table"]["id"]  # as Bob, signed in
        client.cookies.clear()
        for name in ("Bob Real", "bob real", "B0b Rea1", "Bob Real\u034f", "Admin", "Bill",
                     "guest"):
            answers = [client.post(f"/api/tables/{table}/join", json={"name": name}),
                       client.post("/api/tables", json={"game": "spades", "seats": BOTS3,
                                                        "name": name}),
                       client.post("/api/daily/foursquare", json={"name": name})]
            want = "name_reserved" if name in ("Admin", "Bill", "guest") else "name_taken"
            assert [(r.status_code, r.json()["error"]["code"]) for r in answers] == \
                [(409 if want == "name_taken" else 400, want)] * 3, name
        assert join(client, table, "Bob Fake")["seat"] == 1  # another name: fine


def test_a_guest_is_marked_wherever_its_name_shows(tmp_path):
    """Issue 30 item 3: the table's summary marks a guest's seat (the page's badge), the
    narration calls it "<name> (guest)" and a record's Players tag too; a signed-in
    person's seat is not marked."""
    with app_client(tmp_path / "a.sqlite3", **Clock().settings()) as client:
        sign_up(client, "Bob Real")
        made = create(client, [{"kind": "person"}, {"kind": "person"}],
                      game="clockwork-spades")
        table = made["table"]["id"]
        guest = device(client)
        joined = join(guest, table, "Bob Fake")
        seats = joined["table"]["seats"]
        assert [(s["name"], s["guest"]) for s in seats] == [("Bob Real", False),
                                                             ("Bob Fake", True)]
        hub = client.app.state.hub
        live = hub.tables[table]
        assert live.player_names() == ["Bob Real", "Bob Fake (guest)"]
        told = render(live.narration_names()[1], "en")
        assert told == "Bob Fake (guest)" and render(live.narration_names()[1], "id") == \
            "Bob Fake (tamu)"


def test_a_refused_address_makes_no_bucket_per_name(tmp_path):
    """Issue 30 item 5: recovery tries with a new name each, from an address already
    refused, leave nothing behind (no bucket per name)."""
    limits = Limits(**(ROOMY | {"recovery_burst": 2}))
    with app_client(tmp_path / "a.sqlite3", limits=limits, **Clock().settings()) as client:
        for n in range(30):
            res = client.post("/api/account/recover", json={
                "name": f"Name{n}", "code": "aaaa-aaaa-aaaa-aaaa", "password": "new password 1"})
            assert res.status_code == (403 if n < 2 else 429)
        assert len(client.app.state.guard.buckets["recovery"].buckets) == 3  # address, 2 names


def test_the_limiter_holds_bounded_buckets_and_forgets_the_full_ones_first():
    """Issue 30 item 5: a limiter keeps at most its capacity of buckets whatever keys it is
    sent, drops the ones that filled up again as it meets them, and a client it still
    holds keeps its count (bench/limiter.py times it at 100,000 names)."""
    now = [0.0]
    limiter = PerClient(rate=1.0, burst=2, clock=lambda: now[0], capacity=100)
    for n in range(1000):
        limiter.wait(f"name{n}")
        assert len(limiter.buckets) <= 100
    assert list(limiter.buckets)[-1] == "name999"
    now[0] += 10.0  # every bucket full again: met one at a time, they all go
    limiter.wait("late")
    assert list(limiter.buckets) == ["late"]
    limiter.wait("held")
    limiter.wait("held")
    for n in range(50):
        limiter.wait(f"other{n}")
    assert limiter.wait("held") > 0  # still counted


def test_changing_the_password_ends_the_other_sessions(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as phone:
        laptop = device(phone)
        sign_up(phone)
        log_in(laptop)
        res = phone.post("/api/account/password",
                         json={"current": "not it at all", "password": "a new password"})
        assert res.status_code == 403 and res.json()["error"]["code"] == "wrong_password"
        assert whoami(laptop)["account"]["name"] == "Ana"  # a wrong try changes nothing
        res = phone.post("/api/account/password",
                         json={"current": PASSWORD, "password": "a new password"})
        assert res.status_code == 200, res.text
        assert whoami(phone)["account"]["name"] == "Ana"  # this session goes on
        assert whoami(laptop) == {"account": None}  # the other has ended
        laptop.cookies.clear()
        log_in(laptop, status=403)
        log_in(laptop, password="a new password")


def test_a_recovery_code_resets_a_lost_password_once(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as old:
        new = device(old)
        codes = sign_up(old)["recovery_codes"]
        res = new.post("/api/account/recover", json={
            "name": "ana", "code": f"  {codes[3].upper()} ", "password": "my new password"})
        assert res.status_code == 200, res.text
        assert whoami(new)["account"]["name"] == "Ana"
        assert whoami(new)["recovery_codes_left"] == 7
        assert whoami(old) == {"account": None}  # every other session ended
        new.cookies.clear()
        res = new.post("/api/account/recover", json={
            "name": "Ana", "code": codes[3], "password": "another password"})
        assert res.status_code == 403  # spent
        res = new.post("/api/account/recover", json={
            "name": "Ana", "code": codes[4], "password": "short"})
        assert res.status_code == 400  # a bad new password spends nothing
        log_in(new, password="my new password")
        assert whoami(new)["recovery_codes_left"] == 7
        res = new.post("/api/account/recovery-codes", json={"password": "my new password"})
        fresh = res.json()["recovery_codes"]
        assert len(fresh) == 8 and not set(fresh) & set(codes)
        res = new.post("/api/account/recover", json={
            "name": "Ana", "code": codes[5], "password": "another password"})
        assert res.status_code == 403  # the old codes stopped working


def test_a_signed_in_person_holds_the_seat_and_takes_it_back_on_another_device(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as first:
        second = device(first)
        sign_up(first)
        made = create(first, BOTS3, name="whatever")
        table_id = made["table"]["id"]
        assert made["table"]["seats"][0]["name"] == "Ana"  # as themselves
        (seat,) = [r for r in rows(db, seats_t) if r.account_id is not None]
        assert (seat.table_id, seat.seat) == (table_id, 0)

        res = second.post(f"/api/account/seats/{table_id}/claim")
        assert res.status_code == 403 and res.json()["error"]["code"] == "not_signed_in"
        log_in(second)
        listed = whoami(second)["seats"]
        assert [(s["table"], s["seat"], s["game"]) for s in listed] == [(table_id, 0, "spades")]
        res = second.post(f"/api/account/seats/{table_id}/claim")
        assert res.status_code == 200, res.text
        claimed = res.json()
        assert claimed["seat"] == 0 and claimed["token"] != made["token"]
        # the token works as the seat's own (its private rejoin link, say)
        res = second.post(f"/api/tables/{table_id}/rejoin-link",
                          headers={"Authorization": f"Bearer {claimed['token']}"})
        assert res.status_code == 200, res.text

        other = create(second, PEOPLE4, name="Cy")  # a table where Ana holds nothing
        second.cookies.clear()
        sign_up(second, "Bea")
        res = second.post(f"/api/account/seats/{table_id}/claim")
        assert res.status_code == 403 and res.json()["error"]["code"] == "not_seated"
        res = second.post(f"/api/account/seats/{other['table']['id']}/claim")
        assert res.status_code == 403
        joined = join(second, other["table"]["id"], "typed name")
        assert joined["table"]["seats"][joined["seat"]]["name"] == "Bea"


def test_a_guest_who_signs_up_keeps_their_seats(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        one = create(client, BOTS3, name="Gus")
        two = create(client, PEOPLE4, name="Gus")
        stranger = create(client, PEOPLE4, name="Someone")
        held = [{"table": one["table"]["id"], "token": one["token"]},
                {"table": two["table"]["id"], "token": two["token"]},
                {"table": stranger["table"]["id"], "token": "not-its-token"},
                {"table": "nosuchtable", "token": "x"}]
        body = sign_up(client, "Ana", seats=held)
        assert body["seats_kept"] == 2
        mine = {s["table"] for s in whoami(client)["seats"]}
        assert mine == {one["table"]["id"], two["table"]["id"]}
        # and from another device
        other = device(client)
        log_in(other)
        res = other.post(f"/api/account/seats/{two['table']['id']}/claim")
        assert res.status_code == 200 and res.json()["seat"] == two["seat"]
        # a seat another account holds is not taken over by a token copied from it
        other.cookies.clear()
        sign_up(other, "Bea", seats=[{"table": one["table"]["id"], "token": one["token"]}])
        assert whoami(other)["seats"] == []


def test_seats_follow_a_restart(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        sign_up(client)
        table_id = create(client, PEOPLE4)["table"]["id"]
        cookie = client.cookies[SESSION_COOKIE]
    with app_client(db) as client:
        client.cookies.set(SESSION_COOKIE, cookie)
        res = client.post(f"/api/account/seats/{table_id}/claim")
        assert res.status_code == 200 and res.json()["seat"] == 0


def test_leaving_a_seat_unlinks_it(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        sign_up(client)
        made = create(client, PEOPLE4)
        table_id = made["table"]["id"]
        res = client.post(f"/api/tables/{table_id}/leave",
                          headers={"Authorization": f"Bearer {made['token']}"})
        assert res.status_code == 200
        assert whoami(client)["seats"] == []
        assert client.post(f"/api/account/seats/{table_id}/claim").status_code == 403


def test_export_and_delete(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        sign_up(client)
        table_id = create(client, BOTS3)["table"]["id"]
        res = client.get("/api/account/export")
        assert res.status_code == 200 and "attachment" in res.headers["content-disposition"]
        data = res.json()
        assert data["account"]["name"] == "Ana" and data["recovery_codes_left"] == 8
        assert [s["table"] for s in data["seats"]] == [table_id]
        assert "argon2" not in res.text and "hash" not in res.text
        res = client.post("/api/account/delete", json={"password": "not the password"})
        assert res.status_code == 403
        res = client.post("/api/account/delete", json={"password": PASSWORD})
        assert res.status_code == 200 and SESSION_COOKIE not in client.cookies
        assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["name"] \
            == "Deleted player"
        log_in(client, status=403)
        assert client.get("/api/account/export").status_code == 403
        sign_up(client, "Ana")  # the name is free again
    gone = [r for r in rows(db, accounts_t) if r.deleted is not None]
    assert len(gone) == 1 and gone[0].name == "Deleted player" and gone[0].password_hash == "!"
    seat = next(r for r in rows(db, seats_t) if r.table_id == table_id and r.seat == 0)
    assert seat.account_id == gone[0].id and seat.name == "Deleted player"  # anonymised
    assert {r.account_id for r in rows(db, sessions_t)} == {gone[0].id + 1}
    assert PASSWORD not in "\n".join(r.getMessage() for r in caplog.records)


def test_cookie_requests_from_another_site_are_refused(tmp_path):
    with app_client(tmp_path / "a.sqlite3") as client:
        sign_up(client)
        res = client.post("/api/account/delete", json={"password": PASSWORD},
                          headers={"Origin": "http://evil.example"})
        assert res.status_code == 403 and res.json()["error"]["code"] == "bad_origin"
        res = client.post("/api/account/logout", headers={"Origin": "http://testserver"})
        assert res.status_code == 200


def test_report_and_mute_a_player(tmp_path):
    db = tmp_path / "a.sqlite3"
    limits = Limits(**(ROOMY | {"report_burst": 2, "reports_per_hour": 1}))
    with app_client(db, limits=limits) as ana:
        bea = device(ana)
        sign_up(ana)
        made = create(ana, PEOPLE4)
        table_id = made["table"]["id"]
        sign_up(bea, "Bea")
        join(bea, table_id, "Bea")  # seat 1, signed in
        join(device(ana), table_id, "Rude Guest")  # seat 2, a guest
        res = ana.post("/api/account/mutes", json={"table": table_id, "seat": 1})
        assert res.status_code == 200 and res.json() == {"muted": [1]}
        res = ana.post("/api/account/mutes", json={"table": table_id, "seat": 2})
        assert res.json() == {"muted": [1, 2]}
        assert ana.get(f"/api/account/mutes/{table_id}").json() == {"muted": [1, 2]}
        assert bea.get(f"/api/account/mutes/{table_id}").json() == {"muted": []}  # for Ana only
        res = ana.post("/api/account/mutes", json={"table": table_id, "seat": 1, "muted": False})
        assert res.json() == {"muted": [2]}
        res = ana.post("/api/account/mutes", json={"table": table_id, "seat": 0})
        assert res.status_code == 400  # your own seat
        res = ana.post("/api/account/mutes", json={"table": table_id, "seat": 3})
        assert res.status_code == 400  # nobody there

        res = ana.post("/api/account/reports", json={
            "table": table_id, "seat": 2, "reason": "name", "note": "  rude\nname "})
        assert res.status_code == 201, res.text
        res = ana.post("/api/account/reports", json={"table": table_id, "seat": 1,
                                                      "reason": "nonsense"})
        assert res.status_code == 400
        ana.post("/api/account/reports", json={"table": table_id, "seat": 1, "reason": "other"})
        res = ana.post("/api/account/reports", json={"table": table_id, "seat": 1,
                                                      "reason": "other"})
        assert res.status_code == 429
        anon = device(ana)
        res = anon.post("/api/account/reports", json={"table": table_id, "seat": 1,
                                                       "reason": "abuse"})
        assert res.status_code == 403 and res.json()["error"]["code"] == "not_signed_in"
    reports = rows(db, reports_t)
    assert [(r.seat, r.name, r.reason, r.note) for r in reports] == [
        (2, "Rude Guest", "name", "rude name"), (1, "Bea", "other", None)]
    assert reports[1].account_id is not None and reports[0].account_id is None


def test_parlour_admin_renames_bans_and_unbans_and_logs_it(tmp_path, capsys):
    db = tmp_path / "a.sqlite3"
    url = db_url_for(db)
    with app_client(db) as client:
        sign_up(client, "Ana")
        sign_up(device(client), "Bea")
        assert main(["admin", "rename", "ANA", "Anabel", "--db", url]) == 0
        assert whoami(client)["account"]["name"] == "Anabel"  # the session stays
        assert main(["admin", "rename", "Anabel", "bea", "--db", url]) == 1  # taken
        assert "taken" in capsys.readouterr().err
        assert main(["admin", "rename", "Anabel", "admin", "--db", url]) == 1
        assert main(["admin", "ban", "anabel", "--reason", "abuse", "--db", url]) == 0
        assert whoami(client) == {"account": None}  # the session stopped working
        client.cookies.clear()
        res = client.post("/api/account/login", json={"name": "Anabel", "password": PASSWORD})
        assert res.status_code == 403 and res.json()["error"]["code"] == "banned"
        assert main(["admin", "unban", "Anabel", "--db", url]) == 0
        log_in(client, "Anabel")
        assert main(["admin", "ban", "Nobody", "--db", url]) == 1
        capsys.readouterr()
        assert main(["admin", "log", "--db", url]) == 0
        out = capsys.readouterr().out
    assert "rename" in out and "Ana -> Anabel" in out and "abuse" in out
    log = rows(db, admin_log_t)
    assert [r.action for r in log] == ["rename", "ban", "unban"]
    assert all(r.operator for r in log)


def test_a_banned_account_in_the_database_signs_nobody_in(tmp_path):
    db = tmp_path / "a.sqlite3"
    with app_client(db) as client:
        sign_up(client)
        store = client.app.state.hub.store
        with store.engine.begin() as conn:
            conn.execute(update(accounts_t).values(banned=1.0))
        assert whoami(client) == {"account": None}


def test_a_banned_account_answers_the_same_whatever_the_password_or_code(tmp_path):
    """Issue 30 item 6: neither log-in nor recovery tells a banned account's right password
    or code from a wrong one."""
    db = tmp_path / "a.sqlite3"
    with app_client(db, **Clock().settings()) as client:
        codes = sign_up(client)["recovery_codes"]
        client.cookies.clear()
        assert main(["admin", "ban", "Ana", "--db", db_url_for(db)]) == 0
        answers = [client.post("/api/account/login", json={"name": "Ana", "password": p})
                   for p in (PASSWORD, "a wrong password")]
        answers += [client.post("/api/account/recover", json={
            "name": "Ana", "code": code, "password": "new password 1"})
            for code in (codes[0], "aaaa-aaaa-aaaa-aaaa")]
        assert [(r.status_code, r.json()) for r in answers] == [
            (403, {"error": {"code": "banned", "message": "this account is banned"}})] * 4
        assert SESSION_COOKIE not in client.cookies


def test_every_bot_name_and_kind_is_reserved():
    names = bot_names()
    assert {"random", "rule", "ismcts"} <= set(names)
    for name in names:
        with pytest.raises(ProtocolError) as refused:
            clean_account_name(name.upper())
        assert refused.value.code == "name_reserved"


def behind_a_proxy(db, **limits):
    """A client behind a trusted proxy: each request names its address (and scheme)."""
    proxy = ("10.0.0.1", 40000)
    settings = settings_for(db, limits=Limits(**(ROOMY | limits
                                                | {"trusted_proxies": [proxy[0]]})),
                            **Clock().settings())  # no bucket fills again meanwhile
    return AppClient(create_app(settings), client=proxy)


def test_log_in_limits_count_an_account_across_addresses_and_tls_behind_a_proxy(tmp_path):
    with behind_a_proxy(tmp_path / "a.sqlite3", login_burst=3, logins_per_minute=1) as client:
        sign_up(client)
        sign_up(client, "Bea")
        client.cookies.clear()
        for i in range(3):  # three addresses, one account
            res = client.post("/api/account/login", json={"name": "Ana", "password": "wrong one"},
                              headers={"X-Forwarded-For": f"198.51.100.{i}"})
            assert res.status_code == 403
        res = client.post("/api/account/login", json={"name": "ana", "password": PASSWORD},
                          headers={"X-Forwarded-For": "203.0.113.9"})
        assert res.status_code == 429 and "Retry-After" in res.headers  # a fourth address
        res = client.post("/api/account/login", json={"name": "Bea", "password": PASSWORD},
                          headers={"X-Forwarded-For": "203.0.113.9",
                                   "X-Forwarded-Proto": "https"})
        assert res.status_code == 200  # another account from there is free
        assert "Secure" in res.headers["set-cookie"]  # TLS ended at the proxy


def test_text_holding_a_nul_is_refused_before_it_reaches_the_database(tmp_path):
    """PostgreSQL's text cannot hold a NUL: a name looked up or a note stored with one
    failed there (500). Every request body, and a profile's name, refuses it as bad."""
    with app_client(tmp_path / "a.sqlite3") as client:
        sign_up(client)
        table_id = create(client, PEOPLE4)["table"]["id"]
        for path, body in [
                ("/api/account/login", {"name": "Ana\x00", "password": PASSWORD}),
                ("/api/account/recover", {"name": "\x00", "code": "x", "password": PASSWORD}),
                ("/api/account/reports", {"table": table_id, "seat": 1, "reason": "other",
                                          "note": "a\x00b"}),
                ("/api/tables", {"game": "spades", "seats": BOTS3, "name": "Ann",
                                 "options": {"\x00": 1}})]:
            res = client.post(path, json=body)
            assert res.status_code == 400, (path, res.text)
            assert res.json()["error"]["code"] == "bad_request" and "NUL" in res.text
        assert client.get("/api/players/Ana%00").status_code == 400
        assert whoami(client)["account"]["name"] == "Ana"
