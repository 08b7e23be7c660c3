// The Spades table: four seats around the felt (you at the bottom), the trick in the
// middle, your hand below with the cards you may not play dimmed (the reason on hover and
// for screen readers), the bidding panel, and the scores, bags and deal history beside.
// Everything comes from view(seat); mount(root, ctx) -> {update(view), destroy()}.

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle } from "../../dom.js";
import { cardFace as face, cardName } from "../../tables/cards.js";
import { tableOf } from "../../tables/table.js";
import { layHand, miniTrick, playedCard, shownTrick } from "../../tables/tricks.js";
import { t, n, p } from "../../i18n.js";
import { seatLabel, teamName } from "../../words.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/games/spades/table.css")]);

const POS = ["bottom", "left", "top", "right"];

// A face-up card: a button when it can be chosen, a picture otherwise.
// A hand longer than this goes in two rows on a narrow screen.
const ONE_ROW_MOST = 8;
const cardFace = (card, { button = false, small = false } = {}) => face(card, { tag: button ? "button" : "div", small });

const teamOf = (seat) => seat % 2;

function bidText(bid) {
  if (bid === null || bid === undefined) return "–";
  if (bid === "nil") return p("bid", "Nil");
  if (bid === "blind nil") return p("bid", "Blind nil");
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
        view.dealer === seat ? h("span", { class: "chip", title: t("Dealer"), "aria-label": t("dealer") }, p("dealer chip", "D")) : null,
        partner ? h("span", { class: "tag" }, t("partner")) : null),
      h("div", { class: "stats" },
        h("span", {}, t("Bid"), " ", h("b", {}, bidText(bid))),
        h("span", {}, p("tricks", "Won"), " ", h("b", {}, String(view.tricks[seat])))),
    ];
    if (posOf(seat) !== 0) {
      const held = view.hand_sizes[seat];
      const backs = h("div", { class: "backs", "aria-label": held ? n("{n} card in hand", "{n} cards in hand", held) : t("no cards in hand"), role: "img" });
      for (let i = 0; i < Math.min(held, 13); i++) backs.append(h("span", { class: "back" }));
      parts.push(backs);
    }
    // "thinking…" and "your turn" are live cues: a replay shows whose turn it is by the ring alone
    if (turn && view.phase !== "over" && ctx.live) parts.push(h("div", { class: "thinking", "aria-hidden": "true" }, me === seat ? t("your turn") : view.phase === "bid" ? t("bidding…") : t("thinking…")));
    plate.append(...parts);
    const won = view.tricks[seat] ? n("won {n} trick", "won {n} tricks", view.tricks[seat]) : t("no tricks yet");
    plate.setAttribute("aria-label", turn ? t("{who}: bid {bid}, {won}, to play", { who: label(seat), bid: bidText(bid), won })
      : t("{who}: bid {bid}, {won}", { who: label(seat), bid: bidText(bid), won }));
  }
}

// ------------------------------------------------------------------ the trick
function drawTrick(st) {
  const { view, me, name, label, posOf, els } = st;
  const { slots, trick, note } = els;
  slots.forEach(clear);
  const { plays: cards, done } = shownTrick(view);
  for (const play of cards) {
    slots[posOf(play.seat)].append(playedCard(play, label, { winner: done && play.seat === view.last_trick.winner }));
  }
  trick.classList.toggle("done", done);
  let text = "";
  if (view.outcome) text = resultText(st);
  else if (done) text = me === view.last_trick.winner ? t("You take the trick") : t("{who} takes the trick", { who: name(view.last_trick.winner) });
  else if (view.phase === "bid") {
    const seat = view.to_act[0];
    text = me === seat ? t("Deal {deal}: your bid", { deal: view.deal }) : t("Deal {deal}: {who} to bid", { deal: view.deal, who: name(seat) });
  } else if (!cards.length && view.phase === "play") {
    text = me === view.to_act[0] ? t("Your lead") : t("{who} to lead", { who: name(view.to_act[0]) });
  }
  note.textContent = text;
  note.classList.toggle("result", Boolean(view.outcome));
}

function resultText(st) {
  const { view, me } = st;
  const o = view.outcome;
  if (o.winners.length === 4) return t("The match is drawn, {score} all", { score: view.scores[0] });
  const team = teamOf(o.winners[0]);
  const score = { won: view.scores[team], lost: view.scores[1 - team] };
  if (me === null) return t("{team} win {won} to {lost}", { team: teamName(view.team_names[team]), ...score });
  return teamOf(me) === team ? t("You win! {won} to {lost}", score) : t("You lose {won} to {lost}", score);
}

// ------------------------------------------------------------------ bidding
function bidButton(st, text, caption, aria) {
  const { act, mem } = st;
  const b = h("button", { class: "bid", type: "button", "data-action": text, "aria-label": aria }, caption);
  b.addEventListener("click", () => {
    if (mem.closeSummary) mem.closeSummary(); // bidding, you are done reading the last deal's score
    act(text);
  });
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
    bidPanel.append(h("p", { class: "bid-title" }, t("You may bid blind nil, before you look at your cards (worth {points}), or look at them and bid as usual.", { points: view.options.blind_nil_value })));
    buttons.push(bidButton(st, "blind nil", p("bid", "Blind nil"), t("Bid blind nil without looking")));
    buttons.push(bidButton(st, "look", t("Look at my cards"), t("Look at my cards")));
  } else {
    const partner = (me + 2) % 4;
    const pb = view.bids[partner];
    bidPanel.append(h("p", { class: "bid-title" }, t("How many tricks will you take?"),
      pb !== null ? h("span", { class: "muted" }, " ", t("Your partner bid {bid}.", { bid: bidText(pb) })) : null));
    for (const text of legal) {
      if (text === "nil") buttons.push(bidButton(st, text, p("bid", "Nil"), t("Bid nil: take no tricks")));
      else if (text.startsWith("bid ")) {
        const tricks = Number(text.slice(4));
        buttons.push(bidButton(st, text, String(tricks), n("Bid {n} trick", "Bid {n} tricks", tricks)));
      }
    }
  }
  const row = h("div", { class: "bid-row" }, ...buttons);
  bidPanel.append(row);
  const first = firstBid(buttons);
  setRoving(buttons, first);
  focusIfIdle(buttons[first]);
}

// The bid the focus starts on, so that Enter alone makes a sensible bid: 3 tricks, the
// commonest (13 tricks over four hands), or the legal count nearest it; never nil, which
// a player chooses on purpose. Before the cards are seen: looking at them, not blind nil.
const USUAL_BID = 3;
function firstBid(buttons) {
  const actions = buttons.map((b) => b.dataset.action);
  const look = actions.indexOf("look");
  if (look >= 0) return look;
  let best = -1;
  actions.forEach((a, i) => {
    if (!a.startsWith("bid ")) return;
    const far = Math.abs(Number(a.slice(4)) - USUAL_BID);
    if (best < 0 || far < Math.abs(Number(actions[best].slice(4)) - USUAL_BID)) best = i;
  });
  return Math.max(0, best);
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
    const backs = h("div", { class: "hand-hidden", role: "img", "aria-label": t("Your 13 cards, face down") });
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
    else if (view.phase === "over") reason = t("the match is over");
    else if (view.phase === "bid") reason = t("bidding first");
    else if (!playing) reason = t("wait for {who}", { who: name(view.to_act[0]) });
    else if (!legal.has(card)) reason = view.why_not[card] || t("not playable now");
    if (playing && !legal.has(card)) b.classList.add("illegal");
    if (reason && ctx.live) {
      b.setAttribute("aria-disabled", "true");
      b.setAttribute("title", reason);
      b.setAttribute("aria-label", `${cardName(card)}, ${reason}`);
    } else if (ctx.live) {
      b.setAttribute("aria-label", t("Play the {card}", { card: cardName(card) }));
      b.classList.add("playable");
    }
    if (ctx.live) b.addEventListener("click", () => {
      if (reason) { ctx.say(`${cardName(card)}: ${reason}`, "error"); return; }
      b.classList.add("leaving");
      act(card);
    });
    return b;
  });
  layHand(hand, buttons, ONE_ROW_MOST);
  if (!buttons.length) return;
  let idx = focused ? cards.indexOf(focused) : -1;
  if (idx < 0 && oldIndex >= 0) idx = Math.min(oldIndex, buttons.length - 1);
  if (idx < 0) idx = 0;
  // On your turn the focus is on a card you may play: the nearest to where it was.
  if (playing && !buttons[idx].classList.contains("playable")) idx = nearestPlayable(buttons, idx);
  setRoving(buttons, idx);
  if (hadFocus) buttons[idx].focus();
  else if (playing) focusIfIdle(buttons[idx]);
}

// The playable card nearest to `idx` (the one after it first on a tie), or idx if none.
function nearestPlayable(buttons, idx) {
  for (let d = 1; d < buttons.length; d++) {
    for (const i of [idx + d, idx - d]) if (buttons[i] && buttons[i].classList.contains("playable")) return i;
  }
  return idx;
}

// ------------------------------------------------------------------ scores
function drawSide(st) {
  const { view, me, label, els } = st;
  const { side } = els;
  clear(side);
  const teams = [0, 1].map((team) => {
    const seats = view.teams[team];
    const mine = me !== null && teamOf(me) === team;
    const bids = seats.map((s) => view.bids[s]);
    const bid = bids.every((b) => b === null) ? "–" : bids.map(bidText).join(" + ");
    const won = seats.reduce((a, s) => a + view.tricks[s], 0);
    return h("div", { class: `team${mine ? " mine" : ""}` },
      h("div", { class: "team-name" }, teamName(view.team_names[team]), mine ? h("span", { class: "muted" }, " ", t("(your team)")) : null),
      h("div", { class: "team-score", "aria-label": t("score {score}", { score: view.scores[team] }) }, String(view.scores[team])),
      h("dl", { class: "team-facts" },
        h("dt", {}, t("Bags")), h("dd", {}, String(view.bags[team]), h("span", { class: "muted" }, ` / ${view.options.bag_limit}`)),
        h("dt", {}, t("Bid")), h("dd", {}, bid),
        h("dt", {}, p("tricks", "Won")), h("dd", {}, String(won))));
  });
  side.append(h("h2", { class: "side-title" }, t("Deal {deal}", { deal: view.deal }), h("span", { class: "muted" }, " · ", t("playing to {target}", { target: view.options.target }))),
    h("div", { class: "teams" }, ...teams));

  const last = view.last_trick;
  const lastBox = h("section", { class: "last-trick", "aria-label": t("Last trick") }, h("h3", {}, t("Last trick")));
  if (last) {
    const row = miniTrick(last, label, (seat) => seatLabel(view.seat_names[seat])[0]);
    lastBox.append(row, h("p", { class: "muted small" }, last.deal !== view.deal && view.phase !== "over"
      ? t("Won by {who} (deal {deal})", { who: label(last.winner), deal: last.deal }) : t("Won by {who}", { who: label(last.winner) })));
  } else lastBox.append(h("p", { class: "muted small" }, t("No trick played yet.")));
  side.append(lastBox);

  const hist = h("section", { class: "history", "aria-label": t("Deal history") }, h("h3", {}, t("Deals")));
  if (!view.deals.length) hist.append(h("p", { class: "muted small" }, t("Scores appear here after each deal.")));
  else hist.append(dealsTable(view));
  side.append(hist);
}

// The points and score of each team after every deal (the side panel and the results).
function dealsTable(view) {
  const table = h("table", {},
    h("caption", { class: "sr-only" }, t("Points won and scores after each deal")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, short(view, 0)), h("th", { scope: "col" }, short(view, 1)))));
  const body = h("tbody");
  for (const d of view.deals) {
    const cell = (team) => {
      const r = d.teams[team];
      const seats = view.teams[team];
      const detail = [t("bid {bids}, took {tricks}", { bids: seats.map((s) => bidText(d.bids[s])).join("+"), tricks: seats.map((s) => d.tricks[s]).join("+") }),
        r.nil ? t("nil {points}", { points: `${r.nil > 0 ? "+" : ""}${r.nil}` }) : null,
        r.bag_points ? n("{n} bag", "{n} bags", r.bag_points) : null,
        r.penalty ? t("bag penalty -{points}", { points: r.penalty }) : null].filter(Boolean).join(", ");
      return h("td", {}, h("span", { class: r.points < 0 ? "neg" : "pos" }, `${r.points > 0 ? "+" : ""}${r.points}`),
        h("b", {}, ` ${r.score}`), h("small", { class: "muted" }, detail));
    };
    body.append(h("tr", {}, h("th", { scope: "row" }, String(d.deal)), cell(0), cell(1)));
  }
  table.append(body);
  return table;
}

function short(view, team) {
  return teamName(view.team_names[team]).split("-").map((w) => w[0]).join("");
}

// ------------------------------------------------------------------ between deals
// The score of the deal just played, over the felt before the next bidding (as the card
// sites do): each partnership's bids, tricks, contract, nil, bags, penalty, the deal's
// points and the running score and bag count. It goes with Continue, or by itself after a
// few readings at the table's pace; the page holds the next views as long (holds below).
// All of it comes from the view's finished deals (view.deals), which are public.
const SUMMARY_READINGS = 4;
const SUMMARY_LEAST_MS = 3000; // even at the fastest pace, time to read a line of figures
const summaryMs = (ctx) => Math.max(SUMMARY_LEAST_MS, (ctx.readingMs || 1100) * SUMMARY_READINGS);

// The view that opens a deal after another was scored, nothing bid yet: the summary's moment.
function dealJustScored(v) {
  const last = v.deals.length ? v.deals[v.deals.length - 1] : null;
  return v.phase === "bid" && Boolean(last) && last.deal === v.deal - 1 && v.bids.every((b) => b === null);
}

const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0");

function summaryTable(st, d) {
  const { view, me, label } = st;
  const cells = (fn) => [0, 1].map((team) => h("td", {}, ...[].concat(fn(d.teams[team], view.teams[team], team))));
  const row = (title, fn) => h("tr", {}, h("th", { scope: "row" }, title), ...cells(fn));
  const nils = (seats) => seats.filter((s) => d.bids[s] === "nil" || d.bids[s] === "blind nil")
    .map((s) => h("small", { class: "muted" }, d.tricks[s] === 0 ? t("{who}: {bid} made", { who: label(s), bid: bidText(d.bids[s]) })
      : t("{who}: {bid} failed", { who: label(s), bid: bidText(d.bids[s]) })));
  const anyNil = d.teams.some((r) => r.nil);
  const anyPenalty = d.teams.some((r) => r.penalty);
  return h("table", { class: "summary-table", "aria-labelledby": "deal-summary-title" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Team")),
      ...[0, 1].map((team) => h("th", { scope: "col", class: me !== null && teamOf(me) === team ? "mine" : null }, teamName(view.team_names[team]))))),
    h("tbody", {},
      row(t("Bids"), (r, seats) => seats.map((s) => bidText(d.bids[s])).join(" + ")),
      row(t("Tricks"), (r, seats) => seats.map((s) => String(d.tricks[s])).join(" + ")),
      row(t("Contract"), (r) => signed(r.contract)),
      anyNil ? row(p("bid", "Nil"), (r, seats) => [signed(r.nil), ...nils(seats)]) : null,
      row(t("Bags"), (r) => signed(r.bag_points)),
      anyPenalty ? row(t("Penalty"), (r) => signed(-r.penalty)) : null,
      row(p("points of the deal", "Deal"), (r) => h("b", { class: r.points < 0 ? "neg" : "pos" }, signed(r.points))),
      row(t("Score"), (r) => h("b", {}, String(r.score))),
      row(t("Bag count"), (r) => `${r.bags} / ${view.options.bag_limit}`)));
}

function drawSummary(st) {
  const { view, ctx, els, mem, me } = st;
  // Your own bid, or the play, ends it: you have read it.
  if (mem.closeSummary && (view.phase !== "bid" || (me !== null && view.bids[me] !== null))) mem.closeSummary(false);
  if (!ctx.live || !dealJustScored(view) || mem.summarized === view.deal - 1) return;
  mem.summarized = view.deal - 1;
  const d = view.deals[view.deals.length - 1];
  const go = h("button", { class: "button primary", type: "button" }, t("Continue"));
  const box = h("section", { class: "deal-summary", "aria-labelledby": "deal-summary-title" },
    h("h2", { id: "deal-summary-title" }, t("Deal {deal} scored", { deal: d.deal })),
    summaryTable(st, d), h("div", { class: "buttons" }, go));
  // release: let the views the page held meanwhile show (not while one is being drawn)
  const close = (release = true) => {
    clearTimeout(mem.summaryTimer);
    mem.closeSummary = null;
    if (!box.isConnected) return;
    box.remove();
    if (release && ctx.release) ctx.release();
  };
  mem.closeSummary = close;
  go.addEventListener("click", () => close());
  els.summary.replaceChildren(box);
  clearTimeout(mem.summaryTimer);
  mem.summaryTimer = setTimeout(() => close(), summaryMs(ctx));
}

// ------------------------------------------------------------------ narration
function narrate(st) {
  const { before, view: after, me, label, myTurn, els: { narrator } } = st;
  const lines = [];
  if (before && before.deal === after.deal) {
    for (let s = 0; s < 4; s++) {
      if (before.bids[s] === null && after.bids[s] !== null) lines.push(t("{who} bid {bid}.", { who: label(s), bid: bidText(after.bids[s]) }));
    }
    for (const [s, card] of after.played.slice(before.played.length)) lines.push(t("{who} played the {card}.", { who: label(s), card: cardName(card) }));
    const last = after.last_trick;
    if (last && (!before.last_trick || before.last_trick.cards.map((c) => c.card).join() !== last.cards.map((c) => c.card).join())) lines.push(t("{who} won the trick.", { who: label(last.winner) }));
  } else if (before && after.deal !== before.deal) {
    lines.push(t("Deal {done} scored. Deal {next} begins.", { done: before.deal, next: after.deal }));
  }
  if (after.outcome && !(before && before.outcome)) lines.push(resultText(st));
  if (myTurn && !(before && before.to_act.includes(me))) lines.push(after.phase === "bid" ? t("Your turn to bid.") : t("Your turn to play."));
  if (lines.length) narrator.textContent = lines.join(" ");
}

// What every piece reads: the view and the one before, the page's context, the table's
// elements, and who is who (seat numbers to names and places; whether you may act).
function stateOf(view, before, ctx, seat, els, mem) {
  const me = seat.me();
  const name = (s) => ctx.names[s] || seatLabel(view.seat_names[s]);
  return {
    view, before, ctx, els, mem, me, name,
    posOf: (s) => seat.offset(s, 4),
    label: (s) => (me === s ? t("You ({seat})", { seat: seatLabel(view.seat_names[s]) }) : name(s)),
    myTurn: me !== null && view.to_act.includes(me) && view.legal.length > 0,
    act: (text) => { if (ctx.live) ctx.act(text); },
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
  };
}

export function mount(root, ctx) {
  const plates = POS.map((pos) => h("div", { class: `plate plate-${pos}` }));
  const slots = POS.map((pos) => h("div", { class: `slot slot-${pos}` }));
  const note = h("div", { class: "felt-note", "aria-live": "polite" });
  const trick = h("div", { class: "trick", role: "region", "aria-label": t("Cards on the table") }, ...slots);
  // The caption sits in the felt's top-left corner, never over the cards of the trick.
  const summary = h("div", { class: "summary-slot" }); // the score of a deal, between deals
  const felt = h("div", { class: "felt" }, note, plates[2], plates[1], trick, plates[3], plates[0], summary);
  const bidPanel = h("div", { class: "bid-panel", role: "group", "aria-label": t("Your bid"), hidden: "" });
  const hand = h("div", { class: "hand", role: "toolbar", "aria-label": t("Your hand") });
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "side", "aria-label": t("Scores") });
  const main = h("div", { class: "play-area" }, felt, bidPanel, hand, narrator);
  const board = tableOf(root, ctx, "spades", main, side);
  const els = { root: board.el, plates, slots, note, trick, bidPanel, hand, narrator, side, summary };
  const mem = { summarized: null, summaryTimer: null, closeSummary: null }; // the deal whose summary was shown, and its closing
  rovingFocus(hand);
  rovingFocus(bidPanel);
  board.on(window, "resize", () => layHand(hand, [...hand.querySelectorAll(".card")], ONE_ROW_MOST));

  const state = (view, before) => stateOf(view, before, ctx, board.seat, els, mem);
  const draw = [drawPlates, drawTrick, drawBidding, drawHand, drawSide, drawSummary, (st) => { if (ctx.live) narrate(st); }];

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

  return board.renderer({
    state,
    draw,
    motion,
    // A finished trick stays readable a moment before the next card is drawn over it; a
    // deal's score, a few moments (or until Continue) before the next bids are shown.
    holds(v) {
      if (dealJustScored(v) && mem.summarized === v.deal - 1 && els.summary.childElementCount) return { ms: summaryMs(ctx) };
      return v.phase === "play" && !v.trick.length && Boolean(v.last_trick) && v.last_trick.deal === v.deal;
    },
    results(v) {
      return { headline: v.outcome ? resultText(state(v, null)) : null, history: v.deals.length ? dealsTable(v) : null, historyTitle: t("Deals") };
    },
    refused() {
      for (const b of hand.querySelectorAll(".leaving")) b.classList.remove("leaving");
    },
    destroy() { clearTimeout(mem.summaryTimer); },
  });
}
