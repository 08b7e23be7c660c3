"""A table's play: its deals, the moves handed in, and the end of a match.

Actions from people and from bots go through one path, :meth:`Play.submit`, under the
table's lock, so a table changes one action at a time whatever its number of clients. Bots
are played by the :class:`~parlour.server.play.runner.BotRunner` (they get an
:class:`~parlour.bots.Observation`, never the state, and wait out a short pause so people
can follow the play); timed phases are timed by the
:class:`~parlour.server.play.clock.ReactionClock`. Both hand their moves in through ``submit``.
Each change is committed to the database first, then applied in memory, then broadcast.
"""

from __future__ import annotations

import asyncio
import logging
import random

from parlour.bots import make_bot
from parlour.engine import Game, IllegalAction, NotationError, Seat, derive_seed
from parlour.message import Term
from parlour.registry import spec
from parlour.server.cluster.outages import DATABASE
from parlour.server.edge.protocol import ProtocolError, Stale
from parlour.server.people.daily import daily_seed
from parlour.server.people.players import Finished, SeatKind, op_finished
from parlour.server.play.clock import RETRY_FIRST, RETRY_MOST
from parlour.server.play.correspondence import with_awaiting
from parlour.server.play.room import Room
from parlour.server.play.table import MatchInfo, Table, not_playing, reason_of
from parlour.server.play.turns import STAND_IN
from parlour.server.storage.store import Fenced, Store, StoreError

log = logging.getLogger("parlour.server")

#: Games dealt by number (their spec's ``numbered_deals``): each match has a public deal
#: number (1 to MAX_DEAL) and its seed is derived from it and the server's secret deal key,
#: so that the same number gives the same deal on this server (restarts included) while the
#: number tells nothing of the deal.
MAX_DEAL = 1_000_000


def deal_seed(key: str, game_id: str, deal: int) -> int:
    """The seed of deal number ``deal`` of ``game_id`` on the server whose key is ``key``."""
    return derive_seed(key, f"{game_id}-deal", deal)


def check_deal(game: Game, deal: object) -> int | None:
    """A deal number asked for at ``game``'s table: None, or a number this game takes."""
    if deal is None:
        return None
    if not spec(game.id).numbered_deals:
        raise ProtocolError("bad_deal", "{game} is not dealt by number",
                            game=Term("game", game.name))
    if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= MAX_DEAL:
        raise ProtocolError("bad_deal", "a deal number is a whole number from 1 to {most}",
                            most=MAX_DEAL)
    return deal



class Play:
    """Deals, moves and the ends of matches, at every table of the room."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def begin(self, table: Table, seed: int) -> None:
        """Set up the match ``table.match`` in memory (state and bots) from its seed."""
        for timer in table.forfeits.values():  # the match before's
            timer.cancel()
        table.forfeits.clear()
        table.absent_accounts.clear()
        table.seed = seed
        table.state = table.game.new(seed, table.num_seats, **table.options)
        table.version = 0
        # At a daily deal the cards are everyone's, the bots' seeds this try's own: their
        # chance choices do not repeat another try's (docs/players.md).
        bots_seed = derive_seed(seed, "daily try", table.id) if table.daily else seed
        table.bot_rng = random.Random(derive_seed(bots_seed, "observe"))
        table.bots = {i: make_bot(table.game, s.bot or "random", i,
                                  derive_seed(bots_seed, "bot", i))
                      for i, s in enumerate(table.seats) if s.kind == "bot"}
        table.standins = {i for i, s in enumerate(table.seats)  # a freed seat: a bot plays it
                          if s.kind == "person" and s.token_hash is None}
        for i in table.standins:
            table.bots[i] = make_bot(table.game, STAND_IN, i, derive_seed(seed, "stand-in", i))

    async def start(self, table: Table) -> None:
        """Deal a new match at a table whose seats are all filled."""
        async with table.lock:
            if table.status in ("playing", "closed", "moved") \
                    or (table.status == "waiting" and table.free_seats()):
                return
            match = table.match + 1
            deal = None
            if table.daily is not None:
                seed = daily_seed(self.room.store.deal_key, table.game.id, table.daily)
            elif spec(table.game.id).numbered_deals:
                deal = table.next_deal or self.room.settings.new_seed() % MAX_DEAL + 1
                seed = deal_seed(self.room.store.deal_key, table.game.id, deal)
            else:
                seed = self.room.settings.new_seed()
            # A game may be over at the deal (Clockwork Spades can end with no decision).
            fresh = table.game.new(seed, table.num_seats, **table.options)
            dealt = fresh.outcome
            result = dealt.text() if dealt is not None else None
            now = self.room.settings.now()
            await self.room.write(with_awaiting(
                table, Store.op_start_match(table.id, match, seed, result, deal, now),
                fresh, result is not None, now), table)
            table.next_deal = None
            table.match = match
            table.status = "playing" if result is None else "finished"
            table.matches[match] = MatchInfo(match, result is not None, result, deal)
            self.begin(table, seed)
            table.acted_at = asyncio.get_running_loop().time()
            self.room.clock.sync(table)
            self.room.turns.restart(table)
            log.info("table %s: match %d started", table.id, match)
        if result is not None:
            await self.finished(table)
        table.broadcast_table()
        table.broadcast_views()
        self.room.on_turn(table)
        self.room.clock.start(table)
        self.room.schedule_bots(table)

    async def start_or_retry(self, table: Table) -> None:
        """Deal the first match of a table whose seats have just filled. The seat is
        committed already, so a database that refuses the deal does not undo it: the deal
        is tried again (logged, after a growing pause) until it is saved."""
        try:
            await self.start(table)
        except ProtocolError as err:
            if err.code != "unavailable":
                raise
            self.room.keep(self._retry_start(table))

    async def _retry_start(self, table: Table) -> None:
        pause = RETRY_FIRST
        while table.status == "waiting" and not table.free_seats():
            if not self.room.outages.down(DATABASE):  # an outage is logged once, as such
                log.warning("table %s: the database refused the deal; trying again in "
                            "%.1f s", table.id, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MOST)
            try:
                await self.start(table)
            except ProtocolError as err:
                if err.code != "unavailable":
                    return

    async def again(self, table: Table, seat: Seat | None) -> None:
        """Play another match with the same seats, once the last one is over."""
        if table.status != "finished":
            if table.status == "playing":
                raise ProtocolError("not_finished", "the match is still being played")
            raise ProtocolError("not_finished", "the table has not started")
        if table.daily is not None:
            raise ProtocolError("daily_once", "a daily deal is played once: tomorrow brings "
                                              "the next")
        if seat is None and table.has_people():
            raise ProtocolError("not_seated", "only a player at this table can deal again")
        if seat is None and not table.conns:
            raise ProtocolError("not_watched", "a table of bots deals again only while "
                                               "someone watches it")
        await self.start(table)
        self.room.on_again(table, seat)

    def parse_intent(self, table: Table, text: str) -> int:
        try:
            return table.game.parse_action(text)
        except (NotationError, ValueError) as err:
            raise ProtocolError("unknown_action", reason_of(err)) from None

    async def submit(self, table: Table, seat: Seat, action: int, version: int | None,
                     phase: str | None = None, person: bool = False) -> None:
        """Apply ``action`` for ``seat`` if the rules allow it: commit, apply, broadcast.

        ``phase`` names the timed phase an answer is for (then ``version`` is not checked:
        the others' answers move the version on). A ``person`` may not send a timed
        phase's action as an ordinary intent: the server times it (:meth:`react`)."""
        async with table.lock:
            state = table.state
            if table.status != "playing" or state is None:
                raise not_playing(table)
            timed = table.reaction
            if phase is not None:
                if timed is None or timed.id != phase:
                    if timed is None:
                        raise ProtocolError("wrong_phase", "that moment is over")
                    raise ProtocolError("wrong_phase", "that is not the {reaction} now open",
                                        reaction=Term("reaction", timed.reaction.name))
                if seat not in state.to_act:
                    raise ProtocolError("answered", "one {reaction} each: yours is in already",
                                        reaction=Term("reaction", timed.reaction.name))
            elif person and timed is not None and action in timed.reaction.actions:
                raise ProtocolError("timed", 'the server times the {reaction}: send {{"type": '
                                             '"react", "phase": "{phase}"}}, with no time of '
                                             'your own', phase=timed.id,
                                    reaction=Term("reaction", timed.reaction.name))
            if version is not None and version != table.version:
                raise Stale(version, table.version)
            if seat not in state.to_act or action not in state.legal_actions(seat):
                try:
                    state.clone().apply(action, seat)  # for the engine's own reason
                except IllegalAction as err:
                    raise ProtocolError("illegal", err.message) from None
                raise ProtocolError("illegal", "that action is not legal now")
            text = table.game.action_text(action)
            after = state.clone()
            after.apply(action, seat)
            outcome = after.outcome
            result = outcome.text() if outcome is not None else None
            try:
                now = self.room.settings.now()
                await self.room.store.write(self.room.fenced(table, with_awaiting(
                    table, Store.op_action(table.id, table.match, table.version, seat, text,
                                           result, now),
                    after, result is not None, now)))
            except Fenced:
                raise self.room.moved(table) from None
            except StoreError:
                raise ProtocolError("unavailable", "the move could not be saved: try again") \
                    from None
            table.state = after
            table.version += 1
            table.acted_at = asyncio.get_running_loop().time()
            self.room.actions += 1
            table.touched = self.room.settings.monotonic()
            if result is not None:
                table.status = "finished"
                table.matches[table.match] = MatchInfo(table.match, True, result, table.deal)
            self.room.clock.sync(table)
            self.room.turns.restart(table)
        table.broadcast_views()
        self.room.on_turn(table)
        self.room.clock.start(table)
        if result is not None:
            await self.finished(table)
            table.broadcast_table()
        else:
            self.room.schedule_bots(table)

    async def finished(self, table: Table) -> None:
        """A match just ended: remember it for the signed-in people at it (statistics,
        ratings, daily results). A failure is logged: the match itself is saved already."""
        state = table.state
        if state is None or state.outcome is None:
            return
        done = Finished(table.id, table.match, table.game.id,
                        [SeatKind(s.kind, s.bot) for s in table.seats], table.rated,
                        table.daily, state)
        try:
            await self.room.store.write(op_finished(done, self.room.settings.now()))
        except StoreError:
            log.error("table %s: match %d's results could not be saved for its players",
                      table.id, table.match)
