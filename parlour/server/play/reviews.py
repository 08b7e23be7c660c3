"""Post-game reviews of a table's finished matches: started on request, worked out off the
event loop, stored with the match.

``POST /api/tables/{id}/matches/{n}/review`` asks for the review of one seat of a finished
match (see :mod:`parlour.analysis.review`); it is idempotent: a review stored already, or
being worked out, is answered as it stands, and only a new one counts against the client's
limits. ``GET`` the same path (``?seat=``) reads the progress ``{status, done, total}``, or
the review once it is done.

Every decision of the seat is judged by :meth:`Reviewer.judge` in a worker process (a
thread when ``review_processes`` is 0), one decision a job, as many side by side as there
are workers, so the event loop only replays the match and counts; the judgements are put
together by :func:`parlour.analysis.review.assemble`, exactly as ``parlour review`` does,
and at a fixed budget and seed (:attr:`Settings.review_budget`, seed 0): never the clock,
so the stored review is the one the command gives for the same record. At most
``review_jobs`` reviews wait or run on the server at once, ``review_jobs_per_client`` of
them one client's; the rest are refused with ``Retry-After``. A finished review is written
to ``parlour_reviews`` (migration 0004), so a second look is instant and survives
restarts; one in progress when the server stops is simply asked for again.

``POST .../review/try`` (:meth:`ReviewDesk.try_move`) judges another choice at a judged
decision of a stored review, exactly as the review judged the move played there.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from parlour.analysis.review import Decision, Reviewer, assemble, reviewer_kind, turns
from parlour.engine import Action, JsonDict, Seat, State
from parlour.i18n import DEFAULT, render
from parlour.message import N_, plural_message
from parlour.server.edge.limits import ClientGuard, ClientKey, TooMany
from parlour.server.edge.protocol import ProtocolError, excerpt
from parlour.server.play.pages import action_words
from parlour.server.play.runner import Workers, WorkersDown
from parlour.server.storage.store import Store

if TYPE_CHECKING:
    from parlour.server.play.table import Table
    from parlour.server.settings import Settings

log = logging.getLogger("parlour.server")

REVIEW_SEED = 0  # every stored review is made with this seed (and the server's budget)
CACHED = 64  # finished reviews kept in memory besides the database
TRIED = 256  # answers to "try another move" kept in memory (the same question is free)

Key = tuple[str, int, Seat]  # table id, match, reviewed seat
Status = Literal["queued", "running", "failed"]


@lru_cache(maxsize=8)
def _reviewer(game_id: str, budget: int | None) -> Reviewer:
    return Reviewer(game_id, budget, REVIEW_SEED)


def judge_turn(game_id: str, budget: int | None, state: State, seat: Seat, action: Action,
               index: int) -> Decision | None:
    """Run in a worker: judge one decision (None for a forced one)."""
    return _reviewer(game_id, budget).judge(state, seat, action, index)


@dataclass
class Job:
    """A review being worked out: how far it has come."""

    client: ClientKey
    status: Status = "queued"
    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> JsonDict:
        return {"status": self.status, "done": self.done, "total": self.total}


class ReviewDesk:
    """The reviews of every table: jobs in progress, the workers, the stored results."""

    def __init__(self, settings: Settings, store: Store,
                 finished_state: Callable[[Table, int], Awaitable[State]]) -> None:
        self.finished_state = finished_state  # a finished match's state (the table's desk)
        self.settings = settings
        if self.settings.review_budget is not None and self.settings.review_budget < 1:
            raise ValueError("a review's budget is at least 1 iteration a decision")
        self.store = store
        self.jobs: dict[Key, Job] = {}
        self.workers = Workers(self.settings.review_processes, "reviews")
        self._slots: asyncio.Semaphore | None = None
        self._stored: OrderedDict[Key, JsonDict] = OrderedDict()
        self._tried: OrderedDict[tuple[Key, int, str], JsonDict] = OrderedDict()
        self._trying: dict[ClientKey, int] = {}  # tries being worked out, by client

    # ------------------------------------------------------------------ asking
    async def look(self, table: Table, match: int, seat: object, lang: str = DEFAULT
                   ) -> JsonDict:
        """The review of ``seat`` in ``match`` as it stands: ``{"status": "none"}`` if
        nobody has asked for it; a finished one with its moves in words of ``lang``."""
        key = self._check(table, match, seat)
        job = self.jobs.get(key)
        if job is not None:
            return job.to_json()
        stored = await self._load(key)
        return {"status": "none"} if stored is None else \
            await self._in_words(table, match, stored, lang)

    async def ask(self, table: Table, match: int, seat: object, client: ClientKey,
                  guard: ClientGuard, lang: str = DEFAULT) -> JsonDict:
        """Start the review of ``seat`` in ``match`` unless it is stored or under way (a
        failed one is tried again); its state as :meth:`look` gives it."""
        key = self._check(table, match, seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job.to_json()
        stored = await self._load(key)
        if stored is not None:
            return await self._in_words(table, match, stored, lang)
        await guard.take("review", client)
        self._room(client)
        final = await self.finished_state(table, match)
        # checked again with no await before the job is taken: a request that came in
        # meanwhile may have started it, or taken the last place
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job.to_json()
        self._room(client)
        job = self.jobs[key] = Job(client)
        job.task = asyncio.create_task(self._run(key, job, table, final))
        return job.to_json()

    async def try_move(self, table: Table, match: int, seat: int, index: int, action: str,
                       client: ClientKey, guard: ClientGuard, lang: str = DEFAULT) -> JsonDict:
        """Another choice at a judged decision of ``seat``'s stored review, judged as the
        review judged the one played: from the seat's own observation, with the review's
        budget and seeds (so on the same samples), as if ``action`` had been taken there.
        The answer is that :class:`Decision` (the choice's chance to win, the best one's,
        its loss and mark) with ``said``: the choice and the best in words of ``lang``.
        Checked before anything is worked out: a finished review of the seat, a decision
        of it at ``index``, and ``action`` one of its choices in the game's notation; the
        same question again is answered from memory, a new one counts as a hint does."""
        key = self._check(table, match, seat)
        stored = await self._load(key)
        if stored is None:
            raise ProtocolError("not_reviewed", "review this seat's play first: a move is "
                                                "tried at a decision of its review")
        decision = next((d for d in stored["review"]["decisions"] if d["index"] == index),
                        None)
        if decision is None:
            raise ProtocolError("bad_index", "step {index} is not a judged decision of this "
                                             "seat", index=index)
        if action not in decision["chances"]:
            raise ProtocolError("bad_action", "{action} is not one of the choices at step "
                                              "{index}", action=excerpt(action), index=index)
        final = await self.finished_state(table, match)
        state = await asyncio.to_thread(self._state_at, table, final, seat, index)
        asked = (key, index, action)
        found = self._tried.get(asked)
        if found is None:
            if self._trying.get(client, 0) >= 1:
                raise TooMany("too_many", N_("a move you tried is still being judged: wait "
                                             "for it"), 2)
            if sum(self._trying.values()) >= self.settings.review_jobs:
                raise TooMany("busy", "the reviewer is busy with other matches: try again "
                                      "in a few minutes", 60)
            await guard.take("hint", client,
                             message=N_("you are trying moves too fast: think a little first"))
            self._trying[client] = self._trying.get(client, 0) + 1
            try:
                found = await self._tried_out(table.game.id, state.clone(), seat, index,
                                              action)
            finally:
                self._trying[client] -= 1
                if not self._trying[client]:
                    del self._trying[client]
            self._tried[asked] = found
            while len(self._tried) > TRIED:
                self._tried.popitem(last=False)
        else:
            self._tried.move_to_end(asked)
        view = state.view(seat)
        said = {k: render(action_words(table.game, view, str(found[k])), lang)
                for k in ("played", "best")}
        return {"tried": found, "said": said}

    @staticmethod
    def _state_at(table: Table, final: State, seat: Seat, index: int) -> State:
        """The state before ``seat``'s decision ``index`` of ``final``'s match (a copy)."""
        start = table.game.new(final.seed, table.num_seats, **table.options)
        for turn in turns(start, final.history, (seat,)):
            if turn.index == index:
                return turn.state.clone()
        raise ProtocolError("bad_index", "step {index} is not a judged decision of this seat",
                            index=index)

    async def _tried_out(self, game_id: str, state: State, seat: Seat, index: int, text: str
                         ) -> JsonDict:
        """Judge the choice ``text`` at decision ``index`` in a review worker, at the
        review's budget."""
        action = next(a for a in state.legal_actions(seat) if state.action_text(a) == text)
        found = await self._judge(game_id, self._budget(game_id), state, seat, action, index)
        if found is None:  # a forced move or a reflex: never a judged decision
            raise ProtocolError("bad_index", "step {index} is not a judged decision of this "
                                             "seat", index=index)
        return found.to_json()

    async def _in_words(self, table: Table, match: int, answer: JsonDict, lang: str
                        ) -> JsonDict:
        """A finished review's ``answer`` with ``said``: for each decision (by its index),
        the move played and the better one in words of ``lang``, as the replay's caption
        says a move (the stored review keeps the notation, which the page matches with the
        cards it marks)."""
        final = await self.finished_state(table, match)
        game = table.game
        decisions = {int(d["index"]): d for d in answer["review"]["decisions"]}

        def say() -> JsonDict:
            start = game.new(final.seed, table.num_seats, **table.options)
            said: JsonDict = {}
            seats = tuple({int(d["seat"]) for d in decisions.values()})
            for turn in turns(start, final.history, seats):
                found = decisions.get(turn.index)
                if found is None:
                    continue
                view = turn.state.view(turn.seat)
                said[str(turn.index)] = {
                    key: render(action_words(game, view, str(found[key])), lang)
                    for key in ("played", "best")}
                if found["mark"] != "fine":  # the choices another move may be tried from
                    said[str(turn.index)]["choices"] = {
                        text: render(action_words(game, view, text), lang)
                        for text in found["chances"]}
            return said

        return answer | {"said": await asyncio.to_thread(say)}

    def _room(self, client: ClientKey) -> None:
        """Refuse a new review past the server's and the client's caps."""
        waiting = [j for j in self.jobs.values() if j.status != "failed"]
        if len(waiting) >= self.settings.review_jobs:
            raise TooMany("busy", "the reviewer is busy with other matches: try again in a "
                                  "few minutes", 60)
        if sum(j.client == client for j in waiting) >= self.settings.review_jobs_per_client:
            raise TooMany("too_many", plural_message(
                "you have {n} review under way already: wait for it to finish",
                "you have {n} reviews under way already: wait for one to finish",
                "n", n=self.settings.review_jobs_per_client), 30)

    def _check(self, table: Table, match: int, seat: object) -> Key:
        info = table.matches.get(match)
        if info is None:
            raise ProtocolError("not_found", "this table has no match {match}", match=match)
        if not info.finished:
            raise ProtocolError("not_finished", "a match can be reviewed once it is over")
        if not isinstance(seat, int) or isinstance(seat, bool) \
                or not 0 <= seat < table.num_seats:
            raise ProtocolError("bad_seat", "seats are 0 to {last}", last=table.num_seats - 1)
        return table.id, match, seat

    async def _load(self, key: Key) -> JsonDict | None:
        found = self._stored.get(key)
        if found is not None:
            self._stored.move_to_end(key)
            return found
        row = await asyncio.to_thread(self.store.load_review, *key)
        if row is None:
            return None
        return self._keep(key, json.loads(row[1]))

    def _keep(self, key: Key, review: JsonDict) -> JsonDict:
        total = sum(s["judged"] + s["forced"] for s in review["summaries"])
        answer = {"status": "done", "done": total, "total": total, "review": review}
        self._stored[key] = answer
        while len(self._stored) > CACHED:
            self._stored.popitem(last=False)
        return answer

    # ------------------------------------------------------------------ working
    async def _run(self, key: Key, job: Job, table: Table, final: State) -> None:
        if self._slots is None:
            self._slots = asyncio.Semaphore(max(1, self.settings.review_processes))
        game, seat = table.game, key[2]
        budget = self._budget(game.id)
        slots = self._slots

        async def one(state: State, action: Action, index: int) -> Decision | None:
            async with slots:  # one decision a worker: the others wait here, in order
                job.status = "running"
                found = await self._judge(game.id, budget, state, seat, action, index)
            job.done += 1
            return found

        try:
            judge = Reviewer(game.id, budget, REVIEW_SEED)
            start = game.new(final.seed, table.num_seats, **table.options)
            moves = list(final.history)
            job.total = sum(s == seat for s, _ in moves)
            # every decision at once, each waiting for a worker: the review's decisions are
            # judged side by side on every review worker (both cores of a 2-core server)
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(one(turn.state.clone(), turn.action, turn.index))
                         for turn in turns(start, moves, (seat,))]
            judged = [task.result() for task in tasks]
            review = assemble(judge, start, (seat,), judged, [seat] * len(judged)).to_json()
            await self.store.write(Store.op_save_review(key[0], key[1], seat,
                                                        judge.budget or 0, json.dumps(review),
                                                        self.settings.now()))
            self._keep(key, review)
            del self.jobs[key]
            log.info("table %s: match %d reviewed for seat %d", *key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the review of match %d, seat %d failed", *key)
            job.status = "failed"

    def _budget(self, game_id: str) -> int | None:
        """The server's budget, for a reviewer that takes one (not Foursquare's solver)."""
        return self.settings.review_budget if reviewer_kind(game_id).startswith("ismcts") \
            else None

    async def _judge(self, game_id: str, budget: int | None, state: State, seat: Seat,
                     action: Action, index: int) -> Decision | None:
        args = (game_id, budget, state, seat, action, index)
        if self.settings.review_processes <= 0:
            return await asyncio.to_thread(judge_turn, *args)
        try:
            return await self.workers.run(judge_turn, *args)
        except WorkersDown:  # in a thread of this process meanwhile: slower, but done
            return await asyncio.to_thread(judge_turn, *args)

    async def close(self) -> None:
        """Stop every review in progress and end the workers."""
        tasks = [j.task for j in self.jobs.values() if j.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.workers.close()
