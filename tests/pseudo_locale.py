"""A pseudo-locale for the tests, ``qps``: every msgid of the catalogs decorated (``Ŧĥé
ĉáŕđ`` becomes ``[!! Ŧĥé çáŕđ !!]``), made at test time from the ``en`` catalog (which holds
every msgid the code uses) and never written to disk. Each ASCII letter of a translation is
swapped for an accented one, so a page in ``qps`` that still shows an ASCII word shows a
string that skipped the catalogs (or a name, a number or a code: see
``test_browser_i18n.py``). The ``{fields}`` stay as they are, so messages still format.

``install(monkeypatch)`` makes the running process speak ``qps`` as a fourth language:
negotiation, the server's renderings and the browser's JSON catalog all find it, with
English's plural rules and number formats."""

from __future__ import annotations

import re
from functools import cache

from babel import Locale
from babel.messages.catalog import Catalog

import parlour.i18n as i18n

TAG = "qps"
_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "áƀçđéƒğĥíĵķłɱñóþʠŕšŧúʋŵẋýžÁƁÇĐÉƑĞĤÍĴĶŁṀÑÓÞǪŔŠŦÚṼŴẊÝŽ"
_SWAP = str.maketrans(_PLAIN, _ACCENTED)
_KEPT = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")  # format fields and escaped braces


def decorate(text: str) -> str:
    """``text`` in the pseudo-locale: bracketed, its letters accented, its fields kept."""
    parts = _KEPT.split(text)
    return "[!! " + "".join(p if _KEPT.fullmatch(p) else p.translate(_SWAP) for p in parts) \
        + " !!]"


@cache
def pseudo_catalog() -> Catalog:
    """Every msgid of the ``en`` catalog, each translated by :func:`decorate`."""
    source = i18n.catalog("en")
    out = Catalog(locale="en", domain=i18n.DOMAIN)
    for entry in source:
        if not entry.id:
            continue
        if isinstance(entry.id, tuple | list):
            string: str | tuple[str, ...] = (decorate(entry.id[0]), decorate(entry.id[1]))
        else:
            string = decorate(entry.id)
        out.add(entry.id, string, context=entry.context)
    return out


def install(monkeypatch) -> None:
    """Make ``qps`` a language of this process (for a test's server thread)."""
    real_catalog, real_locale = i18n.catalog, i18n.babel_locale
    monkeypatch.setattr(i18n, "LANGUAGES", (*i18n.LANGUAGES, TAG))
    monkeypatch.setattr(i18n, "catalog",
                        lambda lang: pseudo_catalog() if lang == TAG else real_catalog(lang))
    monkeypatch.setattr(i18n, "babel_locale",
                        lambda lang: Locale("en") if lang == TAG else real_locale(lang))
