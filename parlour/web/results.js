// The results screen at the end of a match, laid over the table by the table page
// (table_page.js).

import { h } from "./dom.js";
import { t, num } from "./i18n.js";
import { teamName } from "./words.js";
import { displayNames, badgeElement } from "./names.js";

// The results screen at the end of a match: who won, the final standings, and the match
// history (the renderer's own, if it has results(view); else the rounds in the view).
// results(view) may give: headline, scoreLabel, scoreText (a solitaire's score line),
// history and historyTitle.
export function resultsSection(view, table, seat, renderer) {
  const names = displayNames(table, seat);
  const o = view.outcome;
  const own = renderer && renderer.results ? renderer.results(view) || {} : {};
  const section = h("section", { class: "results", "aria-labelledby": "results-title" });
  let headline = own.headline;
  if (!headline && o) {
    const all = o.winners.length === names.length;
    if (all) headline = t("The match is drawn");
    else if (seat !== null && o.winners.includes(seat)) headline = o.winners.length > 1 ? t("You win, with your partner!") : t("You win!");
    else {
      const who = o.winners.map((s) => names[s]).join(t(" and "));
      headline = o.winners.length === 1 ? t("{who} wins", { who }) : t("{who} win", { who }); // the subject's number, not a count
    }
  }
  const solitaire = names.length === 1;
  section.append(h("h2", { id: "results-title", class: "results-title", tabindex: "-1" }, headline || t("The match is over.")));
  // A match a safety stop ended says why, in the engine's words (rendered by the server).
  if (typeof view.stopped === "string") section.append(h("p", { class: "results-stop" }, view.stopped));
  const scoreLabel = own.scoreLabel || t("Score");
  if (o && solitaire) section.append(h("p", { class: "results-score" }, own.scoreText || `${scoreLabel}: ${fmtNum(o.points[0])}`));
  if (o && !solitaire) {
    // Partners (a view's teams: Spades) stand together: one row a partnership, its players
    // named in it; else one row a seat.
    const teams = Array.isArray(view.teams) && view.teams.length > 1 ? view.teams : null;
    const player = (s) => { const badge = s === seat ? null : badgeElement(table.seats[s]); return badge ? [names[s], " ", badge] : [names[s]]; };
    const players = (seats) => seats.flatMap((s, i) => [...(i ? [t(" and ")] : []), ...player(s)]);
    const entries = teams
      ? teams.map((seats, i) => ({ first: seats[0], head: [h("span", { class: "standings-team" }, teamName(view.team_names ? view.team_names[i] : String(i + 1))), h("small", { class: "team-players" }, ...players(seats))] }))
      : names.map((_, s) => ({ first: s, head: player(s) }));
    entries.sort((a, b) => o.placing[a.first] - o.placing[b.first] || a.first - b.first);
    const rows = entries.map((e) => h("tr", { class: o.winners.includes(e.first) ? "winner" : null },
      h("td", {}, ordinal(o.placing[e.first])), h("th", { scope: "row" }, ...e.head), h("td", {}, fmtNum(o.points[e.first]))));
    section.append(h("table", { class: `standings${teams ? " by-team" : ""}` },
      h("caption", { class: "sr-only" }, t("Final standings")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, teams ? t("Team") : t("Player")), h("th", { scope: "col" }, own.scoreLabel || t("Points")))),
      h("tbody", {}, ...rows)));
  }
  const history = own.history !== undefined ? own.history : roundsTable(view, names);
  if (history) section.append(h("div", { class: "results-history" }, h("h3", {}, own.historyTitle || t("Match history")), history));
  return section;
}

const fmtNum = (x) => num(Number.isInteger(x) ? x : Math.round(x * 10) / 10);
// A place in the standings: "1st" in English, "ke-1" in Indonesian, "1º" in Portuguese
// (Intl's ordinal rules choose the English suffix).
const ORDINAL = new Intl.PluralRules("en", { type: "ordinal" });
function ordinal(place) {
  switch (ORDINAL.select(place)) {
    case "one": return t("{n}st", { n: place });
    case "two": return t("{n}nd", { n: place });
    case "few": return t("{n}rd", { n: place });
    default: return t("{n}th", { n: place });
  }
}

// A game whose view keeps a list of rounds with the scores after each gets them as a table.
function roundsTable(view, names) {
  const rounds = Array.isArray(view.rounds) ? view.rounds.filter((r) => r && Array.isArray(r.scores)) : [];
  if (!rounds.length) return null;
  const head = h("tr", {}, h("th", { scope: "col" }, t("Round")), ...names.map((name) => h("th", { scope: "col" }, name)));
  const body = rounds.flatMap((r, i) => [h("tr", {}, h("th", { scope: "row" }, String(r.round ?? i + 1)),
    ...r.scores.map((sc, s) => {
      const pts = Array.isArray(r.points) ? r.points[s] : r.winner === s ? r.points : null;
      return h("td", {}, h("b", {}, fmtNum(sc)), pts ? h("small", { class: "muted" }, ` +${fmtNum(pts)}`) : null);
    })),
    // a round a safety stop ended says so under its row (the engine's words, rendered by the server)
    ...(typeof r.stopped === "string" ? [h("tr", { class: "round-stop" }, h("td", { colspan: String(names.length + 1) }, r.stopped))] : [])]);
  return h("table", { class: "history-table" }, h("caption", { class: "sr-only" }, t("Scores after each round")), h("thead", {}, head), h("tbody", {}, ...body));
}
