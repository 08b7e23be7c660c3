"""Language-free messages: what the engine says, as a message id and its parameters.

The engine never writes a sentence in a language. A rule that refuses a move, or an event a
table narrates, is a :class:`Message`: its ``id`` is the English template (``"must follow
{suit}"``, the gettext msgid the catalogs translate) and its parameters are values, not
words: a number is an ``int``, a suit or a seat is a :class:`Term` (a word the interface
translates), a card is a :class:`PlayingCard`, and a :class:`Code` is typed notation
(``QS``, ``bid 4``, ``c3``) shown as it is in every language. ``str(message)`` is the English
text, so a caller that only wants English needs nothing more; :func:`parlour.i18n.render`
renders a message in any language.

>>> str(Message("must follow {suit}", suit=Term("suit", "hearts")))
'must follow hearts'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Union

SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
_RANK_CODES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER_INDEX = 52


@dataclass(frozen=True)
class Term:
    """A word the interface translates, looked up with its context (``Term("suit",
    "hearts")``, ``Term("seat", "North")``): the English word is the msgid."""

    context: str
    word: str

    def __str__(self) -> str:
        return self.word


#: The reader themself, where a line told to one seat names that seat ("You draw a card."):
#: a sentence that starts with it takes the "you" form of its verb, so games check for it.
YOU = Term("person", "You")


@dataclass(frozen=True)
class Code:
    """Typed notation (``QS``, ``bid 4``, ``c3``): the same in every language."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class PlayingCard:
    """A card of the standard deck (``suit * 13 + rank``, clubs to spades, two to ace) or
    the joker (52). In English text it shows as its code (``QS``); an interface names it in
    the reader's language (``ratu sekop``, ``dama de espadas``)."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index <= JOKER_INDEX:
            raise ValueError(f"not a card index: {self.index!r}")

    @property
    def is_joker(self) -> bool:
        return self.index == JOKER_INDEX

    @property
    def suit(self) -> Term:
        return Term("suit", SUIT_WORDS[self.index // 13])

    @property
    def rank(self) -> Term:
        return Term("rank", RANK_WORDS[self.index % 13])

    def __str__(self) -> str:
        if self.is_joker:
            return "Joker"
        return _RANK_CODES[self.index % 13] + "CDHS"[self.index // 13]


@dataclass(frozen=True)
class Many:
    """Several parameters shown as one list (``1, 4, 7``), each rendered as usual."""

    items: tuple[Param, ...]
    separator: str = ", "

    def __str__(self) -> str:
        return self.separator.join(str(i) for i in self.items)


@dataclass(frozen=True)
class Named:
    """A thing typed as a code and called by a name: a Hit the Deck card (``G2``, "green
    2"). In English text it shows as its code, like a :class:`PlayingCard`; an interface
    renders its name (a :class:`Message`) in the reader's language."""

    code: str
    name: Message

    def __str__(self) -> str:
        return self.code


Param = Union[int, float, str, Term, Code, PlayingCard, Named, Many, "Message"]


@dataclass(frozen=True)
class Message:
    """A message id (the English template, ``str.format`` fields) and its parameters (any
    names). A message with a plural form is made by :func:`plural_message`: ``plural`` is
    the English plural template and ``count`` names the int parameter that chooses."""

    id: str
    params: Mapping[str, Param] = field(default_factory=lambda: MappingProxyType({}))
    plural: str | None = None
    count: str | None = None

    def __init__(self, id: str, /, **params: Param) -> None:
        self._set(id, params, None, None)

    @classmethod
    def of(cls, id: str, params: Mapping[str, Param], plural: str | None = None,
           count: str | None = None) -> Message:
        """A message from a mapping of parameters (whatever their names)."""
        message = cls.__new__(cls)
        message._set(id, params, plural, count)
        return message

    def _set(self, id: str, params: Mapping[str, Param], plural: str | None,
             count: str | None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "params", MappingProxyType(dict(params)))
        object.__setattr__(self, "plural", plural)
        object.__setattr__(self, "count", count)
        if (plural is None) != (count is None):
            raise ValueError("a plural message names both its plural form and its count")
        if count is not None and not isinstance(params.get(count), int):
            raise ValueError(f"the count parameter {count!r} must be an int")

    def template(self) -> str:
        """The English template for this message's count."""
        if self.plural is not None and self.count is not None:
            n = self.params[self.count]
            assert isinstance(n, int)
            return self.id if n == 1 else self.plural
        return self.id

    def __str__(self) -> str:
        if not self.params:  # a message without parameters is literal text
            return self.template()
        return self.template().format_map({k: str(v) for k, v in self.params.items()})

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


class Explained(ValueError):
    """An error whose text is a :class:`Message`: ``str(err)`` is the English text and
    ``err.message`` what an interface renders in its reader's language."""

    def __init__(self, message: Message | str, **params: Param) -> None:
        if isinstance(message, str):
            message = Message.of(message, params)
        elif params:
            raise TypeError("parameters go into the Message, not beside it")
        self.message = message
        super().__init__(str(message))


def plural_message(singular: str, plural: str, count: str, **params: Param) -> Message:
    """A message with a plural form, chosen by the int parameter named ``count``:
    ``plural_message("{n} card", "{n} cards", "n", n=3)`` (extracted as a plural msgid)."""
    return Message.of(singular, params, plural, count)


def N_(text: str) -> str:
    """Mark a literal as a msgid for extraction and return it unchanged, for text kept in
    English where it is made (a bot's unit of advice) and translated where it is shown."""
    return text


# ----------------------------------------------------------------------------- as JSON
#: The key that marks a message inside JSON data (a view's ``why_not``): the server renders
#: every such object in the reader's language before it sends the data.
JSON_KEY = "$message"


def param_to_json(value: Param) -> object:
    """A parameter as JSON: numbers and names as they are, a word, a card, a code or a list
    as a one-key object (``{"term": ["suit", "hearts"]}``, ``{"card": 51}``)."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Term):
        return {"term": [value.context, value.word]}
    if isinstance(value, Code):
        return {"code": value.text}
    if isinstance(value, PlayingCard):
        return {"card": value.index}
    if isinstance(value, Many):
        return {"many": [param_to_json(v) for v in value.items], "separator": value.separator}
    if isinstance(value, Named):
        return {"named": [value.code, message_to_json(value.name)]}
    return message_to_json(value)


def message_to_json(message: Message) -> dict[str, object]:
    """A message as plain JSON data (language-free, like the view that carries it)."""
    out: dict[str, object] = {JSON_KEY: message.id,
                              "params": {k: param_to_json(v) for k, v in message.params.items()}}
    if message.plural is not None:
        out["plural"], out["count"] = message.plural, message.count
    return out


def param_from_json(data: object) -> Param:
    """The parameter :func:`param_to_json` made (``ValueError`` for anything else)."""
    if isinstance(data, bool | int | float | str):
        return data
    if isinstance(data, dict):
        if JSON_KEY in data:
            return message_from_json(data)
        if set(data) == {"term"} and isinstance(data["term"], list) and len(data["term"]) == 2:
            return Term(str(data["term"][0]), str(data["term"][1]))
        if set(data) == {"code"} and isinstance(data["code"], str):
            return Code(data["code"])
        if set(data) == {"card"} and isinstance(data["card"], int):
            return PlayingCard(data["card"])
        if set(data) == {"named"} and isinstance(data["named"], list) \
                and len(data["named"]) == 2:
            return Named(str(data["named"][0]), message_from_json(data["named"][1]))
        if set(data) == {"many", "separator"} and isinstance(data["many"], list):
            return Many(tuple(param_from_json(v) for v in data["many"]), str(data["separator"]))
    raise ValueError(f"not a message parameter: {data!r}")


def message_from_json(data: object) -> Message:
    """The message :func:`message_to_json` made (``ValueError`` for anything else)."""
    if not isinstance(data, dict) or not isinstance(data.get(JSON_KEY), str) \
            or not isinstance(data.get("params", {}), dict):
        raise ValueError(f"not a message: {data!r}")
    params = {str(k): param_from_json(v) for k, v in data.get("params", {}).items()}
    plural, count = data.get("plural"), data.get("count")
    return Message.of(data[JSON_KEY], params, plural if isinstance(plural, str) else None,
                      count if isinstance(count, str) else None)
