// Foursquare's lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes).

export function scene({ el }) {
  const out = [];
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) {
      const up = (r * 4 + c) % 3 !== 1;
      out.push(el("rect", { x: 33 + c * 14, y: 7 + r * 17, width: 12, height: 15, rx: 2, fill: up ? "#fffdf7" : "#2f5d8a", stroke: "#1d2a36", "stroke-width": 0.8 }));
    }
  }
  return out;
}
