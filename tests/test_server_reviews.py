"""Post-game reviews over HTTP: started once, worked out off the event loop with progress,
stored with the match (a second look and a restarted server answer at once), the same
review as ``parlour review`` gives, strict input and per-client limits."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from typing import Any

import pytest
from server_kit import BOTS3, ROOMY, Player, app_client, create
from waits import wait_until

from parlour.analysis.review import Reviewer, review_record
from parlour.record import parse_record, replay
from parlour.server.edge.limits import Limits
from parlour.server.play import reviews

BUDGET = 16
RULE4 = [{"kind": "bot", "bot": "rule"}] * 4
JUDGE = reviews.judge_turn  # the real one (some tests put another in its place)


def finished_table(client: Any, game: str = "spades", options: dict[str, Any] | None = None,
                   seats: list[dict[str, Any]] = RULE4) -> str:
    """A table of rule bots whose first match is over (Spades to 10 points: one deal)."""
    res = create(client, seats, options={"target": 10} if options is None else options,
                 game=game)
    tid = res["table"]["id"]
    watcher = Player(client, tid, None)
    watcher.recv_until(lambda m: m["type"] == "view" and m["status"] == "finished",
                       "the view that ends the match")
    watcher.close()
    return tid


#: Seconds a review may take: a whole match judged by the hard search, in a worker process
#: that starts first; a machine at a load of 18 took over 60.
REVIEW_WITHIN = 180.0


def wait_review(client: Any, path: str, seat: int, ends: str = "done") -> dict[str, Any]:
    """The review of ``seat`` once it ends (``done`` or ``failed``), which must be ``ends``;
    queued or running until then, its progress within its total."""
    seen: list[str] = []

    def ended() -> dict[str, Any] | None:
        got = client.get(f"{path}?seat={seat}").json()
        seen.append(got["status"])
        if got["status"] in ("done", "failed"):
            return got
        assert got["status"] in ("queued", "running") and 0 <= got["done"] <= got["total"]
        return None
    got = wait_until(ended, f"the review of seat {seat} to end", REVIEW_WITHIN)
    assert got["status"] == ends, seen
    return got


def wait_done(client: Any, path: str, seat: int) -> dict[str, Any]:
    return wait_review(client, path, seat)


def check_said_in_words(client: Any, path: str, done: dict[str, Any]) -> None:
    """Each decision's moves are said in words of the reader's language, as the replay's
    caption says them (``said``; the review itself keeps the notation)."""
    decisions = done["review"]["decisions"]
    assert decisions and sorted(done["said"]) == sorted(str(d["index"]) for d in decisions)
    told = client.get(f"{path}?seat=0", headers={"Accept-Language": "id"}).json()["said"]
    for d in decisions:
        said = done["said"][str(d["index"])]
        for key in ("played", "best"):
            # "bid 8" as "bidding 8 tricks", "9H" as "playing 9H" (the code kept for the chip)
            assert said[key] != d[key] and d[key].split()[-1] in said[key], (said, d)
            assert told[str(d["index"])][key] != said[key]  # Indonesian, not English


@pytest.mark.parametrize("processes", [0, 1])
def test_a_review_is_stored_with_the_match_and_matches_the_command(tmp_path, processes):
    db = tmp_path / "reviews.sqlite3"
    with app_client(db, review_budget=BUDGET, review_processes=processes) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        assert client.get(f"{path}?seat=0").json() == {"status": "none"}
        first = client.post(path, json={"seat": 0})
        assert first.status_code == 200, first.text
        assert first.json()["status"] in ("queued", "running")
        again = client.post(path, json={"seat": 0})  # idempotent: the same job
        assert again.json()["status"] in ("queued", "running", "done")
        done = wait_done(client, path, 0)
        review = done["review"]
        assert done["done"] == done["total"] > 0
        assert review["seats"] == [0] and review["budget"] == BUDGET
        assert review["reviewer"] == "ismcts:hard" and review["review_seed"] == 0
        record = client.get(f"/api/tables/{tid}/matches/1/record").text
        expected = review_record(parse_record(record), [0], budget=BUDGET, seed=0)
        assert review == expected.to_json()  # the command's review, decision for decision
        check_said_in_words(client, path, done)
        assert client.post(path, json={"seat": 0}).json() == done  # at once, no new job
        assert client.app.state.hub.reviews.jobs == {}
    with app_client(db, review_budget=BUDGET, review_processes=processes) as client:
        assert client.get(f"{path}?seat=0").json() == done  # kept over a restart
        assert client.get(f"{path}?seat=1").json() == {"status": "none"}


@pytest.mark.long_on("postgresql")  # the subject is the solver, not the database
def test_foursquare_is_reviewed_by_its_solver_whatever_the_budget(tmp_path, monkeypatch):
    """The server's budget goes to reviewers that take one: Foursquare's solver does not
    (its judgements are left out here: the solver at its strongest takes its time)."""
    budgets = set()

    def quick(game_id: str, budget: Any, *rest: Any) -> None:
        budgets.add((game_id, budget))
        return None

    monkeypatch.setattr(reviews, "judge_turn", quick)
    with app_client(tmp_path / "fs.sqlite3", review_budget=BUDGET,
                    review_processes=0) as client:
        tid = finished_table(client, "foursquare", {}, [{"kind": "bot", "bot": "rule"}])
        path = f"/api/tables/{tid}/matches/1/review"
        assert client.post(path, json={"seat": 0}).status_code == 200
        review = wait_done(client, path, 0)["review"]
        assert review["reviewer"] == "solver:strong" and review["budget"] == 0
        assert review["summaries"][0]["forced"] > 0
        assert budgets == {("foursquare", None)}


def test_bad_requests_get_clear_errors_and_change_nothing(tmp_path):
    with app_client(tmp_path / "bad.sqlite3", review_budget=BUDGET,
                    review_processes=0) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        for body in ({"seat": 4}, {"seat": -1}, {"seat": "0"}, {"seat": True}, {},
                     {"seat": 0, "budget": 1}, {"seat": 1.0}, [0]):
            res = client.post(path, json=body)
            assert res.status_code == 400, (body, res.text)
            assert set(res.json()["error"]) == {"code", "message"}
        assert client.get(f"{path}?seat=9").json()["error"]["code"] == "bad_seat"
        assert client.get(f"{path}?seat=x").status_code == 400
        assert client.get(path).status_code == 400  # the seat is required
        missing = client.post(f"/api/tables/{tid}/matches/7/review", json={"seat": 0})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        assert client.post("/api/tables/nosuch/matches/1/review",
                           json={"seat": 0}).status_code == 404
        assert client.app.state.hub.reviews.jobs == {}

        playing = create(client, BOTS3)["table"]["id"]  # a person seat: it waits for them
        res = client.post(f"/api/tables/{playing}/matches/1/review", json={"seat": 0})
        assert res.status_code == 409 and res.json()["error"]["code"] == "not_finished"

        assert client.app.state.hub.reviews.jobs == {}


def test_reviews_are_limited_per_client_and_the_queue_is_bounded(tmp_path, monkeypatch):
    gate = threading.Event()
    def held(*args: Any) -> Any:  # the decisions wait until the test lets them go
        gate.wait(30)
        return JUDGE(*args)

    monkeypatch.setattr(reviews, "judge_turn", held)
    limits = Limits(**(ROOMY | {"review_burst": 3}))
    with app_client(tmp_path / "limits.sqlite3", review_budget=BUDGET, review_processes=0,
                    review_jobs=2, review_jobs_per_client=2, limits=limits) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        try:
            assert client.post(path, json={"seat": 0}).json()["status"] == "queued"
            assert client.post(path, json={"seat": 0}).status_code == 200  # not counted
            assert client.post(path, json={"seat": 1}).status_code == 200
            busy = client.post(path, json={"seat": 2})  # the server's two jobs are taken
            assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
            assert int(busy.headers["retry-after"]) >= 1
            fast = client.post(path, json={"seat": 3})  # the burst of three is spent
            assert fast.status_code == 429 and fast.json()["error"]["code"] == "rate_limited"
            assert set(client.app.state.hub.reviews.jobs) == {(tid, 1, 0), (tid, 1, 1)}
            # the server answers while the reviews wait: nothing blocks the event loop
            assert client.get("/api/games").status_code == 200
        finally:
            gate.set()
        wait_done(client, path, 0)
        wait_done(client, path, 1)


def test_a_failed_review_says_so_and_may_be_asked_again(tmp_path, monkeypatch):
    def broken(*args: Any) -> Any:
        raise RuntimeError("the worker fell over")

    monkeypatch.setattr(reviews, "judge_turn", broken)
    with app_client(tmp_path / "fail.sqlite3", review_budget=BUDGET,
                    review_processes=0) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        client.post(path, json={"seat": 2})
        wait_review(client, path, 2, ends="failed")
        monkeypatch.setattr(reviews, "judge_turn", JUDGE)
        assert client.post(path, json={"seat": 2}).json()["status"] in ("queued", "running")
        assert wait_done(client, path, 2)["review"]["seats"] == [2]


def test_two_requests_at_once_start_one_review(tmp_path, monkeypatch):
    gate = threading.Event()

    def held(*args: Any) -> Any:
        gate.wait(30)
        return JUDGE(*args)

    monkeypatch.setattr(reviews, "judge_turn", held)
    with app_client(tmp_path / "race.sqlite3", review_budget=BUDGET,
                    review_processes=0) as client:
        tid = finished_table(client)
        hub, guard = client.app.state.hub, client.app.state.guard

        async def both() -> list[Any]:
            table = await hub.get(tid)
            return list(await asyncio.gather(
                hub.reviews.ask(table, 1, 0, "ip:192.0.2.1", guard),
                hub.reviews.ask(table, 1, 0, "ip:192.0.2.1", guard)))

        try:
            answers = client.portal.call(both)
            # the second answer may find the one job already running
            assert {a["status"] for a in answers} <= {"queued", "running"}
            jobs = hub.reviews.jobs
            assert list(jobs) == [(tid, 1, 0)]
            assert client.portal.call(_reviews_running) == 1
        finally:
            gate.set()
        wait_done(client, f"/api/tables/{tid}/matches/1/review", 0)


async def _reviews_running() -> int:
    """The review jobs running on the app's event loop (asked on that loop)."""
    return sum(t.get_coro().__qualname__ == "ReviewDesk._run" for t in asyncio.all_tasks())


# ----------------------------------------------------------------------------- try another move
def reviewed_table(client: Any) -> tuple[str, str, dict[str, Any]]:
    """A finished table whose seat 0 is reviewed: its id, the review's path, the answer."""
    tid = finished_table(client)
    path = f"/api/tables/{tid}/matches/1/review"
    assert client.post(path, json={"seat": 0}).status_code == 200
    return tid, path, wait_done(client, path, 0)


def a_choice_not_played(done: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A judged decision and one of its choices other than the move played."""
    for d in done["review"]["decisions"]:
        others = [a for a in d["chances"] if a != d["played"]]
        if others:
            return d, others[-1]
    raise AssertionError("no decision with a choice")


@pytest.mark.long_on("postgresql")  # the subject is the judgement, not the database
def test_another_move_is_judged_as_the_review_judges_from_the_seats_view(tmp_path):
    with app_client(tmp_path / "try.sqlite3", review_budget=BUDGET,
                    review_processes=1) as client:
        tid, path, done = reviewed_table(client)
        record = parse_record(client.get(f"/api/tables/{tid}/matches/1/record").text)
        decision, other = a_choice_not_played(done)
        index = decision["index"]
        res = client.post(f"{path}/try", json={"seat": 0, "index": index, "action": other})
        assert res.status_code == 200, res.text
        tried = res.json()["tried"]
        assert tried["played"] == other and tried["index"] == index and tried["seat"] == 0
        assert 0 <= tried["chance"] <= 1 and tried["mark"] in ("fine", "inaccuracy",
                                                                 "mistake", "blunder")
        # what the library gives for the same choice: the seat's observation, the review's
        # budget and seeds (so no card the seat could not see reaches the judgement)
        start = replay(record)
        state = start.game.new(start.seed, start.num_seats, **start.options)
        for seat, action in start.history[:index]:
            state.apply(action, seat)
        legal = {state.action_text(a): a for a in state.legal_actions(0)}
        expected = Reviewer("spades", BUDGET, 0).judge(state, 0, legal[other], index)
        assert expected is not None and tried == expected.to_json()
        said = res.json()["said"]
        assert other.split()[-1] in said["played"] and said["played"] != other  # in words
        # the move played, tried again, is the review's own judgement of it
        again = client.post(f"{path}/try", json={"seat": 0, "index": index,
                                                 "action": decision["played"]})
        assert again.json()["tried"] == decision
        # marked decisions list their choices in words, for the page to offer them
        for d in done["review"]["decisions"]:
            choices = done["said"][str(d["index"])].get("choices")
            assert (choices is None) == (d["mark"] == "fine")
            assert choices is None or sorted(choices) == sorted(d["chances"])


def test_bad_tries_get_clear_errors_and_change_nothing(tmp_path):
    with app_client(tmp_path / "badtry.sqlite3", review_budget=BUDGET,
                    review_processes=0) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        early = client.post(f"{path}/try", json={"seat": 0, "index": 0, "action": "bid 3"})
        assert early.status_code == 400 and early.json()["error"]["code"] == "not_reviewed"
        assert client.post(path, json={"seat": 0}).status_code == 200
        done = wait_done(client, path, 0)
        decision, other = a_choice_not_played(done)
        index = decision["index"]
        judged = {d["index"] for d in done["review"]["decisions"]}
        not_judged = next(i for i in range(200) if i not in judged)
        good = {"seat": 0, "index": index, "action": other}
        bad: list[tuple[Any, str | None]] = [
            (good | {"action": "ZZ"}, "bad_action"),
            (good | {"action": "bid 99"}, "bad_action"),
            (good | {"action": other.lower() + " "}, "bad_action"),
            (good | {"index": not_judged}, "bad_index"),
            (good | {"index": 10**6}, "bad_index"),
            (good | {"seat": 1}, "not_reviewed"),  # seat 1 has no review
            (good | {"seat": 4}, "bad_seat"),
            (good | {"seat": -1}, None), (good | {"seat": "0"}, None),
            (good | {"index": True}, None), (good | {"index": "3"}, None),
            (good | {"index": 1.5}, None), (good | {"index": -1}, None),
            (good | {"action": 3}, None), (good | {"action": ""}, None),
            (good | {"action": "x" * 61}, None), (good | {"action": "3\x00"}, None),
            (good | {"budget": 5}, None), ({"seat": 0, "index": index}, None),
            ([good], None), ("try", None),
        ]
        # and a seeded fuzz of the three fields: anything but a real choice is refused
        rng = random.Random(35)
        junk = [None, True, 0, -3, 2**40, 1.5, "", "0", "AS", "bid", "\u00e9\u00e9", [], {},
                other, other + "x", decision["played"].upper()]
        for _ in range(40):
            body = {k: rng.choice(junk) for k in ("seat", "index", "action")}
            if body == {"seat": 0, "index": index} | {"action": body["action"]} \
                    and body["action"] in decision["chances"]:
                continue
            bad.append((body, None))
        for body, code in bad:
            res = client.post(f"{path}/try", json=body)
            assert res.status_code in (400, 404), (body, res.text)
            error = res.json()["error"]
            assert set(error) == {"code", "message"} and error["message"], (body, error)
            if code is not None:
                assert error["code"] == code, (body, error)
        assert client.post(f"/api/tables/{tid}/matches/7/review/try",
                           json=good).json()["error"]["code"] == "not_found"
        desk = client.app.state.hub.reviews
        assert not desk._tried and not desk._trying and desk.jobs == {}
        assert client.get(f"{path}?seat=0").json() == done  # the review as it was


def test_tries_are_limited_per_client_and_the_same_try_is_free(tmp_path):
    limits = Limits(**(ROOMY | {"hint_burst": 2, "hints_per_minute": 0.01}))
    with app_client(tmp_path / "limtry.sqlite3", review_budget=BUDGET, review_processes=0,
                    limits=limits) as client:
        _, path, done = reviewed_table(client)
        decisions = [d for d in done["review"]["decisions"] if len(d["chances"]) > 2]
        d = decisions[0]
        choices = list(d["chances"])
        for action in choices[:2]:
            res = client.post(f"{path}/try", json={"seat": 0, "index": d["index"],
                                                   "action": action})
            assert res.status_code == 200, res.text
        fast = client.post(f"{path}/try", json={"seat": 0, "index": d["index"],
                                                "action": choices[2]})
        assert fast.status_code == 429 and fast.json()["error"]["code"] == "rate_limited"
        assert "trying moves too fast" in fast.json()["error"]["message"]
        assert int(fast.headers["retry-after"]) >= 1
        same = client.post(f"{path}/try", json={"seat": 0, "index": d["index"],
                                                "action": choices[0]})
        assert same.status_code == 200  # answered from memory, not counted


@pytest.mark.long_on("postgresql")  # the subject is the workers, not the database
def test_a_reviews_decisions_are_judged_side_by_side_on_every_worker(tmp_path, monkeypatch):
    """Both review workers take a decision each at once (never more), and ``done`` counts
    every decision; the judgements are put back in the match's order."""
    running, most, order, first = [0], [0], [], []
    second_done = asyncio.Event()

    async def judged(self: Any, game_id: str, budget: Any, state: Any, seat: int,
                     action: Any, index: int) -> Any:
        running[0] += 1
        most[0] = max(most[0], running[0])
        if not first:  # the first decision finishes after the second (out of order): it
            first.append(index)  # waits for it (they run side by side), at most 10 s
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(second_done.wait(), 10)
        else:
            await asyncio.sleep(0)
            second_done.set()
        running[0] -= 1
        order.append(index)
        return None  # as a forced decision: counted, not judged

    monkeypatch.setattr(reviews.ReviewDesk, "_judge", judged)
    with app_client(tmp_path / "sides.sqlite3", review_budget=BUDGET,
                    review_processes=2) as client:
        tid = finished_table(client)
        path = f"/api/tables/{tid}/matches/1/review"
        assert client.post(path, json={"seat": 1}).status_code == 200
        done = wait_done(client, path, 1)
        assert done["done"] == done["total"] == len(order) > 2
        assert most[0] == 2 and order != sorted(order)
        assert done["review"]["summaries"][0]["forced"] == len(order)
