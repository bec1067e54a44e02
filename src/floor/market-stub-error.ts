/**
 * The one error class of market-stub's library surface. Every problem a caller can fix (a bad
 * option, invalid markets, an unknown id, a limit, a remote stub that refuses) is a MarketStubError
 * with a stable `code`; anything else thrown is a bug. The in-process handle, the remote client
 * and the admin API's JSON error bodies carry the same codes and fields, so a test written against
 * one surface catches the same errors on the other.
 */
import type { LocatedProblem } from './located-problem.js';

/** Stable codes; the admin API sends them as `error` in its JSON bodies (lower case, see `adminCode`). */
export type MarketStubErrorCode =
  /** An option or request field is wrong: `option`, `expected` and `found` say which and how. */
  | 'OPTION_INVALID'
  /** Markets failed `$defs/Market` or repeat a market_id: `findings` lists every problem. */
  | 'MARKETS_INVALID'
  /** A fixture file or directory could not be read: `findings` says which and why. */
  | 'FIXTURES_UNREADABLE'
  /** No market with this market_id: `marketId`. */
  | 'MARKET_NOT_FOUND'
  /** No behaviour rule with this id: `found`. */
  | 'RULE_NOT_FOUND'
  /** A documented limit was reached (body size, catalog size, journal bytes…): `option` names it. */
  | 'LIMIT_EXCEEDED'
  /** The server could not listen on the address asked for (port taken, no permission, unknown host): `option` is `port` or `host`, `cause` the system error. */
  | 'LISTEN_FAILED'
  /** The remote admin API refused the token (HTTP 401); check/record: the deployment refused the --header credential (401/403). */
  | 'UNAUTHORIZED'
  /** The remote stub could not be reached or answered something that is not the admin API. */
  | 'STUB_UNREACHABLE'
  /** The admin API has no such route (HTTP 404), or not for this method (405, `Allow` lists those it has). */
  | 'ADMIN_ROUTE_NOT_FOUND'
  /** The admin API refused the request's origin (HTTP 403): a `Host` not allowed (DNS rebinding), a foreign `Origin`, a CORS preflight. */
  | 'FORBIDDEN'
  /** A file or directory could not be written (report, fixture set): the message names it and the real cause. */
  | 'OUTPUT_UNWRITABLE'
  /** check/record: the deployment's list got no HTTP answer (refused, DNS, TLS, timeout). */
  | 'DEPLOYMENT_UNREACHABLE'
  /** check/record: stopped by SIGINT/SIGTERM (or an aborted signal) before the crawl finished. */
  | 'INTERRUPTED';

/**
 * One located problem inside a value (a market, a patch, a config file): the LocatedProblem every
 * surface reports (floor/located-problem.ts). `pointer` points into the value the caller passed
 * (`/3/yes_price`), `''` for the whole value; `message` is `pointer: expected …, found …` as one line.
 */
export type ErrorFinding = LocatedProblem;

/** What a MarketStubError is built from; `where` is the surface that received the input (`startMarketStub`, `stub.setMarkets`, `PUT /__stub/markets`). */
export interface MarketStubErrorInit {
  code: MarketStubErrorCode;
  where: string;
  option?: string;
  expected?: string;
  /** The offending value; shown as JSON, shortened to 80 characters. */
  found?: unknown;
  /** What was found, already as text (`nothing (missing)`); wins over `found`. */
  foundText?: string;
  findings?: readonly ErrorFinding[];
  /** Located problems counted beyond `findings` but not listed (a bounded answer); 0 when `findings` has every one. */
  more?: number;
  marketId?: string;
  /** A full message; when absent it is built from `where`, `option`, `expected` and `found`. */
  message?: string;
  /** The underlying error (a Node system error for LISTEN_FAILED). */
  cause?: unknown;
}

/** The brand every MarketStubError carries, shared by every copy of market-stub in the process. */
const MARKET_STUB_ERROR_BRAND = Symbol.for('market-stub.MarketStubError');

/**
 * A problem the caller can fix. `message` reads `where: option: expected …, found …`, e.g.
 * `startMarketStub: clock: expected a YYYY-MM-DD date or an RFC 3339 instant from 1970 to 9999, found "2026-13-01"`.
 */
export class MarketStubError extends Error {
  /**
   * `error instanceof MarketStubError` holds for a MarketStubError from any copy of market-stub
   * loaded in the process: the ESM and CommonJS builds, and the `market-stub/testcontainers`
   * bundle, each carry their own class (the dual-package hazard), so the check reads a
   * process-wide brand (Symbol.for) instead of the prototype chain. Subclasses (FixtureError)
   * keep the ordinary check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== MarketStubError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKET_STUB_ERROR_BRAND] === true;
  }

  readonly code: MarketStubErrorCode;
  /** The surface that received the input: a function (`startMarketStub`), a method (`stub.tick`) or an admin route. */
  readonly where: string;
  /** The option or field at fault (`clock`, `behaviour.delayMs`, `n`), when one is. */
  readonly option: string | undefined;
  readonly expected: string | undefined;
  /** What was given, as shown in the message (JSON, shortened). */
  readonly found: string | undefined;
  /** The located problems (MARKETS_INVALID, config files); empty otherwise. Markets given in code or to the admin API list their first 100 (MAX_LISTED_PROBLEMS) and count the rest in `more`. */
  readonly findings: readonly ErrorFinding[];
  /** Located problems counted but not listed in `findings`; 0 when `findings` has every one. */
  readonly more: number;
  readonly marketId: string | undefined;

  constructor(init: MarketStubErrorInit) {
    const found = init.foundText ?? (init.found === undefined ? undefined : showValue(init.found));
    super(init.message ?? defaultMessage(init.where, init.option, init.expected, found), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'MarketStubError';
    Object.defineProperty(this, MARKET_STUB_ERROR_BRAND, { value: true });
    this.code = init.code;
    this.where = init.where;
    this.option = init.option;
    this.expected = init.expected;
    this.found = found;
    this.findings = init.findings ?? [];
    this.more = init.more ?? 0;
    this.marketId = init.marketId;
  }
}

/**
 * A located problem inside a structured option value (a profile, rules, deviations), worded as
 * every surface words it: `/pageSize: expected an integer from 1 to 1000, found 2000`. `found` is
 * shown as error messages show values (showValue), or given as text (`foundText`) for what is not shown.
 */
export function locatedProblem(pointer: string, expected: string, found: unknown, foundText?: string): ErrorFinding {
  const shown = foundText ?? showValue(found);
  return { pointer, expected, found: shown, message: `${pointer || '(the whole value)'}: expected ${expected}, found ${shown}` };
}

/** `/0/match/route` → `[0].match.route`; `/pageSize` → `.pageSize`: a pointer as a path after an option's name. */
export function pointerPath(pointer: string): string {
  return pointer.split('/').slice(1).map((token) => {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    return /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }).join('');
}

/**
 * The one error of a bad structured option on every library surface: OPTION_INVALID naming the
 * first problem as a path after the option (`startMarketStub: profile.pageSize: expected …, found …`),
 * every problem in `findings`.
 */
export function problemsError(where: string, option: string, problems: readonly ErrorFinding[]): MarketStubError {
  const first = problems[0];
  if (first === undefined) return optionError(where, option, 'a valid value', undefined);
  return new MarketStubError({ code: 'OPTION_INVALID', where, option: `${option}${pointerPath(first.pointer)}`, expected: first.expected, foundText: first.found, findings: problems });
}

/** Shorthand for the common case: an option with a bad value. */
export function optionError(where: string, option: string, expected: string, found: unknown): MarketStubError {
  return new MarketStubError({ code: 'OPTION_INVALID', where, option, expected, found });
}

/**
 * The same problem reported by another surface: `where` replaced, `option` prefixed (a behaviour
 * field `delayMs` checked inside `setBehaviour` becomes `behaviour.delayMs`). Keeps the class.
 */
export function relocate(error: MarketStubError, where: string, optionPrefix = ''): MarketStubError {
  const option = error.option === undefined ? undefined : `${optionPrefix}${error.option}`;
  const init: MarketStubErrorInit = { code: error.code, where, findings: error.findings, more: error.more };
  if (option !== undefined) init.option = option;
  if (error.expected !== undefined) init.expected = error.expected;
  if (error.marketId !== undefined) init.marketId = error.marketId;
  if (error.found !== undefined) init.foundText = error.found;
  if (error.expected === undefined) init.message = `${where}: ${stripWhere(error)}`;
  return new MarketStubError(init);
}

function stripWhere(error: MarketStubError): string {
  return error.where && error.message.startsWith(`${error.where}: `) ? error.message.slice(error.where.length + 2) : error.message;
}

/** The admin API's `error` member for a code (`MARKET_NOT_FOUND` → `market_not_found`). */
export function adminCode(code: MarketStubErrorCode): string {
  return code.toLowerCase();
}

/**
 * A value as an error message shows it: JSON (so `"abc"` and `abc` differ), `undefined` for
 * nothing, shortened to 80 characters with an ellipsis. Never throws (cycles, BigInt).
 */
export function showValue(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'function') text = 'a function';
  else if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function defaultMessage(where: string, option: string | undefined, expected: string | undefined, found: string | undefined): string {
  const head = option ? `${where}: ${option}` : where;
  if (expected === undefined) return head;
  return `${head}: expected ${expected}${found === undefined ? '' : `, found ${found}`}`;
}
