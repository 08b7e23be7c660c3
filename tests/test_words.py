"""Indonesian and Brazilian Portuguese as a native player would write them (issue 32): one
test per mistake the issue names, each asserting the text a reader gets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from server_kit import app_client

from parlour.i18n import Translator, json_catalog, render, render_param, translate
from parlour.message import Message
from parlour.registry import game_ids, spec
from parlour.stats import daily_words

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "parlour/web"
ID, PT = Translator("id"), Translator("pt_BR")


def page_word(lang: str, context: str | None, msgid: str) -> str:
    """What the page shows for a msgid (the browser's catalog; English when untranslated)."""
    key = f"{context}\u0004{msgid}" if context else msgid
    return json_catalog(lang)["messages"].get(key, msgid)  # type: ignore[no-any-return]


def test_deal_and_play_are_translated_in_each_sense():
    """The new-table button deals the cards, a Spades score row is the deal's points; the
    replay's Play plays the recording back, the generic table's Play makes a move."""
    lobby, app = (WEB / "lobby.js").read_text(), (WEB / "app.js").read_text()
    assert 'type: "submit" }, p("deal the cards", "Deal")' in lobby
    assert 'btn(p("replay", "Play")' in app and 't("Play")' not in app
    assert page_word("id", "deal the cards", "Deal") == "Bagikan kartu"
    assert page_word("pt_BR", "deal the cards", "Deal") == "Dar as cartas"
    assert page_word("id", "replay", "Play") == "Putar"
    assert page_word("pt_BR", "replay", "Play") == "Reproduzir"
    assert page_word("id", "points of the deal", "Deal") == "Poin ronde"
    assert page_word("pt_BR", "action", "Play") == "Jogar"


def test_clockwork_spades_due_is_one_phrase():
    said = {lang: [render(Message("Turn {turn}: you are due on {positions}.", turn=1,
                                  positions="1, 2, 3"), lang),
                   translate(lang, "Due now: {spades}"), translate(lang, "{spot}, due"),
                   translate(lang, "due {positions}"),
                   translate(lang, "Nothing in your hand matches a due spade: take one as a "
                                   "penalty.")]
            for lang in ("id", "pt_BR")}
    assert said["id"][0] == "Giliran 1: kamu harus bermain di posisi 1, 2, 3."
    assert said["pt_BR"][0] == "Jogada 1: você joga nas posições 1, 2, 3."  # a numbered turn
    assert all("giliran ini" in s or "posisi" in s for s in said["id"][1:])
    assert all("da vez" in s for s in said["pt_BR"][1:])
    for text in said["id"] + said["pt_BR"]:
        assert not re.search(r"jatuh|vence|Rodada", text), text


def test_a_deal_is_never_bagian():
    header = ID("[bold]{game}[/] - deal number [cyan]{seed}[/] (replay it with --seed {seed}). "
                "Type [bold]help[/] for the rules, [bold]?[/] for your moves and a hint.",
                game="Spades", seed=2)
    assert header.startswith("[bold]Spades[/] - kocokan nomor [cyan]2[/]")
    hint = ID("expected team score after this deal, less the cost of its bags")
    assert hint == "perkiraan skor tim setelah ronde ini, dikurangi biaya tasnya"
    assert ID("Deal {deal} - dealer {dealer}", deal=2, dealer="Utara") == "Ronde 2 - pembagi Utara"


def test_the_lobby_bot_tooltips_are_translated_descriptions_not_docstrings():
    lobby = (WEB / "lobby.js").read_text()
    assert "b.help" not in lobby  # the server's docstring line is not shown
    assert "t(said)" in lobby  # a game's own bots: its spec's words, translated
    own = [said for g in game_ids() for said in spec(g).bot_help.values()]
    assert all(spec(g).bot_help.get("rule") for g in game_ids())
    for msgid in own + re.findall(r't\("(Plays[^"]*)"\)', lobby):
        for lang in ("id", "pt_BR"):
            text = translate(lang, msgid)
            assert text != msgid and "iterations" not in text and "ISMCTS" not in text


def test_a_deleted_player_is_named_in_the_readers_language():
    assert ID("Deleted player") == "Pemain yang dihapus"
    assert PT("Deleted player") == "Jogador excluído"
    names = (WEB / "names.js").read_text()
    assert 'name === DELETED_NAME ? t("Deleted player") : name' in names
    said = PT("Your name, password and sessions are deleted. The matches you played stay in "
              "other players' records under the name “{name}”.", name=PT("Deleted player"))
    assert "“Jogador excluído”" in said and "Deleted" not in said


def test_no_english_blunder_bag_blind_nil_replay_or_rating():
    assert ID("Blunder") == "Kesalahan fatal"
    assert ID.n("{n} bag", "{n} bags", 3) == "3 tas"
    assert ID("Bag penalty") == "Penalti tas"
    assert ID("blind nil is not played at this table") == "nil buta tidak dimainkan di meja ini"
    assert PT("Replay") == "Rever" and PT("Rating") == "Pontuação no ranking"
    assert "replay" not in PT("Replay of match {match}", match=1).lower()


@pytest.mark.parametrize(("lang", "title", "back"), [
    ("id", "Tidak ada halaman di alamat ini.", "Kembali ke lobi"),
    ("pt-BR", "Não há nenhuma página neste endereço.", "Voltar ao salão")])
def test_an_unknown_address_is_a_page_in_the_readers_language_for_a_browser(
        tmp_path, lang, title, back):
    with app_client(tmp_path / "words.sqlite3") as client:
        browser = client.get("/no/such/place", headers={
            "Accept": "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": lang})
        assert browser.status_code == 404
        assert browser.headers["content-type"].startswith("text/html")
        assert f'<html lang="{lang}">' in browser.text
        assert f"<h1>{title}</h1>" in browser.text and f'href="/">{back}</a>' in browser.text
        program = client.get("/no/such/place", headers={"Accept-Language": lang})
        assert program.status_code == 404 and program.json()["error"]["code"] == "not_found"
        api = client.get("/api/no/such", headers={"Accept": "text/html", "Accept-Language": lang})
        assert api.status_code == 404 and api.json()["error"]["code"] == "not_found"


def test_a_lost_score_says_yours_first():
    lost = ID("You lose {won} to {lost}", won=101, lost=-50)
    assert lost == "Kamu kalah: timmu -50, lawan 101"
    assert PT("You lose {won} to {lost}", won=101, lost=-50) == \
        "Você perdeu: sua dupla -50, adversários 101"
    assert PT("You lose the match {won} to {lost}", won=50, lost=12) == \
        "Você perdeu a partida: você 12, adversário 50"


def test_portuguese_grammar():
    pile = PT("Centre pile {number}: {what}; {needs}", number=1,
              what=page_word("pt_BR", "pile", "empty"), needs=PT("to start"))
    assert pile == "Pilha central 1: vazia; para começar"
    assert page_word("pt_BR", "stock", "empty") == "vazio"
    # zero said on its own, never "0 ponto", "0 dia", "0 jogador"
    assert render(daily_words(0, None), "pt_BR") == "nenhum ponto"
    assert render(daily_words(2, None), "pt_BR") == "2 pontos"
    players = (WEB / "players.js").read_text()
    assert 'g.players ? n("{n} player counted today"' in players
    assert 'me.streak ? n("Daily streak: {n} day"' in players
    assert PT("Nobody counted today yet") == "Ninguém contado hoje ainda"
    deck = PT("a deck of {size} cards is too small to deal {hand} cards to {seats} players (at "
              "least {need} are needed)", size=20, hand=7, seats=4, need=29)
    assert "são necessárias pelo menos 29" in deck and "precisas" not in deck
    jokers = PT("jokers added to the two decks as extra wild cards")
    assert "curinga" in jokers and "coringa" not in jokers


def test_the_language_switch_names_each_language_as_its_speakers_do():
    names = {x["tag"]: x["name"] for x in json_catalog("en")["languages"]}
    assert names == {"en": "English", "id": "Bahasa Indonesia", "pt-BR": "Português (Brasil)"}


def test_the_daily_page_writes_the_day_as_the_reader_does():
    players, i18n = (WEB / "players.js").read_text(), (WEB / "i18n.js").read_text()
    assert "{ day: dayText(today.day) }" in players
    assert 'new Intl.DateTimeFormat(catalog.locale, { dateStyle: "long", timeZone: "UTC" })' in i18n


@pytest.mark.parametrize("lang", ["id", "pt_BR"])
def test_protocol_words_inside_a_translation_stay_as_the_protocol_has_them(lang):
    """A JSON message a refusal quotes ({"kind": "bot", ...}) is the protocol's, in every
    language: a translator's word swap (bot -> robô) must not reach it."""
    with (ROOT / f"parlour/locale/{lang}/LC_MESSAGES/messages.po").open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        msgid = " ".join(m.id) if isinstance(m.id, tuple) else m.id
        text = " ".join(m.string) if isinstance(m.string, tuple) else m.string
        for literal in re.findall(r'\{\{?"[^{}]*\}?\}', msgid or ""):
            assert literal in text, (lang, msgid, literal)


def test_a_rank_code_stays_a_code_and_the_sentence_around_it_reads_right():
    """A rank code is notation, as the piles show it ("K", "7"), never a word with an article
    ("um rei", "raja"); the one sentence that uses one names it as a card of that rank."""
    from parlour.games.spite_and_malice.spec import RANK_CODES
    from parlour.message import PlayingCard, Term
    for lang in ("id", "pt_BR"):
        assert [render_param(term, lang) for term in RANK_CODES] == [t.word for t in RANK_CODES]
    def needs(lang: str, rank: str) -> str:
        msgid = ("centre pile {pile} needs an {rank}, not the {card}" if rank in ("A", "8")
                 else "centre pile {pile} needs a {rank}, not the {card}")
        return render(Message(msgid, pile=2, rank=Term("rank-code", rank),
                              card=PlayingCard(7)), lang)
    assert needs("id", "Q") == "tumpukan tengah 2 perlu kartu Q, bukan sembilan keriting"
    assert needs("pt_BR", "Q") == "a pilha central 2 precisa de um Q, não nove de paus"
    assert needs("pt_BR", "A").startswith("a pilha central 2 precisa de um A, não ")


def test_labels_the_reader_met_word_for_word():
    assert (ID("Unmute"), PT("Unmute")) == ("Bunyikan", "Ativar som")
    assert ID("Wins") == "Kemenangan" and PT("Wins") == "Vitórias"
    assert ID("Side {number}", number=2) == "Tumpukan samping 2"
    assert ID("points that win the match") == "poin untuk memenangkan pertandingan"
    assert PT("points that win the match") == "pontos para vencer a partida"
    assert PT("You win") == "Você venceu" and PT("You lose") == "Você perdeu"
    assert PT("Turned over: {cells}.", cells="a1") == "Cartas viradas: a1."
    assert PT("({chance} to win)", chance="40%") == "(chance de vitória: 40%)"
    assert ID("{card} picked up.", card="7") == "7 diangkat."


def test_what_a_centre_pile_needs_takes_the_article_of_its_rank_on_the_web():
    """The web names the rank in words ("needs a queen"): one phrase per rank, so the
    article agrees ("uma dama", "um ás"), never "um dama" from a "{rank}" slot."""
    table = (spec("spite-and-malice").folder / "table.js").read_text()
    assert 'needs a {rank}' not in table and 'needs an {rank}' not in table
    assert page_word("pt_BR", None, "needs a queen") == "precisa de uma dama"
    assert page_word("pt_BR", None, "needs an ace") == "precisa de um ás"
    assert page_word("id", None, "needs a seven") == "perlu kartu 7"
    said = PT("Centre pile {number} {needs}, not the {card}.", number=1,
              needs=page_word("pt_BR", None, "needs a queen"), card="dez de copas")
    assert said == "A pilha central 1 precisa de uma dama, não dez de copas."
