// The Hit the Deck table: 2 to 6 seats round an oval felt (you at the bottom; "left" is
// clockwise on the screen), the draw and discard piles in the middle with the top card and
// any obligation shown large, the direction of play, the other hands as counts, your hand
// in colour (cards you cannot play dimmed, with the engine's reason on hover and for
// screen readers), buttons for draw, pass, cut and swap, the scores and a log beside.
// Everything comes from view(seat); mount(root, ctx) -> {update(view), destroy()}.
//
// The shout. A With a Hand is played with the shout: the big button (or the H key). The
// shout and the card must come within the game's shout window (view.shout_window_ms, 1.5 s)
// of each other, in either order: shout first and the card goes as "hit hand!" the moment
// you play it; play first and the card waits, lifted, for up to that window: the shout in that time sends "hit hand!", none sends
// "hit hand" (forgotten: you draw four). A shout on its own sends nothing.
//
// The slap. When the server opens the slap (ctx.timed), the pile becomes a big SLAP
// target: press it (mouse or touch: on the press, not the release) or the space bar. The
// page sends only "react": the server times the slap from its own signal to the moment
// the react arrives (docs/protocol.md, "Timed phases"). Nothing delays that signal: the
// card that opens the slap does not travel, it is on the pile, as the slap target, as soon
// as the view arrives. Then the page shows everyone's time and who was last and draws four.
//
// Cut and Flip are animated: the cut card flies out of the middle of the draw pile onto
// the discard pile; on a swap the two piles trade places and the direction arrow turns.
// A caption says what happened, and every event goes to the log (and to screen readers).

import { h, clear, loadStyle, rovingFocus, setRoving, focusIfIdle as focusWhenIdle, fitRow } from "../../dom.js";
import { tableOf } from "../../tables/table.js";
import { reducedMotion as reduced } from "../../tables/motion.js";
import { playSound } from "../../sound.js";
import { t, n, p, num } from "../../i18n.js";
import { seatLabel } from "../../words.js";

await loadStyle("/static/games/hit_the_deck/table.css");

// The shout is the card's name, as players shout it (a language may keep it in English).
const shoutText = () => t("Hit the Deck With a Hand!");
const COLOUR_WORD = { R: "red", Y: "yellow", G: "green", B: "blue" };
// A colour in the reader's language ("R" -> "red", "merah", "vermelho").
const colourName = (c) => p("colour", COLOUR_WORD[c]);
// A colour's shape (each colour also has one, for who cannot tell the colours apart).
const SHAPE = { triangle: () => p("shape", "triangle"), circle: () => p("shape", "circle"), square: () => p("shape", "square"), diamond: () => p("shape", "diamond") };

// ------------------------------------------------------------------------------ cards
export function parseCard(text) {
  let m;
  if (text === "hit hand" || text === "hit hand!") return { kind: "hand" };
  if ((m = /^hit ([1-5])$/.exec(text))) return { kind: "hitn", number: m[1] };
  if ((m = /^hit ([RYGB])$/.exec(text))) return { kind: "hitc", colour: m[1] };
  if ((m = /^([RYGB]) (cut|flip)$/.exec(text))) return { kind: m[2], colour: m[1] };
  if ((m = /^([RYGB])([1-5])$/.exec(text))) return { kind: "num", colour: m[1], number: m[2] };
  return { kind: "unknown" };
}

// A card as players of the reader's language name it (the same words as the server's).
export function cardName(text) {
  const c = parseCard(text);
  switch (c.kind) {
    case "num": return t("{colour} {number}", { colour: colourName(c.colour), number: Number(c.number) });
    case "cut": return t("{colour} Cut the Deck", { colour: colourName(c.colour) });
    case "flip": return t("{colour} Flip the Deck", { colour: colourName(c.colour) });
    case "hitn": return t("Hit the Deck With a Number {number}", { number: Number(c.number) });
    case "hitc": return t("Hit the Deck With a Colour, {colour}", { colour: colourName(c.colour) });
    case "hand": return t("Hit the Deck With a Hand");
    default: return text;
  }
}

// Each colour also has a shape, drawn in CSS (no font needed), wherever the colour shows:
// red a triangle, yellow a circle, green a square, blue a diamond. So no one needs to tell
// the colours apart to play, and no one needs English: a face shows no colour's initial
// (the typed notation, R3 or "hit Y", stays English at the terminal only).
export const COLOUR_SHAPE = { R: "triangle", Y: "circle", G: "square", B: "diamond" };
export const colourMark = (c) => h("span", { class: `cmark cm-${c}`, "aria-hidden": "true", title: t("{colour} ({shape})", { colour: colourName(c), shape: SHAPE[COLOUR_SHAPE[c]]() }) });

// A face-up card: a button when it can be chosen, a picture otherwise. The corner shows the
// card's number (or sign) and its colour's shape.
export function cardFace(text, { button = false, size = "" } = {}) {
  const c = parseCard(text);
  let corner = "";
  let middle = [];
  switch (c.kind) {
    case "num": corner = c.number; middle = [h("span", { class: "big" }, c.number)]; break;
    case "cut": corner = "✂"; middle = [h("span", { class: "icon" }, "✂"), h("span", { class: "word" }, "Cut")]; break;
    case "flip": corner = "⇅"; middle = [h("span", { class: "icon" }, "⇅"), h("span", { class: "word" }, "Flip")]; break;
    case "hitn": corner = c.number; middle = [h("span", { class: "word" }, "Hit"), h("span", { class: "big" }, c.number)]; break;
    case "hitc": corner = ""; middle = [h("span", { class: "word" }, "Hit"), h("span", { class: `disc c-${c.colour}` }, colourMark(c.colour))]; break;
    case "hand": corner = handIcon("mini"); middle = [handIcon(), h("span", { class: "word" }, "Hand")]; break;
    default: middle = [text];
  }
  const tone = c.colour && c.kind !== "hitc" ? `c-${c.colour}` : "c-hit";
  return h(button ? "button" : "div", {
    class: `hcard ${tone} k-${c.kind}${size ? ` ${size}` : ""}`,
    type: button ? "button" : null,
    role: button ? null : "img",
    "data-card": text,
    "aria-label": cardName(text),
  },
  h("span", { class: "hc-corner", "aria-hidden": "true" }, corner ? h("b", {}, corner) : null, c.colour ? colourMark(c.colour) : null),
  h("span", { class: "hc-oval", "aria-hidden": "true" }, ...middle));
}

// An open hand (the slap, With a Hand), drawn so that it needs no emoji font.
export function handIcon(cls = "icon") {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `${cls} hand-svg`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const parts = [[7.2, 4, 2.6, 10], [10.2, 2.4, 2.6, 11], [13.2, 3.2, 2.6, 10], [16.2, 5.6, 2.4, 8.5],
    [7.2, 10, 11.4, 10.5]];
  for (const [x, y, w, hgt] of parts) {
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", x); r.setAttribute("y", y); r.setAttribute("width", w); r.setAttribute("height", hgt);
    r.setAttribute("rx", Math.min(w, hgt) / 2);
    r.setAttribute("fill", "currentColor");
    svg.append(r);
  }
  const thumb = document.createElementNS(ns, "rect");
  thumb.setAttribute("x", "3"); thumb.setAttribute("y", "11"); thumb.setAttribute("width", "7.5"); thumb.setAttribute("height", "2.8");
  thumb.setAttribute("rx", "1.4"); thumb.setAttribute("transform", "rotate(38 6.7 12.4)"); thumb.setAttribute("fill", "currentColor");
  svg.append(thumb);
  return svg;
}

const cards = (count) => n("{n} card", "{n} cards", count);
function secs(ms) { return ms >= 1000 ? t("{seconds} s", { seconds: num(Math.round(ms / 10) / 100, 2) }) : t("{ms} ms", { ms }); }

// ------------------------------------------------------------------------------ the table
// What the pieces drawn from module functions read: the view and the one before, the
// page's context, the elements they fill, the table's memory, and who is who.
// `seat` is the table's seating (table.js); `mem` holds the latest view and the one before
// (`mem.view`, `mem.prev`) so that a handler (a click, a key, a timer) works from the state
// as it is when it runs: `fresh(st)`.
function stateOf(view, before, ctx, seat, els, mem) {
  const me = seat.me();
  const name = (s) => (ctx.live && me === s ? t("You") : ctx.names[s] || seatLabel(`seat ${s}`));
  const slapOpen = Boolean(view && view.phase === "slap" && view.slap);
  return {
    view, before, ctx, seat, els, mem, me, name, slapOpen,
    label: (s) => (ctx.live && me === s ? t("you") : name(s)),
    // the sentence for you, or the one for another player (who: their name)
    yours: (s, mine, theirs) => (ctx.live && me === s ? mine : theirs(name(s))),
    myTurn: Boolean(ctx.live && me !== null && view && view.to_act.includes(me) && view.legal.length > 0),
    canSlap: Boolean(ctx.live && me !== null && slapOpen && view.slap.waiting.includes(me) && ctx.timed && mem.slappedPhase !== ctx.timed.phase),
    shoutMs: view ? view.shout_window_ms : 0, // the game's rule, sent in the view
    focusIfIdle: (el) => focusWhenIdle(el, els.root, ctx.live),
  };
}

const fresh = (st) => stateOf(st.mem.view, st.mem.prev, st.ctx, st.seat, st.els, st.mem);

function resultText(st) {
  const { view, ctx, me, name } = st;
  const o = view.outcome;
  const best = view.scores[o.winners[0]];
  if (ctx.live && me !== null && o.winners.includes(me)) return t("You win with {score}!", { score: best });
  return n("{who} wins with {score}.", "{who} win with {score}.", o.winners.length, { who: o.winners.map(name).join(t(" and ")), score: best });
}

function slapTable(st, s, big) {
  const { name, yours } = st;
  const order = s.ms.map((ms, seat) => ({ seat, ms })).sort((a, b) => a.ms - b.ms);
  const loser = s.slowest;
  const last = { time: secs(s.ms[loser]), cards: s.cards };
  const head = s.tied.length
    ? yours(loser, t("You were last ({time}) and draw {cards} (a tie, drawn by lot)", last), (who) => t("{who} was last ({time}) and draws {cards} (a tie, drawn by lot)", { who, ...last }))
    : yours(loser, t("You were last ({time}) and draw {cards}", last), (who) => t("{who} was last ({time}) and draws {cards}", { who, ...last }));
  const list = h("ol", { class: "slap-times" }, ...order.map((o) => h("li", { class: o.seat === loser ? "loser" : "" },
    h("span", { class: "who" }, name(o.seat)), h("b", {}, secs(o.ms)), o.seat === loser ? h("span", { class: "plus" }, `+${s.cards}`) : null)));
  return h("div", { class: big ? "slap-card" : "slap-mini" }, h("p", { class: "slap-head" }, handIcon("mini"), ` ${head}`), list);
}

// The game is over: the winner and the totals, large, on the felt.
function drawFinal(st) {
  const { view, els, name } = st;
  const { final, slapResult } = els;
  clear(final);
  final.hidden = !view.outcome;
  if (!view.outcome) return;
  slapResult.hidden = true;
  const order = view.scores.map((score, seat) => ({ seat, score })).sort((a, b) => a.score - b.score);
  const place = view.outcome.placing;
  final.append(h("div", { class: "final-card" },
    h("p", { class: "final-head" }, resultText(st)),
    h("ol", { class: "final-list", "aria-label": t("Totals, lowest first") }, ...order.map((o) =>
      h("li", { class: place[o.seat] === 1 ? "winner" : "" }, h("span", { class: "who" }, `${place[o.seat]}. ${name(o.seat)}`), h("b", {}, String(o.score)))))));
}

// ------------------------------------------------------------------ the side: scores, last slap, log
function drawSide(st) {
  const { view, els, mem, me, name } = st;
  const { side } = els;
  clear(side);
  const seats = view.seats;
  const target = view.options.target;
  side.append(h("h2", { class: "side-title" }, t("Round {round}", { round: view.round }), h("span", { class: "muted" }, " · ", t("game to {target}, lowest wins", { target }))));
  const table = h("table", { class: "htd-scores" },
    h("caption", { class: "sr-only" }, t("Cards in hand and total score of each player")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Cards")), h("th", { scope: "col" }, t("Total")))));
  const body = h("tbody");
  for (let s = 0; s < seats; s++) {
    body.append(h("tr", { class: `${view.to_act.includes(s) ? "turn" : ""}${s === me ? " mine" : ""}` },
      h("th", { scope: "row" }, name(s), view.dealer === s ? h("span", { class: "chip", title: t("Dealer"), "aria-label": t("dealer") }, p("dealer chip", "D")) : null),
      h("td", {}, String(view.hand_sizes[s])), h("td", {}, h("b", {}, String(view.scores[s])))));
  }
  table.append(body);
  side.append(table);

  const slapBox = h("section", { class: "htd-last-slap", "aria-label": t("Last slap") }, h("h3", {}, t("Last slap")));
  if (view.last_slap) slapBox.append(slapTable(st, view.last_slap, false));
  else slapBox.append(h("p", { class: "muted small" }, t("No slap yet: a With a Hand calls for one.")));
  side.append(slapBox);

  if (view.rounds.length) {
    const rt = h("table", { class: "htd-rounds" },
      h("caption", { class: "sr-only" }, t("Points each round")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), ...Array.from({ length: seats }, (_, s) => h("th", { scope: "col", title: name(s) }, short(st, s))))));
    const rb = h("tbody");
    for (const r of view.rounds) {
      rb.append(h("tr", {}, h("th", { scope: "row" }, String(r.round)),
        ...r.points.map((pts, s) => h("td", { class: r.out === s ? "out" : "" }, r.out === s ? t("out") : `+${pts}`))));
    }
    rt.append(rb);
    side.append(h("section", { class: "htd-history", "aria-label": t("Rounds") }, h("h3", {}, t("Rounds")), rt));
  }

  const log = h("section", { class: "htd-log", "aria-label": t("What happened") }, h("h3", {}, t("What happened")));
  const ul = h("ul", {}, ...mem.logLines.slice(-30).reverse().map((line) => h("li", {}, line)));
  if (!mem.logLines.length) ul.append(h("li", { class: "muted" }, t("The game has just begun.")));
  log.append(ul);
  side.append(log);
}

function short(st, s) {
  const { name } = st;
  const who = name(s);
  return who.length > 6 ? `${who.slice(0, 5)}…` : who;
}

// ------------------------------------------------------------------ narration and the log
function tell(st) {
  const { view, before, ctx, els, mem, me, name, myTurn, slapOpen, canSlap } = st;
  const { narrator } = els;
  const after = view;
  const lines = [];
  if (!before || before.round !== after.round) {
    if (before && after.rounds.length) {
      const r = after.rounds[after.rounds.length - 1];
      // a round the safety stop ended says so in the engine's words (the server's language)
      if (typeof r.stopped === "string") lines.push(r.stopped);
      else lines.push(r.out !== null ? t("Round {round}: {who} went out.", { round: r.round, who: name(r.out) }) : t("Round {round} ended with no one out.", { round: r.round }));
    }
    mem.told = { round: after.round, events: 0, played: 0 };
  }
  for (const [seat, action] of after.played.slice(mem.told.played)) {
    const who = name(seat);
    if (action === "hit hand!") lines.push(t("{who} played Hit the Deck With a Hand and shouted “{shout}”", { who, shout: shoutText() }));
    else if (action === "hit hand") lines.push(t("{who} played Hit the Deck With a Hand without the shout!", { who }));
    else lines.push(t("{who} played {card}.", { who, card: cardName(action) }));
  }
  for (const e of after.events.slice(mem.told.events)) {
    const line = eventText(st, e);
    if (line) lines.push(line);
  }
  if (before && before.round === after.round && after.phase === "drawn" && (before.phase !== "drawn" || before.turn !== after.turn)) {
    lines.push(t("{who} drew a card.", { who: name(after.turn) }));
  }
  mem.told = { round: after.round, events: after.events.length, played: after.played.length };
  if (after.outcome && !(before && before.outcome)) lines.push(resultText(st));
  for (const l of lines) mem.logLines.push(l);
  if (mem.logLines.length > 60) mem.logLines.splice(0, mem.logLines.length - 60);
  if (ctx.live && slapOpen && canSlap && !(before && before.phase === "slap")) lines.push(t("Slap the pile now! Space bar."));
  else if (myTurn && !(before && before.to_act.includes(me))) lines.push(t("Your turn."));
  if (lines.length) narrator.textContent = lines.join(" ");
}

function eventText(st, e) {
  const { view, name, yours } = st;
  const who = e.seat !== undefined && e.seat !== null ? name(e.seat) : "";
  switch (e.type) {
    case "first": return t("Round {round} begins: the first card is {card}.", { round: view.round, card: cardName(e.card) });
    case "reburied": return t("A With a Hand turned first goes back into the draw pile.");
    case "cut": return e.card ? t("{who} cut the deck: {card} turned up.", { who, card: cardName(e.card) }) : t("{who} had nothing to cut.", { who });
    case "swap": return e.card ? t("{who} swapped the piles: the top is {card}, and play turns round.", { who, card: cardName(e.card) }) : t("{who} had nothing to swap: play turns round.", { who });
    case "flip back": return t("A second Flip in a row went back into the draw pile.");
    case "reshuffle": return t("The discards were shuffled into a new draw pile ({cards}).", { cards: cards(e.cards) });
    case "penalty": return t("{who} did not shout and drew {n}.", { who, n: e.cards });
    case "slap": {
      const times = e.ms.map((ms, s) => `${name(s)} ${secs(ms)}`).join(", ");
      const last = { times, cards: e.cards };
      if (e.tied.length) {
        return yours(e.slowest, t("Slaps: {times}. You were last (a tie, by lot) and drew {cards}.", last),
          (slowest) => t("Slaps: {times}. {slowest} was last (a tie, by lot) and drew {cards}.", { slowest, ...last }));
      }
      return yours(e.slowest, t("Slaps: {times}. You were last and drew {cards}.", last),
        (slowest) => t("Slaps: {times}. {slowest} was last and drew {cards}.", { slowest, ...last }));
    }
    case "blocked": return t("Nobody could play or draw: the round is blocked.");
    default: return null;
  }
}

// ------------------------------------------------------------------ seats round the felt
const narrow = (felt) => felt.clientWidth < 560;

// A felt too short for what it holds is drawn tighter, a step at a time, until it fits. A
// narrow felt (a phone) fits when its bands do (a long obligation, bots' badges, a short
// phone, a prompt of two lines under it): nothing is cut off at its foot; the last step
// gives up the caption of the last event (aria-hidden: the narration says it too) and
// shrinks the piles once more. A wide felt that is short (a laptop's browser window, the
// puzzles page beside a short log) fits when the middle (the direction, the piles, the
// obligation) lies clear of every seat's plate: smaller piles, then the direction said by
// the ring's arrows alone, then smaller piles still, without the caption; last (a window
// as low as 1024x640), without the obligation, which the prompt under the felt says too.
const TIGHTER = ["tight", "tighter", "tightest"];
const WIDE_TIGHTER = [...TIGHTER, "bare"]; // bare: the obligation left to the prompt under it
function fitFelt(st) {
  const { felt } = st.els;
  felt.classList.remove(...WIDE_TIGHTER);
  const isNarrow = felt.classList.contains("narrow");
  const fits = isNarrow
    ? () => felt.scrollHeight <= felt.clientHeight + 1
    : () => middleClear(st.els);
  for (const step of isNarrow ? TIGHTER : WIDE_TIGHTER) {
    if (fits()) return;
    felt.classList.add(step);
    if (!isNarrow) placeSeats(st.els); // its plates smaller from the tightest step
  }
}

// Whether the middle of a wide felt lies clear of the seats' plates. The obligation counts
// whether or not it shows now (its room is kept), so the piles do not change size from one
// move to the next.
function middleClear({ direction, pileWrap, obligation, seatsLayer }) {
  const middle = [direction, pileWrap, obligation].filter((el) => el.offsetParent !== null)
    .map((el) => el.getBoundingClientRect());
  const plates = [...seatsLayer.children].map((el) => el.getBoundingClientRect());
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  return middle.every((m) => plates.every((plate) => apart(m, plate)));
}

function spot(st, seat) {
  const seats = st.view.seats;
  const offset = st.seat.offset(seat, seats);
  if (offset === 0) return { x: 50, y: 90 };
  const a = (offset / seats) * 2 * Math.PI;
  const x = 50 - 44 * Math.sin(a);
  const y = 50 + 41 * Math.cos(a);
  // On a narrow felt the others sit in the upper part, the piles below them.
  return { x, y: narrow(st.els.felt) ? 9 + (y - 9) * 0.5 : y };
}

function drawSeats(st) {
  const { view, ctx, els, me, name, slapOpen } = st;
  const { felt, seatsLayer } = els;
  felt.classList.toggle("narrow", narrow(felt));
  clear(seatsLayer);
  const seats = view.seats;
  const slap = slapOpen ? view.slap : null;
  // in their order round the table from the bottom seat: a narrow felt lays them in a row
  const round = [...Array(seats).keys()].sort((a, b) => st.seat.offset(a, seats) - st.seat.offset(b, seats));
  for (const seat of round) {
    const at = spot(st, seat);
    const count = view.hand_sizes[seat];
    const turn = view.to_act.includes(seat) && view.phase !== "slap";
    const backs = h("div", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 8); i++) backs.append(h("span", { class: "back" }));
    const bits = [];
    if (view.dealer === seat) bits.push(h("span", { class: "chip", title: t("Dealer") }, p("dealer chip", "D")));
    let note = "";
    const slapped = Boolean(slap && !slap.waiting.includes(seat));
    if (slap) note = slapped ? t("slapped") : t("slap!");
    else if (turn) note = !ctx.live ? (view.phase === "cut" ? t("to cut") : view.phase === "swap" ? t("to swap") : t("to play"))
      : view.phase === "cut" ? t("cutting…") : view.phase === "swap" ? t("swapping…") : me === seat ? t("your turn") : t("to play");
    const facts = [cards(count), t("score {score}", { score: view.scores[seat] }), turn ? t("to play") : null, slapped ? t("has slapped") : null];
    const plate = h("div", {
      class: `htd-plate${turn ? " turn" : ""}${me === seat ? " mine" : ""}${slap && !slap.waiting.includes(seat) ? " slapped" : ""}${count === 1 ? " last-card" : ""}`,
      "data-seat": String(seat),
      role: "group",
      "aria-label": `${name(seat)}: ${facts.filter(Boolean).join(", ")}`,
    },
    h("div", { class: "who" }, h("span", { class: "name", title: name(seat) }, name(seat)), ctx.badge && ctx.badge(seat) ? h("span", { class: "bot-badge" }, ctx.badge(seat)) : null, ...bits),
    h("div", { class: "count" }, backs, h("b", {}, String(count)), " ", h("span", { class: "muted-light" }, n("card", "cards", count))),
    h("div", { class: "score" }, t("Score {score}", { score: view.scores[seat] })),
    note ? h("div", { class: "note", "aria-hidden": "true" }, note) : null);
    plate.dataset.offset = String(st.seat.offset(seat, seats));
    plate.dataset.x = String(at.x);
    plate.dataset.y = String(at.y);
    seatsLayer.append(plate);
  }
  placeSeats(els);
}

// Each plate at its place round the oval, but kept whole inside the felt's rim: the felt's
// corners are round (its border-radius, the rim an inset shadow RIM px wide), and a plate
// placed only inside its rectangle lay over the rim, or was cut off by the rounded corner,
// wherever the felt is flat (three, five or six seats in a laptop's window). A plate that
// does not fit is drawn in towards the middle, a little at a time, until it does.
const RIM = 6;
function placeSeats({ felt, seatsLayer }) {
  const W = felt.clientWidth;
  const H = felt.clientHeight;
  const { rx, ry } = rimCorners(felt);
  const inside = (px, py) => {
    const dx = px < RIM + rx ? RIM + rx - px : px > W - RIM - rx ? px - (W - RIM - rx) : 0;
    const dy = py < RIM + ry ? RIM + ry - py : py > H - RIM - ry ? py - (H - RIM - ry) : 0;
    return (dx === 0 || dy === 0) ? px >= RIM && px <= W - RIM && py >= RIM && py <= H - RIM
      : (dx / rx) ** 2 + (dy / ry) ** 2 <= 1;
  };
  for (const plate of seatsLayer.children) {
    const w = plate.offsetWidth / 2 + 2;
    const hgt = plate.offsetHeight / 2 + 2;
    let x = Math.min(W - w - RIM, Math.max(w + RIM, (Number(plate.dataset.x) / 100) * W));
    let y = Math.min(H - hgt - RIM, Math.max(hgt + RIM, (Number(plate.dataset.y) / 100) * H));
    // across faster than up or down: the plates on one side keep apart from each other
    for (let i = 0; i < 150 && ![[-w, -hgt], [w, -hgt], [-w, hgt], [w, hgt]]
      .every(([ox, oy]) => inside(x + ox, y + oy)); i++) {
      x = W / 2 + (x - W / 2) * 0.97;
      y = H / 2 + (y - H / 2) * 0.99;
    }
    plate.style.left = `${x}px`;
    plate.style.top = `${y}px`;
  }
}

// The radii of the felt's rim's inner edge, in px: its border-radius (a length or a
// percentage of its width, then of its height) less the rim.
function rimCorners(felt) {
  const [across, down = across] = getComputedStyle(felt).borderTopLeftRadius.split(" ");
  const px = (v, size) => (v.endsWith("%") ? (parseFloat(v) / 100) * size : parseFloat(v)) || 0;
  return { rx: Math.max(1, px(across, felt.offsetWidth) - RIM),
    ry: Math.max(1, px(down, felt.offsetHeight) - RIM) };
}

// ------------------------------------------------------------------ the middle
function drawCentre(st) {
  const { view, els, me, myTurn, slapOpen, canSlap } = st;
  const { ring, direction, drawPile, discard, obligation, felt, slapBar } = els;
  const left = view.direction === "left";
  ring.classList.toggle("ccw", !left);
  direction.textContent = left ? t("Play goes left ↻") : t("Play goes right ↺");
  direction.setAttribute("aria-label", left ? t("Play goes left (clockwise)") : t("Play goes right (anticlockwise)"));

  clear(drawPile);
  const canDraw = myTurn && view.legal.includes("draw");
  const canCut = myTurn && view.legal.includes("cut");
  const canSwap = myTurn && view.legal.includes("swap");
  const stack = h("span", { class: "stack", "aria-hidden": "true" });
  for (let i = 0; i < Math.min(5, Math.ceil(view.draw_size / 8)); i++) stack.append(h("span", { class: "back big" }));
  drawPile.append(stack, h("span", { class: "pile-count" }, String(view.draw_size)));
  drawPile.classList.toggle("active", canDraw || canCut || canSwap);
  drawPile.disabled = !(canDraw || canCut || canSwap);
  const pile = { cards: cards(view.draw_size) };
  drawPile.setAttribute("aria-label", canCut ? t("Cut the deck (draw pile, {cards})", pile)
    : canSwap ? t("Swap the piles (draw pile, {cards})", pile)
      : canDraw ? t("Draw a card (draw pile, {cards})", pile) : t("Draw pile, {cards}", pile));

  clear(discard);
  const top = cardFace(view.top, { size: "big" });
  top.setAttribute("aria-label", n("Top of the discard pile: {card} ({n} card in the pile)", "Top of the discard pile: {card} ({n} cards in the pile)", view.discard_size, { card: cardName(view.top) }));
  const under = view.discard_size > 1 ? h("span", { class: "under", "aria-hidden": "true" }) : null;
  if (slapOpen) {
    const slap = view.slap;
    const mine = canSlap;
    const target = h(mine ? "button" : "div", {
      class: `htd-slap${mine ? " live" : ""}`,
      type: mine ? "button" : null,
      "aria-keyshortcuts": mine ? "Space" : null,
      "aria-label": mine ? t("Slap the pile! (space bar)") : t("Everyone slaps the pile"),
    }, under, top, h("span", { class: "slap-word", "aria-hidden": "true" }, handIcon("mini"), mine ? t("SLAP!") : me !== null && !slap.waiting.includes(me) ? t("slapped") : t("slap!")), slapBar);
    if (mine) {
      target.addEventListener("pointerdown", (ev) => { ev.preventDefault(); slapNow(fresh(st)); });
      target.addEventListener("click", () => slapNow(fresh(st)));
    }
    discard.append(target);
    if (mine) st.focusIfIdle(target);
    runSlapBar(st);
  } else {
    discard.append(h("div", { class: "htd-top" }, under, top));
  }
  felt.classList.toggle("slapping", slapOpen);

  clear(obligation);
  const ob = view.obligation;
  obligation.className = "htd-obligation";
  if (ob && ob.startsWith("number ")) {
    const number = Number(ob.slice(7));
    obligation.classList.add("on");
    obligation.append(h("span", { class: "ob-big" }, String(number)), h("span", {}, t("Play a {number} (or a Hit the Deck card)", { number })));
  } else if (ob && ob.startsWith("colour ")) {
    const c = ob.slice(7);
    obligation.classList.add("on", `c-${c}`);
    obligation.append(h("span", { class: `ob-disc c-${c}` }, colourMark(c)), h("span", {}, t("Play {colour} (or a Hit the Deck card)", { colour: colourName(c) })));
  } else if (ob === "any" && view.phase === "play") {
    obligation.classList.add("on", "any");
    obligation.append(h("span", {}, t("Any card may be played")));
  }
}

// The slap window running out, as a shrinking bar (from the server's window).
function runSlapBar({ ctx, els, mem }) {
  const timed = ctx.timed;
  if (!timed || !ctx.live) return;
  if (!mem.barAnim || mem.barAnim.phase !== timed.phase) {
    // a view sent after the signal (a sync, a reconnection) says how much time is left
    const gone = timed.remaining_ms === undefined ? 0 : timed.window_ms - timed.remaining_ms;
    mem.barAnim = { phase: timed.phase, start: performance.now() - gone, ms: timed.window_ms };
  }
  const { start, ms } = mem.barAnim;
  const gone = Math.min(1, (performance.now() - start) / ms);
  if (els.slapBar.animate && !reduced()) {
    els.slapBar.animate([{ transform: `scaleX(${1 - gone})` }, { transform: "scaleX(0)" }],
      { duration: Math.max(0, ms * (1 - gone)), fill: "forwards", easing: "linear" });
  }
}

// ------------------------------------------------------------------ the bar: status, actions, shout
function actionButton(st, action, text, key, aria) {
  const b = h("button", { class: "button htd-act", type: "button", "data-action": action, "aria-keyshortcuts": key, "aria-label": aria || t("{action} (key {key})", { action: text, key }) }, text, h("kbd", { "aria-hidden": "true" }, key));
  b.addEventListener("click", () => act(fresh(st), action));
  return b;
}

function drawBar(st) {
  const { view, els, mem, myTurn, canSlap } = st;
  const { actions, shoutBtn, status } = els;
  clear(actions);
  const legal = new Set(myTurn ? view.legal : []);
  if (legal.has("cut")) actions.append(actionButton(st, "cut", t("Cut the deck"), "C"));
  if (legal.has("swap")) actions.append(actionButton(st, "swap", t("Swap the piles"), "S"));
  if (legal.has("draw")) actions.append(actionButton(st, "draw", t("Draw a card"), "D"));
  if (legal.has("pass")) actions.append(actionButton(st, "pass", view.phase === "drawn" ? t("Keep it (pass)") : t("Pass"), "P"));
  shoutBtn.hidden = !(myTurn && (view.phase === "play" || view.phase === "drawn"));
  shoutBtn.classList.toggle("urgent", Boolean(mem.waiting));
  status.textContent = statusText(st);
  status.classList.toggle("mine", myTurn || canSlap);
}

function statusText(st) {
  const { view, ctx, mem, me, name, myTurn, slapOpen, canSlap, shoutMs } = st;
  if (view.outcome) return resultText(st);
  if (slapOpen) {
    const who = view.slap.player;
    const played = view.slap.shouted ? t("{who} played Hit the Deck With a Hand", { who: name(who) }) : t("{who} played Hit the Deck With a Hand without the shout", { who: name(who) });
    if (me !== null && view.slap.mine !== null && view.slap.mine !== undefined) {
      return n("{played}. You slapped in {time}: waiting for {n} other…", "{played}. You slapped in {time}: waiting for {n} others…", view.slap.waiting.length, { played, time: secs(view.slap.mine) });
    }
    if (canSlap) return t("{played}: SLAP THE PILE! (click it, tap it or press space)", { played });
    if (ctx.timed && mem.slappedPhase === ctx.timed.phase) return t("Slapped! The server is timing it…");
    return t("{played}: everyone slaps the pile…", { played });
  }
  const seat = view.to_act[0];
  if (seat === undefined) return "";
  if (myTurn) {
    if (view.phase === "cut") return t("A Cut the Deck: cut the deck (press the draw pile or C).");
    if (view.phase === "swap") return t("A Flip the Deck: swap the piles (press the draw pile or S).");
    if (view.phase === "drawn") return view.legal.length > 1 ? t("You drew a card that fits: play it, or keep it.") : t("The card you drew does not fit: keep it (pass).");
    if (mem.waiting) return t("SHOUT NOW! Press “Hit the Deck!” or H (your With a Hand waits {seconds} s).", { seconds: shoutMs / 1000 });
    if (view.legal.includes("draw")) return t("Nothing in your hand fits: draw a card.");
    if (view.legal.includes("pass")) return t("Nothing fits and nothing is left to draw: pass.");
    return t("Your turn: play a card on {card}.", { card: cardName(view.top) });
  }
  const who = name(seat);
  if (view.phase === "cut") return t("{who} must cut the deck.", { who });
  if (view.phase === "swap") return t("{who} must swap the piles.", { who });
  if (view.phase === "drawn") return t("{who} drew a card.", { who });
  return t("{who} to play.", { who });
}

// ------------------------------------------------------------------ your hand
function handReason(st, card) {
  const { view, ctx, label, myTurn, slapOpen } = st;
  const ok = myTurn && (view.phase === "play" || view.phase === "drawn") && view.legal.includes(card);
  if (!ctx.live) return null;
  if (view.phase === "over") return t("the game is over");
  if (slapOpen) return t("slap the pile first");
  if (!myTurn) return t("wait for {who}", { who: label(view.to_act[0]) });
  if (view.phase === "cut") return t("cut the deck first");
  if (view.phase === "swap") return t("swap the piles first");
  if (!ok) return (view.why_not && view.why_not[card]) || t("not playable now");
  return null;
}

function drawHand(st) {
  const { view, before, ctx, els, mem, me, myTurn } = st;
  const { hand, keysHelp } = els;
  const hadFocus = hand.contains(document.activeElement);
  const focusedCard = hadFocus ? document.activeElement.dataset.card : null;
  clear(hand);
  if (me === null || !view.hand) { hand.hidden = true; keysHelp.hidden = true; return; }
  hand.hidden = false;
  keysHelp.hidden = !ctx.live;
  const mine = myTurn && (view.phase === "play" || view.phase === "drawn");
  const legal = new Set(view.legal);
  const justDrawn = drawnCard(st);
  const buttons = view.hand.map((card) => {
    const b = cardFace(card, { button: ctx.live });
    const ok = mine && legal.has(card);
    const reason = handReason(st, card);
    if (card === justDrawn && view.phase === "drawn" && myTurn) b.classList.add("fresh");
    if (mine && !ok) b.classList.add("illegal");
    if (mem.waiting && mem.waiting.card === card) b.classList.add("in-the-air");
    if (ctx.live) {
      if (reason) {
        b.setAttribute("aria-disabled", "true");
        b.setAttribute("title", reason);
        b.setAttribute("aria-label", `${cardName(card)}: ${reason}`);
      } else {
        b.classList.add("playable");
        const playIt = card === "hit hand" ? t("Play {card} (shout with it: H)", { card: cardName(card) }) : t("Play {card}", { card: cardName(card) });
        b.setAttribute("aria-label", playIt);
        b.setAttribute("title", playIt);
      }
      b.addEventListener("click", () => {
        if (reason) { ctx.say(`${cardName(card)}: ${reason}`, "error"); return; }
        play(st, card, b);
      });
    }
    return b;
  });
  hand.append(...buttons);
  if (!buttons.length) return;
  let idx = focusedCard ? view.hand.indexOf(focusedCard) : -1;
  if (idx < 0) idx = Math.max(0, buttons.findIndex((b) => b.classList.contains("playable")));
  setRoving(buttons, idx);
  if (hadFocus) buttons[idx].focus({ preventScroll: true });
  else if (mine && (!before || !before.to_act.includes(me))) st.focusIfIdle(buttons[idx]);
  fitHand(els);
}

// The card just drawn (the one more in the hand than before), to point it out.
function drawnCard({ view, before }) {
  if (!before || !before.hand || !view.hand || view.phase !== "drawn") return null;
  const rest = [...before.hand];
  for (const c of view.hand) {
    const i = rest.indexOf(c);
    if (i >= 0) rest.splice(i, 1); else return c;
  }
  return null;
}

const fitHand = ({ hand }) => fitRow(hand, ".hcard", 0.7, 8);

// ------------------------------------------------------------------ acting
function act(st, text) {
  const { view, ctx, myTurn } = st;
  if (!ctx.live || !view || !myTurn) return false;
  if (!view.legal.includes(text)) return false;
  return ctx.act(text);
}

// A card pressed in the hand. A With a Hand goes with the shout if the shout came within
// the window; otherwise it waits, lifted, for the shout (or goes without it).
function play(st, card, button) {
  const { mem, els, shoutMs } = st;
  if (mem.waiting) return;
  if (card !== "hit hand") {
    if (act(fresh(st), card)) button.classList.add("leaving");
    return;
  }
  if (performance.now() - mem.shoutAt <= shoutMs) {
    if (act(fresh(st), "hit hand!")) button.classList.add("leaving");
    return;
  }
  button.classList.add("in-the-air");
  mem.waiting = { card, timer: setTimeout(() => { const w = mem.waiting; mem.waiting = null; if (w) act(fresh(st), "hit hand"); }, shoutMs) };
  drawBar(fresh(st));
  els.shoutBtn.focus({ preventScroll: true });
}

function cancelWaiting(mem) {
  if (!mem.waiting) return;
  clearTimeout(mem.waiting.timer);
  mem.waiting = null;
}

function shout(st) {
  const { ctx, els, mem, me } = st;
  if (!ctx.live || me === null) return;
  mem.shoutAt = performance.now();
  bubble(st, me, t("HIT THE DECK!"), "shout");
  els.shoutBtn.classList.remove("pressed");
  void els.shoutBtn.offsetWidth; // restart the press animation
  els.shoutBtn.classList.add("pressed");
  if (mem.waiting) {
    cancelWaiting(mem);
    act(st, "hit hand!");
  }
}

// The slap: the page sends only "react"; the server times it from its own signal.
function slapNow(st) {
  const { ctx, els, mem, me, canSlap } = st;
  if (!canSlap) return;
  const phase = ctx.timed.phase;
  if (!ctx.react()) return;
  mem.slappedPhase = phase;
  playSound("slap");
  const now = fresh(st);
  drawCentre(now);
  drawBar(now);
  const target = els.discard.querySelector(".htd-slap");
  if (target) target.classList.add("hit");
  bubble(st, me, t("SLAP!"), "slap");
}

function onKey(st, ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const el = ev.target;
  if (el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA" || el.isContentEditable)) return;
  const { view, ctx, els, myTurn, slapOpen } = st;
  if (!view || !ctx.live) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if ((key === " " || key === "Spacebar") && slapOpen) {
    ev.preventDefault();
    if (!ev.repeat) slapNow(st);
    return;
  }
  if (ev.repeat) return;
  if (key === "h" && !els.shoutBtn.hidden) { ev.preventDefault(); shout(st); return; }
  const map = { d: "draw", p: "pass", c: "cut", s: "swap" };
  if (map[key] && myTurn && view.legal.includes(map[key])) { ev.preventDefault(); act(st, map[key]); }
}

// The draw pile pressed: cut, swap or draw, whichever is legal.
function pressDrawPile(st) {
  if (!st.myTurn) return;
  for (const a of ["cut", "swap", "draw"]) if (st.view.legal.includes(a)) { act(st, a); return; }
}

// ------------------------------------------------------------------ animation
function bubble({ view, els }, seat, text, kind = "") {
  if (!view) return;
  const plate = els.seatsLayer.querySelector(`.htd-plate[data-seat="${seat}"]`);
  if (!plate) return;
  const b = h("span", { class: `bubble ${kind}`, "aria-hidden": "true" }, text);
  plate.append(b);
  setTimeout(() => b.remove(), 1400);
}

function centreOf(felt, el) {
  const r = el.getBoundingClientRect();
  const f = felt.getBoundingClientRect();
  return { x: r.left + r.width / 2 - f.left, y: r.top + r.height / 2 - f.top };
}

// A card flying over the felt from one element to another.
function fly({ felt }, card, fromEl, toEl, { delay = 0, duration = 260, midLift = 0 } = {}) {
  if (reduced() || !fromEl || !toEl || !felt.animate) return;
  const a = centreOf(felt, fromEl);
  const b = centreOf(felt, toEl);
  const el = cardFace(card, { size: "big" });
  el.classList.add("flyer");
  el.setAttribute("aria-hidden", "true");
  felt.append(el);
  const w = el.offsetWidth;
  const hgt = el.offsetHeight;
  const at = (p, extra = "") => `translate(${p.x - w / 2}px, ${p.y - hgt / 2}px) ${extra}`;
  const mid = { x: (a.x + b.x) / 2, y: Math.min(a.y, b.y) - midLift };
  const anim = el.animate([
    { transform: at(a, "scale(.6)"), opacity: 0.2 },
    { transform: at(mid, "scale(1.1) rotate(-8deg)"), opacity: 1, offset: 0.55 },
    { transform: at(b), opacity: 1 },
  ], { duration, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "both" });
  anim.onfinish = () => el.remove();
  anim.oncancel = () => el.remove();
}

// One step of play (not a replay's jump or a reconnect's catching up): the cards others
// play fly to the pile, a cut card flies out of the draw pile, a swap trades the piles,
// and a caption says what happened. The card that opens a slap does not travel: it is on
// the pile, as the slap target, the moment the view arrives (nothing delays the signal).
function animateStep(st) {
  const { view: after, before, ctx, els, me, name, yours } = st;
  if (!before || before.round !== after.round || after.played.length - before.played.length > 1 ||
      after.events.length - before.events.length > 3) return;
  const plays = after.played.slice(before.played.length);
  const opensSlap = after.phase === "slap" && before.phase !== "slap";
  if (plays.length || after.events.length > before.events.length) soonHideResult(st);
  if (ctx.live && opensSlap) playSound("slap");
  else if (ctx.live && plays.length) playSound("card");
  for (const [seat, action] of plays) {
    const plate = els.seatsLayer.querySelector(`.htd-plate[data-seat="${seat}"]`);
    if (seat !== me && !opensSlap) fly(els, action === "hit hand!" ? "hit hand" : action, plate, els.discard, { duration: 260 });
    if (action === "hit hand!") requestAnimationFrame(() => bubble(st, seat, t("HIT THE DECK!"), "shout"));
  }
  for (const e of after.events.slice(before.events.length)) {
    if (e.type === "cut" && e.card) {
      els.drawPile.classList.remove("cut-anim");
      void els.drawPile.offsetWidth;
      els.drawPile.classList.add("cut-anim");
      fly(els, e.card, els.drawPile, els.discard, { delay: 250, duration: 300, midLift: 60 });
      say(st, t("{who} cut the deck: {card} came up from the middle.", { who: name(e.seat), card: cardName(e.card) }));
    } else if (e.type === "swap") {
      swapAnimation(els);
      const who = name(e.seat);
      say(st, !e.card ? t("{who} had nothing to swap: play turns round.", { who })
        : after.direction === "left" ? t("{who} swapped the piles: play turns round (now left); the top is {card}.", { who, card: cardName(e.card) })
          : t("{who} swapped the piles: play turns round (now right); the top is {card}.", { who, card: cardName(e.card) }));
    } else if (e.type === "flip back") {
      say(st, t("A second Flip in a row goes back into the draw pile."));
    } else if (e.type === "reshuffle") {
      say(st, t("The discards are shuffled into a new draw pile ({cards}).", { cards: cards(e.cards) }));
    } else if (e.type === "penalty") {
      requestAnimationFrame(() => bubble(st, e.seat, t("forgot to shout! +{n}", { n: e.cards }), "penalty"));
      say(st, yours(e.seat, t("You forgot to shout and draw {n}.", { n: e.cards }), (who) => t("{who} forgot to shout and draws {n}.", { who, n: e.cards })));
    }
  }
}

function swapAnimation({ felt, pileWrap, drawPile, discard, ring }) {
  if (reduced() || !pileWrap.animate) return;
  const a = centreOf(felt, drawPile);
  const b = centreOf(felt, discard);
  const dx = b.x - a.x;
  drawPile.animate([{ transform: `translateX(${dx}px)` }, { transform: `translateX(${dx / 2}px) translateY(-18px) rotate(8deg)`, offset: 0.5 }, { transform: "none" }], { duration: 300, easing: "ease-in-out" });
  discard.animate([{ transform: `translateX(${-dx}px)` }, { transform: `translateX(${-dx / 2}px) translateY(18px) rotate(-8deg)`, offset: 0.5 }, { transform: "none" }], { duration: 300, easing: "ease-in-out" });
  const c = "translate(-50%, -50%)";
  ring.animate([{ transform: `${c} rotate(0deg)` }, { transform: `${c} rotate(180deg) scaleX(-1)` }, { transform: c }], { duration: 450, easing: "ease-in-out" });
}

function say({ els: { caption }, mem }, text) {
  caption.textContent = text;
  caption.classList.remove("show");
  void caption.offsetWidth;
  caption.classList.add("show");
  clearTimeout(mem.captionTimer);
  mem.captionTimer = setTimeout(() => caption.classList.remove("show"), 4000);
}

// ------------------------------------------------------------------ the slap result
const slapKey = (s) => (s ? `${s.round}:${s.player}:${s.ms.join(",")}:${s.slowest}` : null);

// Everyone's time and who was last, large on the felt for a while (then in the side panel).
function showSlapResult(st) {
  const { view, before, els: { slapResult }, mem } = st;
  const s = view.last_slap;
  const key = slapKey(s);
  if (!s || key === mem.shownSlap) return;
  mem.shownSlap = key;
  if (before === null) return; // a slap over before this page opened: only in the side panel
  clear(slapResult);
  slapResult.append(slapTable(st, s, true));
  slapResult.hidden = false;
  mem.resultShownAt = performance.now();
  clearTimeout(mem.resultTimer);
  mem.resultTimer = setTimeout(() => { slapResult.hidden = true; }, 3500);
}

// The table has moved on: the slap result gives way (after 1.5 s on show at least).
function soonHideResult({ els: { slapResult }, mem }) {
  if (slapResult.hidden) return;
  clearTimeout(mem.resultTimer);
  const left = Math.max(0, 1500 - (performance.now() - mem.resultShownAt));
  mem.resultTimer = setTimeout(() => { slapResult.hidden = true; }, left);
}

// ------------------------------------------------------------------ mount
export function mount(root, ctx) {
  const seatsLayer = h("div", { class: "htd-seats" });
  const ring = h("div", { class: "htd-ring", "aria-hidden": "true" },
    h("span", { class: "arrow a1" }, "➜"), h("span", { class: "arrow a2" }, "➜"), h("span", { class: "arrow a3" }, "➜"));
  const direction = h("p", { class: "htd-direction" });
  const drawPile = h("button", { class: "htd-draw", type: "button" });
  const discard = h("div", { class: "htd-discard" });
  const slapBar = h("span", { class: "htd-slap-bar", "aria-hidden": "true" });
  const pileWrap = h("div", { class: "htd-piles" }, drawPile, discard);
  const obligation = h("div", { class: "htd-obligation", "aria-live": "polite" });
  const caption = h("p", { class: "htd-caption", "aria-hidden": "true" });
  const centre = h("div", { class: "htd-centre" }, direction, pileWrap, obligation, caption);
  const slapResult = h("div", { class: "htd-slap-result", hidden: "", role: "status" });
  const final = h("div", { class: "htd-final", hidden: "" });
  const felt = h("div", { class: "htd-felt" }, ring, seatsLayer, centre, slapResult, final);
  const status = h("p", { class: "htd-status", "aria-live": "polite" });
  const shoutBtn = h("button", { class: "htd-shout", type: "button", "aria-keyshortcuts": "H",
    "aria-label": t("Shout {shout} (key H)", { shout: shoutText() }), title: t("Shout {shout} (key H)", { shout: shoutText() }) },
  h("span", { class: "shout-big" }, t("Hit the Deck!")), h("span", { class: "shout-small" }, t("With a Hand · H")));
  const actions = h("div", { class: "htd-actions", role: "group", "aria-label": t("Your actions") });
  const bar = h("div", { class: "htd-bar" }, status, actions, shoutBtn);
  const hand = h("div", { class: "htd-hand", role: "toolbar", "aria-label": t("Your hand") });
  const keysHelp = h("p", { class: "htd-keys muted small" }, t("Keys: Space slaps · H shouts · D draws · P passes · C cuts · S swaps"));
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const side = h("aside", { class: "htd-side", "aria-label": t("Scores and log") });
  const main = h("div", { class: "htd-play" }, felt, bar, hand, keysHelp, narrator);
  const board = tableOf(root, ctx, "htd", main, side);
  rovingFocus(hand);

  const els = { root: board.el, seatsLayer, ring, direction, drawPile, discard, slapBar, pileWrap, obligation, caption,
    slapResult, final, felt, status, shoutBtn, actions, hand, keysHelp, narrator, side };
  // The table's memory: the latest view and the one before; the phase this page has
  // slapped in; what the log has told and its lines; when the shout was last pressed
  // (performance.now()); a With a Hand played before the shout ({timer, card}); the slap
  // result last shown (its key) and its timer; the caption's timer; the slap bar's run.
  const mem = { view: null, prev: null, slappedPhase: null, told: { round: 0, events: 0, played: 0 }, logLines: [],
    shoutAt: -Infinity, waiting: null, shownSlap: null, resultTimer: null, resultShownAt: 0, captionTimer: null, barAnim: null };
  const now = () => stateOf(mem.view, mem.prev, ctx, board.seat, els, mem);

  // The state: the new view and the one before; a With a Hand waiting for its shout is
  // dropped when it can no longer be played.
  function state(view, before) {
    mem.view = view;
    mem.prev = before;
    const st = now();
    if (mem.waiting && !(st.myTurn && view.legal.includes("hit hand"))) cancelWaiting(mem);
    return st;
  }

  shoutBtn.addEventListener("click", () => shout(now()));
  drawPile.addEventListener("click", () => pressDrawPile(now()));
  board.on(document, "keydown", (ev) => onKey(now(), ev), true);
  // Seats are placed by measuring: again whenever the felt changes size (the stylesheet
  // arriving, the window or the side panel moving).
  const onResize = () => { if (mem.view) { const st = now(); drawSeats(st); fitHand(els); fitFelt(st); } };
  const watcher = window.ResizeObserver ? new ResizeObserver(onResize) : null;
  if (watcher) watcher.observe(felt);
  board.on(window, "resize", onResize);

  return board.renderer({
    state,
    draw: [animateStep, drawSeats, drawCentre, drawBar, drawHand, tell, drawSide, showSlapResult, drawFinal, fitFelt],
    refused() {
      for (const b of hand.querySelectorAll(".leaving")) b.classList.remove("leaving");
    },
    destroy() {
      cancelWaiting(mem);
      clearTimeout(mem.resultTimer);
      clearTimeout(mem.captionTimer);
      if (watcher) watcher.disconnect();
    },
  });
}
