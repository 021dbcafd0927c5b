// Every text of the UI, in English, Spanish and Portuguese (European and Brazilian), read at
// run time from the JSON catalogs under web/locales/<language>/<area>.json: one per part of the
// site (common: the frame and the server's refusals; hive; players: accounts, lobby, clocks,
// ratings, profiles; enjambre; tournaments; community: the leaderboard, the player search, the
// archive's filters; everyday: first moves, import errors and limits, the 404 page, reviewing;
// chat: a game's or a table's chat).
// Brazilian Portuguese layers on the European: its catalogs hold only what
// Brazilians say differently (você, tela, rodada, the gerund…). A key missing in the reader's
// language shows the English text, and one missing in English shows the key itself,
// so a gap is seen, never silent.
//
// Bug and colour names come from the server (/api/config, from panal.hive.names), so the
// football look's Escudo, Muro, Rayo… are written in one place only. Rule messages name bugs
// through {Q} {S} {B} {G} {A} {M} {L} {P} {D}, filled in with the current look's names.

export const LANGUAGES = ["en", "es", "pt-PT", "pt-BR"];
export const AREAS = ["common", "hive", "players", "enjambre", "mygames", "analysis", "training", "tournaments", "ladder", "community", "everyday", "chat", "notifications", "account", "challenges"];
// The language whose texts a language's catalogs change.
const LAYERED_ON = { "pt-BR": "pt-PT" };
const FALLBACK = "en";

const texts = {}; // language → {key: text}, every area, layers resolved
const loading = {}; // language → the promise of its texts

async function fetchCatalog(lang, area) {
  const response = await fetch(new URL(`../locales/${lang}/${area}.json`, import.meta.url));
  if (!response.ok) throw new Error(`${lang}/${area}.json: HTTP ${response.status}`);
  return response.json();
}

/** A language's texts, fetched once (each language's catalogs when it is first spoken). A
 *  catalog that cannot be fetched leaves its keys to the fallback, and is asked for again the
 *  next time. */
export function load(lang) {
  if (!LANGUAGES.includes(lang)) return Promise.reject(new Error(`no language ${lang}`));
  loading[lang] ??= (async () => {
    const below = LAYERED_ON[lang] ? load(LAYERED_ON[lang]) : Promise.resolve({});
    const own = await Promise.allSettled(AREAS.map((area) => fetchCatalog(lang, area)));
    const table = Object.assign({}, await below, ...own.map((result) => (result.status === "fulfilled" ? result.value : {})));
    texts[lang] = table;
    if (own.some((result) => result.status === "rejected")) delete loading[lang];
    return table;
  })();
  return loading[lang];
}

const BUG_LETTERS = "QSBGAMLPD";
const COLOR_OF_DETAIL = { White: 0, Black: 1 };

let language = "en";
let look = "classic";
let names = null; // /api/config "names": {look: {language: {bugs, colors}}}
const listeners = new Set();

/**
 * The language to speak: the reader's own choice when there is one, else the first of the
 * browser's languages (navigator.languages, in the reader's order) that panal speaks. Portuguese
 * is told apart by region: pt-BR is Brazilian; pt-PT, the other regions and a bare "pt" (also the
 * code older versions saved) are European, the Portuguese of rulebook 001.
 */
export function pickLanguage(preferred, accepted = navigator.languages || [navigator.language || "en"]) {
  const choice = preferred === "pt" ? "pt-PT" : preferred;
  if (LANGUAGES.includes(choice)) return choice;
  for (const tag of accepted) {
    const [base, region = ""] = String(tag || "").toLowerCase().split(/[-_]/);
    if (base === "pt") return region === "br" ? "pt-BR" : "pt-PT";
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function configure(config) {
  names = config.names;
}

export function getLanguage() {
  return language;
}

export function getLook() {
  return look;
}

let asked = 0; // the latest setLanguage: an earlier one whose texts arrive later gives way

/** Speak `value` once its texts (and the fallback's) are here: the page never shows a key
 *  because a catalog was still on its way. */
export async function setLanguage(value) {
  if (!LANGUAGES.includes(value)) return;
  const ask = ++asked;
  await Promise.all([load(value), load(FALLBACK)]);
  if (ask !== asked || value === language) return;
  language = value;
  document.documentElement.lang = value;
  listeners.forEach((listener) => listener());
}

export function setLook(value) {
  if (!["classic", "football"].includes(value) || value === look) return;
  look = value;
  listeners.forEach((listener) => listener());
}

export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function table() {
  return names ? names[look][language] : null;
}

export function bugName(letter) {
  return table()?.bugs[letter] ?? letter;
}

/** A bug's name in the rulebooks' (classic) look, whatever the look shown. */
export function hiveBugName(letter) {
  return names?.classic?.[language]?.bugs[letter] ?? letter;
}

export function colorName(color) {
  return table()?.colors[color] ?? (color === 0 ? "White" : "Black");
}

// "wA2" → "Soldier Ant 2" (the colour is told apart by the context), with the colour when asked.
export function pieceName(piece, withColor = false) {
  if (!piece) return "";
  const color = piece[0] === "w" ? 0 : 1;
  const letter = piece[1].toUpperCase();
  const number = piece.length > 2 && "SBGA".includes(letter) ? ` ${piece.slice(2)}` : "";
  const name = `${bugName(letter)}${number}`;
  return withColor ? `${name} (${colorName(color)})` : name;
}

export function t(key, params = {}) {
  const text = texts[language]?.[key] ?? texts[FALLBACK]?.[key] ?? key;
  return fill(text, params);
}

// "{name}" is a parameter; "{name|one|other}" is the word that agrees with the number `name`:
// "{n} {n|ficha|fichas}" reads "1 ficha", "3 fichas". Singular only for exactly 1, in every
// language here: CLDR's Brazilian rule would also say "0 vitória", where players write
// "0 vitórias".
function fill(text, params) {
  return text.replace(/\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g, (match, name, one, other) => {
    if (one !== undefined) return name in params ? (Number(params[name]) === 1 ? one : other) : match;
    if (name in params) return String(params[name]);
    if (name.length === 1 && BUG_LETTERS.includes(name)) return bugName(name);
    if (name === "white") return colorName(0);
    if (name === "black") return colorName(1);
    return match;
  });
}

// A refused request from the server, in the reader's language. Rule errors carry the rule's key
// and its details (piece names in UHP notation), which are put into words here.
/** A player's name as shown: a deleted account's label (the server's "deleted player") in the
 * page's language. */
export function playerName(name) {
  return name === "deleted player" ? t("account.deletedPlayer") : name;
}

export function describeError(error) {
  if (error.code === "illegal_move" && error.rule) return t("rule.prefix", { reason: ruleReason(error) });
  if (error.code === "invalid_move") return t("error.invalid_move", { reason: parseReason(error) });
  if (error.code === "bad_record" && (error.rule || error.reason)) {
    // A record whose move breaks a rule or does not parse: where, and why, in the page's words.
    const details = error.details || {};
    const reason = error.rule ? ruleReason(error) : parseReason(error);
    const where = details.game ? t("import.atGameMove", details) : t("import.atMove", details);
    return t("import.badMove", { where, reason });
  }
  if (error.code === "too_large" && error.details?.limit) {
    return t("error.tooLargeLimit", { limit: (error.details.limit / 1e6).toLocaleString(language) });
  }
  const key = `error.${error.code}`;
  const message = error.message || error.detail || "";
  if (hasKey(FALLBACK, key)) return t(key, { ...(error.details || {}), message });
  return t("error.generic", { message });
}

/** An illegal move's rule in words; its details (UHP piece names) put into words too. */
function ruleReason(error) {
  const details = error.details || {};
  const params = {};
  if (details.piece) {
    params.piece = pieceName(details.piece);
    params.bug = bugName(details.piece[1].toUpperCase());
  }
  if (details.expected) params.expected = pieceName(details.expected);
  if (details.turn in COLOR_OF_DETAIL) params.turn = colorName(COLOR_OF_DETAIL[details.turn]);
  return t(`rule.${error.rule}`, params);
}

/** A MoveString that does not parse: the parser's reason code, never its English sentence. */
function parseReason(error) {
  const known = error.reason && hasKey(FALLBACK, `parse.${error.reason}`);
  return known ? t(`parse.${error.reason}`, error.details || {}) : t("parse.syntax");
}

export function ruleKeys() {
  return allKeys()
    .filter((key) => key.startsWith("rule.") && key !== "rule.prefix")
    .map((key) => key.slice(5));
}

/** Whether `lang` has a text for `key` (a language not loaded yet has none). */
export function hasKey(lang, key) {
  return Object.hasOwn(texts[lang] || {}, key);
}

/** Every key of the fallback language: every key there is. */
export function allKeys() {
  return Object.keys(texts[FALLBACK] || {});
}
