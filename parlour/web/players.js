// People's play in the browser: a profile (/u/<name>: ratings, a rating-over-time chart,
// each game's figures, recent matches with their replays), a game's leaderboard
// (/leaderboards/<game>), the daily deals (/daily) and the rated switch of the lobby's form.
// app.js routes here; each page is mounted with a small context from app.js:
//   { app, crumb, api, navigate, keepSeat, myName, games }
// and returns {destroy()}. Every string goes through i18n.js.

import { h, clear, toast, loadStyle } from "./dom.js";
import { t, n, p, num, day as dayText, percent as pct } from "./i18n.js";
import { gameName } from "./words.js";
import { profileBar } from "./friends.js";

const SVG = "http://www.w3.org/2000/svg";

// How each figure of parlour/stats.py is named and written.
const percent = (v) => pct(v, 1);
const whole = (v) => num(Math.round(v));
const fixed = (digits) => (v) => num(Number(v.toFixed(digits)));
const FIGURES = {
  matches: [() => t("Matches"), whole],
  win_rate: [() => t("Win rate"), percent],
  points_per_match: [() => t("Points per match"), fixed(1)],
  bids_made: [() => t("Bids made"), percent],
  nils_made: [() => t("Nils made"), whole],
  nils_failed: [() => t("Nils failed"), whole],
  bags_per_deal: [() => t("Bags per deal"), fixed(2)],
  payoff_per_turn: [() => t("Payoff cards per turn"), fixed(2)],
  slap_ms: [() => t("Mean slap reaction"), (v) => t("{ms} ms", { ms: Math.round(v) })],
  shouts_missed: [() => t("Shouts missed"), whole],
  penalty_spades: [() => t("Penalty spades per game"), fixed(2)],
  best_score: [() => t("Best score"), whole],
  mean_score: [() => t("Mean score"), fixed(2)],
  placed_per_deal: [() => t("Cards placed per deal"), fixed(1)],
};

function nameOf(all, id) {
  const g = all.find((x) => x.id === id);
  return g ? gameName(g.name) : id;
}

function homeCrumb(ctx, ...rest) {
  ctx.crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), ...rest);
}

function failed(ctx, err) {
  clear(ctx.app);
  ctx.app.append(h("section", { class: "card-panel players-page" }, h("p", { class: "error" }, err.message)));
}

loadStyle("/static/players.css");

// ----------------------------------------------------------------------------- the chart
// A rating over time as inline SVG (drawn here: no vendored chart library). Points are
// {at, value}; the x axis is the order of the matches, the y axis the value.
export function ratingChart(points, label) {
  const width = 360, height = 140, pad = 28;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  const values = points.map((pt) => pt.value);
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 1e-9) { lo -= 1; hi += 1; }
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo);
  const axis = document.createElementNS(SVG, "path");
  axis.setAttribute("d", `M${pad} ${pad / 2}V${height - pad}H${width - pad / 2}`);
  axis.setAttribute("class", "rating-axis");
  svg.append(axis);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map((pt, i) => `${x(i).toFixed(1)},${y(pt.value).toFixed(1)}`).join(" "));
  line.setAttribute("class", "rating-path");
  svg.append(line);
  points.forEach((pt, i) => {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(pt.value).toFixed(1));
    dot.setAttribute("r", "2.5");
    dot.setAttribute("class", "rating-dot");
    svg.append(dot);
  });
  for (const [v, yy] of [[hi, y(hi)], [lo, y(lo)]]) {
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", String(pad - 4));
    text.setAttribute("y", (yy + 4).toFixed(1));
    text.setAttribute("text-anchor", "end");
    text.setAttribute("class", "rating-tick");
    text.textContent = num(Number(v.toFixed(v < 2 ? 2 : 0)));
    svg.append(text);
  }
  return svg;
}

// ----------------------------------------------------------------------------- profile
function ratingLine(gameId, rating) {
  if (!rating) return h("p", { class: "muted" }, t("No rated matches yet."));
  if (rating.win_rate !== undefined) { // a solitaire's measure (the rated_by trait)
    return h("p", { class: "rating-line" }, t("Win rate {rate} and mean score {score} over recent rated deals", { rate: percent(rating.win_rate), score: Number(rating.mean_score.toFixed(2)) }),
      " ", h("span", { class: "muted" }, n("({n} rated deal)", "({n} rated deals)", rating.matches)));
  }
  return h("p", { class: "rating-line" }, t("Rating"), " ", h("strong", { class: "rating-value" }, String(rating.rating)),
    " ", h("span", { class: "muted" }, n("({n} rated match)", "({n} rated matches)", rating.matches)));
}

// How a game's own figure is written (parlour/stats.py's Figure.shown).
const SHOWN = { whole, percent, fixed1: fixed(1), fixed2: fixed(2) };

// A figure the page names itself, else one its game names (its label, marked for the
// catalog in the game's stats.py, and how it is written: the profile's figure_words).
function figureOf(key, words) {
  if (FIGURES[key]) return FIGURES[key];
  const own = words && words[key];
  return own && own.label ? [() => t(own.label), SHOWN[own.shown] || SHOWN.fixed2] : null;
}

function figureList(figures, words) {
  const dl = h("dl", { class: "figures" });
  for (const [key, value] of Object.entries(figures)) {
    const known = figureOf(key, words);
    if (!known) continue;
    dl.append(h("div", { class: "figure", "data-figure": key }, h("dt", {}, known[0]()),
      h("dd", {}, value === null || value === undefined ? t("none yet") : known[1](value))));
  }
  return dl;
}

function resultWord(m) {
  if (m.abandoned) return t("Left");
  return m.won ? t("Won") : t("Lost");
}

function decoded(text) {
  try { return decodeURIComponent(text); } catch { return text; }
}

export function profilePage(ctx, pathName) {
  const name = decoded(pathName);
  const panel = h("section", { class: "card-panel players-page profile" }, h("p", { class: "muted" }, t("Loading…")));
  ctx.app.append(panel);
  homeCrumb(ctx, h("span", {}, name));
  document.title = t("{name}: Parlour", { name });
  let gone = false;
  (async () => {
    try {
      const [me, all] = await Promise.all([ctx.api("GET", `/api/players/${encodeURIComponent(name)}`), ctx.games()]);
      if (gone) return;
      clear(panel);
      panel.append(h("h1", {}, me.name), profileBar(me.name, ctx),
        h("p", { class: "streak" }, me.streak ? n("Daily streak: {n} day", "Daily streak: {n} days", me.streak) : t("No daily streak yet")),
        me.puzzles ? h("p", { class: "profile-puzzles" }, h("a", { href: "/puzzles", "data-nav": "" }, t("Puzzles")), ": ",
          t("rating {rating}, solved {solved} of {tries}", { rating: String(me.puzzles.rating), solved: me.puzzles.solved, tries: me.puzzles.tries })) : "");
      const ids = all.map((g) => g.id).filter((id) => me.games[id]);
      if (!ids.length) panel.append(h("p", { class: "muted" }, t("No finished matches yet.")));
      for (const id of ids) {
        const game = me.games[id];
        const section = h("section", { class: "profile-game", "data-game": id },
          h("h2", {}, nameOf(all, id)), ratingLine(id, game.rating));
        if (game.history && game.history.length) section.append(ratingChart(game.history, t("{game}: rating over time", { game: nameOf(all, id) })));
        section.append(figureList(game.figures, game.figure_words),
          h("a", { href: `/leaderboards/${id}`, "data-nav": "" }, t("Leaderboard")));
        panel.append(section);
      }
      if (me.recent.length) {
        const rows = me.recent.map((m) => h("tr", {},
          h("td", {}, nameOf(all, m.game)),
          h("td", {}, resultWord(m)),
          h("td", {}, m.points === null ? "" : num(m.points)),
          h("td", {}, m.rated ? t("rated") : ""),
          h("td", {}, m.replay ? h("a", { href: `/t/${m.table}/replay/${m.match}`, "data-nav": "" }, t("Replay")) : m.daily ? t("daily deal") : "")));
        panel.append(h("h2", {}, t("Recent matches")),
          h("table", { class: "recent-matches" },
            h("thead", {}, h("tr", {}, h("th", {}, p("column", "Game")), h("th", {}, t("Result")), h("th", {}, t("Points")), h("th", {}, ""), h("th", {}, ""))),
            h("tbody", {}, rows)));
      }
    } catch (err) {
      if (!gone) failed(ctx, err);
    }
  })();
  return { destroy() { gone = true; } };
}

// ----------------------------------------------------------------------------- leaderboards
export function leaderboardPage(ctx, gameId) {
  const panel = h("section", { class: "card-panel players-page leaderboard" }, h("p", { class: "muted" }, t("Loading…")));
  ctx.app.append(panel);
  let gone = false;
  (async () => {
    try {
      const [board, all] = await Promise.all([ctx.api("GET", `/api/leaderboards/${gameId}`), ctx.games()]);
      if (gone) return;
      const title = t("{game}: leaderboard", { game: nameOf(all, gameId) });
      homeCrumb(ctx, h("span", {}, title));
      document.title = title;
      clear(panel);
      panel.append(h("h1", {}, title),
        h("p", { class: "muted" }, n("People with at least {n} rated match, by rating.", "People with at least {n} rated matches, by rating.", board.least)));
      if (!board.places.length) { panel.append(h("p", {}, t("Nobody yet."))); return; }
      const four = board.rated_by === "win-rate";
      panel.append(h("table", { class: "board" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Player")), h("th", {}, four ? t("Win rate") : t("Rating")), h("th", {}, t("Matches")))),
        h("tbody", {}, board.places.map((pl) => h("tr", {},
          h("td", {}, String(pl.rank)),
          h("td", {}, h("a", { href: `/u/${encodeURIComponent(pl.name)}`, "data-nav": "" }, pl.name)),
          h("td", {}, four ? percent(pl.win_rate) : String(pl.rating)),
          h("td", {}, num(pl.matches)))))));
    } catch (err) {
      if (!gone) failed(ctx, err);
    }
  })();
  return { destroy() { gone = true; } };
}

// ----------------------------------------------------------------------------- daily deals
// Each result as the server says it in words ("2 penalty spades", not -2), and the share of
// the others it beat, or that nobody else has played the deal yet.
function dailyBoard(board) {
  if (!board.places.length) return h("p", { class: "muted daily-board" }, t("No results yet."));
  return h("ol", { class: "daily-board" }, board.places.map((pl) => h("li", { value: String(pl.rank) },
    h("a", { href: `/u/${encodeURIComponent(pl.name)}`, "data-nav": "" }, pl.name), " ",
    h("strong", { class: "daily-result" }, pl.said), " ",
    h("span", { class: "muted daily-beat" }, pl.beat === null ? (board.over ? "" : t("nobody else has played it yet"))
      : t("beat {pct} of the others", { pct: percent(pl.beat) })))));
}

export function dailyPage(ctx) {
  const panel = h("section", { class: "card-panel players-page daily" }, h("p", { class: "muted" }, t("Loading…")));
  ctx.app.append(panel);
  homeCrumb(ctx, h("span", {}, t("Daily deals")));
  document.title = t("Daily deals: Parlour");
  let gone = false;

  async function play(gameId, button) {
    button.disabled = true;
    try {
      const res = await ctx.api("POST", `/api/daily/${gameId}`, { name: ctx.myName() || t("Guest") });
      if (res.token) ctx.keepSeat(res.table.id, res.seat, res.token);
      toast(res.counted ? t("This try counts for today's leaderboard.")
        : res.why === "guest" ? t("A practice deal: guests never see today's deal. Sign in to be counted.")
          : res.why === "new_account" ? t("A practice deal: an account made today plays today's deal from tomorrow.")
            : t("A practice deal: your first try of the day was today's deal, and it is the one counted."));
      ctx.navigate(`/t/${res.table.id}`);
    } catch (err) {
      toast(err.message, "error");
      button.disabled = false;
    }
  }

  async function showBoard(gameId, day, box) {
    try {
      const board = await ctx.api("GET", `/api/daily/${gameId}/${day}`);
      clear(box);
      box.append(dailyBoard(board));
    } catch (err) {
      toast(err.message, "error");
    }
  }

  (async () => {
    try {
      const today = await ctx.api("GET", "/api/daily");
      if (gone) return;
      clear(panel);
      panel.append(h("h1", {}, t("Daily deals")),
        h("p", {}, t("Today's deals ({day}, UTC) deal the same cards to every counted try: one deal or round against rule bots. Your first try of each is counted; other tries play a practice deal.", { day: dayText(today.day) })));
      if (!today.signed_in) panel.append(h("p", { class: "muted" }, t("Guests play practice deals: only signed-in people play today's deals and are counted.")));
      const grid = h("div", { class: "daily-grid" });
      panel.append(grid);
      for (const g of today.games) {
        const boardBox = h("div", { class: "daily-board-box" });
        const playButton = h("button", { type: "button", class: "button primary daily-play" }, g.mine ? t("Play a practice deal (not counted)") : t("Play today's deal"));
        playButton.addEventListener("click", () => play(g.game, playButton));
        const boardButton = h("button", { type: "button", class: "button daily-show-board" }, t("Leaderboard"));
        boardButton.addEventListener("click", () => showBoard(g.game, today.day, boardBox));
        const mine = !g.mine ? null : g.mine.result === null
          ? h("p", { class: "daily-mine" }, t("Your counted try is under way."))
          : h("p", { class: "daily-mine" }, t("Your counted result: {v}", { v: g.mine.said }));
        const yesterday = g.yesterday
          ? h("p", { class: "daily-yesterday" }, h("a", { href: `/t/${g.yesterday.table}/replay/${g.yesterday.match}`, "data-nav": "" },
            t("Replay yesterday's best ({v})", { v: g.yesterday.said })))
          : null;
        grid.append(h("section", { class: "daily-game", "data-game": g.game },
          h("h2", {}, gameName(g.name)),
          h("p", { class: "muted daily-players" }, g.players ? n("{n} player counted today", "{n} players counted today", g.players) : t("Nobody counted today yet")),
          mine, h("div", { class: "daily-actions" }, playButton, boardButton), boardBox, yesterday));
      }
    } catch (err) {
      if (!gone) failed(ctx, err);
    }
  })();
  return { destroy() { gone = true; } };
}

// The results of a daily deal: no dealing again, no record yet; back to the daily deals.
export function dailyEndButtons() {
  return [h("a", { class: "button primary daily-back", href: "/daily", "data-nav": "" }, t("Back to the daily deals"))];
}

// ----------------------------------------------------------------------------- the lobby
// Links to the daily deals, for the lobby's intro.
export function playersLinks() {
  return h("p", { class: "players-links" }, h("a", { href: "/daily", "data-nav": "" }, t("Today's daily deals")), " · ",
    h("a", { href: "/puzzles", "data-nav": "" }, t("Puzzles")));
}

// The lobby form's "rated" switch: {wrap, input}.
export function ratedSwitch() {
  const input = h("input", { id: "new-rated", name: "rated", type: "checkbox" });
  const wrap = h("label", { class: "field check", for: "new-rated" }, input, h("span", {}, t("Rated match")),
    h("small", { class: "muted" }, t("Signed in only: the full rules, no hints, and bots of fixed ratings. Leaving counts as a loss.")));
  return { wrap, input };
}
