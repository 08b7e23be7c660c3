// The page in the reader's language. The catalog comes from the server as plain JSON
// (GET /api/i18n/<lang>: {locale, messages}); nothing from it is evaluated. Plural forms come
// from the platform's Intl.PluralRules, keyed by CLDR category.
//
//   t("Deal again")                          -> the text in the reader's language
//   t("{name} bids {n}", { name, n })        -> fields filled in (numbers as the language writes them)
//   n("{n} card", "{n} cards", count)        -> the plural form for count ({n} is the count)
//   p("suit", "hearts")                      -> a word with a context (same word, other meanings)
//
// These three names are the extraction keywords of `make messages` (babel.cfg reads
// parlour/web/**.js): write the English text literally in the call, never a variable.

const LANG_KEY = "parlour.lang";
let catalog = { locale: "en", messages: {}, languages: [{ tag: "en", name: "English" }] };
let plural = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in params)) return whole;
    const v = params[key];
    return typeof v === "number" ? numbers.format(v) : String(v);
  });
}

/** The text of msgid in the reader's language, with {fields} filled from params. */
export function t(msgid, params) {
  const text = catalog.messages[msgid];
  return fill(typeof text === "string" && text ? text : msgid, params);
}

/** The form for count of a message with a plural; {n} is the count. */
export function n(singular, pluralText, count, params) {
  const entry = catalog.messages[singular];
  let text;
  if (entry && typeof entry === "object") text = entry[plural.select(count)] || entry.other;
  if (!text) text = count === 1 ? singular : pluralText;
  return fill(text, { ...params, n: count });
}

/** A word with a context (a suit, a rank, a button that says one word). */
export function p(context, word) {
  const text = catalog.messages[`${context}\u0004${word}`];
  return typeof text === "string" && text ? text : word;
}

/** A number as the reader's language writes it (with exactly `digits` decimals if given). */
export function num(x, digits) {
  if (digits === undefined) return numbers.format(x);
  return new Intl.NumberFormat(catalog.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A share (0.25) as a percentage the reader's language writes ("25%"), with at most
 *  `digits` decimals. */
export function percent(share, digits = 0) {
  return new Intl.NumberFormat(catalog.locale, { style: "percent", maximumFractionDigits: digits }).format(share);
}

/** A day (YYYY-MM-DD, a UTC date) as the reader's language writes it ("4 Desember 2026",
 *  "4 de dezembro de 2026", "December 4, 2026"). */
export function day(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return new Intl.DateTimeFormat(catalog.locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** The reader's language as a BCP 47 tag (en, id, pt-BR). */
export function lang() { return catalog.locale; }

/** Every language Parlour speaks: [{tag, name}], each named in its own language. */
export function languages() { return catalog.languages || []; }

/** The language the reader chose on this device, if any. */
export function chosenLanguage() {
  try { return localStorage.getItem(LANG_KEY); } catch { return null; }
}

/** Remember the reader's choice (the page reloads to speak it). */
export function chooseLanguage(tag) {
  localStorage.setItem(LANG_KEY, tag);
  document.cookie = `parlour_lang=${encodeURIComponent(tag)}; path=/; max-age=31536000; samesite=lax`;
}

/** Load the catalog of tag (default: the page's <html lang>, which the server chose). */
export async function loadLanguage(tag) {
  const want = tag || chosenLanguage() || document.documentElement.lang || "en";
  try {
    const res = await fetch(`/api/i18n/${encodeURIComponent(want)}`, { headers: { Accept: "application/json" } });
    if (res.ok) catalog = await res.json();
  } catch { /* the page still works, in English */ }
  plural = new Intl.PluralRules(catalog.locale);
  numbers = new Intl.NumberFormat(catalog.locale);
  document.documentElement.lang = catalog.locale;
  return catalog.locale;
}
