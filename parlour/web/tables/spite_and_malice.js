// The Spite & Malice table. The opponent's payoff and side piles at the top, the stock and
// the centre piles in the middle (each shows the rank it stands at, a king what it stands
// for), yours below with your five numbered hand slots; the match score, the event log
// and the rounds beside.
//
// To move a card: drag it onto a pile, or click it and then click the pile (touch the
// same way), or with the keyboard: Tab to a card, Enter, then Enter on a highlighted pile
// (keys 1-5 pick a hand card, P the payoff top, Escape lets go). A hand card put on a side
// pile ends the turn. Everything shown comes from view(seat).

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle } from "../dom.js";
import { tableOf } from "./table.js";
import { cardBack, cardFace, cardName, pretty, rankOf, RANK_WORD, richText, spoken } from "./cards.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/tables/spite_and_malice.css")]);

const SIDE = 4;
const WILD = (card) => card === "Joker" || rankOf(card) === "K";
const article = (rank) => (rank === "A" || rank === "8" ? "an" : "a");
const rankWord = (rank) => RANK_WORD[rank] || rank;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// What every piece reads: the view and the one before, the page's context, the table's
// elements and memory, who is who, and the moves you may make.
function stateOf(view, before, extra, ctx, seat, els, mem) {
  const me = seat.me();
  const bottom = seat.bottom();
  const name = (s) => (me === s ? "You" : ctx.names[s] || view.seat_names[s]);
  const myTurn = ctx.live && me !== null && Boolean(view) && view.to_act.includes(me) && view.legal.length > 0;
  return {
    ...extra, view, before, ctx, els, mem, me, bottom, top: 1 - bottom, name, myTurn,
    whose: (s) => (me === s ? "Your" : `${name(s)}'s`),
    verb: (s, third, base) => (me === s ? base : third),
    legal: new Set(myTurn ? view.legal : []),
    movesFrom: (src) => (myTurn ? view.legal.filter((m) => m.startsWith(`${src}>`)) : []),
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
  };
}

function keepFocus(st) {
  const { before, els, me, myTurn, focusIfIdle } = st;
  const { root: rootEl, hand } = els;
  const { focusKey, focusGroup } = st;
  if (focusKey) {
    // the same control, or (if the card has gone) the first of its group
    const group = focusGroup && rootEl.querySelector(`[role=group][aria-label="${focusGroup}"]`);
    const el = rootEl.querySelector(`[data-key="${focusKey}"]`) || (group && group.querySelector("button"));
    if (el) el.focus({ preventScroll: true });
  } else if (myTurn && !(before && before.to_act.includes(me))) {
    focusIfIdle(hand.querySelector("button"));
  }
}

function drawPlate(st, el, seat) {
  const { view, ctx, me, name } = st;
  clear(el);
  const turn = view.to_act.includes(seat) && view.phase !== "over";
  el.classList.toggle("turn", turn);
  const n = view.hand_sizes[seat];
  const backs = h("span", { class: "snm-backs", "aria-hidden": "true" });
  if (seat !== me) for (let i = 0; i < n; i++) backs.append(h("span", { class: "back" }));
  el.append(...[
    h("span", { class: "snm-name", title: name(seat) }, name(seat)),
    h("span", { class: "snm-score", title: "Match score" }, `${view.scores[seat]} ${view.scores[seat] === 1 ? "pt" : "pts"}`),
    seat !== me ? h("span", { class: "snm-count" }, backs, plural(n, "card")) : null,
    turn ? h("span", { class: "snm-turn" }, me === seat && ctx.live ? "your turn" : ctx.live ? "playing…" : "to play") : null].filter(Boolean));
  el.setAttribute("aria-label", `${name(seat)}: ${view.scores[seat]} points${seat !== me ? `, ${plural(n, "card")} in hand` : ""}${turn ? ", to play" : ""}`);
}

function drawPlates(st) {
  const { els, bottom, top } = st;
  const { oppPlate, myPlate } = els;
  drawPlate(st, oppPlate, top);
  drawPlate(st, myPlate, bottom);
  myPlate.hidden = false;
}

function payoffEl(st, seat) {
  const { view, ctx, me, whose } = st;
  const p = view.payoff[seat];
  const mine = seat === me && ctx.live;
  const label = `${whose(seat)} payoff pile: ${p.size ? `${plural(p.size, "card")}, the ${cardName(p.top)} on top` : "empty"}`;
  const el = h(mine ? "button" : "div", { class: "snm-pile snm-payoff", type: mine ? "button" : null, "data-key": mine ? "p" : null, role: mine ? null : "img", "aria-label": label, title: label });
  const depth = Math.min(4, Math.max(0, p.size - 1));
  const stack = h("div", { class: "snm-stack", style: null });
  for (let i = 0; i < depth; i++) stack.append(cardBack({ cls: `under u${i + 1}` }));
  stack.append(p.top ? cardFace(p.top, { cls: "rankface top" }) : h("div", { class: "card-slot" }, "empty"));
  el.append(stack, h("span", { class: "snm-badge", "aria-hidden": "true" }, String(p.size)), h("span", { class: "snm-caption", "aria-hidden": "true" }, "Payoff"));
  return el;
}

// A side pile fanned downwards, every card showing, the top card (the playable one) last.
function sideEl(st, seat, k) {
  const { view, ctx, me, whose } = st;
  const pile = view.side_piles[seat][k]; // top first
  const mine = seat === me && ctx.live;
  const key = mine ? `s${k + 1}` : null;
  const cards = [...pile].reverse();
  const label = `${whose(seat)} side pile ${k + 1}: ${pile.length ? `${plural(pile.length, "card")}, top first: ${pile.map(cardName).join(", ")}` : "empty"}`;
  const el = h(mine ? "button" : "div", { class: "snm-pile snm-sidepile", type: mine ? "button" : null, "data-key": key, role: mine ? null : "img", "aria-label": label, title: pile.length ? `Side pile ${k + 1}: ${pile.map(pretty).join(" ")} (top first)` : `Side pile ${k + 1}: empty` });
  const fan = h("div", { class: "snm-fan" });
  fan.style.setProperty("--n", String(Math.max(1, cards.length)));
  if (!cards.length) fan.append(h("div", { class: "card-slot" }, String(k + 1)));
  cards.forEach((c, i) => {
    const face = cardFace(c, { cls: `rankface${i === cards.length - 1 ? " top" : ""}` });
    face.style.setProperty("--i", String(i));
    fan.append(face);
  });
  el.append(fan, h("span", { class: "snm-caption", "aria-hidden": "true" }, cards.length > 1 ? `Side ${k + 1} · ${cards.length}` : `Side ${k + 1}`));
  return el;
}

function drawPiles(st, row, seat) {
  const { ctx, me } = st;
  clear(row);
  row.append(payoffEl(st, seat));
  const sides = h("div", { class: "snm-sides" });
  for (let k = 0; k < SIDE; k++) sides.append(sideEl(st, seat, k));
  row.append(sides);
  if (seat === me && ctx.live) {
    const buttons = [...row.querySelectorAll("button")];
    setRoving(buttons, 0);
  }
}

function drawCentre(st) {
  const { view, ctx, els, me } = st;
  const { centre, stockBox } = els;
  clear(centre);
  clear(stockBox);
  const n = view.stock;
  stockBox.append(h("div", { class: "snm-stack" }, n ? cardBack({ cls: "top" }) : h("div", { class: "card-slot" }, "empty")),
    h("span", { class: "snm-badge" }, String(n)),
    h("span", { class: "snm-caption" }, "Stock"));
  stockBox.setAttribute("role", "img");
  stockBox.setAttribute("aria-label", `Stock: ${plural(n, "card")}${view.completed ? `; ${plural(view.completed, "pile")} completed and shuffled in this round` : ""}`);
  stockBox.title = `Stock: ${plural(n, "card")}`;
  const live = ctx.live && me !== null;
  view.centre.forEach((pile, j) => {
    const key = `c${j + 1}`;
    const topCard = pile.cards.length ? pile.cards[pile.cards.length - 1] : null;
    const wild = topCard && WILD(topCard);
    const needs = pile.stands_at >= 12 ? "complete" : `needs ${article(pile.needs)} ${rankWord(pile.needs)}`;
    const label = `Centre pile ${j + 1}: ${pile.cards.length ? `${plural(pile.cards.length, "card")}, ${topCard === "Joker" ? "a joker" : `the ${cardName(topCard)}`} on top${wild ? `, standing for ${article(pile.rank)} ${rankWord(pile.rank)}` : ""}` : "empty"}; ${needs}`;
    const el = h(live ? "button" : "div", { class: `snm-pile snm-centre-pile${pile.cards.length ? "" : " empty"}`, type: live ? "button" : null, "data-key": live ? key : null, "data-centre": String(j + 1), role: live ? null : "img", "aria-label": label, title: label });
    const stack = h("div", { class: "snm-stack" });
    const depth = Math.min(3, Math.max(0, pile.cards.length - 1));
    for (let i = 0; i < depth; i++) stack.append(h("div", { class: `card under u${i + 1}`, "aria-hidden": "true" }));
    if (topCard) {
      const face = cardFace(topCard, { cls: "rankface top" });
      if (wild) face.append(h("span", { class: "snm-standsfor", "aria-hidden": "true" }, `= ${pile.rank}`));
      stack.append(face);
    } else {
      stack.append(h("div", { class: "card-slot" }, h("b", {}, "A"), h("small", {}, "to start")));
    }
    el.append(stack,
      h("span", { class: `snm-rank${wild ? " wild" : ""}`, "aria-hidden": "true" }, pile.cards.length ? (wild ? `${topCard === "Joker" ? "Jkr" : "K"} = ${pile.rank}` : pile.rank) : ""),
      h("span", { class: "snm-caption", "aria-hidden": "true" }, pile.cards.length ? `needs ${pile.needs}` : "empty"));
    centre.append(el);
  });
  if (live) setRoving([...centre.querySelectorAll("button")], 0);
}

function drawHand(st) {
  const { view, ctx, els, me } = st;
  const { hand } = els;
  clear(hand);
  const mine = me !== null && view.hand;
  hand.hidden = false;
  if (!mine) {
    hand.classList.add("watching");
    hand.append(h("p", { class: "snm-watching" }, ctx.live ? "You are watching: the hands are hidden." : "The hands are hidden in a spectator's view."));
    return;
  }
  hand.classList.remove("watching");
  const buttons = [];
  view.hand.forEach((card, i) => {
    const key = `h${i + 1}`;
    let el;
    if (card) {
      el = cardFace(card, { tag: ctx.live ? "button" : "div", cls: "rankface top" });
      if (ctx.live) {
        el.dataset.key = key;
        el.setAttribute("aria-label", `Hand card ${i + 1}: ${cardName(card)}`);
        buttons.push(el);
      }
    } else {
      el = h("div", { class: "card-slot", role: "img", "aria-label": `Hand slot ${i + 1}: empty` }, "");
    }
    hand.append(h("div", { class: "snm-slot" }, el, h("span", { class: "snm-slotno", "aria-hidden": "true" }, String(i + 1))));
  });
  if (buttons.length) setRoving(buttons, 0);
}

function drawNote(st) {
  const { view, ctx, els, mem, me, name, myTurn } = st;
  const { note } = els;
  let text = "";
  note.classList.remove("result");
  if (view.outcome) {
    text = resultText(st);
    note.classList.add("result");
  } else if (myTurn) {
    text = mem.selected ? "Now choose where it goes" : "Your turn: build on the centre, then put a card on a side pile";
  } else if (view.to_act.length) {
    text = `${name(view.to_act[0])} ${me === null || !ctx.live ? "to play" : "is playing…"}`;
  }
  note.textContent = text;
}

function resultText(st) {
  const { view, me, name } = st;
  const o = view.outcome;
  const [a, b] = view.scores;
  if (o.winners.length !== 1) return `The match is drawn, ${a} to ${b}`;
  const w = o.winners[0];
  if (me === null) return `${name(w)} wins ${view.scores[w]} to ${view.scores[1 - w]}`;
  return `${w === me ? "You win the match!" : "You lose the match"} ${view.scores[w]} to ${view.scores[1 - w]}`;
}

// ------------------------------------------------------------------ side panel
function drawSide(st) {
  const { view, ctx, els, mem, me, bottom, top, name } = st;
  const { side } = els;
  clear(side);
  const target = view.target;
  const seats = [bottom, top];
  const board = h("div", { class: "snm-board" }, ...seats.map((s) => {
    const pct = Math.min(100, Math.round((100 * view.scores[s]) / target));
    return h("div", { class: `snm-scoreline${s === me ? " mine" : ""}` },
      h("span", { class: "who" }, name(s), " ", ctx.badge && ctx.badge(s) ? h("span", { class: "bot-badge" }, ctx.badge(s)) : null),
      h("b", { class: "pts" }, String(view.scores[s])),
      h("span", { class: "bar", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(target), "aria-valuenow": String(view.scores[s]), "aria-label": `${name(s)}: ${view.scores[s]} of ${target} points` },
        h("span", { class: "fill", style: null, "data-pct": String(pct) })));
  }));
  for (const fill of board.querySelectorAll(".fill")) fill.style.width = `${fill.dataset.pct}%`;
  side.append(h("h2", { class: "side-title" }, `Round ${view.round}`, h("span", { class: "muted" }, ` · first to ${target}`)), board);
  side.append(h("p", { class: "muted small snm-facts" },
    `Payoff piles: ${name(bottom)} ${view.payoff[bottom].size}, ${name(top)} ${view.payoff[top].size}. `,
    `Stock ${view.stock}. `, view.completed ? `${plural(view.completed, "pile")} completed this round.` : ""));

  const logBox = h("section", { class: "snm-log", "aria-label": "What happened" }, h("h3", {}, "Play log"));
  const list = h("ol", { class: "log-list" });
  const shown = ctx.live ? mem.log : view.log.map((e) => ({ n: e.n, text: describe(st, e), kind: e.kind, seat: e.seat }));
  for (const e of shown.slice(-40)) {
    list.append(h("li", { class: `log-${e.kind.replace(/\s+/g, "-")}${e.fresh ? " fresh" : ""}` }, ...richText(e.text)));
    e.fresh = false;
  }
  if (!shown.length) list.append(h("li", { class: "muted" }, "Nothing yet."));
  logBox.append(list);
  side.append(logBox);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });

  const rounds = h("section", { class: "snm-rounds", "aria-label": "Rounds" }, h("h3", {}, "Rounds"));
  rounds.append(view.rounds.length ? roundsTable(st) : h("p", { class: "muted small" }, "Each round's result appears here."));
  side.append(rounds);
}

function roundsTable(st) {
  const { view, bottom, top, name, verb } = st;
  const seats = [bottom, top];
  return h("table", { class: "history-table snm-round-table" },
    h("caption", { class: "sr-only" }, "Result of each round and the scores after it"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Result"),
      ...seats.map((s) => h("th", { scope: "col" }, name(s))))),
    h("tbody", {}, ...view.rounds.map((r) => h("tr", {},
      h("th", { scope: "row" }, String(r.round)),
      h("td", {}, r.winner === null ? h("span", { class: "muted" }, r.reason === "stock exhausted" ? "drawn: stock ran out" : "drawn: turn limit")
        : `${name(r.winner)} ${verb(r.winner, "wins", "win")} +${r.points}`),
      ...seats.map((s) => h("td", {}, h("b", {}, String(r.scores[s])), h("small", { class: "muted" }, ` (${r.payoff_left[s]} left)`)))))));
}

// ------------------------------------------------------------------ the log
function describe(st, e) {
  const { me, name, verb } = st;
  const who = e.seat >= 0 ? name(e.seat) : "";
  switch (e.kind) {
    case "build": {
      const src = e.action.split(">")[0];
      const from = src === "p" ? `${me === e.seat ? "your" : "the"} payoff pile` : src[0] === "s" ? `side pile ${src.slice(1)}` : `hand card ${src.slice(1)}`;
      const wild = WILD(e.card) ? ` as ${article(e.stands_at)} ${rankWord(e.stands_at)}` : "";
      return `${who} ${verb(e.seat, "plays", "play")} ${e.card} from ${from} on centre pile ${e.centre}${wild} (at ${e.stands_at}).`;
    }
    case "discard": return `${who} ${verb(e.seat, "puts", "put")} ${e.card} on side pile ${e.side}: end of turn.`;
    case "draw": return `${who} ${verb(e.seat, "draws", "draw")} ${plural(e.count, "card")}.`;
    case "hand emptied": return `${who} ${verb(e.seat, "has", "have")} played the whole hand and ${verb(e.seat, "draws", "draw")} five more.`;
    case "complete": return `Centre pile ${e.centre} is complete and shuffled into the stock (${e.stock} cards).`;
    case "redeal": return `Equal payoff tops (${e.tops.join(" and ")}): the cards are dealt again.`;
    case "deal": return `Round ${e.round}: payoff tops ${e.tops.map((t, s) => `${name(s)} ${t}`).join(", ")}; ${name(e.first)} ${verb(e.first, "starts", "start")}.`;
    case "round over": {
      if (e.winner === null) return `Round ${e.round} is drawn: ${e.reason === "stock exhausted" ? "the stock ran out" : "the turn limit was reached"}.`;
      return `${name(e.winner)} ${verb(e.winner, "empties", "empty")} the payoff pile and ${verb(e.winner, "wins", "win")} round ${e.round}: +${e.points} (${e.scores.join(" – ")}).`;
    }
    default: return `${who} ${e.kind}`.trim();
  }
}

function readLog(st) {
  const { view, before, ctx, els, mem, me } = st;
  const { narrator } = els;
  const v = view;
  if (!ctx.live) return;
  const entries = v.log || [];
  if (entries.length && entries[entries.length - 1].n < mem.lastLogN) { mem.log.length = 0; mem.lastLogN = 0; } // a new match
  const fresh = entries.filter((e) => e.n > mem.lastLogN);
  if (!fresh.length) return;
  mem.lastLogN = fresh[fresh.length - 1].n;
  const said = [];
  for (const e of fresh) {
    const text = describe(st, e);
    mem.log.push({ n: e.n, text, kind: e.kind, seat: e.seat, fresh: before !== null });
    if (!(e.seat === me && e.kind === "build")) said.push(spoken(text));
    flash(st, e);
  }
  if (mem.log.length > 200) mem.log.splice(0, mem.log.length - 200);
  if (before !== null && said.length) narrator.textContent = said.slice(-4).join(" ");
}

// The pile a move landed on lights up for a moment, so each move can be followed.
function flash(st, e) {
  const { before, els, bottom } = st;
  const { oppPiles, centre, myPiles } = els;
  if (before === null) return;
  requestAnimationFrame(() => {
    let el = null;
    if (e.kind === "build") el = centre.querySelector(`[data-centre="${e.centre}"]`);
    else if (e.kind === "discard") {
      const row = e.seat === bottom ? myPiles : oppPiles;
      el = row.querySelectorAll(".snm-sidepile")[e.side - 1];
    }
    if (!el) return;
    el.classList.remove("flash");
    void el.offsetWidth;
    el.classList.add("flash");
  });
}

// A short banner when the turn passes, so the end of a turn is never missed.
function turnBanner(st) {
  const { view, before, els, mem, me, name, verb } = st;
  const { banner } = els;
  const after = view;
  if (!before || me === null) return;
  const was = before.to_act[0];
  const now = after.to_act[0];
  let text = "";
  if (after.outcome && !before.outcome) text = resultText(st);
  else if (after.round !== before.round) {
    const r = after.rounds[after.rounds.length - 1];
    text = r && r.winner !== null ? `${name(r.winner)} ${verb(r.winner, "win", "win")} round ${r.round}` : `Round ${before.round} drawn`;
  } else if (was !== now && now !== undefined) text = now === me ? "Your turn" : `Turn over: ${name(now)} to play`;
  if (!text) return;
  banner.textContent = text;
  banner.classList.remove("show");
  void banner.offsetWidth;
  banner.classList.add("show");
  clearTimeout(mem.bannerTimer);
  mem.bannerTimer = setTimeout(() => banner.classList.remove("show"), 1800);
}

// ------------------------------------------------------------------ moving cards
function markSelection(st) {
  const { els, mem, movesFrom } = st;
  const { root: rootEl } = els;
  for (const el of rootEl.querySelectorAll(".selected, .target")) el.classList.remove("selected", "target");
  for (const el of rootEl.querySelectorAll("[data-key]")) {
    el.removeAttribute("aria-pressed");
    // Where this card may go now (the piles that light up when it is picked).
    if (el.dataset.key[0] !== "c") el.dataset.targets = movesFrom(el.dataset.key).map((m) => m.split(">")[1]).join(" ");
  }
  rootEl.classList.toggle("choosing", Boolean(mem.selected));
  if (!mem.selected) return;
  const src = rootEl.querySelector(`[data-key="${mem.selected}"]`);
  if (src) { src.classList.add("selected"); src.setAttribute("aria-pressed", "true"); }
  for (const m of movesFrom(mem.selected)) {
    const t = rootEl.querySelector(`[data-key="${m.split(">")[1]}"]`);
    if (t) t.classList.add("target");
  }
  drawNote(st);
}

export function mount(root, ctx) {
  const oppPlate = h("div", { class: "snm-plate" });
  const oppPiles = h("div", { class: "snm-row snm-opp-row" });
  const centre = h("div", { class: "snm-centre", role: "group", "aria-label": "Centre piles" });
  const stockBox = h("div", { class: "snm-stock" });
  const myPiles = h("div", { class: "snm-row snm-my-row", role: "group", "aria-label": "Your payoff and side piles" });
  const myPlate = h("div", { class: "snm-plate mine" });
  const hand = h("div", { class: "snm-hand", role: "group", "aria-label": "Your hand" });
  const note = h("div", { class: "snm-note", "aria-hidden": "true" });
  const banner = h("div", { class: "snm-banner", "aria-hidden": "true" });
  const felt = h("div", { class: "snm-felt" },
    h("div", { class: "snm-half snm-opp" }, oppPlate, oppPiles),
    h("div", { class: "snm-middle" }, stockBox, centre),
    h("div", { class: "snm-status" }, note, banner),
    h("div", { class: "snm-half snm-me" }, myPiles, myPlate),
    hand);
  const help = h("p", { class: "snm-help muted small", id: "snm-help" },
    "Drag a card onto a pile, or click it and then the pile. Keys: 1–5 pick a hand card, P your payoff card, Escape lets go. A hand card put on one of your side piles ends your turn.");
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "snm-side", "aria-label": "Score and log" });
  const t = tableOf(root, ctx, "snm", h("div", { class: "snm-main" }, felt, help, narrator), side);
  const rootEl = t.el;
  rovingFocus(hand);
  rovingFocus(myPiles);
  rovingFocus(centre);

  let view = null;
  let prev = null;
  // The table's memory: the source picked ("h3", "p" or "s2"), the banner's timer, the log
  // accumulated from the views ([{n, text, kind, seat}]) and the last entry read.
  const mem = { selected: null, bannerTimer: null, log: [], lastLogN: 0 };
  let drag = null;
  let suppressClick = false;

  const els = { root: rootEl, oppPlate, oppPiles, centre, stockBox, myPiles, myPlate, hand, note, banner, narrator, side };
  const now = (extra = {}) => stateOf(view, prev, extra, ctx, t.seat, els, mem);
  const { me } = t.seat;
  const name = (seat) => (me() === seat ? "You" : ctx.names[seat] || view.seat_names[seat]);
  const myTurn = () => ctx.live && me() !== null && view && view.to_act.includes(me()) && view.legal.length > 0;
  const legal = () => new Set(myTurn() ? view.legal : []);
  const movesFrom = (src) => (myTurn() ? view.legal.filter((m) => m.startsWith(`${src}>`)) : []);

  // ------------------------------------------------------------------ state -> pieces
  // The state: the new view, the one before, and the control that had the focus (by its
  // key and group), so the focus stays put while the piles are drawn again.
  function state(v, before) {
    const focused = rootEl.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? focused.dataset.key : null;
    const focusGroup = focused && focused.closest("[role=group]") ? focused.closest("[role=group]").getAttribute("aria-label") : null;
    prev = before;
    view = v;
    help.hidden = !(ctx.live && me() !== null);
    if (mem.selected && !movesFrom(mem.selected).length) mem.selected = null;
    return now({ focusKey, focusGroup });
  }
  const draw = [
    readLog, drawPlates,
    (st) => drawPiles(st, oppPiles, st.top), (st) => drawPiles(st, myPiles, st.bottom),
    drawCentre, drawHand, drawNote, drawSide, markSelection, keepFocus,
    (st) => { if (ctx.live) turnBanner(st); },
  ];

  function sourceCard(key) {
    if (key === "p") return view.payoff[me()].top;
    if (key[0] === "h") return view.hand[Number(key.slice(1)) - 1];
    if (key[0] === "s") return view.side_piles[me()][Number(key.slice(1)) - 1][0] || null;
    return null;
  }

  function select(key, byKeyboard = false) {
    mem.selected = key;
    markSelection(now());
    if (!key) { drawNote(now()); return; }
    const card = sourceCard(key);
    const targets = movesFrom(key).map((m) => m.split(">")[1]);
    const centres = targets.filter((t) => t[0] === "c").map((t) => t.slice(1));
    const sides = targets.some((t) => t[0] === "s");
    narrator.textContent = `${cardName(card)} picked up. ${centres.length ? `It goes on centre pile ${centres.join(" or ")}` : "It goes on no centre pile now"}${sides ? "; or on one of your side piles, which ends your turn" : ""}. Escape puts it back.`;
    if (byKeyboard) {
      const first = rootEl.querySelector(`[data-key="${targets.find((t) => t[0] === "c") || targets[0]}"]`);
      if (first) {
        const group = first.closest("[role=group]");
        if (group) setRoving([...group.querySelectorAll("button")], [...group.querySelectorAll("button")].indexOf(first));
        first.focus();
      }
    }
  }

  function whyNot(src, target) {
    if (target[0] === "s") return "Only a card from your hand can go on a side pile.";
    if (target[0] === "c") {
      const pile = view.centre[Number(target.slice(1)) - 1];
      const card = sourceCard(src);
      if (card && WILD(card) && !pile.cards.length) return `A ${card === "Joker" ? "joker" : "king"} cannot start a centre pile: it needs an ace.`;
      return `Centre pile ${target.slice(1)} needs ${article(pile.needs)} ${rankWord(pile.needs)}, not the ${cardName(card)}.`;
    }
    if (target === "h" || target[0] === "h") return "Cards move from your hand, not onto it.";
    return "That card cannot go there.";
  }

  function move(text) {
    const [src] = text.split(">");
    const el = rootEl.querySelector(`[data-key="${src}"]`);
    if (el) el.classList.add("leaving");
    mem.selected = null;
    markSelection(now());
    if (ctx.act(text) === false) { if (el) el.classList.remove("leaving"); }
  }

  function pick(key, byKeyboard) {
    if (!ctx.live || !view) return;
    if (!myTurn()) {
      ctx.say(view.outcome ? "The match is over." : me() === null ? "You are watching this table." : `Wait for ${name(view.to_act[0])}.`, "error");
      return;
    }
    if (mem.selected) {
      if (key === mem.selected) { select(null); return; }
      const text = `${mem.selected}>${key}`;
      if (legal().has(text)) { move(text); return; }
      if (key[0] !== "c" && movesFrom(key).length) { select(key, byKeyboard); return; }
      ctx.say(whyNot(mem.selected, key), "error");
      return;
    }
    if (key[0] === "c") { ctx.say("First pick a card: from your hand, your payoff pile or a side pile.", "error"); return; }
    if (movesFrom(key).length) { select(key, byKeyboard); return; }
    const card = sourceCard(key);
    ctx.say(card ? `The ${cardName(card)} goes on no centre pile now.` : "That pile is empty.", "error");
  }

  rootEl.addEventListener("click", (ev) => {
    const el = ev.target.closest("[data-key]");
    if (!el || !rootEl.contains(el)) return;
    if (suppressClick) { suppressClick = false; return; }
    pick(el.dataset.key, ev.detail === 0);
  });

  // Double-click a card: onto the first centre pile that takes it.
  rootEl.addEventListener("dblclick", (ev) => {
    const el = ev.target.closest("[data-key]");
    if (!el || !myTurn()) return;
    const key = el.dataset.key;
    const to = movesFrom(key).find((m) => m.split(">")[1][0] === "c");
    if (to) move(to);
  });

  // Drag with the pointer (mouse, pen or touch): the card follows, legal piles light up.
  rootEl.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || !myTurn()) return;
    const el = ev.target.closest("[data-key]");
    if (!el || el.dataset.key[0] === "c" || !movesFrom(el.dataset.key).length) return;
    drag = { key: el.dataset.key, el, x: ev.clientX, y: ev.clientY, ghost: null, id: ev.pointerId };
  });
  function onMove(ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 8) return;
      const face = drag.el.classList.contains("card") ? drag.el : drag.el.querySelector(".card.top");
      if (!face) { drag = null; return; }
      const box = face.getBoundingClientRect();
      drag.dx = drag.x - box.left;
      drag.dy = drag.y - box.top;
      drag.ghost = face.cloneNode(true);
      drag.ghost.classList.add("snm-ghost");
      drag.ghost.removeAttribute("data-key");
      drag.ghost.style.width = `${box.width}px`;
      drag.ghost.style.height = `${box.height}px`;
      drag.ghost.style.setProperty("--card-w", `${box.width}px`);
      document.body.append(drag.ghost);
      face.classList.add("lifted");
      drag.face = face;
      select(drag.key);
    }
    ev.preventDefault();
    drag.ghost.style.transform = `translate(${ev.clientX - drag.dx}px, ${ev.clientY - drag.dy}px) rotate(3deg)`;
    const over = document.elementFromPoint(ev.clientX, ev.clientY);
    const t = over && over.closest("[data-key]");
    for (const el of rootEl.querySelectorAll(".over")) el.classList.remove("over");
    if (t && t.classList.contains("target")) t.classList.add("over");
  }
  function onUp(ev) {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return; // a plain click: the click handler picks
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    d.ghost.remove();
    if (d.face) d.face.classList.remove("lifted");
    for (const el of rootEl.querySelectorAll(".over")) el.classList.remove("over");
    const over = ev.type === "pointerup" ? document.elementFromPoint(ev.clientX, ev.clientY) : null;
    const target = over && over.closest("[data-key]");
    const text = target ? `${d.key}>${target.dataset.key}` : null;
    if (text && legal().has(text)) move(text);
    else {
      if (target && target.dataset.key !== d.key) ctx.say(whyNot(d.key, target.dataset.key), "error");
      select(null);
    }
  }
  t.on(document, "pointermove", onMove, { passive: false });
  t.on(document, "pointerup", onUp);
  t.on(document, "pointercancel", onUp);

  function onKey(ev) {
    if (!view || !myTurn() || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.closest("input, select, textarea, dialog[open]") || (t !== document.body && !rootEl.contains(t) && t.id !== "app"))) return;
    if (/^[1-5]$/.test(ev.key)) {
      const key = `h${ev.key}`;
      if (mem.selected && mem.selected !== key) select(null);
      if (rootEl.querySelector(`[data-key="${key}"]`)) { ev.preventDefault(); pick(key, true); }
    } else if (ev.key === "p" || ev.key === "P") {
      ev.preventDefault();
      pick("p", true);
    } else if (ev.key === "Escape" && mem.selected) {
      ev.preventDefault();
      const back = rootEl.querySelector(`[data-key="${mem.selected}"]`);
      select(null);
      narrator.textContent = "Put back.";
      if (back) back.focus();
    }
  }
  t.on(document, "keydown", onKey);

  // Motion: a card moved flies from its old place; one the other player brings from their
  // hidden hand to the centre flies from their plate, a card you draw from the stock.
  const motion = {
    scope: felt,
    from(el) {
      if (el.closest(".snm-centre")) return oppPlate.getBoundingClientRect();
      if (el.closest(".snm-hand")) return stockBox.getBoundingClientRect();
      return null;
    },
  };

  return t.renderer({
    state,
    draw,
    motion,
    refused() {
      for (const el of rootEl.querySelectorAll(".leaving")) el.classList.remove("leaving");
    },
    results(v) {
      view = v;
      return { historyTitle: "Rounds", history: v.rounds.length ? roundsTable(now()) : null, scoreLabel: "Match points" };
    },
    destroy() {
      clearTimeout(mem.bannerTimer);
      if (drag && drag.ghost) drag.ghost.remove();
    },
  });
}
