"""A table's view messages (``Table.view_message``), built from pieces (the frame around the
view, encoded once a version; Spades' spectator part and each seat's part) are the message
encoded whole: at every version of seeded random matches of every game, for every seat and
the spectator, in every language, with a turn timer, a timed phase and narration where the
game has them."""

from __future__ import annotations

import random
import time

import orjson
import pytest

from parlour.engine import JsonDict, Seat
from parlour.games import game_ids, get_game
from parlour.i18n import LANGUAGES
from parlour.registry import spec
from parlour.server.edge.protocol import encode_bytes, localized
from parlour.server.play.pages import narration
from parlour.server.play.phase import OpenReaction
from parlour.server.play.table import SeatInfo, Table

ACTIONS = 80  # of each match: deals' ends, slaps and narrated events among them


def whole(table: Table, seat: Seat | None, lang: str) -> JsonDict:
    """The message as it was built before the pieces: the seat's whole view localized, in
    one dict, encoded in one call."""
    assert table.state is not None
    view = localized(table.state.view(seat), lang)
    message: JsonDict = {"type": "view", "table": table.id, "match": table.match,
                         "version": table.version, "status": table.status, "view": view.data}
    told = narration(table.game, view.data, lambda: table.narration_names(seat), lang)
    if told is not None:
        message["narration"] = told
    if table.reaction is not None:
        message["timed"] = table.reaction.to_json()
    if table.turn is not None:
        message["turn"] = table.turn
    parsed: JsonDict = orjson.loads(encode_bytes(message))
    return parsed


@pytest.mark.parametrize("game_id", game_ids())
def test_a_view_message_is_the_message_encoded_whole(game_id: str) -> None:
    game = get_game(game_id)
    seats = game.default_seats
    table = Table(f"t-{game_id}", game, seats, {}, time.time(),
                  [SeatInfo("person", name=f"p{i}", token_hash="x") for i in range(seats)],
                  status="playing", match=1)
    rng = random.Random(11)
    versions = narrated = timed = 0
    reacts = False
    for seed in range(200):  # seeded matches until enough versions (and a timed phase)
        if versions >= ACTIONS and (timed or not reacts):
            break
        state = game.new(seed, seats)
        for version in range(ACTIONS):
            if state.outcome is not None:
                break
            table.state, table.version, table.match = state.clone(), version, seed + 1
            reaction = state.reaction()
            reacts = reacts or reaction is not None
            table.reaction = (OpenReaction(reaction, f"phase-{version}")
                              if reaction is not None else None)
            table.turn = ({"seats": list(state.to_act), "seconds": 90,
                           "deadline": 1_700_000_000_000 + version} if version % 3 else None)
            table.refresh_views()
            for lang in LANGUAGES:
                for seat in [None, *range(seats)]:
                    got = table.view_message(seat, lang)
                    expected = whole(table, seat, lang)
                    parsed = orjson.loads(got)
                    assert parsed == expected, (seed, version, seat, lang)
                    assert list(parsed) == list(expected)  # the message's keys, in order
                    assert table.view_message(seat, lang) is got  # built once a version
                    narrated += "narration" in parsed
                    timed += "timed" in parsed
            versions += 1
            seat = state.to_act[0]
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
    assert versions >= ACTIONS
    if spec(game.id).describe_event is not None:
        assert narrated  # (these games narrate their automatic steps)
    if game_id == "hit-the-deck":
        assert timed  # its slap
