import { serializeDictionary, Token, type Dictionary, type InnerList, type Item } from 'structured-headers';
import type { RuleUse } from '../behaviour/behaviour.js';
import { formatInstant } from '../floor/instant.js';
import type { Explanation } from '../journal/explanation.js';
import type { ResponseProfile } from './response-profile.js';

export type { Explanation } from '../journal/explanation.js';

/** The response header carrying an answer's explanation (an RFC 8941 §3.2 Dictionary). */
export const EXPLAIN_HEADER = 'market-stub-explain';

/** What a request decided that the explanation reads, beside the runtime's profile and the instant. */
export interface Decided {
  labels: readonly string[];
  rules?: readonly RuleUse[] | undefined;
}

const DEVIATION_LABEL = 'deviation=';
const SWITCH_ON: ReadonlySet<string> = new Set(['', '?1', '1', 'true', 'on']);
const SWITCH_OFF: ReadonlySet<string> = new Set(['?0', '0', 'false', 'off']);

/**
 * What a request's `Prefer` header (RFC 7240 §2: `name[=value][;param]`, comma-separated) says
 * about explaining: `true` for `explain` (or `explain=?1`, `1`, `true`, `on`), `false` for
 * `explain=?0` (`0`, `false`, `off`: this answer unexplained under the `explain` option),
 * `undefined` when it does not name `explain`, or the message of a 400 for any other value
 * (quoted, printable and at most 40 characters of it).
 */
export function preferredExplain(header: string | readonly string[] | undefined): boolean | undefined | string {
  if (header === undefined) return undefined;
  const text = typeof header === 'string' ? header : header.join(', ');
  if (!text.includes('explain')) return undefined;
  let said: boolean | undefined;
  for (const part of text.split(',')) {
    const [name = '', ...rest] = (part.split(';')[0] ?? '').split('=');
    if (name.trim().toLowerCase() !== 'explain') continue;
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (SWITCH_ON.has(value)) said = true;
    else if (SWITCH_OFF.has(value)) said = false;
    else return `Prefer: explain=${JSON.stringify(shown(value))} is not a switch: send "Prefer: explain" to have this answer explained (Market-Stub-Explain), or "Prefer: explain=?0" for an answer without it`;
  }
  return said;
}

/** At most 40 printable characters of a value, for a message. */
function shown(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

/**
 * The explanation of one answer from what the core decided: its journal labels (deviations are
 * the `deviation=NAME` ones, as answer-request.ts and render-deviated-market.ts write them), the
 * rules it matched, the profile in force and the stub instant it was computed at (`t`, epoch ms; the Date header is that instant in whole seconds).
 */
export function explanationOf(decided: Decided, profile: ResponseProfile, t: number): Explanation {
  const deviations: string[] = [];
  const behaviour: string[] = [];
  for (const label of decided.labels) {
    if (label.startsWith(DEVIATION_LABEL)) deviations.push(label.slice(DEVIATION_LABEL.length));
    else behaviour.push(label);
  }
  return {
    deviations,
    behaviour,
    rules: decided.rules === undefined ? [] : decided.rules.map((r) => ({ ...r })),
    profile: { envelope: profile.envelope, paging: profile.paging, errors: profile.errors },
    instant: instantText(t),
  };
}

/** The last instant formatted, by whole second: the answers of one second share their text. */
let lastInstant = { second: Number.NaN, text: '' };

/** formatInstant(t), once per second of stub time. */
function instantText(t: number): string {
  const second = Math.floor(t / 1000);
  if (lastInstant.second !== second) lastInstant = { second, text: formatInstant(t) };
  return lastInstant.text;
}

/** The field value of the last plain explanation (no deviation, behaviour or rule), by its profile and instant. */
let lastPlain = { key: '', header: '' };

/**
 * The `Market-Stub-Explain` field value: an RFC 8941 §3.2 Dictionary, members always in this order:
 * `deviation` and `behaviour` (Inner Lists of Strings, §3.1.1), `rule` (an Inner List of Strings,
 * the rule ids, each with a `left` Integer parameter when it has `times`), `envelope` (a String:
 * an envelope key may start with `_`, which a Token may not), `paging` and `errors` (Tokens,
 * §3.3.4) and `instant` (a String, ISO 8601). For example
 * `deviation=("string-price"), behaviour=(), rule=("r1";left=2), envelope="bare", paging=none, errors=default, instant="2026-01-01T10:00:00Z"`.
 * Strings are printable ASCII (§3.3.3): a label with another character has it as `\uXXXX`.
 */
export function explainHeader(explanation: Explanation): string {
  const { deviations, behaviour, rules, profile, instant } = explanation;
  // Most explained answers are plain ones at the same second: serialised once, not per answer.
  if (deviations.length !== 0 || behaviour.length !== 0 || rules.length !== 0) return serializeExplanation(explanation);
  const key = `${profile.envelope}\n${profile.paging}\n${profile.errors}\n${instant}`;
  if (lastPlain.key !== key) lastPlain = { key, header: serializeExplanation(explanation) };
  return lastPlain.header;
}

/** Stage: the Dictionary of explainHeader serialised (structured-headers). */
function serializeExplanation(explanation: Explanation): string {
  const dictionary: Dictionary = new Map<string, Item | InnerList>([
    ['deviation', strings(explanation.deviations)],
    ['behaviour', strings(explanation.behaviour)],
    ['rule', [explanation.rules.map((r): Item => [asciiOnly(r.id), r.left === undefined ? new Map() : new Map([['left', r.left]])]), new Map()]],
    ['envelope', [explanation.profile.envelope, new Map()]],
    ['paging', [new Token(explanation.profile.paging), new Map()]],
    ['errors', [new Token(explanation.profile.errors), new Map()]],
    ['instant', [explanation.instant, new Map()]],
  ]);
  return serializeDictionary(dictionary);
}

/** An Inner List of Strings (RFC 8941 §3.1.1). */
function strings(values: readonly string[]): InnerList {
  return [values.map((value): Item => [asciiOnly(value), new Map()]), new Map()];
}

/** A String item's text: printable ASCII (RFC 8941 §3.3.3); any other character as `\uXXXX`, so serialising never fails. */
function asciiOnly(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
