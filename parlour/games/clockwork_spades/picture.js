// Clockwork Spades's lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes).

export function scene({ el, SPADE }) {
  const out = [el("circle", { cx: 60, cy: 40, r: 30, fill: "#fffdf7", stroke: "#1d2a36", "stroke-width": 1.5 })];
  for (let i = 0; i < 12; i++) {
    const a = (i * Math.PI) / 6;
    out.push(el("circle", { cx: (60 + 24 * Math.sin(a)).toFixed(1), cy: (40 - 24 * Math.cos(a)).toFixed(1), r: 2.6, fill: i % 3 === 0 ? "#1d2a36" : "#7b8794" }));
  }
  out.push(el("path", { d: "M60 40L60 22", stroke: "#c0392b", "stroke-width": 2.5, "stroke-linecap": "round" }));
  out.push(el("path", { d: SPADE, fill: "#1d2a36", transform: "translate(60 42) scale(0.8)" }));
  return out;
}
