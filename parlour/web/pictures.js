// The lobby tiles' pictures: a small scene per game drawn as inline SVG (shapes only, no
// font glyphs, no style attributes: colours are presentation attributes), 120 x 80.

const NS = "http://www.w3.org/2000/svg";
const SPADE = "M0-9C-3-5-7-2-7 1.5a3.6 3.6 0 0 0 6.2 2.4L-2 8h4l-1.2-4.1A3.6 3.6 0 0 0 7 1.5C7-2 3-5 0-9z";
const HEART = "M0 8S-7 3.2-7-1.6a3.7 3.7 0 0 1 7-2.1 3.7 3.7 0 0 1 7 2.1C7 3.2 0 8 0 8z";
const DIAMOND = "M0-8L6 0 0 8-6 0z";
const CLUB = "M0-8a3.4 3.4 0 0 0-2.6 5.6A3.4 3.4 0 1 0 -1 3.4L-2 8h4L1 3.4a3.4 3.4 0 1 0 1.6-5.8A3.4 3.4 0 0 0 0-8z";

function el(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

// A card at (x, y), turned by `turn` degrees, with a suit mark in `colour` (or a face-down
// back when `mark` is null).
function card(x, y, turn, mark, colour) {
  const g = el("g", { transform: `translate(${x} ${y}) rotate(${turn})` },
    el("rect", { x: -11, y: -16, width: 22, height: 32, rx: 3, fill: mark ? "#fffdf7" : "#2f5d8a", stroke: "#1d2a36", "stroke-width": 1 }));
  if (mark) g.append(el("path", { d: mark, fill: colour, transform: "scale(0.9)" }));
  else g.append(el("rect", { x: -7, y: -12, width: 14, height: 24, rx: 2, fill: "none", stroke: "#9cc0e0", "stroke-width": 1 }));
  return g;
}

function felt() {
  return el("rect", { x: 0, y: 0, width: 120, height: 80, rx: 10, fill: "#1f6b4a" });
}

/** The picture of a game's tile: a plain table of cards at once, then the game's own scene
 * (its folder's picture.js, the game list's "picture", exporting scene(kit)) once loaded. */
export function gamePicture(g) {
  const svg = el("svg", { viewBox: "0 0 120 80", class: "tile-picture", "aria-hidden": "true", focusable: "false" },
    felt(), card(50, 40, -8, null), card(70, 40, 8, SPADE, "#1d2a36"));
  if (g.picture) {
    import(`./${g.picture}`).then((mod) => {
      svg.replaceChildren(felt(), ...mod.scene({ el, card, SPADE, HEART, DIAMOND, CLUB }));
      svg.setAttribute("data-drawn", g.id);
    }).catch(() => {}); // the plain table stays
  }
  return svg;
}
