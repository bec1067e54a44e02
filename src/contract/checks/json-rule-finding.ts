import { jsonRuleBroken, utf8Error, type JsonInputError } from '../../floor/bounded-json.js';
import { MAX_MARKET_DEPTH } from '../../floor/limits.js';
import type { FindingAggregator } from './finding-aggregator.js';
import type { ContractEndpoint, Observation } from './contract-finding.js';

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
 * The JSON rule a market (or list item) breaks, as a market from any other source would be
 * refused: nested deeper than MAX_MARKET_DEPTH (so it fits every document that carries a market)
 * or a forbidden member name. Undefined when it keeps them.
 */
export function marketRuleBroken(value: unknown): JsonInputError | undefined {
  return jsonRuleBroken(value, MAX_MARKET_DEPTH, '', 'a market');
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
