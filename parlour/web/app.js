// Parlour in the browser: the lobby, the table page (one websocket per page), replays.
// Generic over the games: each game's table is drawn by the ES module its spec names (the
// game list's "renderer", e.g. tables/spades.js), which exports mount(root, ctx) ->
// {update(view), destroy()}.
// Everything shown at a table comes from the view the server sent for this seat.

import { h, toast, clear, icon } from "./dom.js";
import { soundSwitch } from "./sound.js";
import { loadLanguage } from "./i18n.js";
import { dailyEndButtons, dailyPage, leaderboardPage, playersLinks, profilePage, ratedSwitch } from "./players.js";

const app = document.getElementById("app");
const crumbs = document.getElementById("crumbs");
const SEATS_KEY = "parlour.seats";
const NAME_KEY = "parlour.name";

// ----------------------------------------------------------------------------- storage
function loadSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}"); } catch { return {}; }
}
function seatFor(tableId) { return loadSeats()[tableId] || null; }
function keepSeat(tableId, seat, token) {
  const all = loadSeats();
  all[tableId] = { seat, token };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}
function forgetSeat(tableId) {
  const all = loadSeats();
  delete all[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}
function myName() { return localStorage.getItem(NAME_KEY) || ""; }
function keepName(name) { localStorage.setItem(NAME_KEY, name); }

// ----------------------------------------------------------------------------- API
async function api(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data.error && data.error.message) || `the server said ${res.status}`);
  return data;
}

let gamesCache = null;
async function games() {
  if (!gamesCache) gamesCache = await api("GET", "/api/games");
  return gamesCache;
}

// ----------------------------------------------------------------------------- routing
let current = null; // the page being shown: {destroy()}

function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  route();
}

function route() {
  if (current) { current.destroy(); current = null; }
  clear(app);
  clear(crumbs);
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9_-]{1,16})\/replay\/(\d+)$/))) current = replayPage(m[1], Number(m[2]));
  else if ((m = path.match(/^\/rules\/([a-z0-9-]{1,40})$/))) current = rulesPage(m[1]);
  else if ((m = path.match(/^\/t\/([A-Za-z0-9_-]{1,16})$/))) current = location.hash.startsWith("#rejoin=") ? rejoinPage(m[1]) : tablePage(m[1]);
  else if ((m = path.match(/^\/new\/([a-z0-9-]{1,40})$/))) current = newTablePage(m[1], new URLSearchParams(location.search));
  else if ((m = path.match(/^\/u\/([^/]{1,120})$/))) current = profilePage(playersCtx(), m[1]);
  else if ((m = path.match(/^\/leaderboards\/([a-z0-9-]{1,40})$/))) current = leaderboardPage(playersCtx(), m[1]);
  else if (path === "/daily") current = dailyPage(playersCtx());
  else current = lobbyPage();
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-nav]");
  if (!a || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

// A seat's private rejoin link, /t/<table>#rejoin=<secret>: the secret (after "#", never
// sent to a server by the browser) is taken out of the address bar and history at once, then
// traded for a token of the seat, kept like any seat token.
function rejoinPage(tableId) {
  const secret = location.hash.slice("#rejoin=".length);
  history.replaceState(null, "", location.pathname + location.search);
  let destroyed = false;
  app.append(h("p", { class: "muted" }, "Taking your seat…"));
  api("POST", `/api/tables/${tableId}/rejoin`, { secret })
    .then((res) => { keepSeat(tableId, res.seat, res.token); toast("Your seat is on this device now."); })
    .catch((err) => toast(`${err.message} You are watching instead.`, "error"))
    .finally(() => { if (!destroyed) route(); });
  return { destroy() { destroyed = true; } };
}

// What the players' pages (players.js) need of this page.
function playersCtx() { return { app, crumb, api, navigate, keepSeat, myName, games }; }

function crumb(...items) {
  clear(crumbs);
  crumbs.append(...items);
}

// ----------------------------------------------------------------------------- lobby
function lobbyPage() {
  let timer = null;
  const list = h("div", { class: "table-list", "aria-live": "polite" }, h("p", { class: "muted" }, "Looking for tables…"));
  const form = h("form", { class: "create card-panel", "aria-labelledby": "create-title" });
  app.append(
    h("section", { class: "lobby" },
      h("div", { class: "lobby-intro" },
        h("h1", {}, "Card tables, friends and bots"),
        h("p", { class: "muted" }, "Open a table, fill the other seats with bots or send the invite link to friends. No account needed."),
        playersLinks()),
      h("div", { class: "lobby-grid" },
        form,
        h("section", { class: "card-panel", "aria-labelledby": "open-title" },
          h("h2", { id: "open-title" }, "Open and running tables"), list))));
  document.title = "Parlour";
  buildCreateForm(form).catch((err) => form.append(h("p", { class: "error" }, err.message)));

  async function refresh() {
    try {
      const { tables } = await api("GET", "/api/tables");
      renderTableList(list, tables);
    } catch (err) {
      clear(list);
      list.append(h("p", { class: "error" }, `Could not list the tables: ${err.message}`));
    }
  }
  refresh();
  timer = setInterval(refresh, 4000);
  return { destroy() { clearInterval(timer); } };
}

function seatDescription(s) {
  if (s.kind === "bot") return `${s.label}: ${s.bot} bot`;
  return s.taken ? `${s.label}: ${s.name}` : `${s.label}: free`;
}

function renderTableList(list, tables) {
  clear(list);
  if (!tables.length) {
    list.append(h("p", { class: "muted" }, "No tables yet: open one."));
    return;
  }
  const ul = h("ul", { class: "tables" });
  for (const t of tables) {
    const mine = seatFor(t.id);
    const free = t.seats.filter((s) => !s.taken).length;
    const status = t.status === "waiting" ? `waiting for ${free} player${free === 1 ? "" : "s"}` : t.status === "playing" ? "playing" : "finished";
    const action = mine ? "Return to your seat" : t.status === "waiting" && free ? "Join" : "Watch";
    ul.append(h("li", { class: "table-row" },
      h("div", {},
        h("strong", {}, t.game_name), " ",
        h("span", { class: `badge badge-${t.status}` }, status),
        h("div", { class: "muted small" }, t.seats.map(seatDescription).join(" · "))),
      h("a", { class: "button", href: `/t/${t.id}`, "data-nav": "", "aria-label": `${action}: ${t.game_name} table ${t.id}` }, action)));
  }
  list.append(ul);
}

function optionInput(opt, id) {
  if (opt.type === "bool") {
    return h("input", { type: "checkbox", id, name: opt.name, checked: opt.default ? "" : null });
  }
  const attrs = { id, name: opt.name, value: opt.default === null ? "off" : String(opt.default) };
  if ((opt.type === "int" || opt.type === "float") && opt.default !== null) {
    attrs.type = "number";
    if (opt.type === "float") attrs.step = "any";
  } else {
    attrs.type = "text";
  }
  return h("input", attrs);
}

async function buildCreateForm(form) {
  const all = await games();
  clear(form);
  const gameSel = h("select", { id: "new-game", name: "game" }, ...all.map((g) => h("option", { value: g.id }, g.name)));
  const rulesLink = h("a", { class: "small rules-link", href: "/rules/spades", "data-nav": "" }, "Rules");
  const nameIn = h("input", { id: "new-name", name: "name", maxlength: "24", autocomplete: "nickname", value: myName(), placeholder: "e.g. Sam", required: "" });
  const seatsBox = h("fieldset", { class: "seats-editor" });
  const optsBox = h("div", { class: "options-grid" });
  const seatsCount = h("select", { id: "new-seats", name: "seats" });
  const seatsCountWrap = h("label", { class: "field" }, "Players", seatsCount);
  const dealIn = h("input", { id: "new-deal", name: "deal", type: "number", min: "1", step: "1", inputmode: "numeric", placeholder: "random" });
  const dealWrap = h("label", { class: "field", for: "new-deal" }, "Deal number", dealIn,
    h("small", { class: "muted" }, "Leave empty for a random deal; the same number gives the same deal on this server."));
  const publicIn = h("input", { id: "new-public", name: "public", type: "checkbox" });
  const publicWrap = h("label", { class: "field check", for: "new-public" }, publicIn, h("span", {}, "List it in the lobby"),
    h("small", { class: "muted" }, "A table with seats for friends is private unless listed: only your invite link reaches it."));
  const rated = ratedSwitch();
  const turnIn = h("input", { id: "new-turn", name: "turn_seconds", type: "number", min: "0", max: "3600", step: "1", inputmode: "numeric", placeholder: "game's default" });
  const turnWrap = h("label", { class: "field", for: "new-turn" }, "Turn timer (seconds)", turnIn,
    h("small", { class: "muted" }, "When a player's time runs out a bot plays for them until they are back; 0 for no timer."));
  form.append(
    h("h2", { id: "create-title" }, "Open a table"),
    h("label", { class: "field", for: "new-game" }, "Game", gameSel),
    h("p", { class: "rules-line" }, rulesLink),
    h("label", { class: "field", for: "new-name" }, "Your name", nameIn),
    seatsCountWrap,
    dealWrap,
    seatsBox,
    h("details", { class: "options" }, h("summary", {}, "Table options"), rated.wrap, publicWrap, turnWrap, optsBox),
    h("button", { type: "submit", class: "button primary" }, "Open the table"));

  function fill() {
    const g = all.find((x) => x.id === gameSel.value);
    rulesLink.setAttribute("href", `/rules/${g.id}`);
    rulesLink.textContent = `How to play ${g.name}`;
    const [lo, hi] = g.seats;
    clear(seatsCount);
    for (let n = lo; n <= hi; n++) seatsCount.append(h("option", { value: String(n), selected: n === g.default_seats ? "" : null }, String(n)));
    seatsCountWrap.hidden = lo === hi;
    dealWrap.hidden = !g.deals;
    if (g.deals) dealIn.max = String(g.deals);
    fillSeats(g);
    clear(optsBox);
    for (const opt of g.options) {
      const id = `opt-${opt.name}`;
      const input = optionInput(opt, id);
      input.dataset.type = opt.type;
      optsBox.append(h("label", { class: opt.type === "bool" ? "field check" : "field", for: id, title: `${opt.help} (${opt.values})` },
        opt.type === "bool" ? input : null,
        h("span", {}, opt.name.replace(/_/g, " ")),
        opt.type === "bool" ? null : input,
        h("small", { class: "muted" }, opt.help)));
    }
  }
  function fillSeats(g) {
    const n = Number(seatsCount.value || g.default_seats);
    const names = g.seat_names[String(n)] || [];
    clear(seatsBox);
    seatsBox.append(h("legend", {}, "Seats"));
    const botChoices = g.bots.flatMap((b) => (b.levels.length ? b.levels.map((lv) => `${b.kind}:${lv}`) : [b.kind])
      .map((kind) => h("option", { value: `bot:${kind}`, title: b.help }, `Bot: ${kind.replace(":", " (")}${kind.includes(":") ? ")" : ""}`)));
    for (let s = 0; s < n; s++) {
      const sel = h("select", { id: `seat-${s}`, name: `seat-${s}`, "aria-label": `Who sits at ${names[s] || "seat " + s}` },
        h("option", { value: "you" }, "You"),
        h("option", { value: "person" }, "A friend (invite link)"),
        ...botChoices.map((o) => o.cloneNode(true)));
      const preferred = g.bots.some((b) => b.kind === "rule") ? "bot:rule" : `bot:${g.bots[g.bots.length - 1].kind}`;
      sel.value = s === 0 ? "you" : preferred;
      sel.addEventListener("change", () => {
        if (sel.value === "you") for (const other of seatsBox.querySelectorAll("select")) if (other !== sel && other.value === "you") other.value = "person";
      });
      seatsBox.append(h("label", { class: "seat-choice", for: `seat-${s}` }, h("span", {}, names[s] || `Seat ${s}`), sel));
    }
  }
  gameSel.addEventListener("change", fill);
  seatsCount.addEventListener("change", () => fillSeats(all.find((x) => x.id === gameSel.value)));
  fill();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = all.find((x) => x.id === gameSel.value);
    const seats = [];
    let mine = null;
    for (const sel of seatsBox.querySelectorAll("select")) {
      const v = sel.value;
      if (v === "you") { mine = seats.length; seats.push({ kind: "person" }); }
      else if (v === "person") seats.push({ kind: "person" });
      else seats.push({ kind: "bot", bot: v.slice(4) });
    }
    const options = {};
    for (const input of optsBox.querySelectorAll("input")) {
      const opt = g.options.find((o) => o.name === input.name);
      if (input.type === "checkbox") { if (input.checked !== Boolean(opt.default)) options[input.name] = input.checked; }
      else if (input.value.trim() !== String(opt.default === null ? "off" : opt.default)) options[input.name] = input.value.trim();
    }
    const name = nameIn.value.trim();
    if (mine !== null && !name) { toast("Choose a name to sit at the table.", "error"); nameIn.focus(); return; }
    let deal = null;
    if (g.deals && dealIn.value.trim()) {
      deal = Number(dealIn.value.trim());
      if (!Number.isInteger(deal) || deal < 1 || deal > g.deals) { toast(`A deal number is a whole number from 1 to ${g.deals.toLocaleString("en")}.`, "error"); dealIn.focus(); return; }
    }
    if (name) keepName(name);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { game: g.id, options, seats, name: name || null, seat: mine };
      if (deal !== null) body.deal = deal;
      if (publicIn.checked) body.public = true;
      if (rated.input.checked) body.rated = true;
      if (turnIn.value.trim() !== "") body.turn_seconds = Number(turnIn.value.trim());
      const res = await api("POST", "/api/tables", body);
      if (res.token) keepSeat(res.table.id, res.seat, res.token);
      navigate(`/t/${res.table.id}`);
    } catch (err) {
      toast(err.message, "error");
    } finally {
      button.disabled = false;
    }
  });
}

// A shared link to a deal (/new/foursquare?deal=N, options as more parameters): a new table
// with that deal, you in the seat. Asks for a name first if this browser has none yet.
function newTablePage(gameId, params) {
  const panel = h("section", { class: "card-panel new-table" }, h("p", { class: "muted" }, "Opening the table…"));
  app.append(panel);
  crumb(h("a", { href: "/", "data-nav": "" }, "Lobby"), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, "New table"));
  let gone = false;
  (async () => {
    try {
      const g = (await games()).find((x) => x.id === gameId);
      if (!g) throw new Error("There is no such game.");
      const options = {};
      for (const opt of g.options) if (params.has(opt.name)) options[opt.name] = params.get(opt.name);
      const deal = params.has("deal") ? Number(params.get("deal")) : null;
      const what = deal ? `${g.name}, deal #${deal}` : g.name;
      document.title = `${what} · Parlour`;
      const start = async (name) => {
        keepName(name);
        const seats = [{ kind: "person" }, ...Array.from({ length: g.default_seats - 1 }, () => ({ kind: "bot", bot: g.bots.some((b) => b.kind === "rule") ? "rule" : g.bots[g.bots.length - 1].kind }))];
        const body = { game: g.id, options, seats, name, seat: 0 };
        if (deal !== null) body.deal = deal;
        const res = await api("POST", "/api/tables", body);
        if (res.token) keepSeat(res.table.id, res.seat, res.token);
        if (!gone) navigate(`/t/${res.table.id}`, true);
      };
      clear(panel);
      const nameIn = h("input", { id: "new-name", maxlength: "24", autocomplete: "nickname", value: myName(), required: "" });
      const form = h("form", { class: "join" },
        h("h1", {}, `Play ${what}`),
        h("p", { class: "muted" }, deal ? "Someone shared this deal with you: the same cards in the same order." : "A new table."),
        h("label", { class: "field", for: "new-name" }, "Your name", nameIn),
        h("button", { class: "button primary", type: "submit" }, "Deal"));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const name = nameIn.value.trim();
        if (!name) { toast("Choose a name first.", "error"); return; }
        try { await start(name); } catch (err) { toast(err.message, "error"); }
      });
      panel.append(form);
      nameIn.focus();
    } catch (err) {
      clear(panel);
      panel.append(h("p", { class: "error" }, err.message));
    }
  })();
  return { destroy() { gone = true; } };
}

// ----------------------------------------------------------------------------- the socket
// One websocket per page. Reconnects by itself (the server sends the current view on every
// hello), so a dropped connection or a reloaded page carries on where it was.
class Link {
  constructor(tableId, token, on) {
    this.tableId = tableId;
    this.token = token;
    this.on = on;
    this.tries = 0;
    this.stopped = false;
    this.open();
  }
  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.ws = new WebSocket(`${proto}://${location.host}/ws/tables/${this.tableId}`);
    ws.onopen = () => {
      this.tries = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token || null }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome") this.on.status("connected"); // the server has us back
      this.on.message(msg);
    };
    ws.onclose = (ev) => {
      if (this.stopped) return;
      if (ev.code === 4404 || ev.code === 4403 || ev.code === 4410) { this.on.status("refused", ev.code); return; }
      this.on.status("reconnecting");
      const wait = Math.min(8000, 300 * 2 ** this.tries++);
      this.timer = setTimeout(() => this.open(), wait);
    };
  }
  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(obj)); return true; }
    return false;
  }
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

async function loadRenderer(gameId) {
  const game = (await games()).find((g) => g.id === gameId);
  if (!game) throw new Error(`unknown game ${gameId}`);
  return await import(`./${game.renderer}`);
}

// The four-colour deck, a setting of this browser: diamonds blue and clubs green.
const FOUR_KEY = "parlour.fourColour";
const fourColour = () => localStorage.getItem(FOUR_KEY) === "on";
document.body.classList.toggle("four-colour", fourColour());
function fourColourSwitch() {
  const button = h("button", { class: "top-switch four-switch", type: "button", "aria-label": "Four-colour deck", title: "Four-colour deck: diamonds blue, clubs green" },
    h("span", { class: "switch-short", "aria-hidden": "true" }, "4♦"), h("span", { class: "switch-label" }, "4-colour deck"));
  const show = () => {
    button.setAttribute("aria-pressed", fourColour() ? "true" : "false");
    document.body.classList.toggle("four-colour", fourColour());
  };
  button.addEventListener("click", () => { localStorage.setItem(FOUR_KEY, fourColour() ? "off" : "on"); show(); });
  show();
  return button;
}

// How long a finished trick stays readable before the next card covers it: the page's
// pace (localStorage "parlour.pace": slow, normal or fast).
const READING_MS = { slow: 2000, normal: 1100, fast: 400 };
function readingMs() {
  return READING_MS[localStorage.getItem("parlour.pace")] || READING_MS.normal;
}

function displayNames(table, mySeat) {
  return table.seats.map((s, i) => {
    if (i === mySeat) return "You";
    if (s.kind === "bot") return `${s.label} (${s.bot} bot)`;
    return s.name || `${s.label} (free)`;
  });
}

// ----------------------------------------------------------------------------- table page
function tablePage(tableId) {
  const held = seatFor(tableId);
  let seat = held ? held.seat : null;
  let table = null;
  let renderer = null;
  let rendererFor = null;
  let latest = null; // {version, view, match}
  let pending = false;
  let destroyed = false;

  const statusEl = h("span", { class: "conn", role: "status" }, "connecting…");
  const lobbyPanel = h("section", { class: "waiting card-panel", hidden: "" });
  const board = h("section", { class: "board", "aria-label": "Table" });
  const endBar = h("section", { class: "endbar", hidden: "", "aria-live": "polite" });
  // A lost connection: a banner over the table, the table greyed and deaf until the
  // server has the page back (a move made blind could be lost or land late).
  const offlineBanner = h("div", { class: "conn-banner", role: "alert", hidden: "" },
    h("strong", {}, "Connection lost: reconnecting…"), " Your seat is kept; the table comes back as it was.");
  let online = false;
  const lifeBar = h("section", { class: "lifebar", hidden: "", "aria-live": "polite" });
  const clockEl = h("span", { class: "turn-clock", role: "timer" });
  app.append(offlineBanner, lobbyPanel, lifeBar, board, endBar);
  crumb(h("a", { href: "/", "data-nav": "" }, "Lobby"), h("span", { "aria-hidden": "true" }, " / "), h("span", { class: "crumb-here" }, `Table ${tableId}`), statusEl);
  document.body.classList.add("table-page");
  crumbs.append(soundSwitch(), fourColourSwitch());

  const ctx = {
    get seat() { return seat; },
    get names() { return table ? displayNames(table, seat) : []; },
    get table() { return table; },
    live: true,
    act(text) {
      if (!online || !latest || pending) return false;
      if (!link.send({ type: "act", action: text, version: latest.version })) {
        toast("Not connected: reconnecting…", "error");
        return false;
      }
      pending = true;
      return true;
    },
    // A timed phase (the slap): the server times it from its own signal; we only say "now".
    get timed() { return latest && latest.timed ? latest.timed : null; },
    react() {
      const timed = latest && latest.timed;
      return Boolean(online && timed && seat !== null && link.send({ type: "react", phase: timed.phase }));
    },
    // A hint from the game's hint bot, worked out by the server from this seat's view; the
    // answer comes to the renderer's hinted(msg).
    hint() {
      if (!online || !latest || seat === null || !table || !table.hints) return false;
      return link.send({ type: "hint", version: latest.version });
    },
    say: toast,
  };

  const link = new Link(tableId, held && held.token, {
    status(state, code) {
      online = state === "connected";
      offlineBanner.hidden = state !== "reconnecting";
      board.classList.toggle("offline", state === "reconnecting");
      board.inert = state === "reconnecting";
      if (state === "reconnecting") pending = false;
      statusEl.textContent = state === "connected" ? "" : state === "reconnecting" ? "reconnecting…" : "";
      statusEl.className = `conn conn-${state}`;
      if (state === "refused") {
        if (code === 4403) { forgetSeat(tableId); toast("Your seat token is no longer valid: watching instead.", "error"); }
        clear(board);
        board.append(h("p", { class: "error" }, code === 4404 ? "There is no table with that id." : code === 4410 ? "This table is closed: it could not be restored." : "This page could not join the table."));
        if (code === 4403) setTimeout(() => { if (!destroyed) route(); }, 1200);
      }
    },
    message(msg) {
      if (msg.type === "welcome") {
        seat = msg.seat;
        table = msg.table;
        showTable();
      } else if (msg.type === "table") {
        table = msg.table;
        if (seat !== null && !table.seats[seat].taken) { seat = null; forgetSeat(tableId); } // we left
        showTable();
      } else if (msg.type === "view") {
        if (latest && msg.match === latest.match && msg.version < latest.version) return;
        latest = msg;
        pending = false;
        if (table) { table.status = msg.status; table.match = msg.match; }
        showView();
      } else if (msg.type === "hint") {
        if (renderer && renderer.hinted && latest && msg.match === latest.match && msg.version === latest.version) renderer.hinted(msg);
      } else if (msg.type === "error") {
        pending = false;
        if (msg.code !== "stale") toast(msg.message, "error");
        if (renderer && renderer.refused) renderer.refused(msg);
      }
    },
  });

  async function showTable() {
    document.title = `${table.game_name} · Parlour`;
    addRulesButton(table.game, table.game_name);
    renderWaiting();
    if (table.status !== "waiting" && (!renderer || rendererFor !== table.game)) {
      const mod = await loadRenderer(table.game);
      if (destroyed) return;
      if (renderer) renderer.destroy();
      clear(board);
      renderer = mod.mount(board, ctx);
      rendererFor = table.game;
    }
    showView();
  }

  // A view the renderer wants read (a finished trick: renderer.holds(view)) stays on screen
  // a moment before the next one replaces it, however fast the bots answer.
  let holdUntil = 0;
  let holdTimer = null;
  function showView() {
    renderLife();
    if (!renderer || !latest) { renderEnd(); return; }
    const wait = holdUntil - performance.now();
    if (wait > 0) { clearTimeout(holdTimer); holdTimer = setTimeout(showView, wait); return; }
    document.body.dataset.version = `${latest.match}:${latest.version}`;
    renderer.update(latest.view, { narration: latest.narration || null });
    holdUntil = renderer.holds && renderer.holds(latest.view) ? performance.now() + readingMs() : 0;
    renderEnd();
  }

  function renderWaiting() {
    clear(lobbyPanel);
    if (table.status !== "waiting") { lobbyPanel.hidden = true; return; }
    lobbyPanel.hidden = false;
    const link = `${location.origin}/t/${table.id}`;
    const free = table.seats.filter((s) => !s.taken);
    const copy = h("button", { class: "button", type: "button" }, "Copy link");
    const linkIn = h("input", { id: "invite", readonly: "", value: link, "aria-label": "Invite link" });
    copy.addEventListener("click", async () => {
      linkIn.select();
      try { await navigator.clipboard.writeText(link); toast("Invite link copied."); } catch { document.execCommand("copy"); toast("Invite link copied."); }
    });
    lobbyPanel.append(
      h("h1", {}, `${table.game_name}: waiting for ${free.length} player${free.length === 1 ? "" : "s"}`),
      h("p", { class: "muted" }, "The game starts as soon as every seat is taken. Send this link to the friends you want at the table:"),
      h("div", { class: "invite" }, linkIn, copy),
      h("ul", { class: "seat-list" }, ...table.seats.map((s, i) => h("li", { class: s.taken ? "taken" : "free" },
        h("strong", {}, s.label), " ", i === seat ? "you" : s.kind === "bot" ? `${s.bot} bot` : s.taken ? s.name : "free seat"))));
    if (seat === null && free.length) {
      const nameIn = h("input", { id: "join-name", maxlength: "24", value: myName(), autocomplete: "nickname", required: "" });
      const seatSel = h("select", { id: "join-seat" }, ...free.map((s) => h("option", { value: String(s.seat) }, s.label)));
      const form = h("form", { class: "join" },
        h("label", { class: "field", for: "join-name" }, "Your name", nameIn),
        h("label", { class: "field", for: "join-seat" }, "Seat", seatSel),
        h("button", { class: "button primary", type: "submit" }, "Sit down"));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const name = nameIn.value.trim();
        if (!name) { toast("Choose a name first.", "error"); return; }
        keepName(name);
        try {
          const res = await api("POST", `/api/tables/${table.id}/join`, { name, seat: Number(seatSel.value) });
          keepSeat(table.id, res.seat, res.token);
          route(); // reconnect holding the seat
        } catch (err) { toast(err.message, "error"); }
      });
      lobbyPanel.append(h("h2", {}, "Take a seat"), form);
    } else if (seat === null) {
      lobbyPanel.append(h("p", {}, "You are watching."));
    }
  }

  // The table's life around the game: the turn timer, stand-ins, a closed table, leaving.
  async function post(path) {
    try { return await api("POST", `/api/tables/${table.id}${path}`, {}, held && held.token); } catch (err) { toast(err.message, "error"); return null; }
  }
  function tickClock() {
    const turn = latest && latest.status === "playing" ? latest.turn : null;
    if (!turn || !table) { clockEl.textContent = ""; return; }
    const left = Math.max(0, Math.min(turn.seconds, Math.ceil((turn.deadline - Date.now()) / 1000)));
    const who = turn.seats.map((s) => (s === seat ? "your" : `${table.seats[s].label}'s`)).join(" and ");
    clockEl.textContent = `${who.charAt(0).toUpperCase()}${who.slice(1)} turn: ${left} s`;
    clockEl.classList.toggle("low", left <= 10);
  }
  const ticking = setInterval(tickClock, 500);
  let shownLife = null; // what the bar shows, so that it is rebuilt only when that changes
  let rejoinLink = null; // this seat's private rejoin link, once its holder asked to see it
  function rejoinBox(url) {
    const field = h("input", { class: "rejoin-link", type: "text", readonly: "", value: url, "aria-label": "Your private rejoin link", spellcheck: "false" });
    field.addEventListener("focus", () => field.select());
    const copy = h("button", { class: "button", type: "button" }, "Copy link");
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); toast("Link copied: open it on your other device."); } catch { field.focus(); toast("Select the link and copy it."); }
    });
    return h("div", { class: "rejoin" },
      h("p", { class: "muted" }, "Open this link on your phone or another computer to play this seat there. It is private: anyone who has it can play your seat. It stops working if you leave the seat."),
      h("div", { class: "rejoin-row" }, field, copy));
  }
  function renderLife() {
    if (!table) return;
    tickClock();
    const key = JSON.stringify([seat, table.status, table.note, table.degraded, table.creator,
      table.seats.map((s) => [s.taken, s.stand_in, s.name])]);
    if (key === shownLife) return;
    shownLife = key;
    clear(lifeBar);
    const notes = [];
    const buttons = [];
    if (table.status === "closed") notes.push(h("p", { class: "error" }, `This table is closed: ${table.note || "it has ended"}.`));
    if (table.degraded) notes.push(h("p", { class: "muted" }, "The parlour is busy: the bots here play a level lower for now."));
    table.seats.forEach((s, i) => {
      if (!s.stand_in) return;
      if (i === seat) {
        notes.push(h("p", { class: "stand-in" }, "A bot is playing for you while you are away."));
        const back = h("button", { class: "button primary", type: "button" }, "I'm back");
        back.addEventListener("click", () => link.send({ type: "sync" }));
        buttons.push(back);
      } else {
        notes.push(h("p", { class: "muted" }, `A bot is playing for ${s.name || s.label}${s.taken ? " while they are away" : ": the seat is free"}.`));
        if (seat !== null && seat === table.creator && s.taken) {
          const free = h("button", { class: "button", type: "button" }, `Free ${s.label}'s seat`);
          free.addEventListener("click", async () => { free.disabled = true; await post(`/seats/${i}/free`); });
          buttons.push(free);
        }
      }
    });
    const freeNow = table.seats.filter((s) => !s.taken && s.kind === "person");
    if (seat === null && (table.status === "playing" || table.status === "finished") && freeNow.length) {
      const sit = h("button", { class: "button primary", type: "button" }, `Sit at ${freeNow[0].label}`);
      sit.addEventListener("click", async () => {
        const name = myName() || (prompt("Your name") || "").trim();
        if (!name) return;
        keepName(name);
        try {
          const res = await api("POST", `/api/tables/${table.id}/join`, { name, seat: freeNow[0].seat });
          keepSeat(table.id, res.seat, res.token);
          route();
        } catch (err) { toast(err.message, "error"); }
      });
      buttons.push(sit);
    }
    if (seat !== null && table.status !== "closed") {
      const other = h("button", { class: "button", type: "button", "aria-expanded": String(Boolean(rejoinLink)), title: "Use this seat on another device: a private link" }, "Play on another device");
      other.addEventListener("click", async () => {
        if (rejoinLink) { rejoinLink = null; shownLife = null; renderLife(); return; }
        const res = await post("/rejoin-link");
        if (!res) return;
        rejoinLink = new URL(res.link, location.origin).href;
        shownLife = null;
        renderLife();
      });
      buttons.push(other);
      const leave = h("button", { class: "button", type: "button" }, "Leave my seat");
      leave.addEventListener("click", async () => {
        if (!confirm("Leave your seat? Someone else may take it; a bot plays it meanwhile.")) return;
        if (await post("/leave")) { forgetSeat(tableId); route(); }
      });
      buttons.push(leave);
    }
    tickClock();
    lifeBar.append(clockEl, ...notes);
    if (buttons.length) lifeBar.append(h("div", { class: "buttons" }, ...buttons));
    if (rejoinLink && seat !== null) lifeBar.append(rejoinBox(rejoinLink));
    lifeBar.hidden = false;
  }

  let shownEnd = null; // the match whose results are on screen
  function renderEnd() {
    if (!table || !latest || latest.status !== "finished") { clear(endBar); endBar.hidden = true; shownEnd = null; return; }
    if (!renderer) return; // the results wait for the table's renderer (it knows the match history)
    const m = latest.match;
    const key = `${m}:${latest.version}:${rendererFor}`;
    if (shownEnd === key) return;
    const fresh = shownEnd === null && endBar.hidden;
    shownEnd = key;
    clear(endBar);
    endBar.hidden = false;
    const buttons = [];
    const solitaire = table.seats.length === 1;
    if (!table.daily && (seat !== null || table.seats.every((s) => s.kind === "bot"))) {
      // a solitaire deals a new game; "Deal again" below replays the same cards
      const again = h("button", { class: "button primary", type: "button" }, solitaire ? "New deal" : "Play again");
      again.addEventListener("click", async () => {
        again.disabled = true;
        try { await api("POST", `/api/tables/${table.id}/again`, {}, held && held.token); } catch (err) { toast(err.message, "error"); again.disabled = false; }
      });
      buttons.push(again);
      if (solitaire && table.deal) {
        buttons.push(h("a", { class: "button", href: `/new/${table.game}?deal=${table.deal}`, "data-nav": "" }, "Deal again"));
      }
    }
    if (table.daily) buttons.push(...dailyEndButtons()); // its records open when its day is over
    else {
      buttons.push(h("a", { class: "button", href: `/api/tables/${table.id}/matches/${m}/record`, download: "" }, "Download the record"));
      buttons.push(h("a", { class: "button", href: `/t/${table.id}/replay/${m}`, "data-nav": "" }, "Replay step by step"));
    }
    // The results lie over the table; "See the table" folds them to a button at the foot.
    const fold = h("button", { class: "button fold", type: "button", "aria-expanded": "true" }, "See the table");
    fold.addEventListener("click", () => {
      const folded = endBar.classList.toggle("folded");
      fold.textContent = folded ? "Show the results" : "See the table";
      fold.setAttribute("aria-expanded", folded ? "false" : "true");
    });
    buttons.push(fold);
    endBar.classList.remove("folded");
    endBar.append(resultsSection(latest.view, table, seat, renderer), h("div", { class: "buttons" }, ...buttons));
    if (fresh) endBar.querySelector(".results-title").focus({ preventScroll: true });
  }

  return {
    destroy() {
      destroyed = true;
      clearTimeout(holdTimer);
      clearInterval(ticking);
      document.body.classList.remove("table-page");
      delete document.body.dataset.version;
      link.close();
      if (renderer) renderer.destroy();
    },
  };
}

// ----------------------------------------------------------------------------- replay
function replayPage(tableId, match) {
  let info = null;
  let renderer = null;
  let step = 0;
  let steps = 0;
  let viewSeat = 0;
  let playing = null;
  let loading = false;
  const board = h("section", { class: "board", "aria-label": "Replay" });
  const caption = h("p", { class: "replay-caption", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: "0", max: "0", value: "0", id: "replay-step", "aria-label": "Step" });
  const seatSel = h("select", { id: "replay-seat", "aria-label": "Whose view" });
  const btn = (label, content, fn) => { const b = h("button", { class: "button icon-button", type: "button", "aria-label": label, title: label }, content); b.addEventListener("click", fn); return b; };
  const playBtn = btn("Play", [icon("play"), "Play"], () => toggle());
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    btn("First step", icon("first"), () => go(0)), btn("Previous step", icon("previous"), () => go(step - 1)), playBtn,
    btn("Next step", icon("next"), () => go(step + 1)), btn("Last step", icon("last"), () => go(steps)), slider,
    h("label", { for: "replay-seat" }, "View of "), seatSel);
  app.append(h("section", { class: "replay card-panel" }, h("h1", {}, `Replay of match ${match}`), controls, caption), board);
  crumb(h("a", { href: "/", "data-nav": "" }, "Lobby"), h("span", { "aria-hidden": "true" }, " / "),
    h("a", { href: `/t/${tableId}`, "data-nav": "" }, `Table ${tableId}`), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, "Replay"));

  const ctx = {
    seat: 0,
    get names() { return info ? info.seats.map((s) => s.kind === "bot" ? `${s.label} (${s.bot} bot)` : (s.name || s.label)) : []; },
    get table() { return info; },
    live: false,
    act() { return false; },
    hint() { return false; },
    timed: null,
    react() { return false; },
    say: toast,
  };

  async function go(n) {
    if (loading) return;
    n = Math.max(0, Math.min(steps || n, n));
    loading = true;
    try {
      const res = await api("GET", `/api/tables/${tableId}/matches/${match}/replay?step=${n}${viewSeat === null ? "" : `&seat=${viewSeat}`}`);
      steps = res.steps; step = res.step;
      slider.max = String(steps); slider.value = String(step);
      const act = res.action ? `${info.seats[res.action.seat].label} ${res.action.text}` : "the deal";
      caption.textContent = `Step ${step} of ${steps}: ${act}`;
      ctx.seat = viewSeat;
      renderer.update(res.view, { narration: res.narration || null, step: res.step, action: res.action, deal: res.deal ?? null });
    } catch (err) {
      toast(err.message, "error");
      stop();
    } finally { loading = false; }
  }
  const playLabel = (paused) => {
    clear(playBtn);
    playBtn.append(icon(paused ? "play" : "pause"), paused ? "Play" : "Pause");
    playBtn.setAttribute("aria-label", paused ? "Play" : "Pause");
    playBtn.title = paused ? "Play" : "Pause";
  };
  function stop() { clearInterval(playing); playing = null; playLabel(true); }
  function toggle() {
    if (playing) { stop(); return; }
    playLabel(false);
    playing = setInterval(() => { if (step >= steps) stop(); else go(step + 1); }, 700);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  seatSel.addEventListener("change", () => { viewSeat = seatSel.value === "" ? null : Number(seatSel.value); go(step); });

  (async () => {
    try {
      info = (await api("GET", `/api/tables/${tableId}`)).table;
      document.title = `Replay · ${info.game_name} · Parlour`;
      addRulesButton(info.game, info.game_name);
      for (const s of info.seats) seatSel.append(h("option", { value: String(s.seat) }, s.label));
      seatSel.append(h("option", { value: "" }, "a spectator"));
      const mod = await loadRenderer(info.game);
      renderer = mod.mount(board, ctx);
      await go(0);
    } catch (err) {
      board.append(h("p", { class: "error" }, err.message));
    }
  })();
  return { destroy() { stop(); if (renderer) renderer.destroy(); } };
}

// ----------------------------------------------------------------------------- rules
const rulesCache = new Map();
async function rulesOf(gameId) {
  if (!rulesCache.has(gameId)) rulesCache.set(gameId, api("GET", `/api/games/${gameId}/rules`).catch((err) => { rulesCache.delete(gameId); throw err; }));
  return rulesCache.get(gameId);
}

// Server-rendered Markdown of the repository's own rules page (raw HTML escaped). Parsed
// in an inert template first: a figure the server does not serve (a path into docs/img)
// becomes its caption instead of a failed request.
function rulesBody(html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  for (const img of tpl.content.querySelectorAll("img")) {
    const src = img.getAttribute("src") || "";
    if (!/^(data:|\/static\/)/.test(src)) img.replaceWith(h("em", { class: "rules-figure" }, `[figure: ${img.getAttribute("alt") || "not shown here"}]`));
  }
  const body = h("div", { class: "rules-text" });
  body.append(tpl.content);
  return body;
}

function rulesPage(gameId) {
  const panel = h("article", { class: "rules-page card-panel", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading the rules…"));
  app.append(panel);
  crumb(h("a", { href: "/", "data-nav": "" }, "Lobby"), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, "Rules"));
  rulesOf(gameId).then((r) => {
    document.title = `Rules of ${r.name} · Parlour`;
    clear(panel);
    panel.removeAttribute("aria-busy");
    panel.append(rulesBody(r.html));
  }).catch((err) => { clear(panel); panel.append(h("p", { class: "error" }, err.message)); });
  return { destroy() {} };
}

// A "Rules" button in the top bar of a table or replay: the rules in a dialog over the
// table (Escape closes it); the link beside it opens the rules page by itself.
function addRulesButton(gameId, gameName) {
  if (crumbs.querySelector(".rules-button")) return;
  const button = h("button", { class: "rules-button", type: "button", "aria-haspopup": "dialog" }, "Rules");
  button.addEventListener("click", () => openRules(gameId, gameName));
  crumbs.append(button);
}

async function openRules(gameId, gameName) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    const close = h("button", { class: "button", type: "button", "aria-label": "Close the rules" }, "Close");
    dialog = h("dialog", { id: "rules-dialog", class: "rules-dialog", "aria-labelledby": "rules-dialog-title" },
      h("header", {}, h("h2", { id: "rules-dialog-title" }), h("a", { class: "small", target: "_blank", rel: "noopener" }, "Open in a new tab"), close),
      h("div", { class: "rules-scroll" }));
    close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
    document.body.append(dialog);
  }
  dialog.querySelector("h2").textContent = `How to play ${gameName}`;
  dialog.querySelector("header a").setAttribute("href", `/rules/${gameId}`);
  const scroll = dialog.querySelector(".rules-scroll");
  clear(scroll);
  scroll.append(h("p", { class: "muted" }, "Loading the rules…"));
  if (!dialog.open) dialog.showModal();
  try {
    const r = await rulesOf(gameId);
    clear(scroll);
    scroll.append(rulesBody(r.html));
    scroll.scrollTop = 0;
  } catch (err) {
    clear(scroll);
    scroll.append(h("p", { class: "error" }, err.message));
  }
}

// ----------------------------------------------------------------------------- results
// The results screen at the end of a match: who won, the final standings, and the match
// history (the renderer's own, if it has results(view); else the rounds in the view).
function resultsSection(view, table, seat, renderer) {
  const names = displayNames(table, seat);
  const o = view.outcome;
  const own = renderer && renderer.results ? renderer.results(view) || {} : {};
  const section = h("section", { class: "results", "aria-labelledby": "results-title" });
  let headline = own.headline;
  if (!headline && o) {
    const all = o.winners.length === names.length;
    if (all) headline = "The match is drawn";
    else if (seat !== null && o.winners.includes(seat)) headline = o.winners.length > 1 ? "You win, with your partner!" : "You win!";
    else headline = `${o.winners.map((s) => names[s]).join(" and ")} win${o.winners.length === 1 ? "s" : ""}`;
  }
  const solitaire = names.length === 1;
  section.append(h("h2", { id: "results-title", class: "results-title", tabindex: "-1" }, headline || "The match is over."));
  if (o && solitaire) section.append(h("p", { class: "results-score" }, `${own.scoreLabel || "Score"}: ${fmtNum(o.points[0])}`));
  if (o && !solitaire) {
    const order = names.map((_, s) => s).sort((a, b) => o.placing[a] - o.placing[b] || a - b);
    const rows = order.map((s) => h("tr", { class: o.winners.includes(s) ? "winner" : null },
      h("td", {}, ordinal(o.placing[s])), h("th", { scope: "row" }, names[s]), h("td", {}, fmtNum(o.points[s]))));
    section.append(h("table", { class: "standings" },
      h("caption", { class: "sr-only" }, "Final standings"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Place"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, own.scoreLabel || "Points"))),
      h("tbody", {}, ...rows)));
  }
  const history = own.history !== undefined ? own.history : roundsTable(view, names);
  if (history) section.append(h("div", { class: "results-history" }, h("h3", {}, own.historyTitle || "Match history"), history));
  return section;
}

const fmtNum = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const ordinal = (n) => `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;

// A game whose view keeps a list of rounds with the scores after each gets them as a table.
function roundsTable(view, names) {
  const rounds = Array.isArray(view.rounds) ? view.rounds.filter((r) => r && Array.isArray(r.scores)) : [];
  if (!rounds.length) return null;
  const head = h("tr", {}, h("th", { scope: "col" }, "Round"), ...names.map((n) => h("th", { scope: "col" }, n)));
  const body = rounds.map((r, i) => h("tr", {}, h("th", { scope: "row" }, String(r.round ?? i + 1)),
    ...r.scores.map((sc, s) => {
      const pts = Array.isArray(r.points) ? r.points[s] : r.winner === s ? r.points : null;
      return h("td", {}, h("b", {}, fmtNum(sc)), pts ? h("small", { class: "muted" }, ` +${fmtNum(pts)}`) : null);
    })));
  return h("table", { class: "history-table" }, h("caption", { class: "sr-only" }, "Scores after each round"), h("thead", {}, head), h("tbody", {}, ...body));
}

loadLanguage().then(route);
