import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type Severity } from './vocabulary.js';

/** One kind of finding the checker can emit: its code, severity and the endpoints it is reported on. */
export interface FindingKind {
  readonly code: string;
  readonly severity: Severity;
  readonly endpoints: readonly ContractEndpoint[];
}

const BOTH = [LIST_ENDPOINT, SINGLE_ENDPOINT] as const;
const LIST = [LIST_ENDPOINT] as const;
const SINGLE = [SINGLE_ENDPOINT] as const;

/**
 * Every finding `check`, `record` and `proxy` can report, as (code, severity, endpoints): the
 * schema keywords of `$defs/Market`, `$defs/MarketSummary` and `$defs/MarketAssumptions` (the
 * ajv keywords that schema uses; `forbidden` is ajv's `false schema`, `dot-segment-id` the `not` of
 * `$defs/MarketId`) and every check of the
 * contract room (src/contract). A code with two severities has a row for each. docs/contract-check.md documents each row
 * (a test holds the two together), and the deviation catalogue (src/deviation) provokes every
 * error and warning from a stub or says why it cannot.
 */
export const FINDING_KINDS = [
  // Errors: the documented contract.
  { code: 'required', severity: 'error', endpoints: BOTH },
  { code: 'type', severity: 'error', endpoints: BOTH },
  { code: 'format', severity: 'error', endpoints: SINGLE },
  { code: 'minLength', severity: 'error', endpoints: BOTH },
  { code: 'dot-segment-id', severity: 'error', endpoints: BOTH },
  { code: 'forbidden', severity: 'error', endpoints: LIST },
  { code: 'list-shape', severity: 'error', endpoints: LIST },
  { code: 'partial-failure', severity: 'error', endpoints: LIST },
  { code: 'http-status', severity: 'error', endpoints: BOTH },
  { code: 'unconditional-not-modified', severity: 'error', endpoints: BOTH },
  { code: 'not-found', severity: 'error', endpoints: SINGLE },
  { code: 'not-json', severity: 'error', endpoints: BOTH },
  { code: 'json-rule', severity: 'error', endpoints: BOTH },
  { code: 'request-failed', severity: 'error', endpoints: [LIST_ENDPOINT, SINGLE_ENDPOINT, 'deployment'] },
  { code: 'retry-exhausted', severity: 'error', endpoints: BOTH },
  { code: 'body-too-large', severity: 'error', endpoints: BOTH },
  { code: 'undecodable-body', severity: 'error', endpoints: BOTH },
  { code: 'framing', severity: 'error', endpoints: BOTH },
  { code: 'cross-origin', severity: 'error', endpoints: LIST },
  { code: 'single-envelope', severity: 'error', endpoints: SINGLE },
  { code: 'id-mismatch', severity: 'error', endpoints: SINGLE },
  { code: 'list-single-mismatch', severity: 'error', endpoints: SINGLE },
  { code: 'could-not-run', severity: 'error', endpoints: BOTH },
  // Warnings: our assumptions.
  { code: 'const', severity: 'warning', endpoints: BOTH },
  { code: 'minimum', severity: 'warning', endpoints: BOTH },
  { code: 'maximum', severity: 'warning', endpoints: BOTH },
  { code: 'price-sum', severity: 'warning', endpoints: BOTH },
  { code: 'float-noise', severity: 'warning', endpoints: BOTH },
  { code: 'past-resolution-date', severity: 'warning', endpoints: SINGLE },
  { code: 'content-type', severity: 'warning', endpoints: BOTH },
  { code: 'price-moved', severity: 'warning', endpoints: SINGLE },
  { code: 'slow-answer', severity: 'warning', endpoints: SINGLE },
  { code: 'duplicate-id', severity: 'warning', endpoints: LIST },
  { code: 'cursor-loop', severity: 'warning', endpoints: LIST },
  { code: 'paging-unfollowed', severity: 'warning', endpoints: LIST },
  { code: 'list-partial', severity: 'warning', endpoints: LIST },
  { code: 'partial-failure', severity: 'warning', endpoints: LIST },
  { code: 'cross-origin', severity: 'warning', endpoints: BOTH },
  { code: 'bom', severity: 'warning', endpoints: BOTH },
  { code: 'charset', severity: 'warning', endpoints: BOTH },
  { code: 'duplicate-member', severity: 'warning', endpoints: BOTH },
  { code: 'unsafe-number', severity: 'warning', endpoints: BOTH },
  { code: 'header-echo', severity: 'warning', endpoints: SINGLE },
  { code: 'deprecation', severity: 'warning', endpoints: BOTH },
  { code: 'sunset', severity: 'warning', endpoints: BOTH },
  // Information.
  { code: 'undocumented-field', severity: 'info', endpoints: BOTH },
  { code: 'list-shape', severity: 'info', endpoints: LIST },
  { code: 'paging', severity: 'info', endpoints: LIST },
  { code: 'deployment-date', severity: 'info', endpoints: LIST },
  { code: 'redirect', severity: 'info', endpoints: BOTH },
  { code: 'retry', severity: 'info', endpoints: BOTH },
  { code: 'timing', severity: 'info', endpoints: SINGLE },
  { code: 'sample', severity: 'info', endpoints: ['deployment'] },
  { code: 'unknown-id-probe', severity: 'info', endpoints: SINGLE },
  { code: 'version-link', severity: 'info', endpoints: BOTH },
  { code: 'base-query', severity: 'info', endpoints: ['deployment'] },
  { code: 'cookies', severity: 'info', endpoints: ['deployment'] },
  { code: 'delisted', severity: 'info', endpoints: SINGLE },
  { code: 'not-recorded', severity: 'info', endpoints: SINGLE },
] as const satisfies readonly FindingKind[];

/** A finding code the checker emits (the type every observation's code has). */
export type FindingCode = (typeof FINDING_KINDS)[number]['code'];

/** A named check of the contract and the finding codes it produces, per endpoint (JUnit testcases). */
export interface ContractCheck {
  name: string;
  endpoints: readonly ContractEndpoint[];
  codes: readonly FindingCode[];
}

/**
 * The checks, for JUnit testcases and docs/contract-check.md. Schema codes are ajv keywords; a
 * code not listed here (another ajv keyword) belongs to `schema`.
 */
export const CONTRACT_CHECKS: readonly ContractCheck[] = [
  { name: 'answers', endpoints: BOTH, codes: ['http-status', 'unconditional-not-modified', 'not-found', 'request-failed', 'framing', 'retry-exhausted', 'body-too-large', 'slow-answer', 'could-not-run'] },
  { name: 'json-body', endpoints: BOTH, codes: ['not-json', 'json-rule', 'undecodable-body', 'content-type', 'bom', 'charset', 'duplicate-member', 'unsafe-number'] },
  { name: 'list-shape', endpoints: [LIST_ENDPOINT], codes: ['list-shape', 'partial-failure'] },
  { name: 'paging', endpoints: [LIST_ENDPOINT], codes: ['cursor-loop', 'paging-unfollowed', 'list-partial'] },
  { name: 'same-origin', endpoints: BOTH, codes: ['cross-origin'] },
  { name: 'schema', endpoints: BOTH, codes: ['required', 'type', 'format', 'forbidden', 'minLength', 'dot-segment-id', 'single-envelope'] },
  { name: 'unique-ids', endpoints: [LIST_ENDPOINT], codes: ['duplicate-id'] },
  { name: 'list-consistency', endpoints: [SINGLE_ENDPOINT], codes: ['id-mismatch', 'list-single-mismatch', 'price-moved'] },
  { name: 'assumptions', endpoints: BOTH, codes: ['const', 'minimum', 'maximum', 'float-noise', 'price-sum', 'past-resolution-date'] },
  { name: 'no-header-echo', endpoints: [SINGLE_ENDPOINT], codes: ['header-echo'] },
  { name: 'versioning', endpoints: BOTH, codes: ['deprecation', 'sunset'] },
];

/** The check a finding code belongs to. */
export function checkOfCode(code: string): string {
  return CONTRACT_CHECKS.find((c) => (c.codes as readonly string[]).includes(code))?.name ?? 'schema';
}

/** Schema codes: the keywords of the schema's $defs that can fail, as findings name them. */
const SCHEMA_CODES: ReadonlySet<string> = new Set(['required', 'type', 'format', 'minLength', 'dot-segment-id', 'forbidden', 'const', 'minimum', 'maximum']);

/**
 * A schema finding's code as a FindingCode. The schema uses only the keywords in SCHEMA_CODES; a
 * keyword outside them means the schema gained one the checker's table does not list yet.
 * @throws Error naming the keyword (a bug to fix here and in docs/contract-check.md).
 */
export function schemaFindingCode(code: string): FindingCode {
  if (!SCHEMA_CODES.has(code)) throw new Error(`schema keyword ${JSON.stringify(code)} is not in FINDING_KINDS (src/contract/finding-codes.ts): add it there and to docs/contract-check.md`);
  return code as FindingCode;
}
