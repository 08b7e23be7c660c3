// What the page calls each seat. The server names every seat (a person's own name, a bot's
// name and its level: the table summary's seats[i].name and .level); the page only says it
// in the reader's language: "You" for its own seat, "bot, normal" or "thinking bot,
// hard" as a bot's badge.

import { h } from "./dom.js";
import { t, p } from "./i18n.js";
import { seatLabel } from "./words.js";
import { isMuted } from "./account.js";

/** The level a bot plays at, as a word of the reader's language. */
export function levelWord(level) {
  if (level === "easy") return p("bot level", "easy");
  if (level === "hard") return p("bot level", "hard");
  return p("bot level", "normal");
}

/** The name the server gives a deleted account's seats in old records (reserved: no one can
 *  take it), and a name as the reader sees it: that one in the reader's language. */
export const DELETED_NAME = "Deleted player";
export const personName = (name) => (name === DELETED_NAME ? t("Deleted player") : name);

/** The name of each seat of a table summary: "You" for mySeat, else the seat's name. */
export function displayNames(table, mySeat) {
  return table.seats.map((s, i) => {
    if (i === mySeat) return t("You");
    if (s.name && s.kind === "person" && isMuted(table.id, i)) return seatLabel(s.label); // muted for this reader (account.js)
    return s.name ? personName(s.name) : t("free seat");
  });
}

/** A bot's badge, its kind and level ("thinking bot, hard", "bot, normal" for the rule
 *  bots), or "" for a person's seat. The kind is the seat's bot ("ismcts:hard"), the
 *  level the one the server reads for it. */
export function seatBadge(s) {
  if (!s || s.kind !== "bot") return "";
  const level = levelWord(s.level);
  switch ((s.bot || "").split(":")[0]) {
    case "ismcts": return t("thinking bot, {level}", { level });
    case "solver": return t("solver bot, {level}", { level });
    case "clairvoyant": return t("bot that sees the stock");
    default: return t("bot, {level}", { level });
  }
}

/** The badge as an element to put beside a name (null for a person's seat). */
export function badgeElement(s) {
  const text = seatBadge(s);
  return text ? h("span", { class: "bot-badge" }, text) : null;
}

/** A seat as one line: "Bill - bot, normal", "Ana", "You". */
export function seatLine(s, i, mySeat) {
  const name = i === mySeat ? t("You") : s.name ? personName(s.name) : t("free seat");
  const badge = seatBadge(s);
  return badge ? t("{name} - {badge}", { name, badge }) : name;
}
