// The shape every table renderer shares, so that a new game's table copies one file
// (generic.js is the smallest example; parlour/games/spades/table.js a whole card table):
//
//   function stateOf(view, before, ...) { ... }   // what to show, from the view: one object
//   function drawHand(st) { ... }                 // each piece redraws itself from it
//   export function mount(root, ctx) {
//     const t = tableOf(root, ctx, "mygame", ...elements);   // build the DOM once
//     const state = (view, before, extra) => stateOf(view, before, ...);
//     return t.renderer({ state, draw: [drawSeats, drawHand, drawSide], motion, results... });
//   }
//
// tableOf keeps the listeners a table adds to the page (t.on) and takes them off, with the
// table, on destroy; t.seat says whose view this is and where each seat sits round the felt.
// ctx is the page's (app.js): seat, names, table, live, act(text), hint(), timed, react().

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { snapshot, travel } from "./motion.js";
import { playSound } from "../sound.js";

// Whose view it is: `me()` is the seat this page plays (null for a spectator or a replay
// of nobody's view), `bottom()` the seat drawn at the bottom, `offset(seat, n)` how many
// places clockwise from the bottom a seat sits at a table of n.
export function seating(ctx) {
  const me = () => (ctx.seat === null || ctx.seat === undefined ? null : ctx.seat);
  const bottom = () => me() ?? 0;
  const offset = (seat, n) => (seat - bottom() + n) % n;
  const isMe = (seat) => me() !== null && me() === seat;
  // The seat can act now: it is to act and has a legal action (a live table only).
  const canAct = (view) => ctx.live && me() !== null && Boolean(view) && view.to_act.includes(me()) && view.legal.length > 0;
  return { me, bottom, offset, isMe, canAct };
}

export function tableOf(root, ctx, className, ...children) {
  const el = h("div", { class: `${className} table-root` }, ...children);
  root.append(el);
  const offs = [];
  // On a phone the side panel folds away under the table (style.css): a button opens it
  // over the table and closes it again. A game's style sheet may keep what a player needs
  // of it in sight while it is folded (Spades' scores).
  const aside = el.querySelector(":scope > aside");
  if (aside) {
    const toggle = h("button", { class: "side-toggle", type: "button", "aria-expanded": "false" }, t("Scores and log"));
    toggle.addEventListener("click", () => toggle.setAttribute("aria-expanded", String(el.classList.toggle("side-open"))));
    aside.before(toggle);
  }
  const seat = seating(ctx);
  return {
    el,
    seat,
    // A listener on the page (window, document) that goes with the table.
    on(target, type, fn, options) {
      target.addEventListener(type, fn, options);
      offs.push(() => target.removeEventListener(type, fn, options));
    },
    // The renderer app.js drives: update(view, extra) works out the state from the new
    // view and the one before (state(view, before, extra), whatever the table needs), then
    // calls each piece of `draw` with it, in order. Other hooks (results, hinted, refused)
    // pass through; `destroy` runs after the listeners are off and the table is gone.
    // `motion` makes the cards under motion.scope travel between two views (motion.js):
    // motion.from(el, state) and motion.to(key, state) say where new cards come from and
    // where gone ones go. A replay's jump (the slider, first, last) does not travel.
    renderer({ state = (view) => view, draw = [], destroy = null, motion = null, ...hooks }) {
      let before = null;
      let step = null; // a replay's step: cards travel on a step forward or back, not on a jump
      return {
        ...hooks,
        update(view, extra = {}) {
          const jump = extra.step !== undefined && step !== null && Math.abs(extra.step - step) !== 1;
          step = extra.step === undefined ? null : extra.step;
          const places = motion && before && !jump ? snapshot(motion.scope) : null;
          const s = state(view, before, extra);
          for (const piece of draw) piece(s);
          if (places) {
            const moves = travel(motion.scope, places, { from: motion.from && ((el) => motion.from(el, s)), to: motion.to && ((key) => motion.to(key, s)) });
            if (ctx.live && moves.gathered) playSound("trick");
            else if (ctx.live && moves.moved) playSound("card");
          }
          before = view;
        },
        destroy() {
          for (const off of offs.splice(0)) off();
          el.remove();
          if (destroy) destroy();
        },
      };
    },
  };
}
