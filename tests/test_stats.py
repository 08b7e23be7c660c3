"""Each game's figures, read from finished matches (parlour/stats.py), and the rating maths
(parlour/server/people/ratings.py): fixed bot ratings, teams, leaving as a loss, the pause."""

from __future__ import annotations

import random

import pytest

from parlour.engine import play_random
from parlour.games import game_ids
from parlour.i18n import render
from parlour.message import Message
from parlour.record import parse_record, record_text, replay
from parlour.registry import WEB, spec
from parlour.server.people import ratings as R
from parlour.stats import (
    COMMON,
    Figure,
    daily_result,
    daily_words,
    figure_words,
    match_counts,
    summarise,
)


def finished(game_id: str, seed: int, one_deal: bool = True):
    found = spec(game_id)
    options = dict(found.one_deal if one_deal else found.short_match)
    state = found.game.new(seed, **options)
    return play_random(state, random.Random(seed))


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_figures_read_the_same_from_its_record(game_id):
    found = spec(game_id)
    assert found.stats is not None
    for seed in range(6):
        state = finished(game_id, seed, one_deal=seed % 2 == 0)
        again = replay(parse_record(record_text(state)))  # what a stored record gives
        for seat in range(state.num_seats):
            counts = match_counts(state, seat, found.stats)
            assert counts == match_counts(again, seat, found.stats)
            assert counts["matches"] == 1
            assert counts["wins"] == (state.outcome.placing[seat] == 1)
            assert all(v >= 0 for k, v in counts.items() if k != "points")
            figures = summarise([counts], found.stats)
            assert {f.key for f in found.stats.figures} <= set(figures)
        with pytest.raises(ValueError):
            match_counts(found.game.new(seed), 0, found.stats)


def test_spades_counts_every_deals_bid_or_nil_and_the_teams_bags():
    for seed in range(8):
        state = finished("spades", seed, one_deal=False)
        deals = state.view(None)["deals"]
        for seat in range(4):
            c = match_counts(state, seat, spec("spades").stats)
            assert c["deals"] == len(deals)
            assert c["bids"] + c["nils"] == len(deals)
            assert c["nils_made"] + c["nils_failed"] == c["nils"]
            assert 0 <= c["bids_made"] <= c["bids"]
            assert c["bags"] == sum(d["teams"][seat % 2]["bag_points"] for d in deals)


def test_hit_the_deck_reads_slap_times_and_missed_shouts_from_the_actions():
    state = finished("hit-the-deck", 3)
    texts = [(s, state.action_text(a)) for s, a in state.history]
    for seat in range(state.num_seats):
        c = match_counts(state, seat, spec("hit-the-deck").stats)
        slaps = [int(t[5:-2]) for s, t in texts if s == seat and t.startswith("slap ")]
        assert c["slaps"] == len(slaps) and c["slap_ms"] == sum(slaps)
        assert c["shouts_missed"] == sum(1 for s, t in texts if s == seat and t == "hit hand")
    # and fewer points are better: the daily result turns them round
    assert daily_result(state, 0, spec("hit-the-deck").stats) == -state.outcome.points[0]


def test_summaries_add_counts_up_and_keep_the_best():
    stats = spec("foursquare").stats
    figures = summarise([{"matches": 1, "wins": 1, "points": 3, "score": 3, "placed": 49},
                         {"matches": 1, "wins": 0, "points": 0, "score": 0, "placed": 20}],
                        stats)
    assert figures["matches"] == 2 and figures["win_rate"] == 0.5
    assert figures["best_score"] == 3 and figures["mean_score"] == 1.5
    assert summarise([], stats)["win_rate"] is None  # nothing to divide by: no figure


def test_foursquares_daily_result_ranks_a_win_above_any_loss():
    results = []
    for seed in range(40):
        state = finished("foursquare", seed)
        won = state.outcome.placing[0] == 1
        results.append((won, daily_result(state, 0, spec("foursquare").stats)))
    assert all(r >= 52 for won, r in results if won)
    assert all(r < 52 for won, r in results if not won)


def test_a_daily_result_is_said_in_words_of_its_game():
    """The number that ranks daily results reads as what it means: a penalty taken is
    "1 penalty spade" (not "-1"), a Foursquare deal won or lost as such."""
    said = {game: (lambda r, g=game: render(daily_words(r, spec(g).stats), "en"))
            for game in game_ids()}
    assert said["clockwork-spades"](-1.0) == "1 penalty spade"
    assert said["clockwork-spades"](0.0) == "no penalty spades"  # zero said on its own
    assert said["hit-the-deck"](-17.0) == "17 penalty points"
    assert said["spades"](-40.0) == "-40 points" and said["spades"](1.0) == "1 point"
    assert said["spite-and-malice"](12.0) == "12 points"
    assert said["foursquare"](52.0) == "won, with no card left in the stock"
    assert said["foursquare"](64.0) == "won, 12 cards left in the stock"
    assert said["foursquare"](17.0) == "lost after 17 cards placed"
    assert render(daily_words(-2.0, spec("clockwork-spades").stats),
                  "pt_BR") == "2 espadas de castigo"
    for seed in range(6):  # every finished deal's result is said the way its game scores it
        for game in game_ids():
            state = finished(game, seed)
            text = said[game](daily_result(state, 0, spec(game).stats))
            assert "-" not in text or game in ("spades", "spite-and-malice"), (game, text)


# ----------------------------------------------------------------------------- ratings
def test_bot_ratings_are_fixed_and_ordered_by_measured_strength():
    for game_id in ("spades", "spite-and-malice", "hit-the-deck"):
        rnd, rule = R.bot_rating(game_id, "random"), R.bot_rating(game_id, "rule")
        strong = [R.bot_rating(game_id, k) for k in spec(game_id).bot_elo if "ismcts" in k]
        assert rnd and rule and strong
        assert rnd.mu < rule.mu < min(s.mu for s in strong if s)
    assert R.bot_rating("spades", "rule") == R.Rating(R.MU, R.BOT_SIGMA)
    assert R.bot_rating("hit-the-deck", "ismcts") == R.bot_rating("hit-the-deck",
                                                                  "ismcts:normal")
    assert R.bot_rating("hit-the-deck", "ismcts") is not None
    assert R.bot_rating("spades", "ismcts:hard") is None  # not calibrated: no rated table
    assert R.bot_rating("foursquare", "solver") is None


def test_elo_per_mu_turns_a_fixed_gap_into_the_measured_win_chance():
    rule, strong = R.bot_rating("spades", "rule"), R.bot_rating("spades", "ismcts:easy")
    assert rule and strong
    import math
    p = 1 / (1 + math.exp(-(strong.mu - rule.mu) / R.C))
    assert p == pytest.approx(1 / (1 + 10 ** (-463 / 400)), abs=1e-9)


def test_spades_rates_partnerships_and_a_win_raises_a_newcomer():
    rule = R.bot_rating("spades", "rule")
    assert rule
    me = R.Rating()
    after = R.rate_seats("spades", [me, rule, rule, rule], [1, 2, 1, 2])
    assert after[0].mu > me.mu and after[0].sigma < me.sigma
    lost = R.rate_seats("spades", [me, rule, rule, rule], [2, 1, 2, 1])
    assert lost[0].mu < me.mu
    assert R.teams_of("spades", 4) == [[0, 2], [1, 3]]
    assert R.loss_placing("spades", 4, 2) == [2, 1, 2, 1]
    assert R.loss_placing("hit-the-deck", 5, 3) == [1, 1, 1, 2, 1]


def test_hit_the_deck_rates_up_to_six_places():
    seats = [R.Rating() for _ in range(6)]
    after = R.rate_seats("hit-the-deck", seats, [1, 2, 3, 4, 5, 6])
    assert [r.mu for r in after] == sorted((r.mu for r in after), reverse=True)


def test_the_pause_for_leaving_grows_with_each_leave_in_a_week():
    now = 1_000_000.0
    assert R.pause_for([], now) is None
    assert R.pause_for([now - 10], now) is None  # the first is a warning
    pauses = []
    for n in range(2, 7):
        leaves = [now - 60 * i for i in range(n)]
        until = R.pause_for(leaves, now)
        assert until is not None
        pauses.append(until - now)
    assert pauses == sorted(pauses) and pauses[-1] == pauses[-2] == R.PLAYBAN[-1]
    old = [now - R.PLAYBAN_WINDOW - 1] * 5  # leaves older than a week are forgiven
    assert R.pause_for([*old, now], now) is None
    assert R.pause_for([now - 3600, now - 3500], now) is None  # 15 minutes served already


def test_foursquares_measure_is_over_the_recent_deals_only():
    recent = [(True, 4.0)] * 10 + [(False, 0.0)] * 100
    win_rate, mean = R.win_rate_measure(recent)
    assert win_rate == pytest.approx(10 / R.SOLITAIRE_RECENT)
    assert mean == pytest.approx(40 / R.SOLITAIRE_RECENT)
    assert R.win_rate_measure([]) == (0.0, 0.0)


def test_a_newcomer_displays_1500():
    assert R.Rating().display == 1500


def test_every_figure_is_named_by_the_page_or_by_its_game():
    """The profile page names the common figures and the older games' (players.js); a game
    may name its own instead (Figure.label, Figure.shown), so that a new game's figures need
    no edit of the page."""
    page = (WEB / "players.js").read_text(encoding="utf-8")
    for game_id in game_ids():
        stats = spec(game_id).stats
        for figure in COMMON + (stats.figures if stats else ()):
            assert figure.label or f"  {figure.key}: [" in page, (game_id, figure.key)
    words = figure_words(spec("cangkul").stats)
    assert words["drawn_per_deal"] == {"label": "Cards drawn per deal", "shown": "fixed1"}
    assert set(words) == {"first_out_rate", "lost_deal_rate", "drawn_per_deal"}
    for lang in ("id", "pt_BR"):
        assert render(Message(words["drawn_per_deal"]["label"]), lang) != "Cards drawn per deal"
    with pytest.raises(ValueError, match="shown is one of"):
        Figure("x", "x", label="X", shown="roman")
