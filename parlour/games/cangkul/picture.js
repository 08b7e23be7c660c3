// Cangkul's lobby picture: its tile's small scene, 120 x 80, drawn with the kit
// parlour/web/pictures.js hands it (shapes only, colours as presentation attributes):
// a heart led, a club that cannot follow, and the stock being dug.

export function scene({ card, HEART, CLUB }) {
  return [card(26, 46, -12, null), card(30, 42, -6, null), card(34, 38, 0, null),
    card(66, 42, -8, HEART, "#c0392b"), card(90, 44, 10, HEART, "#c0392b"),
    card(60, 62, 0, CLUB, "#1d2a36")];
}
