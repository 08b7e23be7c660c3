// Quick play on the lobby's panel: "Play now" waits to be seated with the next people who
// want the same game and preset (POST /api/quick), asks how the wait stands every 1.5 s and
// counts down to the bots that take the seats nobody came for. The wait's secret lives in
// this page's memory only; once seated it is the seat's token (kept like any other seat's).

import { h } from "./dom.js";
import { t, n } from "./i18n.js";

const ASK_EVERY = 1500; // ms between two looks at the wait (the server forgets a silent one)

let waiting = null; // the wait under way on this page: {stop()}

/** Stop the wait under way, if any (the panel is rebuilt, the page left). */
export function stopWaiting() {
  if (waiting) waiting.stop(true);
}

/** The "Play now" box of the panel for game ``g``: ``preset()`` and ``name()`` say what the
 * panel holds when the button is pressed. */
export function quickPlayBox(env, g, preset, name) {
  const button = h("button", { type: "button", class: "button primary", id: "play-now" }, t("Play now"));
  const status = h("p", { class: "quick-status", id: "quick-status", role: "status", "aria-live": "polite" });
  const cancel = h("button", { type: "button", class: "button", id: "quick-cancel", hidden: "" }, t("Stop waiting"));
  const box = h("div", { class: "quick-play" },
    h("div", { class: "quick-row" }, button, cancel),
    h("small", { class: "muted" }, t("Seats you with the next people waiting for this game; bots take the seats nobody comes for after a short wait.")),
    status);

  function show(busy, text) {
    button.hidden = busy;
    cancel.hidden = !busy;
    status.textContent = text || "";
  }

  button.addEventListener("click", async () => {
    stopWaiting();
    button.disabled = true;
    let wait;
    try {
      wait = (await env.api("POST", "/api/quick", { game: g.id, preset: preset(), name: name() })).wait;
    } catch (err) {
      show(false, err.message);
      return;
    } finally {
      button.disabled = false;
    }
    let timer = null;
    let over = false;
    const handle = {
      stop(tell) {
        over = true;
        clearTimeout(timer);
        if (waiting === handle) waiting = null;
        if (tell) env.api("POST", `/api/quick/${wait.id}/cancel`, { secret: wait.secret }).catch(() => {});
      },
    };
    waiting = handle;
    show(true, t("Looking for players…"));
    cancel.onclick = () => { handle.stop(true); show(false, t("You stopped waiting.")); button.focus(); };
    const look = async () => {
      if (over) return;
      let res;
      try {
        res = await env.api("POST", `/api/quick/${wait.id}`, { secret: wait.secret });
      } catch (err) {
        if (over) return;
        handle.stop(false);
        show(false, err.message);
        return;
      }
      if (over) return;
      if (res.status === "seated") {
        handle.stop(false);
        env.keepSeat(res.table, res.seat, wait.secret);
        env.navigate(`/t/${res.table}`);
        return;
      }
      const seconds = Math.ceil(res.bots_in);
      show(true, [
        t("{found} of {seats} players here.", { found: res.found, seats: res.seats }),
        res.found < res.seats && seconds > 0 ? n("Bots take the empty seats in {n} second.", "Bots take the empty seats in {n} seconds.", seconds) : t("Opening the table…"),
      ].join(" "));
      timer = setTimeout(look, ASK_EVERY);
    };
    look();
  });
  return box;
}
