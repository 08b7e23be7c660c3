// Spite & Malice's lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes).

export function scene({ card, HEART, DIAMOND, CLUB }) {
  return [
    card(28, 42, 0, null), card(30, 40, 0, null), card(32, 38, 0, HEART, "#c0392b"),
    card(60, 40, 0, CLUB, "#1d2a36"), card(90, 40, 0, DIAMOND, "#c0392b")];
}
