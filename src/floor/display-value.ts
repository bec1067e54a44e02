/**
 * How a value that came from outside (a deployment checked by `check`, `record` or `proxy`; a
 * market shown by the console) is shown to people: one rule for every human output, so what a
 * deployment says can never become a line, a colour or a control of the output it is shown in.
 *
 * - **Shortened** (shortenValue): a value longer than DISPLAY_VALUE_MAX code points keeps its
 *   first DISPLAY_HEAD and last DISPLAY_TAIL, around `…[N characters cut]…`.
 * - **Controls made visible** (visibleControls): every C0 and C1 control and DEL (Unicode
 *   General_Category Cc), every format character (Cf: the bidi controls U+061C, U+200E–U+200F,
 *   U+202A–U+202E, U+2066–U+2069, the zero-width U+200B–U+200D, U+2060, U+FEFF, the tag
 *   characters), the line and paragraph separators U+2028/U+2029 (Zl, Zp), lone surrogates (Cs)
 *   and the noncharacters (U+FFFE, U+FFFF, …) are written the way a JSON string writes an escaped
 *   character (RFC 8259 §7): `\n`, `\r`, `\t`, `\b`, `\f`, else `\u` and four lower-case hex
 *   digits per UTF-16 code unit (`\u001b`, `\u202e`). A backslash already in the value is left as
 *   it is, so a JSON text (a finding's `found`) reads as JSON; the json report has every value
 *   exactly.
 *
 * Platform-neutral (no Node built-in): the web console renders with it too.
 */

/** Longest value shown whole, in code points; a longer one is shortened (shortenValue). */
export const DISPLAY_VALUE_MAX = 300;
/** Code points kept from the start of a shortened value. */
export const DISPLAY_HEAD = 200;
/** Code points kept from the end of a shortened value. */
export const DISPLAY_TAIL = 80;
/**
 * Longest sentence market-stub writes itself around values it has already shortened (a refused
 * run's cause and what to do: contract/crawl/credential-refusal.ts), shown whole up to this many
 * code points so that the remedy at its end is never cut.
 */
export const DISPLAY_SENTENCE_MAX = 1000;

/** The characters visibleControls rewrites (see the module comment). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Noncharacter_Code_Point}]/gu;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** `\uXXXX` for each UTF-16 code unit of `char` (two for a character above U+FFFF). */
function unicodeEscape(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `value` with every control, format character, line separator, lone surrogate and
 * noncharacter written as its JSON escape (`\n`, `\u001b`, `\u202e`; see the module comment).
 * The result holds no character that can end a line, move the cursor, change colours, run a
 * terminal command or reorder text.
 */
export function visibleControls(value: string): string {
  return value.replace(INVISIBLE, (char) => SHORT_ESCAPES[char] ?? unicodeEscape(char));
}

/**
 * The same characters escaped inside a JSON text (the json and sarif reports): JSON.stringify
 * escapes C0 controls and lone surrogates but writes DEL, C1 controls, bidi and zero-width
 * characters as they are. Outside strings a JSON text holds only its own whitespace (space, tab,
 * LF, CR), which stays; inside one, `\u202e` is the same string, so the document's value is
 * unchanged (RFC 8259 §7).
 */
export function escapeInvisiblesInJson(json: string): string {
  return json.replace(INVISIBLE, (char) => (char === '\n' || char === '\r' || char === '\t' ? char : unicodeEscape(char)));
}

/**
 * `value` whole when it has at most `max` code points (DISPLAY_VALUE_MAX); else its first
 * `max − DISPLAY_VALUE_MAX + DISPLAY_HEAD` (DISPLAY_HEAD) and last DISPLAY_TAIL code points around
 * `…[N characters cut]…` (N code points left out). A surrogate pair is never split.
 */
export function shortenValue(value: string, max = DISPLAY_VALUE_MAX): string {
  if (value.length <= max) return value;
  const points = Array.from(value);
  if (points.length <= max) return value;
  const head = max - DISPLAY_VALUE_MAX + DISPLAY_HEAD;
  const cut = points.length - head - DISPLAY_TAIL;
  return `${points.slice(0, head).join('')}…[${cut} characters cut]…${points.slice(-DISPLAY_TAIL).join('')}`;
}

/** A value as every human output shows it: shortened, then its controls made visible. */
export function displayValue(value: string): string {
  return visibleControls(shortenValue(value));
}

/** A sentence market-stub wrote around shortened values, as every human output shows it: whole up to DISPLAY_SENTENCE_MAX, its controls made visible. */
export function displaySentence(value: string): string {
  return visibleControls(shortenValue(value, DISPLAY_SENTENCE_MAX));
}

/**
 * A deep copy of a JSON-like value with `map` applied to every string and every key (objects
 * rebuilt with defineProperty, so a key `__proto__` stays data). Arrays and plain objects only;
 * other values are kept.
 */
export function mapStrings<T>(value: T, map: (text: string) => string): T {
  return walk(value, map) as T;
}

function walk(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => walk(item, map));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, map(key), { value: walk(item, map), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}
