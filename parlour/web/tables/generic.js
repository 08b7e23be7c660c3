// The table for a game that has no renderer of its own yet: the view's facts as a list,
// the seats to act, and one button per legal action (or type an action in the game's
// notation). Plain, but every game is playable through it. It is also the smallest table
// in the shape every renderer shares (table.js): copy it to start a game's own table.

import { h, clear, rovingFocus, setRoving } from "../dom.js";
import { tableOf } from "./table.js";
import { t, p } from "../i18n.js";
import { seatLabel } from "../words.js";

function show(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : show(v))).join(", ") || t("none");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function mount(root, ctx) {
  const status = h("p", { class: "generic-status", "aria-live": "polite" });
  const actions = h("div", { class: "bid-row", role: "toolbar", "aria-label": t("Your legal actions") });
  const input = h("input", { id: "generic-action", maxlength: "40", autocomplete: "off", "aria-label": t("Action in the game's notation") });
  const form = h("form", { class: "generic-form" }, input, h("button", { class: "button", type: "submit" }, p("action", "Play")));
  const facts = h("dl", { class: "generic-facts" });
  const board = tableOf(root, ctx, "generic card-panel", status, actions, form, facts);
  rovingFocus(actions);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (input.value.trim()) ctx.act(input.value.trim());
    input.value = "";
  });

  // The state: the view, and the seat's choices now (none in a replay or for a spectator).
  function state(view) {
    const timed = ctx.live && ctx.timed && (view.to_act || []).includes(ctx.seat) ? ctx.timed : null;
    const legal = ctx.live && !timed ? view.legal || [] : [];
    return { view, names: ctx.names, timed, legal };
  }

  function drawStatus({ view, names }) {
    const who = (s) => names[s] || seatLabel(`seat ${s}`);
    const acting = (view.to_act || []).map(who);
    status.textContent = view.outcome ? t("Game over: winners {winners}", { winners: view.outcome.winners.map(who).join(", ") }) :
      acting.length ? t("To act: {seats}", { seats: acting.join(", ") }) : "";
  }

  function drawActions({ timed, legal }) {
    clear(actions);
    // A timed phase (e.g. a slap): one button, timed by the server; no time of our own.
    if (timed) {
      const now = h("button", { class: "bid", type: "button" }, t("{reaction} now!", { reaction: p("reaction", timed.name) }));
      now.addEventListener("click", () => ctx.react());
      actions.append(now);
    }
    const buttons = legal.map((text) => {
      const b = h("button", { class: "bid", type: "button" }, text);
      b.addEventListener("click", () => ctx.act(text));
      return b;
    });
    actions.append(...buttons);
    if (buttons.length) setRoving(buttons, 0);
    form.hidden = !legal.length;
  }

  function drawFacts({ view }) {
    clear(facts);
    for (const [key, value] of Object.entries(view)) {
      if (key === "legal" || key === "options") continue;
      facts.append(h("dt", {}, key.replace(/_/g, " ")), h("dd", {}, show(value)));
    }
  }
  return board.renderer({ state, draw: [drawStatus, drawActions, drawFacts] });
}
