"""The hub: every live table of this process, and the parts that change them.

The :class:`Hub` is the room (:mod:`parlour.server.play.room`: the tables, the settings and
the store, the clocks and the bots, the write fenced by a table's lease) with one part per
concern, in the way of lichess's round module (its Finisher, Rematcher, Takebacker):

- :class:`~parlour.server.play.life.TableLife`: open, expire, close and let go of tables;
- :class:`~parlour.server.play.seating.Seating`: take, leave and free seats; stand-ins;
- :class:`~parlour.server.play.forfeits.Forfeits`: rated matches left or forfeited;
- :class:`~parlour.server.play.match.Play`: deals, moves (the one path: ``submit``), ends;
- :class:`~parlour.server.play.ownership.Ownership`: load, claim, restore and quarantine tables;
- :class:`~parlour.server.play.desk.Desk`: hints, replays and records; and
  :class:`~parlour.server.play.reviews.ReviewDesk`: post-game reviews.

The routers, the sessions, the relay and the cluster call the hub's methods, which are
the parts' own (bound here); the parts call each other, never the hub. Each change to a
table is committed to the database first, then applied in memory, then broadcast: every
connection gets the view of its own seat, spectators ``view(None)``. The state itself, and
its seed, never leave the server. See ``docs/architecture.md``.
"""

from __future__ import annotations

from functools import cache

from parlour.bots import Bot, bot_kinds
from parlour.engine import JsonDict
from parlour.games import game_ids
from parlour.registry import spec
from parlour.server.people.presence import RoomBus
from parlour.server.play.clock import Submit
from parlour.server.play.correspondence import Correspondence
from parlour.server.play.desk import Desk
from parlour.server.play.forfeits import Forfeits
from parlour.server.play.life import TableLife
from parlour.server.play.match import MAX_DEAL, Play
from parlour.server.play.ownership import Ownership
from parlour.server.play.pace import SPEEDS
from parlour.server.play.reviews import ReviewDesk
from parlour.server.play.room import Room
from parlour.server.play.seating import Seating
from parlour.server.play.showcase import showcase_json
from parlour.server.play.talk_words import WordFilter, read_choices
from parlour.server.settings import Settings
from parlour.server.storage.store import Store


class Hub(Room):
    """Every live table, and the one path by which tables change: the room and its parts."""

    def __init__(self, settings: Settings, store: Store) -> None:
        submit: Submit = lambda *args: self.play.submit(*args)  # noqa: E731 (bound below)
        super().__init__(settings, store, submit,
                         lambda table, seat: self.seating.stand_in(table, seat))
        self.play = Play(self)
        self.forfeits = Forfeits(self, lambda table, note: self.life.close_table(table, note))
        self.life = TableLife(self, self.play, self.forfeits)
        self.seating = Seating(self, self.play, self.forfeits)
        self.ownership = Ownership(self, self.play)
        self.desk = Desk(self)
        self.correspondence = Correspondence(self, self.ownership.get, self.seating.free,
                                             self.life.close_table)
        self.reviews = ReviewDesk(settings, store, self.desk.finished_state)
        # table talk's word filter and the key of its seals (play/talk.py)
        self.talk_words = WordFilter(lambda: read_choices(store.engine), settings.monotonic)
        self.talk_key = cache(lambda: store.secret("talk-key"))
        self.people = RoomBus(store, settings.now)  # the room's streams (friends, challenges)
        self.on_turn = self.people.turns
        self.on_again = lambda table, seat: self.people.rematch(
            table, table.seats[seat].account_id if seat is not None else None)
        # the table's life
        self.create = self.life.create
        self.sweep = self.life.sweep
        self.close_table = self.life.close_table
        self.open_tables = self.life.open_tables
        # its seats
        self.join = self.seating.join
        self.leave = self.seating.leave
        self.free_seat = self.seating.free_seat
        self.link_seat = self.seating.link_seat
        self.stand_in = self.seating.stand_in
        self.reclaim = self.seating.reclaim
        self.forfeit = self.forfeits.forfeit
        # its play
        self.start = self.play.start
        self.again = self.play.again
        self.parse_intent = self.play.parse_intent
        self.submit = self.play.submit
        # who owns it
        self.get = self.ownership.get
        self.restore = self.ownership.restore
        self.loading = self.ownership.loading
        self.unrestorable = self.ownership.unrestorable
        # its desk
        self.check_watchable = self.desk.check_watchable
        self.hint = self.desk.hint
        self.finished_state = self.desk.finished_state
        self.replay = self.desk.replay
        self.record = self.desk.record

    async def tidy(self) -> dict[str, int]:
        """The periodic round of the table life (``TableLife.tidy``), then the
        correspondence tables' (overdue moves, tables let go to wait as rows)."""
        done = await self.life.tidy()
        return done | await self.correspondence.tick()

    async def close(self) -> None:
        """Stop every table's timers, bots and reviews (the server is stopping)."""
        await self.stop()
        await self.people.stop()
        await self.reviews.close()


def bot_levels(cls: type[Bot]) -> list[str]:
    """The levels a bot kind takes (``kind:level``), if its constructor takes a level."""
    return [str(x) for x in cls.levels]


def describe_games() -> list[JsonDict]:
    """Every game with its options and the bot kinds (and their levels) that play it."""
    out = []
    for gid in game_ids():
        found = spec(gid)
        game = found.game
        info = game.describe()
        info["bots"] = [{"kind": k, "levels": bot_levels(cls),
                         "help": (cls.__doc__ or k).strip().splitlines()[0].replace("``", "")}
                        for k, cls in bot_kinds(gid).items() if cls.at_tables]
        info["seat_names"] = {str(n): [game.seat_name(s, n) for s in range(n)]
                              for n in range(game.min_seats, game.max_seats + 1)}
        info["deals"] = MAX_DEAL if found.numbered_deals else None  # dealt by number 1..
        info["hints"] = True  # from its hint bot, else ismcts (a table may turn them off)
        info["renderer"] = found.web_path(found.web.script)
        info["bot_help"] = dict(found.bot_help)  # its own bots' tooltips (the page: t())
        info["picture"] = found.web_path(found.web.picture) if found.web.picture else None
        info["solitaire"] = found.solitaire  # one player: no turn timer
        # played by correspondence if asked (nobody alone, no timed phase: correspondence.py)
        info["correspondence"] = not found.solitaire and not found.traits.timed_phases
        info.update(showcase_json(gid))  # the tile's line and the presets
        info["speeds"] = list(SPEEDS)
        out.append(info)
    return out
