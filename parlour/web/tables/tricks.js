// What every trick-taking table draws the same way (Spades, Cangkul): the hand laid in one
// row or two, the trick on the felt (or the one just taken, held a moment), and the last
// trick's small cards in the side panel.

import { h, clear, fitRow } from "../dom.js";
import { cardFace, cardName } from "./cards.js";

// The hand in one row, its cards overlapping just enough; on a narrow screen a hand longer
// than `oneRowMost` goes in two rows, so each card shows more than a thin strip.
export function layHand(hand, cards, oneRowMost) {
  clear(hand);
  const two = cards.length > oneRowMost && hand.clientWidth > 0 && hand.clientWidth < 520;
  hand.classList.toggle("two-rows", two);
  if (!two) {
    hand.append(...cards);
    fitRow(hand, ".card", 0.72, 6);
    return;
  }
  const half = Math.ceil(cards.length / 2);
  const rows = [cards.slice(0, half), cards.slice(half)].map((row) => h("div", { class: "hand-row" }, ...row));
  hand.append(...rows);
  for (const row of rows) fitRow(row, ".card", 0.72, 6);
}

// The plays the felt shows: the trick being played, or, between tricks of a deal, the
// trick just taken (`done`), so everyone sees how it ended before the next lead.
export function shownTrick(view) {
  const last = view.last_trick;
  if (!view.trick.length && view.phase === "play" && last && last.deal === view.deal && last.cards.length) {
    return { plays: last.cards, done: true };
  }
  return { plays: view.trick, done: false };
}

// One play's card, named for a screen reader ("North: queen of hearts"), ringed if it wins.
export function playedCard(play, label, { small = false, winner = false } = {}) {
  const el = cardFace(play.card, { small });
  el.setAttribute("aria-label", `${label(play.seat)}: ${cardName(play.card)}`);
  if (winner) el.classList.add("winner");
  return el;
}

// The last trick as a row of small cards, its winner's ringed; `caption(seat)`, if given,
// writes a short seat name under each card.
export function miniTrick(last, label, caption = null) {
  const row = h("div", { class: "mini-trick" });
  for (const play of last.cards) {
    const c = playedCard(play, label, { small: true, winner: play.seat === last.winner });
    row.append(caption ? h("figure", {}, c, h("figcaption", {}, caption(play.seat))) : c);
  }
  return row;
}
