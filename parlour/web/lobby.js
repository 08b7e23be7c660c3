// The lobby: your name (a guest name until you choose one), a tile per game, the panel that
// opens a table of the chosen game (a preset, the seats, the speed; the rest folded away
// under "More options"), and the tables open now. Also the page of a shared deal link.
//
// The game list (GET /api/games) brings each game's line, presets, options (with labels,
// choices and bounds) and bots; their English texts are msgids of the catalogs (extracted
// from the Python that defines them), so they are shown through t().

import { h, toast, clear } from "./dom.js";
import { t, n, p, num } from "./i18n.js";
import { seatLine } from "./names.js";
import { gameName, seatLabel, presetName, speedName, timeLeft } from "./words.js";
import { heldSeats } from "./seats.js";
import { awaitingCount } from "./room.js";
import { gamePicture } from "./pictures.js";
import { playersLinks, ratedSwitch } from "./players.js";
import { quickPlayBox, stopWaiting } from "./quick.js";

const NAME_KEY = "parlour.name";
const GAME_KEY = "parlour.lobbyGame";
const PACE_KEY = "parlour.pace"; // the speed this device chose last

// ----------------------------------------------------------------------------- your name
/** The name this browser sits down with: the one chosen, else a guest name made once. */
export function myName() {
  let name = localStorage.getItem(NAME_KEY) || "";
  if (!name) {
    name = t("Guest {number}", { number: String(1000 + Math.floor(Math.random() * 9000)) });
    keepName(name);
  }
  return name;
}
export function keepName(name) { localStorage.setItem(NAME_KEY, name); }

function nameField() {
  const input = h("input", { id: "new-name", name: "name", maxlength: "24", autocomplete: "nickname", value: myName(), required: "" });
  input.addEventListener("change", () => { if (input.value.trim()) keepName(input.value.trim()); });
  return {
    input,
    el: h("label", { class: "field name-field", for: "new-name" }, t("Your name"), input,
      h("small", { class: "muted" }, t("Others at the table see this name. Change it any time."))),
  };
}

// ----------------------------------------------------------------------------- words
const minutesText = (m) => n("about {n} minute", "about {n} minutes", m);
function playersText(g) {
  const [lo, hi] = g.seats;
  if (lo === hi) return lo === 1 ? t("Solitaire") : n("{n} player", "{n} players", lo);
  return t("{min} to {max} players", { min: lo, max: hi });
}

// A bot as a player chooses it: its level, in plain words.
function botChoices(g) {
  const out = [];
  for (const b of g.bots) {
    const levels = b.levels.length ? b.levels : [null];
    for (const lv of levels) {
      const kind = lv ? `${b.kind}:${lv}` : b.kind;
      out.push({ value: `bot:${kind}`, text: botText(b.kind, lv), title: botHelp(g, b.kind, lv) });
    }
  }
  return out;
}
// What a bot does, for the choice's tooltip, in the reader's words: the game's own bots as its
// spec says (bot_help, by "kind:level" or "kind", English msgids the catalog translates), the
// bots of every game here (a kind nobody describes gets no tooltip rather than the server's
// English).
function botHelp(g, kind, level) {
  const own = g.bot_help || {};
  const said = (level && own[`${kind}:${level}`]) || own[kind];
  if (said) return t(said);
  if (kind === "random") return t("Plays any legal move, at random.");
  if (kind === "ismcts") {
    if (level === "easy") return t("Plays out possible games before each move, briefly: makes mistakes.");
    if (level === "hard") return t("Plays out the most possible games before each move, so it takes longer; in our tests it played about as well as normal.");
    return t("Plays out possible games before each move: a fair opponent.");
  }
  return null;
}
function botText(kind, level) {
  if (kind === "rule") return t("Bot, normal");
  if (kind === "random") return t("Bot, easy (plays at random)");
  if (kind === "ismcts") return level === "easy" ? t("Thinking bot, easy") : level === "hard" ? t("Thinking bot, hard") : t("Thinking bot, normal");
  if (kind === "solver") return level === "fast" ? t("Solver bot, quick") : level === "strong" ? t("Solver bot, strong") : t("Solver bot, normal");
  const what = level ? kind + " " + level : kind;
  return t("Bot: {kind}", { kind: what });
}
const defaultBot = (g) => (g.bots.some((b) => b.kind === "rule") ? "bot:rule" : `bot:${g.bots[g.bots.length - 1].kind}`);

// ----------------------------------------------------------------------------- the lobby
export function lobbyPage(env) {
  const { app } = env;
  let timer = null;
  const name = nameField();
  const tiles = h("ul", { class: "game-tiles", "aria-label": t("Games") });
  const form = h("form", { class: "create card-panel", "aria-labelledby": "create-title", novalidate: "" });
  const list = h("div", { class: "table-list", "aria-live": "polite" }, h("p", { class: "muted" }, t("Looking for tables…")));
  const turns = h("section", { class: "card-panel your-turn", "aria-labelledby": "turns-title", hidden: "" });
  app.append(
    h("section", { class: "lobby" },
      h("div", { class: "lobby-intro" },
        h("div", {},
          h("h1", {}, t("Card tables, friends and bots")),
          h("p", { class: "muted" }, t("Choose a game, fill the other seats with bots or send the invite link to friends. No account needed.")),
          playersLinks()),
        name.el),
      turns,
      tiles,
      h("div", { class: "lobby-grid" },
        form,
        h("section", { class: "card-panel", "aria-labelledby": "open-title" },
          h("h2", { id: "open-title" }, t("Open and running tables")), list))));
  document.title = "Parlour";

  env.games().then((all) => {
    let chosen = all.find((g) => g.id === localStorage.getItem(GAME_KEY)) || all[0];
    const choose = (g, focus = false) => {
      chosen = g;
      localStorage.setItem(GAME_KEY, g.id);
      for (const b of tiles.querySelectorAll(".game-tile")) b.setAttribute("aria-pressed", b.dataset.game === g.id ? "true" : "false");
      buildCreateForm(env, form, g, name.input);
      if (focus) form.querySelector("h2").focus();
    };
    for (const g of all) {
      const b = h("button", { type: "button", class: "game-tile", "data-game": g.id, "aria-pressed": "false" },
        gamePicture(g),
        h("span", { class: "tile-name" }, gameName(g.name)),
        h("span", { class: "tile-line" }, g.tagline ? t(g.tagline) : ""),
        h("span", { class: "tile-meta" }, playersText(g), " · ", minutesText(g.presets[0].minutes)));
      b.addEventListener("click", () => choose(g, true));
      tiles.append(h("li", {}, b));
    }
    choose(chosen);
  }).catch((err) => form.append(h("p", { class: "error" }, err.message)));

  async function refresh() {
    try {
      const { tables } = await env.api("GET", "/api/tables");
      renderTableList(env, list, tables);
    } catch (err) {
      clear(list);
      list.append(h("p", { class: "error" }, t("Could not list the tables: {reason}", { reason: err.message })));
    }
  }
  async function refreshTurns() {
    try {
      const res = await env.api("POST", "/api/turns", { seats: heldSeats() });
      renderTurns(turns, res.turns);
    } catch { /* asked again at the next round */ }
  }
  refresh();
  refreshTurns();
  timer = setInterval(refresh, 4000);
  const turnTimer = setInterval(refreshTurns, 20000);
  return { destroy() { clearInterval(timer); clearInterval(turnTimer); stopWaiting(); } };
}

// "Your turn": the correspondence tables waiting for your move (this browser's seats and,
// signed in, your account's), the soonest due first; the page's title counts them.
function renderTurns(box, turns) {
  clear(box);
  box.hidden = !turns.length;
  awaitingCount(turns.length);
  if (!turns.length) return;
  const now = Date.now() / 1000;
  box.append(h("h2", { id: "turns-title" }, n("Your turn: {n} table waits for your move", "Your turn: {n} tables wait for your move", turns.length)),
    h("ul", { class: "turns" }, ...turns.map((turn) => {
      const left = Math.floor(turn.deadline - now);
      return h("li", {},
        h("a", { href: `/t/${turn.table}`, "data-nav": "", class: "button" }, t("Play your move: {game}", { game: gameName(turn.game_name) })),
        " ", h("span", { class: "muted" }, left > 0 ? t("{left} left", { left: timeLeft(left) }) : t("due now")));
    })));
}

function renderTableList(env, list, tables) {
  clear(list);
  if (!tables.length) {
    list.append(h("p", { class: "muted" }, t("No tables yet: open one.")));
    return;
  }
  const ul = h("ul", { class: "tables" });
  for (const tb of tables) {
    const mine = env.seatFor(tb.id);
    const free = tb.seats.filter((s) => !s.taken).length;
    const status = tb.status === "waiting" ? n("waiting for {n} player", "waiting for {n} players", free)
      : tb.status === "playing" ? t("playing") : t("finished");
    const action = mine ? t("Return to your seat") : tb.status === "waiting" && free ? t("Join") : t("Watch");
    const seats = tb.seats.map((s, i) => seatLine(s, i, mine ? mine.seat : null));
    ul.append(h("li", { class: "table-row" },
      h("div", {},
        h("strong", {}, tb.game_name), " ",
        h("span", { class: `badge badge-${tb.status}` }, status),
        h("div", { class: "muted small table-seats" }, seats.join(" · "))),
      h("a", { class: "button", href: `/t/${tb.id}`, "data-nav": "", "aria-label": t("{action}: {game} table {id}", { action, game: tb.game_name, id: tb.id }) }, action)));
  }
  list.append(ul);
}

// ----------------------------------------------------------------------------- a game's options
// Each option as the control that fits it: a checkbox for yes/no, a list for a choice, a
// number with its bounds (empty for "off" where the option can be off).
function optionControl(opt, id) {
  if (opt.type === "bool") return h("input", { type: "checkbox", id, name: opt.name });
  if (opt.choices) {
    return h("select", { id, name: opt.name }, ...opt.choices.map((c, i) =>
      h("option", { value: String(c) }, opt.choice_labels ? t(opt.choice_labels[i]) : String(c))));
  }
  const attrs = { id, name: opt.name, inputmode: "numeric" };
  if (opt.type === "int" || opt.type === "float") {
    attrs.type = "number";
    attrs.step = opt.type === "float" ? "any" : "1";
    if (opt.minimum !== null) attrs.min = String(opt.minimum);
    if (opt.maximum !== null) attrs.max = String(opt.maximum);
    if (opt.nullable) attrs.placeholder = t("off");
  } else {
    attrs.type = "text";
  }
  return h("input", attrs);
}
function setControl(el, opt, value) {
  if (el.type === "checkbox") el.checked = Boolean(value);
  else el.value = value === null || value === undefined ? "" : String(value);
}
// The control's value as the option's type (null: off), or undefined if it is not valid.
function readControl(el, opt) {
  if (el.type === "checkbox") return el.checked;
  const text = el.value.trim();
  if (opt.choices) return opt.choices.find((c) => String(c) === text);
  if (opt.type === "int" || opt.type === "float") {
    if (!text) return opt.nullable ? null : undefined;
    const x = Number(text);
    if (!Number.isFinite(x) || (opt.type === "int" && !Number.isInteger(x))) return undefined;
    if ((opt.minimum !== null && x < opt.minimum) || (opt.maximum !== null && x > opt.maximum)) return undefined;
    return x;
  }
  return text;
}

function badValue(opt) {
  const option = t(opt.label);
  if (opt.minimum !== null && opt.maximum !== null) {
    return t("{option} takes a whole number from {minimum} to {maximum}.", { option, minimum: opt.minimum, maximum: opt.maximum });
  }
  return t("{option}: that value is not allowed.", { option });
}

// ----------------------------------------------------------------------------- opening a table
function buildCreateForm(env, form, g, nameIn) {
  stopWaiting(); // (a wait for the game shown before)
  clear(form);
  const presets = g.presets || [{ id: "classic", minutes: 15, options: {} }];
  const presetBox = h("fieldset", { class: "presets" }, h("legend", {}, t("Game")));
  presets.forEach((pr, i) => {
    const id = `preset-${pr.id}`;
    const radio = h("input", { type: "radio", name: "preset", id, value: pr.id, checked: i === 0 ? "" : null });
    radio.addEventListener("change", () => applyPreset(pr));
    const changes = Object.entries(pr.options).map(([name, value]) => {
      const opt = g.options.find((o) => o.name === name);
      return opt ? t("{option}: {value}", { option: t(opt.label), value }) : "";
    }).filter(Boolean);
    presetBox.append(h("label", { class: "preset", for: id }, radio,
      h("span", { class: "preset-name" }, presetName(pr.id)),
      h("small", { class: "muted" }, [minutesText(pr.minutes), ...changes].join(" · "))));
  });
  presetBox.hidden = presets.length < 2;
  const chosenPreset = () => (form.querySelector("input[name=preset]:checked") || {}).value || presets[0].id;
  const sitName = () => {
    const name = nameIn.value.trim() || myName();
    nameIn.value = name;
    keepName(name);
    return name;
  };
  const quickBox = g.seats[1] > 1 ? quickPlayBox(env, g, chosenPreset, sitName) : null;

  const seatsBox = h("fieldset", { class: "seats-editor" });
  const seatsCount = h("select", { id: "new-seats", name: "seats" });
  const [lo, hi] = g.seats;
  for (let k = lo; k <= hi; k++) seatsCount.append(h("option", { value: String(k), selected: k === g.default_seats ? "" : null }, String(k)));
  const seatsCountWrap = h("label", { class: "field", for: "new-seats" }, t("Players"), seatsCount);
  seatsCountWrap.hidden = lo === hi;

  const speeds = g.speeds || ["slow", "normal", "fast"];
  const usual = speeds.includes(localStorage.getItem(PACE_KEY)) ? localStorage.getItem(PACE_KEY) : "normal";
  const speedSel = h("select", { id: "new-speed", name: "speed" }, ...speeds.map((s) => h("option", { value: s, selected: s === usual ? "" : null }, speedName(s))));
  speedSel.addEventListener("change", () => localStorage.setItem(PACE_KEY, speedSel.value));
  const speedWrap = h("label", { class: "field", for: "new-speed" }, t("Table speed"), speedSel,
    h("small", { class: "muted" }, t("How fast the bots play and the automatic moves go by.")));

  const dealIn = h("input", { id: "new-deal", name: "deal", type: "number", min: "1", step: "1", inputmode: "numeric", placeholder: t("random") });
  if (g.deals) dealIn.max = String(g.deals);
  const dealWrap = h("label", { class: "field", for: "new-deal" }, t("Deal number"), dealIn,
    h("small", { class: "muted" }, t("Leave empty for a random deal; the same number gives the same deal on this server.")));
  dealWrap.hidden = !g.deals;
  const publicIn = h("input", { id: "new-public", name: "public", type: "checkbox" });
  const publicWrap = h("label", { class: "field check", for: "new-public" }, publicIn, h("span", {}, t("List it in the lobby")),
    h("small", { class: "muted" }, t("A table with seats for friends is private unless listed: only your invite link reaches it.")));
  const turnIn = h("input", { id: "new-turn", name: "turn_seconds", type: "number", min: "0", max: "3600", step: "1", inputmode: "numeric", placeholder: t("the game's own") });
  const rated = ratedSwitch();
  const hintsIn = h("input", { id: "new-hints", name: "hints", type: "checkbox", checked: "" });
  const hintsWrap = h("label", { class: "field check", for: "new-hints" }, hintsIn, h("span", {}, t("Hints")),
    h("small", { class: "muted" }, t("Any player may ask the strong bot for a hint. Rated matches and daily deals are played without.")));
  rated.input.addEventListener("change", () => { hintsIn.disabled = rated.input.checked; if (rated.input.checked) hintsIn.checked = false; });
  const turnWrap = h("label", { class: "field", for: "new-turn" }, t("Seconds for each turn"), turnIn,
    h("small", { class: "muted" }, t("When a player's time runs out a bot plays for them until they are back; 0 for no timer.")));
  turnWrap.hidden = Boolean(g.solitaire); // nobody waits for a solitaire's player: no timer
  const postSel = h("select", { id: "new-post", name: "move_seconds" },
    h("option", { value: "" }, t("No: everyone plays now")),
    h("option", { value: "3600" }, n("{n} hour a move", "{n} hours a move", 1)),
    h("option", { value: "28800" }, n("{n} hour a move", "{n} hours a move", 8)),
    h("option", { value: "86400" }, n("{n} day a move", "{n} days a move", 1)),
    h("option", { value: "259200" }, n("{n} day a move", "{n} days a move", 3)));
  const postWrap = h("label", { class: "field", for: "new-post" }, t("By correspondence"), postSel,
    h("small", { class: "muted" }, t("A game that waits for you: each player has this long for a move, and may close the page between moves. A move not made in time loses a rated match, or frees the seat.")));
  postWrap.hidden = !g.correspondence;
  postSel.addEventListener("change", () => { turnWrap.hidden = Boolean(g.solitaire) || postSel.value !== ""; });

  const optsBox = h("div", { class: "options-grid" });
  const controls = new Map(); // option name -> control
  for (const opt of g.options) {
    const id = `opt-${opt.name}`;
    const input = optionControl(opt, id);
    controls.set(opt.name, input);
    const bool = opt.type === "bool";
    optsBox.append(h("label", { class: bool ? "field check" : "field", for: id },
      bool ? input : null,
      h("span", {}, t(opt.label)),
      bool ? null : input,
      h("small", { class: "muted" }, t(opt.help))));
  }
  const rules = g.options.length ? h("fieldset", { class: "rules-options" }, h("legend", {}, t("Rules")), optsBox) : null;

  const rulesLink = h("a", { class: "small rules-link", href: `/rules/${g.id}`, "data-nav": "" }, t("How to play {game}", { game: gameName(g.name) }));
  form.append(
    h("h2", { id: "create-title", tabindex: "-1" }, t("Open a table: {game}", { game: gameName(g.name) })),
    h("p", { class: "rules-line" }, rulesLink),
    presetBox,
    quickBox,
    seatsCountWrap,
    seatsBox,
    speedWrap,
    h("details", { class: "options" }, h("summary", {}, t("More options")), rated.wrap, hintsWrap, dealWrap, publicWrap, postWrap, turnWrap, rules),
    h("button", { type: "submit", class: "button primary" }, t("Open the table")));

  function applyPreset(pr) {
    for (const opt of g.options) setControl(controls.get(opt.name), opt, opt.name in pr.options ? pr.options[opt.name] : opt.default);
  }
  function fillSeats() {
    const count = Number(seatsCount.value || g.default_seats);
    const labels = g.seat_names[String(count)] || [];
    clear(seatsBox);
    seatsBox.append(h("legend", {}, t("Seats")));
    const choices = botChoices(g);
    for (let s = 0; s < count; s++) {
      const where = seatLabel(labels[s] || `seat ${s}`);
      const sel = h("select", { id: `seat-${s}`, name: `seat-${s}`, "aria-label": t("Who sits at {seat}", { seat: where }) },
        h("option", { value: "you" }, t("You")),
        g.seats[1] > 1 ? h("option", { value: "person" }, t("A friend (invite link)")) : null,
        ...choices.map((c) => h("option", { value: c.value, title: c.title }, c.text)));
      sel.value = s === 0 ? "you" : defaultBot(g);
      sel.addEventListener("change", () => {
        if (sel.value === "you") for (const other of seatsBox.querySelectorAll("select")) if (other !== sel && other.value === "you") other.value = "person";
      });
      seatsBox.append(h("label", { class: "seat-choice", for: `seat-${s}` }, h("span", {}, where), sel));
    }
  }
  seatsCount.addEventListener("change", fillSeats);
  fillSeats();
  applyPreset(presets[0]);

  form.onsubmit = async (ev) => { // one handler: the form is rebuilt for each game chosen
    ev.preventDefault();
    const seats = [];
    let mine = null;
    for (const sel of seatsBox.querySelectorAll("select")) {
      const v = sel.value;
      if (v === "you") { mine = seats.length; seats.push({ kind: "person" }); }
      else if (v === "person") seats.push({ kind: "person" });
      else seats.push({ kind: "bot", bot: v.slice(4) });
    }
    const options = {};
    for (const opt of g.options) {
      const el = controls.get(opt.name);
      const value = readControl(el, opt);
      if (value === undefined) {
        form.querySelector("details.options").open = true;
        toast(badValue(opt), "error");
        el.focus();
        return;
      }
      if (value !== opt.default) options[opt.name] = value;
    }
    let name = nameIn.value.trim();
    if (!name) { name = myName(); nameIn.value = name; }
    let deal = null;
    if (g.deals && dealIn.value.trim()) {
      deal = Number(dealIn.value.trim());
      if (!Number.isInteger(deal) || deal < 1 || deal > g.deals) {
        form.querySelector("details.options").open = true;
        toast(t("A deal number is a whole number from 1 to {most}.", { most: num(g.deals) }), "error");
        dealIn.focus();
        return;
      }
    }
    keepName(name);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const body = { game: g.id, options, seats, name: mine !== null ? name : null, seat: mine, speed: speedSel.value };
      if (deal !== null) body.deal = deal;
      if (publicIn.checked) body.public = true;
      if (rated.input.checked) body.rated = true;
      else if (!hintsIn.checked) body.hints = false;
      if (postSel.value) body.move_seconds = Number(postSel.value);
      else if (turnIn.value.trim() !== "") body.turn_seconds = Number(turnIn.value.trim());
      const res = await env.api("POST", "/api/tables", body);
      if (res.token) env.keepSeat(res.table.id, res.seat, res.token);
      env.navigate(`/t/${res.table.id}`);
    } catch (err) {
      toast(err.message, "error");
    } finally {
      button.disabled = false;
    }
  };
}

// ----------------------------------------------------------------------------- a shared deal
// A shared link to a deal (/new/foursquare?deal=N, options as more parameters): a new table
// with that deal, you in the seat, under your name (a guest name until you choose one).
export function newTablePage(env, gameId, params) {
  const { app } = env;
  const panel = h("section", { class: "card-panel new-table" }, h("p", { class: "muted" }, t("Opening the table…")));
  app.append(panel);
  env.crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, t("New table")));
  let gone = false;
  (async () => {
    try {
      const g = (await env.games()).find((x) => x.id === gameId);
      if (!g) throw new Error(t("There is no such game."));
      const options = {};
      for (const opt of g.options) if (params.has(opt.name)) options[opt.name] = params.get(opt.name);
      const deal = params.has("deal") ? Number(params.get("deal")) : null;
      const what = deal ? t("{game}, deal #{deal}", { game: gameName(g.name), deal: String(deal) }) : gameName(g.name);
      document.title = `${what} · Parlour`;
      const start = async (name) => {
        keepName(name);
        const seats = [{ kind: "person" }, ...Array.from({ length: g.default_seats - 1 }, () => ({ kind: "bot", bot: defaultBot(g).slice(4) }))];
        const body = { game: g.id, options, seats, name, seat: 0 };
        if (deal !== null) body.deal = deal;
        const res = await env.api("POST", "/api/tables", body);
        if (res.token) env.keepSeat(res.table.id, res.seat, res.token);
        if (!gone) env.navigate(`/t/${res.table.id}`, true);
      };
      clear(panel);
      const name = nameField();
      const form = h("form", { class: "join" },
        h("h1", {}, t("Play {what}", { what })),
        h("p", { class: "muted" }, deal ? t("Someone shared this deal with you: the same cards in the same order.") : t("A new table.")),
        name.el,
        h("button", { class: "button primary", type: "submit" }, p("deal the cards", "Deal")));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const chosen = name.input.value.trim() || myName();
        try { await start(chosen); } catch (err) { toast(err.message, "error"); }
      });
      panel.append(form);
      form.querySelector("button").focus();
    } catch (err) {
      clear(panel);
      panel.append(h("p", { class: "error" }, err.message));
    }
  })();
  return { destroy() { gone = true; } };
}
