import { jsonRuleBroken, utf8Error, type JsonInputError } from '../../floor/bounded-json.js';
import { MAX_MARKET_DEPTH } from '../../floor/limits.js';
import type { FindingAggregator } from './finding-aggregator.js';
import { SINGLE_ENDPOINT, type ContractEndpoint, type Observation } from './contract-finding.js';

/**
 * The `json-rule` error for an answer, list item or market that breaks a JSON rule of
 * floor/bounded-json.ts (docs/limits.md, "Reading JSON"): nested too deep, a forbidden member name,
 * bytes that are not UTF-8. The pointer is the one where the rule was broken (`error.pointer` below
 * `basePointer`); findings aggregate by the item's pointer (`/*` for any list item).
 */
export function jsonRuleObservation(error: JsonInputError, endpoint: ContractEndpoint, request: string, marketId?: string, basePointer = '', itemPointer = basePointer): Observation {
  const pointer = `${basePointer}${error.pointer ?? ''}`;
  return {
    severity: 'error', code: 'json-rule', endpoint, pointerTemplate: itemPointer.replace(/\/\d+(?=\/|$)/g, '/*'),
    expected: `${error.expected}, as every JSON input of market-stub (docs/limits.md)`,
    example: { ...(marketId === undefined ? {} : { marketId }), pointer, found: error.what, request },
  };
}

/**
 * The JSON rule a deployment's market (or list item) breaks: nested deeper than MAX_MARKET_DEPTH
 * (so it fits every document that carries a market). Member names are data: no name changes a
 * verdict (`__proto__`, `constructor`, `toString` are extra members like any other; the contract
 * allows extra members). Undefined when it keeps the rule.
 */
export function marketRuleBroken(value: unknown): JsonInputError | undefined {
  return jsonRuleBroken(value, MAX_MARKET_DEPTH, '', 'a market', false);
}

/**
 * Why a market that meets the contract is kept out of a fixture set (`record`, `proxy --record`):
 * a member name the fixture reader refuses on every input (FORBIDDEN_MEMBERS, floor/bounded-json.ts,
 * docs/limits.md), so a recorded file holding it would not load. The information finding
 * `not-recorded` naming the member; undefined when the market can be recorded.
 */
export function notRecordedObservation(market: unknown, request: string, marketId: string): Observation | undefined {
  const broken = jsonRuleBroken(market, MAX_MARKET_DEPTH, '', 'a market');
  if (broken?.rule !== 'member') return undefined;
  const pointer = broken.pointer ?? '';
  return {
    severity: 'info', code: 'not-recorded', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', expected: 'nothing in particular (information)',
    example: { marketId, pointer, found: `member ${broken.what} (the fixture reader refuses it: docs/limits.md)`, request },
    message: `${request}: not recorded: member ${broken.what} at ${pointer} is refused by the fixture reader (docs/limits.md, "Reading JSON")`,
  };
}

/**
 * Adds the `json-rule` error for a body with bytes that are not UTF-8 (RFC 8259 §8.1), when
 * `notUtf8At` says so. Such a single market is never recorded (its text holds U+FFFD where the
 * deployment sent other bytes).
 * @returns true when the body is UTF-8.
 */
export function checkUtf8(notUtf8At: number | undefined, sink: FindingAggregator, endpoint: ContractEndpoint, request: string, marketId?: string): boolean {
  if (notUtf8At === undefined) return true;
  sink.add(jsonRuleObservation(utf8Error(notUtf8At), endpoint, request, marketId));
  return false;
}
