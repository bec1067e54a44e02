import type { FindingCode } from '../../floor/finding-codes.js';
import type { ContractEndpoint, Severity } from '../../floor/vocabulary.js';
import type { LocatedProblem } from '../../floor/located-problem.js';

// The vocabulary lives on the floor (src/floor/vocabulary.ts), where the deviation catalogue reads it too.
export { LIST_ENDPOINT, SEVERITY_ORDER, SINGLE_ENDPOINT, type ContractEndpoint, type Severity } from '../../floor/vocabulary.js';

/** One concrete occurrence kept as an example of an aggregated finding. */
export interface FindingExample {
  /** The market the occurrence is about, when known (a listed or requested market_id). */
  marketId?: string;
  /** Concrete RFC 6901 pointer into the response body, e.g. `/17/yes_price`. */
  pointer: string;
  /** What was found at this occurrence (compact JSON text or a short description). */
  found: string;
  /** Path and query of the request that returned it (no host, never any header), e.g. `/markets?cursor=p2`. */
  request?: string;
}

/**
 * One thing the check observed, before aggregation: a `Finding` placed on an endpoint, with the
 * pointer template that groups it (array indices replaced by `*`).
 */
export interface Observation {
  severity: Severity;
  /** Stable code: an ajv keyword for schema findings (`type`, `required`, `format`, …) or a kebab-case check name; every one is in FINDING_KINDS. */
  code: FindingCode;
  endpoint: ContractEndpoint;
  /** Pointer with array indices replaced by `*` (for `/markets/17/yes_price`, the template is `/markets/` + `*` + `/yes_price`); the aggregation key. */
  pointerTemplate: string;
  /** What the contract or assumption expects, in words. */
  expected: string;
  example: FindingExample;
  /** The sentence for people; by default `<pointer>: expected <expected>, found <found>`. Information findings say what was seen. */
  message?: string;
  /** The member name this observation counts, for a finding that aggregates names (`undocumented-field`): one finding per endpoint and place, the names tallied in it (FindingAggregator). */
  name?: string;
}

/**
 * An aggregated finding of a contract check: every observation with the same (severity, code,
 * endpoint, pointer template) counted once, with up to three examples. A LocatedProblem
 * (floor/located-problem.ts) whose pointer is a template.
 */
export interface ContractFinding extends LocatedProblem {
  severity: Severity;
  code: string;
  endpoint: ContractEndpoint;
  /** Pointer template: the concrete pointer with each array index replaced by `*`; `''` is the whole body. */
  pointer: string;
  expected: string;
  /** What the first occurrence showed. */
  found: string;
  /** One sentence for people. */
  message: string;
  /** How many occurrences share this finding (markets, responses or fields). */
  count: number;
  /** Up to three occurrences, in the order seen. */
  examples: FindingExample[];
  /**
   * For a finding that counts member names (`undocumented-field`): every name seen with its
   * occurrences, most frequent first, at most MAX_FINDING_NAMES (floor/limits.ts). Written whole
   * only in the JSON report; the other formats show the bounded sample in `found` and `message`.
   */
  names?: FindingName[];
  /** Occurrences of names past MAX_FINDING_NAMES (counted in `count`, not named). */
  namesUncounted?: number;
}

/** One member name of a finding that counts names, with its occurrences (markets or responses carrying it). */
export interface FindingName {
  name: string;
  count: number;
}
