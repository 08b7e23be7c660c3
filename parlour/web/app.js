// Parlour in the browser: the lobby, the table page (one websocket per page), replays.
// Generic over the games: each game's table is drawn by the ES module its spec names (the
// game list's "renderer", e.g. tables/spades.js), which exports mount(root, ctx) ->
// {update(view), destroy()}.
// Everything shown at a table comes from the view the server sent for this seat.

import { h, toast, clear, icon } from "./dom.js";
import { api } from "./api.js";
import { seatFor, keepSeat, forgetSeats } from "./seats.js";
import { soundSwitch } from "./sound.js";
import { loadLanguage, lang, t, n, p, num } from "./i18n.js";
import { closedNote, languageSwitch, gameName, seatLabel, teamName } from "./words.js";
import { displayNames, personName, seatBadge, badgeElement, seatLine } from "./names.js";
import { lobbyPage as showLobby, newTablePage as showNewTable, myName, keepName } from "./lobby.js";
import { loadAccount, isAccountPath, accountPage, mayHoldSeatAt, claimPage, isMuted, playersControl } from "./account.js";
import { reviewLink, reviewPanel } from "./review.js";
import { hintButton } from "./hints.js";
import { richText } from "./tables/cards.js";
import { dailyEndButtons, dailyPage, leaderboardPage, playersLinks, profilePage, ratedSwitch } from "./players.js";

const app = document.getElementById("app");
const crumbs = document.getElementById("crumbs");

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
  else if ((m = path.match(/^\/rules\/([a-z0-9-]{1,40})(\/full)?$/))) current = rulesPage(m[1], Boolean(m[2]));
  else if ((m = path.match(/^\/t\/([A-Za-z0-9_-]{1,16})$/))) {
    if (location.hash.startsWith("#rejoin=")) current = rejoinPage(m[1]);
    else if (!seatFor(m[1]) && mayHoldSeatAt(m[1])) current = claimPage(app, m[1], route); // your account's seat, on this device
    else current = tablePage(m[1]);
  }
  else if (isAccountPath(path)) current = accountPage(path, { root: app, navigate, crumb });
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
  app.append(h("p", { class: "muted" }, t("Taking your seat…")));
  api("POST", `/api/tables/${tableId}/rejoin`, { secret })
    .then((res) => { keepSeat(tableId, res.seat, res.token); toast(t("Your seat is on this device now.")); })
    .catch((err) => toast(t("{reason} You are watching instead.", { reason: err.message }), "error"))
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
// The lobby and the shared-deal page live in lobby.js; this is what they use of the app.
const lobbyEnv = { app, api, games, navigate, seatFor, keepSeat, crumb };
function lobbyPage() { return showLobby(lobbyEnv); }
function newTablePage(gameId, params) { return showNewTable(lobbyEnv, gameId, params); }

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
      // lang: the narration, reasons and errors of this connection come in the page's language
      ws.send(JSON.stringify({ type: "hello", token: this.token || null, lang: lang() }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome") { this.tries = 0; this.reason = null; this.on.status("connected"); } // the server has us back
      // why the server is about to close (a database or Redis out of reach): the banner says it
      if (msg.type === "error" && msg.code === "unavailable") this.reason = msg.message;
      this.on.message(msg);
    };
    ws.onclose = (ev) => {
      if (this.stopped) return;
      if (ev.code === 4404 || ev.code === 4403 || ev.code === 4410) { this.on.status("refused", ev.code); return; }
      this.on.status("reconnecting", ev.code, ev.code === 1013 ? this.reason : null);
      // tries count until a welcome, so a server that accepts and refuses is not hammered;
      // at most 5 s apart, so play resumes within seconds of the outage ending
      const wait = Math.min(5000, 300 * 2 ** this.tries++);
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
  if (!game) throw new Error(t("unknown game {game}", { game: gameId }));
  return await import(`./${game.renderer}`);
}

// The four-colour deck, a setting of this browser: diamonds blue and clubs green.
const FOUR_KEY = "parlour.fourColour";
const fourColour = () => localStorage.getItem(FOUR_KEY) === "on";
document.body.classList.toggle("four-colour", fourColour());
function fourColourSwitch() {
  const button = h("button", { class: "top-switch four-switch", type: "button", "aria-label": t("Four-colour deck"), title: t("Four-colour deck: diamonds blue, clubs green") },
    h("span", { class: "switch-short", "aria-hidden": "true" }, "4♦"), h("span", { class: "switch-label" }, t("4-colour deck")));
  const show = () => {
    button.setAttribute("aria-pressed", fourColour() ? "true" : "false");
    document.body.classList.toggle("four-colour", fourColour());
  };
  button.addEventListener("click", () => { localStorage.setItem(FOUR_KEY, fourColour() ? "off" : "on"); show(); });
  show();
  return button;
}

// How long a finished trick stays readable before the next card covers it: the table's
// speed (its summary's pace, chosen when the table was opened; parlour/server/pace.py),
// unless this device keeps a speed of its own (localStorage "parlour.pace", also what the
// lobby offers first).
const READING_MS = { slow: 2000, normal: 1100, fast: 400 };
function readingMs(table) {
  const own = READING_MS[localStorage.getItem("parlour.pace")];
  return own || (table && table.pace ? table.pace.reading_ms : READING_MS.normal);
}

// ----------------------------------------------------------------------------- table page
function tablePage(tableId) {
  const held = seatFor(tableId);
  let seat = held ? held.seat : null;
  let table = null;
  let renderer = null;
  let rendererFor = null;
  let latest = null; // {version, view, match}: the newest view message
  let shown = null; // the view message on screen (a finished trick holds the newer one back)
  let pending = false;
  let destroyed = false;

  const statusEl = h("span", { class: "conn", role: "status" }, t("connecting…"));
  const lobbyPanel = h("section", { class: "waiting card-panel", hidden: "" });
  const board = h("section", { class: "board", "aria-label": t("Table") });
  const endBar = h("section", { class: "endbar", hidden: "", "aria-live": "polite" });
  // A lost connection: a banner over the table, the table greyed and deaf until the
  // server has the page back (a move made blind could be lost or land late).
  const offlineBanner = h("div", { class: "conn-banner", role: "alert", hidden: "" },
    h("strong", {}, t("Connection lost: reconnecting…")), " ", h("span", { class: "conn-why" }), t("Your seat is kept; the table comes back as it was."));
  const whyEl = offlineBanner.querySelector(".conn-why");
  let online = false;
  const lifeBar = h("section", { class: "lifebar", hidden: "", "aria-live": "polite" });
  const clockEl = h("span", { class: "turn-clock", role: "timer" });
  const hints = hintButton({ ask: () => ctx.hint(), board });
  app.append(offlineBanner, lobbyPanel, lifeBar, board, endBar);
  crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", { class: "crumb-here" }, t("Table {id}", { id: tableId })), statusEl);
  document.body.classList.add("table-page");
  crumbs.append(soundSwitch(), fourColourSwitch());

  const ctx = {
    get seat() { return seat; },
    get names() { return table ? displayNames(table, seat) : []; },
    badge(s) { return table && s !== seat ? seatBadge(table.seats[s]) : ""; }, // "You" needs none
    get stepMs() { return table && table.pace ? table.pace.step_ms : 120; },
    get table() { return table; },
    live: true,
    act(text) {
      // Never a move made on a picture older than the newest view: while a finished trick
      // holds the newer view back (it may be the answer to the move just made), the page
      // would still offer that move.
      if (!online || !latest || pending || latest !== shown) return false;
      if (!link.send({ type: "act", action: text, version: latest.version })) {
        toast(t("Not connected: reconnecting…"), "error");
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
    // How long a thing on the table stays readable (a finished trick): the table's pace.
    get readingMs() { return readingMs(table); },
    // The player is done reading what the table holds on screen (a deal's score): the
    // newer view, if one came meanwhile, is shown now.
    release() {
      if (holdUntil <= performance.now()) return;
      holdUntil = 0;
      clearTimeout(holdTimer);
      if (latest !== shown) showView();
    },
  };

  const link = new Link(tableId, held && held.token, {
    status(state, code, why) {
      online = state === "connected";
      whyEl.textContent = why ? `${why}. ` : "";
      offlineBanner.hidden = state !== "reconnecting";
      board.classList.toggle("offline", state === "reconnecting");
      board.inert = state === "reconnecting";
      if (state === "reconnecting") pending = false;
      statusEl.textContent = state === "connected" ? "" : state === "reconnecting" ? t("reconnecting…") : "";
      statusEl.className = `conn conn-${state}`;
      if (state === "refused") {
        if (code === 4403) { forgetSeats([tableId]); toast(t("Your seat token is no longer valid: watching instead."), "error"); }
        clear(board);
        board.append(h("p", { class: "error" }, code === 4404 ? t("There is no table with that id.") : code === 4410 ? t("This table is closed: it could not be restored.") : t("This page could not join the table.")));
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
        if (seat !== null && !table.seats[seat].taken) { seat = null; forgetSeats([tableId]); } // we left
        showTable();
      } else if (msg.type === "view") {
        if (latest && msg.match === latest.match && msg.version < latest.version) return;
        pending = false;
        if (table) { table.status = msg.status; table.match = msg.match; }
        // The view on screen again (a new owner greets the page after a takeover; a resync):
        // it replaces the one shown, its timer with it. Held back behind the finished trick
        // the page already shows, it would make the page refuse the move it offers.
        if (shown && msg.match === shown.match && msg.version === shown.version) {
          latest = shown = msg;
          tickClock();
          return;
        }
        latest = msg;
        showView();
      } else if (msg.type === "hint") {
        if (renderer && renderer.hinted && latest && msg.match === latest.match && msg.version === latest.version) renderer.hinted(msg);
        else if (renderer && !renderer.hinted) hints.hinted(msg);
      } else if (msg.type === "error") {
        pending = false;
        if (msg.code !== "stale") toast(msg.message, "error");
        if (renderer && renderer.refused) renderer.refused(msg);
        hints.refused(msg);
      }
    },
  });

  async function showTable() {
    document.title = `${gameName(table.game_name)} · Parlour`;
    addRulesButton(table.game, gameName(table.game_name));
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
    shown = latest;
    tickClock(); // the clock tells the turn of the view on screen, as the seats do
    renderer.update(latest.view, { narration: latest.narration || null });
    hints.update({ match: latest.match, version: latest.version, usable: Boolean(online && seat !== null && table && table.hints && latest.status === "playing" && !renderer.hinted && latest.view.legal && latest.view.legal.length) });
    // holds(view): true for one reading at the table's pace, or {ms} (a Spades deal's score)
    const held = renderer.holds ? renderer.holds(latest.view) : false;
    holdUntil = held ? performance.now() + (held === true ? readingMs(table) : held.ms) : 0;
    renderEnd();
  }

  function renderWaiting() {
    clear(lobbyPanel);
    if (table.status !== "waiting") { lobbyPanel.hidden = true; return; }
    lobbyPanel.hidden = false;
    const link = `${location.origin}/t/${table.id}`;
    const free = table.seats.filter((s) => !s.taken);
    const copy = h("button", { class: "button", type: "button" }, t("Copy link"));
    const linkIn = h("input", { id: "invite", readonly: "", value: link, "aria-label": t("Invite link") });
    copy.addEventListener("click", async () => {
      linkIn.select();
      try { await navigator.clipboard.writeText(link); toast(t("Invite link copied.")); } catch { document.execCommand("copy"); toast(t("Invite link copied.")); }
    });
    lobbyPanel.append(
      h("h1", {}, n("{game}: waiting for {n} player", "{game}: waiting for {n} players", free.length, { game: gameName(table.game_name) })),
      h("p", { class: "muted" }, t("The game starts as soon as every seat is taken. Send this link to the friends you want at the table:")),
      h("div", { class: "invite" }, linkIn, copy),
      h("ul", { class: "seat-list" }, ...table.seats.map((s, i) => h("li", { class: s.taken ? "taken" : "free" },
        h("strong", {}, seatLabel(s.label)), " ", seatLine(s, i, seat)))));
    if (seat === null && free.length) {
      const nameIn = h("input", { id: "join-name", maxlength: "24", value: myName(), autocomplete: "nickname", required: "" });
      const seatSel = h("select", { id: "join-seat" }, ...free.map((s) => h("option", { value: String(s.seat) }, seatLabel(s.label))));
      const form = h("form", { class: "join" },
        h("label", { class: "field", for: "join-name" }, t("Your name"), nameIn),
        h("label", { class: "field", for: "join-seat" }, t("Seat"), seatSel),
        h("button", { class: "button primary", type: "submit" }, t("Sit down")));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const name = nameIn.value.trim();
        if (!name) { toast(t("Choose a name first."), "error"); return; }
        keepName(name);
        try {
          const res = await api("POST", `/api/tables/${table.id}/join`, { name, seat: Number(seatSel.value) });
          keepSeat(table.id, res.seat, res.token);
          route(); // reconnect holding the seat
        } catch (err) { toast(err.message, "error"); }
      });
      lobbyPanel.append(h("h2", {}, t("Take a seat")), form);
    } else if (seat === null) {
      lobbyPanel.append(h("p", {}, t("You are watching.")));
    }
  }

  // The table's life around the game: the turn timer, stand-ins, a closed table, leaving.
  async function post(path) {
    try { return await api("POST", `/api/tables/${table.id}${path}`, {}, held && held.token); } catch (err) { toast(err.message, "error"); return null; }
  }
  // The turn clock reads the view message on screen, never a newer one held back behind a
  // finished trick: the seats' "thinking…" and the clock always name the same turn.
  function tickClock() {
    const turn = shown && shown.status === "playing" ? shown.turn : null;
    if (!turn || !table) { clockEl.textContent = ""; return; }
    const left = Math.max(0, Math.min(turn.seconds, Math.ceil((turn.deadline - Date.now()) / 1000)));
    const mine = turn.seats.includes(seat);
    const others = turn.seats.filter((s) => s !== seat).map((s) => personName(table.seats[s].name) || seatLabel(table.seats[s].label)).join(t(" and "));
    clockEl.textContent = !others ? t("Your turn: {left} s", { left })
      : mine ? t("Your turn and {others}'s: {left} s", { others, left }) : t("{others}'s turn: {left} s", { others, left });
    clockEl.classList.toggle("low", left <= 10);
  }
  const ticking = setInterval(tickClock, 500);
  let shownLife = null; // what the bar shows, so that it is rebuilt only when that changes
  let rejoinLink = null; // this seat's private rejoin link, once its holder asked to see it
  function rejoinBox(url) {
    const field = h("input", { class: "rejoin-link", type: "text", readonly: "", value: url, "aria-label": t("Your private rejoin link"), spellcheck: "false" });
    field.addEventListener("focus", () => field.select());
    const copy = h("button", { class: "button", type: "button" }, t("Copy link"));
    copy.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(url); toast(t("Link copied: open it on your other device.")); } catch { field.focus(); toast(t("Select the link and copy it.")); }
    });
    return h("div", { class: "rejoin" },
      h("p", { class: "muted" }, t("Open this link on your phone or another computer to play this seat there. It is private: anyone who has it can play your seat. It stops working if you leave the seat.")),
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
    if (table.status === "closed") notes.push(h("p", { class: "error" }, t("This table is closed: {why}.", { why: closedNote(table.note) })));
    if (table.degraded) notes.push(h("p", { class: "muted" }, t("The parlour is busy: the bots here play a level lower for now.")));
    // Once play has started, a watcher is told so (the waiting room says it before).
    if (seat === null && table.status !== "waiting") notes.push(h("p", { class: "watching" }, t("You are watching.")));
    table.seats.forEach((s, i) => {
      if (!s.stand_in) return;
      if (i === seat) {
        notes.push(h("p", { class: "stand-in" }, t("A bot is playing for you while you are away.")));
        const back = h("button", { class: "button primary", type: "button" }, t("I'm back"));
        back.addEventListener("click", () => link.send({ type: "sync" }));
        buttons.push(back);
      } else {
        const who = personName(s.name) || seatLabel(s.label);
        notes.push(h("p", { class: "muted" }, s.taken ? t("A bot is playing for {who} while they are away.", { who }) : t("A bot is playing for {who}: the seat is free.", { who })));
        if (seat !== null && seat === table.creator && s.taken) {
          const free = h("button", { class: "button", type: "button" }, t("Free {seat}'s seat", { seat: who }));
          free.addEventListener("click", async () => { free.disabled = true; await post(`/seats/${i}/free`); });
          buttons.push(free);
        }
      }
    });
    const freeNow = table.seats.filter((s) => !s.taken && s.kind === "person");
    if (seat === null && (table.status === "playing" || table.status === "finished") && freeNow.length) {
      const sit = h("button", { class: "button primary", type: "button" }, t("Sit at {seat}", { seat: seatLabel(freeNow[0].label) }));
      sit.addEventListener("click", async () => {
        const name = myName() || (prompt(t("Your name")) || "").trim();
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
      const other = h("button", { class: "button", type: "button", "aria-expanded": String(Boolean(rejoinLink)), title: t("Use this seat on another device: a private link") }, t("Play on another device"));
      other.addEventListener("click", async () => {
        if (rejoinLink) { rejoinLink = null; shownLife = null; renderLife(); return; }
        const res = await post("/rejoin-link");
        if (!res) return;
        rejoinLink = new URL(res.link, location.origin).href;
        shownLife = null;
        renderLife();
      });
      buttons.push(other);
      const leave = h("button", { class: "button", type: "button" }, t("Leave my seat"));
      leave.addEventListener("click", async () => {
        if (!confirm(t("Leave your seat? Someone else may take it; a bot plays it meanwhile."))) return;
        if (await post("/leave")) { forgetSeats([tableId]); route(); }
      });
      buttons.push(leave);
    }
    const players = playersControl(table, seat, showView); // mute, report (signed in: account.js)
    if (players) buttons.push(players);
    tickClock();
    lifeBar.append(clockEl, hints.el, ...notes);
    if (buttons.length) lifeBar.append(seatButtons(buttons));
    if (rejoinLink && seat !== null) lifeBar.append(rejoinBox(rejoinLink));
    lifeBar.hidden = false;
  }

  // The seat's buttons: a row of them on a wide screen; on a phone the everyday ones (I'm
  // back, Sit at) stay in the row and the others fold behind one "⋯" button (style.css), so
  // that the bar above the table is one short row.
  function seatButtons(buttons) {
    const everyday = buttons.filter((b) => b.classList.contains("primary"));
    const others = buttons.filter((b) => !everyday.includes(b));
    if (!others.length) return h("div", { class: "buttons" }, ...everyday);
    const more = h("button", { class: "button life-more", type: "button", "aria-expanded": "false", "aria-label": t("More options"), title: t("More options") }, "⋯");
    const menu = h("div", { class: "life-menu" }, more, h("div", { class: "life-list" }, ...others));
    more.addEventListener("click", () => more.setAttribute("aria-expanded", String(menu.classList.toggle("open"))));
    return h("div", { class: "buttons" }, ...everyday, menu);
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
      const again = h("button", { class: "button primary", type: "button" }, solitaire ? t("New deal") : t("Play again"));
      again.addEventListener("click", async () => {
        again.disabled = true;
        try { await api("POST", `/api/tables/${table.id}/again`, {}, held && held.token); } catch (err) { toast(err.message, "error"); again.disabled = false; }
      });
      buttons.push(again);
      if (solitaire && table.deal) {
        buttons.push(h("a", { class: "button", href: `/new/${table.game}?deal=${table.deal}`, "data-nav": "" }, t("Deal again")));
      }
    }
    if (table.daily) buttons.push(...dailyEndButtons()); // its records open when its day is over
    else {
      buttons.push(h("a", { class: "button", href: `/api/tables/${table.id}/matches/${m}/record`, download: "" }, t("Download the record")));
      buttons.push(h("a", { class: "button", href: `/t/${table.id}/replay/${m}`, "data-nav": "" }, t("Replay step by step")));
    }
    const reviewButton = reviewLink(table, m, seat);
    if (reviewButton) buttons.push(reviewButton);
    // The results lie over the table; "See the table" folds them to a button at the foot.
    const fold = h("button", { class: "button fold", type: "button", "aria-expanded": "true" }, t("See the table"));
    fold.addEventListener("click", () => {
      const folded = endBar.classList.toggle("folded");
      fold.textContent = folded ? t("Show the results") : t("See the table");
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
  const held = seatFor(tableId);
  const heldSeat = held ? held.seat : null;
  let info = null;
  let renderer = null;
  let step = 0;
  let steps = 0;
  let viewSeat = 0;
  let playing = null;
  let loading = false;
  let review = null; // the review panel (review.js)
  const board = h("section", { class: "board", "aria-label": t("Replay") });
  const caption = h("p", { class: "replay-caption", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: "0", max: "0", value: "0", id: "replay-step", "aria-label": t("Step") });
  const seatSel = h("select", { id: "replay-seat", "aria-label": t("Whose view") });
  const btn = (label, content, fn) => { const b = h("button", { class: "button icon-button", type: "button", "aria-label": label, title: label }, content); b.addEventListener("click", fn); return b; };
  const playBtn = btn(p("replay", "Play"), [icon("play"), p("replay", "Play")], () => toggle());
  const controls = h("div", { class: "replay-controls", role: "toolbar", "aria-label": t("Replay controls") },
    btn(t("First step"), icon("first"), () => go(0)), btn(t("Previous step"), icon("previous"), () => go(step - 1)), playBtn,
    btn(t("Next step"), icon("next"), () => go(step + 1)), btn(t("Last step"), icon("last"), () => go(steps)), slider,
    h("label", { for: "replay-seat" }, t("View of"), " "), seatSel);
  app.append(h("section", { class: "replay card-panel" }, h("h1", {}, t("Replay of match {match}", { match })), controls, caption), board);
  crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "),
    h("a", { href: `/t/${tableId}`, "data-nav": "" }, t("Table {id}", { id: tableId })), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, t("Replay")));

  const ctx = {
    seat: 0,
    get names() { return info ? displayNames(info, heldSeat) : []; }, // "You" for the seat this device held
    badge(s) { return info ? seatBadge(info.seats[s]) : ""; },
    get table() { return info; },
    live: false,
    act() { return false; },
    hint() { return false; },
    timed: null,
    react() { return false; },
    say: toast,
  };

  async function go(want) {
    if (loading) return;
    want = Math.max(0, Math.min(steps || want, want));
    loading = true;
    try {
      const res = await api("GET", `/api/tables/${tableId}/matches/${match}/replay?step=${want}${viewSeat === null ? "" : `&seat=${viewSeat}`}`);
      steps = res.steps; step = res.step;
      slider.max = String(steps); slider.value = String(step);
      // the move in words of the reader's language, its cards as chips (as the narration's)
      caption.replaceChildren(t("Step {step} of {steps}:", { step, steps }), " ", ...(res.action
        ? [t("{who}:", { who: personName(info.seats[res.action.seat].name) || seatLabel(info.seats[res.action.seat].label) }), " ",
          h("span", { class: "replay-move" }, ...richText(res.action.words))] : [t("the deal")]));
      ctx.seat = viewSeat;
      renderer.update(res.view, { narration: res.narration || null, step: res.step, action: res.action, deal: res.deal ?? null });
      if (review) review.stepped(step, viewSeat);
    } catch (err) {
      toast(err.message, "error");
      stop();
    } finally { loading = false; }
  }
  const playLabel = (paused) => {
    clear(playBtn);
    const label = paused ? p("replay", "Play") : t("Pause");
    playBtn.append(icon(paused ? "play" : "pause"), label);
    playBtn.setAttribute("aria-label", label);
    playBtn.title = label;
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
      document.title = [t("Replay"), gameName(info.game_name), "Parlour"].join(" · ");
      addRulesButton(info.game, gameName(info.game_name));
      for (const s of info.seats) seatSel.append(h("option", { value: String(s.seat) }, seatLabel(s.label)));
      seatSel.append(h("option", { value: "" }, t("a spectator")));
      const mod = await loadRenderer(info.game);
      renderer = mod.mount(board, ctx);
      const asked = new URLSearchParams(location.search).get("review");
      review = reviewPanel({ info, match, api, board, steps: () => steps, seat: asked === null ? null : Number(asked),
        async jump(to, who) { viewSeat = who; seatSel.value = String(who); stop(); await go(to); } });
      app.append(review.el);
      await go(0);
    } catch (err) {
      board.append(h("p", { class: "error" }, err.message));
    }
  })();
  return { destroy() { stop(); if (review) review.destroy(); if (renderer) renderer.destroy(); } };
}

// ----------------------------------------------------------------------------- rules
// How to play a game, in the page's language and for a table's options (GET
// /api/games/<id>/rules?lang=..&table=..), or its full rules (&full=true: every decision,
// in the page's language where translated, else English; the answer's lang says which).
const rulesCache = new Map();
async function rulesOf(gameId, tableId, full) {
  const query = new URLSearchParams({ lang: lang() });
  if (tableId) query.set("table", tableId);
  if (full) query.set("full", "true");
  const url = `/api/games/${gameId}/rules?${query}`;
  if (!rulesCache.has(url)) rulesCache.set(url, api("GET", url).catch((err) => { rulesCache.delete(url); throw err; }));
  return rulesCache.get(url);
}

// The address of a game's rules: How to play for a table's options, or the full rules.
function rulesAddress(gameId, tableId, full) {
  if (full) return `/rules/${gameId}/full`;
  return tableId ? `/rules/${gameId}?table=${encodeURIComponent(tableId)}` : `/rules/${gameId}`;
}

// Server-rendered Markdown (raw HTML escaped). Parsed in an inert template first: a figure
// the server does not serve (a path into docs/img) becomes its caption instead of a failed
// request.
function rulesBody(r) {
  const tpl = document.createElement("template");
  tpl.innerHTML = r.html;
  for (const img of tpl.content.querySelectorAll("img")) {
    const src = img.getAttribute("src") || "";
    const caption = img.getAttribute("alt") || t("not shown here");
    if (!/^(data:|\/static\/)/.test(src)) img.replaceWith(h("em", { class: "rules-figure" }, t("[figure: {caption}]", { caption })));
  }
  const body = h("div", { class: r.full ? "rules-text" : "rules-text howto", lang: r.lang });
  body.append(tpl.content);
  if (r.full && r.lang !== lang()) body.prepend(h("p", { class: "muted", lang: lang() }, t("The full rules are written in English.")));
  return body;
}

function rulesPage(gameId, full) {
  const tableId = new URLSearchParams(location.search).get("table");
  const panel = h("article", { class: "rules-page card-panel", "aria-busy": "true" }, h("p", { class: "muted" }, t("Loading the rules…")));
  app.append(panel);
  crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, full ? t("Full rules") : t("How to play")));
  rulesOf(gameId, tableId, full).then((r) => {
    document.title = full ? t("Full rules of {game} · Parlour", { game: r.name }) : t("How to play {game} · Parlour", { game: r.name });
    clear(panel);
    panel.removeAttribute("aria-busy");
    panel.append(rulesBody(r));
    if (!full) panel.append(h("p", { class: "rules-more" }, h("a", { href: rulesAddress(gameId, null, true), "data-nav": "" }, t("Full rules"))));
  }).catch((err) => { clear(panel); panel.append(h("p", { class: "error" }, err.message)); });
  return { destroy() {} };
}

// A "Rules" button in the top bar of a table or replay: How to play, for this table's
// options, in a dialog over the table (Escape closes it), with links to the page by itself
// and to the full rules.
function addRulesButton(gameId, gameName) {
  if (crumbs.querySelector(".rules-button")) return;
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,16})/);
  const button = h("button", { class: "rules-button", type: "button", "aria-haspopup": "dialog" }, t("Rules"));
  button.addEventListener("click", () => openRules(gameId, gameName, m ? m[1] : null));
  crumbs.append(button);
}

async function openRules(gameId, gameName, tableId) {
  let dialog = document.getElementById("rules-dialog");
  if (!dialog) {
    const close = h("button", { class: "button", type: "button", "aria-label": t("Close the rules") }, t("Close"));
    dialog = h("dialog", { id: "rules-dialog", class: "rules-dialog", "aria-labelledby": "rules-dialog-title" },
      h("header", {}, h("h2", { id: "rules-dialog-title" }),
        h("a", { class: "small rules-full", target: "_blank", rel: "noopener" }, t("Full rules")),
        h("a", { class: "small rules-tab", target: "_blank", rel: "noopener" }, t("Open in a new tab")), close),
      h("div", { class: "rules-scroll" }));
    close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (ev) => { if (ev.target === dialog) dialog.close(); });
    document.body.append(dialog);
  }
  dialog.querySelector("h2").textContent = t("How to play {game}", { game: gameName });
  dialog.querySelector("a.rules-full").setAttribute("href", rulesAddress(gameId, null, true));
  dialog.querySelector("a.rules-tab").setAttribute("href", rulesAddress(gameId, tableId, false));
  const scroll = dialog.querySelector(".rules-scroll");
  clear(scroll);
  scroll.append(h("p", { class: "muted" }, t("Loading the rules…")));
  if (!dialog.open) dialog.showModal();
  try {
    const r = await rulesOf(gameId, tableId, false);
    clear(scroll);
    const body = rulesBody(r);
    const title = body.querySelector("h1"); // the dialog's header says it
    if (title) { dialog.querySelector("h2").textContent = title.textContent; title.remove(); }
    scroll.append(body);
    scroll.scrollTop = 0;
  } catch (err) {
    clear(scroll);
    scroll.append(h("p", { class: "error" }, err.message));
  }
}

// ----------------------------------------------------------------------------- results
// The results screen at the end of a match: who won, the final standings, and the match
// history (the renderer's own, if it has results(view); else the rounds in the view).
// results(view) may give: headline, scoreLabel, scoreText (a solitaire's score line),
// history and historyTitle.
function resultsSection(view, table, seat, renderer) {
  const names = displayNames(table, seat);
  const o = view.outcome;
  const own = renderer && renderer.results ? renderer.results(view) || {} : {};
  const section = h("section", { class: "results", "aria-labelledby": "results-title" });
  let headline = own.headline;
  if (!headline && o) {
    const all = o.winners.length === names.length;
    if (all) headline = t("The match is drawn");
    else if (seat !== null && o.winners.includes(seat)) headline = o.winners.length > 1 ? t("You win, with your partner!") : t("You win!");
    else {
      const who = o.winners.map((s) => names[s]).join(t(" and "));
      headline = o.winners.length === 1 ? t("{who} wins", { who }) : t("{who} win", { who }); // the subject's number, not a count
    }
  }
  const solitaire = names.length === 1;
  section.append(h("h2", { id: "results-title", class: "results-title", tabindex: "-1" }, headline || t("The match is over.")));
  // A match a safety stop ended says why, in the engine's words (rendered by the server).
  if (typeof view.stopped === "string") section.append(h("p", { class: "results-stop" }, view.stopped));
  const scoreLabel = own.scoreLabel || t("Score");
  if (o && solitaire) section.append(h("p", { class: "results-score" }, own.scoreText || `${scoreLabel}: ${fmtNum(o.points[0])}`));
  if (o && !solitaire) {
    // Partners (a view's teams: Spades) stand together: one row a partnership, its players
    // named in it; else one row a seat.
    const teams = Array.isArray(view.teams) && view.teams.length > 1 ? view.teams : null;
    const player = (s) => { const badge = s === seat ? null : badgeElement(table.seats[s]); return badge ? [names[s], " ", badge] : [names[s]]; };
    const players = (seats) => seats.flatMap((s, i) => [...(i ? [t(" and ")] : []), ...player(s)]);
    const entries = teams
      ? teams.map((seats, i) => ({ first: seats[0], head: [h("span", { class: "standings-team" }, teamName(view.team_names ? view.team_names[i] : String(i + 1))), h("small", { class: "team-players" }, ...players(seats))] }))
      : names.map((_, s) => ({ first: s, head: player(s) }));
    entries.sort((a, b) => o.placing[a.first] - o.placing[b.first] || a.first - b.first);
    const rows = entries.map((e) => h("tr", { class: o.winners.includes(e.first) ? "winner" : null },
      h("td", {}, ordinal(o.placing[e.first])), h("th", { scope: "row" }, ...e.head), h("td", {}, fmtNum(o.points[e.first]))));
    section.append(h("table", { class: `standings${teams ? " by-team" : ""}` },
      h("caption", { class: "sr-only" }, t("Final standings")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, teams ? t("Team") : t("Player")), h("th", { scope: "col" }, own.scoreLabel || t("Points")))),
      h("tbody", {}, ...rows)));
  }
  const history = own.history !== undefined ? own.history : roundsTable(view, names);
  if (history) section.append(h("div", { class: "results-history" }, h("h3", {}, own.historyTitle || t("Match history")), history));
  return section;
}

const fmtNum = (x) => num(Number.isInteger(x) ? x : Math.round(x * 10) / 10);
// A place in the standings: "1st" in English, "ke-1" in Indonesian, "1º" in Portuguese
// (Intl's ordinal rules choose the English suffix).
const ORDINAL = new Intl.PluralRules("en", { type: "ordinal" });
function ordinal(place) {
  switch (ORDINAL.select(place)) {
    case "one": return t("{n}st", { n: place });
    case "two": return t("{n}nd", { n: place });
    case "few": return t("{n}rd", { n: place });
    default: return t("{n}th", { n: place });
  }
}

// A game whose view keeps a list of rounds with the scores after each gets them as a table.
function roundsTable(view, names) {
  const rounds = Array.isArray(view.rounds) ? view.rounds.filter((r) => r && Array.isArray(r.scores)) : [];
  if (!rounds.length) return null;
  const head = h("tr", {}, h("th", { scope: "col" }, t("Round")), ...names.map((name) => h("th", { scope: "col" }, name)));
  const body = rounds.flatMap((r, i) => [h("tr", {}, h("th", { scope: "row" }, String(r.round ?? i + 1)),
    ...r.scores.map((sc, s) => {
      const pts = Array.isArray(r.points) ? r.points[s] : r.winner === s ? r.points : null;
      return h("td", {}, h("b", {}, fmtNum(sc)), pts ? h("small", { class: "muted" }, ` +${fmtNum(pts)}`) : null);
    })),
    // a round a safety stop ended says so under its row (the engine's words, rendered by the server)
    ...(typeof r.stopped === "string" ? [h("tr", { class: "round-stop" }, h("td", { colspan: String(names.length + 1) }, r.stopped))] : [])]);
  return h("table", { class: "history-table" }, h("caption", { class: "sr-only" }, t("Scores after each round")), h("thead", {}, head), h("tbody", {}, ...body));
}

loadLanguage().then(loadAccount).then(() => {
  document.querySelector(".topbar").append(languageSwitch());
  route();
});
