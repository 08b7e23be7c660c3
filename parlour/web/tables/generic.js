// The table for a game that has no renderer of its own yet: the view's facts as a list,
// the seats to act, and one button per legal action (or type an action in the game's
// notation). Plain, but every game is playable through it.

import { h, clear, rovingFocus, setRoving } from "../dom.js";

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
  const el = h("div", { class: "generic card-panel" }, status, actions, form, facts);
  root.append(el);
  rovingFocus(actions);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (input.value.trim()) ctx.act(input.value.trim());
    input.value = "";
  });

  function update(view) {
    const names = ctx.names;
    const acting = (view.to_act || []).map((s) => names[s] || `seat ${s}`);
    status.textContent = view.outcome ? `Game over: winners ${view.outcome.winners.map((s) => names[s] || s).join(", ")}` :
      acting.length ? `To act: ${acting.join(", ")}` : "";
    clear(actions);
    // A timed phase (e.g. a slap): one button, timed by the server; no time of our own.
    const timed = ctx.live && ctx.timed && (view.to_act || []).includes(ctx.seat) ? ctx.timed : null;
    const legal = ctx.live && !timed ? view.legal || [] : [];
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
    clear(facts);
    for (const [key, value] of Object.entries(view)) {
      if (key === "legal" || key === "options") continue;
      facts.append(h("dt", {}, key.replace(/_/g, " ")), h("dd", {}, show(value)));
    }
  }
  return { update, destroy() { el.remove(); } };
}
