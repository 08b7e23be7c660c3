"""What each seat at a table is called: a person's own name, a bot's name and level.

Every seat is named. A person's seat carries the name they gave; a bot's seat gets a name
from :data:`BOT_NAMES`, chosen by the table and the seat alone (the same table always
names its bots the same way, after a restart too) and never a name a person at that table
goes by. A bot also has a level (:func:`bot_level`: ``easy``, ``normal`` or ``hard``) that
the page shows beside its name ("Bill - bot, normal").

Names are data here, never sentences: the page says "You" for its own seat and renders the
badge in the reader's language; the server's narration gets :data:`parlour.message.YOU`
for the seat it is sent to (see :func:`parlour.server.play.pages.seat_names`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache

from parlour.server.people.account_names import name_key

#: The bots' names: short, easy to read aloud in English, Indonesian and Portuguese, from
#: many places. Also names a person cannot take (the accounts' reserved names).
BOT_NAMES = ("Bill", "Mia", "Rafi", "Dewi", "Lena", "Omar", "Ines", "Kofi", "Yuki", "Nora",
             "Budi", "Tiago", "Sari", "Hugo", "Zara", "Joon")

#: The levels a player reads, by the bot kind that has no levels of its own.
KIND_LEVELS = {"random": "easy", "rule": "normal", "clairvoyant": "hard"}
#: A kind's own level words that are not already easy, normal or hard.
LEVEL_WORDS = {"fast": "easy", "strong": "hard"}
LEVELS = ("easy", "normal", "hard")


def bot_level(bot: str | None) -> str:
    """The level a player reads for a bot spec (``rule``, ``ismcts:hard``, ``solver:fast``)."""
    kind, _, level = (bot or "").partition(":")
    if level:
        level = LEVEL_WORDS.get(level, level)
        return level if level in LEVELS else "normal"
    return KIND_LEVELS.get(kind, "normal")


@lru_cache(maxsize=4096)  # asked for each view a table sends: one sort per table
def _order(table_id: str) -> tuple[str, ...]:
    """:data:`BOT_NAMES` in this table's own order."""
    def rank(name: str) -> bytes:
        return hashlib.blake2b(f"{table_id}\0{name}".encode(), digest_size=8).digest()
    return tuple(sorted(BOT_NAMES, key=rank))


def bot_names(table_id: str, bots: Sequence[bool], people: Sequence[str | None]
              ) -> list[str | None]:
    """The name of each bot seat (None for the others): the table's own order of
    :data:`BOT_NAMES`, in seat order, skipping any name a person at the table goes by
    (compared as account names are: case, look-alikes and invisible characters aside)."""
    taken = {name_key(p) for p in people if p}
    free = [n for n in _order(table_id) if name_key(n) not in taken]
    out: list[str | None] = []
    for is_bot in bots:
        out.append(free.pop(0) if is_bot and free else None)
    return out


def is_bot_name(name: str) -> bool:
    """Whether ``name`` is one of the bots' (compared as account names are)."""
    return name_key(name) in _bot_keys()


@lru_cache(maxsize=1)
def _bot_keys() -> frozenset[str]:
    return frozenset(name_key(n) for n in BOT_NAMES)
