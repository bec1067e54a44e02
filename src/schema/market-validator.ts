import type { ErrorObject } from 'ajv/dist/2020.js';
import { allErrorsValidators, firstErrorValidators } from './generated/compiled-validators.js';
import type { Market, MarketSummary } from './generated/market-types.js';
import { describeFound, pointerToken, valueAtPointer, type Finding } from './finding.js';

/** Compiled validators for the three layers of `schemas/market.schema.json`. */
export interface MarketValidator {
  /** True when `doc` meets `$defs/Market` (the single-market contract). Fast; no findings built. */
  isMarket(doc: unknown): doc is Market;
  /** True when `doc` meets `$defs/MarketSummary` (a list item). */
  isSummary(doc: unknown): doc is MarketSummary;
  /** `$defs/Market` findings (severity `error`), pointers prefixed with `basePointer`; [] when valid. */
  market(doc: unknown, basePointer?: string): Finding[];
  /** `$defs/MarketSummary` findings (severity `error`); [] when valid. */
  summary(doc: unknown, basePointer?: string): Finding[];
  /** `$defs/MarketAssumptions` findings (severity `warning`: status, price bounds); [] when met. */
  assumptions(doc: unknown, basePointer?: string): Finding[];
}

export interface MarketValidatorOptions {
  /**
   * Report every violation of a document instead of the first (ajv `allErrors`). Meant for
   * fixture loading and the checker, not for a request path (Ajv docs, security.md).
   * @default true
   */
  allErrors?: boolean;
}

const validators = new Map<boolean, MarketValidator>();

/** One of ajv's compiled validate functions: true when valid; otherwise `errors` says why. */
type ValidateFunction = ((doc: unknown) => boolean) & { errors?: ErrorObject[] | null };
type CompiledLayers = Record<'Market' | 'MarketSummary' | 'MarketAssumptions', ValidateFunction>;

/**
 * Returns the validators of the schema's three layers, built once per process and option set.
 * They are ajv's standalone code, compiled from the schema when the package is built
 * (scripts/gen-validators.mjs writes src/schema/generated/compiled-validators.ts; a test fails when it is
 * stale), so no process compiles the schema at start-up (Ajv docs, standalone.md).
 *
 * `multipleOfPrecision` is 9 because with default options ajv rejects 0.57 against
 * `multipleOf: 0.01` (ajv issues #928, #2329); the GeneratedMarket tick depends on it.
 */
export function getMarketValidator(options: MarketValidatorOptions = {}): MarketValidator {
  const allErrors = options.allErrors ?? true;
  const existing = validators.get(allErrors);
  if (existing) return existing;
  const layers = (allErrors ? allErrorsValidators() : firstErrorValidators()) as CompiledLayers;
  const market = layers.Market;
  const summary = layers.MarketSummary;
  const assumptions = layers.MarketAssumptions;
  const run = (fn: ValidateFunction, severity: Finding['severity']) => (doc: unknown, base = ''): Finding[] =>
    fn(doc) ? [] : (fn.errors ?? []).map((e) => toFinding(e, doc, base, severity));
  const validator: MarketValidator = {
    isMarket: (doc): doc is Market => market(doc),
    isSummary: (doc): doc is MarketSummary => summary(doc),
    market: run(market, 'error'),
    summary: run(summary, 'error'),
    assumptions: run(assumptions, 'warning'),
  };
  validators.set(allErrors, validator);
  return validator;
}

/**
 * What a market_id must be besides a non-empty string (schemas/market.schema.json `$defs/MarketId`):
 * not `.` nor `..`, the path segments every URL parser removes (RFC 3986 §5.2.4), `%2E` and
 * `%2E%2E` included, so `GET /markets/{market_id}` could never reach such a market.
 */
export const DOT_SEGMENT_EXPECTED = 'a market_id other than "." and ".." (URL parsers remove those path segments, RFC 3986 §5.2.4, so GET /markets/{market_id} could never reach it; rename the market)';

/** Maps one ajv error to a finding with an absolute pointer, the expectation and what was found. */
function toFinding(error: ErrorObject, doc: unknown, base: string, severity: Finding['severity']): Finding {
  const params = error.params as Record<string, unknown>;
  let pointer = error.instancePath;
  let expected: string;
  let found = describeFound(valueAtPointer(doc, pointer));
  switch (error.keyword) {
    case 'required':
      pointer = `${pointer}/${pointerToken(String(params['missingProperty']))}`;
      expected = 'a value (required field)';
      found = 'nothing (missing)';
      break;
    case 'type':
      expected = String(params['type']);
      break;
    case 'format':
      expected = params['format'] === 'date' ? 'a calendar date YYYY-MM-DD' : `format ${String(params['format'])}`;
      break;
    case 'false schema':
      expected = 'no such field here (list items carry no resolution_date)';
      break;
    case 'minLength':
      expected = params['limit'] === 1 ? 'a non-empty string' : `a string of at least ${String(params['limit'])} characters`;
      break;
    case 'const':
      expected = JSON.stringify(params['allowedValue']);
      break;
    case 'not':
      // The schema's one `not` ($defs/MarketId): the dot segments no URL can carry.
      expected = DOT_SEGMENT_EXPECTED;
      break;
    case 'minimum':
    case 'maximum':
      expected = `a number ${String(params['comparison'])} ${String(params['limit'])}`;
      break;
    default:
      expected = error.message ?? error.keyword;
  }
  const at = `${base}${pointer}`;
  return {
    severity,
    code: error.keyword === 'false schema' ? 'forbidden' : error.keyword === 'not' ? 'dot-segment-id' : error.keyword,
    pointer: at,
    expected,
    found,
    message: `${at || '/'}: expected ${expected}, found ${found}`,
  };
}
