import { optionError } from './market-stub-error.js';
import { readTyped, type OptionKind } from './option-kind.js';
import { nearestName } from './nearest-name.js';


/** A field of a library options object: a scalar kind, or a check of its own for structured values. */
export type FieldRule = OptionKind | ((value: unknown, where: string, option: string) => void);

/** Fields whose values are secrets: messages name them but never show what was given. */
const SECRET_FIELDS = new Set(['adminToken']);

/**
 * Checks an options object of the library against its fields: an object, every key known (a typo
 * such as `cuont` is named with the known keys), every value of its kind.
 * @throws MarketStubError OPTION_INVALID naming `where` and the field (`startMarketStub: seed: expected …`).
 */
export function checkFields(options: unknown, fields: Record<string, FieldRule>, where: string): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw optionError(where, 'options', 'an object of options', options);
  for (const [key, value] of Object.entries(options)) {
    const rule = fields[key];
    if (!rule) throw optionError(where, key, knownName(key, Object.keys(fields).sort()), key);
    if (value === undefined) continue;
    if (typeof rule === 'function') {
      rule(value, where, key);
      continue;
    }
    const read = readTyped(rule, value);
    if (!read.ok) throw optionError(where, key, read.expected, SECRET_FIELDS.has(key) ? '(not shown)' : value);
  }
}

/**
 * What an unknown name should have been, for a message's `expected`: `a known option (did you mean
 * count? all: clock, count, …)`, or the list alone when no name is near (nearest-name.ts). `known`
 * is listed in the order given; `what` names the kind of name (`a serve option`).
 */
export function knownName(given: string, known: readonly string[], what = 'a known option'): string {
  const near = nearestName(given, known);
  return near === undefined ? `${what} (${known.join(', ')})` : `${what} (did you mean ${near}? all: ${known.join(', ')})`;
}
