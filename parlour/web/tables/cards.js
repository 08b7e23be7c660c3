// Playing cards for the table renderers: faces (jokers too), backs, spoken names, and card
// codes in sentences ("7H") shown as coloured symbols ("7♥"). Cards are the engine's text:
// rank (A 2-10 J Q K) and suit (C D H S), or "Joker".

import { h } from "../dom.js";
import { t, p } from "../i18n.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const RANK_WORD = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king" };
const CODE = /\b(10|[2-9AJQK])([CDHS])\b|\bJoker\b/g;

export const isJoker = (card) => card === "Joker";
export const rankOf = (card) => (isJoker(card) ? "Joker" : card.slice(0, -1));
export const suitOf = (card) => (isJoker(card) ? null : card.slice(-1));
const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";

// The card's name as players of the reader's language say it: "queen of spades", "ratu
// sekop", "dama de espadas" (the words are the catalog's rank and suit terms).
export function cardName(card) {
  if (isJoker(card)) return p("card", "joker");
  return t("{rank} of {suit}", { rank: p("rank", RANK_WORD[rankOf(card)]), suit: suitName(suitOf(card)) });
}

// A suit's name in the reader's language ("C" -> "clubs", "keriting", "paus").
export const suitName = (suit) => p("suit", SUIT_NAME[suit]);

// "7♥"; a joker as "Joker".
export const pretty = (card) => (isJoker(card) ? "Joker" : rankOf(card) + SUIT_SYMBOL[suitOf(card)]);

// A face-up card. tag "button" makes it a control; the caller adds labels and handlers.
export function cardFace(card, { tag = "div", small = false, cls = "" } = {}) {
  const joker = isJoker(card);
  const rank = joker ? "★" : rankOf(card);
  const sym = joker ? "JOKER" : SUIT_SYMBOL[suitOf(card)];
  const colour = joker ? "joker" : isRed(card) ? "red" : "black";
  return h(tag, {
    class: `card ${colour}${small ? " small" : ""}${cls ? ` ${cls}` : ""}`,
    "data-card": card,
    "data-suit": suitOf(card),
    type: tag === "button" ? "button" : null,
    role: tag === "button" ? null : "img",
    "aria-label": cardName(card),
  },
  h("span", { class: "corner tl", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, joker ? "" : sym)),
  h("span", { class: "pip", "aria-hidden": "true" }, joker ? "★" : sym),
  h("span", { class: "face-rank", "aria-hidden": "true" }, joker ? "J" : rank),
  h("span", { class: "corner br", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, joker ? "" : sym)));
}

export function cardBack({ small = false, cls = "" } = {}) {
  return h("div", { class: `card-back${small ? " small" : ""}${cls ? ` ${cls}` : ""}`, "aria-hidden": "true" });
}

// A card named in a sentence or a list: "7♥" in its colour (and its suit's colour in the
// four-colour deck), read as its name.
export function cardChip(card, tag = "span") {
  return h(tag, { class: `cardref ${isJoker(card) ? "joker" : isRed(card) ? "red" : "black"}`, "data-suit": suitOf(card), title: cardName(card) }, pretty(card));
}

// A sentence with every card code in it shown as a coloured symbol (and read as its name).
export function richText(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(CODE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const card = m[0];
    out.push(cardChip(card));
    last = m.index + card.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// The text a screen reader should hear for a sentence with card codes.
export const spoken = (text) => text.replace(CODE, (c) => cardName(c));
