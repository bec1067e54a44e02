import { MarketStubError } from '../core/market-stub-error.js';
import { jsonRuleBroken, MAX_JSON_DEPTH } from '../core/bounded-json.js';

/**
 * Checks a market or merge patch given at run time before anything uses it: nested at most
 * `maxDepth` levels (the value itself is level 1; `what` names it in `expected`) and free of
 * FORBIDDEN_MEMBERS (`__proto__`, `constructor`, `prototype`, Object.prototype's member names) at
 * any depth: the rules of core/bounded-json.ts, worded for the library and the admin API. Bounded
 * by the depth, so it never overflows the stack, whatever it is given.
 * @throws MarketStubError OPTION_INVALID (`option` the JSON pointer of the member, e.g. `patch/__proto__`)
 *   or LIMIT_EXCEEDED (nesting deeper than `maxDepth`, `option` the pointer where it was passed).
 */
export function checkJsonInput(value: unknown, where: string, option: string, maxDepth = MAX_JSON_DEPTH, what = 'JSON'): void {
  const broken = jsonRuleBroken(value, maxDepth, '', what);
  if (!broken) return;
  const at = `${option}${broken.pointer ?? ''}`;
  if (broken.rule === 'depth') {
    throw new MarketStubError({ code: 'LIMIT_EXCEEDED', where, option: at, expected: broken.expected, foundText: `more than ${maxDepth} levels` });
  }
  const key = (broken.pointer ?? '').split('/').pop() ?? '';
  throw new MarketStubError({ code: 'OPTION_INVALID', where, option: at, expected: broken.expected, found: key.replaceAll('~1', '/').replaceAll('~0', '~') });
}
