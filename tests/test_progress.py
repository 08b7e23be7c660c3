"""Progress of the long commands (simulate, tournament, analyse, review): a plain line every
few seconds on standard error when it is no terminal, a rich bar when it is, and the
results the same either way."""

from __future__ import annotations

import io
import json
import re

import pytest

from parlour.analysis.review import review_record
from parlour.arena import play_game, tournament_size
from parlour.cli import main
from parlour.games import get_game
from parlour.progress import INTERVAL_VARIABLE, clock_text, progress
from parlour.record import parse_record, record_text


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_come_every_interval_with_the_count_and_the_time_left():
    out, clock = io.StringIO(), Clock()
    with progress("reviewing", "decisions", 10, stream=out, interval=5, clock=clock) as bar:
        for _ in range(9):
            clock.now += 2  # a step every 2 s: a line every third step (5 s have passed)
            bar.advance()
        clock.now += 2
        bar.advance()
    assert out.getvalue().splitlines() == [
        "reviewing: 0 of 10 decisions (0%)",
        "reviewing: 3 of 10 decisions (30%), about 0:14 left",  # 6 s for 3: 14 s for 7
        "reviewing: 6 of 10 decisions (60%), about 0:08 left",
        "reviewing: 9 of 10 decisions (90%), about 0:02 left",
        "reviewing: 10 of 10 decisions (100%) in 0:20",
    ]


def test_a_total_learnt_late_and_an_unknown_one():
    out, clock = io.StringIO(), Clock()
    with progress("reviewing", "decisions", stream=out, interval=60, clock=clock) as bar:
        bar.update(0, 4)  # the first news: the first line, with the total
        clock.now += 30
        bar.update(2, 4)  # within the interval: no line
    assert out.getvalue().splitlines() == ["reviewing: 0 of 4 decisions (0%)",
                                           "reviewing: 2 of 4 decisions (50%) in 0:30"]
    out = io.StringIO()
    with progress("playing", "games", stream=out, interval=0, clock=clock) as bar:
        bar.advance(3)
    assert out.getvalue().splitlines() == ["playing: 3 games", "playing: 3 games in 0:00"]


def test_failed_work_leaves_no_last_line():
    out = io.StringIO()
    with pytest.raises(RuntimeError), progress("x", "steps", 3, stream=out, interval=0) as bar:
        bar.advance()
        raise RuntimeError
    assert out.getvalue().splitlines() == ["x: 0 of 3 steps (0%)",
                                           "x: 1 of 3 steps (33%), about 0:00 left"]


def test_clock_text():
    assert [clock_text(s) for s in (0, 0.4, 26, 59.6, 725, 3723)] == [
        "0:00", "0:00", "0:26", "1:00", "12:05", "1:02:03"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_rich_bar(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    out = Terminal()
    with progress("counting", "steps", 2, stream=out, interval=0) as bar:
        bar.advance(2)
    text = out.getvalue()
    assert "\x1b[" in text and "2/2" in text and "steps" in text  # drawn, not a plain line
    assert "counting: " not in text


def _lines(err: str, label: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(label + ": ")]


def test_simulate_and_tournament_tell_their_progress_piped(capsys, monkeypatch):
    assert main(["simulate", "spades", "--games", "3", "--option", "max_deals=1",
                 "--json"]) == 0
    quiet = capsys.readouterr()
    monkeypatch.setenv(INTERVAL_VARIABLE, "0")
    assert main(["simulate", "spades", "--games", "3", "--option", "max_deals=1",
                 "--json"]) == 0
    told = capsys.readouterr()
    lines = _lines(told.err, "simulating Spades")
    assert lines[0] == "simulating Spades: 0 of 3 games (0%)"
    assert [re.sub(r"(,| in).*", "", line) for line in lines[1:]] == [
        "simulating Spades: 1 of 3 games (33%)", "simulating Spades: 2 of 3 games (67%)",
        "simulating Spades: 3 of 3 games (100%)"]
    timing = ("seconds", "games_per_second")
    same = [{k: v for k, v in json.loads(out).items() if k not in timing}
            for out in (quiet.out, told.out)]
    assert same[0] == same[1]  # progress is display only
    assert main(["tournament", "spades", "--bots", "rule,random", "--games", "3",
                 "--option", "max_deals=1", "--jobs", "1", "--json"]) == 0
    told = capsys.readouterr()
    played = json.loads(told.out)["games"]
    assert played == tournament_size(["rule", "random"], 3) == 4
    assert _lines(told.err, "Spades: rule vs random")[-1].startswith(
        f"Spades: rule vs random: {played} of {played} games (100%) in ")


def test_the_foursquare_analysis_tells_each_deal_as_it_arrives(capsys, monkeypatch):
    monkeypatch.setenv(INTERVAL_VARIABLE, "0")
    args = ["analyse", "foursquare", "--games", "4", "--bots", "rule", "--budget", "2000",
            "--json"]
    summaries = []
    for jobs in ("1", "2"):
        assert main([*args, "--jobs", jobs]) == 0
        told = capsys.readouterr()
        counts = [int(re.search(r": (\d+) of 4 deals", line).group(1))  # type: ignore[union-attr]
                  for line in _lines(told.err, "analysing Foursquare")]
        assert counts == [0, 1, 2, 3, 4], jobs  # one line a deal, then the last
        summary = json.loads(told.out)
        summary.pop("seconds")
        summaries.append(summary)
    assert summaries[0] == summaries[1]


def test_review_tells_each_decision_and_its_result_is_the_same(tmp_path, capsys, monkeypatch):
    match = play_game(get_game("spades"), 5, ["rule"], {"max_deals": 1})
    path = tmp_path / "short.txt"
    path.write_text(record_text(match, ["a", "b", "c", "d"]))
    monkeypatch.setenv(INTERVAL_VARIABLE, "0")
    assert main(["review", str(path), "--seat", "1", "--budget", "8", "--json"]) == 0
    told = capsys.readouterr()
    decisions = sum(seat == 1 for seat, _ in match.history)
    lines = _lines(told.err, "reviewing short.txt")
    assert lines[0] == f"reviewing short.txt: 0 of {decisions} decisions (0%)"
    assert len(lines) == decisions + 1
    assert lines[-1].startswith(f"reviewing short.txt: {decisions} of {decisions} decisions "
                                "(100%) in ")
    expected = review_record(parse_record(path.read_text()), [1], budget=8)
    assert json.loads(told.out) == expected.to_json()


def test_a_bad_interval_is_refused_clearly(capsys, monkeypatch):
    monkeypatch.setenv(INTERVAL_VARIABLE, "soon")
    assert main(["simulate", "spades", "--games", "1", "--json"]) == 2
    told = capsys.readouterr()
    assert "PARLOUR_PROGRESS_SECONDS is a number of seconds, 0 or more, not 'soon'" in told.err
    assert told.out == ""
