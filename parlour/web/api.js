// The parlour's HTTP API as the pages call it: JSON both ways, the session cookie (the
// same origin's), and a seat token when one is given. A refusal throws an Error whose
// message is the server's (already in the reader's language).

import { t } from "./i18n.js";

/** method path [body] [token] -> the answer's JSON. */
export async function api(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error((data.error && data.error.message) || t("the server said {status}", { status: String(res.status) }));
  return data;
}
