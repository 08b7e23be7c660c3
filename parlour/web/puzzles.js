// Puzzles (/puzzles, /puzzles/daily, /puzzles/<id>): a position from a real game where one
// move is clearly best, shown by the game's own table exactly as that seat saw it (the
// server sends the seat's view and nothing else). You play your move on the cards; the
// server answers whether it was the best, every choice's chance to win, the line the game
// took, and, signed in, your puzzle rating before and after (a first try counts).
import { h, clear, toast, loadStyle } from "./dom.js";
import { t, percent } from "./i18n.js";
import { richText } from "./tables/cards.js";
import { gameName, seatLabel } from "./words.js";
import { markMove } from "./review.js";

await loadStyle("/static/puzzles.css");

const SEEN_MOST = 50; // ids of puzzles shown lately sent back, so a guest does not get them again
const seen = [];

// `ctx`: {app, crumb, api, navigate, loadRenderer, signedIn}; `which`: null (the next
// puzzle), "daily", or a puzzle's id.
export function puzzlesPage(ctx, which) {
  let gone = false;
  let renderer = null;
  let puzzle = null;
  let answered = false;
  let catalogue = null;
  const params = new URLSearchParams(location.search);
  let asking = 0; // the latest puzzle asked for: an older answer that comes late is not shown
  let game = params.get("game") || "";
  let theme = params.get("theme") || "";

  const gameSel = h("select", { id: "puzzle-game", "aria-label": t("Game") });
  const themeSel = h("select", { id: "puzzle-theme", "aria-label": t("Theme") });
  const nextButton = h("button", { type: "button", class: "button primary puzzle-next" }, t("Next puzzle"));
  const dailyLink = h("a", { class: "button puzzle-daily-link", href: "/puzzles/daily", "data-nav": "" }, t("Puzzle of the day"));
  const standing = h("p", { class: "puzzle-standing", "aria-live": "polite" });
  const chooser = h("div", { class: "puzzle-chooser" },
    h("label", { for: "puzzle-game" }, t("Game")), gameSel,
    h("label", { for: "puzzle-theme" }, t("Theme")), themeSel, nextButton, dailyLink);
  const title = h("h1", {}, t("Puzzles"));
  const about = h("p", { class: "puzzle-about" }, t("Positions from real games where one move is clearly best. You see only what that player saw: find the move."));
  const ask = h("div", { class: "puzzle-ask", "aria-live": "polite" });
  const board = h("section", { class: "board puzzle-board", "aria-label": t("The puzzle") });
  const result = h("section", { class: "puzzle-result card-panel", hidden: "", "aria-live": "polite" });
  const giveUp = h("button", { type: "button", class: "button puzzle-give-up" }, t("Show the answer"));
  giveUp.addEventListener("click", () => send(null));
  const head = h("section", { class: "card-panel puzzle-head", "aria-busy": "true" }, title, about, chooser, standing, ask);
  ctx.app.append(head, board, result);
  ctx.crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, t("Puzzles")));
  document.title = [t("Puzzles"), "Parlour"].join(" · ");

  const tableCtx = {
    seat: 0,
    names: [],
    badge() { return ""; },
    table: null,
    get live() { return Boolean(puzzle) && !answered; },
    act(text) { send(text); return true; },
    hint() { return false; },
    timed: null,
    react() { return false; },
    say: toast,
  };

  function fillGames() {
    clear(gameSel);
    gameSel.append(h("option", { value: "" }, t("Every game")));
    for (const g of catalogue.games) gameSel.append(h("option", { value: g.id }, `${gameName(g.name)} (${g.puzzles})`));
    gameSel.value = catalogue.games.some((g) => g.id === game) ? game : "";
    fillThemes();
  }
  function fillThemes() {
    clear(themeSel);
    themeSel.append(h("option", { value: "" }, t("Every theme")));
    const g = catalogue.games.find((x) => x.id === gameSel.value);
    themeSel.disabled = !g;
    if (g) for (const th of g.themes) themeSel.append(h("option", { value: th.id }, `${th.name} (${th.puzzles})`));
    themeSel.value = g && g.themes.some((x) => x.id === theme) ? theme : "";
  }
  function showStanding(me, change) {
    clear(standing);
    if (!me) {
      standing.append(t("Sign in to get a puzzle rating: your first try at each puzzle counts."));
      return;
    }
    standing.append(t("Your puzzle rating: {rating}", { rating: String(me.rating) }), " · ",
      t("solved {solved} of {tries}", { solved: me.solved, tries: me.tries }));
    if (change) {
      const diff = change.after - change.before;
      standing.append(" ", h("span", { class: diff >= 0 ? "puzzle-up" : "puzzle-down" }, diff >= 0 ? `+${diff}` : `−${-diff}`));
    }
  }

  // Show the puzzle `res` holds, if it is still the one asked for last (`ticket`).
  async function show(res, ticket = asking) {
    if (gone || ticket !== asking) return;
    puzzle = res.puzzle;
    answered = false;
    giveUp.disabled = false;
    seen.push(puzzle.id);
    if (seen.length > SEEN_MOST) seen.shift();
    result.hidden = true;
    clear(result);
    if (renderer) { renderer.destroy(); renderer = null; }
    clear(board);
    const mod = await ctx.loadRenderer(puzzle.game);
    if (gone || ticket !== asking) return;
    tableCtx.seat = puzzle.seat;
    renderer = mod.mount(board, tableCtx);
    renderer.update(puzzle.view, {});
    clear(ask);
    ask.append(h("p", { class: "puzzle-prompt" }, res.daily ? h("b", {}, t("Puzzle of the day"), ": ") : "",
      t("{game}: find the best move.", { game: gameName(puzzle.game_name) })),
      h("p", { class: "puzzle-meta" },
        puzzle.themes.length ? [t("Theme: {themes}", { themes: puzzle.themes.map((x) => x.name).join(", ") }), " · "] : "",
        t("Puzzle rating {rating}", { rating: String(puzzle.rating) }), " · ",
        h("a", { href: `/puzzles/${puzzle.id}`, "data-nav": "", class: "puzzle-link" }, t("Link to this puzzle"))),
      giveUp);
    if (which !== null) history.replaceState(null, "", `/puzzles/${puzzle.id}`);
    document.title = [t("Puzzle {id}", { id: puzzle.id }), "Parlour"].join(" · ");
    head.setAttribute("aria-busy", "false");
  }

  // A new puzzle is on its way: the page says so until it is shown.
  function asked() {
    head.setAttribute("aria-busy", "true");
    puzzle = null;
    return ++asking;
  }

  // Your move (a move's notation), or null: show the answer without trying.
  async function send(move) {
    if (!puzzle || answered) return;
    answered = true;
    giveUp.disabled = true;
    try {
      const got = move === null
        ? await ctx.api("POST", `/api/puzzles/${puzzle.id}/solution`, {})
        : await ctx.api("POST", `/api/puzzles/${puzzle.id}/answer`, { move });
      if (gone) return;
      renderer.update(puzzle.view, {}); // drawn again: no longer live
      for (const best of got.answers) markMove(board, best, "review-best");
      if (!got.solved && got.played) markMove(board, got.played, "review-played");
      explain(got);
      if (got.rating && got.rating.counted) {
        const me = (await ctx.api("GET", "/api/puzzles")).me;
        if (!gone) showStanding(me, got.rating);
      }
    } catch (err) {
      answered = false;
      giveUp.disabled = false;
      toast(err.message, "error");
    }
  }

  function explain(got) {
    clear(result);
    const answer = got.chances.find((c) => c.move === got.answer);
    const best = [h("b", {}, ...richText(got.answer_words)), " ", t("({chance} to win)", { chance: percent(answer.chance) })];
    const verdict = got.solved
      ? h("p", { class: "puzzle-verdict puzzle-right" }, t("Right, that is the best move:"), " ", ...best)
      : got.played === null
        ? h("p", { class: "puzzle-verdict" }, t("The best move:"), " ", ...best)
        : h("p", { class: "puzzle-verdict puzzle-wrong" }, t("Not the best. The best move:"), " ", ...best);
    const rows = got.chances.map((c) => h("li", { class: got.answers.includes(c.move) ? "best" : c.move === got.played ? "played" : "" },
      h("span", { class: "puzzle-move" }, ...richText(c.words), c.move === got.played ? h("span", { class: "puzzle-yours" }, " ", t("(yours)")) : ""),
      h("span", { class: "puzzle-bar", "aria-hidden": "true" }, h("span", { style: { width: `${Math.round(c.chance * 100)}%` } })),
      h("span", { class: "puzzle-chance" }, percent(c.chance))));
    result.append(verdict,
      h("h2", {}, t("Chance to win after each move")),
      h("p", { class: "muted" }, t("Judged by the strongest bot from what this player could see, then judged again with other deals of the unseen cards.")),
      h("ol", { class: "puzzle-chances" }, ...rows));
    if (got.line.length) {
      result.append(h("h2", {}, t("What followed the best move")),
        h("ol", { class: "puzzle-line" }, ...got.line.map((m) => h("li", {}, h("b", {}, who(m.seat), ": "), ...richText(m.words)))));
    }
    const again = h("button", { type: "button", class: "button primary puzzle-next-after" }, t("Next puzzle"));
    again.addEventListener("click", () => next());
    result.append(h("p", {}, again));
    result.hidden = false;
  }

  // A seat of the puzzle in words: you, or the seat's name at the table (no person's name).
  function who(seat) {
    if (seat === puzzle.seat) return t("You");
    const names = puzzle.view.seat_names;
    return names ? seatLabel(names[seat]) : seatLabel(`seat ${seat}`);
  }

  async function next() {
    game = gameSel.value;
    theme = themeSel.value;
    const query = new URLSearchParams();
    if (game) query.set("game", game);
    if (game && theme) query.set("theme", theme);
    if (!ctx.signedIn && seen.length) query.set("seen", seen.join(","));
    const choice = new URLSearchParams(query); // the address keeps the choice, not what was seen
    choice.delete("seen");
    history.replaceState(null, "", `/puzzles${choice.size ? `?${choice}` : ""}`);
    which = null;
    const mine = asked();
    try {
      await show(await ctx.api("GET", `/api/puzzles/next${query.size ? `?${query}` : ""}`), mine);
    } catch (err) {
      if (mine === asking) head.setAttribute("aria-busy", "false");
      toast(err.message, "error");
    }
  }

  gameSel.addEventListener("change", () => { theme = ""; fillThemes(); next(); });
  themeSel.addEventListener("change", () => next());
  nextButton.addEventListener("click", () => next());

  (async () => {
    try {
      catalogue = await ctx.api("GET", "/api/puzzles");
      if (gone) return;
      fillGames();
      showStanding(catalogue.me, null);
      if (!catalogue.games.length) {
        head.setAttribute("aria-busy", "false");
        ask.append(h("p", { class: "muted" }, t("No puzzles are kept here yet.")));
        return;
      }
      if (which === "daily" || which) {
        const mine = asked();
        await show(await ctx.api("GET", which === "daily" ? "/api/puzzles/daily" : `/api/puzzles/${which}`), mine);
      } else await next();
    } catch (err) {
      head.setAttribute("aria-busy", "false");
      ask.append(h("p", { class: "error" }, err.message));
    }
  })();
  return { destroy() { gone = true; if (renderer) renderer.destroy(); } };
}
