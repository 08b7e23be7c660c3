"""Ratings: one per signed-in person per game, with OpenSkill's Plackett-Luce model.

A rated match updates the rating of every signed-in person at it from the outcome's
placings: Spades rates the two partnerships as teams, Hit the Deck up to six places,
Spite & Malice and Clockwork Spades two players. Bots carry **fixed** ratings
(each game spec's ``bot_elo``, calibrated from ``parlour tournament`` runs: docs/bots.md, *Fixed
ratings*), so a person who only plays bots still gets a rating that means something; a
bot's own rating never moves. A seat a stand-in bot plays for its person is that person's.
Foursquare, a solitaire, has no opponent to rate against: its "rating" is the win rate and
the mean score over the person's last :data:`SOLITAIRE_RECENT` rated deals.

Leaving a rated match counts as its loss, rated at once; leaving again and again earns a
growing pause from rated play (:data:`PLAYBAN`, after lichess's playban).

Everything here is a pure function or a database operation (``Op``) the server commits
with the match's last action's aftermath (``parlour/server/people/players.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from parlour.registry import spec

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (OpenSkill's defaults)
MU, SIGMA = MODEL.mu, MODEL.sigma
BOT_SIGMA = 1.0  # a bot's fixed rating is known well: it barely widens a match's spread


#: Elo points per OpenSkill mu: the win chance of a against b is
#: 1 / (1 + exp(-(mu_a - mu_b) / c)) with c = sqrt(2 beta^2 + 2 BOT_SIGMA^2), and Elo's
#: is 1 / (1 + 10^(-d / 400)); so d = (mu_a - mu_b) * 400 / (c ln 10).
C = math.sqrt(2 * MODEL.beta ** 2 + 2 * BOT_SIGMA ** 2)
ELO_PER_MU = 400 / (C * math.log(10))

SOLITAIRE_RECENT = 50  # deals a solitaire's win rate and mean score are taken over
LEADERBOARD_MIN = 5  # rated matches a person needs to be on a game's leaderboard

#: The pause from rated play for leaving rated matches (lichess's playban is the anchor):
#: by the number of rated matches left in the last :data:`PLAYBAN_WINDOW` seconds, the
#: pause after the latest. The first is a warning only.
PLAYBAN_WINDOW = 7 * 24 * 3600.0
PLAYBAN: tuple[float, ...] = (0.0, 15 * 60.0, 60 * 60.0, 3 * 3600.0, 24 * 3600.0)


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) leaderboards sort by."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number people see: Elo-like, 1500 for a newcomer (OpenSkill's display
        scaling, alpha 200 / sigma0 and target 1500, of the ordinal)."""
        return round(200 / SIGMA * self.ordinal + 1500)


def puzzle_display(mu: float) -> int:
    """A puzzle rating as people see it (people/puzzles.py): 1500 for a newcomer and for a
    new puzzle, on OpenSkill's display scale (200 points a starting sigma) around mu, not
    its ordinal: a puzzle and its solver are compared by their mu."""
    return round(200 / SIGMA * (mu - MU) + 1500)


def puzzle_mu(shown: int) -> float:
    """The mu of a displayed puzzle rating (:func:`puzzle_display`'s inverse)."""
    return MU + (shown - 1500) * SIGMA / 200


def canonical_bot(game_id: str, bot: str) -> str:
    """A bot seat's kind as a spec's ``bot_elo`` names it (``ismcts`` is ``ismcts:normal``)."""
    kind = bot.strip().lower()
    return "ismcts:normal" if kind == "ismcts" else kind


def bot_rating(game_id: str, bot: str) -> Rating | None:
    """The fixed rating of a bot kind at ``game_id``, None for one with none."""
    elo = spec(game_id).bot_elo.get(canonical_bot(game_id, bot))
    return None if elo is None else Rating(MU + elo / ELO_PER_MU, BOT_SIGMA)


def teams_of(game_id: str, num_seats: int) -> list[list[int]]:
    """The seats rated together: the game's partnerships (its trait), else each seat
    alone."""
    partnerships = spec(game_id).traits.partnerships
    if partnerships:
        return [list(team) for team in partnerships]
    return [[s] for s in range(num_seats)]


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[float]) -> list[list[Rating]]:
    """The ratings after a match where team ``i`` placed ``ranks[i]`` (1 best; ties share)."""
    model_teams = [[MODEL.create_rating([r.mu, r.sigma]) for r in team] for team in teams]
    after = MODEL.rate(model_teams, ranks=list(ranks))
    return [[Rating(r.mu, r.sigma) for r in team] for team in after]


def rate_seats(game_id: str, seats: Sequence[Rating], placing: Sequence[int]
               ) -> list[Rating]:
    """Every seat's rating after a match with these placings (1 best), as a list by seat."""
    teams = teams_of(game_id, len(seats))
    ranks = [min(placing[s] for s in team) for team in teams]
    after = rate([[seats[s] for s in team] for team in teams], ranks)
    out = list(seats)
    for team, rated in zip(teams, after, strict=True):
        for seat, rating in zip(team, rated, strict=True):
            out[seat] = rating
    return out


def loss_placing(game_id: str, num_seats: int, seat: int) -> list[int]:
    """The placings that count a match as ``seat``'s loss (it left): its team last, the
    others sharing first."""
    team = next(t for t in teams_of(game_id, num_seats) if seat in t)
    return [2 if s in team else 1 for s in range(num_seats)]


def pause_for(leaves: Sequence[float], now: float) -> float | None:
    """When a person who left rated matches at the times ``leaves`` may play rated again
    (None: now): :data:`PLAYBAN` by the count within :data:`PLAYBAN_WINDOW`."""
    recent = sorted(t for t in leaves if now - PLAYBAN_WINDOW <= t <= now)
    if not recent:
        return None
    pause = PLAYBAN[min(len(recent), len(PLAYBAN)) - 1]
    until = recent[-1] + pause
    return until if until > now else None


def win_rate_measure(recent: Sequence[tuple[bool, float]]) -> tuple[float, float]:
    """A solitaire's measure over recent rated deals (won, score), newest first: the win
    rate and the mean score over the last :data:`SOLITAIRE_RECENT`."""
    window = list(recent)[:SOLITAIRE_RECENT]
    if not window:
        return 0.0, 0.0
    return (sum(won for won, _ in window) / len(window),
            sum(score for _, score in window) / len(window))
