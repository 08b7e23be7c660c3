"""Every seeded game, bot game and environment episode plays exactly as before the speed
work (issue 20): the digests below were taken on main before any hot path was changed."""

import pytest
from same_results import KINDS

from parlour.games import game_ids

EXPECTED = {
    "clockwork-spades": {"bots": "2007877cd9aef8dc", "random": "3d0be1575a10e53b",
                         "rl": "4dd51ecc6f8038ca"},
    "foursquare": {"bots": "abc8728e20472d2f", "random": "04ff2ad70c859e5d",
                   "rl": "35b028563f76ab46"},
    "hit-the-deck": {"bots": "c63206461d460575", "random": "f911c29929e8e923",
                     "rl": "7035da52ff00784c"},
    "spades": {"bots": "f574086cf9499cc3", "random": "96ee724c28545e27",
               "rl": "d9560c216c4aac1c"},
    "spite-and-malice": {"bots": "ecfe781815239368", "random": "7cd2a5231453d8f1",
                         "rl": "643eb0e48b9a36bd"},
}


def test_every_game_has_digests():
    assert set(EXPECTED) == set(game_ids())


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("game_id", sorted(EXPECTED))
def test_seeded_play_is_unchanged(game_id, kind):
    assert KINDS[kind](game_id) == EXPECTED[game_id][kind]
