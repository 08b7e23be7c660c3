// Small DOM helpers shared by the pages and the table renderers.

// h("button", {class: "x", "aria-label": "..."}, child, "text", ...): attributes whose
// value is null or false are left out; "" sets a boolean attribute. `style` is an object of
// properties ({"--n": 3}) set through the CSSOM: the page's CSP refuses style attributes.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "style") {
      if (typeof value !== "object") throw new TypeError("h(): style takes an object of properties, never a style attribute");
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, String(v));
      continue;
    }
    el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Small control icons drawn as inline SVG (no font glyphs: ⏮ ⏭ ⏸ are empty boxes on
// machines without them). Each path is on a 24x24 grid, filled with the text colour.
const ICON_PATHS = {
  first: ["M5 5h2.5v14H5z", "M19 5v14L8.5 12z"],
  previous: ["M17 5v14L6 12z"],
  play: ["M7 5v14l12-7z"],
  pause: ["M6.5 5h4v14h-4z", "M13.5 5h4v14h-4z"],
  next: ["M7 5v14l11-7z"],
  last: ["M16.5 5H19v14h-2.5z", "M5 5v14l10.5-7z"],
  sound: ["M4 9h4l5-4v14l-5-4H4z", "M16 8.5a5 5 0 0 1 0 7l-1.2-1.2a3.3 3.3 0 0 0 0-4.6z"],
  mute: ["M4 9h4l5-4v14l-5-4H4z", "M15.5 9.2l1.2-1.2 2.3 2.3 2.3-2.3 1.2 1.2-2.3 2.3 2.3 2.3-1.2 1.2-2.3-2.3-2.3 2.3-1.2-1.2 2.3-2.3z"],
  talk: ["M4 4h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-9l-5 4v-4H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1z"],
};
export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of ICON_PATHS[name]) {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", "currentColor");
    svg.append(path);
  }
  return svg;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

// A message that fades after a while; errors stay a little longer.
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}` }, text);
  box.append(item);
  while (box.children.length > 3) box.removeChild(box.firstChild);
  setTimeout(() => item.remove(), kind === "error" ? 5000 : 3000);
}

// Arrow keys, Home and End move the focus among the buttons of a group (one tab stop).
export function rovingFocus(group, selector = "button") {
  group.addEventListener("keydown", (ev) => {
    const items = [...group.querySelectorAll(selector)];
    const i = items.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(items.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = items.length - 1;
    if (j === null) return;
    ev.preventDefault();
    setRoving(items, j);
    items[j].focus();
  });
}

export function setRoving(items, index) {
  items.forEach((el, k) => el.setAttribute("tabindex", k === index ? "0" : "-1"));
}

// A table's own stylesheet, loaded once; renderers await it so they never show unstyled.
const styles = new Map();
export function loadStyle(href) {
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href });
      link.addEventListener("load", () => resolve(), { once: true });
      link.addEventListener("error", () => resolve(), { once: true });
      document.head.append(link);
    }));
  }
  return styles.get(href);
}

// True unless the player is busy with a control outside the table `rootEl` (the chat of a
// lobby, a dialog...): then a table must not steal the focus.
export function focusIsFree(rootEl) {
  const active = document.activeElement;
  return !active || active === document.body || rootEl.contains(active) || active.id === "app";
}

// Move the focus to a control the player needs now, unless they are busy elsewhere.
export function focusIfIdle(el, rootEl, live) {
  if (!el || !live || !focusIsFree(rootEl)) return;
  el.focus({ preventScroll: true });
}

// Overlap the cards (`selector`) in `row` just enough for all of them to fit its width:
// sets the row's --gap, at most `maxGap` px apart, at most `maxOverlap` of a card covered.
export function fitRow(row, selector, maxOverlap, maxGap) {
  const cards = row.querySelectorAll(selector);
  if (!cards.length) return;
  const w = cards[0].offsetWidth;
  const room = row.clientWidth - 16;
  const n = cards.length;
  const gap = n > 1 ? Math.max(-w * maxOverlap, Math.min(maxGap, (room - n * w) / (n - 1))) : 0;
  row.style.setProperty("--gap", `${gap}px`);
}
