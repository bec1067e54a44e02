import { LIST_ENDPOINT, SINGLE_ENDPOINT } from '../floor/vocabulary.js';
import type { FindingCode } from '../floor/finding-codes.js';
import type { WatchFindingCode } from '../floor/watch-finding-codes.js';

/** A finding over time a deviation provokes. */
export type WatchCode = WatchFindingCode;

/** `contract`: breaks the documented contract (`check` reports an error, exit 1); `assumption`: breaks only an assumption (a warning, exit 0). */
export type DeviationClass = 'contract' | 'assumption';

/** The routes a deviation shows on: `list` is `GET /markets`, `item` is `GET /markets/{market_id}`. */
export type DeviationEndpoint = 'list' | 'item';

/** A finding `check` reports for a deviation (as in the JSON report: severity, code, endpoint, pointer template). */
export interface DeclaredFinding {
  readonly severity: 'error' | 'warning';
  readonly code: FindingCode;
  readonly endpoint: typeof LIST_ENDPOINT | typeof SINGLE_ENDPOINT;
  /** RFC 6901 pointer with array indices as `*`, as for the default bare-array list (inside an envelope the list's gain its key); `''` is the whole body. */
  readonly pointer: string;
}

/** A JSON object as served (fields may be deliberately wrong). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** The two views of one market as served: the single-market body and the list item. */
export interface MarketViews {
  readonly item: JsonObject;
  readonly summary: JsonObject;
}

/** What a rewrite may depend on besides the market itself: the stub's seed and the market's own seed stream. */
export interface DeviationContext {
  readonly seed: number;
  /** FNV-1a of the market_id (with the seed, a stream of the market's own). */
  readonly idHash: number;
  /** Ticks since start or reset (0 when absent): what a deviation that changes over time (`followsTick`) reads. */
  readonly tick?: number;
}

/** How an answer deviates beyond its JSON value: status, media type, bytes, time. Data only; src/http applies it. */
export interface ReplyEdit {
  /** Answer with this status and a JSON error body in the profile's error shape. */
  readonly status?: number;
  readonly contentType?: string;
  /** Put the UTF-8 byte-order mark EF BB BF before the body. */
  readonly bom?: boolean;
  /** Replace the body: `html` an HTML page, `truncated` its first half, `nested` the list one level deeper (`{"payload":{"markets":[…]}}`). */
  readonly body?: 'html' | 'truncated' | 'nested';
  /** Answer this much later, ms. */
  readonly delayMs?: number;
  /** List only: a `Link: <this list's URL>; rel="next"` header, so the next page is this one again. */
  readonly loopLink?: boolean;
  /** The retirement headers of VERSIONING_HEADERS (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link` to the successor and the policy). */
  readonly versioning?: boolean;
  /**
   * List only, but it limits every route: at most `perSecond` requests in each one-second window,
   * a 429 past it, the limit announced in the header `fields` (runtime/rate-limit-reply.ts).
   */
  readonly rateLimit?: { readonly perSecond: number; readonly fields: RateLimitFields };
  /** List only: the first `firstPage` markets only, with `X-Per-Page: <that many>` and no next-page signal. */
  readonly firstPage?: number;
  /** Answer `304 Not Modified` (no body, the body's validators) whether or not the request sent a validator. */
  readonly notModified?: boolean;
  /** List only: the list as rendered before the catalog's last change, while each market answers as it is (runtime/lagging-list.ts). */
  readonly lagsItems?: boolean;
  /** An `ETag` that names the market, not its bytes: kept while the body changes (runtime/conditional-reply.ts `pinnedTag`). */
  readonly staleTag?: boolean;
  /** List only: a `Date` this many ms from the real clock (RFC 9110 §6.6.1), as a server whose clock is off sends it. */
  readonly clockSkewMs?: number;
}

/** How a rate-limited deviation announces its limit: `Retry-After` on a 429 only, the IETF `RateLimit`/`RateLimit-Policy` fields, or `X-RateLimit-*` (on every answer). */
export type RateLimitFields = 'retry-after' | 'ratelimit' | 'x-ratelimit';

/** What a market with a deviation does to `record`: its answer is still a valid market (`kept`) or not (`dropped`). A list deviation: every market `kept`, none (`dropped`), or those before the cut (`cut`). */
export type RecordOutcome = 'kept' | 'dropped' | 'cut';

interface DeviationBase {
  /** Kebab-case name, as `--deviation`, `Prefer: deviation=` and the admin API take it. */
  readonly name: string;
  readonly class: DeviationClass;
  readonly endpoints: readonly DeviationEndpoint[];
  /** What is served, in one sentence for the README table and `GET /__stub/deviations`. */
  readonly describe: string;
  /** Exactly what `check --all` reports for it against an otherwise conforming stub (besides information). */
  readonly findings: readonly DeclaredFinding[];
  /** What a watch (`check --watch`) reports over time for it, against a stub that ticks between rounds, and within how many rounds (docs/contract-check.md). */
  readonly watch?: { readonly findings: readonly WatchCode[]; readonly rounds: number };
  /** Why `check` reports nothing: a deviation no single crawl can see, or one the checker is built to cope with (a rate limit it paces itself to). */
  readonly unseen?: string;
  /** Former names (the domain faults of 0.1, whose API is removed), still accepted as names of this deviation (CHANGELOG.md). */
  readonly aliases?: readonly string[];
  readonly record: RecordOutcome;
}

/**
 * A deviation of chosen markets (all, a seeded share, or named ones). Rewrites are pure functions
 * of the market's views (or serialised text) and the context, applied in catalogue order.
 */
export interface MarketDeviation extends DeviationBase {
  readonly scope: 'market';
  /** Rewrites the market's JSON views (list item and single body). */
  views?(views: MarketViews, ctx: DeviationContext): MarketViews;
  /** Rewrites the list item's JSON text (after the views are serialised). */
  summaryText?(text: string, ctx: DeviationContext): string;
  /** Rewrites the single body's JSON text. */
  itemText?(text: string, ctx: DeviationContext): string;
  /** Lists the market twice in a row: the list item's text, after every text rewrite, then again (so it composes with the rewrites of the item's members). */
  readonly repeatsListItem?: boolean;
  /** How the single-market answer deviates beyond its JSON. */
  readonly reply?: ReplyEdit;
  /** Listed, but `GET /markets/{market_id}` answers 404. */
  readonly hidesItem?: boolean;
  /** Prices stop moving on tick. */
  readonly freezesPrices?: boolean;
  /** What is served changes with the tick (the rewrites read `ctx.tick`): a tick rebuilds the market's answers. */
  readonly followsTick?: boolean;
  /** Listed, but `GET /markets/{market_id}` answers 404 at the ticks where this is true. */
  hidesItemAt?(ctx: DeviationContext): boolean;
  /** The id the single market also answers at (the id the list now shows), when a rewrite changes it. */
  alias?(marketId: string, ctx: DeviationContext): string;
}

/** A deviation of the whole `GET /markets` answer. */
export interface ListDeviation extends DeviationBase {
  readonly scope: 'list';
  readonly reply: ReplyEdit;
}

/** One entry of the deviation catalogue. */
export type Deviation = MarketDeviation | ListDeviation;

/**
 * What a list served with `versioning` carries: deprecated since 2026-01-01T00:00:00Z (RFC 9745
 * Date item, Unix seconds), sunset on 2030-01-01 (an RFC 9110 HTTP-date), and `Link`s to the
 * successor version (RFC 5829) and to the deprecation policy (RFC 9745 §3), both relative.
 */
export const VERSIONING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  deprecation: '@1767225600',
  sunset: 'Tue, 01 Jan 2030 00:00:00 GMT',
  link: '</v2/markets>; rel="successor-version", </docs/deprecation>; rel="deprecation"',
});

/** A finding on `GET /markets`. */
export function onList(severity: DeclaredFinding['severity'], code: FindingCode, pointer = ''): DeclaredFinding {
  return { severity, code, endpoint: LIST_ENDPOINT, pointer };
}

/** A finding on `GET /markets/{market_id}`. */
export function onItem(severity: DeclaredFinding['severity'], code: FindingCode, pointer = ''): DeclaredFinding {
  return { severity, code, endpoint: SINGLE_ENDPOINT, pointer };
}
