"""A table's life: opened (within the client's caps), waiting for its players, playing,
then finished (and dealt again), or closed before its match ends: nobody joined in time,
nobody came back, nobody watched a table of bots. Finished tables nobody looks at leave
memory, and casual ones leave the database after their retention. See
``docs/operations.md``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from parlour.bots import bot_kinds, make_bot
from parlour.engine import Game, OptionError, Seat
from parlour.games import game_ids, get_game
from parlour.message import Code
from parlour.registry import spec
from parlour.server.edge.limits import ClientKey, client_hash
from parlour.server.edge.protocol import ProtocolError
from parlour.server.people.ratings import bot_rating
from parlour.server.play.correspondence import check_move_seconds
from parlour.server.play.forfeits import Forfeits
from parlour.server.play.match import Play, check_deal
from parlour.server.play.pace import check_speed
from parlour.server.play.room import Room
from parlour.server.play.seating import clean_name
from parlour.server.play.table import SeatInfo, Table, new_token, reason_of, token_hash
from parlour.server.play.turns import MAX_TURN_SECONDS, MIN_TURN_SECONDS, default_turn_seconds
from parlour.server.storage.store import SeatRow, Store, TableRow, both

log = logging.getLogger("parlour.server")

IDLE_FINISHED = 15 * 60.0  # seconds a finished table with no one watching stays in memory


def check_turn_seconds(game: Game, seconds: object) -> int:
    """The turn timer asked for at ``game``'s table: None for the game's default, 0 for
    none, else whole seconds within bounds."""
    if seconds is None:
        return default_turn_seconds(game.id)
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not (
            seconds == 0 or MIN_TURN_SECONDS <= seconds <= MAX_TURN_SECONDS):
        raise ProtocolError("bad_options", "a turn timer is 0 (none) or {least} to {most} "
                                           "seconds", least=MIN_TURN_SECONDS,
                            most=MAX_TURN_SECONDS)
    return 0 if spec(game.id).solitaire else seconds  # nobody waits for a solitaire's player


def check_rated(game: Game, options: dict[str, Any], seats: list[SeatInfo],
                account_id: int | None) -> None:
    """A rated table: opened by a signed-in person, the game's full rules (its default
    options), and bots with fixed ratings only."""
    if account_id is None:
        raise ProtocolError("sign_in", "sign in to play rated matches")
    if options != game.resolve_options({}):
        raise ProtocolError("bad_options", "a rated match plays the game's full rules: open "
                                           "it without options")
    for s in seats:
        if s.kind == "bot" and bot_rating(game.id, s.bot or "random") is None:
            rated = ", ".join(spec(game.id).bot_elo)
            raise ProtocolError("bad_seat", "a {bot} bot has no fixed rating: rated tables take "
                                            "{rated}", bot=Code(s.bot or ""),
                                rated=Code(rated or "-"))



class TableLife:
    """Opening, expiring, closing and letting go of the room's tables."""

    def __init__(self, room: Room, play: Play, forfeits: Forfeits) -> None:
        self.room = room
        self.play = play
        self.forfeits = forfeits

    def sweep(self, idle: float = IDLE_FINISHED) -> int:
        """Let go of finished or closed tables nobody has looked at for ``idle`` seconds
        (they stay in the database and load again on demand)."""
        now = self.room.settings.monotonic()
        gone = [t.id for t in self.room.tables.values() if not t.is_open and not t.conns
                and not t.bot_tasks and now - t.touched > idle]
        for table_id in gone:
            del self.room.tables[table_id]
        return len(gone)

    async def tidy(self) -> dict[str, int]:
        """The periodic round of the table life cycle (``docs/operations.md``): close the
        tables nobody joined, nobody came back to or nobody watches; let go of idle ones;
        delete casual tables whose retention is over. Returns what it did, by kind."""
        s = self.room.settings
        now, wall = s.monotonic(), s.now()
        done = {"expired": 0, "abandoned": 0, "unwatched": 0, "released": 0, "deleted": 0}
        for table in list(self.room.tables.values()):
            if table.conns:
                table.watched = now
            if any(c.seat is not None for c in table.conns):
                table.people_seen = now
            note = None
            # (the invite to a game by correspondence waits as long as a move may)
            invite = max(s.waiting_expiry, table.move_seconds or 0)
            if table.status == "waiting" and wall - table.created > invite:
                note = "expired"
            elif table.status == "playing" and table.has_people() \
                    and table.move_seconds is None and now - table.people_seen > s.absent_close:
                note = "abandoned"
            elif table.status == "playing" and not table.has_people() and not table.conns \
                    and now - table.watched > s.unwatched_close:
                note = "unwatched"
            if note is not None:
                try:
                    await self.close_table(table, note)
                    done[note] += 1
                except ProtocolError:
                    pass  # the database refused: tried again next round
        done["released"] = self.sweep()
        try:
            gone = await asyncio.to_thread(self.room.store.prune, wall - s.retention)
        except Exception:
            log.exception("deleting old tables failed")
            gone = []
        for table_id in gone:
            self.room.tables.pop(table_id, None)
        done["deleted"] = len(gone)
        if any(done.values()):
            log.info("tidy: %s", ", ".join(f"{k} {v}" for k, v in done.items() if v))
        return done

    async def close_table(self, table: Table, note: str) -> None:
        """Close a table before its match is over (``note``: why, see CLOSED_NOTES); its
        log stays, and its finished matches' records with it."""
        async with table.lock:
            if not table.is_open:
                return
            if table.rated and table.status == "playing":  # nobody came back: their loss
                for seat, info in enumerate(table.seats):
                    if info.kind == "person":
                        await self.forfeits.left_rated(table, seat)
            await self.room.write(Store.op_close(table.id, note, self.room.settings.now()), table)
            table.status, table.note = "closed", note
            table.touched = self.room.settings.monotonic()
            if table.reaction is not None:
                table.reaction.stop()
                table.reaction = None
            self.room.turns.stop(table)
            table.refresh_views()
        log.info("table %s closed: %s", table.id, note)
        table.broadcast_table()
        table.broadcast_views()

    def open_tables(self) -> list[Table]:
        """The lobby list: listed tables waiting or playing, newest first."""
        live = [t for t in self.room.tables.values() if t.is_open and t.listed]
        return sorted(live, key=lambda t: -t.created)

    async def create(self, game_id: str, options: dict[str, Any], seats: list[dict[str, Any]],
                     name: str | None, seat: Seat | None, deal: int | None = None, *,
                     public: bool | None = None, turn_seconds: int | None = None,
                     speed: str | None = None,
                     client: ClientKey | None = None, account_id: int | None = None,
                     hints: bool | None = None, compared: bool = False, rated: bool = False,
                     daily: str | None = None, others: dict[Seat, tuple[str, int]] | None = None,
                     held: dict[Seat, tuple[str, str, int | None]] | None = None,
                     move_seconds: int | None = None
                     ) -> tuple[Table, Seat | None, str | None]:
        """A new table opened by ``client``, within the open-table caps. The creator takes
        ``seat`` (default: the first person seat); a game dealt by number deals ``deal``
        first (default: a random number); ``account_id`` is the creator's account, if they
        are signed in.

        A table with a seat for a friend is private unless ``public``: not in the lobby
        list, reached only through its invite. ``turn_seconds`` sets the turn timer (None:
        the game's default, 0: none); ``speed`` paces its bots and automatic steps (see
        :mod:`parlour.server.play.pace`; None: normal). ``hints`` lets its seats ask for hints: on
        by default, and refused at a ``compared`` table (rated, daily), where it is off. The
        caps (:class:`~parlour.server.edge.limits.TableQuota`) are counted by the write that
        creates the table.

        A ``rated`` table (its creator signed in as ``account_id``) plays the game's full
        rules with bots of fixed ratings; a ``daily`` one deals that day's daily deal. Both
        are compared: kept, never degraded, without hints, never dealt by number.

        ``others`` seats more signed-in people from the start (seat: their name and
        account; a challenge's, :mod:`parlour.server.people.challenges`): each takes their
        seat's token on their own device (``/api/account/seats/<table>/claim``). ``held``
        seats people who hold their token already (seat: their name, the token's hash and
        their account or None; quick play's, :mod:`parlour.server.people.quick`): the
        creator's seat among them, no new token is made for it (None is returned).
        ``move_seconds`` makes a correspondence table: each person has that long a move,
        and no turn timer runs (:mod:`parlour.server.play.correspondence`)."""
        if game_id not in game_ids():
            raise ProtocolError("bad_game", "unknown game {game}: expected one of {expected}",
                                game=repr(game_id), expected=", ".join(game_ids()))
        game = get_game(game_id)
        deal = check_deal(game, deal)
        try:
            num_seats = game.check_seats(len(seats) if seats else None)
            resolved = game.resolve_options(options)
        except OptionError as err:
            raise ProtocolError("bad_options", err.message) from None
        infos = [self._seat_spec(game, spec) for spec in seats] if seats else \
            [SeatInfo("person")] + [SeatInfo("bot", "random") for _ in range(num_seats - 1)]
        move_seconds = check_move_seconds(game, move_seconds)
        if move_seconds is not None and turn_seconds:
            raise ProtocolError("bad_options", "a correspondence table has a time per move, "
                                               "not a turn timer")
        turn_seconds = 0 if move_seconds is not None else check_turn_seconds(game, turn_seconds)
        speed = check_speed(speed)
        compared = compared or rated or daily is not None
        if hints and compared:
            raise ProtocolError("bad_options", "hints are off at tables whose results are "
                                               "compared")
        hints = not compared if hints is None else hints
        if rated:
            check_rated(game, resolved, infos, account_id)
            if turn_seconds == 0 and move_seconds is None and not spec(game.id).solitaire:
                raise ProtocolError("bad_options", "a rated match always has a turn timer: "
                                                   "open it with one, or with the game's own")
        if (rated or daily is not None) and deal is not None:
            raise ProtocolError("bad_deal", "rated matches and daily deals are not dealt by "
                                            "number")
        people = [i for i, s in enumerate(infos) if s.kind == "person"]
        token = None
        if people:
            if seat is None:
                seat = people[0]
            if not (isinstance(seat, int) and 0 <= seat < num_seats) \
                    or infos[seat].kind != "person":
                raise ProtocolError("bad_seat", "sit at one of the seats kept for people")
            token = new_token()
            infos[seat].name = clean_name(name)
            infos[seat].token_hash = token_hash(token)
            infos[seat].account_id = account_id
            infos[seat].client = client_hash(client) if client is not None else None
        else:
            seat = None
        for other, (other_name, other_account) in (others or {}).items():
            if other == seat or not 0 <= other < num_seats or infos[other].kind != "person":
                raise ProtocolError("bad_seat", "sit at one of the seats kept for people")
            infos[other].name = clean_name(other_name)
            infos[other].token_hash = token_hash(new_token())
            infos[other].account_id = other_account
        for other, (held_name, hashed, held_account) in (held or {}).items():
            if not 0 <= other < num_seats or infos[other].kind != "person":
                raise ProtocolError("bad_seat", "sit at one of the seats kept for people")
            infos[other].name = clean_name(held_name)
            infos[other].token_hash = hashed
            infos[other].account_id = held_account
            if other == seat:
                token = None
        friends = len(people) > 1
        settings = self.room.settings
        seen = settings.monotonic()
        table = Table(self._new_id(), game, num_seats, resolved, settings.now(), infos,
                      next_deal=deal, listed=False if daily is not None else
                      public if public is not None else not friends,
                      turn_seconds=turn_seconds, creator=seat,
                      key=self.room.store.rejoin_key, speed=speed, bot_pause=settings.bot_pause,
                      hints=hints, compared=compared, rated=rated, daily=daily,
                      touched=seen, people_seen=seen, watched=seen, move_seconds=move_seconds)
        row = TableRow(table.id, game.id, num_seats, resolved, table.created, "waiting", 0,
                       [SeatRow(s.kind, s.bot, s.name, s.token_hash, s.account_id, s.client)
                        for s in infos], {},
                       listed=table.listed, compared=compared, turn_seconds=turn_seconds,
                       creator=seat, speed=speed, hints=hints, rated=rated, daily=daily,
                       client=None if client is None else client_hash(client),
                       searches=self._searches(game, infos), move_seconds=move_seconds)
        create = Store.op_create_table(row)
        if self.room.leases is not None:
            create = both(create, self.room.leases.create_op(table.id))
        capped = self.room.quota.capped(create, row.client, row.searches)
        await self.room.write(capped)
        if capped.refusal is not None:
            raise capped.refusal
        if self.room.leases is not None:
            self.room.leases.hold(table.id)
        self.room.tables[table.id] = table
        await self.room.owning(table)
        log.info("table %s created: %s, %d seats", table.id, game.id, num_seats)
        if not table.free_seats():
            await self.play.start_or_retry(table)
        return table, seat, token

    def _seat_spec(self, game: Game, spec: dict[str, Any]) -> SeatInfo:
        if not isinstance(spec, dict) or spec.get("kind") not in ("person", "bot"):
            raise ProtocolError("bad_seat", 'each seat is {"kind": "person"} or '
                                            '{"kind": "bot", "bot": "<kind>"}')
        if spec["kind"] == "person":
            return SeatInfo("person")
        kind = spec.get("bot") or "random"
        if not isinstance(kind, str) or len(kind) > 40:
            raise ProtocolError("bad_seat", "a bot kind is a short text")
        try:
            make_bot(game, kind, 0, 0)
        except (OptionError, TypeError, ValueError) as err:
            raise ProtocolError("bad_seat", reason_of(err)) from None
        return SeatInfo("bot", kind.strip().lower())

    @staticmethod
    def _searches(game: Game, seats: list[SeatInfo]) -> bool:
        """Whether any of these seats is a searching bot (one that works the workers)."""
        kinds = bot_kinds(game.id)
        for s in seats:
            cls = kinds.get((s.bot or "").partition(":")[0]) if s.kind == "bot" else None
            if cls is not None and cls.needs_sample:
                return True
        return False

    def _new_id(self) -> str:
        while True:
            table_id = self.room.settings.new_table_id()
            if table_id not in self.room.tables:
                return table_id
