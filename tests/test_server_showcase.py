"""What the lobby shows of each game: a line, presets that are the game's own options, and
options a player can read (a label in plain words, a phrase per choice, bounds)."""

from __future__ import annotations

import pytest

from parlour.games import game_ids, get_game
from parlour.server.play.tables import describe_games

GAMES = {g["id"]: g for g in describe_games()}


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_a_line_and_presets_made_of_its_own_options(game_id):
    info = GAMES[game_id]
    assert len(info["tagline"]) > 20 and info["tagline"].endswith(".")
    presets = info["presets"]
    assert presets[0] == {"id": "classic", "minutes": presets[0]["minutes"], "options": {}}
    assert len({p["id"] for p in presets}) == len(presets)
    game = get_game(game_id)
    defaults = game.resolve_options({})
    for preset in presets:
        assert preset["minutes"] > 0
        resolved = game.resolve_options(preset["options"])  # the game takes them
        changed = {k for k in resolved if resolved[k] != defaults[k]}
        assert changed == set(preset["options"])  # and each one changes something
    if len(presets) > 1:
        assert presets[1]["id"] == "quick" and presets[1]["minutes"] < presets[0]["minutes"]
    assert info["speeds"] == ["slow", "normal", "fast"]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_option_reads_as_plain_words_and_says_its_bounds(game_id):
    for opt in GAMES[game_id]["options"]:
        label = opt["label"]
        assert label and label[0].isupper() and "_" not in label and label != opt["name"]
        assert "OpenSpiel" not in opt["help"] and "safety stop" not in opt["help"]
        if opt["choices"] is not None and opt["type"] == "str":
            assert len(opt["choice_labels"]) == len(opt["choices"])
        if opt["type"] == "int" and opt["choices"] is None:
            assert opt["minimum"] is not None and opt["maximum"] is not None
            lo, hi = opt["minimum"], opt["maximum"]
            assert opt["default"] is None or lo <= opt["default"] <= hi
