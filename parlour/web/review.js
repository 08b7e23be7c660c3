// The post-game review in the browser (docs/review.md): the replay page asks the server for
// the review of one seat (POST /api/tables/<id>/matches/<n>/review), shows its progress,
// then a chart of that seat's chance to win over the match with its marked decisions, the
// list of them, and a jump to each one that sets the replay there and shows the better
// move on the cards; at a marked decision, any other choice may be tried (POST .../review/try:
// judged by the server from that seat's view, as the review judged the move played) and its
// chance to win is shown beside the move played and the better one. Two hooks: reviewLink()
// on the results screen (table_page.js) and reviewPanel() on the replay page (app.js)
// (whose go() calls panel.stepped after each step).
import { h, clear, toast, loadStyle } from "./dom.js";
import { t, n, percent } from "./i18n.js";
import { richText } from "./tables/cards.js";
import { seatLabel } from "./words.js";

await loadStyle("/static/review.css");

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const WIDTH = 600;
const HEIGHT = 160;
const PAD = 14;

const MARK_NAME = {
  inaccuracy: () => t("Inaccuracy"),
  mistake: () => t("Mistake"),
  blunder: () => t("Blunder"),
};

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

// Mark a move on a table's cards: every card or button of the board that plays `text` (a
// move in the game's notation) gets the class `cls` (the review's and the puzzles' marks).
export function markMove(board, text, cls) {
  for (const node of board.querySelectorAll("[data-card], [data-action]")) {
    if (node.dataset.card === text || node.dataset.action === text) node.classList.add(cls);
  }
}

// The results screen's button: the replay of the match with the review of `seat` open
// (seat 0 for someone who watched: the replay page lets them choose another).
export function reviewLink(table, match, seat) {
  if (!table || table.daily) return null; // a daily deal's records open when its day is over
  const label = seat === null ? t("Review the game") : t("Review my game");
  return h("a", { class: "button review-link", href: `/t/${table.id}/replay/${match}?review=${seat === null ? 0 : seat}`, "data-nav": "" }, label);
}

// The review panel of the replay page. `info` is the table's summary; `api(method, path,
// body)` the page's JSON helper; `steps()` the match's length; `jump(step, seat)` sets the
// replay to that step as that seat saw it (a promise); `board` holds the table's cards.
export function reviewPanel({ info, match, api, steps, jump, board, seat: first = null }) {
  const el = h("section", { class: "review card-panel", "aria-labelledby": "review-title" });
  const title = h("h2", { id: "review-title" }, t("Review"));
  const body = h("div", { class: "review-body", "aria-live": "polite" });
  const seatSel = h("select", { id: "review-seat", "aria-label": t("Whose play to review") });
  for (const s of info.seats) seatSel.append(h("option", { value: String(s.seat) }, seatLabel(s.label)));
  const start = h("button", { class: "button primary review-start", type: "button" }, t("Review this seat's play"));
  el.append(title, h("p", { class: "review-about" }, t("The strongest bot judges every decision of the seat from what that seat could see then, as a chance to win the match.")),
    h("div", { class: "review-ask" }, h("label", { for: "review-seat" }, t("Seat")), seatSel, start), body);

  const tryBox = h("div", { class: "review-try", hidden: true });
  let timer = null;
  let gone = false;
  let trying = 0; // the latest try asked: an older answer that comes late is not shown
  let tryAt = ""; // the decision the try panel is for ("seat:index")
  let review = null; // the review shown, once done
  let reviewed = null; // its seat
  let cursor = null; // the chart's line at the replay's step
  let shownStep = null;
  let shownSeat = null;
  // each decision's moves in the reader's words, by its index (the server's; the review
  // itself keeps the notation, which marks the cards on the board)
  let said = {};
  const words = (d, key) => richText(said[d.index]?.[key] ?? d[key]);

  async function ask(seat, fresh) {
    clearTimeout(timer);
    review = null;
    reviewed = seat;
    tryAt = "";
    tryPanel(null);
    seatSel.value = String(seat);
    clear(body);
    body.append(h("p", { class: "review-status" }, t("Asking the reviewer…")));
    try {
      const path = `/api/tables/${info.id}/matches/${match}/review`;
      const got = fresh ? await api("POST", path, { seat }) : await api("GET", `${path}?seat=${seat}`);
      if (gone || reviewed !== seat) return;
      if (got.status === "none") return ask(seat, true);
      show(got, seat);
    } catch (err) {
      if (gone) return;
      clear(body);
      body.append(h("p", { class: "error" }, err.message));
    }
  }

  function show(got, seat) {
    clear(body);
    if (got.status === "done") {
      review = got.review;
      said = got.said || {};
      drawReview(seat);
      return;
    }
    if (got.status === "failed") {
      const again = h("button", { class: "button", type: "button" }, t("Try again"));
      again.addEventListener("click", () => ask(seat, true));
      body.append(h("p", { class: "error" }, t("The review could not be finished.")), again);
      return;
    }
    const bar = h("progress", { class: "review-progress", max: String(Math.max(1, got.total)), value: String(got.done) });
    body.append(h("p", { class: "review-status" }, got.status === "queued" && got.done === 0
      ? t("Waiting for the reviewer…")
      : n("Reviewing: {done} of {n} decision", "Reviewing: {done} of {n} decisions", got.total, { done: got.done })), bar);
    timer = setTimeout(() => ask(seat, false), POLL_MS);
  }

  function drawReview(seat) {
    const summary = review.summaries.find((s) => s.seat === seat);
    const marked = review.decisions.filter((d) => d.mark !== "fine");
    const counts = h("p", { class: "review-summary" },
      t("Accuracy: {accuracy}", { accuracy: percent(summary.accuracy) }), " · ",
      // zero said on its own: Portuguese counts 0 as one ("0 erro")
      summary.marks.inaccuracy ? n("{n} inaccuracy", "{n} inaccuracies", summary.marks.inaccuracy) : t("no inaccuracies"), " · ",
      summary.marks.mistake ? n("{n} mistake", "{n} mistakes", summary.marks.mistake) : t("no mistakes"), " · ",
      summary.marks.blunder ? n("{n} blunder", "{n} blunders", summary.marks.blunder) : t("no blunders"));
    body.append(counts, chart(review.decisions), marked.length ? list(marked) : h("p", { class: "review-clean" }, t("Nothing marked: every decision was close to the best.")), tryBox);
    stepped(shownStep, shownSeat);
  }

  // The chance to win after each decision of the seat, over the match's steps.
  function chart(decisions) {
    const total = Math.max(1, steps() || 0, ...decisions.map((d) => d.index + 1));
    const x = (step) => PAD + (WIDTH - 2 * PAD) * (step / total);
    const y = (chance) => PAD + (HEIGHT - 2 * PAD) * (1 - chance);
    const box = svg("svg", { class: "review-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": t("Chance to win the match after each decision, with the marked ones") });
    box.append(svg("rect", { class: "review-frame", x: PAD, y: PAD, width: WIDTH - 2 * PAD, height: HEIGHT - 2 * PAD }));
    box.append(svg("line", { class: "review-even", x1: PAD, x2: WIDTH - PAD, y1: y(0.5), y2: y(0.5) }));
    if (decisions.length) {
      const points = decisions.map((d) => `${x(d.index).toFixed(1)},${y(d.chance).toFixed(1)}`).join(" ");
      box.append(svg("polyline", { class: "review-line", points }));
    }
    cursor = svg("line", { class: "review-cursor", x1: PAD, x2: PAD, y1: PAD, y2: HEIGHT - PAD, visibility: "hidden" });
    box.append(cursor);
    for (const d of decisions) {
      if (d.mark === "fine") continue;
      const dot = svg("circle", { class: `review-dot mark-${d.mark}`, cx: x(d.index).toFixed(1), cy: y(d.chance).toFixed(1), r: d.mark === "blunder" ? 6 : 4.5, "data-index": d.index },
        svg("title", {}, document.createTextNode(`${MARK_NAME[d.mark]()}: ${words(d, "played").map((n) => (typeof n === "string" ? n : n.textContent)).join("")}`)));
      dot.addEventListener("click", () => go(d));
      box.append(dot);
    }
    return h("div", { class: "review-chart-box" }, box,
      h("p", { class: "review-axis" }, t("Chance to win the match, from the first step to the last")));
  }

  function list(marked) {
    const items = marked.map((d) => {
      const b = h("button", { class: `review-item mark-${d.mark}`, type: "button", "data-index": String(d.index), "data-best": d.best, "data-played": d.played },
        h("span", { class: "review-mark" }, MARK_NAME[d.mark]()),
        h("span", { class: "review-step" }, t("Step {step}", { step: d.index })),
        h("span", {}, t("Chosen:"), " ", h("b", {}, words(d, "played")), " ", t("({chance} to win)", { chance: percent(d.chance) })),
        h("span", {}, t("Better:"), " ", h("b", {}, words(d, "best")), " ", t("({chance} to win)", { chance: percent(d.best_chance) })));
      b.addEventListener("click", () => go(d));
      return h("li", {}, b);
    });
    return h("div", { class: "review-list" }, h("h3", {}, t("Marked decisions")), h("ol", {}, ...items));
  }

  // At a marked decision: every choice of it as a button (best first), to try one.
  function tryPanel(d) {
    trying += 1;
    clear(tryBox);
    tryBox.hidden = !d || d.mark === "fine";
    if (tryBox.hidden) return;
    const result = h("p", { class: "review-try-result", "aria-live": "polite" });
    const named = said[d.index]?.choices || {};
    const buttons = Object.keys(d.chances).map((text) => {
      const b = h("button", { class: "button review-choice", type: "button", "data-action": text, "aria-pressed": "false" }, richText(named[text] ?? text));
      b.addEventListener("click", () => tryMove(d, text, b, result));
      return b;
    });
    tryBox.append(h("h3", {}, t("Try another move")),
      h("p", { class: "review-try-about" }, t("Pick any choice of step {step} to see its chance to win beside the move played and the better one.", { step: d.index })),
      h("div", { class: "review-choices", role: "group", "aria-label": t("Choices at step {step}", { step: d.index }) }, ...buttons), result);
  }

  async function tryMove(d, text, button, result) {
    const ticket = ++trying;
    for (const b of tryBox.querySelectorAll(".review-choice")) b.setAttribute("aria-pressed", String(b === button));
    for (const old of board.querySelectorAll(".review-tried-card")) old.classList.remove("review-tried-card");
    mark(text, "review-tried-card");
    clear(result);
    result.append(t("Judging this move…"));
    try {
      const got = await api("POST", `/api/tables/${info.id}/matches/${match}/review/try`, { seat: reviewed, index: d.index, action: text });
      if (gone || ticket !== trying) return;
      const tried = got.tried;
      clear(result);
      result.append(
        h("span", { class: `review-tried mark-${tried.mark}` }, t("Tried:"), " ", h("b", {}, richText(got.said.played)), " ",
          t("({chance} to win)", { chance: percent(tried.chance) }), " · ", tried.mark === "fine" ? t("a good move") : MARK_NAME[tried.mark]()),
        h("span", {}, t("Chosen:"), " ", h("b", {}, words(d, "played")), " ", t("({chance} to win)", { chance: percent(d.chance) })),
        h("span", {}, t("Better:"), " ", h("b", {}, words(d, "best")), " ", t("({chance} to win)", { chance: percent(d.best_chance) })));
    } catch (err) {
      if (gone || ticket !== trying) return;
      clear(result);
      result.append(h("span", { class: "error" }, err.message));
    }
  }

  async function go(d) {
    try { await jump(d.index, reviewed); } catch (err) { toast(err.message, "error"); }
  }

  // After the replay draws step `step` as `seat` saw it: the cursor on the chart, and at a
  // reviewed decision the better move (and the one played) marked on the cards.
  function stepped(step, seat) {
    shownStep = step;
    shownSeat = seat;
    for (const old of board.querySelectorAll(".review-best, .review-played, .review-tried-card")) old.classList.remove("review-best", "review-played", "review-tried-card");
    for (const old of el.querySelectorAll(".review-item.current")) old.classList.remove("current");
    const at = review && step !== null && seat === reviewed ? review.decisions.find((x) => x.index === step) : null;
    const key = at ? `${reviewed}:${at.index}` : "";
    if (key !== tryAt) tryPanel(at); // kept while the replay stays at the same decision
    tryAt = key;
    if (!review || step === null) return;
    if (cursor) {
      const total = Math.max(1, steps() || 0);
      const at = PAD + (WIDTH - 2 * PAD) * (step / total);
      cursor.setAttribute("x1", at.toFixed(1));
      cursor.setAttribute("x2", at.toFixed(1));
      cursor.setAttribute("visibility", "visible");
    }
    const d = review.decisions.find((x) => x.index === step);
    if (!d || seat !== reviewed) return;
    const item = el.querySelector(`.review-item[data-index="${d.index}"]`);
    if (item) item.classList.add("current");
    if (d.best !== d.played) mark(d.played, "review-played");
    mark(d.best, "review-best");
  }

  function mark(text, cls) { markMove(board, text, cls); }

  start.addEventListener("click", () => ask(Number(seatSel.value), false));
  if (first !== null && info.seats.some((s) => s.seat === first)) ask(first, false);
  return {
    el,
    stepped,
    destroy() { gone = true; clearTimeout(timer); },
  };
}
