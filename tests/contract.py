"""Checks every game must pass, shared by each game's tests.

``check_random_games`` plays random games and checks the engine contract at every step
(sampled where a check is costly): views are JSON and carry no hidden information (a view
must not change when the cards its seat has not seen are redealt), illegal actions raise and
change nothing, clones are independent, determinizations agree with the seat's view, and a
replay from the seed and history reproduces the game. Game-specific invariants (cards
accounted for, scores) are passed in as ``invariant``. ``check_plugged_in`` checks the
parts a registered game needs beyond its rules. tests/test_registry.py runs both over every
registered game.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from parlour.engine import IllegalAction, NotationError, Outcome, State
from parlour.games import get_game
from parlour.record import parse_record, record_text, replay
from parlour.registry import spec
from parlour.terminal import TableUI

Invariant = Callable[[State], None]
#: Called with (state, seat or None, that seat's view, the view as JSON text): a game's
#: own leak check.
ViewCheck = Callable[[State, "int | None", dict[str, Any], str], None]


def snapshot(state: State) -> str:
    """Everything observable about a state: every seat's view, the spectator's, history."""
    views = [state.view(s) for s in range(state.num_seats)] + [state.view(None)]
    return json.dumps([views, state.history, state.to_act,
                       state.outcome.to_json() if state.outcome else None], sort_keys=True)


def check_step(state: State, rng: random.Random, deep: bool,
               view_check: ViewCheck | None = None) -> None:
    """Contract checks on one state; ``deep`` adds the costly ones."""
    to_act = state.to_act
    for seat in to_act:
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} must act but has no legal action"
        assert len(set(legal)) == len(legal), "legal actions repeat"
        for a in legal:
            assert 0 <= a < state.game.num_actions
    for seat in [*range(state.num_seats), None]:
        view = state.view(seat)
        text = json.dumps(view)
        if view_check:
            view_check(state, seat, view, text)
    if not deep:
        return
    before = snapshot(state)
    check_no_bool_action(state)
    check_seat_is_an_int(state)
    # An illegal action raises IllegalAction and changes nothing.
    if to_act:
        seat = to_act[0]
        legal = set(state.legal_actions(seat))
        illegal = [a for a in range(state.game.num_actions) if a not in legal]
        for a in [*rng.sample(illegal, min(3, len(illegal))), -1, state.game.num_actions]:
            with pytest.raises(IllegalAction) as err:
                state.apply(a, seat)
            assert str(err.value), "an illegal action needs a message"
            assert snapshot(state) == before
        others = [s for s in range(state.num_seats) if s not in to_act]
        if others:
            with pytest.raises(IllegalAction):
                state.apply(next(iter(legal)), others[0])
            assert snapshot(state) == before
    # Clones are independent.
    if to_act:
        twin = state.clone()
        assert snapshot(twin) == before
        seat = to_act[0]
        twin.apply(rng.choice(twin.legal_actions(seat)), seat)
        assert snapshot(state) == before
    # A determinization is indistinguishable to its seat, and views leak nothing hidden:
    # redealing what a seat has not seen must not change that seat's view.
    for seat in [*range(state.num_seats), None]:
        mine = json.dumps(state.view(seat), sort_keys=True)
        for k in range(2):
            det = state.determinize(seat, random.Random(rng.random() + k))
            assert json.dumps(det.view(seat), sort_keys=True) == mine, (
                f"determinize({seat}) changed what seat {seat} sees")
            assert det.to_act == state.to_act
            if seat is not None and seat in to_act:
                assert list(det.legal_actions(seat)) == list(state.legal_actions(seat))
    assert snapshot(state) == before, "determinize changed the state"


def play_checked(state: State, rng: random.Random, deep_every: int = 0,
                 invariant: Invariant | None = None, limit: int = 200_000,
                 view_check: ViewCheck | None = None) -> State:
    """Play random legal actions to the end, checking as we go; the deep checks run on
    about one step in ``deep_every`` (at random steps, so every phase gets its turn)."""
    steps = 0
    while state.to_act:
        deep = bool(deep_every) and rng.randrange(deep_every) == 0
        check_step(state, rng, deep, view_check)
        if invariant:
            invariant(state)
        seat = rng.choice(state.to_act)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        steps += 1
        assert steps < limit, "the game did not end"
    check_step(state, rng, bool(deep_every), view_check)
    if invariant:
        invariant(state)
    outcome = state.outcome
    assert isinstance(outcome, Outcome)
    assert len(outcome.points) == len(outcome.placing) == state.num_seats
    assert state.legal_actions() == () or list(state.legal_actions()) == []
    return state


def check_replay(state: State) -> None:
    """The seed, options and history rebuild the same game, directly and via a record."""
    again = state.game.replay(state.seed, state.num_seats, state.options, state.history)
    assert snapshot(again) == snapshot(state)
    text = record_text(state, ["bot"] * state.num_seats)
    assert snapshot(replay(parse_record(text))) == snapshot(state)


def check_notation(state: State) -> None:
    """Every legal action's text parses back to the same action."""
    for seat in state.to_act:
        for a in state.legal_actions(seat):
            assert state.parse_action(state.action_text(a)) == a


def check_random_games(game_id: str, games: int, seed: int = 0, deep_every: int = 0,
                       invariant: Invariant | None = None, replay_every: int = 10,
                       view_check: ViewCheck | None = None,
                       **new_kwargs: Any) -> list[State]:
    """Play ``games`` random games of ``game_id`` under the contract checks."""
    game = get_game(game_id)
    finished = []
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        state = game.new(seed * 100_003 + i, **new_kwargs)
        check_notation(state)
        play_checked(state, rng, deep_every, invariant, view_check=view_check)
        if replay_every and i % replay_every == 0:
            check_replay(state)
        finished.append(state)
    return finished


def missing_parts(game_id: str) -> list[str]:
    """What a registered game lacks of the parts every game has, one instruction per part
    ("sixth has no daily seats: set GameSpec.daily_seats in parlour/games/sixth/spec.py");
    empty when it has them all. Reads the spec and the game's folder only, so a new game
    is told here what to add (never a KeyError in a shared layer)."""
    from parlour import native
    from parlour.howto import page_path
    from parlour.i18n import LANGUAGES
    from parlour.message import Term
    from parlour.registry import folder_name

    found = spec(game_id)
    folder = f"parlour/games/{folder_name(game_id)}/"
    at = f"in {folder}spec.py"
    out: list[str] = []

    def lacks(part: str, instruction: str) -> None:
        out.append(f"{game_id} has no {part}: {instruction}")

    page = found.rules_page
    if not page.is_file():
        lacks("rules page", f"write {page}")
    elif not page.read_text(encoding="utf-8").startswith("# "):
        lacks("rules page title", f"start {page} with '# <title>'")
    for lang in LANGUAGES:
        if not page_path(game_id, lang).is_file():
            lacks(f"how-to page in {lang}", f"write {page_path(game_id, lang)}")
    table = found.terminal()
    if not (issubclass(table, TableUI) and table is not TableUI):
        lacks("terminal table", f"its terminal table must be its own TableUI subclass "
                                f"({folder}terminal.py, named by GameSpec.terminal)")
    else:
        drawn = io.StringIO()
        state = found.game.new(1)
        table(found.game, Console(file=drawn, width=100), 0, state.num_seats).render(
            state.view(0))
        if not drawn.getvalue().strip():
            lacks("terminal table drawing", f"its terminal table drew nothing "
                                            f"({folder}terminal.py)")
    for path in found.web_files():
        if not path.is_file():
            lacks("web file", f"it names {path}, which does not exist: write it "
                              f"(GameSpec.web, GameSpec.figures)")
    picture = found.folder / (found.web.picture or "picture.js")
    if picture.is_file() and "export function scene(" not in picture.read_text(encoding="utf-8"):
        lacks("lobby picture scene", f"{picture} must export scene(kit)")
    if found.web.picture is None:
        lacks("lobby picture", f"write {folder}picture.js exporting scene(kit) (GameSpec.web)")
    script = found.folder / found.web.script
    if script.is_file() and "export function mount(" not in script.read_text(encoding="utf-8"):
        lacks("web table mount", f"{script} must export mount(root, ctx)")
    if "rule" not in found.bots:
        lacks("rule bot", f"set GameSpec.bots = {{'rule': ...}} {at} (the daily deal's seats, "
                          f"the stand-in and the ratings' anchor are rule bots)")
    for kind in (k for k, cls in found.bots.items() if cls.at_tables):  # offered in the lobby
        if not any(key == kind or key.startswith(f"{kind}:") for key in found.bot_help):
            lacks(f"words for its {kind} bot", f"set GameSpec.bot_help[{kind!r}] = N_('...') "
                                               f"{at} (the lobby's tooltip)")
    if found.daily_seats is None:
        lacks("daily seats", f"set GameSpec.daily_seats {at}")
    if found.turn_seconds is None and not found.traits.solitaire:
        lacks("turn seconds", f"set GameSpec.turn_seconds {at}")
    if found.traits.rated_by == "openskill" and found.bot_elo.get("rule") != 0.0:
        lacks("bot ratings", f"set GameSpec.bot_elo {at}, the rule bot at 0.0 and each "
                             f"other kind measured as docs/bots.md says")
    if not found.tagline:
        lacks("tagline", f"set GameSpec.tagline = N_('...') {at}")
    if not found.presets or found.presets[0].id != "classic":
        lacks("classic preset", f"set GameSpec.presets {at}, the classic one first")
    if Term("game", found.game.name) not in found.vocabulary:
        lacks("name in its vocabulary", f"add Term('game', {found.game.name!r}) to "
                                        f"GameSpec.vocabulary {at}")
    if found.encoder is None:
        lacks("learning encoder", f"write {folder}encoding.py and set GameSpec.encoder {at}")
    if found.stats is None:
        lacks("profile figures", f"write {folder}stats.py and set GameSpec.stats {at}")
    from game_checks import missing as checks_missing

    out.extend(checks_missing(game_id))
    rules_module = f"parlour.games.{folder_name(game_id)}.rules"
    if rules_module not in native.MODULES:
        lacks("compiled rules", f"put its rules in {folder}rules.py (the compiled build "
                                f"compiles every game folder's rules.py)")
    return out


def check_plugged_in(game_id: str) -> None:
    """What a registered game needs beyond its rules: every part :func:`missing_parts`
    names."""
    missing = missing_parts(game_id)
    assert not missing, "\n".join(missing)


def check_no_bool_action(state: State) -> None:
    """A bool is never an action (``True == 1`` in Python): ``apply(True)`` and
    ``apply(False)`` raise :class:`IllegalAction` for every seat to act, and change
    nothing; ``action_text(True)`` raises :class:`NotationError`."""
    before = snapshot(state)
    for flag in (True, False):
        with pytest.raises(NotationError):
            state.game.action_text(flag)  # type: ignore[arg-type]
    for seat in [*state.to_act, None]:
        for flag in (True, False):
            with pytest.raises(IllegalAction):
                state.apply(flag, seat)  # type: ignore[arg-type]
            assert snapshot(state) == before, f"apply({flag}, {seat}) changed the state"


def check_seat_is_an_int(state: State) -> None:
    """A seat is checked exactly as an action is (issue 30 item 7): only a plain ``int``;
    ``True``, a NumPy integer, a float or text naming the seat to act raise
    :class:`IllegalAction` and change nothing, in the compiled build as in the pure one."""
    import numpy as np

    before = snapshot(state)
    for seat in state.to_act:
        action = state.legal_actions(seat)[0]
        for lookalike in (seat == 1, np.int64(seat), float(seat), str(seat)):
            if type(lookalike) is int:
                continue
            with pytest.raises(IllegalAction):
                state.apply(action, lookalike)  # type: ignore[arg-type]
            assert snapshot(state) == before, f"apply(.., {lookalike!r}) changed the state"


def check_determinized(state: State, rng: random.Random,
                       invariant: Invariant | None = None, tries: int = 4) -> None:
    """``determinize`` for every seat and for ``None`` makes a state that holds together
    on its own: the game's invariant holds in it; each seat to act there has legal actions,
    shown as such in its view; and applying any of them (up to ``tries``, at random) keeps
    the invariant (so every card stays in exactly one place) and a view that is JSON. The
    real state is left as it was."""
    before = snapshot(state)
    for seat in [*range(state.num_seats), None]:
        det = state.determinize(seat, random.Random(rng.getrandbits(32)))
        if invariant:
            invariant(det)
        assert det.to_act == state.to_act
        for actor in det.to_act:
            legal = list(det.legal_actions(actor))
            assert legal, f"determinize({seat}): seat {actor} must act but has no action"
            view = det.view(actor)
            json.dumps(view)
            assert view["legal"] == [det.action_text(a) for a in legal], (
                f"determinize({seat}): seat {actor}'s view disagrees with its legal actions")
            for action in rng.sample(legal, min(tries, len(legal))):
                twin = det.clone()
                twin.apply(action, actor)
                if invariant:
                    invariant(twin)
                json.dumps(twin.view(actor))
    assert snapshot(state) == before, "determinize changed the state"


def check_determinized_games(game_id: str, games: int, seed: int = 0,
                             invariant: Invariant | None = None, limit: int = 200_000,
                             **new_kwargs: Any) -> list[State]:
    """Play ``games`` random games of ``game_id`` and run :func:`check_determinized` and
    :func:`check_no_bool_action` at every step."""
    game = get_game(game_id)
    finished = []
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        state = game.new(seed * 100_003 + i, **new_kwargs)
        steps = 0
        while state.to_act:
            check_determinized(state, rng, invariant)
            check_no_bool_action(state)
            seat = rng.choice(state.to_act)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
            assert steps < limit, "the game did not end"
        check_determinized(state, rng, invariant)
        finished.append(state)
    return finished


#: Called with (state, seat, action, message) for an action ``seat`` may not take: checks
#: that the message gives the reason the rules refuse it (a game's own check).
Explains = Callable[[State, int, int, str], None]


def check_every_illegal_action_explained(state: State, explains: Explains) -> int:
    """Every action of the game's space that a seat to act may not take is refused with an
    explanation, which ``explains`` finds true of the state; nothing changes. Returns how
    many refusals were checked."""
    before = snapshot(state)
    checked = 0
    for seat in state.to_act:
        legal = set(state.legal_actions(seat))
        for action in range(state.game.num_actions):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as err:
                state.apply(action, seat)
            explains(state, seat, action, str(err.value))
            checked += 1
    assert snapshot(state) == before
    return checked


def check_explanations_games(game_id: str, games: int, explains: Explains, seed: int = 0,
                             **new_kwargs: Any) -> int:
    """:func:`check_every_illegal_action_explained` at every step of ``games`` random games;
    returns how many refusals were checked."""
    game = get_game(game_id)
    checked = 0
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        state = game.new(seed * 100_003 + i, **new_kwargs)
        while state.to_act:
            checked += check_every_illegal_action_explained(state, explains)
            seat = rng.choice(state.to_act)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return checked
