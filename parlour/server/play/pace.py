"""A table's speed: how fast its bots and its automatic steps go by (slow, normal, fast).

The speed is a setting of the table, chosen when it is opened, never a rule of the game:
it only sets how long the server waits before a bot's move (:func:`bot_wait`) and how
long the page shows each automatic step of a view (``step_ms``: Clockwork Spades'
cascades of forced plays, told one line at a time) and leaves a finished trick readable
(``reading_ms``). Moves, seeds and records are the same at every speed.

Every wait is a multiple of the server's bot pause (``Settings.bot_pause``, 0.8 s unless
``parlour serve --bot-pause`` says otherwise), so a server run with no pause (the tests)
waits for nothing at any speed. Only the page's reading time is its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.server.edge.protocol import ProtocolError

SPEEDS = ("slow", "normal", "fast")
DEFAULT_SPEED = "normal"


@dataclass(frozen=True)
class Pace:
    move: float  # a bot's move waits at least this many bot pauses
    step: float  # and this many more for each automatic step the page is telling
    reading_ms: int  # how long the page leaves a finished trick readable


PACES = {
    "slow": Pace(move=2.0, step=1.0, reading_ms=2000),
    "normal": Pace(move=1.0, step=0.4, reading_ms=1100),
    "fast": Pace(move=0.35, step=0.1, reading_ms=400),
}


def check_speed(speed: object) -> str:
    """The speed asked for when opening a table: None for the default, else one of
    :data:`SPEEDS`."""
    if speed is None:
        return DEFAULT_SPEED
    if not isinstance(speed, str) or speed not in PACES:
        raise ProtocolError("bad_options", "a table's speed is slow, normal or fast")
    return speed


def bot_wait(bot_pause: float, speed: str, steps: int = 0) -> float:
    """Seconds a bot's move takes at least at this speed, when the page is telling
    ``steps`` automatic steps of the view before it."""
    pace = PACES[speed]
    return bot_pause * (pace.move + pace.step * max(0, steps))


def step_ms(bot_pause: float, speed: str) -> int:
    """Milliseconds the page gives each automatic step at this speed."""
    return round(1000 * bot_pause * PACES[speed].step)


def pace_json(bot_pause: float, speed: str) -> dict[str, int | str]:
    """What the page is told of the table's speed (its summary's ``pace``)."""
    return {"speed": speed, "step_ms": step_ms(bot_pause, speed),
            "reading_ms": PACES[speed].reading_ms}
