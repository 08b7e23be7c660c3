// The Spades table: four seats around the felt (you at the bottom), the trick in the
// middle, your hand below with the cards you may not play dimmed (the reason on hover and
// for screen readers), the bidding panel, and the scores, bags and deal history beside.
// Everything comes from view(seat); mount(root, ctx) -> {update(view), destroy()}.

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle, fitRow } from "../dom.js";
import { cardFace as face, cardName } from "./cards.js";
import { tableOf } from "./table.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/tables/spades.css")]);

const POS = ["bottom", "left", "top", "right"];

// A face-up card: a button when it can be chosen, a picture otherwise.
const cardFace = (card, { button = false, small = false } = {}) => face(card, { tag: button ? "button" : "div", small });

const teamOf = (seat) => seat % 2;

function bidText(bid) {
  if (bid === null || bid === undefined) return "–";
  if (bid === "nil") return "Nil";
  if (bid === "blind nil") return "Blind nil";
  return String(bid);
}

// ------------------------------------------------------------------ seats
function drawPlates(st) {
  const { view, ctx, me, label, posOf, els } = st;
  const { plates } = els;
  for (let seat = 0; seat < 4; seat++) {
    const plate = plates[posOf(seat)];
    clear(plate);
    const turn = view.to_act.includes(seat);
    plate.classList.toggle("turn", turn);
    const partner = ctx.live && me !== null && seat !== me && teamOf(seat) === teamOf(me);
    plate.classList.toggle("partner", partner);
    const bid = view.bids[seat];
    const parts = [
      h("div", { class: "who" }, h("span", { class: "name", title: label(seat) }, label(seat)), ctx.badge && ctx.badge(seat) ? h("span", { class: "bot-badge" }, ctx.badge(seat)) : null,
        view.dealer === seat ? h("span", { class: "chip", title: "Dealer", "aria-label": "dealer" }, "D") : null,
        partner ? h("span", { class: "tag" }, "partner") : null),
      h("div", { class: "stats" },
        h("span", {}, "Bid ", h("b", {}, bidText(bid))),
        h("span", {}, "Won ", h("b", {}, String(view.tricks[seat])))),
    ];
    if (posOf(seat) !== 0) {
      const n = view.hand_sizes[seat];
      const backs = h("div", { class: "backs", "aria-label": `${n} card${n === 1 ? "" : "s"} in hand`, role: "img" });
      for (let i = 0; i < Math.min(n, 13); i++) backs.append(h("span", { class: "back" }));
      parts.push(backs);
    }
    // "thinking…" and "your turn" are live cues: a replay shows whose turn it is by the ring alone
    if (turn && view.phase !== "over" && ctx.live) parts.push(h("div", { class: "thinking", "aria-hidden": "true" }, me === seat ? "your turn" : view.phase === "bid" ? "bidding…" : "thinking…"));
    plate.append(...parts);
    plate.setAttribute("aria-label", `${label(seat)}: bid ${bidText(bid)}, won ${view.tricks[seat]} trick${view.tricks[seat] === 1 ? "" : "s"}${turn ? ", to play" : ""}`);
  }
}

// ------------------------------------------------------------------ the trick
function drawTrick(st) {
  const { view, me, name, label, posOf, els } = st;
  const { slots, trick, note } = els;
  slots.forEach(clear);
  let cards = view.trick;
  let done = false;
  if (!cards.length && view.phase === "play" && view.last_trick && view.last_trick.deal === view.deal) {
    cards = view.last_trick.cards;
    done = true;
  }
  for (const play of cards) {
    const el = cardFace(play.card);
    el.setAttribute("aria-label", `${label(play.seat)}: ${cardName(play.card)}`);
    if (done && play.seat === view.last_trick.winner) el.classList.add("winner");
    slots[posOf(play.seat)].append(el);
  }
  trick.classList.toggle("done", done);
  let text = "";
  if (view.outcome) text = resultText(st);
  else if (done) text = `${me === view.last_trick.winner ? "You take" : `${name(view.last_trick.winner)} takes`} the trick`;
  else if (view.phase === "bid") {
    const seat = view.to_act[0];
    text = `Deal ${view.deal}: ${me === seat ? "your bid" : `${name(seat)} to bid`}`;
  } else if (!cards.length && view.phase === "play") {
    text = me === view.to_act[0] ? "Your lead" : `${name(view.to_act[0])} to lead`;
  }
  note.textContent = text;
  note.classList.toggle("result", Boolean(view.outcome));
}

function resultText(st) {
  const { view, me } = st;
  const o = view.outcome;
  if (o.winners.length === 4) return `The match is drawn, ${view.scores[0]} all`;
  const team = teamOf(o.winners[0]);
  const who = me === null ? `${view.team_names[team]} win` : teamOf(me) === team ? "You win!" : "You lose";
  return `${who} ${view.scores[team]} to ${view.scores[1 - team]}`;
}

// ------------------------------------------------------------------ bidding
function bidButton(st, text, caption, aria) {
  const { act } = st;
  const b = h("button", { class: "bid", type: "button", "data-action": text, "aria-label": aria }, caption);
  b.addEventListener("click", () => act(text));
  return b;
}

function drawBidding(st) {
  const { view, me, myTurn, focusIfIdle, els } = st;
  const { bidPanel } = els;
  clear(bidPanel);
  const mine = view.phase === "bid" && myTurn;
  bidPanel.hidden = !mine;
  if (!mine) return;
  const legal = view.legal;
  const buttons = [];
  if (legal.includes("blind nil")) {
    bidPanel.append(h("p", { class: "bid-title" }, `You may bid blind nil, before you look at your cards (worth ${view.options.blind_nil_value}), or look at them and bid as usual.`));
    buttons.push(bidButton(st, "blind nil", "Blind nil", "Bid blind nil without looking"));
    buttons.push(bidButton(st, "look", "Look at my cards", "Look at my cards"));
  } else {
    const partner = (me + 2) % 4;
    const pb = view.bids[partner];
    bidPanel.append(h("p", { class: "bid-title" }, "How many tricks will you take?",
      pb !== null ? h("span", { class: "muted" }, ` Your partner bid ${bidText(pb)}.`) : null));
    for (const text of legal) {
      if (text === "nil") buttons.push(bidButton(st, text, "Nil", "Bid nil: take no tricks"));
      else if (text.startsWith("bid ")) {
        const n = text.slice(4);
        buttons.push(bidButton(st, text, n, `Bid ${n} trick${n === "1" ? "" : "s"}`));
      }
    }
  }
  const row = h("div", { class: "bid-row" }, ...buttons);
  bidPanel.append(row);
  setRoving(buttons, 0);
  focusIfIdle(buttons[0]);
}

// ------------------------------------------------------------------ the hand
function drawHand(st) {
  const { view, ctx, me, name, myTurn, act, focusIfIdle, els } = st;
  const { hand } = els;
  const hadFocus = hand.contains(document.activeElement);
  const focused = hadFocus ? document.activeElement.dataset.card : null;
  const oldIndex = hadFocus ? [...hand.querySelectorAll(".card")].indexOf(document.activeElement) : -1;
  clear(hand);
  hand.classList.toggle("spectator", me === null);
  if (me === null) { hand.hidden = true; return; }
  hand.hidden = false;
  if (view.hand_hidden) {
    const backs = h("div", { class: "hand-hidden", role: "img", "aria-label": "Your 13 cards, face down" });
    for (let i = 0; i < 13; i++) backs.append(h("span", { class: "back big" }));
    hand.append(backs);
    return;
  }
  const cards = view.hand || [];
  const playing = view.phase === "play" && myTurn;
  const legal = new Set(view.legal);
  const buttons = cards.map((card) => {
    const b = cardFace(card, { button: ctx.live });
    let reason = null;
    if (!ctx.live) reason = null;
    else if (view.phase === "over") reason = "the match is over";
    else if (view.phase === "bid") reason = "bidding first";
    else if (!playing) reason = `wait for ${name(view.to_act[0])}`;
    else if (!legal.has(card)) reason = view.why_not[card] || "not playable now";
    if (playing && !legal.has(card)) b.classList.add("illegal");
    if (reason && ctx.live) {
      b.setAttribute("aria-disabled", "true");
      b.setAttribute("title", reason);
      b.setAttribute("aria-label", `${cardName(card)}, ${reason}`);
    } else if (ctx.live) {
      b.setAttribute("aria-label", `Play the ${cardName(card)}`);
      b.classList.add("playable");
    }
    if (ctx.live) b.addEventListener("click", () => {
      if (reason) { ctx.say(`${cardName(card)}: ${reason}`, "error"); return; }
      b.classList.add("leaving");
      act(card);
    });
    return b;
  });
  layHand(hand, buttons);
  if (!buttons.length) return;
  let idx = focused ? cards.indexOf(focused) : -1;
  if (idx < 0 && oldIndex >= 0) idx = Math.min(oldIndex, buttons.length - 1);
  if (idx < 0) idx = Math.max(0, buttons.findIndex((b) => b.classList.contains("playable")));
  setRoving(buttons, idx);
  if (hadFocus) buttons[idx].focus();
  else if (playing) focusIfIdle(buttons[idx]);
}

// The hand in one row, its cards overlapping just enough; on a narrow screen a long hand
// goes in two rows, so each card shows more than a thin strip.
function layHand(hand, cards) {
  clear(hand);
  const two = cards.length > 8 && hand.clientWidth > 0 && hand.clientWidth < 520;
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

// ------------------------------------------------------------------ scores
function drawSide(st) {
  const { view, me, label, els } = st;
  const { side } = els;
  clear(side);
  const teams = [0, 1].map((t) => {
    const seats = view.teams[t];
    const mine = me !== null && teamOf(me) === t;
    const bids = seats.map((s) => view.bids[s]);
    const bid = bids.every((b) => b === null) ? "–" : bids.map(bidText).join(" + ");
    const won = seats.reduce((a, s) => a + view.tricks[s], 0);
    return h("div", { class: `team${mine ? " mine" : ""}` },
      h("div", { class: "team-name" }, view.team_names[t], mine ? h("span", { class: "muted" }, " (your team)") : null),
      h("div", { class: "team-score", "aria-label": `score ${view.scores[t]}` }, String(view.scores[t])),
      h("dl", { class: "team-facts" },
        h("dt", {}, "Bags"), h("dd", {}, String(view.bags[t]), h("span", { class: "muted" }, ` / ${view.options.bag_limit}`)),
        h("dt", {}, "Bid"), h("dd", {}, bid),
        h("dt", {}, "Won"), h("dd", {}, String(won))));
  });
  side.append(h("h2", { class: "side-title" }, `Deal ${view.deal}`, h("span", { class: "muted" }, ` · playing to ${view.options.target}`)),
    h("div", { class: "teams" }, ...teams));

  const last = view.last_trick;
  const lastBox = h("section", { class: "last-trick", "aria-label": "Last trick" }, h("h3", {}, "Last trick"));
  if (last) {
    const row = h("div", { class: "mini-trick" });
    for (const play of last.cards) {
      const c = cardFace(play.card, { small: true });
      c.setAttribute("aria-label", `${label(play.seat)}: ${cardName(play.card)}`);
      if (play.seat === last.winner) c.classList.add("winner");
      row.append(h("figure", {}, c, h("figcaption", {}, view.seat_names[play.seat][0])));
    }
    lastBox.append(row, h("p", { class: "muted small" }, `Won by ${label(last.winner)}${last.deal !== view.deal && view.phase !== "over" ? ` (deal ${last.deal})` : ""}`));
  } else lastBox.append(h("p", { class: "muted small" }, "No trick played yet."));
  side.append(lastBox);

  const hist = h("section", { class: "history", "aria-label": "Deal history" }, h("h3", {}, "Deals"));
  if (!view.deals.length) hist.append(h("p", { class: "muted small" }, "Scores appear here after each deal."));
  else hist.append(dealsTable(view));
  side.append(hist);
}

// The points and score of each team after every deal (the side panel and the results).
function dealsTable(view) {
  const table = h("table", {},
    h("caption", { class: "sr-only" }, "Points won and scores after each deal"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, short(view, 0)), h("th", { scope: "col" }, short(view, 1)))));
  const body = h("tbody");
  for (const d of view.deals) {
    const cell = (t) => {
      const r = d.teams[t];
      const seats = view.teams[t];
      const detail = `bid ${seats.map((s) => bidText(d.bids[s])).join("+")}, took ${seats.map((s) => d.tricks[s]).join("+")}` +
        (r.nil ? `, nil ${r.nil > 0 ? "+" : ""}${r.nil}` : "") + (r.bag_points ? `, ${r.bag_points} bag${r.bag_points === 1 ? "" : "s"}` : "") +
        (r.penalty ? `, bag penalty -${r.penalty}` : "");
      return h("td", {}, h("span", { class: r.points < 0 ? "neg" : "pos" }, `${r.points > 0 ? "+" : ""}${r.points}`),
        h("b", {}, ` ${r.score}`), h("small", { class: "muted" }, detail));
    };
    body.append(h("tr", {}, h("th", { scope: "row" }, String(d.deal)), cell(0), cell(1)));
  }
  table.append(body);
  return table;
}

function short(view, t) {
  return view.team_names[t].split("-").map((w) => w[0]).join("");
}

// ------------------------------------------------------------------ narration
function narrate(st) {
  const { before, view: after, me, label, myTurn, els: { narrator } } = st;
  const lines = [];
  if (before && before.deal === after.deal) {
    for (let s = 0; s < 4; s++) {
      if (before.bids[s] === null && after.bids[s] !== null) lines.push(`${label(s)} bid ${bidText(after.bids[s])}.`);
    }
    for (const [s, card] of after.played.slice(before.played.length)) lines.push(`${label(s)} played the ${cardName(card)}.`);
    const t = after.last_trick;
    if (t && (!before.last_trick || before.last_trick.cards.map((c) => c.card).join() !== t.cards.map((c) => c.card).join())) lines.push(`${label(t.winner)} won the trick.`);
  } else if (before && after.deal !== before.deal) {
    lines.push(`Deal ${before.deal} scored. Deal ${after.deal} begins.`);
  }
  if (after.outcome && !(before && before.outcome)) lines.push(resultText(st));
  if (myTurn && !(before && before.to_act.includes(me))) lines.push(after.phase === "bid" ? "Your turn to bid." : "Your turn to play.");
  if (lines.length) narrator.textContent = lines.join(" ");
}

// What every piece reads: the view and the one before, the page's context, the table's
// elements, and who is who (seat numbers to names and places; whether you may act).
function stateOf(view, before, ctx, seat, els) {
  const me = seat.me();
  const name = (s) => ctx.names[s] || view.seat_names[s];
  return {
    view, before, ctx, els, me, name,
    posOf: (s) => seat.offset(s, 4),
    label: (s) => (me === s ? `You (${view.seat_names[s]})` : name(s)),
    myTurn: me !== null && view.to_act.includes(me) && view.legal.length > 0,
    act: (text) => { if (ctx.live) ctx.act(text); },
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
  };
}

export function mount(root, ctx) {
  const plates = POS.map((pos) => h("div", { class: `plate plate-${pos}` }));
  const slots = POS.map((pos) => h("div", { class: `slot slot-${pos}` }));
  const note = h("div", { class: "felt-note", "aria-live": "polite" });
  const trick = h("div", { class: "trick", role: "region", "aria-label": "Cards on the table" }, ...slots);
  // The caption sits in the felt's top-left corner, never over the cards of the trick.
  const felt = h("div", { class: "felt" }, note, plates[2], plates[1], trick, plates[3], plates[0]);
  const bidPanel = h("div", { class: "bid-panel", role: "group", "aria-label": "Your bid", hidden: "" });
  const hand = h("div", { class: "hand", role: "toolbar", "aria-label": "Your hand" });
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "side", "aria-label": "Scores" });
  const main = h("div", { class: "play-area" }, felt, bidPanel, hand, narrator);
  const t = tableOf(root, ctx, "spades", main, side);
  const els = { root: t.el, plates, slots, note, trick, bidPanel, hand, narrator, side };
  rovingFocus(hand);
  rovingFocus(bidPanel);
  t.on(window, "resize", () => layHand(hand, [...hand.querySelectorAll(".card")]));

  const state = (view, before) => stateOf(view, before, ctx, t.seat, els);
  const draw = [drawPlates, drawTrick, drawBidding, drawHand, drawSide, (st) => { if (ctx.live) narrate(st); }];

  // Motion: your card flies from your hand to the trick, a bot's from its plate; a trick
  // gathered flies to the plate of the seat that took it.
  const motion = {
    scope: main,
    from(el) {
      const slot = el.closest(".slot");
      const pos = slot ? POS.findIndex((p) => slot.classList.contains(`slot-${p}`)) : -1;
      return pos >= 0 ? plates[pos].getBoundingClientRect() : null;
    },
    to(key, { before, posOf }) {
      const last = before && before.last_trick;
      return last && last.cards.some((c) => c.card === key) ? plates[posOf(last.winner)].getBoundingClientRect() : null;
    },
  };

  return t.renderer({
    state,
    draw,
    motion,
    // A finished trick stays readable a moment before the next card is drawn over it.
    holds(v) {
      return v.phase === "play" && !v.trick.length && Boolean(v.last_trick) && v.last_trick.deal === v.deal;
    },
    results(v) {
      return { headline: v.outcome ? resultText(state(v, null)) : null, history: v.deals.length ? dealsTable(v) : null, historyTitle: "Deals" };
    },
    refused() {
      for (const b of hand.querySelectorAll(".leaving")) b.classList.remove("leaving");
    },
  });
}
