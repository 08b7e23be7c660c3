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

const SCENES = {
  spades: () => [card(42, 44, -18, SPADE, "#1d2a36"), card(60, 40, 0, HEART, "#c0392b"), card(78, 44, 18, SPADE, "#1d2a36")],
  "spite-and-malice": () => [
    card(28, 42, 0, null), card(30, 40, 0, null), card(32, 38, 0, HEART, "#c0392b"),
    card(60, 40, 0, CLUB, "#1d2a36"), card(90, 40, 0, DIAMOND, "#c0392b")],
  "hit-the-deck": () => {
    const colours = ["#d63c3c", "#e6b422", "#2f9e5b", "#2f6fd6"];
    const out = colours.map((c, i) => el("g", { transform: `translate(${30 + i * 20} ${44}) rotate(${(i - 1.5) * 10})` },
      el("rect", { x: -11, y: -16, width: 22, height: 32, rx: 3, fill: c, stroke: "#1d2a36", "stroke-width": 1 }),
      el("circle", { cx: 0, cy: 0, r: 6, fill: "#fffdf7" })));
    out.push(el("path", { d: "M92 16l4 8 8 1-6 5 2 8-8-4-8 4 2-8-6-5 8-1z", fill: "#ffd75e" }));
    return out;
  },
  "clockwork-spades": () => {
    const out = [el("circle", { cx: 60, cy: 40, r: 30, fill: "#fffdf7", stroke: "#1d2a36", "stroke-width": 1.5 })];
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6;
      out.push(el("circle", { cx: (60 + 24 * Math.sin(a)).toFixed(1), cy: (40 - 24 * Math.cos(a)).toFixed(1), r: 2.6, fill: i % 3 === 0 ? "#1d2a36" : "#7b8794" }));
    }
    out.push(el("path", { d: "M60 40L60 22", stroke: "#c0392b", "stroke-width": 2.5, "stroke-linecap": "round" }));
    out.push(el("path", { d: SPADE, fill: "#1d2a36", transform: "translate(60 42) scale(0.8)" }));
    return out;
  },
  foursquare: () => {
    const out = [];
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        const up = (r * 4 + c) % 3 !== 1;
        out.push(el("rect", { x: 33 + c * 14, y: 7 + r * 17, width: 12, height: 15, rx: 2, fill: up ? "#fffdf7" : "#2f5d8a", stroke: "#1d2a36", "stroke-width": 0.8 }));
      }
    }
    return out;
  },
};

/** The picture of a game's tile (a plain table of cards for a game without its own). */
export function gamePicture(gameId) {
  const scene = SCENES[gameId] || (() => [card(50, 40, -8, null), card(70, 40, 8, SPADE, "#1d2a36")]);
  return el("svg", { viewBox: "0 0 120 80", class: "tile-picture", "aria-hidden": "true", focusable: "false" }, felt(), ...scene());
}
