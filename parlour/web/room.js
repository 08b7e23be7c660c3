// The room on every page (issue 34): one connection per page for a signed-in person, the
// server-sent events of GET /api/people/events (nothing in its address: the session cookie
// says who it is for). It brings the person's room (friends online and their tables, the
// players they follow, their challenges), "your turn" at a table elsewhere, and a rematch
// dealt at a table they played at. Where the stream cannot be had (refused, or no
// EventSource), the page polls GET /api/people instead.
//
// What it shows by itself, on any page: a challenge made to you (Accept, Decline), what
// became of yours (accepted: to the table; declined, withdrawn or expired: says so), your
// turn elsewhere and a rematch, as notices at the foot of the window that never cover a
// table's own controls for long (a phone shows them one at a time, closable). The friends
// page and the profiles read the same room (onRoom).

import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { keepSeat } from "./seats.js";
import { gameName } from "./words.js";

const POLL_MS = 15000;
let source = null;
let polling = null;
let room = null; // the last room message
let who = null; // the signed-in account's name the stream is for
let navigate = (path) => { location.assign(path); };
const listeners = new Set();
const outgoingSeen = new Map(); // challenge id -> the status this page last saw
const answered = new Set(); // incoming challenges this page answered itself
const gameNames = new Map(); // game id -> its English name (from the room's challenges)
const seenNotices = new Set(); // ids of the room's notices this page has had
const lastShown = new Map(); // "type:table" -> when this page last showed that event (ms)

/** The page's router (app.js), so that a notice's button moves within the page. */
export function setNavigate(fn) { navigate = fn; }

/** The room as last told (null before the first message or for a guest). */
export function currentRoom() { return room; }

/** Call fn(room) at each new room message (and now, if there is one); returns the undo. */
export function onRoom(fn) {
  listeners.add(fn);
  if (room) fn(room);
  return () => listeners.delete(fn);
}

/** Whether the signed-in person follows `name` (by the room's lists). */
export function follows(name) {
  if (!room) return false;
  return room.friends.some((f) => f.name === name) || room.following.some((f) => f.name === name);
}

/** Start or stop the room for the account signed in now (null: a guest). */
export function roomFor(account) {
  const name = account ? account.name : null;
  if (name === who) { if (room) friendsBadge(room.friends.filter((f) => f.online).length); return; }
  stop();
  who = name;
  if (name) start();
}

function start() {
  if (typeof EventSource === "undefined") { poll(); return; }
  source = new EventSource("/api/people/events");
  source.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  });
  source.addEventListener("error", () => {
    // the browser tries again by itself while it can; refused (signed out, too many), poll
    if (source && source.readyState === EventSource.CLOSED) { source = null; poll(); }
  });
}

function poll() {
  if (polling) return;
  const once = () => api("GET", "/api/people").then((r) => handle({ type: "room", ...r })).catch(() => {});
  once();
  polling = setInterval(once, POLL_MS);
}

function stop() {
  if (source) { source.close(); source = null; }
  if (polling) { clearInterval(polling); polling = null; }
  room = null;
  outgoingSeen.clear();
  for (const el of noticeBox().querySelectorAll(".room-notice")) el.remove();
  friendsBadge(null);
  for (const fn of listeners) fn(null);
}

/** Ask for the room now (after a change this page made: a follow, a challenge). */
export async function refreshRoom() {
  if (!who) return;
  try { handle({ type: "room", ...(await api("GET", "/api/people")) }); } catch { /* the stream catches up */ }
}

function handle(msg) {
  if (msg.type === "room") gotRoom(msg);
  else if (msg.type === "turn" || msg.type === "rematch") pushed(msg);
  else if (msg.type === "ended") { who = null; stop(); }
}

// A turn or a rematch, from the stream or from the room's notices (kept while Redis was
// away, so that a page on another process hears it as it polls): shown once.
function pushed(msg) {
  const key = `${msg.type}:${msg.table}`;
  const at = lastShown.get(key);
  lastShown.set(key, Date.now());
  if (at !== undefined && Date.now() - at < 60000) return; // the same, by the other way
  if (msg.type === "turn") turnNotice(msg); else rematchNotice(msg);
}

function gotRoom(msg) {
  const first = room === null;
  room = msg;
  awaitingCount((msg.awaiting || []).length);
  for (const notice of msg.notices || []) { // (those before this page opened are not news)
    if (seenNotices.has(notice.id)) continue;
    seenNotices.add(notice.id);
    if (!first) pushed(notice);
  }
  for (const c of [...msg.challenges.incoming, ...msg.challenges.outgoing]) gameNames.set(c.game, c.game_name);
  friendsBadge(msg.friends.filter((f) => f.online).length);
  incomingNotices(msg.challenges.incoming);
  for (const c of msg.challenges.outgoing) {
    const before = outgoingSeen.get(c.id);
    outgoingSeen.set(c.id, c.status);
    if (!first && before !== c.status && (before === "open" || before === undefined) && c.status !== "open") outgoingNotice(c);
  }
  for (const fn of listeners) fn(msg);
}

// The correspondence tables awaiting your move, counted in the page's title on every page
// ("(2) Parlour"; the lobby lists them under "Your turn").
export function awaitingCount(count) {
  const bare = document.title.replace(/^\(\d+\) /, "");
  document.title = count ? `(${count}) ${bare}` : bare;
}

// ----------------------------------------------------------------------------- header
function friendsBadge(online) {
  const box = document.getElementById("account-control");
  let link = document.getElementById("friends-link");
  if (online === null) { if (link) link.remove(); return; }
  if (!box) return;
  if (!link) {
    link = h("a", { id: "friends-link", class: "account-link friends-link", href: "/friends", "data-nav": "" });
    box.prepend(link);
  }
  clear(link);
  link.append(t("Friends"));
  if (online) link.append(" ", h("span", { class: "friends-online", "aria-label": t("{n} online", { n: online }) }, String(online)));
}

// ----------------------------------------------------------------------------- notices
function noticeBox() {
  let box = document.getElementById("room-notices");
  if (!box) {
    box = h("div", { id: "room-notices", class: "room-notices", role: "region", "aria-label": t("Challenges and turns"), "aria-live": "polite" });
    document.body.append(box);
  }
  return box;
}

function notice(key, text, ...buttons) {
  const box = noticeBox();
  const old = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
  const close = h("button", { type: "button", class: "linkish room-close", "aria-label": t("Close") }, "×");
  const el = h("section", { class: "room-notice", "data-key": key }, h("p", {}, text), h("div", { class: "room-buttons" }, ...buttons, close));
  close.addEventListener("click", () => el.remove());
  if (old) old.replaceWith(el); else box.append(el);
  return el;
}

function button(label, fn, cls = "button") {
  const b = h("button", { type: "button", class: cls }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try { await fn(); } catch (err) { toast(err.message, "error"); b.disabled = false; }
  });
  return b;
}

const gameOf = (id, name) => gameName(name || gameNames.get(id) || id);
const onTable = (tableId) => location.pathname === `/t/${tableId}`;

function incomingNotices(incoming) {
  const box = noticeBox();
  const open = new Set(incoming.map((c) => `in-${c.id}`));
  for (const el of box.querySelectorAll('.room-notice[data-key^="in-"]')) {
    if (open.has(el.dataset.key) || el.dataset.over) continue;
    const id = Number(el.dataset.key.slice(3));
    if (answered.has(id)) { el.remove(); continue; }
    el.dataset.over = "1"; // expired or withdrawn while shown: say so
    el.querySelector("p").textContent = t("{name}'s challenge is over: it expired or was withdrawn.", { name: el.dataset.from });
    for (const b of el.querySelectorAll(".room-buttons .button")) b.remove();
    setTimeout(() => el.remove(), 8000);
  }
  for (const c of incoming) {
    if (box.querySelector(`[data-key="in-${c.id}"]`)) continue;
    const el = notice(`in-${c.id}`, t("{name} challenges you to {game}.", { name: c.from, game: gameOf(c.game, c.game_name) }),
      button(t("Accept"), () => accept(c), "button primary"),
      button(t("Decline"), () => decline(c), "button"));
    el.dataset.from = c.from;
    el.classList.add("room-challenge");
  }
}

async function accept(c) {
  answered.add(c.id);
  const res = await api("POST", `/api/people/challenges/${c.id}/accept`);
  keepSeat(res.table.id, res.seat, res.token);
  const el = noticeBox().querySelector(`[data-key="in-${c.id}"]`);
  if (el) el.remove();
  navigate(`/t/${res.table.id}`);
}

async function decline(c) {
  answered.add(c.id);
  await api("POST", `/api/people/challenges/${c.id}/decline`);
  const el = noticeBox().querySelector(`[data-key="in-${c.id}"]`);
  if (el) el.remove();
  toast(t("You declined {name}'s challenge.", { name: c.from }));
}

function outgoingNotice(c) {
  const game = gameOf(c.game, c.game_name);
  if (c.status === "accepted" && c.table) {
    const go = () => { document.querySelector(`[data-key="out-${c.id}"]`)?.remove(); navigate(`/t/${c.table}`); };
    notice(`out-${c.id}`, t("{name} accepted your challenge to {game}.", { name: c.to, game }), button(t("Go to the table"), go));
    if (!location.pathname.startsWith("/t/")) go(); // not in the middle of another table: there at once
  } else if (c.status === "declined") {
    notice(`out-${c.id}`, t("{name} declined your challenge to {game}.", { name: c.to, game }));
  } else if (c.status === "expired") {
    notice(`out-${c.id}`, t("Your challenge to {name} expired: no answer in time.", { name: c.to }));
  }
}

const PASSING_MS = 20000; // a turn's or a rematch's notice goes by itself after this

function passing(el) {
  setTimeout(() => el.remove(), PASSING_MS);
  return el;
}

function turnNotice(msg) {
  if (onTable(msg.table)) return;
  passing(notice(`turn-${msg.table}`, t("Your turn at {game}.", { game: gameOf(msg.game) }),
    button(t("Go to the table"), () => { document.querySelector(`[data-key="turn-${msg.table}"]`)?.remove(); navigate(`/t/${msg.table}`); })));
}

function rematchNotice(msg) {
  if (onTable(msg.table)) return;
  passing(notice(`rematch-${msg.table}`, t("A rematch of {game} is dealt at your table, with the same seats.", { game: gameOf(msg.game) }),
    button(t("Go to the table"), () => { document.querySelector(`[data-key="rematch-${msg.table}"]`)?.remove(); navigate(`/t/${msg.table}`); })));
}

// Leaving a table's page for it: its notices of that table go.
export function arrivedAt(path) {
  const m = path.match(/^\/t\/([A-Za-z0-9_-]{1,16})$/);
  if (!m) return;
  for (const key of [`turn-${m[1]}`, `rematch-${m[1]}`]) noticeBox().querySelector(`[data-key="${key}"]`)?.remove();
}
