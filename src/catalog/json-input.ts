import { MarketStubError } from '../floor/market-stub-error.js';
import { MAX_JSON_DEPTH } from '../floor/limits.js';
import { jsonRuleBroken } from '../floor/bounded-json.js';

/**
 * Checks a market or merge patch given at run time before anything uses it: nested at most
 * `maxDepth` levels (the value itself is level 1; `what` names it in `expected`) and free of
 * FORBIDDEN_MEMBERS (`__proto__`, `constructor`, `prototype`, Object.prototype's member names) at
 * any depth: the rules of floor/bounded-json.ts, worded for the library and the admin API. Bounded
 * by the depth, so it never overflows the stack, whatever it is given.
 * @throws MarketStubError OPTION_INVALID, `option` the JSON pointer of the member (`patch/__proto__`)
 *   or of the value nested deeper than `maxDepth` (`market/extra/x/x…`).
 */
export function checkJsonInput(value: unknown, where: string, option: string, maxDepth = MAX_JSON_DEPTH, what = 'JSON'): void {
  const broken = jsonRuleBroken(value, maxDepth, '', what);
  if (!broken) return;
  const at = `${option}${broken.pointer ?? ''}`;
  if (broken.rule === 'depth') {
    // A market too deep is an invalid market (400 on the admin API), like one with a forbidden member.
    throw new MarketStubError({ code: 'OPTION_INVALID', where, option: at, expected: broken.expected, foundText: broken.what });
  }
  const key = (broken.pointer ?? '').split('/').pop() ?? '';
  throw new MarketStubError({ code: 'OPTION_INVALID', where, option: at, expected: broken.expected, found: key.replaceAll('~1', '/').replaceAll('~0', '~') });
}
