// Accounts in the page: the header control (Sign in / Sign up, or your name and a menu),
// the sign-in, sign-up and recovery forms (/signin, /signup, /recover), the account page
// (/account), and taking a seat your account holds on a device that has no token for it.
// The session is an HttpOnly cookie the page never sees; guest seat tokens live in
// localStorage "parlour.seats" (seats.js), and are sent at sign-up and log-in so that the
// account keeps them.

import { h, toast, clear } from "./dom.js";
import { t, n } from "./i18n.js";
import { api } from "./api.js";
import { keepSeat, forgetSeats, heldSeats } from "./seats.js";
import { seatLabel } from "./words.js";
import { roomFor, follows, refreshRoom } from "./room.js";

const PATHS = ["/signin", "/signup", "/recover", "/account"];
let me = { account: null, seats: [] }; // GET /api/account
const claimed = new Set(); // tables whose seat this page tried to take back already

/** Ask the server who is signed in (and which seats they hold); redraw the header. */
export async function loadAccount() {
  try { me = await api("GET", "/api/account"); } catch { me = { account: null, seats: [] }; }
  if (!me.seats) me.seats = [];
  renamedToast(me);
  renderControl();
  return me;
}

/** Whether someone is signed in on this page (as last asked). */
export function signedIn() { return Boolean(me.account); }
/** The signed-in account ({name, role}), or null for a guest. */
export function signedInAccount() { return me.account; }

export function isAccountPath(path) { return PATHS.includes(path); }

/** Whether the signed-in account may hold a seat at this table that this page has no
 * token for (asked once per table and page). */
export function mayHoldSeatAt(tableId) {
  return Boolean(me.account) && !claimed.has(tableId);
}

/** The page that takes the account's seat at tableId onto this device, if it holds one
 * (the account's seats are asked afresh: another device may have sat down since), then
 * calls done(). */
export function claimPage(root, tableId, done) {
  let destroyed = false;
  claimed.add(tableId);
  root.append(h("p", { class: "muted" }, t("Looking for your seat…")));
  loadAccount()
    .then(() => {
      if (!me.seats.some((s) => s.table === tableId)) return null;
      return api("POST", `/api/account/seats/${encodeURIComponent(tableId)}/claim`)
        .then((res) => { keepSeat(tableId, res.seat, res.token); toast(t("Your seat is on this device now.")); });
    })
    .catch((err) => toast(t("{reason} You are watching instead.", { reason: err.message }), "error"))
    .finally(() => { if (!destroyed) done(); });
  return { destroy() { destroyed = true; } };
}

// ----------------------------------------------------------------------------- header
function renderControl() {
  const box = document.getElementById("account-control");
  if (box) clear(box);
  roomFor(me.account); // the room's stream: friends, challenges, turns (room.js)
  if (!box) return;
  if (!me.account) {
    box.append(
      h("a", { class: "account-link", href: "/signin", "data-nav": "" }, t("Sign in")),
      h("a", { class: "account-link account-signup", href: "/signup", "data-nav": "" }, t("Sign up")));
    return;
  }
  const menu = h("details", { class: "account-menu" },
    h("summary", { class: "account-name", "aria-label": t("Your account: {name}", { name: me.account.name }) }, me.account.name),
    h("div", { class: "account-menu-items", role: "menu" },
      h("a", { href: "/account", "data-nav": "", role: "menuitem" }, t("My account")),
      h("a", { href: "/friends", "data-nav": "", role: "menuitem" }, t("Friends")),
      h("button", { type: "button", class: "linkish", role: "menuitem" }, t("Sign out"))));
  menu.querySelector("button").addEventListener("click", () => { menu.open = false; signOut(); });
  for (const a of menu.querySelectorAll("a")) a.addEventListener("click", () => { menu.open = false; });
  box.append(menu);
}

async function signOut(then) {
  try {
    await api("POST", "/api/account/logout");
  } catch (err) {
    toast(err.message, "error");
    return;
  }
  // A shared computer: the next person must not find this account's seats here.
  forgetSeats(me.seats.map((s) => s.table));
  me = { account: null, seats: [] };
  renderControl();
  toast(t("You are signed out."));
  if (then) then();
}

// ----------------------------------------------------------------------------- pages
function field(label, input, hint) {
  return h("label", { class: "field", for: input.id }, label, input, hint ? h("small", { class: "muted" }, hint) : null);
}

function passwordInput(id, autocomplete) {
  return h("input", { id, type: "password", autocomplete, minlength: "8", maxlength: "200", required: "" });
}

function errorLine() { return h("p", { class: "error", role: "alert", hidden: "" }); }
function showError(el, err) { el.textContent = err.message; el.hidden = false; }

function busy(form, on) {
  for (const b of form.querySelectorAll("button")) b.disabled = on;
}

// A form of these pages: on submit its buttons wait while send() talks to the server; a
// refusal (send() throwing) is shown in `problem`, and the form may be sent again.
function onSubmit(form, problem, send) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    busy(form, true);
    try {
      await send();
      problem.hidden = true;
    } catch (err) {
      showError(problem, err);
    } finally {
      busy(form, false);
    }
  });
}

/** The page for one of PATHS: { destroy() }. */
export function accountPage(path, ctx) {
  const { root, navigate, crumb } = ctx;
  crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "),
    h("span", { class: "crumb-here" }, path === "/account" ? t("My account") : path === "/signup" ? t("Sign up") : path === "/recover" ? t("Recovery") : t("Sign in")));
  const section = h("section", { class: "account-page" });
  root.append(section);
  if (path === "/signup") signUpPage(section, navigate);
  else if (path === "/recover") recoverPage(section, navigate);
  else if (path === "/account") loadAccount().then(() => { if (section.isConnected) myAccountPage(section, navigate); });
  else signInPage(section, navigate);
  return { destroy() {} };
}

/** Told once: the parlour renamed this account (its name looked like an older one's). */
function renamedToast(res) {
  if (res.renamed_from && res.account) {
    toast(t("Your account is called {name} now: its old name, {old}, looked the same as an older account's name.", { name: res.account.name, old: res.renamed_from }));
  }
}

function welcomed(res) {
  renamedToast(res);
  if (res.seats_kept) toast(n("Your account keeps the seat you had.", "Your account keeps the {n} seats you had.", res.seats_kept));
  return loadAccount();
}

function signInPage(section, navigate) {
  document.title = t("Sign in · Parlour");
  const name = h("input", { id: "signin-name", autocomplete: "username", maxlength: "24", required: "" });
  const password = passwordInput("signin-password", "current-password");
  const problem = errorLine();
  const form = h("form", { class: "card-panel account-form" },
    h("h1", {}, t("Sign in")),
    field(t("Name"), name), field(t("Password"), password), problem,
    h("button", { type: "submit", class: "button primary" }, t("Sign in")),
    h("p", { class: "small" }, h("a", { href: "/recover", "data-nav": "" }, t("Lost your password? Use a recovery code"))),
    h("p", { class: "small" }, h("a", { href: "/signup", "data-nav": "" }, t("No account yet? Sign up"))));
  onSubmit(form, problem, async () => {
    const res = await api("POST", "/api/account/login", { name: name.value, password: password.value, seats: heldSeats() });
    await welcomed(res);
    toast(t("Signed in as {name}.", { name: res.account.name }));
    navigate("/");
  });
  section.append(form);
  name.focus();
}

function signUpPage(section, navigate) {
  document.title = t("Sign up · Parlour");
  const name = h("input", { id: "signup-name", autocomplete: "username", maxlength: "24", required: "" });
  const password = passwordInput("signup-password", "new-password");
  const again = passwordInput("signup-again", "new-password");
  const problem = errorLine();
  const form = h("form", { class: "card-panel account-form" },
    h("h1", {}, t("Sign up")),
    h("p", { class: "muted" }, t("An account keeps your seats on every device. The tables you sit at as a guest in this browser stay yours.")),
    field(t("Name"), name, t("2 to 24 letters, digits and spaces; it is how other players see you.")),
    field(t("Password"), password, t("At least 8 characters.")),
    field(t("Password again"), again), problem,
    h("button", { type: "submit", class: "button primary" }, t("Sign up")));
  onSubmit(form, problem, async () => {
    if (password.value !== again.value) throw new Error(t("The two passwords differ."));
    const res = await api("POST", "/api/account/signup", { name: name.value, password: password.value, seats: heldSeats() });
    await welcomed(res);
    clear(section);
    section.append(codesPanel(res.recovery_codes, t("Welcome, {name}!", { name: res.account.name }), () => navigate("/")));
  });
  section.append(form);
  name.focus();
}

function codesPanel(codes, title, done) {
  const list = h("ol", { class: "recovery-codes" }, ...codes.map((c) => h("li", {}, h("code", {}, c))));
  const copy = h("button", { type: "button", class: "button" }, t("Copy the codes"));
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(codes.join("\n")); toast(t("Copied.")); } catch { toast(t("Select the codes and copy them."), "error"); }
  });
  const ok = h("button", { type: "button", class: "button primary" }, t("I have kept them"));
  ok.addEventListener("click", done);
  return h("div", { class: "card-panel account-form codes-panel" },
    h("h1", {}, title),
    h("p", {}, t("These recovery codes are shown only now. Keep them somewhere safe: each one can reset a lost password once.")),
    list, h("div", { class: "account-actions" }, copy, ok));
}

function recoverPage(section, navigate) {
  document.title = t("Recovery · Parlour");
  const name = h("input", { id: "recover-name", autocomplete: "username", maxlength: "24", required: "" });
  const code = h("input", { id: "recover-code", autocomplete: "off", maxlength: "40", required: "", spellcheck: "false" });
  const password = passwordInput("recover-password", "new-password");
  const problem = errorLine();
  const form = h("form", { class: "card-panel account-form" },
    h("h1", {}, t("Reset a lost password")),
    field(t("Name"), name), field(t("Recovery code"), code, t("One of the codes you were given when you signed up; it works once.")),
    field(t("New password"), password), problem,
    h("button", { type: "submit", class: "button primary" }, t("Reset the password")));
  onSubmit(form, problem, async () => {
    const res = await api("POST", "/api/account/recover", { name: name.value, code: code.value, password: password.value, seats: heldSeats() });
    await welcomed(res);
    toast(t("Your password is changed, and you are signed in."));
    navigate("/account");
  });
  section.append(form);
  name.focus();
}

function myAccountPage(section, navigate) {
  document.title = t("My account · Parlour");
  if (!me.account) {
    section.append(h("div", { class: "card-panel account-form" },
      h("p", {}, t("You are not signed in.")),
      h("a", { class: "button primary", href: "/signin", "data-nav": "" }, t("Sign in"))));
    return;
  }
  const seats = h("ul", { class: "account-seats" });
  const open = me.seats.filter((s) => s.status === "waiting" || s.status === "playing");
  if (!open.length) seats.append(h("li", { class: "muted" }, t("No table is waiting for you.")));
  for (const s of open) {
    seats.append(h("li", {}, h("a", { href: `/t/${s.table}`, "data-nav": "" }, t("Table {table}", { table: s.table })),
      " ", h("span", { class: "muted" }, s.status === "playing" ? t("playing {game}", { game: s.game_name }) : t("waiting: {game}", { game: s.game_name }))));
  }

  const current = passwordInput("account-current", "current-password");
  const fresh = passwordInput("account-new", "new-password");
  const pwProblem = errorLine();
  const pwForm = h("form", { class: "account-form" },
    h("h2", {}, t("Change the password")),
    field(t("Current password"), current), field(t("New password"), fresh, t("Your other devices are signed out.")), pwProblem,
    h("button", { type: "submit", class: "button" }, t("Change the password")));
  onSubmit(pwForm, pwProblem, async () => {
    await api("POST", "/api/account/password", { current: current.value, password: fresh.value });
    current.value = fresh.value = "";
    toast(t("Your password is changed."));
  });

  const codesPassword = passwordInput("account-codes-password", "current-password");
  const codesProblem = errorLine();
  const codesForm = h("form", { class: "account-form" },
    h("h2", {}, t("Recovery codes")),
    h("p", {}, n("You have {n} unused recovery code.", "You have {n} unused recovery codes.", me.recovery_codes_left || 0)),
    field(t("Password"), codesPassword, t("New codes replace the old ones.")), codesProblem,
    h("button", { type: "submit", class: "button" }, t("Make new codes")));
  onSubmit(codesForm, codesProblem, async () => {
    const res = await api("POST", "/api/account/recovery-codes", { password: codesPassword.value });
    codesForm.replaceWith(codesPanel(res.recovery_codes, t("Your new recovery codes"), () => { loadAccount().then(() => navigate("/account", true)); }));
  });

  const delPassword = passwordInput("account-delete-password", "current-password");
  const sure = h("input", { id: "account-delete-sure", type: "checkbox", required: "" });
  const delProblem = errorLine();
  const delForm = h("form", { class: "account-form danger" },
    h("h2", {}, t("Delete the account")),
    h("p", {}, t("Your name, password and sessions are deleted. The matches you played stay in other players' records under the name “{name}”.", { name: t("Deleted player") })),
    field(t("Password"), delPassword),
    h("label", { class: "field check", for: "account-delete-sure" }, sure, h("span", {}, t("Yes, delete my account"))), delProblem,
    h("button", { type: "submit", class: "button" }, t("Delete the account")));
  onSubmit(delForm, delProblem, async () => {
    await api("POST", "/api/account/delete", { password: delPassword.value });
    forgetSeats(me.seats.map((s) => s.table));
    await loadAccount();
    toast(t("Your account is deleted."));
    navigate("/");
  });

  const out = h("button", { type: "button", class: "button" }, t("Sign out"));
  out.addEventListener("click", () => signOut(() => navigate("/")));

  section.append(h("div", { class: "card-panel account-sheet" },
    h("h1", {}, me.account.name),
    h("section", {}, h("h2", {}, t("Your tables")), seats),
    pwForm, codesForm,
    h("section", { class: "account-form" }, h("h2", {}, t("Your data")),
      h("p", {}, t("Everything the parlour keeps about your account, as a JSON file.")),
      h("a", { class: "button", href: "/api/account/export", download: "parlour-account.json" }, t("Download my data"))),
    delForm,
    h("div", { class: "account-actions" }, out)));
}

// ----------------------------------------------------------------------------- moderation
// At a table, a signed-in person may mute another player (their name is hidden for them
// only: players send each other no other text) or report them to the parlour's operators.
const mutes = new Map(); // table id -> Set of muted seats (once asked)

async function loadMutes(tableId) {
  if (!me.account) return new Set();
  if (!mutes.has(tableId)) {
    mutes.set(tableId, new Set());
    try {
      const res = await api("GET", `/api/account/mutes/${encodeURIComponent(tableId)}`);
      mutes.set(tableId, new Set(res.muted));
    } catch { /* not signed in any more: nothing muted */ }
  }
  return mutes.get(tableId);
}

/** Whether the player at seat is muted for the signed-in reader (their name is hidden). */
export function isMuted(tableId, seat) {
  const set = mutes.get(tableId);
  return Boolean(set && set.has(seat));
}

// Follow a signed-in player from the table (two who follow each other are friends).
function followButton(name) {
  const b = h("button", { type: "button", class: "button small-button" }, follows(name) ? t("Following") : t("Follow"));
  b.disabled = follows(name);
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      await api("POST", "/api/people/follow", { name });
      b.textContent = t("Following");
      toast(t("You follow {name} now.", { name }));
      refreshRoom();
    } catch (err) { toast(err.message, "error"); b.disabled = false; }
  });
  return b;
}

/** The "Players" control of a table (mute, report, follow), or null for a guest or nobody else;
 * namesChanged() is called when a mute changes the names the table shows. */
export function playersControl(table, mySeat, namesChanged) {
  if (!me.account) return null;
  const others = table.seats.map((s, i) => ({ s, i })).filter(({ s, i }) => s.kind === "person" && s.taken && i !== mySeat);
  if (!others.length) return null;
  const list = h("ul", { class: "players-list" });
  const box = h("details", { class: "players-menu" }, h("summary", { class: "button" }, t("Players")), list);
  function draw(muted) {
    clear(list);
    for (const { s, i } of others) {
      const seat = seatLabel(s.label);
      const shown = muted.has(i) ? t("Muted player ({seat})", { seat }) : t("{name} ({seat})", { name: s.name, seat });
      const muteBtn = h("button", { type: "button", class: "button small-button" }, muted.has(i) ? t("Unmute") : t("Mute"));
      muteBtn.addEventListener("click", async () => {
        muteBtn.disabled = true;
        try {
          const res = await api("POST", "/api/account/mutes", { table: table.id, seat: i, muted: !muted.has(i) });
          mutes.set(table.id, new Set(res.muted));
          draw(mutes.get(table.id));
          namesChanged();
        } catch (err) { toast(err.message, "error"); muteBtn.disabled = false; }
      });
      const reason = h("select", { "aria-label": t("Why") },
        h("option", { value: "abuse" }, t("Abuse")), h("option", { value: "name" }, t("Offensive name")),
        h("option", { value: "cheating" }, t("Cheating")), h("option", { value: "leaving" }, t("Leaving games")),
        h("option", { value: "other" }, t("Something else")));
      const note = h("input", { type: "text", maxlength: "500", "aria-label": t("What happened (optional)"), placeholder: t("What happened (optional)") });
      const send = h("button", { type: "submit", class: "button small-button" }, t("Report"));
      const form = h("form", { class: "report-form" }, reason, note, send);
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        send.disabled = true;
        try {
          await api("POST", "/api/account/reports", { table: table.id, seat: i, reason: reason.value, note: note.value || null });
          toast(t("Thank you: the parlour's operators will read your report."));
          form.replaceWith(h("span", { class: "muted" }, t("Reported")));
        } catch (err) { toast(err.message, "error"); send.disabled = false; }
      });
      list.append(h("li", {}, h("span", { class: "player-name" }, shown), muteBtn, s.guest ? null : followButton(s.name), form));
    }
  }
  const known = mutes.has(table.id);
  draw(mutes.get(table.id) || new Set());
  loadMutes(table.id).then((muted) => { draw(muted); if (!known && muted.size) namesChanged(); });
  return box;
}
