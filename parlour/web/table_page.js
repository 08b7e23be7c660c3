// The table page: one table, one websocket (Link), the game's renderer on the board, and
// around it the waiting room, the table's life bar (turn clock, stand-ins, seat buttons)
// and the results when a match is over. Everything shown comes from the view the server
// sent for this seat.
//
// The page's state is one object (newPage); each part of the page is a function of it.
// What belongs to the whole app (routing, the crumbs, the rules, the renderers' modules)
// comes in `env`: { app, crumbs, crumb, route, loadRenderer, addRulesButton }.

import { h, toast, clear } from "./dom.js";
import { api } from "./api.js";
import { seatFor, keepSeat, forgetSeats } from "./seats.js";
import { soundSwitch } from "./sound.js";
import { lang, t, n } from "./i18n.js";
import { closedNote, gameName, seatLabel, timeLeft } from "./words.js";
import { displayNames, personName, seatBadge, seatLine } from "./names.js";
import { myName, keepName } from "./lobby.js";
import { playersControl } from "./account.js";
import { reviewLink } from "./review.js";
import { hintButton } from "./hints.js";
import { dailyEndButtons } from "./players.js";
import { resultsSection } from "./results.js";
import { talkControl, TALK_CODES } from "./talk.js";

// ----------------------------------------------------------------------------- the page
export function tablePage(env, tableId) {
  const page = newPage(env, tableId);
  page.ctx = tableContext(page);
  page.link = new Link(tableId, page.held && page.held.token, {
    status: (state, code, why) => onStatus(page, state, code, why),
    message: (msg) => onMessage(page, msg),
  });
  page.ticking = setInterval(() => tickClock(page), 500);
  return { destroy() { destroyPage(page); } };
}

// The page's state and its elements, put on the screen.
function newPage(env, tableId) {
  const held = seatFor(tableId);
  const page = {
    env, tableId, held,
    seat: held ? held.seat : null,
    table: null,
    renderer: null,
    rendererFor: null,
    latest: null, // {version, view, match}: the newest view message
    shown: null, // the view message on screen (a finished trick holds the newer one back)
    pending: false,
    destroyed: false,
    online: false,
    // A view the renderer wants read (a finished trick: renderer.holds(view)) stays on
    // screen a moment before the next one replaces it, however fast the bots answer.
    holdUntil: 0,
    holdTimer: null,
    shownLife: null, // what the life bar shows, so that it is rebuilt only when that changes
    rejoinLink: null, // this seat's private rejoin link, once its holder asked to see it
    shownEnd: null, // the match whose results are on screen
  };
  page.statusEl = h("span", { class: "conn", role: "status" }, t("connecting…"));
  page.lobbyPanel = h("section", { class: "waiting card-panel", hidden: "" });
  page.board = h("section", { class: "board", "aria-label": t("Table") });
  page.endBar = h("section", { class: "endbar", hidden: "", "aria-live": "polite" });
  // A lost connection: a banner over the table, the table greyed and deaf until the
  // server has the page back (a move made blind could be lost or land late).
  page.offlineBanner = h("div", { class: "conn-banner", role: "alert", hidden: "" },
    h("strong", {}, t("Connection lost: reconnecting…")), " ", h("span", { class: "conn-why" }), t("Your seat is kept; the table comes back as it was."));
  page.whyEl = page.offlineBanner.querySelector(".conn-why");
  page.lifeBar = h("section", { class: "lifebar", hidden: "", "aria-live": "polite" });
  page.clockEl = h("span", { class: "turn-clock", role: "timer" });
  page.hints = hintButton({ ask: () => page.ctx.hint(), board: page.board });
  page.talk = talkControl({
    send(msg) {
      if (page.online && page.link.send(msg)) return true;
      toast(t("Not connected: reconnecting…"), "error");
      return false;
    },
    where: () => ({ table: page.table, seat: page.seat }),
  });
  // A phone held on its side: the tables are laid out for a phone held upright (style.css
  // shows this over the table then, and only then).
  page.uprightNote = h("div", { class: "turn-upright", role: "note" },
    h("p", { class: "turn-upright-title" }, t("Turn your phone upright")),
    h("p", {}, t("The table is laid out for a phone held upright. Your seat is kept meanwhile.")));
  env.app.append(page.offlineBanner, page.lobbyPanel, page.lifeBar, page.board, page.endBar, page.uprightNote);
  env.crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", { class: "crumb-here" }, t("Table {id}", { id: tableId })), page.statusEl);
  document.body.classList.add("table-page");
  env.crumbs.append(soundSwitch(), fourColourSwitch());
  return page;
}

function destroyPage(page) {
  page.destroyed = true;
  clearTimeout(page.holdTimer);
  clearInterval(page.ticking);
  document.body.classList.remove("table-page");
  delete document.body.dataset.version;
  page.link.close();
  page.talk.destroy();
  if (page.renderer) page.renderer.destroy();
}

// What the game's renderer gets: mount(board, ctx).
function tableContext(page) {
  return {
    get seat() { return page.seat; },
    get names() { return page.table ? displayNames(page.table, page.seat) : []; },
    badge(s) { return page.table && s !== page.seat ? seatBadge(page.table.seats[s]) : ""; }, // "You" needs none
    get stepMs() { return page.table && page.table.pace ? page.table.pace.step_ms : 120; },
    get table() { return page.table; },
    live: true,
    act(text) {
      // Never a move made on a picture older than the newest view: while a finished trick
      // holds the newer view back (it may be the answer to the move just made), the page
      // would still offer that move.
      if (!page.online || !page.latest || page.pending || page.latest !== page.shown) return false;
      if (!page.link.send({ type: "act", action: text, version: page.latest.version })) {
        toast(t("Not connected: reconnecting…"), "error");
        return false;
      }
      page.pending = true;
      return true;
    },
    // A timed phase (the slap): the server times it from its own signal; we only say "now".
    get timed() { return page.latest && page.latest.timed ? page.latest.timed : null; },
    react() {
      const timed = page.latest && page.latest.timed;
      return Boolean(page.online && timed && page.seat !== null && page.link.send({ type: "react", phase: timed.phase }));
    },
    // A hint from the game's hint bot, worked out by the server from this seat's view; the
    // answer comes to the renderer's hinted(msg).
    hint() {
      if (!page.online || !page.latest || page.seat === null || !page.table || !page.table.hints) return false;
      return page.link.send({ type: "hint", version: page.latest.version });
    },
    say: toast,
    // How long a thing on the table stays readable (a finished trick): the table's pace.
    get readingMs() { return readingMs(page.table); },
    // The player is done reading what the table holds on screen (a deal's score): the
    // newer view, if one came meanwhile, is shown now.
    release() {
      if (page.holdUntil <= performance.now()) return;
      page.holdUntil = 0;
      clearTimeout(page.holdTimer);
      if (page.latest !== page.shown) showView(page);
    },
  };
}

// ----------------------------------------------------------------------------- the socket's news
function onStatus(page, state, code, why) {
  const { board } = page;
  page.online = state === "connected";
  page.whyEl.textContent = why ? `${why}. ` : "";
  page.offlineBanner.hidden = state !== "reconnecting";
  board.classList.toggle("offline", state === "reconnecting");
  board.inert = state === "reconnecting";
  if (state === "reconnecting") page.pending = false;
  page.statusEl.textContent = state === "connected" ? "" : state === "reconnecting" ? t("reconnecting…") : "";
  page.statusEl.className = `conn conn-${state}`;
  if (state === "refused") {
    if (code === 4403) { forgetSeats([page.tableId]); toast(t("Your seat token is no longer valid: watching instead."), "error"); }
    clear(board);
    board.append(h("p", { class: "error" }, code === 4404 ? t("There is no table with that id.") : code === 4410 ? t("This table is closed: it could not be restored.") : t("This page could not join the table.")));
    if (code === 4403) setTimeout(() => { if (!page.destroyed) page.env.route(); }, 1200);
  }
}

function onMessage(page, msg) {
  const { renderer, latest } = page;
  if (msg.type === "welcome") {
    page.seat = msg.seat;
    page.table = msg.table;
    showTable(page);
    page.talk.welcome();
  } else if (msg.type === "table") {
    page.table = msg.table;
    if (page.seat !== null && !page.table.seats[page.seat].taken) { page.seat = null; forgetSeats([page.tableId]); } // we left
    showTable(page);
  } else if (msg.type === "view") {
    if (latest && msg.match === latest.match && msg.version < latest.version) return;
    page.pending = false;
    if (page.table) { page.table.status = msg.status; page.table.match = msg.match; }
    // The view on screen again (a new owner greets the page after a takeover; a resync):
    // it replaces the one shown, its timer with it. Held back behind the finished trick
    // the page already shows, it would make the page refuse the move it offers.
    const shown = page.shown;
    if (shown && msg.match === shown.match && msg.version === shown.version) {
      page.latest = page.shown = msg;
      tickClock(page);
      return;
    }
    page.latest = msg;
    showView(page);
  } else if (msg.type === "hint") {
    if (renderer && renderer.hinted && latest && msg.match === latest.match && msg.version === latest.version) renderer.hinted(msg);
    else if (renderer && !renderer.hinted) page.hints.hinted(msg);
  } else if (msg.type === "talk") {
    page.talk.hear(msg);
  } else if (msg.type === "error" && TALK_CODES.has(msg.code)) {
    toast(msg.message, "error"); // talk refused: the table is as it was
  } else if (msg.type === "error") {
    page.pending = false;
    if (msg.code !== "stale") toast(msg.message, "error");
    if (renderer && renderer.refused) renderer.refused(msg);
    page.hints.refused(msg);
  }
}

// ----------------------------------------------------------------------------- the board
async function showTable(page) {
  const { table, env } = page;
  document.title = `${gameName(table.game_name)} · Parlour`;
  env.addRulesButton(table.game, gameName(table.game_name));
  renderWaiting(page);
  if (table.status !== "waiting" && (!page.renderer || page.rendererFor !== table.game)) {
    const mod = await env.loadRenderer(table.game);
    if (page.destroyed) return;
    if (page.renderer) page.renderer.destroy();
    clear(page.board);
    page.renderer = mod.mount(page.board, page.ctx);
    page.rendererFor = page.table.game;
  }
  showView(page);
}

function showView(page) {
  renderLife(page);
  const { renderer, latest, table } = page;
  if (!renderer || !latest) { renderEnd(page); return; }
  const wait = page.holdUntil - performance.now();
  if (wait > 0) { clearTimeout(page.holdTimer); page.holdTimer = setTimeout(() => showView(page), wait); return; }
  document.body.dataset.version = `${latest.match}:${latest.version}`;
  page.shown = latest;
  tickClock(page); // the clock tells the turn of the view on screen, as the seats do
  renderer.update(latest.view, { narration: latest.narration || null });
  page.hints.update({ match: latest.match, version: latest.version, usable: Boolean(page.online && page.seat !== null && table && table.hints && latest.status === "playing" && !renderer.hinted && latest.view.legal && latest.view.legal.length) });
  // holds(view): true for one reading at the table's pace, or {ms} (a Spades deal's score)
  const held = renderer.holds ? renderer.holds(latest.view) : false;
  page.holdUntil = held ? performance.now() + (held === true ? readingMs(table) : held.ms) : 0;
  renderEnd(page);
}

// ----------------------------------------------------------------------------- the waiting room
function renderWaiting(page) {
  const { table, lobbyPanel, seat } = page;
  clear(lobbyPanel);
  if (table.status !== "waiting") { lobbyPanel.hidden = true; return; }
  lobbyPanel.hidden = false;
  const free = table.seats.filter((s) => !s.taken);
  lobbyPanel.append(
    h("h1", {}, n("{game}: waiting for {n} player", "{game}: waiting for {n} players", free.length, { game: gameName(table.game_name) })),
    h("p", { class: "muted" }, t("The game starts as soon as every seat is taken. Send this link to the friends you want at the table:")),
    inviteBox(table),
    h("ul", { class: "seat-list" }, ...table.seats.map((s, i) => h("li", { class: s.taken ? "taken" : "free" },
      h("strong", {}, seatLabel(s.label)), " ", seatLine(s, i, seat)))));
  if (seat === null && free.length) {
    lobbyPanel.append(h("h2", {}, t("Take a seat")), joinForm(page, free));
  } else if (seat === null) {
    lobbyPanel.append(h("p", {}, t("You are watching.")));
  }
}

function inviteBox(table) {
  const address = `${location.origin}/t/${table.id}`;
  const copy = h("button", { class: "button", type: "button" }, t("Copy link"));
  const linkIn = h("input", { id: "invite", readonly: "", value: address, "aria-label": t("Invite link") });
  copy.addEventListener("click", async () => {
    linkIn.select();
    try { await navigator.clipboard.writeText(address); toast(t("Invite link copied.")); } catch { document.execCommand("copy"); toast(t("Invite link copied.")); }
  });
  return h("div", { class: "invite" }, linkIn, copy);
}

function joinForm(page, free) {
  const { table } = page;
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
      page.env.route(); // reconnect holding the seat
    } catch (err) { toast(err.message, "error"); }
  });
  return form;
}

// ----------------------------------------------------------------------------- the table's life
// The table's life around the game: the turn timer, stand-ins, a closed table, leaving.
async function post(page, path) {
  try { return await api("POST", `/api/tables/${page.table.id}${path}`, {}, page.held && page.held.token); } catch (err) { toast(err.message, "error"); return null; }
}

// The turn clock reads the view message on screen, never a newer one held back behind a
// finished trick: the seats' "thinking…" and the clock always name the same turn.
function tickClock(page) {
  const { shown, table, seat, clockEl } = page;
  const turn = shown && shown.status === "playing" ? shown.turn : null;
  if (!turn || !table) { clockEl.textContent = ""; return; }
  const left = Math.max(0, Math.min(turn.seconds, Math.ceil((turn.deadline - Date.now()) / 1000)));
  const mine = turn.seats.includes(seat);
  const others = turn.seats.filter((s) => s !== seat).map((s) => personName(table.seats[s].name) || seatLabel(table.seats[s].label)).join(t(" and "));
  if (left >= 3600) { // a correspondence table's move: hours or days left
    const long = timeLeft(left);
    clockEl.textContent = !others ? t("Your move: {left} left", { left: long })
      : mine ? t("Your move and {others}'s: {left} left", { others, left: long }) : t("{others}'s move: {left} left", { others, left: long });
  } else {
    clockEl.textContent = !others ? t("Your turn: {left} s", { left })
      : mine ? t("Your turn and {others}'s: {left} s", { others, left }) : t("{others}'s turn: {left} s", { others, left });
  }
  clockEl.classList.toggle("low", left <= 10);
}

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

function renderLife(page) {
  const { table, seat, lifeBar } = page;
  if (!table) return;
  tickClock(page);
  const key = JSON.stringify([seat, table.status, table.note, table.degraded, table.creator,
    table.seats.map((s) => [s.taken, s.stand_in, s.name])]);
  if (key === page.shownLife) return;
  page.shownLife = key;
  clear(lifeBar);
  const notes = [];
  const buttons = [];
  if (table.status === "closed") notes.push(h("p", { class: "error" }, t("This table is closed: {why}.", { why: closedNote(table.note) })));
  if (table.degraded) notes.push(h("p", { class: "muted" }, t("The parlour is busy: the bots here play a level lower for now.")));
  if (table.move_seconds && table.status === "playing") notes.push(h("p", { class: "muted correspondence" }, t("A game by correspondence: {time} for each move. You may close this page between moves: the table waits, and the lobby shows when it is your move.", { time: timeLeft(table.move_seconds) })));
  // Once play has started, a watcher is told so (the waiting room says it before).
  if (seat === null && table.status !== "waiting") notes.push(h("p", { class: "watching" }, t("You are watching.")));
  standIns(page, notes, buttons);
  const sit = sitButton(page);
  if (sit) buttons.push(sit);
  if (seat !== null && table.status !== "closed") buttons.push(otherDeviceButton(page), leaveButton(page));
  const players = playersControl(table, seat, () => showView(page)); // mute, report (signed in: account.js)
  if (players) buttons.push(players);
  tickClock(page);
  lifeBar.append(page.clockEl, page.hints.el, ...notes, page.talk.el);
  page.talk.update();
  if (buttons.length) lifeBar.append(seatButtons(buttons));
  if (page.rejoinLink && seat !== null) lifeBar.append(rejoinBox(page.rejoinLink));
  lifeBar.hidden = false;
}

// The seats a bot plays for now: "I'm back" at one's own, "Free its seat" for the creator.
function standIns(page, notes, buttons) {
  const { table, seat } = page;
  table.seats.forEach((s, i) => {
    if (!s.stand_in) return;
    if (i === seat) {
      notes.push(h("p", { class: "stand-in" }, t("A bot is playing for you while you are away.")));
      const back = h("button", { class: "button primary", type: "button" }, t("I'm back"));
      back.addEventListener("click", () => page.link.send({ type: "sync" }));
      buttons.push(back);
    } else {
      const who = personName(s.name) || seatLabel(s.label);
      notes.push(h("p", { class: "muted" }, s.taken ? t("A bot is playing for {who} while they are away.", { who }) : t("A bot is playing for {who}: the seat is free.", { who })));
      if (seat !== null && seat === table.creator && s.taken) {
        const free = h("button", { class: "button", type: "button" }, t("Free {seat}'s seat", { seat: who }));
        free.addEventListener("click", async () => { free.disabled = true; await post(page, `/seats/${i}/free`); });
        buttons.push(free);
      }
    }
  });
}

// A watcher may sit at a person's seat freed during play.
function sitButton(page) {
  const { table, seat } = page;
  const freeNow = table.seats.filter((s) => !s.taken && s.kind === "person");
  if (!(seat === null && (table.status === "playing" || table.status === "finished") && freeNow.length)) return null;
  const sit = h("button", { class: "button primary", type: "button" }, t("Sit at {seat}", { seat: seatLabel(freeNow[0].label) }));
  sit.addEventListener("click", async () => {
    const name = myName() || (prompt(t("Your name")) || "").trim();
    if (!name) return;
    keepName(name);
    try {
      const res = await api("POST", `/api/tables/${table.id}/join`, { name, seat: freeNow[0].seat });
      keepSeat(table.id, res.seat, res.token);
      page.env.route();
    } catch (err) { toast(err.message, "error"); }
  });
  return sit;
}

function otherDeviceButton(page) {
  const other = h("button", { class: "button", type: "button", "aria-expanded": String(Boolean(page.rejoinLink)), title: t("Use this seat on another device: a private link") }, t("Play on another device"));
  other.addEventListener("click", async () => {
    if (page.rejoinLink) { page.rejoinLink = null; page.shownLife = null; renderLife(page); return; }
    const res = await post(page, "/rejoin-link");
    if (!res) return;
    page.rejoinLink = new URL(res.link, location.origin).href;
    page.shownLife = null;
    renderLife(page);
  });
  return other;
}

function leaveButton(page) {
  const leave = h("button", { class: "button", type: "button" }, t("Leave my seat"));
  leave.addEventListener("click", async () => {
    if (!confirm(t("Leave your seat? Someone else may take it; a bot plays it meanwhile."))) return;
    if (await post(page, "/leave")) { forgetSeats([page.tableId]); page.env.route(); }
  });
  return leave;
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

// ----------------------------------------------------------------------------- the results
function renderEnd(page) {
  const { table, latest, renderer, endBar, seat } = page;
  if (!table || !latest || latest.status !== "finished") { clear(endBar); endBar.hidden = true; page.shownEnd = null; return; }
  if (!renderer) return; // the results wait for the table's renderer (it knows the match history)
  const m = latest.match;
  const key = `${m}:${latest.version}:${page.rendererFor}`;
  if (page.shownEnd === key) return;
  const fresh = page.shownEnd === null && endBar.hidden;
  page.shownEnd = key;
  clear(endBar);
  endBar.hidden = false;
  const buttons = endButtons(page, m);
  endBar.classList.remove("folded");
  endBar.append(resultsSection(latest.view, table, seat, renderer), h("div", { class: "buttons" }, ...buttons));
  if (fresh) endBar.querySelector(".results-title").focus({ preventScroll: true });
}

// Play again (or a solitaire's new deal), the record and the replay, the review, and the
// fold that shows the table under the results.
function endButtons(page, m) {
  const { table, seat, held } = page;
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
  buttons.push(foldButton(page.endBar));
  return buttons;
}

// The results lie over the table; "See the table" folds them to a button at the foot.
function foldButton(endBar) {
  const fold = h("button", { class: "button fold", type: "button", "aria-expanded": "true" }, t("See the table"));
  fold.addEventListener("click", () => {
    const folded = endBar.classList.toggle("folded");
    fold.textContent = folded ? t("Show the results") : t("See the table");
    fold.setAttribute("aria-expanded", folded ? "false" : "true");
  });
  return fold;
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
// speed (its summary's pace, chosen when the table was opened; parlour/server/play/pace.py),
// unless this device keeps a speed of its own (localStorage "parlour.pace", also what the
// lobby offers first).
const READING_MS = { slow: 2000, normal: 1100, fast: 400 };
function readingMs(table) {
  const own = READING_MS[localStorage.getItem("parlour.pace")];
  return own || (table && table.pace ? table.pace.reading_ms : READING_MS.normal);
}
