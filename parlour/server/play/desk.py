"""A table's desk: what a table gives besides its play. Hints while a match is on (from
the game's hint bot, thinking off the event loop like a bot seat), and once a match is
over its replay step by step and its record. (Post-game reviews have their own desk:
:mod:`parlour.server.play.reviews`.)
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Awaitable, Callable

from parlour.bots import bot_kinds, hint_bot, observe
from parlour.engine import JsonDict, Seat, State
from parlour.i18n import localize, render
from parlour.message import message_to_json
from parlour.record import record_text
from parlour.server.edge.protocol import ProtocolError, Stale
from parlour.server.people.daily import day_over
from parlour.server.play.pages import action_words, narration
from parlour.server.play.room import Room
from parlour.server.play.table import Table, not_playing


class Desk:
    """Hints, replays and records, at every table of the room."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def check_watchable(self, table: Table) -> None:
        """A daily deal may not be watched before its day is over: a spectator would see
        the cards someone else is about to play."""
        if table.daily is not None and not day_over(table.daily, self.room.settings.now()):
            raise ProtocolError("daily_secret", "a daily deal can be watched once its day is "
                                                "over (UTC)")

    async def hint(self, table: Table, seat: Seat, version: int | None,
                   limit: Callable[[], Awaitable[None]] | None = None) -> JsonDict:
        """The game's hint bot's advice for ``seat`` at the current version (its spec's
        ``hint_bot``, else ``ismcts``): its choice, its estimated chance to win (if its
        values are chances) and the best few values. ``limit()`` is awaited before new
        work starts (the client's hint rate: it raises to refuse).

        The bot gets the seat's :class:`Observation` (its view, and a determinization if it
        samples), never the state, and thinks off the event loop like a bot seat. One
        answer per seat and version: asking again while it thinks waits for the same one."""
        key = self._hint_key(table, seat, version)
        if key not in table.asked and limit is not None:
            await limit()
            key = self._hint_key(table, seat, version)  # the table may have moved on
        pending = table.asked.get(key)
        if pending is None:
            state = table.state
            assert state is not None
            table.asked = {k: f for k, f in table.asked.items() if k[:2] == key[:2]}
            cls = bot_kinds(table.game.id)[hint_bot(table.game.id) or "ismcts"]
            obs = observe(state, seat, random.Random(secrets.randbits(63)), view=True,
                          sample=cls.needs_sample)

            async def advise() -> JsonDict:  # the advice, and its move in words (any language)
                answer = await self.room.runner.advise(table, obs, cls.needs_sample)
                said = action_words(table.game, obs.view, answer["action"])
                return answer | {"words": message_to_json(said)}

            pending = table.asked[key] = asyncio.ensure_future(advise())
            pending.add_done_callback(lambda f: f.cancelled() or f.exception())
        answer = await asyncio.shield(pending)
        return {"type": "hint", "match": key[0], "version": key[1], **answer}

    @staticmethod
    def _hint_key(table: Table, seat: Seat, version: int | None) -> tuple[int, int, Seat]:
        """The hint ``seat`` may ask for now (match, version, seat), or the refusal."""
        if not table.hints:
            raise ProtocolError("no_hint", "this table gives no hints")
        state = table.state
        if table.status != "playing" or state is None:
            raise not_playing(table)
        if version is not None and version != table.version:
            raise Stale(version, table.version)
        if seat not in state.to_act or not state.legal_actions(seat):
            raise ProtocolError("no_hint", "there is nothing for you to do now")
        return table.match, table.version, seat

    # ------------------------------------------------------------------ records
    async def finished_state(self, table: Table, match: int) -> State:
        info = table.matches.get(match)
        if info is None:
            raise ProtocolError("not_found", "this table has no match {match}", match=match)
        if table.daily is not None and not day_over(table.daily, self.room.settings.now()):
            raise ProtocolError("daily_secret", "the records of a daily deal open when its day "
                                                "is over (UTC)")
        if not info.finished:
            raise ProtocolError("not_finished", "a record can be had once the match is over")
        if match == table.match and table.state is not None and table.state.is_over:
            return table.state
        row = await asyncio.to_thread(self.room.store.load_table, table.id)
        actions = await asyncio.to_thread(self.room.store.load_actions, table.id, match)
        assert row is not None
        seed = row.matches[match].seed
        state = table.game.new(seed, table.num_seats, **table.options)
        for seat, text in actions:
            state.apply(state.parse_action(text), seat)
        return state

    async def replay(self, table: Table, match: int, step: int, seat: Seat | None,
                     lang: str = "en") -> JsonDict:
        """Finished match ``match`` as ``seat`` saw it after ``step`` actions (spectators
        for None; the last step if ``step`` is out of range): the view, the action that
        led there, and the game's narration of it."""
        final = await self.finished_state(table, match)
        if seat is not None and not 0 <= seat < table.num_seats:
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
        history = final.history
        if step < 0 or step > len(history):
            step = len(history)
        # the state before the step's move (its words read the mover's view then), and after
        state = table.game.new(final.seed, table.num_seats, **table.options)
        for s, a in history[:max(0, step - 1)]:
            state.apply(a, s)
        last = history[step - 1] if step else None
        action: JsonDict | None = None
        if last is not None:
            text = table.game.action_text(last[1])
            action = {"seat": last[0], "text": text, "words": render(
                action_words(table.game, state.view(last[0]), text), lang)}
            state.apply(last[1], last[0])
        view = localize(state.view(seat), lang)
        answer: JsonDict = {"steps": len(history), "step": step, "seat": seat,
                            "action": action, "view": view, "deal": table.matches[match].deal}
        told = narration(table.game, view, table.narration_names, lang)
        if told is not None:
            answer["narration"] = told
        return answer

    async def record(self, table: Table, match: int) -> str:
        state = await self.finished_state(table, match)
        comment = f"Parlour table {table.id}, match {match}"
        return record_text(state, table.player_names(), comment=comment)
