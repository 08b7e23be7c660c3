"""Parlour in English, Indonesian and Brazilian Portuguese: the catalogs are complete and
consistent with the code, every reason and narration line the games produce renders in every
language, the terminal speaks the player's language, and language negotiation."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from rich.console import Console

from parlour import i18n, vocabulary
from parlour.engine import IllegalAction, Message, Param, PlayingCard, Term
from parlour.i18n import (
    LANGUAGES,
    catalog,
    catalog_problems,
    from_environment,
    json_catalog,
    negotiate,
    render,
    render_error,
)
from parlour.message import Code, Many, plural_message
from parlour.registry import game_ids, spec
from parlour.terminal import play

ROOT = Path(__file__).resolve().parent.parent


# ----------------------------------------------------------------------------- catalogs
def _keywords() -> dict[str, Any]:
    """The extraction keywords, read from the Makefile's BABEL_KEYWORDS (their one place)."""
    line = next(x for x in (ROOT / "Makefile").read_text().splitlines()
                if x.startswith("BABEL_KEYWORDS"))
    keywords: dict[str, Any] = {}
    for spec_text in re.findall(r"-k (\S+)", line):
        name, _, args = spec_text.partition(":")
        spec_args: list[Any] = []
        for a in args.split(",") if args else []:
            spec_args.append((int(a[:-1]), "c") if a.endswith("c") else int(a))
        keywords[name] = tuple(spec_args) or None
    return keywords


@pytest.fixture(scope="module")
def expected() -> dict[tuple[str | None, str], str | None]:
    """Every msgid the code uses, extracted as ``make messages`` extracts it."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    out: dict[tuple[str | None, str], str | None] = {}
    for _, _, message, _, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=_keywords()):
        if isinstance(message, tuple):
            out[(context, message[0])] = message[1]
        else:
            out[(context, message)] = None
    assert len(out) > 150  # the engine's reasons, the narration, the terminal
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_msgid_is_in_every_catalog_and_translated_with_the_same_fields(lang, expected):
    problems = catalog_problems(catalog(lang), expected, translated=lang != "en")
    assert problems == []


def test_the_check_catches_a_missing_translation_a_field_mismatch_and_lost_markup(expected):
    broken = Catalog(locale="pt_BR")
    for (context, msgid), plural in expected.items():
        entry = catalog("pt_BR").get(msgid, context=context)
        broken.add((msgid, plural) if plural else msgid, entry.string, context=context)
    broken["must follow {suit}"].string = "é preciso seguir {naipe}"  # a renamed field
    broken["Your hand: "].string = ""  # untranslated
    broken["{who} bids [bold]{bid}[/]."].string = "{who} pede {bid}."  # the markup dropped
    broken.add("a line nobody uses", "uma linha")
    del broken["the game is over"]
    problems = "\n".join(catalog_problems(broken, expected))
    assert "'must follow {suit}': 'é preciso seguir {naipe}' names ['naipe']" in problems
    assert "'Your hand: ' is not translated" in problems
    assert "does not keep the markup ['[/]', '[bold]']" in problems
    assert "'a line nobody uses' is not used by the code" in problems
    assert "'the game is over' is missing" in problems
    assert len(catalog_problems(broken, expected)) == 5


def test_plural_forms_are_set_by_hand_where_babel_is_wrong():
    # Babel 2.18 gives Indonesian the two-form fallback; CLDR (and the catalog) has one.
    assert Catalog(locale="id").num_plurals == 2
    assert catalog("id").num_plurals == 1 and catalog("id").plural_expr == "0"
    assert catalog("pt_BR").num_plurals == 2
    assert i18n.plural_categories("id") == {"other": 0}
    assert i18n.plural_categories("pt_BR") == {"one": 0, "other": 1}
    assert i18n.plural_categories("en") == {"one": 0, "other": 1}
    draws = plural_message("{who} draws {n} card.", "{who} draws {n} cards.", "n", who="Ana",
                           n=1)
    with pytest.raises(ValueError, match="must be an int"):
        Message.of(draws.id, {"who": "Ana"}, draws.plural, "n")
    with pytest.raises(ValueError, match="both its plural form and its count"):
        Message.of(draws.id, {"who": "Ana", "n": 1}, draws.plural)
    for n, pt, id_ in ((0, "compra 0 carta", "mengambil 0 kartu"),
                       (1, "compra 1 carta", "mengambil 1 kartu"),
                       (2, "compra 2 cartas", "mengambil 2 kartu")):
        message = Message.of(draws.id, {"who": "Ana", "n": n}, draws.plural, "n")
        assert render(message, "pt_BR") == f"Ana {pt}."
        assert render(message, "id") == f"Ana {id_}."
        assert str(message) == f"Ana draws {n} card{'' if n == 1 else 's'}."


def test_numbers_cards_and_suits_as_each_language_says_them():
    big = Message("the pile at {cell} already holds {height} cards", cell=Code("c3"),
                  height=12345)
    assert render(big, "en") == "the pile at c3 already holds 12,345 cards"
    assert render(big, "id") == "tumpukan di c3 sudah berisi 12.345 kartu"
    assert render(big, "pt_BR") == "a pilha em c3 já tem 12.345 cartas"
    queen = PlayingCard(49)
    assert str(queen) == "QS"
    assert [render(Message("you do not hold {card}", card=queen), lang) for lang in LANGUAGES] \
        == ["you do not hold queen of spades", "kamu tidak memegang ratu sekop",
            "você não tem dama de espadas"]
    names = {lang: [i18n.card_name(PlayingCard(c), lang) for c in (12, 22, 35, 50, 9)]
             for lang in LANGUAGES}
    assert names["id"] == ["as keriting", "jack wajik", "jack hati", "raja sekop",
                           "jack keriting"]
    assert names["pt_BR"] == ["ás de paus", "valete de ouros", "valete de copas",
                              "rei de espadas", "valete de paus"]
    assert i18n.card_name(PlayingCard(52), "pt_BR") == "curinga"


def test_the_browser_catalog_is_plain_json_keyed_by_plural_category():
    pt = json_catalog("pt_BR")
    assert pt["locale"] == "pt-BR"
    assert pt["messages"]["must follow {suit}"] == "é preciso seguir {suit}"
    assert pt["messages"]["suit\u0004hearts"] == "copas"
    assert pt["messages"]["{who} draws {n} card."] == {"one": "{who} compra {n} carta.",
                                                       "other": "{who} compra {n} cartas."}
    assert json_catalog("id")["messages"]["{who} draws {n} card."] == {
        "other": "{who} mengambil {n} kartu."}
    en = json_catalog("en")
    assert en["locale"] == "en" and en["messages"] == {}
    # every language, named in itself, for the page's language switch
    assert en["languages"] == json_catalog("id")["languages"] == [
        {"tag": "en", "name": "English"}, {"tag": "id", "name": "Bahasa Indonesia"},
        {"tag": "pt-BR", "name": "Português (Brasil)"}]


# ----------------------------------------------------------------------------- the games
def _terms(value: Param) -> Iterator[Term]:
    if isinstance(value, Term):
        yield value
    elif isinstance(value, PlayingCard):
        yield from (Term("card", "joker"),) if value.is_joker else (value.rank, value.suit)
    elif isinstance(value, Many):
        for item in value.items:
            yield from _terms(item)
    elif isinstance(value, Message):
        for item in value.params.values():
            yield from _terms(item)


def _check_renders(message: Message) -> None:
    """The message renders in every language, every field filled and every word translated
    (strict); each word it uses is listed for extraction."""
    for lang in LANGUAGES:
        text = render(message, lang, strict=True)
        assert "{" not in text and text.strip(), (lang, message)
    unlisted = set(_terms(message)) - vocabulary.every_term()
    assert not unlisted, f"add {unlisted} to parlour/vocabulary.py or the game spec's vocabulary"


@pytest.mark.parametrize("game_id", game_ids())
def test_every_refusal_narration_and_move_of_random_games_renders_in_every_language(game_id):
    game_spec = spec(game_id)
    game = game_spec.game
    refusals = events = moves = 0
    for i in range(2):
        rng = random.Random(i)
        state = game.new(1000 + i, **dict(game_spec.short_match))
        steps = 0
        while state.to_act and steps < 150:
            seat = rng.choice(state.to_act)
            legal = set(state.legal_actions(seat))
            for action in rng.sample(range(game.num_actions), min(25, game.num_actions)):
                if action not in legal:
                    with pytest.raises(IllegalAction) as err:
                        state.apply(action, seat)
                    _check_renders(err.value.message)
                    assert str(err.value) == str(err.value.message)
                    refusals += 1
            view = state.view(seat)  # a move in words, as a hint or a replay says it
            for action in rng.sample(sorted(legal), min(8, len(legal))):
                said = game_spec.say_action(view, game.action_text(action))
                _check_renders(said)
                assert render(said, "id") != game.action_text(action), said  # words, not code
                moves += 1
            state.apply(rng.choice(sorted(legal)), seat)
            steps += 1
            if game_spec.narrate_event is not None:
                view = state.view(seat)
                for event in view.get("events", []):
                    _check_renders(game_spec.narrate_event(event, ["Ana", "Budi"]))
                    assert str(game_spec.narrate_event(event, ["Ana", "Budi"])) == \
                        game_spec.describe_event(event, ["Ana", "Budi"])
                    events += 1
        for bad in (-1, game.num_actions, "QS", True):
            with pytest.raises(IllegalAction) as err:
                state.apply(bad, state.to_act[0] if state.to_act else None)
            _check_renders(err.value.message)
    assert refusals > 20 and moves > 20
    assert events > 0 or game_spec.narrate_event is None


def test_the_reasons_are_the_games_own_words_in_each_language():
    state = spec("spades").game.new(3)
    with pytest.raises(IllegalAction) as err:
        state.apply(5)  # a card during the bidding
    assert [render_error(err.value, lang) for lang in LANGUAGES] == [
        "bidding is not over: bid before playing a card",
        "penawaran belum selesai: tawar dulu sebelum memainkan kartu",
        "os lances não acabaram: dê seu lance antes de jogar uma carta"]
    with pytest.raises(IllegalAction) as err:
        state.apply(state.legal_actions()[0], 2)  # North out of turn
    assert render_error(err.value, "id") == "bukan giliran Utara (giliran Selatan)"
    assert render_error(err.value, "pt_BR") == "não é a vez de Norte (a vez é de Sul)"
    assert str(err.value) == "it is not North's turn (South to act)"


# ----------------------------------------------------------------------------- terminal
def _play(game_id: str, lang: str, answers: list[str], **kwargs: Any) -> str:
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False, color_system=None)
    feed = iter(answers)

    def read(prompt: str) -> str:
        console.print(prompt)
        return next(feed)

    play(game_id, console=console, read_line=read, lang=lang, **kwargs)
    return out.getvalue()


def test_the_terminal_plays_spades_in_indonesian():
    # Seed 3: South holds no ace of spades; a bid, then a card not held, then a real one.
    text = _play("spades", "id", ["bid 4", "AS", "2D", "q", "n"], seed=3)
    assert "Kamu adalah Selatan." in text
    assert "[bold]" not in text and "{" not in text
    assert "Q keriting" not in text and "Q ratu" in text  # the legend, in Indonesian
    assert "S sekop" in text and "jadi QS adalah ratu sekop" in text
    assert "Selatan (kamu) menawar 4." in text  # narration
    assert "kamu tidak memegang as sekop - coba lagi" in text  # the engine's reason
    assert re.search(r"Barat menawar \d+\.", text)
    assert "Selatan (kamu) memainkan 2♦." in text
    assert "Tawaran" in text and "Kartumu >" in text
    assert "Meninggalkan meja." in text


def test_the_terminal_plays_spite_and_malice_in_portuguese():
    state = spec("spite-and-malice").game.new(11)
    seat = 0 if 0 in state.to_act else 1
    # A hand card that does not fit centre pile 1 (it needs an ace), then a discard.
    hand = state.view(seat)["hand"]
    slot = next(i for i, c in enumerate(hand, start=1) if c and c[:-1] not in ("A", "K")
                and c != "Joker")
    answers = [f"h{slot}>c1", f"h{slot}>s1", "q", "n"]
    text = _play("spite-and-malice", "pt_BR", answers, seed=11, seat=seat)
    assert "Você é" in text and "(você)" in text
    assert "a pilha central 1 precisa de um A, não " in text  # the engine's reason
    assert "- tente de novo" in text
    assert re.search(r"põe \S+ na pilha lateral 1; fim da vez\.", text)  # narration
    assert "Monte: " in text and "Sua mão:" in text
    assert "C paus, D ouros, H copas, S espadas" in text
    assert "{" not in text


def test_the_terminal_follows_lang_and_stays_english_by_default(monkeypatch):
    text = _play("spades", "", ["q", "n"], seed=3)
    assert "You are South." in text
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False, color_system=None)
    feed = iter(["q", "n"])
    play("spades", seed=3, console=console, read_line=lambda p: next(feed))
    assert "Você é Sul." in out.getvalue()


# ----------------------------------------------------------------------------- choosing
@pytest.mark.parametrize(("header", "lang"), [
    ("pt", "pt_BR"),
    ("pt-PT", "pt_BR"),
    ("pt-BR", "pt_BR"),
    ("PT-br", "pt_BR"),
    ("id-ID", "id"),
    ("id", "id"),
    ("in", "id"),
    ("en-US,en;q=0.9", "en"),
    ("fr-FR, pt;q=0.8, en;q=0.5", "pt_BR"),
    ("en;q=0.5, id;q=0.9", "id"),
    ("id;q=0.5, pt-BR;q=0.5", "id"),  # a tie keeps the header's order
    ("de, *;q=0.1", "en"),
    ("pt;q=0, id;q=0.1", "id"),  # q=0 means not acceptable
    ("fr, de", "en"),
    ("", "en"),
    (None, "en"),
    ("garbage;;;q=zz", "en"),
    ("id;q=2", "en"),
    ("pt;q=abc, id", "id"),
    ("<script>", "en"),
    ("x" * 5000, "en"),
    ("🂡, pt", "pt_BR"),
])
def test_accept_language_negotiation(header, lang):
    assert negotiate(header) == lang


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "id_ID.UTF-8"}, "id"),
    ({"LANG": "pt_PT.UTF-8"}, "pt_BR"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LC_ALL": "pt_BR.UTF-8", "LANG": "id_ID.UTF-8"}, "pt_BR"),
    ({"LANGUAGE": "fr:id", "LANG": "pt_BR.UTF-8"}, "id"),
    ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "id_ID.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_terminal_language_from_the_environment(environ, lang):
    assert from_environment(environ) == lang


# ----------------------------------------------------------------------------- cli
def test_the_command_line_speaks_the_language_asked_for(capsys, monkeypatch):
    from parlour.cli import main

    assert main(["--lang", "id", "games"]) == 0
    out = capsys.readouterr().out
    assert "spades - Spades, 4 kursi" in out and "opsi" in out and "bawaan" in out
    assert main(["games", "--lang", "pt"]) == 0
    out = capsys.readouterr().out
    assert "spite-and-malice - Spite & Malice, 2 lugares" in out
    assert "hit-the-deck - Hit the Deck, 2 a 6 lugares" in out
    assert "pontos para vencer a partida (um número inteiro de 10 a 5.000)" in " ".join(
        out.split())  # an option's help and its values
    assert main(["rules", "spades", "--lang", "pt-BR"]) == 0
    out = capsys.readouterr().out
    assert "Como jogar Spades" in out and "Regras completas: parlour rules spades --full" in out
    assert main(["rules", "spades", "--lang", "pt-BR", "--full"]) == 0
    out = capsys.readouterr().out
    assert "Regras completas de Spades" in out and "escrita em inglês" not in out
    assert main(["play", "spades", "--lang", "klingon"]) == 2
    assert capsys.readouterr().err == "parlour: no language klingon: choose from en, id, " \
                                      "pt-BR\n"
    monkeypatch.setenv("LANG", "id_ID.UTF-8")
    assert main(["play", "spades", "--option", "target=5"]) == 2
    assert capsys.readouterr().err == "parlour: opsi 'target' paling sedikit 10, bukan 5\n"
    assert main(["play", "spades", "--lang", "en", "--option", "target=5"]) == 2
    assert capsys.readouterr().err == "parlour: option 'target' must be at least 10, not 5\n"


def test_a_fourth_language_is_one_more_catalog_file(tmp_path, monkeypatch):
    for lang in ("en", "id", "pt_BR", "es", "pt_PT"):
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True)
        (tmp_path / lang / "LC_MESSAGES" / "messages.po").write_text("")
    (tmp_path / "fr").mkdir()  # a folder without a catalog is no language
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    found = i18n._discover()
    assert found == ("en", "es", "id", "pt_BR", "pt_PT")
    monkeypatch.setattr(i18n, "LANGUAGES", found)
    assert negotiate("es-MX, en;q=0.5") == "es"
    assert negotiate("pt-PT") == "pt_PT"  # once it has its own catalog
    assert negotiate("pt") == "pt_BR" and negotiate("pt-BR") == "pt_BR"
    assert negotiate("fr, de") == "en"
