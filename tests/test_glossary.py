"""One word per concept (issue 32): each language's glossary (docs/i18n/glossary.<tag>.md)
names the word Parlour uses for each game concept and the synonyms it rejects; no catalog
translation and no How to play page of that language may use a rejected one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from parlour.howto import page_path
from parlour.registry import game_ids

ROOT = Path(__file__).resolve().parent.parent
GLOSSARIES = {"id": ROOT / "docs/i18n/glossary.id.md",
              "pt_BR": ROOT / "docs/i18n/glossary.pt-BR.md"}
#: The concepts the issue names: every glossary has a row for each.
CONCEPTS = ("round", "deal", "trick", "bid", "nil", "blind nil", "bags", "penalty", "grid",
            "cell", "stock", "payoff pile", "centre pile", "side pile", "slap", "shout",
            "due spade", "lobby", "bot", "rating", "review", "blunder", "hand", "turn",
            "match", "score", "player", "partner", "team", "draw pile", "discard pile")


@dataclass(frozen=True)
class Row:
    concept: str
    word: str
    rejected: tuple[str, ...]


def glossary(lang: str) -> list[Row]:
    """The table's rows: | concept | word | why | `rejected`, `terms` |."""
    rows = []
    for line in GLOSSARIES[lang].read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("concept", "---"):
            continue
        rows.append(Row(cells[0], cells[1], tuple(re.findall(r"`([^`]+)`", cells[3]))))
    return rows


def _kept_from_english(msgid: str) -> set[str]:
    """Spans a translation keeps exactly as the English has them: typed notation and the
    protocol's JSON."""
    return set(re.findall(r"\[bold\][^\[]*\[/\]|'[^']*'|`[^`]*`|\"[^\"]*\"", msgid))


def _prose(text: str, kept: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """The words a reader reads as the language's own: placeholders, Jinja, code spans,
    image addresses and notation kept from the English taken out."""
    for span in sorted(kept, key=len, reverse=True):
        text = text.replace(span, " ")
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{[\w.]*\}|`[^`]*`|\]\([^)]*\)", " ", text)
    return text


def texts(lang: str) -> list[tuple[str, str]]:
    """(where, prose) for every translation in the catalog and every How to play page."""
    out = []
    path = ROOT / f"parlour/locale/{lang}/LC_MESSAGES/messages.po"
    with path.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if not m.id:
            continue
        msgid = m.id[0] if isinstance(m.id, tuple) else m.id
        kept = _kept_from_english(" ".join(m.id) if isinstance(m.id, tuple) else m.id)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for form in forms:
            out.append((f"msgid {msgid!r}", _prose(form, kept)))
    pages = [page_path(game_id, lang) for game_id in game_ids()]
    assert pages and all(page.is_file() for page in pages), pages
    for page in pages:
        out.append((str(page.relative_to(ROOT)), _prose(page.read_text(encoding="utf-8"))))
    return out


def uses(term: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(term)}(?!\w)", text, re.IGNORECASE) is not None


@pytest.mark.parametrize("lang", sorted(GLOSSARIES))
def test_the_glossary_names_every_concept_once_with_its_rejected_synonyms(lang):
    rows = glossary(lang)
    named = [r.concept for r in rows]
    for concept in CONCEPTS:
        assert any(c == concept or c.startswith(concept + " (") for c in named), (lang, concept)
    assert all(r.word for r in rows)
    assert sum(len(r.rejected) for r in rows) >= 40
    for row in rows:  # a word is never also rejected for its own concept
        assert not any(uses(t, row.word) for t in row.rejected), row


@pytest.mark.parametrize("lang", sorted(GLOSSARIES))
def test_no_translation_uses_a_word_the_glossary_rejects(lang):
    read = texts(lang)  # (once: read for each term, the catalog cost 10 s of CPU)
    assert any(where.endswith(f"howto/{lang}.md") for where, _ in read)
    found = [f"{where}: {row.concept!r} is {row.word!r}, not {term!r}"
             for row in glossary(lang) for term in row.rejected
             for where, text in read if uses(term, text)]
    assert not found, "\n".join(found)


def test_the_check_catches_a_rejected_word_but_not_notation_or_a_longer_word():
    assert uses("babak", "Babak 2 dimulai") and not uses("bag", "bagian nomor 2")
    assert _prose("ketik [bold]blind nil[/]", _kept_from_english("type [bold]blind nil[/]")) \
        .strip() == "ketik"
    assert uses("blind nil", _prose("Kamu boleh menawar blind nil."))
    assert not uses("bot", _prose("robô {bot}"))
