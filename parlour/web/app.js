// Parlour in the browser: the lobby, the table page (one websocket per page), replays.
// Generic over the games: each game's table is drawn by the ES module its spec names (the
// game list's "renderer", e.g. tables/spades.js), which exports mount(root, ctx) ->
// {update(view), destroy()}.
// Everything shown at a table comes from the view the server sent for this seat.

import { h, toast, clear, icon } from "./dom.js";
import { api } from "./api.js";
import { seatFor, keepSeat } from "./seats.js";
import { loadLanguage, lang, t, p } from "./i18n.js";
import { languageSwitch, gameName, seatLabel } from "./words.js";
import { displayNames, personName, seatBadge } from "./names.js";
import { lobbyPage as showLobby, newTablePage as showNewTable, myName } from "./lobby.js";
import { loadAccount, isAccountPath, accountPage, mayHoldSeatAt, claimPage, signedInAccount } from "./account.js";
import { reviewPanel } from "./review.js";
import { richText } from "./tables/cards.js";
import { tablePage as showTable } from "./table_page.js";
import { dailyPage, leaderboardPage, profilePage } from "./players.js";
import { friendsPage } from "./friends.js";
import { puzzlesPage } from "./puzzles.js";
import { setNavigate, arrivedAt } from "./room.js";

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
  arrivedAt(path);
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
  else if ((m = path.match(/^\/puzzles(?:\/(daily|[0-9a-f]{12}))?$/))) current = puzzlesPage({ ...playersCtx(), loadRenderer, signedIn: Boolean(signedInAccount()) }, m[1] || null);
  else if (path === "/friends") current = friendsPage({ ...playersCtx(), signedIn: Boolean(signedInAccount()) });
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
const tableEnv = { app, crumbs, crumb, route, loadRenderer, addRulesButton };
function tablePage(tableId) { return showTable(tableEnv, tableId); }

async function loadRenderer(gameId) {
  const game = (await games()).find((g) => g.id === gameId);
  if (!game) throw new Error(t("unknown game {game}", { game: gameId }));
  return await import(`./${game.renderer}`);
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

setNavigate(navigate);
loadLanguage().then(loadAccount).then(() => {
  document.querySelector(".topbar").append(languageSwitch());
  route();
});
