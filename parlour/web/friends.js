// Friends in the browser (issue 34): the friends page (/friends: who is online and at which
// table, to watch or join; the players you follow; the people you block; the "show me
// online" setting; your challenges), the challenge form (a friend, a game, its preset and
// the bots' speed), and the bar a profile shows (/u/<name>: online, Follow, Block,
// Challenge). Everything comes from the room (room.js) or the people API; every string
// goes through i18n.js.

import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { gameName, presetName, speedName } from "./words.js";
import { onRoom, refreshRoom } from "./room.js";

const STATUS = {
  open: () => t("waiting for an answer"),
  accepted: () => t("accepted"),
  declined: () => t("declined"),
  cancelled: () => t("withdrawn"),
  expired: () => t("expired"),
};

function onlineWord(online) {
  if (online === null) return h("span", { class: "presence muted" }, t("not shown"));
  return h("span", { class: online ? "presence presence-on" : "presence" }, online ? t("online") : t("offline"));
}

async function send(path, body) {
  const res = await api("POST", path, body);
  refreshRoom();
  return res;
}

// ----------------------------------------------------------------------------- the page
/** The friends page; ctx: { app, crumb, navigate, games, signedIn }. */
export function friendsPage(ctx) {
  const panel = h("section", { class: "card-panel friends-page" }, h("h1", {}, t("Friends")));
  ctx.app.append(panel);
  ctx.crumb(h("a", { href: "/", "data-nav": "" }, t("Lobby")), h("span", { "aria-hidden": "true" }, " / "), h("span", {}, t("Friends")));
  document.title = t("Friends · Parlour");
  if (!ctx.signedIn) {
    panel.append(h("p", {}, t("Sign in to follow players, see your friends online and challenge them.")),
      h("a", { class: "button", href: "/signin", "data-nav": "" }, t("Sign in")));
    return { destroy() {} };
  }
  const body = h("div", { class: "friends-body" }, h("p", { class: "muted" }, t("Loading…")));
  const name = h("input", { type: "text", id: "follow-name", maxlength: "40", autocomplete: "off", required: "" });
  const form = h("form", { class: "follow-form" }, h("label", { for: "follow-name" }, t("Follow a player by name")), name,
    h("button", { type: "submit", class: "button" }, t("Follow")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await send("/api/people/follow", { name: name.value.trim() });
      toast(t("You follow {name} now.", { name: name.value.trim() }));
      name.value = "";
    } catch (err) { toast(err.message, "error"); }
  });
  panel.append(form, body);
  const undo = onRoom((room) => { if (room) draw(body, room, ctx); });
  refreshRoom();
  return { destroy() { undo(); } };
}

function draw(body, room, ctx) {
  clear(body);
  const friends = h("ul", { class: "people-list friends-list" });
  for (const f of room.friends) {
    const tables = f.tables.map((tb) => h("span", { class: "friend-table" },
      h("a", { href: `/t/${tb.id}`, "data-nav": "" }, tb.free_seat ? t("Join") : t("Watch")), " ",
      h("span", { class: "muted" }, tb.watching ? t("watching {game}", { game: gameName(tb.game_name) }) : gameName(tb.game_name))));
    const challenge = h("button", { type: "button", class: "button small-button" }, t("Challenge"));
    challenge.addEventListener("click", () => challengeDialog(f.name, ctx));
    friends.append(h("li", { "data-name": f.name },
      h("a", { href: `/u/${encodeURIComponent(f.name)}`, "data-nav": "", class: "person-name" }, f.name), " ",
      onlineWord(f.online), ...tables, challenge));
  }
  body.append(h("h2", {}, t("Your friends")),
    room.friends.length ? friends : h("p", { class: "muted" }, t("Nobody yet: two players who follow each other are friends.")));

  const challenges = h("ul", { class: "people-list challenge-list" });
  for (const c of room.challenges.outgoing) {
    const item = h("li", { "data-challenge": String(c.id) },
      t("{game} with {name}", { game: gameName(c.game_name), name: c.to }), " · ", h("span", { class: "challenge-status" }, (STATUS[c.status] || (() => c.status))()));
    if (c.status === "open") {
      const withdraw = h("button", { type: "button", class: "button small-button" }, t("Withdraw"));
      withdraw.addEventListener("click", () => send(`/api/people/challenges/${c.id}/cancel`).catch((err) => toast(err.message, "error")));
      item.append(" ", withdraw);
    } else if (c.status === "accepted" && c.table) {
      item.append(" ", h("a", { href: `/t/${c.table}`, "data-nav": "" }, t("Go to the table")));
    }
    challenges.append(item);
  }
  if (room.challenges.outgoing.length) body.append(h("h2", {}, t("Your challenges")), challenges);

  const following = h("ul", { class: "people-list" });
  for (const f of room.following) {
    const unfollow = h("button", { type: "button", class: "button small-button" }, t("Unfollow"));
    unfollow.addEventListener("click", () => send("/api/people/follow", { name: f.name, on: false }).catch((err) => toast(err.message, "error")));
    following.append(h("li", {}, h("a", { href: `/u/${encodeURIComponent(f.name)}`, "data-nav": "" }, f.name), " ", onlineWord(f.online), " ", unfollow));
  }
  if (room.following.length) body.append(h("h2", {}, t("You follow")), h("p", { class: "muted" }, t("They become your friends when they follow you too.")), following);

  const blocked = h("ul", { class: "people-list" });
  for (const name of room.blocked) {
    const unblock = h("button", { type: "button", class: "button small-button" }, t("Unblock"));
    unblock.addEventListener("click", () => send("/api/people/block", { name, on: false }).catch((err) => toast(err.message, "error")));
    blocked.append(h("li", {}, name, " ", unblock));
  }
  if (room.blocked.length) body.append(h("h2", {}, t("You block")), blocked);

  const box = h("input", { type: "checkbox", id: "show-online", checked: room.show_online ? "" : null });
  box.addEventListener("change", () => send("/api/people/settings", { show_online: box.checked }).catch((err) => { toast(err.message, "error"); box.checked = !box.checked; }));
  body.append(h("p", { class: "field-check" }, box, " ", h("label", { for: "show-online" }, t("Show me online to people who are not my friends"))));
}

// ----------------------------------------------------------------------------- challenges
/** The challenge form for the friend `name`, in a dialog; ctx: { games }. */
export async function challengeDialog(name, ctx) {
  const all = (await ctx.games()).filter((g) => g.seats[1] >= 2);
  const gameSel = h("select", { id: "challenge-game" }, ...all.map((g) => h("option", { value: g.id }, gameName(g.name))));
  const presetSel = h("select", { id: "challenge-preset" });
  const speedSel = h("select", { id: "challenge-speed" });
  const fill = () => {
    const g = all.find((x) => x.id === gameSel.value);
    clear(presetSel);
    for (const pr of g.presets || []) presetSel.append(h("option", { value: pr.id }, presetName(pr.id)));
    presetSel.disabled = presetSel.options.length < 2;
    clear(speedSel);
    for (const s of g.speeds || ["slow", "normal", "fast"]) speedSel.append(h("option", { value: s, selected: s === "normal" ? "" : null }, speedName(s)));
  };
  gameSel.addEventListener("change", fill);
  fill();
  const sendBtn = h("button", { type: "submit", class: "button primary" }, t("Send the challenge"));
  const cancel = h("button", { type: "button", class: "button" }, t("Cancel"));
  const form = h("form", { method: "dialog", class: "challenge-form" },
    h("h2", {}, t("Challenge {name}", { name })),
    h("p", { class: "muted" }, t("The other seats are bots. Your friend has five minutes to answer.")),
    h("label", { class: "field", for: "challenge-game" }, t("Game"), gameSel),
    h("label", { class: "field", for: "challenge-preset" }, t("Length"), presetSel),
    h("label", { class: "field", for: "challenge-speed" }, t("Table speed"), speedSel),
    h("div", { class: "dialog-buttons" }, sendBtn, cancel));
  const dialog = h("dialog", { class: "challenge-dialog", "aria-label": t("Challenge {name}", { name }) }, form);
  document.body.append(dialog);
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = all.find((x) => x.id === gameSel.value);
    const preset = (g.presets || []).find((pr) => pr.id === presetSel.value);
    sendBtn.disabled = true;
    try {
      await send("/api/people/challenges", { to: name, game: g.id, options: preset ? preset.options : {}, speed: speedSel.value });
      toast(t("Challenge sent to {name}.", { name }));
      dialog.close();
    } catch (err) { toast(err.message, "error"); sendBtn.disabled = false; }
  });
  dialog.showModal();
  gameSel.focus();
}

// ----------------------------------------------------------------------------- profile
/** The bar of a profile: online, and for a signed-in visitor Follow, Block, Challenge. */
export function profileBar(name, ctx) {
  const bar = h("div", { class: "profile-people" });
  const draw = (info) => {
    clear(bar);
    bar.append(onlineWord(info.online));
    const rel = info.relation;
    if (!rel) return;
    if (rel.friends) bar.append(" ", h("span", { class: "badge" }, t("Friend")));
    else if (rel.follows_you) bar.append(" ", h("span", { class: "muted" }, t("Follows you")));
    const act = (label, path, body, cls = "button small-button") => {
      const b = h("button", { type: "button", class: cls }, label);
      b.addEventListener("click", async () => {
        b.disabled = true;
        try { draw({ ...info, relation: (await send(path, body)).relation }); } catch (err) { toast(err.message, "error"); b.disabled = false; }
      });
      return b;
    };
    if (!rel.blocking) bar.append(" ", act(rel.following ? t("Unfollow") : t("Follow"), "/api/people/follow", { name, on: !rel.following }));
    if (rel.friends) {
      const ch = h("button", { type: "button", class: "button small-button" }, t("Challenge"));
      ch.addEventListener("click", () => challengeDialog(info.name, ctx));
      bar.append(" ", ch);
    }
    bar.append(" ", act(rel.blocking ? t("Unblock") : t("Block"), "/api/people/block", { name, on: !rel.blocking }, "button small-button"));
  };
  api("GET", `/api/people/relation/${encodeURIComponent(name)}`).then(draw).catch(() => bar.remove());
  return bar;
}
