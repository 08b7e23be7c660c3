"""The websocket protocol: what a client may send, checked before anything acts on it.

Every client message is one JSON object of at most :data:`MAX_MESSAGE` bytes with a
``type`` the server knows and exactly the fields that type allows. Anything else gets an
``error`` message naming the problem; nothing changes. See ``docs/protocol.md``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 2048  # bytes; the longest legal intent is well under 200
MAX_ACTION_TEXT = 40
MAX_PHASE_ID = 32
RATE = 5.0  # messages per second a connection may send, on average
BURST = 10  # and in a burst


class ProtocolError(Exception):
    """A message the server refuses. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


class Stale(ProtocolError):
    """An intent made on an old view: the client gets the current view instead."""

    def __init__(self, seen: int, now: int) -> None:
        super().__init__("stale", f"the game has moved on (you saw version {seen}, it is at "
                                  f"{now}): here is the current view")


# The fields each message type takes: name -> (types accepted, required).
SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {"token": ((str, type(None)), False)},
    "act": {"action": ((str,), True), "version": ((int,), True), "seat": ((int,), False)},
    "sync": {},
    "ping": {},
    "react": {"phase": ((str,), True)},
    "hint": {"version": ((int,), False)},
}


@dataclass(frozen=True)
class Message:
    type: str
    fields: dict[str, Any]


def parse_message(raw: str | bytes | None) -> Message:
    """A checked client message, or :class:`ProtocolError` saying what is wrong."""
    if raw is None:
        raise ProtocolError("bad_message", "messages are JSON text, not binary frames")
    if isinstance(raw, bytes):
        raise ProtocolError("bad_message", "messages are JSON text, not binary frames")
    size = len(raw.encode("utf-8")) if len(raw) * 4 > MAX_MESSAGE else len(raw)
    if size > MAX_MESSAGE:
        raise ProtocolError("too_big", f"message too big: {size} bytes (at most {MAX_MESSAGE})")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_message", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMA:
        known = ", ".join(SCHEMA)
        shown = kind if isinstance(kind, str) and len(kind) <= 20 else "?"
        raise ProtocolError("bad_message", f"unknown message type {shown!r} (expected one of "
                                           f"{known})")
    schema = SCHEMA[kind]
    fields = {k: v for k, v in data.items() if k != "type"}
    for name in fields:
        if name not in schema:
            allowed = ", ".join(schema) or "no fields"
            shown = name if len(name) <= 20 else name[:20] + "..."
            raise ProtocolError("bad_message",
                                f"a {kind} message has no field {shown!r} (it takes {allowed})")
    for name, (types, required) in schema.items():
        if name not in fields:
            if required:
                raise ProtocolError("bad_message", f"a {kind} message needs {name!r}")
            continue
        value = fields[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            want = " or ".join("null" if t is type(None) else
                               {"str": "text", "int": "a whole number"}[t.__name__]
                               for t in types)
            raise ProtocolError("bad_message", f"{kind}.{name} must be {want}")
    if kind == "act":
        if len(fields["action"]) > MAX_ACTION_TEXT:
            raise ProtocolError("unknown_action", "that is not an action of this game "
                                                  "(too long)")
        if fields["version"] < 0:
            raise ProtocolError("bad_message", "act.version must be 0 or more")
    if kind == "react" and len(fields["phase"]) > MAX_PHASE_ID:
        raise ProtocolError("wrong_phase", "that is not a phase of this table (too long)")
    if kind == "hello" and isinstance(fields.get("token"), str) and len(fields["token"]) > 64:
        raise ProtocolError("bad_token", "that seat token is not valid for this table")
    return Message(kind, fields)


class RateLimit:
    """A token bucket: ``allow()`` is False once a connection sends too fast."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))
