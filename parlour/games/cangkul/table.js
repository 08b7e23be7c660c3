// The Cangkul table: the other players' plates across the top of the felt (in play order
// from your left), the stock and the trick in the middle, your plate below, the Draw / Pass
// / Take button when you cannot follow, your hand with the cards you may not play dimmed
// (the reason on hover and for screen readers), and beside, the lost deals, the last trick
// and the deals so far. Everything comes from view(seat); mount(root, ctx).

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle } from "../../dom.js";
import { cardFace as face, cardName } from "../../tables/cards.js";
import { tableOf } from "../../tables/table.js";
import { layHand, miniTrick, playedCard, shownTrick } from "../../tables/tricks.js";
import { t, n, p } from "../../i18n.js";
import { seatLabel } from "../../words.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/games/cangkul/table.css")]);

// A hand longer than this goes in two rows on a narrow screen (a drawn-up hand grows).
const ONE_ROW_MOST = 9;
const cardFace = (card, { button = false, small = false } = {}) => face(card, { tag: button ? "button" : "div", small });
// The moves that are not a card, with their button's words.
const MOVES = {
  draw: () => t("Draw from the stock"),
  pass: () => t("Pass"),
  take: () => t("Take the trick's cards"),
};

// ------------------------------------------------------------------ seats
function drawPlates(st) {
  const { view, me, els } = st;
  clear(els.opponents);
  els.mine.replaceChildren();
  for (const seat of st.order) {
    const plate = seatPlate(st, seat);
    if (seat === me) els.mine.append(plate);
    else els.opponents.append(plate);
  }
  els.opponents.style.setProperty("--others", String(Math.max(1, view.seats - (me === null ? 0 : 1))));
  els.mine.hidden = me === null;
}

function seatPlate(st, seat) {
  const { view, ctx, me, label } = st;
  const turn = view.to_act.includes(seat);
  const out = view.out.indexOf(seat);
  const held = view.hand_sizes[seat];
  const el = h("div", { class: `ck-plate${turn ? " turn" : ""}${out >= 0 ? " out" : ""}`, "data-seat": String(seat) },
    h("div", { class: "who" }, h("span", { class: "name", title: label(seat) }, label(seat)),
      ctx.badge && ctx.badge(seat) ? h("span", { class: "bot-badge" }, ctx.badge(seat)) : null,
      view.dealer === seat ? h("span", { class: "chip", title: t("Dealer"), "aria-label": t("dealer") }, p("dealer chip", "D")) : null),
    h("div", { class: "stats" },
      h("span", { class: "held" }, out >= 0 ? t("out ({place})", { place: out + 1 }) : n("{n} card", "{n} cards", held)),
      h("span", { class: "lost", title: t("Lost deals") }, t("lost {n}", { n: view.losses[seat] }))));
  if (seat !== me && held && out < 0) {
    const backs = h("div", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(held, 10); i++) backs.append(h("span", { class: "back" }));
    el.append(backs);
  }
  if (view.known[seat].length && seat !== me) {
    el.append(h("div", { class: "known", title: t("Cards everyone knows this player holds") },
      ...view.known[seat].map((c) => cardFace(c, { small: true }))));
  }
  if (turn && view.phase !== "over" && ctx.live) el.append(h("div", { class: "thinking", "aria-hidden": "true" }, me === seat ? t("your turn") : t("thinking…")));
  el.setAttribute("aria-label", t("{who}: {cards}, lost {lost}", { who: label(seat), cards: out >= 0 ? t("out ({place})", { place: out + 1 }) : n("{n} card", "{n} cards", held), lost: view.losses[seat] }));
  return el;
}

// ------------------------------------------------------------------ stock and trick
function drawMiddle(st) {
  const { view, me, name, label, els } = st;
  clear(els.stock);
  const size = view.stock_size;
  els.stock.append(h("div", { class: `pile${size ? "" : " empty"}`, role: "img", "aria-label": n("The stock: {n} card", "The stock: {n} cards", size) },
    size ? h("span", { class: "back big" }) : null),
  h("div", { class: "count" }, size ? n("{n} card", "{n} cards", size) : t("stock empty")));
  clear(els.trick);
  const { plays, done } = shownTrick(view);
  const last = view.last_trick;
  for (const play of plays) {
    const el = playedCard(play, label, { winner: play.seat === (done ? last.winner : view.winning) });
    els.trick.append(h("figure", { class: "slot", "data-card": play.card }, el, h("figcaption", {}, name(play.seat))));
  }
  els.trick.classList.toggle("done", done);
  let text = "";
  if (view.outcome) text = resultText(st);
  else if (done && last.taker !== null) text = me === last.taker ? t("You take the trick's cards into your hand") : t("{who} takes the trick's cards into hand", { who: name(last.taker) });
  else if (done && last.winner !== null) text = me === last.winner ? t("You take the trick") : t("{who} takes the trick", { who: name(last.winner) });
  else if (!view.trick.length && view.phase === "play") {
    const lastDeal = view.deals.length ? view.deals[view.deals.length - 1] : null;
    const lead = me === view.to_act[0] ? t("Your lead") : t("{who} to lead", { who: name(view.to_act[0]) });
    text = lastDeal && lastDeal.deal === view.deal - 1 && !view.moves.length
      ? `${t("Deal {deal}: lost by {who}.", { deal: lastDeal.deal, who: lastDeal.losers.map(name).join(t(" and ")) })} ${lead}` : lead;
  } else if (view.trick.length) text = t("{suit} led", { suit: p("suit", view.lead_suit) });
  els.note.textContent = text;
  els.note.classList.toggle("result", Boolean(view.outcome));
}

function resultText(st) {
  const { view, me, name } = st;
  const o = view.outcome;
  const losers = o.placing.map((pl, s) => [pl, s]).filter(([pl]) => pl === Math.max(...o.placing)).map(([, s]) => s);
  if (me !== null && o.winners.includes(me)) return t("You win the match!");
  if (me !== null && losers.includes(me) && o.winners.length < view.seats) return t("You lose the match, with {n} lost deals", { n: view.losses[me] });
  return n("{who} wins the match", "{who} win the match", o.winners.length, { who: o.winners.map(name).join(t(" and ")) });
}

// ------------------------------------------------------------------ moves and hand
function drawActions(st) {
  const { view, myTurn, act, focusIfIdle, els } = st;
  clear(els.actions);
  const moves = myTurn ? view.legal.filter((a) => a in MOVES) : [];
  els.actions.hidden = !moves.length;
  if (!moves.length) return;
  const why = view.lead_suit ? t("You hold no {suit}.", { suit: p("suit", view.lead_suit) }) : "";
  const buttons = moves.map((m) => {
    const b = h("button", { class: "button primary ck-act", type: "button", "data-action": m }, MOVES[m]());
    b.addEventListener("click", () => act(m));
    return b;
  });
  els.actions.append(h("span", { class: "why" }, why), ...buttons);
  focusIfIdle(buttons[0]);
}

function drawHand(st) {
  const { view, ctx, me, name, myTurn, act, focusIfIdle, els } = st;
  const { hand } = els;
  const hadFocus = hand.contains(document.activeElement);
  const focused = hadFocus ? document.activeElement.dataset.card : null;
  clear(hand);
  if (me === null || !view.hand) { hand.hidden = true; return; }
  hand.hidden = false;
  const cards = view.hand;
  const legal = new Set(view.legal);
  const buttons = cards.map((card) => {
    const b = cardFace(card, { button: ctx.live });
    let reason = null;
    if (view.phase === "over") reason = t("the match is over");
    else if (!myTurn) reason = t("wait for {who}", { who: name(view.to_act[0]) });
    else if (!legal.has(card)) reason = view.why_not[card] || t("not playable now");
    if (myTurn && !legal.has(card)) b.classList.add("illegal");
    if (!ctx.live) return b;
    if (reason) {
      b.setAttribute("aria-disabled", "true");
      b.setAttribute("title", reason);
      b.setAttribute("aria-label", `${cardName(card)}, ${reason}`);
    } else {
      b.setAttribute("aria-label", t("Play the {card}", { card: cardName(card) }));
      b.classList.add("playable");
    }
    b.addEventListener("click", () => {
      if (reason) { ctx.say(`${cardName(card)}: ${reason}`, "error"); return; }
      b.classList.add("leaving");
      act(card);
    });
    return b;
  });
  layHand(hand, buttons, ONE_ROW_MOST);
  if (!buttons.length) return;
  let idx = focused ? cards.indexOf(focused) : -1;
  if (idx < 0 || (myTurn && !buttons[idx].classList.contains("playable"))) {
    const first = buttons.findIndex((b) => b.classList.contains("playable"));
    idx = first >= 0 ? first : Math.max(0, idx);
  }
  setRoving(buttons, idx);
  if (hadFocus) buttons[idx].focus();
  else if (myTurn && buttons[idx].classList.contains("playable")) focusIfIdle(buttons[idx]);
}

// ------------------------------------------------------------------ side panel
function drawSide(st) {
  const { view, me, label, els } = st;
  const { side } = els;
  clear(side);
  side.append(h("h2", { class: "side-title" }, t("Deal {deal}", { deal: view.deal }),
    h("span", { class: "muted" }, " · ", n("{n} lost deal ends the match", "{n} lost deals end the match", view.options.losses))));
  const rows = st.order.map((seat) => h("tr", { class: seat === me ? "mine" : null },
    h("th", { scope: "row" }, label(seat)), h("td", { class: "lost-count" }, String(view.losses[seat])), h("td", {}, String(view.firsts[seat]))));
  side.append(h("table", { class: "ck-standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Lost")), h("th", { scope: "col" }, t("Won")))),
    h("tbody", {}, ...rows)));
  const last = view.last_trick;
  const lastBox = h("section", { class: "last-trick", "aria-label": t("Last trick") }, h("h3", {}, t("Last trick")));
  if (last && last.cards.length) {
    const row = miniTrick(last, label);
    const who = last.taker !== null ? t("Taken into hand by {who}", { who: label(last.taker) })
      : last.winner !== null ? t("Won by {who}", { who: label(last.winner) }) : t("Not finished: the deal ended");
    lastBox.append(row, h("p", { class: "muted small" }, who));
  } else lastBox.append(h("p", { class: "muted small" }, t("No trick played yet.")));
  side.append(lastBox);
  const hist = h("section", { class: "history", "aria-label": t("Deal history") }, h("h3", {}, t("Deals")));
  if (!view.deals.length) hist.append(h("p", { class: "muted small" }, t("Who lost each deal appears here.")));
  else hist.append(dealsTable(st));
  side.append(hist);
}

// Each finished deal: who went out first and who lost it (the side panel and the results).
function dealsTable(st) {
  const { view, label } = st;
  const body = h("tbody");
  for (const d of view.deals) {
    body.append(h("tr", {}, h("th", { scope: "row" }, String(d.deal)),
      h("td", {}, d.out.length ? label(d.out[0]) : "–"),
      h("td", {}, d.losers.map(label).join(", "), d.stopped ? h("small", { class: "muted" }, t("stopped")) : null)));
  }
  return h("table", {}, h("caption", { class: "sr-only" }, t("Who went out first and who lost each deal")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("Out first")), h("th", { scope: "col" }, t("Lost")))),
    body);
}

// ------------------------------------------------------------------ narration
function narrate(st) {
  const { before, view: after, me, label, myTurn, els: { narrator } } = st;
  const lines = [];
  if (before && before.deal === after.deal) {
    for (const [s, move] of after.moves.slice(before.moves.length)) {
      if (move === "draw") lines.push(t("{who} drew from the stock.", { who: label(s) }));
      else if (move === "pass") lines.push(t("{who} passed.", { who: label(s) }));
      else if (move === "take") lines.push(t("{who} took the trick's cards.", { who: label(s) }));
      else lines.push(t("{who} played the {card}.", { who: label(s), card: cardName(move) }));
    }
  } else if (before && after.deal !== before.deal) {
    lines.push(t("Deal {done} is over. Deal {next} begins.", { done: before.deal, next: after.deal }));
  }
  if (after.outcome && !(before && before.outcome)) lines.push(resultText(st));
  if (myTurn && !(before && before.to_act.includes(me))) lines.push(t("Your turn to play."));
  if (lines.length) narrator.textContent = lines.join(" ");
}

// What every piece reads: the view and the one before, the page's context, the table's
// elements, and who is who.
function stateOf(view, before, ctx, seat, els, mem) {
  const me = seat.me();
  const name = (s) => (ctx.live && me === s ? t("You") : ctx.names[s] || seatLabel(`seat ${s}`));
  // Every seat in play order from the bottom one: the others across the top, left to right.
  const order = Array.from({ length: view.seats }, (_, i) => (seat.bottom() + 1 + i) % view.seats);
  return {
    view, before, ctx, els, mem, me, name, order,
    label: (s) => (ctx.live && me === s ? t("You") : name(s)),
    myTurn: me !== null && ctx.live && view.to_act.includes(me) && view.legal.length > 0,
    act: (text) => { if (ctx.live) ctx.act(text); },
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
  };
}

export function mount(root, ctx) {
  const opponents = h("div", { class: "ck-others" });
  const stock = h("div", { class: "ck-stock", "aria-label": t("The stock") });
  const trick = h("div", { class: "ck-trick", role: "region", "aria-label": t("Cards on the table") });
  const note = h("div", { class: "felt-note", "aria-live": "polite" });
  const mine = h("div", { class: "ck-mine" });
  const felt = h("div", { class: "felt ck-felt" }, note, opponents, h("div", { class: "ck-middle" }, stock, trick), mine);
  const actions = h("div", { class: "ck-actions", role: "group", "aria-label": t("You cannot follow"), hidden: "" });
  const hand = h("div", { class: "ck-hand", role: "toolbar", "aria-label": t("Your hand") });
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "side", "aria-label": t("Lost deals") });
  const main = h("div", { class: "play-area" }, felt, actions, hand, narrator);
  const board = tableOf(root, ctx, "cangkul", main, side);
  const els = { root: board.el, opponents, stock, trick, note, mine, actions, hand, narrator, side };
  const mem = {};
  rovingFocus(hand);
  board.on(window, "resize", () => layHand(hand, [...hand.querySelectorAll(".card")], ONE_ROW_MOST));
  const state = (view, before) => stateOf(view, before, ctx, board.seat, els, mem);
  const draw = [drawPlates, drawMiddle, drawActions, drawHand, drawSide, (st) => { if (ctx.live) narrate(st); }];
  // Motion: a card flies from a player's plate to the trick; a gathered trick to the plate
  // of the one who took it.
  const plateOf = (seat) => board.el.querySelector(`.ck-plate[data-seat="${seat}"]`);
  const motion = {
    scope: main,
    from(el, { view }) {
      const slot = el.closest(".slot");
      const play = slot && view.trick.find((c) => c.card === slot.dataset.card);
      const plate = play ? plateOf(play.seat) : null;
      return plate ? plate.getBoundingClientRect() : null;
    },
    to(key, { before }) {
      const last = before && before.last_trick;
      if (!last || !last.cards.some((c) => c.card === key)) return null;
      const who = last.taker ?? last.winner;
      const plate = who === null || who === undefined ? null : plateOf(who);
      return plate ? plate.getBoundingClientRect() : null;
    },
  };
  return board.renderer({
    state,
    draw,
    motion,
    // A finished trick stays readable a moment before the next card is drawn over it.
    holds(v) {
      return v.phase === "play" && !v.trick.length && Boolean(v.last_trick) && v.last_trick.deal === v.deal && v.last_trick.cards.length > 0;
    },
    results(v) {
      const st = state(v, null);
      return { headline: v.outcome ? resultText(st) : null, history: v.deals.length ? dealsTable(st) : null, historyTitle: t("Deals") };
    },
    refused() {
      for (const b of hand.querySelectorAll(".leaving")) b.classList.remove("leaving");
    },
  });
}
