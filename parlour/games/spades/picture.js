// Spades' lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes).

export function scene({ card, SPADE, HEART }) {
  return [card(42, 44, -18, SPADE, "#1d2a36"), card(60, 40, 0, HEART, "#c0392b"), card(78, 44, 18, SPADE, "#1d2a36")];
}
