// The Foursquare table: the 7 x 7 frame the grid grows in (columns a-g, rows 1-7, as at the
// terminal), the cells where the card in hand may go marked, each pile drawn with its height
// and the cards under its top (shown on hover or focus), face-down tops as card backs. The
// card in hand, the stock, the face-down tops against the limit of four, the deal number
// (with a link that deals it again), a hint from the solver, and this browser's best scores.
// Click or tap a marked cell; or move over the cells with the arrow keys and press Enter.

import { h, clear, loadStyle, focusIsFree } from "../dom.js";
import { tableOf } from "./table.js";
import { cardBack, cardChip, cardFace, cardName, pretty, richText, spoken } from "./cards.js";

await Promise.all([loadStyle("/static/tables/cards.css"), loadStyle("/static/tables/foursquare.css")]);

const COLS = "abcdefg";
const FRAME = 7;
const SIZE = 4;
const MAX_DOWN = 4;
const BEST_KEY = "parlour.foursquare.best";
const COUNTED_KEY = "parlour.foursquare.counted";
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const cellName = (r, c) => `${COLS[c]}${r + 1}`;
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
  const t = ctx.table;
  const s = t && t.seats ? t.seats[0] : null;
  return s ? (s.kind === "bot" ? `${s.bot} bot` : s.name || "player") : "player";
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
      const n = pile.cards.length;
      const top = pile.cards[n - 1];
      const under = pile.cards.slice(0, -1);
      el.classList.add("pile", pile.up ? "up" : "down");
      const stack = h("div", { class: "fs-pile", style: { "--n": n - 1 } });
      for (let k = 0; k < n - 1; k++) stack.append(h("span", { class: "fs-edge", style: { "--k": k }, "aria-hidden": "true" }));
      stack.append(pile.up ? cardFace(top, { cls: "rankface fs-top" }) : cardBack({ cls: "fs-top" }));
      el.append(stack, h("span", { class: `fs-height h${n}`, "aria-hidden": "true", title: `${plural(n, "card")} in this pile` }, String(n)));
      // Every card of the pile, bottom first: on hover or focus (the player saw each one).
      if (n > 1 || !pile.up) el.append(h("span", { class: "fs-fan", "aria-hidden": "true" },
        ...pile.cards.map((card, k) => h("span", { class: `fs-fan-card${k === n - 1 ? " top" : ""}${k === n - 1 && !pile.up ? " facedown" : ""}` }, chip(card))),
        pile.up ? null : h("small", {}, "top face down")));
      label = `${name}: ${plural(n, "card")}, top ${pile.up ? `${cardName(top)} face up` : `face down (${cardName(top)})`}${under.length ? `; under it ${under.map(cardName).join(", ")}` : ""}`;
    } else {
      label = `${name}: empty`;
      if (action) el.append(h("span", { class: "fs-slot", "aria-hidden": "true" }, "+"));
    }
    if (action) label += `. ${action.startsWith("stack") ? "Stack the card in hand here" : "Place the card in hand here"}`;
    if (mem.hinted && mem.hinted.action === action) label += " (the hint)";
    el.setAttribute("aria-label", label);
    el.title = pile ? `${name}: ${pile.cards.map(pretty).join(" ")}${pile.up ? "" : " (top face down)"}` : name;
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
    const link = h("input", { class: "fs-deal-link", readonly: "", value: url, "aria-label": "Link to this deal" });
    const copy = h("button", { class: "button fs-copy", type: "button", "data-url": url, title: "Copy a link that deals these cards again, for you or a friend" }, "Copy link");
    copy.addEventListener("click", async () => {
      link.select();
      try { await navigator.clipboard.writeText(url); } catch { document.execCommand("copy"); }
      ctx.say(`Link to deal #${mem.deal} copied.`);
    });
    dealBox.append(h("h2", { class: "side-title fs-deal-no" }, `Deal #${mem.deal}`), h("div", { class: "fs-share" }, link, copy));
  }
  clear(handBox);
  if (view.card) {
    handBox.append(h("span", { class: "fs-caption" }, view.placed === 0 ? "First card" : "In hand"), cardFace(view.card, { cls: "rankface fs-in-hand" }));
    handBox.setAttribute("aria-label", `Card in hand: ${cardName(view.card)}`);
  } else {
    handBox.append(h("span", { class: "fs-caption" }, "In hand"), h("div", { class: "card-slot fs-in-hand" }, "—"));
    handBox.setAttribute("aria-label", "No card in hand: the game is over");
  }
  clear(stockBox);
  stockBox.append(view.stock ? cardBack({ small: true }) : h("div", { class: "card-slot small" }), h("span", {}, h("b", { class: "fs-stock-count" }, String(view.stock)), " in stock"));
  stockBox.setAttribute("aria-label", `Stock: ${plural(view.stock, "card")}`);
  clear(downBox);
  const pips = h("span", { class: "fs-pips", "aria-hidden": "true" });
  for (let k = 0; k < MAX_DOWN; k++) pips.append(h("i", { class: k < view.face_down ? "on" : "" }));
  downBox.className = `fs-down${view.face_down >= MAX_DOWN ? " danger" : view.face_down >= MAX_DOWN - 1 ? " warn" : ""}`;
  downBox.append(h("span", {}, "Face down ", h("b", { class: "fs-down-count" }, `${view.face_down} of ${MAX_DOWN}`)), pips);
  downBox.setAttribute("aria-label", `${plural(view.face_down, "face-down top")}; one more than ${MAX_DOWN} loses`);
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
  if (view.placed === 0) note.append(...(playing ? ["Place the first card, ", card, ", at d4: the grid starts there."] : ["The first card, ", card, ", starts the grid at d4."]));
  else note.append(`Card ${view.placed + 1} of 40: `, card, playing ? ". Where does it go?" : "");
}

function resultText(st) {
  const { view, ctx, me, playerName } = st;
  const who = me !== null && ctx.live ? "You" : playerName();
  if (view.result === "won") return `${who} won with ${plural(view.score, "card")} left in the stock`;
  return `${who} lost: ${view.reason}`;
}

function drawHint(st) {
  const { els, mem } = st;
  const { hintOut } = els;
  clear(hintOut);
  hintOut.classList.toggle("shown", Boolean(mem.hinted));
  if (mem.asking !== null) { hintOut.textContent = "The solver is thinking…"; return; }
  if (!mem.hinted) return;
  const chance = mem.hinted.chance === null || mem.hinted.chance === undefined ? null : Math.round(mem.hinted.chance * 100);
  hintOut.append("Hint: ", h("b", { class: "fs-hint-action" }, mem.hinted.action),
    chance === null ? null : h("span", { class: "fs-hint-chance" }, ` · estimated chance to win ${chance}%`));
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
    const text = narration && narration[i] ? narration[i] : ev.kind === "end" ? `${ev.result}: ${ev.reason}` : `${ev.kind} ${ev.card} at ${ev.cell}`;
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
  bestBox.append(h("h3", {}, `${name}'s record (this browser)`),
    h("dl", { class: "fs-best-list" },
      h("dt", {}, "Best score"), h("dd", { class: "fs-best-score" }, b.best === null ? "no win yet" : plural(b.best, "card") + " left"),
      h("dt", {}, "Wins"), h("dd", { class: "fs-best-wins" }, `${b.wins} of ${plural(b.games, "game")}`),
      mem.deal !== null && mem.deal !== undefined ? h("dt", {}, `Deal #${mem.deal}`) : null,
      mem.deal !== null && mem.deal !== undefined ? h("dd", { class: "fs-best-deal" }, !here ? "not played before" : here.best === null ? `${plural(here.games, "game")}, no win` : `best ${plural(here.best, "card")} left (${plural(here.games, "game")})`) : null));
}

function recordTable(st) {
  const { mem } = st;
  const { name, b, here } = bestLines(st);
  const rows = [["Best score", b.best === null ? "no win yet" : `${plural(b.best, "card")} left`], ["Wins", `${b.wins} of ${plural(b.games, "game")}`]];
  if (mem.deal !== null && mem.deal !== undefined) rows.push([`Deal #${mem.deal}`, !here ? "–" : here.best === null ? `${plural(here.games, "game")}, no win` : `best ${plural(here.best, "card")} left in ${plural(here.games, "game")}`]);
  return h("table", { class: "history-table fs-record" },
    h("caption", { class: "sr-only" }, `${name}'s Foursquare record in this browser`),
    h("tbody", {}, ...rows.map(([k, val]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, val)))));
}

export function mount(root, ctx) {
  const note = h("p", { class: "fs-note", "aria-live": "polite" });
  const frame = h("div", { class: "fs-frame", role: "grid", "aria-label": "The grid: columns a to g, rows 1 to 7" });
  const felt = h("div", { class: "fs-felt" }, note, frame);
  const narrator = h("p", { class: "sr-only", "aria-live": "polite" });
  const handBox = h("div", { class: "fs-hand", role: "img" });
  const stockBox = h("div", { class: "fs-stock", role: "img" });
  const downBox = h("div", { class: "fs-down", role: "img" });
  const dealBox = h("div", { class: "fs-deal" });
  const hintButton = h("button", { class: "button fs-hint-button", type: "button", "aria-keyshortcuts": "H", title: "The solver's choice for this card, and its chance to win (key H)" }, "Hint");
  const hintOut = h("p", { class: "fs-hint", "aria-live": "polite" });
  const bestBox = h("section", { class: "fs-best", "aria-label": "Your best scores" });
  const logList = h("ol", { class: "log-list fs-log-list" });
  const side = h("aside", { class: "fs-side", "aria-label": "Card in hand, stock, hint and log" },
    dealBox,
    h("div", { class: "fs-row" }, handBox, h("div", { class: "fs-counts" }, stockBox, downBox)),
    h("div", { class: "fs-hint-row" }, hintButton, hintOut),
    bestBox,
    h("section", { class: "fs-log", "aria-label": "What happened" }, h("h3", {}, "What happened"), logList));
  const t = tableOf(root, ctx, "fs", h("div", { class: "fs-main" }, felt,
    h("p", { class: "muted small fs-help" }, "Click or tap a marked cell to place the card in hand there: a new pile beside one, or on top of a pile (four cards at most). The arrow keys move over the cells, Enter places, H asks for a hint. Hover over a pile to see the cards under its top."),
    narrator), side);
  const rootEl = t.el;

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
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    askHint();
  };
  t.on(document, "keydown", onKey);
  hintButton.addEventListener("click", askHint);

  let view = null;
  let prev = null;
  const els = { root: rootEl, note, frame, cells, narrator, handBox, stockBox, downBox, dealBox, hintButton, hintOut, bestBox, logList };
  // The state now (for the hint's answer and the handlers), or for a new view.
  const now = (extra = {}) => stateOf(view, prev, extra, ctx, t.seat, els, mem);
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
      if (playing()) ctx.say(`The card cannot go at ${name}: the marked cells are where it may go.`, "error");
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
      hintOut.textContent = "The solver is thinking…";
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

  return t.renderer({
    state,
    draw,
    motion,
    hinted(msg) {
      if (!view || msg.version !== view.placed) return;
      mem.asking = null;
      mem.hinted = { version: msg.version, action: msg.action, chance: msg.chance };
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
      const mine = t.seat.me() !== null && ctx.live;
      const who = mine ? "You" : playerName(ctx);
      const headline = v.result === "won" ? `${who} won with ${plural(v.score, "card")} left` : `${who} lost: ${v.reason}`;
      const box = h("div", {},
        h("p", { class: "fs-why" }, v.result === "won" ? `All sixteen piles face up after ${plural(v.placed, "card")}: the score is the ${plural(v.score, "card")} left in the stock.` : `The game ended after ${plural(v.placed, "card")}: ${v.reason}.`),
        mine ? recordTable(now()) : null);
      return { headline, scoreLabel: "Cards left", historyTitle: mine ? `${playerName(ctx)}'s record in this browser` : "How the game ended", history: box };
    },
  });
}
