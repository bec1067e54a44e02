import { MarketStubError } from '../core/market-stub-error.js';
import { pointerToken } from '../schema/finding.js';

/** Deepest nesting accepted in markets and patches given at run time (a market is 2 levels deep; extra fields may nest). */
export const MAX_JSON_DEPTH = 32;

/**
 * Member names refused in markets and patches given at run time: `__proto__`, `constructor`,
 * `prototype` and every other name of an `Object.prototype` member (`hasOwnProperty`, `toString`…).
 * Merged into a plain object they would change its prototype or shadow the methods code calls on
 * it (prototype pollution; a `__proto__` member once made list and item disagree, issue 11).
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * Checks a market, list of markets or merge patch given at run time before anything uses it:
 * nested at most MAX_JSON_DEPTH levels and free of FORBIDDEN_KEYS at any depth. Bounded by the
 * depth, so it never overflows the stack, whatever it is given.
 * @throws MarketStubError OPTION_INVALID (`option` the JSON pointer of the member, e.g. `patch/__proto__`)
 *   or LIMIT_EXCEEDED (nesting deeper than MAX_JSON_DEPTH).
 */
export function checkJsonInput(value: unknown, where: string, option: string): void {
  // The path is kept as segments and joined only for an error: a valid list of thousands of
  // markets costs no pointer strings.
  const path: (string | number)[] = [];
  const at = (last?: string | number) => [...path, ...(last === undefined ? [] : [last])].map((s) => `/${pointerToken(s)}`).join('');
  visit(value, 0);
  function visit(node: unknown, depth: number): void {
    if (node === null || typeof node !== 'object') return;
    if (depth >= MAX_JSON_DEPTH) {
      throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: `${option}${at()}`, expected: `JSON nested at most ${MAX_JSON_DEPTH} levels`, foundText: `more than ${MAX_JSON_DEPTH} levels` });
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        visit(node[i], depth + 1);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) {
        throw new MarketStubError({ code: 'OPTION_INVALID', where, option: `${option}${at(key)}`, expected: `no member named ${JSON.stringify(key)} (__proto__, constructor, prototype and Object.prototype's member names are refused)`, found: key });
      }
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        path.push(key);
        visit(child, depth + 1);
        path.pop();
      }
    }
  }
}
