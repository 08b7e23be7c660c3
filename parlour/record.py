"""Game records: one game per text file, readable by people, replayable by Parlour.

Like a PGN file, a record is a block of ``[Tag "value"]`` lines, a blank line, then the
actions, one per line as ``<seat> <action in the game's notation>``::

    [Game "spades"]
    [Seed "7"]
    [Seats "4"]
    [Options "target=500 nil_value=100 ..."]
    [Players "you, rule, rule, rule"]
    [Date "2026-11-29"]
    [Result "points 510 320 510 320; placing 1 2 1 2"]

    0 bid 4
    1 nil
    ...

``#`` starts a comment (outside a tag's quotes). A tag's value is escaped
(:func:`escape_tag`: a backslash before ``\\`` and ``"``, ``\\n`` and ``\\uXXXX`` for
line breaks and other unprintable characters), and the Players tag escapes each name's
commas, so any name reads back (:func:`record_players`). The seed, options and actions
are the game: reading a record replays it with the engine, and a stored result must match
the replayed one. A record names
every option of its time; an option added since takes the value that keeps the rules the
record was played under (``Option.legacy``, see ``Game.recorded_options``). A result of
``*`` marks a game that was not finished. Errors name the line they were found on.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from parlour.engine import (
    IllegalAction,
    NotationError,
    OptionError,
    Outcome,
    Seat,
    State,
    format_options,
    parse_option_pairs,
)
from parlour.games import get_game

REQUIRED = ("Game", "Seed", "Seats", "Options", "Result")
#: A tag line: its name, its quoted value (escaped, :func:`escape_tag`), then perhaps a
#: comment (a ``#`` inside the quotes is the value's own).
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*(?:#.*)?$')
_ESCAPED = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)
_NAMED_ESCAPES = {"n": "\n", "r": "\r", "t": "\t"}


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the line."""


@dataclass
class Record:
    tags: dict[str, str]
    moves: list[tuple[Seat, str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # line number of each move
    tag_lines: dict[str, int] = field(default_factory=dict)

    @property
    def game_id(self) -> str:
        return self.tags["Game"]


def record_text(state: State, players: Sequence[str] | None = None,
                date: str | None = None, comment: str | None = None) -> str:
    """The record of ``state`` so far (finished or not)."""
    tags = {
        "Game": state.game.id,
        "Seed": str(state.seed),
        "Seats": str(state.num_seats),
        "Options": format_options(state.options),
        "Players": ", ".join(_player(p) for p in players) if players else "",
        "Date": date or datetime.date.today().isoformat(),
        "Result": state.outcome.text() if state.outcome else "*",
    }
    out = [f'[{k} "{escape_tag(v)}"]' for k, v in tags.items() if v or k in REQUIRED]
    out.append("")
    if comment:
        out.extend(f"# {line}" for line in comment.splitlines())
    out.extend(f"{seat} {state.action_text(action)}" for seat, action in state.history)
    return "\n".join(out) + "\n"


def parse_record(text: str) -> Record:
    """Read the tags and moves of a record (without replaying it)."""
    record = Record({})
    tags, tag_lines = record.tags, record.tag_lines
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("["):  # before comments are cut: its value may hold a #
            if record.moves:
                raise RecordError(f"line {number}: a tag after the moves began")
            m = _TAG.match(line)
            if not m:
                raise RecordError(f'line {number}: a tag looks like [Name "value"], not {line!r}')
            if m[1] in tags:
                raise RecordError(f"line {number}: the tag {m[1]} appears twice")
            tags[m[1]] = unescape_tag(m[2])
            tag_lines[m[1]] = number
            continue
        line = line.split("#", 1)[0].strip()
        if not line:
            in_moves = in_moves or bool(tags)
            continue
        seat_text, _, action = line.partition(" ")
        if not seat_text.isdigit() or not action.strip():
            raise RecordError(
                f"line {number}: a move looks like '<seat> <action>' (e.g. '0 bid 4'), "
                f"not {line!r}")
        record.moves.append((int(seat_text), action.strip()))
        record.lines.append(number)
    for name in REQUIRED:
        if name not in tags:
            raise RecordError(f"line 1: the record has no [{name} \"...\"] tag")
    return record


def replay(record: Record, verify: bool = True) -> State:
    """Replay a record with the engine; with ``verify``, check its stored result."""
    lines, tags = record.tag_lines, record.tags

    def fail(tag: str, message: str) -> RecordError:
        return RecordError(f"line {lines.get(tag, 1)}: {message}")

    try:
        game = get_game(tags["Game"])
    except OptionError as err:
        raise fail("Game", str(err)) from None
    try:
        seed = int(tags["Seed"])
    except ValueError:
        raise fail("Seed", f"the seed must be a whole number, not {tags['Seed']!r}") from None
    try:
        seats = int(tags["Seats"])
        options = game.recorded_options(parse_option_pairs(tags["Options"].split()))
        state = game.new(seed, seats, **options)
    except (ValueError, OptionError) as err:
        raise fail("Options", str(err)) from None
    for (seat, text), number in zip(record.moves, record.lines, strict=True):
        try:
            action = state.parse_action(text)
            state.apply(action, seat)
        except (NotationError, IllegalAction) as err:
            raise RecordError(f"line {number}: {text!r} for seat {seat}: {err}") from None
    if verify and tags["Result"].strip() != "*":
        try:
            stored = Outcome.parse(tags["Result"])
        except ValueError as err:
            raise fail("Result", str(err)) from None
        if state.outcome != stored:
            got = state.outcome.text() if state.outcome else "an unfinished game"
            raise fail("Result", f"the record says {tags['Result']!r} but the moves give {got!r}")
    return state


def read_record(path: str | Path, verify: bool = True) -> tuple[Record, State]:
    record = parse_record(Path(path).read_text(encoding="utf-8"))
    return record, replay(record, verify)


def escape_tag(value: str) -> str:
    """A tag's value as written between its quotes: a backslash and a quote escaped with a
    backslash, a newline, return and tab as ``\\n``, ``\\r``, ``\\t``, and any other
    character that is not printable (other line breaks among them) as ``\\uXXXX`` or
    ``\\UXXXXXXXX``, so that a value is always one line (:func:`unescape_tag` reads it
    back)."""
    out = []
    for ch in value:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch in "\n\r\t":
            out.append("\\" + {"\n": "n", "\r": "r", "\t": "t"}[ch])
        elif not ch.isprintable():  # other line breaks among them
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return "".join(out)


def unescape_tag(value: str) -> str:
    """A tag's value as :func:`escape_tag` wrote it, read back (and any other character
    after a backslash as itself, as older records have it)."""
    def one(m: re.Match[str]) -> str:
        escaped = m[1]
        if len(escaped) > 1:
            return chr(int(escaped[1:], 16))
        return _NAMED_ESCAPES.get(escaped, escaped)
    return _ESCAPED.sub(one, value)


def _player(name: str) -> str:
    """A name as the Players tag lists it: its backslashes and commas escaped."""
    return name.replace("\\", "\\\\").replace(",", "\\,")


def record_players(record: Record) -> list[str]:
    """The names of the Players tag, in seat order (none if the tag is missing)."""
    text = record.tags.get("Players", "")
    if not text.strip():
        return []
    names: list[str] = []
    name: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            name.append(next(chars, ""))
        elif ch == ",":
            names.append("".join(name).strip())
            name = []
        else:
            name.append(ch)
    names.append("".join(name).strip())
    return names
