"""The websocket protocol: what a client may send, checked before anything acts on it.

Every client message is one JSON object of at most :data:`MAX_MESSAGE` bytes with a
``type`` the server knows and exactly the fields that type allows, each of its JSON type
(a typed pydantic model per message, strict: ``true`` is not a number, ``"1"`` is not a
seat). Anything else gets an ``error`` message naming the problem; nothing changes. See
``docs/protocol.md``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from parlour.i18n import DEFAULT, localize, render, render_json
from parlour.message import JSON_KEY, N_, Param
from parlour.message import Message as Text
from parlour.server.edge.language import MAX_TAG, TAG_PATTERN

MAX_MESSAGE = 2048  # bytes; the longest legal intent is well under 200
MAX_ACTION_TEXT = 40
MAX_PHASE_ID = 32
MAX_TOKEN = 64
MAX_PHRASE_ID = 32
MAX_TALK_TEXT = 600  # characters as sent; talk.py keeps at most 200 once spaces are folded
MAX_VERSION = 2**31 - 1  # versions, seats: far above any real one
RATE = 5.0  # messages per second a connection may send, on average
BURST = 10  # and in a burst


class ProtocolError(Exception):
    """A message the server refuses. ``code`` is stable and English, for programs; ``text``
    (a msgid and its parameters, or the engine's own Message) is for people, rendered in
    each reader's language by :meth:`to_json`; ``message`` is its English."""

    def __init__(self, code: str, message: Text | str, **params: Param) -> None:
        self.code = code
        self.text = message if isinstance(message, Text) else Text.of(message, params)
        super().__init__(str(self.text))

    @property
    def message(self) -> str:
        return str(self.text)

    def render(self, lang: str = DEFAULT) -> str:
        """The message in ``lang``."""
        return render(self.text, lang)

    def to_json(self, lang: str = DEFAULT) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.render(lang)}


class Stale(ProtocolError):
    """An intent made on an old view: the client gets the current view instead."""

    def __init__(self, seen: int, now: int) -> None:
        super().__init__("stale", N_("the game has moved on (you saw version {seen}, it is "
                                     "at {now}): here is the current view"), seen=seen, now=now)


def excerpt(text: str, limit: int = 20) -> str:
    """At most ``limit`` characters of something a client sent, to quote it back."""
    return text if len(text) <= limit else text[:limit] + "..."


class _Message(BaseModel):
    """A client message: strict JSON types (a bool is not a number, "1" is not a seat), and
    no field its type does not take."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=MAX_TOKEN)] | None = None
    #: The reader's language (``id``, ``pt-BR``): narration and errors come in it; one
    #: Parlour does not speak is English.
    lang: Annotated[str, Field(max_length=MAX_TAG, pattern=TAG_PATTERN)] | None = None


class Act(_Message):
    type: Literal["act"]
    action: Annotated[str, Field(max_length=MAX_ACTION_TEXT)]
    version: Annotated[int, Field(ge=0, le=MAX_VERSION)]
    seat: Annotated[int, Field(ge=0, le=MAX_VERSION)] | None = None


class Sync(_Message):
    type: Literal["sync"]


class Ping(_Message):
    type: Literal["ping"]


class React(_Message):
    type: Literal["react"]
    phase: Annotated[str, Field(max_length=MAX_PHASE_ID)]


class HintAsk(_Message):
    type: Literal["hint"]
    version: Annotated[int, Field(ge=0, le=MAX_VERSION)] | None = None


class Talk(_Message):
    """Table talk (parlour/server/play/talk.py): a quick phrase by its id, or a signed-in
    player's own words (one of the two)."""

    type: Literal["talk"]
    phrase: Annotated[str, Field(max_length=MAX_PHRASE_ID)] | None = None
    text: Annotated[str, Field(max_length=MAX_TALK_TEXT)] | None = None


class Listen(_Message):
    """Whether this connection reads the players' own words at its table."""

    type: Literal["listen"]
    words: bool


Message = Hello | Act | Sync | Ping | React | HintAsk | Talk | Listen
MESSAGES: dict[str, type[_Message]] = {"hello": Hello, "act": Act, "sync": Sync, "ping": Ping,
                                       "react": React, "hint": HintAsk, "talk": Talk,
                                       "listen": Listen}
_PARSER: TypeAdapter[Message] = TypeAdapter(
    Annotated[Message, Field(discriminator="type")])

#: The text fields (the others are whole numbers).
TEXT_FIELDS = frozenset({"action", "phase", "token", "lang", "phrase", "text"})

#: Too long a text field: refused with the code of what it would have been.
TOO_LONG = {("act", "action"): ("unknown_action", N_("that is not an action of this game "
                                                     "(too long)")),
            ("react", "phase"): ("wrong_phase",
                                 N_("that is not a phase of this table (too long)")),
            ("talk", "phrase"): ("unknown_phrase", N_("that is not a phrase (too long)")),
            ("talk", "text"): ("talk_too_long", N_("that message is too long")),
            ("hello", "token"): ("bad_token",
                                 N_("that seat token is not valid for this table"))}


def parse_message(raw: str | bytes | None) -> Message:
    """A checked client message, or :class:`ProtocolError` saying what is wrong."""
    if raw is None or isinstance(raw, bytes):
        raise ProtocolError("bad_message", "messages are JSON text, not binary frames")
    size = len(raw.encode("utf-8")) if len(raw) * 4 > MAX_MESSAGE else len(raw)
    if size > MAX_MESSAGE:
        raise ProtocolError("too_big", "message too big: {size} bytes (at most {limit})",
                            size=size, limit=MAX_MESSAGE)
    try:
        message = _PARSER.validate_json(raw)
    except ValidationError as err:
        raise _refusal(raw, err) from None
    if _may_repeat_a_field(raw):
        try:
            json.loads(raw, object_pairs_hook=_no_repeats)
        except json.JSONDecodeError:  # what pydantic read, the standard library would not
            raise ProtocolError("bad_message", "message is not valid JSON") from None
    return message


#: Where a JSON text may name a field: a string's closing quote, then a colon. Every field
#: name is followed by one; text inside a string value may hold more.
_NAME_END = re.compile(r'"[ \t\n\r]*:')


def _may_repeat_a_field(raw: str) -> bool:
    """Whether ``raw`` may name a field twice in one object: False only when orjson reads
    it and its objects hold as many fields as the text has places that may end a name
    (a repeated name leaves fewer fields than names). Most messages are told so at a
    tenth of the cost of the standard library's reading field by field (:func:`_no_repeats`)."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return True
    return _fields_in(value) != len(_NAME_END.findall(raw))


def _fields_in(value: Any) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_fields_in(v) for v in value.values())
    if isinstance(value, list):
        return sum(_fields_in(v) for v in value)
    return 0


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's fields, each named once: a name given twice is refused (the parser
    would keep the last one given, which another reader of the same text may not)."""
    seen: dict[str, Any] = {}
    for name, value in pairs:
        if name in seen:
            raise ProtocolError("bad_message", "the field {field} is given twice",
                                field=repr(excerpt(name)))
        seen[name] = value
    return seen


def _refusal(raw: str, err: ValidationError) -> ProtocolError:
    """The one error to answer a refused message with (the first problem found)."""
    first = err.errors(include_url=False, include_input=False)[0]
    kind, loc = first["type"], first["loc"]
    if kind == "json_invalid":
        return ProtocolError("bad_message", "message is not valid JSON")
    if kind in ("model_attributes_type", "model_type") or (kind.endswith("_type") and not loc):
        return ProtocolError("bad_message", 'a message is a JSON object with a "type"')
    if kind in ("union_tag_not_found", "union_tag_invalid"):
        tag = first.get("ctx", {}).get("tag")
        shown = repr(excerpt(tag)) if isinstance(tag, str) else "?"
        return ProtocolError("bad_message", "unknown message type {shown} (expected one of "
                                            "{expected})", shown=shown,
                             expected=", ".join(MESSAGES))
    mtype, name = str(loc[0]), ".".join(str(p) for p in loc[1:])
    if kind == "extra_forbidden":
        takes: Param = ", ".join(f for f in MESSAGES[mtype].model_fields if f != "type") \
            or Text(N_("no fields"))
        return ProtocolError("bad_message", "a {type} message has no field {field} (it takes "
                                            "{takes})", type=mtype, field=repr(excerpt(name)),
                             takes=takes)
    if kind == "missing":
        return ProtocolError("bad_message", "a {type} message needs {field}", type=mtype,
                             field=repr(name))
    if kind == "string_too_long" and (mtype, name) in TOO_LONG:
        return ProtocolError(*TOO_LONG[mtype, name])
    if kind == "greater_than_equal":
        return ProtocolError("bad_message", "{field} must be 0 or more",
                             field=f"{mtype}.{name}")
    if kind == "less_than_equal":
        return ProtocolError("bad_message", "{field} must be at most {limit}",
                             field=f"{mtype}.{name}", limit=MAX_VERSION)
    if kind in ("string_pattern_mismatch", "string_too_long") and name == "lang":
        return ProtocolError("bad_message", "{field} is a language tag such as id or pt-BR",
                             field=f"{mtype}.{name}")
    field = MESSAGES[mtype].model_fields[name.split(".")[0]]
    where = f"{mtype}.{name}"
    if (mtype, name) == ("listen", "words"):
        return ProtocolError("bad_message", "{field} must be true or false", field=where)
    if name in TEXT_FIELDS:
        if field.is_required():
            return ProtocolError("bad_message", "{field} must be text", field=where)
        return ProtocolError("bad_message", "{field} must be text or null", field=where)
    if field.is_required():
        return ProtocolError("bad_message", "{field} must be a whole number", field=where)
    return ProtocolError("bad_message", "{field} must be a whole number or null", field=where)


class RateLimit:
    """A token bucket: ``allow()`` is False once a connection sends too fast."""

    def __init__(self, rate: float = RATE, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()
        self.refused = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False


class Encoded:
    """Data encoded already, placed in a message as it is (a view, encoded once to see
    whether it needs localizing)."""

    __slots__ = ("data", "json")

    def __init__(self, data: Any, json: bytes) -> None:
        self.data = data
        self.json = json


def _orjson_default(obj: object) -> orjson.Fragment:
    if isinstance(obj, Encoded):
        return orjson.Fragment(obj.json)
    raise TypeError(f"{type(obj).__name__} is not JSON")


def _json_default(obj: object) -> object:
    if isinstance(obj, Encoded):
        return obj.data
    raise TypeError(f"{type(obj).__name__} is not JSON")


def encode_bytes(message: Any) -> bytes:
    """``message`` as compact JSON (UTF-8), keys that are not text made text. orjson does
    it some ten times faster than the standard library (the server sends every seat's view
    after each action); what orjson refuses (a whole number beyond 64 bits) the standard
    library encodes, so the meaning is the same whatever the message holds."""
    try:
        return orjson.dumps(message, default=_orjson_default, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(message, separators=(",", ":"), default=_json_default).encode()


#: What a message (``{"$message": ...}``) looks like in encoded JSON: a key can only be
#: written this way, and text that holds the same characters has its quotes escaped.
_MESSAGE_KEY = orjson.dumps(JSON_KEY)


#: Messages rendered already, by language and encoded message: a view's reasons repeat
#: (each card of a hand that may not follow suit has the same one), and so do the views.
_RENDERED: dict[tuple[str, bytes], str] = {}
RENDERED_AT_MOST = 10_000  # then the memory starts again (names make messages unbounded)


def render_remembered(message: Any, lang: str) -> str:
    """:func:`parlour.i18n.render_json`, each text worked out once (a message means the
    same whatever view carries it)."""
    key = (lang, encode_bytes(message))
    text = _RENDERED.get(key)
    if text is None:
        if len(_RENDERED) >= RENDERED_AT_MOST:
            _RENDERED.clear()
        text = _RENDERED[key] = render_json(message, lang)
    return text


def _holds(raw: bytes) -> bool:
    """Whether encoded JSON holds a message. ``bytes.find``, not ``in``: ``in`` first tries
    its operand as an integer (a byte) and formats the TypeError it then drops, which cost
    more than the search through a whole view."""
    return raw.find(_MESSAGE_KEY) != -1


def _may_hold_message(value: Any) -> bool:
    return _holds(encode_bytes(value))


def localized(data: Any, lang: str) -> Encoded:
    """``data`` (a view) localized in ``lang`` (:func:`parlour.i18n.localize`), encoded.
    Most views carry no message: encoding one first tells so at a small part of the cost
    of walking it. One that does is walked only in its top-level entries whose own
    encoding holds a message (a hand's reasons, not the match's history of deals)."""
    raw = encode_bytes(data)
    if not _holds(raw):
        return Encoded(data, raw)
    data = localize(data, lang, render_remembered, _may_hold_message)
    return Encoded(data, encode_bytes(data))


def joined(first: Encoded, then: Encoded) -> Encoded:
    """Two encoded JSON objects with no key in common as one: the entries of both, the
    texts spliced, not encoded again."""
    if not then.data:
        return first
    if not first.data:
        return then
    return Encoded({**first.data, **then.data},
                   b"".join((first.json[:-1], b",", then.json[1:])))


def encode(message: dict[str, Any]) -> str:
    """A message to send: compact JSON text (non-ASCII characters as themselves)."""
    return encode_bytes(message).decode()
