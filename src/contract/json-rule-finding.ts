import { jsonRuleBroken, MAX_MARKET_DEPTH, type JsonInputError } from '../core/bounded-json.js';
import type { ContractEndpoint, Observation } from './contract-finding.js';

/**
 * The `json-rule` error for an answer, list item or market that breaks a JSON rule of
 * core/bounded-json.ts (docs/limits.md, "Reading JSON"): nested too deep, a forbidden member name,
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
