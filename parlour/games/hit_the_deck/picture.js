// Hit the Deck's lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes).

export function scene({ el }) {
  const colours = ["#d63c3c", "#e6b422", "#2f9e5b", "#2f6fd6"];
  const out = colours.map((c, i) => el("g", { transform: `translate(${30 + i * 20} ${44}) rotate(${(i - 1.5) * 10})` },
    el("rect", { x: -11, y: -16, width: 22, height: 32, rx: 3, fill: c, stroke: "#1d2a36", "stroke-width": 1 }),
    el("circle", { cx: 0, cy: 0, r: 6, fill: "#fffdf7" })));
  out.push(el("path", { d: "M92 16l4 8 8 1-6 5 2 8-8-4-8 4 2-8-6-5 8-1z", fill: "#ffd75e" }));
  return out;
}
