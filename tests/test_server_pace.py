"""A table's speed paces its bots and automatic steps, never its game: tested by the waits
the server asks for, not by the clock."""

from __future__ import annotations

import pytest
from server_kit import Player, app_client

from parlour.server.edge.protocol import ProtocolError
from parlour.server.play.pace import PACES, SPEEDS, bot_wait, check_speed, pace_json, step_ms
from parlour.server.play.table import Table

pytestmark = pytest.mark.long_on("postgresql")  # the subject is the bots' pace, not the database

BOTS2 = [{"kind": "bot", "bot": "rule"}, {"kind": "bot", "bot": "rule"}]


def test_slower_speeds_wait_longer_and_no_pause_waits_for_nothing():
    for steps in (0, 1, 5):
        slow, normal, fast = (bot_wait(0.8, s, steps) for s in SPEEDS)
        assert slow > normal > fast > 0
        assert all(bot_wait(0.0, s, steps) == 0 for s in SPEEDS)
    assert bot_wait(0.8, "normal") == pytest.approx(0.8)
    # each automatic step told adds its share: a cascade of six is shown one by one
    assert bot_wait(0.8, "slow", 6) - bot_wait(0.8, "slow", 0) == pytest.approx(6 * 0.8)
    assert step_ms(0.8, "slow") > step_ms(0.8, "normal") > step_ms(0.8, "fast")
    assert pace_json(0.8, "fast") == {"speed": "fast", "step_ms": 80,
                                      "reading_ms": PACES["fast"].reading_ms}


def open_clockwork(client, speed=None, seats=BOTS2):
    body = {"game": "clockwork-spades", "seats": seats}
    if speed is not None:
        body["speed"] = speed
    return client.post("/api/tables", json=body)


def test_the_bots_wait_what_the_tables_speed_asks_and_play_the_same_game(tmp_path,
                                                                         monkeypatch):
    """Two tables of the same bots dealt the same seed, one slow and one fast: before each
    bot move the server asks for the speed's wait plus a share for each automatic step the
    view tells, the runner waits that (less the bot's thinking), and the two games are move
    for move the same."""
    asked: list[tuple[str, int, float]] = []  # speed, steps told, seconds asked
    paced = Table.bot_wait

    def bot_wait_recorded(table: Table) -> float:
        events = table.state.view(None).get("events") if table.state is not None else None
        seconds = paced(table)
        asked.append((table.speed, len(events or ()), seconds))
        return seconds
    monkeypatch.setattr(Table, "bot_wait", bot_wait_recorded)
    records, waited = {}, {}
    for speed in ("slow", "fast"):
        waits: list[float] = []
        with app_client(tmp_path / f"{speed}.sqlite3", bot_pause=1.0, new_seed=lambda: 5) as c:

            async def record(seconds: float, waits=waits) -> None:
                waits.append(seconds)
            c.app.state.hub.runner.wait = record
            res = open_clockwork(c, speed)
            assert res.status_code == 201
            table = res.json()["table"]
            assert table["pace"]["speed"] == speed
            watcher = Player(c, table["id"], None)
            watcher.recv_until(lambda m: m["type"] == "view" and m["status"] == "finished",
                               "the view that ends the match")
            watcher.close()
            text = c.get(f"/api/tables/{table['id']}/matches/1/record").text
            records[speed] = text.replace(table["id"], "<table>")
            waited[speed] = waits
    assert records["slow"] == records["fast"]
    slow = [a for a in asked if a[0] == "slow"]
    fast = [a for a in asked if a[0] == "fast"]
    assert len(slow) == len(fast) > 0
    assert [a[1] for a in slow] == [a[1] for a in fast]  # the same views told the same steps
    assert any(steps > 1 for _, steps, _ in slow)  # cascades were told
    for (_, steps, s), (_, _, f) in zip(slow, fast, strict=True):
        assert s == pytest.approx(2.0 + 1.0 * steps) and f == pytest.approx(0.35 + 0.1 * steps)
    # each slow move waited out what it asked, less its thinking (a rule bot thinks far
    # less than 2 s); a fast one may have thought longer than its wait, and then waits not
    assert all(0 < w <= a[2] for w, a in zip(waited["slow"], slow, strict=True))
    assert 0 < len(waited["fast"]) <= len(fast)
    assert all(0 < w <= max(a[2] for a in fast) for w in waited["fast"])


def test_a_speed_is_one_of_three_and_a_wrong_one_opens_nothing(tmp_path):
    with app_client(tmp_path / "bad.sqlite3") as client:
        before = client.get("/api/tables").json()["tables"]
        for bad in ("warp", "", "SLOW", 3, True, ["slow"]):
            res = open_clockwork(client, bad)
            assert res.status_code == 400 and res.json()["error"], bad
        assert client.get("/api/tables").json()["tables"] == before
        default = client.post("/api/tables", json={"game": "clockwork-spades", "name": "Ann",
                                                   "seats": [{"kind": "person"}, BOTS2[0]]})
        assert default.json()["table"]["pace"]["speed"] == "normal"
    for bad in ("warp", 1, None):
        if bad is None:
            assert check_speed(bad) == "normal"
        else:
            with pytest.raises(ProtocolError):
                check_speed(bad)


def test_a_tables_speed_outlives_a_restart(tmp_path):
    db = tmp_path / "kept.sqlite3"
    with app_client(db) as client:
        res = client.post("/api/tables", json={"game": "spades", "name": "Ann", "speed": "slow",
                                               "seats": [{"kind": "person"}] * 2 + BOTS2})
        tid = res.json()["table"]["id"]
    with app_client(db) as client:
        assert client.get(f"/api/tables/{tid}").json()["table"]["pace"]["speed"] == "slow"
