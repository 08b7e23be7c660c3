// Hints at every table: a Hint button beside the turn clock. Any seat may ask during its
// turn where the table allows hints (table.hints); the server works the answer out from the
// seat's own view with the game's hint bot (ismcts where the game names none) and sends it
// as a "hint" message, which marks the suggested card or move on the table. A renderer with
// hints of its own (Foursquare: hinted(msg)) keeps them, and this button stays hidden.
import { h, loadStyle } from "./dom.js";
import { t, percent } from "./i18n.js";
import { richText } from "./tables/cards.js";

await loadStyle("/static/hints.css");

// `ask()` sends the question (false if it could not); `board` holds the table's cards.
export function hintButton({ ask, board }) {
  const button = h("button", { class: "button hint-button", type: "button", title: t("Ask the bot what it would do here") }, t("Hint"));
  const out = h("span", { class: "hint-answer", "aria-live": "polite" });
  const el = h("span", { class: "hint-bar", hidden: "" }, button, out);
  let at = null; // the position shown: "match:version"
  let answer = null; // the suggested action for it

  button.addEventListener("click", () => {
    if (answer !== null) { mark(); return; }
    if (!ask()) return;
    button.disabled = true;
    out.textContent = t("Thinking…");
  });

  function mark() {
    for (const old of board.querySelectorAll(".hint-best")) old.classList.remove("hint-best");
    if (answer === null) return;
    for (const node of board.querySelectorAll("[data-card], [data-action]")) {
      if (node.dataset.card === answer || node.dataset.action === answer) node.classList.add("hint-best");
    }
  }

  return {
    el,
    // After each view: whether this page may ask now, and the position it shows.
    update({ usable, match, version }) {
      el.hidden = !usable;
      const key = `${match}:${version}`;
      if (key !== at) {
        at = key;
        answer = null;
        button.disabled = false;
        out.textContent = "";
      }
      mark();
    },
    hinted(msg) {
      if (`${msg.match}:${msg.version}` !== at) return;
      answer = msg.action;
      button.disabled = false;
      // the move in words of the reader's language, its cards as chips (msg.words, the server's)
      const move = msg.words || msg.action;
      out.replaceChildren(...richText(typeof msg.chance === "number"
        ? t("The bot suggests {move} ({chance} to win)", { move, chance: percent(msg.chance) })
        : t("The bot suggests {move}", { move })));
      mark();
    },
    refused() {
      if (answer === null && button.disabled) {
        button.disabled = false;
        out.textContent = "";
      }
    },
  };
}
