// The Spite & Malice table. The opponent's payoff and side piles at the top, the stock and
// the centre piles in the middle (each shows the rank it stands at, a king what it stands
// for), yours below with your five numbered hand slots; the match score, the event log
// and the rounds beside.
//
// To move a card: drag it onto a pile, or click it and then click the pile (touch the
// same way), or with the keyboard: Tab to a card, Enter, then Enter on a highlighted pile
// (keys 1-5 pick a hand card, P the payoff top, Escape lets go). A hand card put on a side
// pile ends the turn. Everything shown comes from view(seat).

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle } from "../../dom.js";
import { tableOf } from "../../tables/table.js";
import { cardBack, cardFace, cardName, pretty, rankOf, RANK_WORD, richText, spoken } from "../../tables/cards.js";
import { t, n, p } from "../../i18n.js";
import { seatLabel } from "../../words.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/games/spite_and_malice/table.css")]);

const SIDE = 4;
const WILD = (card) => card === "Joker" || rankOf(card) === "K";
// A rank in the reader's language ("A" -> "ace", "as", "ás").
const rankWord = (rank) => (RANK_WORD[rank] ? p("rank", RANK_WORD[rank]) : rank);
// What a centre pile needs next, one whole phrase per rank: the article goes with the word
// ("an ace"; Portuguese "uma dama" but "um ás"), which a "{rank}" slot cannot give.
const NEEDS = {
  A: () => t("needs an ace"), 2: () => t("needs a two"), 3: () => t("needs a three"), 4: () => t("needs a four"),
  5: () => t("needs a five"), 6: () => t("needs a six"), 7: () => t("needs a seven"), 8: () => t("needs an eight"),
  9: () => t("needs a nine"), 10: () => t("needs a ten"), J: () => t("needs a jack"), Q: () => t("needs a queen"),
};
const needsRank = (rank) => NEEDS[rank]();
const cards = (count) => n("{n} card", "{n} cards", count);
// Zero is said on its own (pt counts 0 as one: "0 carta" would read wrong).
const inHand = (count) => (count ? n("{n} card in hand", "{n} cards in hand", count) : t("no cards in hand"));

// What every piece reads: the view and the one before, the page's context, the table's
// elements and memory, who is who, and the moves you may make.
function stateOf(view, before, extra, ctx, seat, els, mem) {
  const me = seat.me();
  const bottom = seat.bottom();
  const name = (s) => (me === s ? t("You") : ctx.names[s] || seatLabel(view.seat_names[s]));
  const myTurn = ctx.live && me !== null && Boolean(view) && view.to_act.includes(me) && view.legal.length > 0;
  return {
    ...extra, view, before, ctx, els, mem, me, bottom, top: 1 - bottom, name, myTurn,
    // the sentence for you, or the one for another player (who: their name)
    yours: (s, mine, theirs) => (me === s ? mine : theirs(name(s))),
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
  const held = view.hand_sizes[seat];
  const backs = h("span", { class: "snm-backs", "aria-hidden": "true" });
  if (seat !== me) for (let i = 0; i < held; i++) backs.append(h("span", { class: "back" }));
  el.append(...[
    h("span", { class: "snm-name", title: name(seat) }, name(seat)),
    h("span", { class: "snm-score", title: t("Match score") }, n("{n} pt", "{n} pts", view.scores[seat])),
    seat !== me ? h("span", { class: "snm-count" }, backs, cards(held)) : null,
    turn ? h("span", { class: "snm-turn" }, me === seat && ctx.live ? t("your turn") : ctx.live ? t("playing…") : t("to play")) : null].filter(Boolean));
  const facts = [view.scores[seat] ? n("{n} point", "{n} points", view.scores[seat]) : t("no points yet"), seat !== me ? inHand(held) : null, turn ? t("to play") : null];
  el.setAttribute("aria-label", `${name(seat)}: ${facts.filter(Boolean).join(", ")}`);
}

function drawPlates(st) {
  const { els, bottom, top } = st;
  const { oppPlate, myPlate } = els;
  drawPlate(st, oppPlate, top);
  drawPlate(st, myPlate, bottom);
  myPlate.hidden = false;
}

function payoffEl(st, seat) {
  const { view, ctx, me, yours } = st;
  const pay = view.payoff[seat];
  const mine = seat === me && ctx.live;
  const what = pay.size ? t("{cards}, the {card} on top", { cards: cards(pay.size), card: cardName(pay.top) }) : p("pile", "empty");
  const label = yours(seat, t("Your payoff pile: {what}", { what }), (who) => t("{who}'s payoff pile: {what}", { who, what }));
  const el = h(mine ? "button" : "div", { class: "snm-pile snm-payoff", type: mine ? "button" : null, "data-key": mine ? "p" : null, role: mine ? null : "img", "aria-label": label, title: label });
  const depth = Math.min(4, Math.max(0, pay.size - 1));
  const stack = h("div", { class: "snm-stack", style: null });
  for (let i = 0; i < depth; i++) stack.append(cardBack({ cls: `under u${i + 1}` }));
  stack.append(pay.top ? cardFace(pay.top, { cls: "rankface top" }) : h("div", { class: "card-slot" }, p("pile", "empty")));
  el.append(stack, h("span", { class: "snm-badge", "aria-hidden": "true" }, String(pay.size)), h("span", { class: "snm-caption", "aria-hidden": "true" }, t("Payoff")));
  return el;
}

// A side pile fanned downwards, every card showing, the top card (the playable one) last.
function sideEl(st, seat, k) {
  const { view, ctx, me, yours } = st;
  const pile = view.side_piles[seat][k]; // top first
  const mine = seat === me && ctx.live;
  const key = mine ? `s${k + 1}` : null;
  const fanned = [...pile].reverse();
  const what = pile.length ? t("{cards}, top first: {list}", { cards: cards(pile.length), list: pile.map(cardName).join(", ") }) : p("pile", "empty");
  const number = k + 1;
  const label = yours(seat, t("Your side pile {number}: {what}", { number, what }), (who) => t("{who}'s side pile {number}: {what}", { who, number, what }));
  const el = h(mine ? "button" : "div", { class: "snm-pile snm-sidepile", type: mine ? "button" : null, "data-key": key, role: mine ? null : "img", "aria-label": label, title: pile.length ? t("Side pile {number}: {cards} (top first)", { number, cards: pile.map(pretty).join(" ") }) : t("Side pile {number}: empty", { number }) });
  const fan = h("div", { class: "snm-fan" });
  fan.style.setProperty("--n", String(Math.max(1, fanned.length)));
  if (!fanned.length) fan.append(h("div", { class: "card-slot" }, String(k + 1)));
  fanned.forEach((c, i) => {
    const face = cardFace(c, { cls: `rankface${i === fanned.length - 1 ? " top" : ""}` });
    face.style.setProperty("--i", String(i));
    fan.append(face);
  });
  el.append(fan, h("span", { class: "snm-caption", "aria-hidden": "true" }, fanned.length > 1 ? t("Side {number} · {count}", { number, count: fanned.length }) : t("Side {number}", { number })));
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
  const stock = view.stock;
  stockBox.append(h("div", { class: "snm-stack" }, stock ? cardBack({ cls: "top" }) : h("div", { class: "card-slot" }, p("stock", "empty"))),
    h("span", { class: "snm-badge" }, String(stock)),
    h("span", { class: "snm-caption" }, t("Stock")));
  stockBox.setAttribute("role", "img");
  const stockText = t("Stock: {cards}", { cards: cards(stock) });
  const completed = n("{n} pile completed and shuffled in this round", "{n} piles completed and shuffled in this round", view.completed);
  stockBox.setAttribute("aria-label", view.completed ? [stockText, completed].join("; ") : stockText);
  stockBox.title = stockText;
  const live = ctx.live && me !== null;
  view.centre.forEach((pile, j) => {
    const key = `c${j + 1}`;
    const topCard = pile.cards.length ? pile.cards[pile.cards.length - 1] : null;
    const wild = topCard && WILD(topCard);
    const needs = pile.stands_at >= 12 ? t("complete") : needsRank(pile.needs);
    const onTop = topCard === "Joker" ? t("{cards}, a joker on top", { cards: cards(pile.cards.length) }) : topCard ? t("{cards}, the {card} on top", { cards: cards(pile.cards.length), card: cardName(topCard) }) : p("pile", "empty");
    const what = wild ? t("{pile}, standing for {rank}", { pile: onTop, rank: rankWord(pile.rank) }) : onTop;
    const label = t("Centre pile {number}: {what}; {needs}", { number: j + 1, what, needs });
    const el = h(live ? "button" : "div", { class: `snm-pile snm-centre-pile${pile.cards.length ? "" : " empty"}`, type: live ? "button" : null, "data-key": live ? key : null, "data-centre": String(j + 1), role: live ? null : "img", "aria-label": label, title: label });
    const stack = h("div", { class: "snm-stack" });
    const depth = Math.min(3, Math.max(0, pile.cards.length - 1));
    for (let i = 0; i < depth; i++) stack.append(h("div", { class: `card under u${i + 1}`, "aria-hidden": "true" }));
    if (topCard) {
      const face = cardFace(topCard, { cls: "rankface top" });
      if (wild) face.append(h("span", { class: "snm-standsfor", "aria-hidden": "true" }, `= ${pile.rank}`));
      stack.append(face);
    } else {
      stack.append(h("div", { class: "card-slot" }, h("b", {}, "A"), h("small", {}, t("to start"))));
    }
    el.append(stack,
      h("span", { class: `snm-rank${wild ? " wild" : ""}`, "aria-hidden": "true" }, pile.cards.length ? (wild ? `${topCard === "Joker" ? "Jkr" : "K"} = ${pile.rank}` : pile.rank) : ""),
      h("span", { class: "snm-caption", "aria-hidden": "true" }, pile.cards.length ? t("needs {rank}", { rank: pile.needs }) : p("pile", "empty")));
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
    hand.append(h("p", { class: "snm-watching" }, ctx.live ? t("You are watching: the hands are hidden.") : t("The hands are hidden in a spectator's view.")));
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
        el.setAttribute("aria-label", t("Hand card {number}: {card}", { number: i + 1, card: cardName(card) }));
        buttons.push(el);
      }
    } else {
      el = h("div", { class: "card-slot", role: "img", "aria-label": t("Hand slot {number}: empty", { number: i + 1 }) }, "");
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
    text = mem.selected ? t("Now choose where it goes") : t("Your turn: build on the centre, then put a card on a side pile");
  } else if (view.to_act.length) {
    const who = name(view.to_act[0]);
    text = me === null || !ctx.live ? t("{who} to play", { who }) : t("{who} is playing…", { who });
  }
  note.textContent = text;
}

function resultText(st) {
  const { view, me, name } = st;
  const o = view.outcome;
  const [a, b] = view.scores;
  if (o.winners.length !== 1) return t("The match is drawn, {a} to {b}", { a, b });
  const w = o.winners[0];
  const score = { won: view.scores[w], lost: view.scores[1 - w] };
  if (me === null) return t("{who} wins {won} to {lost}", { who: name(w), ...score });
  return w === me ? t("You win the match! {won} to {lost}", score) : t("You lose the match {won} to {lost}", score);
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
      h("span", { class: "bar", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(target), "aria-valuenow": String(view.scores[s]), "aria-label": t("{who}: {score} of {target} points", { who: name(s), score: view.scores[s], target }) },
        h("span", { class: "fill", style: null, "data-pct": String(pct) })));
  }));
  for (const fill of board.querySelectorAll(".fill")) fill.style.width = `${fill.dataset.pct}%`;
  side.append(h("h2", { class: "side-title" }, t("Round {round}", { round: view.round }), h("span", { class: "muted" }, " · ", t("first to {target}", { target }))), board);
  side.append(h("p", { class: "muted small snm-facts" },
    t("Payoff piles: {a} {left_a}, {b} {left_b}.", { a: name(bottom), left_a: view.payoff[bottom].size, b: name(top), left_b: view.payoff[top].size }), " ",
    t("Stock {n}.", { n: view.stock }), " ", view.completed ? n("{n} pile completed this round.", "{n} piles completed this round.", view.completed) : ""));

  const logBox = h("section", { class: "snm-log", "aria-label": t("What happened") }, h("h3", {}, t("Play log")));
  const list = h("ol", { class: "log-list" });
  const shown = ctx.live ? mem.log : view.log.map((e) => ({ n: e.n, text: describe(st, e), kind: e.kind, seat: e.seat }));
  for (const e of shown.slice(-40)) {
    list.append(h("li", { class: `log-${e.kind.replace(/\s+/g, "-")}${e.fresh ? " fresh" : ""}` }, ...richText(e.text)));
    e.fresh = false;
  }
  if (!shown.length) list.append(h("li", { class: "muted" }, t("Nothing yet.")));
  logBox.append(list);
  side.append(logBox);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });

  const rounds = h("section", { class: "snm-rounds", "aria-label": t("Rounds") }, h("h3", {}, t("Rounds")));
  rounds.append(view.rounds.length ? roundsTable(st) : h("p", { class: "muted small" }, t("Each round's result appears here.")));
  side.append(rounds);
}

function roundsTable(st) {
  const { view, bottom, top, name, yours } = st;
  const seats = [bottom, top];
  return h("table", { class: "history-table snm-round-table" },
    h("caption", { class: "sr-only" }, t("Result of each round and the scores after it")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("Result")),
      ...seats.map((s) => h("th", { scope: "col" }, name(s))))),
    h("tbody", {}, ...view.rounds.map((r) => h("tr", {},
      h("th", { scope: "row" }, String(r.round)),
      h("td", {}, r.winner === null ? h("span", { class: "muted" }, r.reason === "stock exhausted" ? t("drawn: stock ran out") : t("drawn: turn limit"))
        : yours(r.winner, t("You win +{points}", { points: r.points }), (who) => t("{who} wins +{points}", { who, points: r.points }))),
      ...seats.map((s) => h("td", {}, h("b", {}, String(r.scores[s])), h("small", { class: "muted" }, " ", t("({n} left)", { n: r.payoff_left[s] }))))))));
}

// ------------------------------------------------------------------ the log
// A line of the play log, card codes kept ("7H": shown as a chip, read by its name).
function describe(st, e) {
  const { me, name, yours } = st;
  switch (e.kind) {
    case "build": {
      const src = e.action.split(">")[0];
      // (These words follow "from" only: a language may put its preposition in them.)
      const from = src === "p" ? (me === e.seat ? t("your payoff pile") : t("the payoff pile")) : src[0] === "s" ? t("side pile {number}", { number: Number(src.slice(1)) }) : t("hand card {number}", { number: Number(src.slice(1)) });
      const at = { card: e.card, from, centre: e.centre, at: e.stands_at };
      if (WILD(e.card)) {
        const as = { ...at, rank: rankWord(e.stands_at) };
        return yours(e.seat, t("You play {card} from {from} on centre pile {centre} as {rank} (at {at}).", as),
          (who) => t("{who} plays {card} from {from} on centre pile {centre} as {rank} (at {at}).", { who, ...as }));
      }
      return yours(e.seat, t("You play {card} from {from} on centre pile {centre} (at {at}).", at),
        (who) => t("{who} plays {card} from {from} on centre pile {centre} (at {at}).", { who, ...at }));
    }
    case "discard": return yours(e.seat, t("You put {card} on side pile {side}: end of turn.", { card: e.card, side: e.side }),
      (who) => t("{who} puts {card} on side pile {side}: end of turn.", { who, card: e.card, side: e.side }));
    case "draw": return yours(e.seat, n("You draw {n} card.", "You draw {n} cards.", e.count),
      (who) => n("{who} draws {n} card.", "{who} draws {n} cards.", e.count, { who }));
    case "hand emptied": return yours(e.seat, t("You have played the whole hand and draw five more."),
      (who) => t("{who} has played the whole hand and draws five more.", { who }));
    case "complete": return t("Centre pile {centre} is complete and shuffled into the stock ({n} cards).", { centre: e.centre, n: e.stock });
    case "redeal": return t("Equal payoff tops ({tops}): the cards are dealt again.", { tops: e.tops.join(t(" and ")) });
    case "deal": {
      const tops = e.tops.map((top, s) => `${name(s)} ${top}`).join(", ");
      return yours(e.first, t("Round {round}: payoff tops {tops}; you start.", { round: e.round, tops }),
        (who) => t("Round {round}: payoff tops {tops}; {who} starts.", { round: e.round, tops, who }));
    }
    case "round over": {
      if (e.winner === null) return e.reason === "stock exhausted" ? t("Round {round} is drawn: the stock ran out.", { round: e.round }) : t("Round {round} is drawn: the turn limit was reached.", { round: e.round });
      const won = { round: e.round, points: e.points, scores: e.scores.join(" – ") };
      return yours(e.winner, t("You empty the payoff pile and win round {round}: +{points} ({scores}).", won),
        (who) => t("{who} empties the payoff pile and wins round {round}: +{points} ({scores}).", { who, ...won }));
    }
    default: return `${e.seat >= 0 ? name(e.seat) : ""} ${e.kind}`.trim();
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
  const { view, before, els, mem, me, yours } = st;
  const { banner } = els;
  const after = view;
  if (!before || me === null) return;
  const was = before.to_act[0];
  const now = after.to_act[0];
  let text = "";
  if (after.outcome && !before.outcome) text = resultText(st);
  else if (after.round !== before.round) {
    const r = after.rounds[after.rounds.length - 1];
    text = r && r.winner !== null ? yours(r.winner, t("You win round {round}", { round: r.round }), (who) => t("{who} wins round {round}", { who, round: r.round }))
      : t("Round {round} drawn", { round: before.round });
  } else if (was !== now && now !== undefined) text = now === me ? t("Your turn") : yours(now, "", (who) => t("Turn over: {who} to play", { who }));
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
    const target = rootEl.querySelector(`[data-key="${m.split(">")[1]}"]`);
    if (target) target.classList.add("target");
  }
  drawNote(st);
}

// ------------------------------------------------------------------ handling a move
// What the handlers do, each from the state of the moment (`now()` in mount): pick a card
// and its pile (a click, a key, a drag), say why a move cannot be made, make it.
function sourceCard(st, key) {
  const { view, me } = st;
  if (key === "p") return view.payoff[me].top;
  if (key[0] === "h") return view.hand[Number(key.slice(1)) - 1];
  if (key[0] === "s") return view.side_piles[me][Number(key.slice(1)) - 1][0] || null;
  return null;
}

function select(st, key, byKeyboard = false) {
  const { els, mem, movesFrom } = st;
  const { root: rootEl, narrator } = els;
  mem.selected = key;
  markSelection(st);
  if (!key) { drawNote(st); return; }
  const card = sourceCard(st, key);
  const targets = movesFrom(key).map((m) => m.split(">")[1]);
  const centres = targets.filter((k) => k[0] === "c").map((k) => k.slice(1));
  const sides = targets.some((k) => k[0] === "s");
  const or = t(" or ");
  const goes = centres.length ? t("It goes on centre pile {piles}", { piles: centres.join(or) }) : t("It goes on no centre pile now");
  narrator.textContent = [t("{card} picked up.", { card: cardName(card) }), sides ? t("{goes}; or on one of your side piles, which ends your turn.", { goes }) : `${goes}.`, t("Escape puts it back.")].join(" ");
  if (byKeyboard) {
    const first = rootEl.querySelector(`[data-key="${targets.find((k) => k[0] === "c") || targets[0]}"]`);
    if (first) {
      const group = first.closest("[role=group]");
      if (group) setRoving([...group.querySelectorAll("button")], [...group.querySelectorAll("button")].indexOf(first));
      first.focus();
    }
  }
}

function whyNot(st, src, target) {
  if (target[0] === "s") return t("Only a card from your hand can go on a side pile.");
  if (target[0] === "c") {
    const pile = st.view.centre[Number(target.slice(1)) - 1];
    const card = sourceCard(st, src);
    if (card && WILD(card) && !pile.cards.length) return card === "Joker" ? t("A joker cannot start a centre pile: it needs an ace.") : t("A king cannot start a centre pile: it needs an ace.");
    return t("Centre pile {number} {needs}, not the {card}.", { number: Number(target.slice(1)), needs: needsRank(pile.needs), card: cardName(card) });
  }
  if (target === "h" || target[0] === "h") return t("Cards move from your hand, not onto it.");
  return t("That card cannot go there.");
}

function move(st, text) {
  const { ctx, els, mem } = st;
  const [src] = text.split(">");
  const el = els.root.querySelector(`[data-key="${src}"]`);
  if (el) el.classList.add("leaving");
  mem.selected = null;
  markSelection(st);
  if (ctx.act(text) === false) { if (el) el.classList.remove("leaving"); }
}

function pick(st, key, byKeyboard) {
  const { view, ctx, mem, me, name, myTurn, legal, movesFrom } = st;
  if (!ctx.live || !view) return;
  if (!myTurn) {
    ctx.say(view.outcome ? t("The match is over.") : me === null ? t("You are watching this table.") : t("Wait for {who}.", { who: name(view.to_act[0]) }), "error");
    return;
  }
  if (mem.selected) {
    if (key === mem.selected) { select(st, null); return; }
    const text = `${mem.selected}>${key}`;
    if (legal.has(text)) { move(st, text); return; }
    if (key[0] !== "c" && movesFrom(key).length) { select(st, key, byKeyboard); return; }
    ctx.say(whyNot(st, mem.selected, key), "error");
    return;
  }
  if (key[0] === "c") { ctx.say(t("First pick a card: from your hand, your payoff pile or a side pile."), "error"); return; }
  if (movesFrom(key).length) { select(st, key, byKeyboard); return; }
  const card = sourceCard(st, key);
  ctx.say(card ? t("The {card} goes on no centre pile now.", { card: cardName(card) }) : t("That pile is empty."), "error");
}

function clicked(st, ev) {
  const { els, mem } = st;
  const el = ev.target.closest("[data-key]");
  if (!el || !els.root.contains(el)) return;
  if (mem.suppressClick) { mem.suppressClick = false; return; }
  pick(st, el.dataset.key, ev.detail === 0);
}

// Double-click a card: onto the first centre pile that takes it.
function doubleClicked(st, ev) {
  const el = ev.target.closest("[data-key]");
  if (!el || !st.myTurn) return;
  const to = st.movesFrom(el.dataset.key).find((m) => m.split(">")[1][0] === "c");
  if (to) move(st, to);
}

// Drag with the pointer (mouse, pen or touch): the card follows, legal piles light up. The
// drag in progress is the table's memory (mem.drag).
function dragStart(st, ev) {
  if (ev.button !== 0 || !st.myTurn) return;
  const el = ev.target.closest("[data-key]");
  if (!el || el.dataset.key[0] === "c" || !st.movesFrom(el.dataset.key).length) return;
  st.mem.drag = { key: el.dataset.key, el, x: ev.clientX, y: ev.clientY, ghost: null, id: ev.pointerId };
}

function dragMove(st, ev) {
  const { els, mem } = st;
  const drag = mem.drag;
  if (!drag || ev.pointerId !== drag.id) return;
  if (!drag.ghost) {
    if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 8) return;
    const face = drag.el.classList.contains("card") ? drag.el : drag.el.querySelector(".card.top");
    if (!face) { mem.drag = null; return; }
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
    select(st, drag.key);
  }
  ev.preventDefault();
  drag.ghost.style.transform = `translate(${ev.clientX - drag.dx}px, ${ev.clientY - drag.dy}px) rotate(3deg)`;
  const over = document.elementFromPoint(ev.clientX, ev.clientY);
  const under = over && over.closest("[data-key]");
  for (const el of els.root.querySelectorAll(".over")) el.classList.remove("over");
  if (under && under.classList.contains("target")) under.classList.add("over");
}

function dragEnd(st, ev) {
  const { ctx, els, mem, legal } = st;
  const d = mem.drag;
  if (!d || ev.pointerId !== d.id) return;
  mem.drag = null;
  if (!d.ghost) return; // a plain click: the click handler picks
  mem.suppressClick = true;
  setTimeout(() => { mem.suppressClick = false; }, 0);
  d.ghost.remove();
  if (d.face) d.face.classList.remove("lifted");
  for (const el of els.root.querySelectorAll(".over")) el.classList.remove("over");
  const over = ev.type === "pointerup" ? document.elementFromPoint(ev.clientX, ev.clientY) : null;
  const target = over && over.closest("[data-key]");
  const text = target ? `${d.key}>${target.dataset.key}` : null;
  if (text && legal.has(text)) move(st, text);
  else {
    if (target && target.dataset.key !== d.key) ctx.say(whyNot(st, d.key, target.dataset.key), "error");
    select(st, null);
  }
}

// The keys: 1-5 pick a hand card, P the payoff card, Escape lets go.
function keyPressed(st, ev) {
  const { view, els, mem, myTurn } = st;
  const { root: rootEl, narrator } = els;
  if (!view || !myTurn || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const el = ev.target;
  if (el && (el.closest("input, select, textarea, dialog[open]") || (el !== document.body && !rootEl.contains(el) && el.id !== "app"))) return;
  if (/^[1-5]$/.test(ev.key)) {
    const key = `h${ev.key}`;
    if (mem.selected && mem.selected !== key) select(st, null);
    if (rootEl.querySelector(`[data-key="${key}"]`)) { ev.preventDefault(); pick(st, key, true); }
  } else if (ev.key === "p" || ev.key === "P") {
    ev.preventDefault();
    pick(st, "p", true);
  } else if (ev.key === "Escape" && mem.selected) {
    ev.preventDefault();
    const back = rootEl.querySelector(`[data-key="${mem.selected}"]`);
    select(st, null);
    narrator.textContent = t("Put back.");
    if (back) back.focus();
  }
}

// The pieces each view redraws, in order.
const DRAW = [
  readLog, drawPlates,
  (st) => drawPiles(st, st.els.oppPiles, st.top), (st) => drawPiles(st, st.els.myPiles, st.bottom),
  drawCentre, drawHand, drawNote, drawSide, markSelection, keepFocus,
  (st) => { if (st.ctx.live) turnBanner(st); },
];

// Motion: a card moved flies from its old place; one the other player brings from their
// hidden hand to the centre flies from their plate, a card you draw from the stock.
function motionOf(els) {
  return {
    scope: els.felt,
    from(el) {
      if (el.closest(".snm-centre")) return els.oppPlate.getBoundingClientRect();
      if (el.closest(".snm-hand")) return els.stockBox.getBoundingClientRect();
      return null;
    },
  };
}

// The table's pieces, built once.
function tableEls() {
  const oppPlate = h("div", { class: "snm-plate" });
  const oppPiles = h("div", { class: "snm-row snm-opp-row" });
  const centre = h("div", { class: "snm-centre", role: "group", "aria-label": t("Centre piles") });
  const stockBox = h("div", { class: "snm-stock" });
  const myPiles = h("div", { class: "snm-row snm-my-row", role: "group", "aria-label": t("Your payoff and side piles") });
  const myPlate = h("div", { class: "snm-plate mine" });
  const hand = h("div", { class: "snm-hand", role: "group", "aria-label": t("Your hand") });
  const note = h("div", { class: "snm-note", "aria-hidden": "true" });
  const banner = h("div", { class: "snm-banner", "aria-hidden": "true" });
  const felt = h("div", { class: "snm-felt" },
    h("div", { class: "snm-half snm-opp" }, oppPlate, oppPiles),
    h("div", { class: "snm-middle" }, stockBox, centre),
    h("div", { class: "snm-status" }, note, banner),
    // your piles and your hand: one above the other, or side by side on a wide felt
    h("div", { class: "snm-bottom" }, h("div", { class: "snm-half snm-me" }, myPiles, myPlate), hand));
  const help = h("p", { class: "snm-help muted small", id: "snm-help" },
    t("Drag a card onto a pile, or click it and then the pile. Keys: 1–5 pick a hand card, P your payoff card, Escape lets go. A hand card put on one of your side piles ends your turn."));
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "snm-side", "aria-label": t("Score and log") });
  return { oppPlate, oppPiles, centre, stockBox, myPiles, myPlate, hand, note, banner, felt, help, narrator, side };
}

export function mount(root, ctx) {
  const els = tableEls();
  const board = tableOf(root, ctx, "snm", h("div", { class: "snm-main" }, els.felt, els.help, els.narrator), els.side);
  els.root = board.el;
  rovingFocus(els.hand);
  rovingFocus(els.myPiles);
  rovingFocus(els.centre);
  // The table's memory: the views (the latest and the one before), the source picked
  // ("h3", "p" or "s2"), a drag in progress, the banner's timer, the log accumulated from
  // the views ([{n, text, kind, seat}]) and the last entry read.
  const mem = { view: null, before: null, selected: null, drag: null, suppressClick: false, bannerTimer: null, log: [], lastLogN: 0 };
  const now = (extra = {}) => stateOf(mem.view, mem.before, extra, ctx, board.seat, els, mem);

  // The state: the new view, the one before, and the control that had the focus (by its
  // key and group), so the focus stays put while the piles are drawn again.
  function state(v, before) {
    const focused = els.root.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused ? focused.dataset.key : null;
    const focusGroup = focused && focused.closest("[role=group]") ? focused.closest("[role=group]").getAttribute("aria-label") : null;
    mem.before = before;
    mem.view = v;
    els.help.hidden = !(ctx.live && board.seat.me() !== null);
    if (mem.selected && !now().movesFrom(mem.selected).length) mem.selected = null;
    return now({ focusKey, focusGroup });
  }

  els.root.addEventListener("click", (ev) => clicked(now(), ev));
  els.root.addEventListener("dblclick", (ev) => doubleClicked(now(), ev));
  els.root.addEventListener("pointerdown", (ev) => dragStart(now(), ev));
  board.on(document, "pointermove", (ev) => dragMove(now(), ev), { passive: false });
  board.on(document, "pointerup", (ev) => dragEnd(now(), ev));
  board.on(document, "pointercancel", (ev) => dragEnd(now(), ev));
  board.on(document, "keydown", (ev) => keyPressed(now(), ev));

  return board.renderer({
    state,
    draw: DRAW,
    motion: motionOf(els),
    refused() {
      for (const el of els.root.querySelectorAll(".leaving")) el.classList.remove("leaving");
    },
    results(v) {
      mem.view = v;
      return { historyTitle: t("Rounds"), history: v.rounds.length ? roundsTable(now()) : null, scoreLabel: t("Match points") };
    },
    destroy() {
      clearTimeout(mem.bannerTimer);
      if (mem.drag && mem.drag.ghost) mem.drag.ghost.remove();
    },
  });
}
