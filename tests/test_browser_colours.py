"""Colour-blind players (issue 15, item 13): every Hit the Deck colour also carries its
own shape (and no English initial: issue 32), and the four-colour deck (a switch at the
table) tells the suits apart by colour as well as by symbol."""

from __future__ import annotations

import pytest
from browser_kit import open_table, page_of, shot

pytestmark = [pytest.mark.browser, pytest.mark.reduced_motion]

HTD_MARKS = """async () => {
  const m = await import('/static/games/hit_the_deck/table.js');
  const box = document.createElement('div');
  box.className = 'htd';
  document.getElementById('app').append(box);
  const out = {};
  for (const c of 'RYGB') {
    const card = m.cardFace(c + '3');
    const hit = m.cardFace('hit ' + c);
    box.append(card, hit);
    const mark = card.querySelector('.hc-corner .cmark');
    const st = getComputedStyle(mark);
    const r = mark.getBoundingClientRect();
    out[c] = {
      corner: card.querySelector('.hc-corner').textContent,
      mark: mark.className,
      disc: (hit.querySelector('.disc .cmark') || {}).className || null,
      shape: [st.clipPath, st.borderRadius, st.transform].join(' | '),
      size: [r.width, r.height],
      ink: st.backgroundColor,
      paper: getComputedStyle(card).backgroundColor,
      label: card.getAttribute('aria-label'),
    };
  }
  return out;
}"""

SUIT_COLOURS = """async () => {
  const m = await import('/static/tables/cards.js');
  const box = document.createElement('div');
  document.body.append(box);
  const out = {};
  for (const s of 'SHDC') {
    const card = m.cardFace('7' + s);
    const chip = m.cardChip('7' + s);
    box.append(card, chip);
    out[s] = [getComputedStyle(card).color, getComputedStyle(chip).color];
  }
  box.remove();
  return out;
}"""


def test_each_hit_the_deck_colour_has_its_own_shape_and_no_initial(browser, base):
    page = page_of(browser)
    page.goto(base + "/")
    marks = page.evaluate(HTD_MARKS)
    names = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
    for colour, m in marks.items():
        assert m["corner"] == "3", m  # the number; the colour is the shape, not R/Y/G/B
        assert f"cm-{colour}" in m["mark"].split() and f"cm-{colour}" in m["disc"].split(), m
        assert min(m["size"]) >= 4, m  # drawn, not an empty box
        assert m["ink"] != m["paper"], m  # the mark stands out from the card
        assert m["label"] == f"{names[colour]} 3"
    shapes = {m["shape"] for m in marks.values()}
    assert len(shapes) == 4, marks  # four different shapes: no colour needed to tell them


def test_the_four_colour_deck_is_a_switch_at_the_table(browser, base):
    page = page_of(browser)
    open_table(page, base, "spades")
    page.wait_for_selector(".bid-panel:not([hidden]) .bid")
    switch = page.locator(".four-switch")
    assert switch.get_attribute("aria-pressed") == "false"
    two = page.evaluate(SUIT_COLOURS)
    assert two["H"] == two["D"] and two["S"] == two["C"] and two["H"] != two["S"]
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    four = page.evaluate(SUIT_COLOURS)
    assert len({face for face, _ in four.values()}) == 4, four
    assert all(face == chip for face, chip in four.values()), four  # cards and names agree
    shot(page, "four-colour-deck")
    page.reload()  # the browser keeps the setting
    page.wait_for_selector(".four-switch[aria-pressed='true']")
    assert page.evaluate("document.body.classList.contains('four-colour')")
