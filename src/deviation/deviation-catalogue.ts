import type { Severity } from '../floor/vocabulary.js';
import type { FindingCode } from '../floor/finding-codes.js';
import type { Deviation } from './deviation-definition.js';
import { LIST_DEVIATIONS } from './list-deviations.js';
import { MARKET_DEVIATIONS } from './market-deviations.js';

/**
 * Every deviation market-stub serves, in catalogue order: the deviations of chosen markets, then
 * those of the whole list. Each is one definition: name, class (contract-breaking or
 * assumption-only), endpoints, the rewrite, and exactly what `check` reports for it. The README's
 * deviation table is generated from it (formatDeviationTable), and a test runs `check` and
 * `record` against a stub serving each one.
 */
export const DEVIATIONS: readonly Deviation[] = Object.freeze([...MARKET_DEVIATIONS, ...LIST_DEVIATIONS]);

let byName: Map<string, Deviation> | undefined;

/** The deviation of a name or former name (`missing` is `listed-but-404`), or undefined. */
export function findDeviation(name: string): Deviation | undefined {
  if (!byName) {
    byName = new Map();
    for (const deviation of DEVIATIONS) {
      for (const known of [deviation.name, ...(deviation.aliases ?? [])]) {
        if (byName.has(known)) throw new Error(`deviation name ${JSON.stringify(known)} is defined twice in the catalogue`);
        byName.set(known, deviation);
      }
    }
  }
  return byName.get(name);
}

let positions: Map<Deviation, number> | undefined;

/** A deviation's position in the catalogue: the order rewrites apply in and lists show. */
export function catalogueIndex(deviation: Deviation): number {
  positions ??= new Map(DEVIATIONS.map((d, i) => [d, i]));
  return positions.get(deviation) ?? DEVIATIONS.length;
}

/** Every name the catalogue answers to, canonical names first. */
export function deviationNames(): string[] {
  return [...DEVIATIONS.map((d) => d.name), ...DEVIATIONS.flatMap((d) => d.aliases ?? [])];
}

/** A finding the checker can emit that no deviation provokes, and why. */
export interface UnprovokedFinding {
  readonly code: FindingCode;
  readonly severity: Severity;
  readonly why: string;
}

/**
 * The errors and warnings of the checker (FINDING_KINDS) that no deviation provokes, each with the
 * reason. They are about the transport or the crawl itself, not about what a market or a list
 * says, so a deviation of the served content cannot cause them; the stub's behaviours provoke
 * some of them, and test/contract/check-deviant.test.ts covers each against a deviant server.
 */
export const UNPROVOKED_FINDINGS: readonly UnprovokedFinding[] = Object.freeze([
  { code: 'request-failed', severity: 'error', why: 'no complete HTTP answer (reset, timeout): transport, provoked by the behaviours `fault=reset`/`truncate` or a delay past `--timeout-ms`' },
  { code: 'retry-exhausted', severity: 'error', why: '503 after every retry: provoked by the behaviour `status` 503 with `retryAfter` (a 429 is the checker\'s pace: it slows down, or stops with exit 2)' },
  { code: 'could-not-run', severity: 'error', why: 'the run could not judge the deployment (a 401/403 to the first request, a 503 whose `Retry-After` is past the cap, a 451, a CDN bot challenge, or one of the checker\'s own limits: a body past `--max-market-bytes`/`--max-body-mb`, `--max-pages`, `--timeout-ms`): the run stops (exit 2) before any content is judged; provoked by the behaviours `status` 403, or 503 with `retryAfter` 3600, on the list, or a small `--max-pages` with `--paging`; test/contract/gateway-signals.test.ts and test/contract/checker-limits.test.ts cover them' },
  { code: 'framing', severity: 'error', why: 'an answer framed as RFC 9112 §6 forbids (Transfer-Encoding with Content-Length, a repeated Content-Length, a transfer coding other than chunked, a coded body whose Content-Length is its decoded length): node:http and the Fetch adapters frame every answer themselves; test/contract/framing-deployments.test.ts sends them from raw sockets' },
  { code: 'body-too-large', severity: 'error', why: 'reported by `proxy` only, for an exchange over `--max-body-mb` (64 MiB) it could not check; `check` and `record` stop with exit 2 (`could-not-run`) at any limit of the checker' },
  { code: 'json-rule', severity: 'error', why: 'JSON deeper than 64 levels, a `__proto__`-like member or bytes that are not UTF-8: the stub itself refuses such markets on every input, so it never serves one' },
  { code: 'dot-segment-id', severity: 'error', why: 'a market_id "." or "..": the stub refuses such markets on every input (no URL can reach them), so it never serves one' },
  { code: 'undecodable-body', severity: 'error', why: 'a body that does not decode from its `Content-Encoding`: the stub sends no content coding' },
  { code: 'cross-origin', severity: 'error', why: 'a redirect or paging link to another origin with `--same-origin-only`: needs a second origin' },
  { code: 'cross-origin', severity: 'warning', why: 'a redirect or paging link to another origin: needs a second origin' },
  { code: 'partial-failure', severity: 'error', why: 'a `null` item in the market list: the stub\'s list is its catalog, which holds only markets; test/contract/envelope-deployments.test.ts serves one from a GraphQL-shaped deployment' },
  { code: 'partial-failure', severity: 'warning', why: 'an `errors` array beside the market list (a GraphQL partial answer): the stub serves no errors beside a list; test/contract/envelope-deployments.test.ts serves them' },
  { code: 'list-partial', severity: 'warning', why: 'a total larger than the list seen: the stub announces the totals it serves; test/contract/check-paging.test.ts provokes it' },
  { code: 'header-echo', severity: 'warning', why: 'a market echoing a `--header` value: depends on the headers the checker sends, not on the stub' },
]);
