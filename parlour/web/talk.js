// Table talk (issue 34): a Talk button in the table's life bar opens the quick phrases; the
// phrases said at the table come into a log beside the button. A phrase goes out as its id
// ({type: "talk", phrase}); the server sends each reader its words in the reader's language
// (parlour/server/play/talk.py), so this page only shows the words it is given, as text.
//
// The log is one line in the life bar on a phone (the last phrase; it scrolls, by keyboard
// too) and a few lines on a wide screen, so it never lies over the table; it is a polite
// live region, so a screen reader says each phrase. A player's talk reaches everyone at the
// table; a spectator's only the spectators. A player muted with the account (account.js)
// is not sent to this page at all (the server keeps the account's mutes); anyone, a guest
// too, may also hide a person's talk in this browser.
//
// Players' own words: off at a table of strangers until this browser turns them on there,
// on among friends (the "listen" message; the server sends them only to those who listen). A signed-in player
// who listens may write (at most 200 characters; the server filters words and limits how
// fast). A line of a player's own words is text like any other (a link is not a link) and
// carries its seal, so that a signed-in reader can report it as it was sent.

import { h, icon, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { isMuted, signedIn } from "./account.js";
import { currentRoom, onRoom } from "./room.js";
import { displayNames } from "./names.js";

// Every phrase, by the id the server knows (PHRASES in parlour/server/play/talk.py: a test
// keeps the two lists the same). A function: the words are the reader's language's.
export const PHRASE_IDS = ["hello", "good_luck", "nice_play", "well_played_partner", "sorry_partner", "oops", "thanks", "thinking", "back_soon", "good_game", "one_more", "bye"];
function phraseWords(id) {
  switch (id) {
    case "hello": return t("Hello!");
    case "good_luck": return t("Good luck, have fun!");
    case "nice_play": return t("Nice play!");
    case "well_played_partner": return t("Well played, partner!");
    case "sorry_partner": return t("Sorry, partner.");
    case "oops": return t("Oops!");
    case "thanks": return t("Thank you!");
    case "thinking": return t("Let me think a moment.");
    case "back_soon": return t("Back in a minute.");
    case "good_game": return t("Good game!");
    case "one_more": return t("One more?");
    case "bye": return t("Bye!");
    default: return id;
  }
}

// The refusals of talk (too fast, the same phrase again, no such phrase): said, nothing else.
export const TALK_CODES = new Set(["talk_limited", "talk_repeated", "unknown_phrase", "talk_empty", "talk_too_long", "talk_bad_text", "talk_needs_account", "talk_not_listening"]);
const KEPT = 50; // lines the log keeps
const TEXT_MAX = 200; // characters of one's own words (TEXT_MAX in parlour/server/play/talk.py)

// This browser's choice, per table, to read the players' own words: {tableId: true|false}.
// With no choice made at a table: on when every other person seated there is a friend of
// the signed-in reader (the room's friends, room.js), off with strangers.
const LISTEN_KEY = "parlour.talkWords";
function choices() {
  try { return JSON.parse(localStorage.getItem(LISTEN_KEY) || "{}") || {}; } catch { return {}; }
}
function listening(table, seat) {
  const chosen = choices()[table.id];
  if (typeof chosen === "boolean") return chosen;
  const room = currentRoom();
  const others = table.seats.filter((s, i) => i !== seat && s.kind === "person" && s.taken);
  return Boolean(room) && others.length > 0 && others.every((s) => !s.guest && room.friends.some((f) => f.name === s.name));
}
function setListening(tableId, on) {
  const all = choices();
  all[tableId] = on;
  localStorage.setItem(LISTEN_KEY, JSON.stringify(all));
}

// The people this browser does not want to hear, per table: {tableId: [seats]}.
const MUTED_KEY = "parlour.talkMuted";
function localMutes() {
  try { return JSON.parse(localStorage.getItem(MUTED_KEY) || "{}") || {}; } catch { return {}; }
}
function mutedHere(tableId, seat) {
  return (localMutes()[tableId] || []).includes(seat) || isMuted(tableId, seat);
}
function setMutedHere(tableId, seat, muted) {
  const all = localMutes();
  const seats = new Set(all[tableId] || []);
  if (muted) seats.add(seat); else seats.delete(seat);
  if (seats.size) all[tableId] = [...seats]; else delete all[tableId];
  localStorage.setItem(MUTED_KEY, JSON.stringify(all));
}

let panels = 0; // ids for aria-controls

/** The talk of one table page: `send(obj)` sends a message on the page's socket (false when
 *  offline); `where()` is {table, seat} as the page knows them now. Returns {el, hear(msg),
 *  update(), destroy()}: `el` goes in the life bar, `hear` takes a talk message, `update`
 *  redraws the mute list when the seats change. */
export function talkControl({ send, where }) {
  const panelId = `talk-panel-${++panels}`;
  const button = h("button", { class: "button talk-button", type: "button", "aria-expanded": "false", "aria-controls": panelId, "aria-label": t("Talk"), title: t("Table talk: quick phrases") },
    icon("talk"), h("span", { class: "talk-label" }, t("Talk")));
  const log = h("ol", { class: "talk-log", role: "log", "aria-live": "polite", "aria-label": t("Table talk"), tabindex: "0" });
  const phrases = h("div", { class: "talk-phrases", role: "group", "aria-label": t("Quick phrases") });
  const mutes = h("div", { class: "talk-mutes" });
  const listenBox = h("input", { type: "checkbox", id: `${panelId}-listen` });
  const listen = h("label", { class: "talk-listen", for: listenBox.id }, listenBox, " ", t("Show the players' own words at this table"));
  const input = h("input", { type: "text", class: "talk-input", maxlength: String(TEXT_MAX), autocomplete: "off", "aria-label": t("Your words"), placeholder: t("Your words") });
  const form = h("form", { class: "talk-form" }, input, h("button", { type: "submit", class: "button small-button" }, t("Send")));
  const formNote = h("p", { class: "talk-note muted" });
  const panel = h("div", { class: "talk-panel", id: panelId, hidden: "" }, phrases, listen, form, formNote, mutes);
  const el = h("div", { class: "talk" }, button, panel, log);

  let told = false; // what this connection told the server last (off at each welcome)
  listenBox.addEventListener("change", () => {
    const { table } = where();
    if (!table) return;
    if (!send({ type: "listen", words: listenBox.checked })) { listenBox.checked = !listenBox.checked; return; }
    told = listenBox.checked;
    setListening(table.id, listenBox.checked);
    drawForm();
  });
  // Tell the server when what this page reads changes by itself (friends seated, the room
  // come in), not only when the switch is used.
  function tell() {
    const { table, seat } = where();
    if (!table) return;
    const want = listening(table, seat);
    if (want !== told && send({ type: "listen", words: want })) told = want;
  }
  const unwatch = onRoom(() => { tell(); if (!panel.hidden) drawForm(); });
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "talk", text })) { input.value = ""; input.focus(); }
  });
  // One's own words: for a seated, signed-in player who reads them here.
  function drawForm() {
    const { table, seat } = where();
    listenBox.checked = Boolean(table) && listening(table, seat);
    const canWrite = listenBox.checked && seat !== null && signedIn();
    form.hidden = !canWrite;
    formNote.textContent = !listenBox.checked || seat === null ? "" : canWrite ? "" : t("Sign in to write your own words.");
    formNote.hidden = !formNote.textContent;
  }

  for (const id of PHRASE_IDS) {
    const b = h("button", { class: "button small-button talk-phrase", type: "button", "data-phrase": id }, phraseWords(id));
    b.addEventListener("click", () => {
      if (send({ type: "talk", phrase: id })) close(true);
    });
    phrases.append(b);
  }

  function open() {
    drawMutes();
    drawForm();
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    phrases.querySelector("button").focus();
  }
  function close(refocus) {
    if (panel.hidden) return;
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (refocus) button.focus();
  }
  button.addEventListener("click", () => (panel.hidden ? open() : close(false)));
  el.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !panel.hidden) { ev.stopPropagation(); close(true); } });
  const outside = (ev) => { if (!el.contains(ev.target)) close(false); };
  document.addEventListener("pointerdown", outside);

  // The other people at the table, each with a switch that hides their talk here.
  function drawMutes() {
    const { table, seat } = where();
    mutes.replaceChildren();
    if (!table) return;
    const names = displayNames(table, seat);
    const people = table.seats.map((s, i) => [s, i]).filter(([s, i]) => i !== seat && s.kind === "person" && s.taken);
    if (!people.length) return;
    mutes.append(h("p", { class: "talk-mutes-title" }, t("Hide the talk of")));
    for (const [, i] of people) {
      const box = h("input", { type: "checkbox", id: `${panelId}-mute-${i}` });
      box.checked = mutedHere(table.id, i);
      box.addEventListener("change", () => setMutedHere(table.id, i, box.checked));
      mutes.append(h("label", { class: "talk-mute", for: box.id }, box, " ", names[i]));
    }
  }

  function hear(msg) {
    const { table, seat } = where();
    if (!table) return;
    if (msg.seat !== null && msg.seat !== seat && mutedHere(table.id, msg.seat)) return;
    const who = msg.seat === null ? t("A spectator") : displayNames(table, seat)[msg.seat] || "?";
    const line = h("li", { class: `talk-line talk-${msg.channel === "spectators" ? "spectators" : "players"}${msg.own ? " talk-own" : ""}` },
      h("span", { class: "talk-who" }, t("{name}:", { name: who })), " ", h("span", { class: "talk-words" }, String(msg.text)));
    // its Report button first: a phone's one-line log cuts a long line's end off
    if (msg.own && msg.seat !== seat && signedIn()) line.prepend(reportButton(table.id, msg), " ");
    log.append(line);
    while (log.children.length > KEPT) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  // Report a player's own words, as the server sent them (their seal proves it).
  function reportButton(tableId, msg) {
    const b = h("button", { type: "button", class: "button small-button talk-report", title: t("Report this message"), "aria-label": t("Report this message") }, "⚑");
    b.addEventListener("click", async () => {
      if (!confirm(t("Report this message to the parlour's operators?"))) return;
      b.disabled = true;
      try {
        await api("POST", "/api/account/reports", { table: tableId, seat: msg.seat, reason: "abuse", message: { text: msg.text, seal: msg.seal } });
        toast(t("Thank you: the parlour's operators will read your report."));
        b.replaceWith(h("span", { class: "muted talk-reported" }, t("Reported")));
      } catch (err) { toast(err.message, "error"); b.disabled = false; }
    });
    return b;
  }

  return {
    el, hear,
    // the connection is (back) at the table: the server is told whether it reads players' words
    welcome() {
      told = false;
      tell();
      if (!panel.hidden) drawForm();
    },
    update() { tell(); if (!panel.hidden) { drawMutes(); drawForm(); } },
    destroy() { document.removeEventListener("pointerdown", outside); unwatch(); },
  };
}
