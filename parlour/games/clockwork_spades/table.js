// The Clockwork Spades table: the twelve spades around a clock face (Ace at one o'clock,
// Queen at twelve), the stock over the King of Spades in the middle, a clock hand at the
// last position used, due positions lit. Every automatic step (cards drawn, Kings passed,
// dead cards discarded, forced plays, spades taken) is told in the log beside the clock in
// the game's own words (the server sends describe_event's sentence for each event). When
// you can play nothing, the due spades become buttons: take one.

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle } from "../../dom.js";
import { tableOf } from "../../tables/table.js";
import { cardBack, cardChip, cardFace, cardName, pretty, richText, spoken } from "../../tables/cards.js";
import { t, n, p } from "../../i18n.js";
import { seatLabel } from "../../words.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/games/clockwork_spades/table.css")]);

const POSITION_OF = { A: 1, J: 11, Q: 12, K: 0 };
const positionOf = (card) => POSITION_OF[card.slice(0, -1)] ?? Number(card.slice(0, -1));
const chip = (card) => cardChip(card);
const list = (xs) => (xs.length < 2 ? xs.join("") : t("{items} and {last}", { items: xs.slice(0, -1).join(", "), last: xs[xs.length - 1] }));
const cards = (count) => n("{n} card", "{n} cards", count);

// ------------------------------------------------------------------ players
function drawPlate(st, el, seat) {
  const { view, ctx, me, name } = st;
  clear(el);
  const turn = view.to_act.includes(seat);
  el.classList.toggle("turn", turn);
  const pen = view.penalty[seat];
  const kings = view.kings[seat];
  const held = view.hand_sizes[seat];
  el.append(
    h("div", { class: "cw-who" }, h("span", { class: "cw-name", title: name(seat) }, name(seat)), ctx.badge && ctx.badge(seat) ? h("span", { class: "bot-badge" }, ctx.badge(seat)) : null,
      turn ? h("span", { class: "cw-turn" }, me === seat && ctx.live ? t("your choice") : ctx.live ? t("choosing…") : t("to choose")) : null),
    h("div", { class: "cw-stats" },
      h("span", { class: "cw-stat", title: t("Penalty spades taken (fewer is better)") }, t("Penalty"), " ", h("b", {}, String(pen.length))),
      h("span", { class: "cw-stat", title: t("Kings: drawn by the other player and passed face up") }, t("Kings"), " ",
        kings.length ? h("span", { class: "cw-kings" }, ...kings.map(chip)) : h("b", {}, "0")),
      seat !== me ? h("span", { class: "cw-stat" }, t("Hand"), " ", h("b", {}, String(held))) : null));
  el.setAttribute("role", "group");
  const penalties = pen.length ? n("{n} penalty spade", "{n} penalty spades", pen.length) : t("no penalty spades");
  const facts = [pen.length ? `${penalties} (${pen.map(cardName).join(", ")})` : penalties,
    kings.length ? t("Kings: {cards}", { cards: kings.map(cardName).join(", ") }) : t("no Kings"),
    seat !== me ? (held ? n("{n} card in hand", "{n} cards in hand", held) : t("no cards in hand")) : null, turn ? t("to choose") : null];
  el.setAttribute("aria-label", `${name(seat)}: ${facts.filter(Boolean).join("; ")}`);
}

// ------------------------------------------------------------------ the clock
function drawClock(st) {
  const { view, els, choosing, take } = st;
  const { clock } = els;
  clear(clock);
  const live = choosing;
  const legal = new Set(live ? view.legal : []);
  clock.append(h("div", { class: "cw-face", "aria-hidden": "true" }));
  const arm = h("div", { class: "cw-arm", "aria-hidden": "true", title: t("The clock hand points at the last position used") });
  arm.style.transform = `rotate(${view.pointer * 30}deg)`;
  clock.append(arm);
  for (const spot of view.clock) {
    const pos = spot.position;
    const action = `take ${pos}`;
    const canTake = legal.has(action);
    const there = spot.spade === null ? null : spot.cards.length
      ? t("Position {position}: the {card}, with {cards} on it", { position: pos, card: cardName(spot.spade), cards: list(spot.cards.map(cardName)) })
      : t("Position {position}: the {card}", { position: pos, card: cardName(spot.spade) });
    const label = spot.spade === null ? t("Position {position}: empty, its spade was taken", { position: pos })
      : [spot.due ? t("{spot}, due", { spot: there }) : there, canTake ? t("Take it") : null].filter(Boolean).join(". ");
    const el = h(canTake ? "button" : "div", {
      class: `cw-pos${spot.due ? " due" : ""}${spot.spade === null ? " empty" : ""}${canTake ? " can-take" : ""}`,
      type: canTake ? "button" : null, tabindex: canTake ? "-1" : null, role: canTake ? null : "img",
      "aria-label": label, title: spot.spade === null ? t("{position}: taken", { position: pos }) : `${pos}: ${[spot.spade, ...spot.cards].map(pretty).join(" ")}`,
      "data-position": String(pos),
    });
    const angle = (pos * Math.PI) / 6;
    el.style.left = `${50 + 39 * Math.sin(angle)}%`;
    el.style.top = `${50 - 39 * Math.cos(angle)}%`;
    el.append(h("span", { class: "cw-num", "aria-hidden": "true" }, String(pos)));
    if (spot.spade === null) {
      el.append(h("div", { class: "card-slot cw-gone" }, t("taken")));
    } else {
      // The cards played on a spade peek out from under it, so the spade stays readable.
      const pile = h("div", { class: "cw-pile" });
      const shown = spot.cards.slice(-3);
      shown.forEach((c, i) => {
        const f = cardFace(c, { cls: "rankface played" });
        f.style.setProperty("--i", String(shown.length - i));
        pile.append(f);
      });
      pile.append(cardFace(spot.spade, { cls: "rankface spade" }));
      pile.style.setProperty("--n", String(Math.min(3, spot.cards.length)));
      el.append(pile);
      if (spot.cards.length) el.append(h("span", { class: "cw-count", "aria-hidden": "true" }, `+${spot.cards.length}`));
    }
    if (canTake) el.addEventListener("click", () => take(action));
    clock.append(el);
  }
  const stock = view.stock_size;
  const stockText = view.king_of_spades_in_stock ? t("Stock: {cards}, the King of Spades under it", { cards: cards(stock) }) : t("Stock: {cards}", { cards: cards(stock) });
  clock.append(h("div", { class: "cw-centre", role: "img", "aria-label": stockText },
    h("div", { class: "cw-stock" }, stock ? cardBack() : h("div", { class: "card-slot" }, p("stock", "empty")),
      view.king_of_spades_in_stock ? h("span", { class: "cw-ks", title: t("The King of Spades lies under the stock") }, "K♠") : null),
    h("span", { class: "cw-stock-count" }, t("{n} in stock", { n: stock }))));
}

function drawChoice(st) {
  const { view, before, els, me, choosing, focusIfIdle, take } = st;
  const { choice } = els;
  clear(choice);
  const live = choosing;
  choice.hidden = !live;
  if (!live) return;
  const spots = Object.fromEntries(view.clock.map((s) => [s.position, s]));
  const offered = new Set(view.legal);
  const buttons = view.due.filter((pos) => offered.has(`take ${pos}`)).map((pos) => { // clockwise
    const action = `take ${pos}`;
    const spot = spots[pos];
    const extra = spot.cards.length ? t("({cards} go to the discard pile)", { cards: spot.cards.map(pretty).join(" ") }) : "";
    const aria = spot.cards.length
      ? t("Take the {card} from position {position}; {cards} on it go to the discard pile", { card: cardName(spot.spade), position: pos, cards: list(spot.cards.map(cardName)) })
      : t("Take the {card} from position {position}", { card: cardName(spot.spade), position: pos });
    const b = h("button", { class: "bid cw-take", type: "button", "data-action": action, "aria-label": aria },
      t("Take"), " ", h("b", { class: "cardref black" }, pretty(spot.spade)), extra ? h("small", {}, " ", extra) : null);
    b.addEventListener("click", () => take(action));
    return b;
  });
  choice.append(h("p", { class: "cw-choice-title" }, t("Nothing in your hand matches a due spade: take one as a penalty.")), h("div", { class: "bid-row" }, ...buttons));
  setRoving(buttons, 0);
  if (!(before && before.to_act.includes(me) && before.legal.length)) focusIfIdle(buttons[0]);
}

function drawHand(st) {
  const { view, els, me } = st;
  const { hand } = els;
  clear(hand);
  if (me === null || !view.hand) {
    hand.append(h("p", { class: "cw-watching" }, t("The hands are hidden from spectators.")));
    hand.setAttribute("aria-label", t("Hands hidden"));
    return;
  }
  const live = new Set(view.clock.filter((s) => s.spade !== null).map((s) => s.position));
  // The due positions are those of the player whose turn it is: your cards that match them
  // are marked on your turn only (the opponent's due spades are not yours to play to).
  const due = new Set(view.turn === me ? view.due : []);
  const names = [];
  for (const card of view.hand) {
    const pos = positionOf(card);
    const dead = !live.has(pos);
    const f = cardFace(card, { cls: `rankface${dead ? " dead" : ""}${due.has(pos) ? " matches" : ""}` });
    hand.append(h("figure", { class: "cw-card" }, f, h("figcaption", {}, dead ? t("dead") : `→ ${pos}`)));
    names.push(dead ? t("{card} (dead: its spade is gone)", { card: cardName(card) }) : t("{card} (position {position})", { card: cardName(card), position: pos }));
  }
  hand.setAttribute("aria-label", t("Your hand: {cards}", { cards: names.join(", ") || p("hand", "empty") }));
}

function drawNote(st) {
  const { view, ctx, els, me, name } = st;
  const { note } = els;
  note.classList.remove("result");
  if (view.outcome) {
    note.textContent = resultText(st);
    note.classList.add("result");
    return;
  }
  const seat = view.to_act[0];
  const due = view.due.join(", ");
  const at = { turn: view.turn, due, who: name(seat) };
  note.textContent = seat === undefined ? "" : me === seat && ctx.live ? t("Turn {turn}: due on {due}. Your choice.", at)
    : me === seat ? t("Turn {turn}: you choose a spade from {due}.", at)
      : ctx.live ? t("Turn {turn}: {who} is choosing a spade from {due}.", at) : t("Turn {turn}: {who} chooses a spade from {due}.", at);
}

function resultText(st) {
  const { view, ctx, me, name } = st;
  const o = view.outcome;
  const end = view.end || {};
  const pen = view.penalty_counts;
  if (o.winners.length !== 1) return n("Drawn: {n} penalty spade each", "Drawn: {n} penalty spades each", pen[0]);
  const w = o.winners[0];
  const how = end.four_kings !== null && end.four_kings !== undefined ? t("with all four Kings")
    : n("{n} penalty spade to {other}", "{n} penalty spades to {other}", pen[w], { other: pen[1 - w] });
  if (me === null || !ctx.live) return t("{who} wins, {how}", { who: name(w), how });
  return w === me ? t("You win: {how}", { how }) : t("You lose: {how}", { how });
}

// ------------------------------------------------------------------ the log
function readEvents(st) {
  const { view, before, ctx, els, log, me, narration } = st;
  const { narrator, logList } = els;
  const v = view;
  const events = v.events || [];
  if (!events.length) return;
  const first = events[0].seq;
  if (first < log.windowStart || v.turn < log.lastTurn) { log.told.clear(); clear(logList); } // a new game
  log.windowStart = first;
  log.lastTurn = v.turn;
  if (!ctx.live) { log.told.clear(); clear(logList); }
  const said = [];
  let delay = 0;
  events.forEach((ev, i) => {
    if (log.told.has(ev.seq)) return;
    const text = narration && narration[i] ? narration[i] : `${ev.seat >= 0 ? seatLabel(v.seat_names[ev.seat]) : ""} ${ev.kind}`;
    log.told.set(ev.seq, text);
    const li = h("li", { class: `cw-ev ev-${ev.kind}${ctx.live && before ? " fresh" : ""}` }, ...richText(text));
    if (ctx.live && before) { li.style.animationDelay = `${delay}ms`; delay += ctx.stepMs ?? 120; } // one step at a time, at the table's speed
    logList.append(li);
    if (ev.kind !== "draw" || ev.seat === me) said.push(spoken(text));
  });
  while (logList.children.length > 150) logList.removeChild(logList.firstChild);
  if (ctx.live && before && said.length) narrator.textContent = said.slice(-6).join(" ");
  requestAnimationFrame(() => { logList.scrollTop = logList.scrollHeight; });
}

// ------------------------------------------------------------------ side panel
function drawSide(st) {
  const { view, els, me, bottom, top, name } = st;
  const { side, logBox } = els;
  for (const child of [...side.children]) if (child !== logBox) child.remove();
  const seats = [bottom, top];
  side.prepend(
    h("h2", { class: "side-title" }, t("Turn {turn}", { turn: view.turn }), view.due.length ? h("span", { class: "muted" }, " · ", t("due {positions}", { positions: view.due.join(", ") })) : null),
    h("section", { class: "cw-penalties", "aria-label": t("Penalty spades") }, h("h3", {}, t("Penalty spades")),
      ...seats.map((s) => h("div", { class: `cw-penrow${s === me ? " mine" : ""}` },
        h("span", { class: "who" }, name(s)), h("b", { class: "pts" }, String(view.penalty[s].length)),
        h("span", { class: "cw-pencards" }, ...view.penalty[s].map(chip))))),
    h("p", { class: "muted small cw-facts" }, view.king_of_spades_in_stock ? t("Stock {stock} (K♠ under it) · discard pile {discard}", { stock: view.stock_size, discard: view.discard_size })
      : t("Stock {stock} · discard pile {discard}", { stock: view.stock_size, discard: view.discard_size })));
}

function endTable(st) {
  const { view, me, bottom, top, name } = st;
  const v = view;
  const seats = [bottom, top];
  const end = v.end || {};
  const kings = end.four_kings !== null && end.four_kings !== undefined;
  const why = end.reason === "all_spades" ? t("All twelve spades were taken.")
    : end.reason !== "king_of_spades" ? ""
      : !kings ? t("A draw reached the King of Spades: the stock is exhausted.")
        : end.four_kings === me ? t("A draw reached the King of Spades: the stock is exhausted, and you hold all four Kings.")
          : t("A draw reached the King of Spades: the stock is exhausted, and {who} holds all four Kings.", { who: name(end.four_kings) });
  return h("div", {},
    why ? h("p", {}, why) : null,
    h("table", { class: "history-table" },
      h("caption", { class: "sr-only" }, t("Penalty spades and Kings of each player")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Penalty spades")), h("th", { scope: "col" }, t("Kings")))),
      h("tbody", {}, ...seats.map((s) => h("tr", {}, h("th", { scope: "row" }, name(s)),
        h("td", {}, h("b", {}, String(v.penalty[s].length)), " ", ...v.penalty[s].map(chip)),
        h("td", {}, ...(v.kings[s].length ? v.kings[s].map(chip) : [p("kings", "none")])))))));
}

// What every piece reads: the view and the one before, the server's narration, the page's
// context, the table's elements, the log's memory, and who is who.
function stateOf(view, before, extra, ctx, seat, els, log) {
  const me = seat.me();
  const bottom = seat.bottom();
  const choosing = ctx.live && me !== null && view.to_act.includes(me) && view.legal.length > 0;
  return {
    view, before, ctx, els, log, me, bottom, top: 1 - bottom, choosing,
    narration: extra.narration || null,
    name: (s) => (me === s ? t("You") : ctx.names[s] || seatLabel(view.seat_names[s])),
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
    take(action) {
      if (!choosing) return;
      for (const b of els.root.querySelectorAll(`[data-action="${action}"], .cw-pos[data-position="${action.slice(5)}"]`)) b.classList.add("leaving");
      ctx.act(action);
    },
  };
}

export function mount(root, ctx) {
  const oppPlate = h("div", { class: "cw-plate" });
  const myPlate = h("div", { class: "cw-plate mine" });
  const clock = h("div", { class: "cw-clock", role: "group", "aria-label": t("The clock") });
  const note = h("div", { class: "cw-note" });
  const choice = h("div", { class: "cw-choice", role: "group", "aria-label": t("Take a spade"), hidden: "" });
  const hand = h("div", { class: "cw-hand", role: "img" });
  const felt = h("div", { class: "cw-felt" }, oppPlate, clock, note, choice, myPlate, hand);
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const logList = h("ol", { class: "log-list cw-log-list" });
  const logBox = h("section", { class: "cw-log", "aria-label": t("What happened") }, h("h3", {}, t("What happened")), logList);
  const side = h("aside", { class: "cw-side", "aria-label": t("Penalties and log") }, logBox);
  const board = tableOf(root, ctx, "cw", h("div", { class: "cw-main" }, felt,
    h("p", { class: "muted small cw-help" }, t("Every card in a hand that matches a due spade is played for its holder. Only when you can play nothing do you choose: take one of the due spades (click it on the clock, or use the buttons).")),
    narrator), side);
  rovingFocus(choice);
  const els = { root: board.el, oppPlate, myPlate, clock, note, choice, hand, narrator, side, logList, logBox };
  const log = { told: new Map(), windowStart: -1, lastTurn: 0 }; // seq -> {text, kind, turn}

  const state = (view, before, extra = {}) => stateOf(view, before, extra, ctx, board.seat, els, log);
  const draw = [
    readEvents, (st) => drawPlate(st, oppPlate, st.top), (st) => drawPlate(st, myPlate, st.bottom),
    drawClock, drawChoice, drawHand, drawNote, drawSide,
  ];

  // Motion: your cards fly from your hand to the clock, the other player's from their
  // plate; a card drawn flies from the stock in the middle of the clock.
  const motion = {
    scope: felt,
    from(el) {
      if (el.closest(".cw-hand")) { const s = clock.querySelector(".cw-stock"); return s ? s.getBoundingClientRect() : null; }
      if (el.closest(".cw-clock")) return oppPlate.getBoundingClientRect();
      return null;
    },
  };

  return board.renderer({
    state,
    draw,
    motion,
    refused() {
      for (const el of board.el.querySelectorAll(".leaving")) el.classList.remove("leaving");
    },
    results(v) {
      return { scoreLabel: t("Penalty spades"), historyTitle: t("How the game ended"), history: endTable(state(v, null)) };
    },
  });
}
