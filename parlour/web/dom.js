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
