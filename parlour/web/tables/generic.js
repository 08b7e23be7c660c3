// The table for a game that has no renderer of its own yet: the view's facts as a list,
// the seats to act, and one button per legal action (or type an action in the game's
// notation). Plain, but every game is playable through it. It is also the smallest table
// in the shape every renderer shares (table.js): copy it to start a game's own table.

import { h, clear, rovingFocus, setRoving } from "../dom.js";
import { tableOf } from "./table.js";

function show(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map((v) => (typeof v === "object" && v !== null ? JSON.stringify(v) : show(v))).join(", ") || "none";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function mount(root, ctx) {
  const status = h("p", { class: "generic-status", "aria-live": "polite" });
  const actions = h("div", { class: "bid-row", role: "toolbar", "aria-label": "Your legal actions" });
  const input = h("input", { id: "generic-action", maxlength: "40", autocomplete: "off", "aria-label": "Action in the game's notation" });
  const form = h("form", { class: "generic-form" }, input, h("button", { class: "button", type: "submit" }, "Play"));
  const facts = h("dl", { class: "generic-facts" });
  const t = tableOf(root, ctx, "generic card-panel", status, actions, form, facts);
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
    const acting = (view.to_act || []).map((s) => names[s] || `seat ${s}`);
    status.textContent = view.outcome ? `Game over: winners ${view.outcome.winners.map((s) => names[s] || s).join(", ")}` :
      acting.length ? `To act: ${acting.join(", ")}` : "";
  }

  function drawActions({ timed, legal }) {
    clear(actions);
    // A timed phase (e.g. a slap): one button, timed by the server; no time of our own.
    if (timed) {
      const now = h("button", { class: "bid", type: "button" }, `${timed.name} now!`);
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
  return t.renderer({ state, draw: [drawStatus, drawActions, drawFacts] });
}
