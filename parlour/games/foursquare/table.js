// The Foursquare table: the 7 x 7 frame the grid grows in (columns a-g, rows 1-7, as at the
// terminal), the cells where the card in hand may go marked, each pile drawn with its height
// and the cards under its top (shown on hover or focus), face-down tops as card backs. The
// card in hand, the stock, the face-down tops against the limit of four, the deal number
// (with a link that deals it again), a hint from the solver, and this browser's best scores.
// Click or tap a marked cell; or move over the cells with the arrow keys and press Enter.

import { h, clear, loadStyle, focusIsFree } from "../../dom.js";
import { tableOf } from "../../tables/table.js";
import { cardBack, cardChip, cardFace, cardName, pretty, richText, spoken } from "../../tables/cards.js";
import { t, n, p } from "../../i18n.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/games/foursquare/table.css")]);

const COLS = "abcdefg";
const FRAME = 7;
const SIZE = 4;
const MAX_DOWN = 4;
const BEST_KEY = "parlour.foursquare.best";
const COUNTED_KEY = "parlour.foursquare.counted";
const cards = (count) => n("{n} card", "{n} cards", count);
const games = (count) => n("{n} game", "{n} games", count);
const cellName = (r, c) => `${COLS[c]}${r + 1}`;

// Why the game ended (the view keeps the English reason) in the reader's language.
function endReason(reason) {
  if (reason === "all sixteen piles show their faces") return t("all sixteen piles show their faces");
  if (reason === "the stock ran out") return t("the stock ran out");
  if (reason === `more than ${MAX_DOWN} face-down tops`) return t("more than {count} face-down tops", { count: MAX_DOWN });
  return reason;
}
const chip = (card) => cardChip(card);

// ----------------------------------------------------------------------------- best scores
// Kept in this browser only, per display name: games, wins, the best score (cards left in
// the stock on a win), and per deal number the games and the best score.
function loadBest() {
  try { return JSON.parse(localStorage.getItem(BEST_KEY) || "{}") || {}; } catch { return {}; }
}
export function bestOf(name) {
  const entry = loadBest()[name] || {};
  return { games: entry.games || 0, wins: entry.wins || 0, best: entry.best ?? null, deals: entry.deals || {} };
}
function countGame(key, name, deal, won, score) {
  let counted = [];
  try { counted = JSON.parse(localStorage.getItem(COUNTED_KEY) || "[]"); } catch { counted = []; }
  if (counted.includes(key)) return false; // a reloaded page does not count a game twice
  counted.push(key);
  localStorage.setItem(COUNTED_KEY, JSON.stringify(counted.slice(-200)));
  const all = loadBest();
  const e = bestOf(name);
  e.games += 1;
  if (won) {
    e.wins += 1;
    e.best = e.best === null ? score : Math.max(e.best, score);
  }
  if (deal !== null && deal !== undefined) {
    const d = e.deals[deal] || { games: 0, best: null };
    d.games += 1;
    if (won) d.best = d.best === null ? score : Math.max(d.best, score);
    e.deals[deal] = d;
  }
  all[name] = e;
  localStorage.setItem(BEST_KEY, JSON.stringify(all));
  return true;
}

// The cursor of the grid (one tab stop, the arrow keys move it): on cell `index`.
function moveCursor(els, mem, index, focus) {
  mem.cursor = index;
  els.cells.forEach((el, i) => { el.tabIndex = i === mem.cursor ? 0 : -1; el.classList.toggle("cursor", i === mem.cursor); });
  if (focus) els.cells[mem.cursor].focus({ preventScroll: true });
}

// Who plays this solitaire, for the record kept in this browser.
function playerName(ctx) {
  const table = ctx.table;
  const s = table && table.seats ? table.seats[0] : null;
  return s ? (s.kind === "bot" ? t("{bot} bot", { bot: s.bot }) : s.name || p("seat", "player")) : p("seat", "player");
}

// What every piece reads: the view and the one before, whether it is a new position, the
// server's narration, the page's context, the table's elements, and the table's memory
// (the cursor, a hint asked or shown, the deal number, the sentences told).
function stateOf(view, before, extra, ctx, seat, els, mem) {
  const me = seat.me();
  return {
    view, before, ctx, els, mem, me,
    fresh: Boolean(extra.fresh),
    narration: extra.narration || null,
    playing: ctx.live && me !== null && Boolean(view) && view.to_act.includes(me) && view.legal.length > 0,
    playerName: () => playerName(ctx),
  };
}

// A finished game counts once in this browser's record of the player's games.
function countFinished(st) {
  const { view, ctx, mem, me, playerName } = st;
  if (!(view.outcome && ctx.live && me !== null && ctx.table)) return;
  const won = view.result === "won";
  countGame(`${ctx.table.id}:${ctx.table.match}`, playerName(), mem.deal, won, won ? view.score : null);
  drawBest(st);
}

// ------------------------------------------------------------------ the grid
function actionsByCell(st) {
  const { view, playing } = st;
  const out = new Map();
  if (!playing) return out;
  for (const text of view.legal) out.set(text.split(" ").pop(), text);
  return out;
}

function reach(st) {
  const { view } = st;
  // The rows and columns a pile may still reach: the grid is at most 4 x 4.
  if (!view.box) return { r0: 0, r1: FRAME - 1, c0: 0, c1: FRAME - 1 };
  const [tl, br] = view.box;
  const top = Number(tl.slice(1)) - 1, left = COLS.indexOf(tl[0]);
  const bottom = Number(br.slice(1)) - 1, right = COLS.indexOf(br[0]);
  return { r0: Math.max(0, bottom - SIZE + 1), r1: Math.min(FRAME - 1, top + SIZE - 1),
    c0: Math.max(0, right - SIZE + 1), c1: Math.min(FRAME - 1, left + SIZE - 1) };
}

function drawGrid(st) {
  const { view, els, mem, playing } = st;
  const { frame, cells } = els;
  const fresh = st.fresh;
  const legal = actionsByCell(st);
  const { r0, r1, c0, c1 } = reach(st);
  const last = view.last;
  const turned = new Set(fresh && last ? last.flipped : []);
  const placedAt = fresh && last ? last.action.split(" ").pop() : null;
  frame.classList.toggle("live", playing);
  cells.forEach((el, i) => {
    const r = Math.floor(i / FRAME), c = i % FRAME;
    const name = cellName(r, c);
    const pile = view.piles[name];
    const action = legal.get(name);
    clear(el);
    el.className = "fs-cell";
    el.classList.toggle("cursor", i === mem.cursor);
    if (r < r0 || r > r1 || c < c0 || c > c1) el.classList.add("out");
    if (action) el.classList.add("legal", action.startsWith("stack") ? "stack" : "place");
    if (mem.hinted && mem.hinted.action === action) el.classList.add("hinted");
    el.dataset.action = action || "";
    el.setAttribute("aria-disabled", action ? "false" : "true");
    let label;
    if (pile) {
      const height = pile.cards.length;
      const top = pile.cards[height - 1];
      const under = pile.cards.slice(0, -1);
      el.classList.add("pile", pile.up ? "up" : "down");
      const stack = h("div", { class: "fs-pile", style: { "--n": height - 1 } });
      for (let k = 0; k < height - 1; k++) stack.append(h("span", { class: "fs-edge", style: { "--k": k }, "aria-hidden": "true" }));
      stack.append(pile.up ? cardFace(top, { cls: "rankface fs-top" }) : cardBack({ cls: "fs-top" }));
      el.append(stack, h("span", { class: `fs-height h${height}`, "aria-hidden": "true", title: n("{n} card in this pile", "{n} cards in this pile", height) }, String(height)));
      // Every card of the pile, bottom first: on hover or focus (the player saw each one).
      if (height > 1 || !pile.up) el.append(h("span", { class: "fs-fan", "aria-hidden": "true" },
        ...pile.cards.map((card, k) => h("span", { class: `fs-fan-card${k === height - 1 ? " top" : ""}${k === height - 1 && !pile.up ? " facedown" : ""}` }, chip(card))),
        pile.up ? null : h("small", {}, t("top face down"))));
      const facts = { cell: name, cards: cards(height), card: cardName(top) };
      label = pile.up ? t("{cell}: {cards}, top {card} face up", facts) : t("{cell}: {cards}, top face down ({card})", facts);
      if (under.length) label = t("{pile}; under it {cards}", { pile: label, cards: under.map(cardName).join(", ") });
    } else {
      label = t("{cell}: empty", { cell: name });
      if (action) el.append(h("span", { class: "fs-slot", "aria-hidden": "true" }, "+"));
    }
    if (action) label += ". " + (action.startsWith("stack") ? t("Stack the card in hand here") : t("Place the card in hand here"));
    if (mem.hinted && mem.hinted.action === action) label += " " + t("(the hint)");
    el.setAttribute("aria-label", label);
    el.title = pile ? `${name}: ${pile.cards.map(pretty).join(" ")}` + (pile.up ? "" : " " + t("(top face down)")) : name;
    if (turned.has(name)) { el.classList.add("turned"); }
    if (placedAt === name) el.classList.add("placed");
  });
  moveCursor(els, mem, mem.cursor, false);
}

// ------------------------------------------------------------------ side panel
function drawSide(st) {
  const { view, ctx, els, mem, me, playing } = st;
  const { handBox, stockBox, downBox, dealBox, hintButton } = els;
  clear(dealBox);
  if (mem.deal !== null && mem.deal !== undefined) {
    const params = new URLSearchParams({ deal: String(mem.deal) });
    const flip = view.options && view.options.flip;
    if (flip && flip !== "designer") params.set("flip", flip);
    const url = `${location.origin}/new/foursquare?${params}`;
    const link = h("input", { class: "fs-deal-link", readonly: "", value: url, "aria-label": t("Link to this deal") });
    const copy = h("button", { class: "button fs-copy", type: "button", "data-url": url, title: t("Copy a link that deals these cards again, for you or a friend") }, t("Copy link"));
    copy.addEventListener("click", async () => {
      link.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand("copy"); }
      ctx.say(t("Link to deal #{deal} copied.", { deal: String(mem.deal) }));
    });
    dealBox.append(h("h2", { class: "side-title fs-deal-no" }, t("Deal #{deal}", { deal: String(mem.deal) })), h("div", { class: "fs-share" }, link, copy));
  }
  clear(handBox);
  if (view.card) {
    handBox.append(h("span", { class: "fs-caption" }, view.placed === 0 ? t("First card") : t("In hand")), cardFace(view.card, { cls: "rankface fs-in-hand" }));
    handBox.setAttribute("aria-label", t("Card in hand: {card}", { card: cardName(view.card) }));
  } else {
    handBox.append(h("span", { class: "fs-caption" }, t("In hand")), h("div", { class: "card-slot fs-in-hand" }, "—"));
    handBox.setAttribute("aria-label", t("No card in hand: the game is over"));
  }
  clear(stockBox);
  stockBox.append(view.stock ? cardBack({ small: true }) : h("div", { class: "card-slot small" }), h("span", {}, h("b", { class: "fs-stock-count" }, String(view.stock)), " ", t("in stock")));
  stockBox.setAttribute("aria-label", t("Stock: {cards}", { cards: cards(view.stock) }));
  clear(downBox);
  const pips = h("span", { class: "fs-pips", "aria-hidden": "true" });
  for (let k = 0; k < MAX_DOWN; k++) pips.append(h("i", { class: k < view.face_down ? "on" : "" }));
  downBox.className = `fs-down${view.face_down >= MAX_DOWN ? " danger" : view.face_down >= MAX_DOWN - 1 ? " warn" : ""}`;
  // "2 of 4" while within the limit; the count that lost the game says it went over it
  const down = view.face_down > MAX_DOWN ? t("{n}, over the limit of {most}", { n: view.face_down, most: MAX_DOWN }) : t("{n} of {most}", { n: view.face_down, most: MAX_DOWN });
  downBox.append(h("span", {}, t("Face down"), " ", h("b", { class: "fs-down-count" }, down)), pips);
  downBox.setAttribute("aria-label", n("{n} face-down top; one more than {most} loses", "{n} face-down tops; one more than {most} loses", view.face_down, { most: MAX_DOWN }));
  hintButton.hidden = !ctx.live || me === null || !(ctx.table && ctx.table.hints);
  hintButton.disabled = !playing || mem.asking !== null;
  drawHint(st);
  drawNote(st);
  drawBest(st);
}

function drawNote(st) {
  const { view, els, playing } = st;
  const { note } = els;
  note.classList.remove("result", "won", "lost");
  if (view.outcome) {
    note.textContent = resultText(st);
    note.classList.add("result", view.result);
    return;
  }
  clear(note);
  const card = view.card ? chip(view.card) : "";
  // The card in hand is a chip in the sentence: the text around it comes in two parts.
  if (view.placed === 0) {
    note.append(...(playing ? [t("Place the first card,"), " ", card, " ", t("at d4: the grid starts there.")] : [t("The first card,"), " ", card, " ", t("starts the grid at d4.")]));
  } else {
    note.append(t("Card {number} of 40:", { number: view.placed + 1 }), " ", card, playing ? " " + t("Where does it go?") : "");
  }
}

function resultText(st) {
  const { view, ctx, me, playerName } = st;
  const mine = me !== null && ctx.live;
  const facts = { who: playerName(), score: view.score, reason: endReason(view.reason) };
  if (view.result === "won" && !view.score) return mine ? t("You won with no card left in the stock") : t("{who} won with no card left in the stock", facts);
  if (view.result === "won") return mine ? n("You won with {n} card left in the stock", "You won with {n} cards left in the stock", view.score)
    : n("{who} won with {n} card left in the stock", "{who} won with {n} cards left in the stock", view.score, facts);
  return mine ? t("You lost: {reason}", facts) : t("{who} lost: {reason}", facts);
}

function drawHint(st) {
  const { els, mem } = st;
  const { hintOut } = els;
  clear(hintOut);
  hintOut.classList.toggle("shown", Boolean(mem.hinted));
  if (mem.asking !== null) { hintOut.textContent = t("The solver is thinking…"); return; }
  if (!mem.hinted) return;
  const chance = mem.hinted.chance === null || mem.hinted.chance === undefined ? null : Math.round(mem.hinted.chance * 100);
  hintOut.append(t("Hint:"), " ", h("b", { class: "fs-hint-action" }, ...richText(mem.hinted.words || mem.hinted.action)),
    chance === null ? null : h("span", { class: "fs-hint-chance" }, " · ", t("estimated chance to win {percent}%", { percent: chance })));
}

// ------------------------------------------------------------------ narration
function readEvents(st) {
  const { view, before, ctx, els, mem } = st;
  const { narrator, logList } = els;
  const v = view;
  const narration = st.narration;
  const events = v.events || [];
  if (!ctx.live || (before && v.placed < before.placed)) { mem.told.clear(); clear(logList); }
  const said = [];
  events.forEach((ev, i) => {
    const key = `${ev.n ?? v.placed}:${ev.kind}`;
    if (mem.told.has(key)) return;
    const text = narration && narration[i] ? narration[i] : ev.kind === "end" ? `${ev.result}: ${endReason(ev.reason)}` : `${ev.kind} ${ev.card} ${ev.cell}`;
    mem.told.set(key, text);
    logList.append(h("li", { class: `fs-ev ev-${ev.kind}${ctx.live && before ? " fresh" : ""}` }, ...richText(text)));
    said.push(spoken(text));
  });
  while (logList.children.length > 60) logList.removeChild(logList.firstChild);
  if (ctx.live && before && said.length) narrator.textContent = said.join(" ");
  requestAnimationFrame(() => { logList.scrollTop = logList.scrollHeight; });
}

// ------------------------------------------------------------------ best scores
function bestLines(st) {
  const { mem, playerName } = st;
  const name = playerName();
  const b = bestOf(name);
  const here = mem.deal !== null && mem.deal !== undefined ? b.deals[mem.deal] : null;
  return { name, b, here };
}

function drawBest(st) {
  const { ctx, els, mem, me } = st;
  const { bestBox } = els;
  clear(bestBox);
  if (!ctx.live || me === null) { bestBox.hidden = true; return; }
  bestBox.hidden = false;
  const { name, b, here } = bestLines(st);
  const deal = mem.deal !== null && mem.deal !== undefined;
  bestBox.append(h("h3", {}, t("{name}'s record (this browser)", { name })),
    h("dl", { class: "fs-best-list" },
      h("dt", {}, t("Best score")), h("dd", { class: "fs-best-score" }, b.best === null ? t("no win yet") : b.best ? n("{n} card left", "{n} cards left", b.best) : t("no card left")),
      h("dt", {}, t("Wins")), h("dd", { class: "fs-best-wins" }, t("{wins} of {games}", { wins: b.wins, games: games(b.games) })),
      deal ? h("dt", {}, t("Deal #{deal}", { deal: String(mem.deal) })) : null,
      deal ? h("dd", { class: "fs-best-deal" }, !here ? t("not played before") : here.best === null ? t("{games}, no win", { games: games(here.games) })
        : n("best {n} card left ({games})", "best {n} cards left ({games})", here.best, { games: games(here.games) })) : null));
}

function recordTable(st) {
  const { mem } = st;
  const { name, b, here } = bestLines(st);
  const rows = [[t("Best score"), b.best === null ? t("no win yet") : b.best ? n("{n} card left", "{n} cards left", b.best) : t("no card left")], [t("Wins"), t("{wins} of {games}", { wins: b.wins, games: games(b.games) })]];
  if (mem.deal !== null && mem.deal !== undefined) {
    rows.push([t("Deal #{deal}", { deal: String(mem.deal) }), !here ? "–" : here.best === null ? t("{games}, no win", { games: games(here.games) })
      : n("best {n} card left in {games}", "best {n} cards left in {games}", here.best, { games: games(here.games) })]);
  }
  return h("table", { class: "history-table fs-record" },
    h("caption", { class: "sr-only" }, t("{name}'s Foursquare record in this browser", { name })),
    h("tbody", {}, ...rows.map(([k, val]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, val)))));
}

export function mount(root, ctx) {
  const note = h("p", { class: "fs-note", "aria-live": "polite" });
  const frame = h("div", { class: "fs-frame", role: "grid", "aria-label": t("The grid: columns a to g, rows 1 to 7") });
  const felt = h("div", { class: "fs-felt" }, note, frame);
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const handBox = h("div", { class: "fs-hand", role: "img" });
  const stockBox = h("div", { class: "fs-stock", role: "img" });
  const downBox = h("div", { class: "fs-down", role: "img" });
  const dealBox = h("div", { class: "fs-deal" });
  const hintButton = h("button", { class: "button fs-hint-button", type: "button", "aria-keyshortcuts": "H", title: t("The solver's choice for this card, and its chance to win (key H)") }, t("Hint"));
  const hintOut = h("p", { class: "fs-hint", "aria-live": "polite" });
  const bestBox = h("section", { class: "fs-best", "aria-label": t("Your best scores") });
  const logList = h("ol", { class: "log-list fs-log-list" });
  const side = h("aside", { class: "fs-side", "aria-label": t("Card in hand, stock, hint and log") },
    dealBox,
    h("div", { class: "fs-row" }, handBox, h("div", { class: "fs-counts" }, stockBox, downBox)),
    h("div", { class: "fs-hint-row" }, hintButton, hintOut),
    bestBox,
    h("section", { class: "fs-log", "aria-label": t("What happened") }, h("h3", {}, t("What happened")), logList));
  const board = tableOf(root, ctx, "fs", h("div", { class: "fs-main" }, felt,
    h("p", { class: "muted small fs-help" }, t("Click or tap a marked cell to place the card in hand there: a new pile beside one, or on top of a pile (four cards at most). The arrow keys move over the cells, Enter places, H asks for a hint. Hover over a pile to see the cards under its top.")),
    narrator), side);
  const rootEl = board.el;

  // The 49 cells, made once: the focus and the cursor stay put while views come and go.
  const cells = [];
  frame.append(h("span", { class: "fs-label corner", "aria-hidden": "true" }));
  for (let c = 0; c < FRAME; c++) frame.append(h("span", { class: "fs-label col", "aria-hidden": "true" }, COLS[c]));
  for (let r = 0; r < FRAME; r++) {
    const row = h("div", { class: "fs-grid-row", role: "row" }, h("span", { class: "fs-label row", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < FRAME; c++) {
      const name = cellName(r, c);
      const el = h("button", { class: "fs-cell", type: "button", "data-cell": name, role: "gridcell", tabindex: "-1" });
      el.addEventListener("click", () => choose(name));
      el.addEventListener("focus", () => { mem.cursor = r * FRAME + c; });
      cells.push(el);
      row.append(el);
    }
    frame.append(row);
  }
  const mem = { cursor: 3 * FRAME + 3, hinted: null, asking: null, deal: null, told: new Map() }; // cursor: d4, where the first card goes
  frame.addEventListener("keydown", (ev) => {
    let r = Math.floor(mem.cursor / FRAME), c = mem.cursor % FRAME;
    if (ev.key === "ArrowUp") r = Math.max(0, r - 1);
    else if (ev.key === "ArrowDown") r = Math.min(FRAME - 1, r + 1);
    else if (ev.key === "ArrowLeft") c = Math.max(0, c - 1);
    else if (ev.key === "ArrowRight") c = Math.min(FRAME - 1, c + 1);
    else if (ev.key === "Home") c = 0;
    else if (ev.key === "End") c = FRAME - 1;
    else return;
    ev.preventDefault();
    moveCursor(els, mem, r * FRAME + c, true);
  });


  const onKey = (ev) => {
    if (ev.key !== "h" && ev.key !== "H") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const el = ev.target;
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) return;
    if (document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    askHint();
  };
  board.on(document, "keydown", onKey);
  hintButton.addEventListener("click", askHint);

  let view = null;
  let prev = null;
  const els = { root: rootEl, note, frame, cells, narrator, handBox, stockBox, downBox, dealBox, hintButton, hintOut, bestBox, logList };
  // The state now (for the hint's answer and the handlers), or for a new view.
  const now = (extra = {}) => stateOf(view, prev, extra, ctx, board.seat, els, mem);
  const playing = () => Boolean(view) && now().playing;
  const versionOf = (v) => v.placed;

  // ------------------------------------------------------------------ state -> pieces
  // The state: the new view, whether it is a new position (a card placed, the end), the
  // deal number, and the server's narration; a hint for another position is dropped.
  function state(v, before, extra) {
    const fresh = !view || versionOf(v) !== versionOf(view) || v.result !== view.result;
    prev = view;
    view = v;
    mem.deal = extra.deal !== undefined ? extra.deal : ctx.table ? ctx.table.deal ?? null : null;
    if (mem.hinted && mem.hinted.version !== v.placed) mem.hinted = null;
    if (mem.asking !== null && mem.asking !== v.placed) mem.asking = null;
    return now({ fresh, narration: extra.narration || null });
  }
  const draw = [
    readEvents, drawGrid, drawSide, countFinished,
    ({ fresh }) => { if (playing() && fresh) focusIfIdle(); },
  ];

  function choose(name) {
    const action = actionsByCell(now()).get(name);
    if (!action) {
      if (playing()) ctx.say(t("The card cannot go at {cell}: the marked cells are where it may go.", { cell: name }), "error");
      return;
    }
    cells.forEach((el) => el.classList.remove("leaving"));
    const el = frame.querySelector(`[data-cell="${name}"]`);
    if (el) el.classList.add("leaving");
    ctx.act(action);
  }

  // ------------------------------------------------------------------ hints
  function askHint() {
    if (!playing() || mem.asking !== null || hintButton.hidden) return;
    if (mem.hinted && mem.hinted.version === view.placed) { drawHint(now()); return; }
    if (ctx.hint()) {
      mem.asking = view.placed;
      hintButton.disabled = true;
      hintOut.textContent = t("The solver is thinking…");
    }
  }

  function focusIfIdle() {
    if (!ctx.live || !focusIsFree(rootEl)) return;
    const active = document.activeElement;
    const target = cells[mem.cursor].dataset.action ? mem.cursor : cells.findIndex((el) => el.dataset.action);
    if (target < 0) return;
    moveCursor(els, mem, target, active && rootEl.contains(active));
  }

  // Motion: the card in hand flies to its cell; the next one comes from the stock.
  const motion = {
    scope: rootEl,
    from(el) { return el.classList.contains("fs-in-hand") ? stockBox.getBoundingClientRect() : null; },
  };

  return board.renderer({
    state,
    draw,
    motion,
    hinted(msg) {
      if (!view || msg.version !== view.placed) return;
      mem.asking = null;
      mem.hinted = { version: msg.version, action: msg.action, words: msg.words, chance: msg.chance };
      hintButton.disabled = !playing();
      drawGrid(now());
      drawHint(now());
      const el = frame.querySelector(".fs-cell.hinted");
      if (el) moveCursor(els, mem, cells.indexOf(el), rootEl.contains(document.activeElement));
    },
    refused(msg) {
      for (const el of rootEl.querySelectorAll(".leaving")) el.classList.remove("leaving");
      if (mem.asking !== null && msg.code !== "illegal") {
        mem.asking = null;
        hintButton.disabled = !playing();
        drawHint(now());
      }
    },
    results(v) {
      view = v;
      const mine = board.seat.me() !== null && ctx.live;
      const facts = { who: playerName(ctx), reason: endReason(v.reason), placed: cards(v.placed), left: cards(v.score) };
      const headline = v.result === "won" && !v.score ? (mine ? t("You won with no card left in the stock") : t("{who} won with no card left in the stock", facts))
        : v.result === "won" ? (mine ? n("You won with {n} card left", "You won with {n} cards left", v.score) : n("{who} won with {n} card left", "{who} won with {n} cards left", v.score, facts))
        : mine ? t("You lost: {reason}", facts) : t("{who} lost: {reason}", facts);
      const box = h("div", {},
        h("p", { class: "fs-why" }, v.result === "won" ? t("All sixteen piles face up after {placed}: the score is the {left} left in the stock.", facts) : t("The game ended after {placed}: {reason}.", facts)),
        mine ? recordTable(now()) : null);
      // A lost game scores nothing: its line says what was left, not "0 cards left".
      const scoreText = v.result === "won" ? (v.score ? n("Score: {n} card left in the stock", "Score: {n} cards left in the stock", v.score) : t("Score: no card left in the stock"))
        : n("No score: {n} card was still in the stock", "No score: {n} cards were still in the stock", v.stock);
      return { headline, scoreText, historyTitle: mine ? t("{name}'s record in this browser", { name: playerName(ctx) }) : t("How the game ended"), history: box };
    },
  });
}
