import type { Behaviour, BehaviourRule, BehaviourRuleInput } from '../behaviour/behaviour.js';
import { DEFAULT_CLIENT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from '../core/limits.js';
import { readHttpUrl } from '../core/http-url.js';
import { checkFilter } from '../runtime/stub-controls.js';
import { planDeviations, type DeviationSetting } from '../deviation/deviation-settings.js';
import { MarketStubError, optionError } from '../core/market-stub-error.js';
import type { JournalEntry, JournalFilter } from '../journal/request-journal.js';
import { readTyped, type OptionKind } from '../core/option-kind.js';
import type { Market } from '../schema/generated/market-types.js';
import { createAdminTransport, type AdminAnswer, type AdminRequest, type AdminTransport } from './admin-transport.js';
import type { MarketStubClient } from '../runtime/market-stub-client.js';

/** Options of connectMarketStub; all optional. */
export interface ConnectMarketStubOptions {
  /**
   * The stub's admin token (`--admin-token`, `MARKET_STUB_ADMIN_TOKEN`): sent as
   * `Authorization: Bearer <token>` (RFC 6750 §2.1) to the stub's URL only, never shown in errors.
   */
  adminToken?: string;
  /** Longest wait for one call, ms (connect, answer and body). @default 10000 */
  timeoutMs?: number;
  /** Largest answer read, bytes (a catalog of a million markets is about 200 MB). @default 268435456 (256 MiB) */
  maxResponseBytes?: number;
}


const OPTION_KINDS: Record<keyof ConnectMarketStubOptions, OptionKind> = {
  adminToken: { type: 'token' },
  timeoutMs: { type: 'integer', min: 1, max: 3_600_000 },
  maxResponseBytes: { type: 'integer', min: 1024, max: 4 * 1024 * 1024 * 1024 },
};

/**
 * A client for a stub running elsewhere (another process, a container, a CI service), with the
 * same methods, types and errors as the handle of `startMarketStub` (MarketStubClient), over the
 * admin API under `${url}/__stub` with `fetch`. Nothing is sent until a method is called, so a
 * stub that is not up yet fails the first call, not this one (as WireMock's client does).
 *
 * `url` is the stub's base URL (`http://127.0.0.1:4010`, a container's mapped `http://HOST:PORT`,
 * or a path prefix behind a proxy): http or https, without credentials, query or fragment.
 * @throws MarketStubError OPTION_INVALID (where `connectMarketStub`) for a bad URL or option.
 */
export function connectMarketStub(url: string, options: ConnectMarketStubOptions = {}): MarketStubClient {
  const base = checkBaseUrl(url);
  checkConnectOptions(options);
  const send = createAdminTransport({
    base,
    adminToken: options.adminToken,
    timeoutMs: options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  });
  return Object.freeze(remoteMethods(base, send));
}

/** The MarketStubClient methods over the transport, each named `stub.<method>` in errors like the in-process handle's. */
function remoteMethods(base: string, send: AdminTransport): MarketStubClient {
  const call = <A extends unknown[], R>(method: string, fn: (where: string, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => fn(`stub.${method}`, ...args);
  const market = (where: string, marketId: unknown): string => `/markets/${encodeURIComponent(checkMarketId(where, marketId))}`;
  return {
    url: base,
    catalog: call('catalog', async (where) => answerOf(where, await send(where, { method: 'GET', path: '/markets' }), isArray) as Market[]),
    setMarkets: call('setMarkets', async (where, markets: readonly unknown[]) => {
      await send(where, { method: 'PUT', path: '/markets', body: markets, bodyOption: 'markets' });
    }),
    putMarket: call('putMarket', async (where, value: unknown) => {
      const id = (value as { market_id?: unknown } | null | undefined)?.market_id;
      // Without a usable id there is no path to PUT to: POST lets the stub validate it and answer as in process.
      const request: AdminRequest = typeof id === 'string' && id !== ''
        ? { method: 'PUT', path: `/markets/${encodeURIComponent(id)}`, body: value, bodyOption: 'market' }
        : { method: 'POST', path: '/markets', body: value, bodyOption: 'market' };
      return (await send(where, request)).status === 201 ? 'created' : 'replaced';
    }),
    patchMarket: call('patchMarket', async (where, marketId: string, patch: Record<string, unknown>) =>
      answerOf(where, await send(where, { method: 'PATCH', path: market(where, marketId), body: patch, bodyOption: 'patch', contentType: 'application/merge-patch+json' }), isObject) as Market),
    removeMarket: call('removeMarket', async (where, marketId: string) => {
      await send(where, { method: 'DELETE', path: market(where, marketId) });
    }),
    setDeviations: call('setDeviations', async (where, settings: readonly DeviationSetting[]) => {
      // Checked here first, as in process, so a bad setting fails the same way before anything is sent.
      planDeviations(settings, where);
      await send(where, { method: 'PUT', path: '/deviations', body: settings, bodyOption: 'deviations' });
    }),
    tick: call('tick', async (where, n?: number) => {
      const answer = answerOf(where, await send(where, { method: 'POST', path: '/tick', body: n === undefined ? {} : { n }, bodyOption: 'n', argument: n }), isObject);
      return field(where, answer, 'tick', 'number') as number;
    }),
    reset: call('reset', async (where) => {
      await send(where, { method: 'POST', path: '/reset' });
    }),
    setBehaviour: call('setBehaviour', async (where, behaviour: Behaviour) => {
      await send(where, { method: 'PUT', path: '/behaviours/global', body: behaviour, bodyOption: 'behaviour' });
    }),
    addRule: call('addRule', async (where, rule: BehaviourRuleInput) =>
      answerOf(where, await send(where, { method: 'POST', path: '/behaviours/rules', body: rule, bodyOption: 'rule' }), isObject) as BehaviourRule),
    removeRule: call('removeRule', async (where, ruleId: string) => {
      if (typeof ruleId !== 'string' || ruleId === '') throw new MarketStubError({ code: 'RULE_NOT_FOUND', where, option: 'ruleId', expected: 'the id of a rule', found: ruleId });
      await send(where, { method: 'DELETE', path: `/behaviours/rules/${encodeURIComponent(ruleId)}` });
    }),
    requests: call('requests', async (where, filter?: JournalFilter) => {
      const answer = answerOf(where, await send(where, { method: 'GET', path: '/requests', query: filterQuery(where, filter) }), isObject);
      return field(where, answer, 'requests', 'array') as JournalEntry[];
    }),
    requestCount: call('requestCount', async (where, filter?: JournalFilter) => {
      const answer = answerOf(where, await send(where, { method: 'GET', path: '/requests/count', query: filterQuery(where, filter) }), isObject);
      return field(where, answer, 'count', 'number') as number;
    }),
    clearRequests: call('clearRequests', async (where) => {
      await send(where, { method: 'DELETE', path: '/requests' });
    }),
  };
}

/**
 * The same check as the in-process controls: a market id must be a non-empty string (and here, a
 * path segment). `.` and `..` are no market's id (schemas/market.schema.json `$defs/MarketId`), and
 * a URL cannot carry them (its parser removes dot segments, `%2E` included): answered here as the
 * in-process handle answers them, MARKET_NOT_FOUND, never sent to another route.
 */
function checkMarketId(where: string, marketId: unknown): string {
  if (typeof marketId !== 'string' || marketId === '') throw optionError(where, 'marketId', 'a non-empty string', marketId);
  if (marketId === '.' || marketId === '..') {
    throw new MarketStubError({ code: 'MARKET_NOT_FOUND', where, marketId, message: `${where}: no market with market_id ${JSON.stringify(marketId)} (a market_id is never "." or "..": URL parsers remove those path segments)` });
  }
  return marketId;
}

/** A journal filter as the query of `GET /__stub/requests`, checked first as in process (so a value a query cannot carry fails the same way). */
function filterQuery(where: string, filter: unknown): URLSearchParams {
  const checked = checkFilter(where, filter);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(checked)) if (value !== undefined) query.set(key, String(value));
  return query;
}

const isArray = (value: unknown) => Array.isArray(value);
const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);

function answerOf(where: string, answer: AdminAnswer, shape: (value: unknown) => boolean): unknown {
  if (!shape(answer.body)) throw notAdminApi(where, `an answer of an unexpected shape (${typeof answer.body})`);
  return answer.body;
}

function field(where: string, body: unknown, key: string, type: 'number' | 'array'): unknown {
  const value = (body as Record<string, unknown>)[key];
  if (type === 'array' ? !Array.isArray(value) : typeof value !== 'number') throw notAdminApi(where, `an answer without "${key}"`);
  return value;
}

function notAdminApi(where: string, what: string): MarketStubError {
  return new MarketStubError({ code: 'STUB_UNREACHABLE', where, message: `${where}: the stub sent ${what}; is this the admin API of a market-stub of the same version?` });
}

/** The base URL without a trailing slash. @throws MarketStubError OPTION_INVALID */
function checkBaseUrl(url: unknown): string {
  const read = readHttpUrl(typeof url === 'string' ? url : undefined);
  if (!read.ok) {
    const expected = `the base URL of a stub: ${read.expected}, such as http://127.0.0.1:4010`;
    throw optionError('connectMarketStub', 'url', read.secret ? `${expected}; pass the token as adminToken` : expected, read.secret ? '(a URL with credentials, not shown)' : url);
  }
  const parsed = read.url;
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** @throws MarketStubError OPTION_INVALID naming the option; never shows the token. */
function checkConnectOptions(options: unknown): void {
  const where = 'connectMarketStub';
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw optionError(where, 'options', 'an object of options', options);
  for (const [key, value] of Object.entries(options)) {
    const kind = OPTION_KINDS[key as keyof ConnectMarketStubOptions] as OptionKind | undefined;
    if (!kind) throw optionError(where, key, `a known option (${Object.keys(OPTION_KINDS).join(', ')})`, key);
    if (value === undefined) continue;
    const read = readTyped(kind, value);
    const secret = key === 'adminToken';
    // adminToken's kind (`token`) refuses what a header cannot carry unchanged (RFC 9110 §5.5); fetch would refuse it later with a message that shows it.
    if (!read.ok) throw optionError(where, key, read.expected, secret ? '(not shown)' : value);
  }
}
