import json
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from parlour.cards import card_text
from parlour.cli import main
from parlour.record import read_record
from parlour.terminal import play

PARLOUR = [sys.executable, "-m", "parlour.cli"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PARLOUR, *args], input=stdin, capture_output=True, text=True,
                          timeout=600)


def test_play_through_standard_input_finishes_a_match(tmp_path):
    # Each prompt reads lines until one is legal: a bid, then every card in turn.
    cycle = ["bid 3"] + [card_text(c) for c in range(52)]
    stdin = "\n".join(cycle * 40) + "\n"
    done = run("play", "spades", "--seed", "3", "--option", "max_deals=1",
               "--record", str(tmp_path), stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "You are South." in done.stdout
    assert "Deal 1 scored" in done.stdout
    assert "take the match" in done.stdout or "drawn" in done.stdout
    assert "must follow" in done.stdout or "not broken" in done.stdout  # bad input answered
    _, state = read_record(tmp_path / "spades-3.txt")
    assert state.outcome is not None


def test_bad_input_is_answered_and_asked_again():
    done = run("play", "spades", "--seed", "3", stdin="bid 99\nhello\n?\n")
    assert "a bid is nil or 1 to 13" in done.stdout
    assert "not a Spades action: 'hello'" in done.stdout
    assert "Legal now:" in done.stdout
    assert done.returncode == 0  # end of input leaves the table cleanly


def test_ctrl_c_leaves_cleanly_and_offers_to_save(tmp_path):
    answers = iter(["bid 4", "y", str(tmp_path / "saved.txt")])
    interrupted = False

    def read(prompt: str) -> str:
        nonlocal interrupted
        if prompt.startswith("Your card") and not interrupted:
            interrupted = True
            raise KeyboardInterrupt
        return next(answers)

    console = Console(file=open("/dev/null", "w"), force_terminal=False)  # noqa: SIM115
    state = play("spades", seed=5, console=console, read_line=read)
    assert interrupted and state.outcome is None
    record, again = read_record(tmp_path / "saved.txt")
    assert again.history == state.history and record.tags["Result"] == "*"


def test_simulate_json_wins_add_up():
    done = run("simulate", "spades", "--games", "40", "--seed", "7", "--bots", "rule,random",
               "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for key in ("game", "games", "seed", "bots", "seconds", "games_per_second", "wins",
                "mean_points"):
        assert key in out
    assert out["games"] == 40 and out["bots"] == ["rule", "random", "rule", "random"]
    wins = out["wins"]
    assert wins[0] == wins[2] and wins[1] == wins[3]  # partners share a team's win
    assert wins[0] + wins[1] + out["draws"] == 40
    assert len(out["mean_points"]) == 4


def test_simulate_is_reproducible_and_jobs_do_not_change_results():
    one = json.loads(run("simulate", "spades", "--games", "8", "--seed", "2",
                         "--option", "max_deals=3", "--json").stdout)
    two = json.loads(run("simulate", "spades", "--games", "8", "--seed", "2", "--jobs", "2",
                         "--option", "max_deals=3", "--json").stdout)
    assert one["wins"] == two["wins"] and one["mean_points"] == two["mean_points"]


def test_simulate_writes_records_that_replay(tmp_path):
    assert main(["simulate", "spades", "--games", "3", "--option", "max_deals=2",
                 "--record", str(tmp_path), "--json"]) == 0
    files = sorted(Path(tmp_path).glob("*.txt"))
    assert len(files) == 3
    done = run("replay", str(files[0]), "--json")
    assert json.loads(done.stdout)["verified"] is True


def test_errors_are_clear_and_exit_nonzero():
    done = run("simulate", "spades", "--bots", "genius")
    assert done.returncode == 2 and "no 'genius' bot for spades" in done.stderr
    done = run("simulate", "spades", "--option", "target=lots")
    assert done.returncode == 2 and "option 'target' takes a whole number" in done.stderr
    done = run("play", "chess")
    assert done.returncode == 2 and "unknown game 'chess'" in done.stderr


def test_rules_and_games():
    done = run("rules", "spades", "--option", "target=300")
    assert done.returncode == 0 and "How to play Spades" in done.stdout
    assert "reach 300 points" in done.stdout and "parlour rules spades --full" in done.stdout
    done = run("rules", "spades", "--full")
    assert done.returncode == 0 and "Spades may not be led until broken" in done.stdout
    done = run("rules", "spades", "--option", "target=lots")
    assert done.returncode == 2 and "option 'target' takes a whole number" in done.stderr
    games = json.loads(run("games", "--json").stdout)
    assert games[0]["id"] == "spades" and games[0]["seats"] == [4, 4]
    assert any(o["name"] == "blind_nil" for o in games[0]["options"])


def test_serve_takes_the_table_settings_as_flags(tmp_path, monkeypatch):
    """The life of tables and bot capacity are `parlour serve` flags (docs/operations.md):
    each reaches the server's settings; a negative one is refused before anything starts."""
    import parlour.server.app as app

    got = {}
    monkeypatch.setattr(app, "serve", lambda *args, **kwargs: got.update(kwargs))
    db = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    assert main(["serve", "--db", db, "--waiting-expiry", "60", "--retention", "3600",
                 "--search-tables-per-client", "1"]) == 0
    assert {k: got[k] for k in ("waiting_expiry", "retention", "search_tables_per_client")} \
        == {"waiting_expiry": 60.0, "retention": 3600.0, "search_tables_per_client": 1}
    assert app.Settings(db_url=db, **{k: v for k, v in got.items() if k != "limits"}) \
        .waiting_expiry == 60.0
    got.clear()
    assert main(["serve", "--db", db, "--bot-queue", "-1"]) == 2
    assert got == {}
