"""Parlour in the reader's language: gettext catalogs (managed with Babel), rendering of the
engine's :class:`~parlour.message.Message`, numbers by Babel, language negotiation, and the
JSON catalog the browser will load.

The catalogs are the ``.po`` files under ``parlour/locale/<lang>/LC_MESSAGES/messages.po``,
read at run time with Babel (nothing to compile, so a fresh clone just works). English is
the source language: a msgid is the English text, and the ``en`` catalog is empty.

>>> from parlour.message import Message, Term
>>> render(Message("must follow {suit}", suit=Term("suit", "hearts")), "pt_BR")
'é preciso seguir copas'
"""

from __future__ import annotations

import gettext
import os
import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from parlour.message import (
    JSON_KEY,
    Code,
    Many,
    Message,
    Named,
    Param,
    PlayingCard,
    Term,
    message_from_json,
)

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
DEFAULT = "en"


def _discover() -> tuple[str, ...]:
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT, *(lang for lang in found if lang != DEFAULT))


#: The languages Parlour speaks, as gettext names their catalogs: English first, then every
#: catalog under ``parlour/locale`` (a new language is one more catalog file).
LANGUAGES: tuple[str, ...] = _discover()
#: The catalog a language's base name means when no catalog has that exact name: a plain
#: ``pt`` (or ``pt-PT`` while there is no pt_PT catalog) is Brazilian Portuguese, whose
#: players Parlour is built for; ``in`` is the old code for Indonesian.
_PREFERRED = {"pt": "pt_BR", "in": "id"}
_CARD = Message("{rank} of {suit}")  # the shape of a card's name; see card_name
_TAG = re.compile(r"^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$")


class MissingTranslation(LookupError):
    """A msgid the language's catalog does not translate (only raised with ``strict``)."""


# ----------------------------------------------------------------------------- catalogs
def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The language's catalog, read from its ``.po`` file (once per process)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for {lang!r}: Parlour speaks {', '.join(LANGUAGES)}")
    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


@cache
def _plural_index(lang: str) -> Callable[[int], int]:
    """The catalog's ``Plural-Forms`` expression, evaluated as gettext does."""
    return gettext.c2py(catalog(lang).plural_expr)


def translate(lang: str, msgid: str, plural: str | None = None, n: int | None = None,
              context: str | None = None, strict: bool = False) -> str:
    """``msgid`` in ``lang`` (with ``plural`` and the count ``n``, the form for ``n``); the
    English when the catalog lacks it (or :class:`MissingTranslation` if ``strict``)."""
    english = msgid if plural is None or n == 1 else plural
    if lang == DEFAULT:
        return english
    entry = catalog(lang).get(msgid, context=context)
    text: object = entry.string if entry is not None and not entry.fuzzy else None
    if isinstance(text, tuple | list):
        form = text[_plural_index(lang)(n if n is not None else 1)] if text else ""
        text = form
    if not text:
        if strict:
            where = f" (context {context!r})" if context else ""
            raise MissingTranslation(f"{lang} lacks {msgid!r}{where}")
        return english
    assert isinstance(text, str)
    return text


# ----------------------------------------------------------------------------- rendering
def format_number(n: int | float, lang: str) -> str:
    """A number as the language writes it (``1,234`` in English, ``1.234`` in Indonesian)."""
    return format_decimal(n, locale=babel_locale(lang))


def babel_locale(lang: str) -> Locale:
    return Locale.parse(lang)


def card_name(card: PlayingCard, lang: str, strict: bool = False) -> str:
    """The card as players of the language name it: ``queen of spades``, ``ratu sekop``,
    ``dama de espadas``."""
    if card.is_joker:
        return translate(lang, "joker", context="card", strict=strict)
    return render(Message(_CARD.id, rank=card.rank, suit=card.suit), lang, strict)


def render_param(value: Param, lang: str, strict: bool = False) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        return format_number(value, lang)
    if isinstance(value, Term):
        return translate(lang, value.word, context=value.context, strict=strict)
    if isinstance(value, Code):
        return value.text
    if isinstance(value, PlayingCard):
        return card_name(value, lang, strict)
    if isinstance(value, Named):
        return render(value.name, lang, strict)
    if isinstance(value, Many):
        return value.separator.join(render_param(v, lang, strict) for v in value.items)
    if isinstance(value, Message):
        return render(value, lang, strict)
    return value


def render(message: Message | str, lang: str, strict: bool = False) -> str:
    """The message in ``lang``: its translated template with each parameter rendered in that
    language (numbers by Babel, words from the catalog, cards by name, codes as typed). A
    template naming a parameter the message lacks raises ``KeyError``."""
    if isinstance(message, str):
        return translate(lang, message, strict=strict)
    n = message.params[message.count] if message.count is not None else None
    assert n is None or isinstance(n, int)
    text = translate(lang, message.id, message.plural, n, strict=strict)
    if not message.params:
        return text
    return text.format_map({k: render_param(v, lang, strict) for k, v in message.params.items()})


_SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"


def cards_as_symbols(value: Param) -> Param:
    """The value with each card shown as its symbol (``Q♠``, the same in every language),
    for tables that draw cards that way; everything else is left as it is."""
    return _map_cards(value, lambda card: card if card.is_joker else
                      Code(str(card)[:-1] + _SUIT_SYMBOLS[card.index // 13]))


def cards_as_codes(value: Param) -> Param:
    """The value with each card shown as its code (``QS``, ``Joker``), for the web page,
    which draws each code in a sentence as a card chip read out by its name."""
    return _map_cards(value, lambda card: Code(str(card)))


def _map_cards(value: Param, show: Callable[[PlayingCard], Param]) -> Param:
    if isinstance(value, PlayingCard):
        return show(value)
    if isinstance(value, Many):
        return Many(tuple(_map_cards(v, show) for v in value.items), value.separator)
    if isinstance(value, Message):
        return Message.of(value.id, {k: _map_cards(v, show) for k, v in value.params.items()},
                          value.plural, value.count)
    return value


def render_error(err: BaseException, lang: str) -> str:
    """An exception's text in ``lang``: its message when it carries one, else its English."""
    message = getattr(err, "message", None)
    return render(message, lang) if isinstance(message, Message) else str(err)


def render_json(data: Any, lang: str) -> str:
    """A message as JSON (:func:`parlour.message.message_to_json`) in ``lang``."""
    return render(message_from_json(data), lang)


def localize(data: Any, lang: str,
             render_message: Callable[[Any, str], str] = render_json,
             may_hold: Callable[[Any], bool] | None = None) -> Any:
    """JSON data (a view) with every message in it (an object marked ``"$message"``, see
    :func:`parlour.message.message_to_json`) replaced by its text in ``lang``
    (``render_message``'s: the server's remembers the texts it rendered); the rest is left
    as it is (and not copied when it holds no message). ``may_hold``, if given, is asked of
    each top-level entry before it is walked: one it says holds no message is left as it
    is (the server tells so from the entry's encoding, cheaper than a walk)."""
    entries: Iterable[tuple[Any, Any]]
    if isinstance(data, dict):
        if JSON_KEY in data:
            return render_message(data, lang)
        entries = data.items()
    elif isinstance(data, list):
        entries = enumerate(data)
    else:
        return data
    out: Any = None  # a copy of data, made at the first value that changes
    last: Any = None  # the value before, and what it became: entries may share one (the
    last_done: Any = None  # same reason for each card of a hand), worked out once
    for key, value in entries:
        if isinstance(value, dict | list):  # only these can hold a message
            if value is last:
                done = last_done
            elif may_hold is not None and not may_hold(value):
                continue
            else:
                done = last_done = localize(value, lang, render_message)
                last = value
            if done is not value:
                if out is None:
                    out = data.copy()
                out[key] = done
    return data if out is None else out


def fields(template: str) -> set[str]:
    """The ``str.format`` fields a template names (``{suit}`` gives ``suit``)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in
            string.Formatter().parse(template) if name}


class Translator:
    """Bound to one language: ``t("text")``, ``t.n("1 card", "{n} cards", n)``, ``t.p(ctx,
    "word")``, ``t.render(message)``: what the terminal and the CLI hold."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, msgid: str, **params: Any) -> str:
        return self.render(Message.of(msgid, params)) if params else translate(self.lang, msgid)

    def n(self, singular: str, plural: str, count: int, **params: Any) -> str:
        return self.render(Message.of(singular, {**params, "n": count}, plural, "n"))

    def p(self, context: str, word: str) -> str:
        return translate(self.lang, word, context=context)

    def render(self, value: Param) -> str:
        """A message, or any message parameter (a card, a seat, a number), in the language."""
        return render_param(value, self.lang)

    def number(self, n: int | float) -> str:
        return format_number(n, self.lang)


# ----------------------------------------------------------------------------- checking
_MARKUP = re.compile(r"\[(?:/|/?(?:bold|dim|red|cyan|yellow|magenta|green)\b[^\]]*)\]")


def _forms(string: object) -> list[str]:
    return [str(f) for f in string] if isinstance(string, tuple | list) else [str(string or "")]


def catalog_problems(cat: Catalog, expected: Mapping[tuple[str | None, str], str | None],
                     translated: bool = True) -> list[str]:
    """What is wrong with a catalog, given the msgids the code uses (``(context, msgid)`` to
    the plural msgid or None): a msgid missing, untranslated (when ``translated``) or fuzzy,
    one the code no longer uses, a plural entry that is not plural, a form naming other
    ``{fields}`` than its msgid (or the msgid's plural), or rich markup not kept."""
    problems: list[str] = []
    seen: set[tuple[str | None, str]] = set()
    for entry in cat:
        if not entry.id:
            continue
        msgid = entry.id[0] if isinstance(entry.id, tuple | list) else entry.id
        plural = entry.id[1] if isinstance(entry.id, tuple | list) else None
        key = (entry.context, msgid)
        seen.add(key)
        where = f"{cat.locale}: {msgid!r}" + (f" ({entry.context})" if entry.context else "")
        if key not in expected:
            problems.append(f"{where} is not used by the code (run make messages)")
            continue
        if expected[key] != plural:
            problems.append(f"{where}: the code's plural is {expected[key]!r}, not {plural!r}")
        if entry.fuzzy:
            problems.append(f"{where} is fuzzy")
        forms = _forms(entry.string)
        if not translated:
            continue
        if plural is not None and len(forms) != cat.num_plurals:
            problems.append(f"{where} has {len(forms)} forms, not {cat.num_plurals}")
        allowed = [fields(msgid)] + ([fields(plural)] if plural is not None else [])
        markup = sorted(_MARKUP.findall(msgid))
        for form in forms:
            if not form:
                problems.append(f"{where} is not translated")
            elif fields(form) not in allowed:
                problems.append(f"{where}: {form!r} names {sorted(fields(form))}, the msgid "
                                f"{sorted(allowed[-1])}")
            elif sorted(_MARKUP.findall(form)) != markup:
                problems.append(f"{where}: {form!r} does not keep the markup {markup}")
    for context, msgid in expected:
        if (context, msgid) not in seen:
            problems.append(f"{cat.locale}: {msgid!r} is missing (run make messages)")
    return problems


# ----------------------------------------------------------------------------- choosing
def normalize(tag: str | None) -> str | None:
    """The catalog serving a language tag (``pt-BR``, ``pt``, ``id_ID.UTF-8``, ``en-US``), or
    None for a language Parlour does not speak or a malformed tag."""
    if not tag:
        return None
    tag = tag.strip().split(".")[0].split("@")[0]
    if not _TAG.match(tag):
        return None
    parts = tag.replace("_", "-").split("-")
    base = parts[0].lower()
    if len(parts) > 1 and f"{base}_{parts[1].upper()}" in LANGUAGES:
        return f"{base}_{parts[1].upper()}"
    if base in LANGUAGES:
        return base
    if _PREFERRED.get(base) in LANGUAGES:
        return _PREFERRED[base]
    return next((lang for lang in LANGUAGES if lang.split("_")[0] == base), None)


def negotiate(accept_language: str | None, default: str = DEFAULT) -> str:
    """The language for an ``Accept-Language`` header: the highest-q range Parlour speaks
    (ties keep the header's order), ``*`` meaning the default; ``default`` when nothing
    matches or the header is garbage. A plain ``pt`` means pt-BR (Babel's own alias table
    would map it to pt_PT, which Parlour does not have)."""
    if not accept_language or len(accept_language) > 1000:
        return default
    ranges: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = -1.0
                if not 0.0 <= q <= 1.0:
                    q = -1.0
        if q > 0:
            ranges.append((-q, i, tag.strip()))
    for _, _, tag in sorted(ranges):
        if tag == "*":
            return default
        lang = normalize(tag)
        if lang is not None:
            return lang
    return default


def from_environment(environ: Mapping[str, str] | None = None,
                     default: str = DEFAULT) -> str:
    """The terminal's language from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (the
    first one set, as gettext reads them); ``C``/``POSIX`` or an unknown language is the
    default."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            for tag in value.split(":"):
                lang = normalize(tag)
                if lang is not None:
                    return lang
            return default
    return default


# ----------------------------------------------------------------------------- the browser
def plural_categories(lang: str) -> dict[str, int]:
    """Which gettext plural form serves each CLDR plural category of ``lang`` (what the
    browser's ``Intl.PluralRules`` returns), found by evaluating both over many counts; a
    ``ValueError`` if the catalog's Plural-Forms and CLDR disagree."""
    index = _plural_index(lang)
    rule = babel_locale(lang).plural_form
    out: dict[str, int] = {}
    for n in range(0, 1001):
        category, form = rule(n), index(n)
        if out.setdefault(category, form) != form:
            raise ValueError(f"{lang}: Plural-Forms and CLDR split {category!r} at {n}")
    return out


def json_catalog(lang: str) -> dict[str, Any]:
    """The language's catalog for the browser (no build step, no code evaluated): ``locale``
    (a BCP 47 tag), ``messages`` (msgid, or ``context\\u0004msgid``, to its text; a plural
    entry maps each CLDR category to its form, for ``Intl.PluralRules``), and ``languages``
    (every language Parlour speaks, ``{tag, name}``, for the page's language switch)."""
    cats = plural_categories(lang)
    messages: dict[str, str | dict[str, str]] = {}
    if lang != DEFAULT:
        for entry in catalog(lang):
            if not entry.id or entry.fuzzy:
                continue
            key_id = entry.id[0] if isinstance(entry.id, tuple | list) else entry.id
            key = f"{entry.context}\u0004{key_id}" if entry.context else key_id
            if isinstance(entry.string, tuple | list):
                messages[key] = {cat: entry.string[form] for cat, form in cats.items()}
            elif entry.string:
                messages[key] = entry.string
    return {"locale": lang.replace("_", "-"), "messages": messages,
            "languages": [{"tag": other.replace("_", "-"), "name": autonym(other)}
                          for other in LANGUAGES]}


#: Where CLDR's name of a language in itself is not what its speakers call it on a language
#: switch: CLDR says "Indonesia" (the country), speakers say "Bahasa Indonesia".
AUTONYMS = {"id": "Bahasa Indonesia"}


def autonym(lang: str) -> str:
    """The language's name in itself, as a language switch lists it (``Bahasa Indonesia``,
    ``Português (Brasil)``)."""
    name = AUTONYMS.get(lang) or babel_locale(lang).get_display_name(babel_locale(lang)) or lang
    return name[:1].upper() + name[1:]
