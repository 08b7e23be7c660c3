// Cards travel instead of popping into place. Before a table redraws, note where each card
// is (by its data-card); after, a card that is now somewhere else flies from its old place
// to its new one (the FLIP technique, with the Web Animations API: no inline style, which
// the page's CSP refuses). A card that appears from nowhere (a bot's card, hidden in its
// hand) flies from where the table says it came from; one that leaves (a trick gathered)
// flies to where it goes. 150-300 ms; none at all when the player asks for reduced motion.

const EASE = "cubic-bezier(.2, .7, .3, 1)";
export const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
const duration = (dx, dy) => Math.round(Math.min(300, 150 + Math.hypot(dx, dy) / 4));

// Where each card under `scope` is now: data-card -> {el, rect}. A card shown twice (a
// copy in a list) is left out: it is not clear which one moved.
export function snapshot(scope) {
  const seen = new Map();
  const twice = new Set();
  for (const el of scope.querySelectorAll("[data-card]")) {
    const key = el.dataset.card;
    if (seen.has(key)) twice.add(key);
    else seen.set(key, { el, rect: el.getBoundingClientRect() });
  }
  for (const key of twice) seen.delete(key);
  return seen;
}

function fly(el, from, to, { fade = false } = {}) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 4 && Math.abs(dy) < 4) return null;
  const frames = [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }];
  if (fade) { frames[0].opacity = 1; frames[1].opacity = 0; }
  return el.animate(frames, { duration: duration(dx, dy), easing: EASE, composite: "add" });
}

// After a redraw: each card of `before` now elsewhere travels; `from(el)` gives where a new
// card comes from (a DOMRect, or null: it just appears); `to(key)` where a card that is
// gone goes (a copy of it flies there and fades). Returns how many cards moved and how
// many were gathered (for the sounds), counted with reduced motion too.
export function travel(scope, before, { from = null, to = null } = {}) {
  const moves = { moved: 0, gathered: 0 };
  if (!before) return moves;
  const still = reducedMotion();
  const after = snapshot(scope);
  for (const [key, { el, rect }] of after) {
    const old = before.get(key);
    const start = old ? old.rect : from ? from(el) : null;
    if (!start || (Math.abs(start.left - rect.left) < 4 && Math.abs(start.top - rect.top) < 4)) continue;
    moves.moved += 1;
    if (!still) fly(el, start, rect);
  }
  if (!to) return moves;
  for (const [key, { el, rect }] of before) {
    if (after.has(key)) continue;
    const end = to(key);
    if (!end) continue;
    moves.gathered += 1;
    if (still) continue;
    const ghost = el.cloneNode(true);
    ghost.classList.add("flying");
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    for (const [prop, value] of [["left", rect.left], ["top", rect.top], ["width", rect.width], ["height", rect.height], ["--card-w", rect.width]]) {
      ghost.style.setProperty(prop, `${value}px`);
    }
    document.body.append(ghost);
    const target = { left: end.left + end.width / 2 - rect.width / 2, top: end.top + end.height / 2 - rect.height / 2 };
    const anim = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${target.left - rect.left}px, ${target.top - rect.top}px) scale(.6)`, opacity: 0 }],
      { duration: duration(target.left - rect.left, target.top - rect.top), easing: EASE });
    anim.finished.then(() => ghost.remove(), () => ghost.remove());
  }
  return moves;
}
