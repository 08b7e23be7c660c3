"""The one plug-in point: every registered game passes the shared contract and has every
part a game needs, and a broken add-on raises instead of quietly degrading."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest
from contract import check_plugged_in, check_random_games
from rich.console import Console

from parlour import registry
from parlour.analysis import analysis_for
from parlour.bots import bot_kinds, hint_bot
from parlour.bots.ismcts import LEVELS, ISMCTSBot, SearchHooks
from parlour.engine import OptionError
from parlour.games import game_ids, get_game
from parlour.registry import GameSpec, spec
from parlour.server.play.match import check_deal
from parlour.server.play.pages import describer
from parlour.server.play.tables import describe_games
from parlour.terminal import load_ui

GAMES = game_ids()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_registered_game_keeps_the_contract(game_id):
    """Random short matches at the fewest and the most seats, every step checked, one in
    four deeply (illegal actions, clones, determinizations), each replayed from its record."""
    found = spec(game_id)
    game = found.game
    for seats in sorted({game.min_seats, game.max_seats}):
        states = check_random_games(game_id, 3, seed=5, deep_every=4, replay_every=1,
                                    seats=seats, **found.short_match)
        assert all(s.outcome is not None and s.num_seats == seats for s in states)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_registered_game_has_its_pages_and_tables(game_id):
    check_plugged_in(game_id)


def test_the_registry_lists_the_games_in_menu_order():
    assert GAMES == registry.GAMES and len(set(GAMES)) == len(GAMES)
    assert GAMES[:5] == ("spades", "spite-and-malice", "hit-the-deck", "clockwork-spades",
                         "foursquare")  # a new game comes after these (the lobby opens on Spades)
    assert [g["id"] for g in describe_games()] == list(GAMES)
    for gid in GAMES:
        assert spec(gid).id == gid
        assert get_game(gid) is spec(gid).game
    assert spec(" Spite_And_Malice ") is spec("spite-and-malice")
    with pytest.raises(OptionError, match="unknown game 'chess': expected one of spades, "):
        spec("chess")


def test_each_part_comes_from_the_spec():
    foursquare = spec("foursquare")
    assert hint_bot("foursquare") == "solver" and hint_bot("spades") is None
    assert list(bot_kinds("foursquare")) == ["random", "ismcts", "rule", "solver",
                                             "clairvoyant"]
    assert [gid for gid in GAMES if spec(gid).numbered_deals] == ["foursquare"]
    assert check_deal(foursquare.game, 12) == 12
    assert describer(get_game("clockwork-spades")) is spec("clockwork-spades").describe_event
    assert describer(get_game("spades")) is None
    assert analysis_for("foursquare") is foursquare.analysis()  # type: ignore[misc]
    with pytest.raises(OptionError, match=r"no analysis of Spades \(analyses: foursquare\)"):
        analysis_for("spades")
    info = {g["id"]: g for g in describe_games()}
    assert info["hit-the-deck"]["renderer"] == "games/hit_the_deck/table.js"
    assert [b["levels"] for b in info["foursquare"]["bots"] if b["kind"] == "solver"] == \
        [list(foursquare.bots["solver"].levels)]
    ui = load_ui(foursquare.game, Console(file=io.StringIO()), 0, 1)
    assert type(ui) is foursquare.terminal()


def test_the_search_hooks_reach_the_generic_bot():
    htd = spec("hit-the-deck").search
    assert htd is not None and htd.paired and htd.levels["easy"] == 300
    bot = ISMCTSBot(get_game("hit-the-deck"), 0, 1, level="easy")
    assert bot.paired and bot.iterations == 300 and bot.policy is htd.policy
    plain = ISMCTSBot(get_game("clockwork-spades"), 0, 1, level="hard")
    assert spec("clockwork-spades").search is None
    assert not plain.paired and plain.iterations == LEVELS["hard"]
    with pytest.raises(ValueError, match="search levels must be easy, normal, hard"):
        SearchHooks(levels={"easy": 1})


def test_a_broken_bots_module_raises_instead_of_giving_no_hints(monkeypatch):
    """Hidden from import, Foursquare's bots module makes every lookup of the game's
    add-ons raise; it used to turn into "no hints" and no solver."""
    monkeypatch.setitem(sys.modules, "parlour.games.foursquare.bots", None)
    monkeypatch.delitem(sys.modules, "parlour.games.foursquare.spec")  # built anew
    registry._build.cache_clear()
    try:
        with pytest.raises(ModuleNotFoundError, match=r"parlour\.games\.foursquare\.bots"):
            hint_bot("foursquare")
        with pytest.raises(ModuleNotFoundError):
            bot_kinds("foursquare")
    finally:
        monkeypatch.undo()
        registry._build.cache_clear()
    assert hint_bot("foursquare") == "solver"


def test_a_broken_terminal_table_raises_instead_of_drawing_the_generic_one(monkeypatch):
    monkeypatch.setitem(sys.modules, "parlour.games.spades.terminal", None)
    with pytest.raises(ModuleNotFoundError, match=r"parlour\.games\.spades\.terminal"):
        load_ui(get_game("spades"), Console(file=io.StringIO()), 0, 4)


def test_a_registered_game_whose_add_on_fails_to_import_raises(monkeypatch):
    def broken() -> GameSpec:
        from parlour.bots.no_such_game import BOTS  # type: ignore[import-not-found]
        return GameSpec(get_game("spades"), lambda: None,  # type: ignore[arg-type, return-value]
                        bots=BOTS)

    monkeypatch.setitem(registry.REGISTERED, "broken", broken)
    with pytest.raises(ModuleNotFoundError, match=r"parlour\.bots\.no_such_game"):
        spec("broken")
    with pytest.raises(ModuleNotFoundError):
        bot_kinds("broken")


def test_a_spec_must_name_a_hint_bot_it_has_and_be_registered_under_its_own_id(monkeypatch):
    with pytest.raises(ValueError, match="the hint bot 'solver' is not one of its bots"):
        GameSpec(get_game("spades"), lambda: None,  # type: ignore[arg-type, return-value]
                 hint_bot="solver")
    monkeypatch.setitem(registry.REGISTERED, "impostor", registry.REGISTERED["spades"])
    with pytest.raises(ValueError, match="registered as 'impostor' is 'spades'"):
        spec("impostor")


def test_importing_a_game_loads_nothing_above_the_engine():
    code = ("import sys; from parlour.games import get_game; get_game('spades').new(1); "
            "import parlour.games.foursquare.rules; "
            "print(sorted(m for m in sys.modules if m.startswith(('parlour.terminal', "
            "'parlour.server', 'parlour.analysis', 'rich'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_games_rules_load_nothing_of_its_folder_or_above_the_engine(game_id):
    """The rules module alone: none of the game's other parts (its spec, bots, tables),
    no bots, no server, no rich."""
    rules = f"parlour.games.{registry.folder_name(game_id)}.rules"
    code = (f"import sys; import {rules}; "
            "print(sorted(m for m in sys.modules if m.startswith(('parlour.bots', "
            "'parlour.terminal', 'parlour.server', 'parlour.analysis', 'parlour.stats', "
            "'parlour.rl', 'rich')) or (m.startswith('parlour.games.') and m.count('.') == 3 "
            f"and m != {rules!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_sixth_game_is_told_what_it_lacks(monkeypatch):
    """A game registered with its rules alone fails the plug-in checks, one instruction per
    missing part, and passes them once every part is there."""
    from dataclasses import replace

    from contract import missing_parts

    from parlour.games.spades.rules import SpadesGame
    from parlour.message import Term
    from parlour.terminal import TableUI

    sixth = type("SixthGame", (SpadesGame,), {"id": "sixth", "name": "Sixth"})()
    monkeypatch.setitem(registry.REGISTERED, "sixth", lambda: GameSpec(sixth, lambda: TableUI))
    registry._build.cache_clear()
    try:
        said = "\n".join(missing_parts("sixth"))
        for instruction in (
                r"sixth has no rules page: write .*games/sixth/full-rules/en\.md",
                r"sixth has no how-to page in en: write .*games/sixth/howto/en\.md",
                "sixth has no terminal table: .*own TableUI subclass",
                r"sixth has no web file: .*games/sixth/table\.js, which does not exist",
                r"sixth has no web file: .*games/sixth/picture\.js, which does not exist",
                "sixth has no rule bot: set GameSpec.bots",
                "sixth has no daily seats: set GameSpec.daily_seats in "
                "parlour/games/sixth/spec.py",
                "sixth has no turn seconds: set GameSpec.turn_seconds",
                "sixth has no bot ratings: set GameSpec.bot_elo",
                "sixth has no tagline", "sixth has no name in its vocabulary",
                "sixth has no learning encoder", "sixth has no profile figures",
                r"sixth has no compiled rules: put its rules in parlour/games/sixth/rules\.py",
                "sixth has no recorded results.*: set SAME_RESULTS in "
                r"parlour/games/sixth/checks\.py",
                r"sixth has no browser fit table.*: set BROWSER_FIT in .*sixth/checks\.py"):
            assert re.search(instruction, said), f"{instruction!r} not in:\n{said}"
        with pytest.raises(AssertionError, match="sixth has no daily seats"):
            check_plugged_in("sixth")
        # every part present (Spades' own, under the new id): only the folder's files lack
        whole = replace(spec("spades"), game=sixth, vocabulary=(Term("game", "Sixth"),))
        monkeypatch.setitem(registry.REGISTERED, "sixth", lambda: whole)
        registry._build.cache_clear()
        files = {"rules page", "how-to page in en", "how-to page in id", "how-to page in pt_BR",
                 "web file", "compiled rules"}
        left = [m for m in missing_parts("sixth") if m.split(":")[0].removeprefix(
            "sixth has no ") not in files and "parlour/games/sixth/checks.py" not in m]
        assert left == [], left
    finally:
        registry._build.cache_clear()
