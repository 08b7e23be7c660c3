// The seats this browser holds: localStorage "parlour.seats", {table id: {seat, token}}.
// A seat token is what the table's socket and requests are signed with (table_page.js); signing
// up or in sends them so that the account keeps those seats (account.js).

const KEY = "parlour.seats";

function held() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

function save(all) { localStorage.setItem(KEY, JSON.stringify(all)); }

/** {seat, token} of the seat this browser holds at tableId, or null. */
export function seatFor(tableId) { return held()[tableId] || null; }

export function keepSeat(tableId, seat, token) {
  const all = held();
  all[tableId] = { seat, token };
  save(all);
}

export function forgetSeats(tableIds) {
  const all = held();
  for (const id of tableIds) delete all[id];
  save(all);
}

/** Up to 50 {table, token}: what signing up, in or recovering sends. */
export function heldSeats() {
  return Object.entries(held()).filter(([, one]) => one && typeof one.token === "string")
    .slice(0, 50).map(([table, one]) => ({ table, token: one.token }));
}
