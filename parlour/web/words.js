// Words the page shows that come from the server as English data: seat labels ("North",
// "seat 2"), partnerships, game names and why a table closed, each put into the reader's language here;
// and the language switch of the page header.

import { h } from "./dom.js";
import { t, n, p, lang, languages, chooseLanguage } from "./i18n.js";

// Where a seat is at the table (the server's label, a summary's seats[i].label or a view's
// seat_names[i]) in the reader's language: "North" -> "Utara"; a game that only numbers its
// seats counts them from 1 for people: the server's "seat 1" (from 0) -> "Kursi 2".
export function seatLabel(label) {
  const m = /^seat (\d+)$/.exec(label || "");
  return m ? t("Seat {number}", { number: Number(m[1]) + 1 }) : p("seat", label);
}

// A partnership's name (a view's team_names[i]) in the reader's language ("North-South" ->
// "Utara-Selatan").
export const teamName = (name) => (name === "North-South" ? p("team", "North-South") : name === "East-West" ? p("team", "East-West") : name);

// A game's name as the reader's language writes it (most keep their English names).
export const gameName = (name) => p("game", name);

// A lobby preset's name (a game's presets[i].id) and a table's speed, in words.
export const presetName = (id) => (id === "quick" ? t("Quick game") : id === "classic" ? t("Classic") : id);
export function speedName(speed) {
  if (speed === "slow") return t("Slow: every step shown");
  if (speed === "fast") return t("Fast");
  return t("Normal");
}

// Why a table closed before its match ended (the table summary's note).
/** Hours or days left for a correspondence move, in the reader's words ("5 h 20 min"). */
export function timeLeft(seconds) {
  const hours = Math.floor(seconds / 3600);
  const days = Math.floor(hours / 24);
  if (days && hours % 24 === 0) return n("{n} day", "{n} days", days);
  if (days) return t("{days} d {hours} h", { days, hours: hours % 24 });
  return t("{hours} h {minutes} min", { hours, minutes: Math.floor((seconds % 3600) / 60) });
}

export function closedNote(note) {
  switch (note) {
    case "nobody joined in time": return t("nobody joined in time");
    case "its players left": return t("its players left");
    case "a table of bots nobody was watching": return t("a table of bots nobody was watching");
    case "could not be restored": return t("could not be restored");
    case "a player was away too long: their loss": return t("a player was away too long: their loss");
    default: return note || t("it has ended");
  }
}

// The header's language switch: every language Parlour speaks, each named in itself; a
// choice is remembered (this device, and a cookie the server reads) and the page reloads
// in it.
export function languageSwitch() {
  const select = h("select", { class: "lang-switch", id: "lang-switch", "aria-label": t("Language"), title: t("Language") },
    ...languages().map((l) => h("option", { value: l.tag, lang: l.tag, selected: l.tag === lang() ? "" : null }, l.name)));
  select.addEventListener("change", () => {
    chooseLanguage(select.value);
    location.reload();
  });
  return select;
}
