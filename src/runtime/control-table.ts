import type { Behaviour, BehaviourRule, BehaviourRuleInput } from '../behaviour/behaviour.js';
import { MarketStubError, optionError } from '../floor/market-stub-error.js';
import { planDeviations, type DeviationSetting } from '../deviation/deviation-settings.js';
import type { JournalEntry, JournalFilter } from '../journal/request-journal.js';
import type { HarEntry } from '../journal/har.js';
import type { Market } from '../schema/generated/market-types.js';
import type { ClockChange, ClockReading } from '../catalog/stub-clock.js';
import { adminFailure } from './admin/admin-error.js';
import { jsonArrayChunks, type AdminAnswer, type AdminContext } from './admin/admin-route.js';
import { checkFilter, type StubControls } from './stub-controls.js';

/**
 * The runtime controls of a stub, one interface for every way to reach it: the in-process handle
 * of `startMarketStub` and the remote client of `connectMarketStub` (a stub in another process or
 * a container, over the admin API under `/__stub`). Every method is asynchronous on both, so a
 * test written against one runs unchanged against the other.
 *
 * Errors: every method rejects with a `MarketStubError` for a problem the caller can fix:
 * `OPTION_INVALID` (a bad argument: `option`, `expected`, `found`), `MARKETS_INVALID` (markets
 * fail `$defs/Market`: `findings`, nothing changed), `MARKET_NOT_FOUND` / `RULE_NOT_FOUND` (an
 * unknown id), `LIMIT_EXCEEDED` (a documented limit), and on the remote client `UNAUTHORIZED`
 * (missing or wrong admin token) and `STUB_UNREACHABLE`.
 */
export interface MarketStubClient {
  /** Base URL of the stub, e.g. `http://127.0.0.1:53111`: the market routes are `${url}/markets`. */
  readonly url: string;
  /** Every market served now, in catalog order (as `GET /__stub/markets` answers). */
  catalog(): Promise<Market[]>;
  /** Replaces every market; validated like fixtures, all or nothing. */
  setMarkets(markets: readonly unknown[]): Promise<void>;
  /** Adds or replaces one market (validated). */
  putMarket(market: unknown): Promise<'created' | 'replaced'>;
  /**
   * Applies an RFC 7396 JSON merge patch to one market (nested objects merge, `null` removes a
   * member); the result is validated before it replaces anything. `market_id` cannot change.
   * @returns the market as served after the patch.
   */
  patchMarket(marketId: string, patch: Record<string, unknown>): Promise<Market>;
  /** Removes one market. */
  removeMarket(marketId: string): Promise<void>;
  /**
   * Replaces every deviation in force (`[]` clears them all; `reset()` restores the start-up ones).
   * Each setting serves one deviation of the catalogue (`GET /__stub/deviations`, the README) to
   * every market (`{ name }`), a seeded share (`{ name, rate: 0.1 }`: the same markets on every
   * run for the same seed) or named markets (`{ name, marketIds: [id] }`); a list deviation
   * (`list-500`) takes neither. List and item stay one record except where the deviation is the
   * inconsistency. Rejects with OPTION_INVALID (unknown name, bad rate), MARKET_NOT_FOUND (a
   * marketIds entry outside the catalog) or LIMIT_EXCEEDED (over 200 settings or 10,000 ids);
   * nothing changes then.
   */
  setDeviations(settings: readonly DeviationSetting[]): Promise<void>;
  /** Moves prices `n` ticks (default 1). @returns the tick count since start or reset. */
  tick(n?: number): Promise<number>;
  /** The stub clock: `{ instant, rate, start, lifecycle }` (RFC 3339 instants; rate in stub seconds per real second; the `lifecycle` option markets follow on it). */
  clock(): Promise<ClockReading>;
  /**
   * Moves the stub clock: `{ to: '2026-01-02T00:00:00Z' }`, `{ advance: 'PT6H' }` (ISO 8601),
   * `{ rate: 60 }`, alone or together (applied in that order, all checked first). Forward only:
   * an instant before the clock's, a negative or unparsable duration, a rate outside 0–31,536,000
   * reject with OPTION_INVALID naming the field, and nothing changes. @returns the clock after.
   */
  setClock(change: ClockChange): Promise<ClockReading>;
  /** Back to the start-up markets, behaviours and rules (rules with `times` get their full count again), and the clock to its start instant and rate; the journal is kept. */
  reset(): Promise<void>;
  /** Replaces the global behaviour applied to every market request. */
  setBehaviour(behaviour: Behaviour): Promise<void>;
  /** Adds (or, with the same `id`, replaces) a behaviour rule. @returns the rule as stored. */
  addRule(rule: BehaviourRuleInput): Promise<BehaviourRule>;
  /** Removes a behaviour rule by id. */
  removeRule(ruleId: string): Promise<void>;
  /** Journal entries matching `filter`, oldest first; `filter.limit` keeps the newest N. */
  requests(filter?: JournalFilter): Promise<JournalEntry[]>;
  /**
   * The journal as an HTTP Archive (HAR 1.2), for the tools that read one (a browser's network
   * panel import, HAR-to-curl and replay tools): the entries `requests(filter)` returns, each with
   * its request and response headers (secrets redacted as the journal redacts them), the response
   * body when the journal kept it (at most 64 KiB: docs/limits.md), timings, and the custom fields
   * `_marketStubSeq`, `_marketStubBehaviour`, `_marketStubExplain` (docs/explain.md),
   * `_marketStubTrace`. docs/har.md.
   */
  har(filter?: JournalFilter): Promise<HarDocument>;
  /** How many journal entries match `filter` (the entries the ring still holds). */
  requestCount(filter?: JournalFilter): Promise<number>;
  /** Empties the journal. */
  clearRequests(): Promise<void>;
}

/** An HTTP Archive (HAR 1.2) of the journal, as `har()` returns it and `GET /__stub/requests.har` sends it. */
export interface HarDocument {
  log: { version: '1.2'; creator: { name: string; version: string; comment?: string }; entries: HarEntry[] };
}

/** An admin route's method. */
export type AdminMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

/** One remote call of a control: the admin route under `/__stub`, an optional query and JSON body. */
export interface ControlRequest {
  method: AdminMethod;
  /** Path under `/__stub`, segments already percent-encoded: `/markets/abc%2F1`. */
  path: string;
  query?: URLSearchParams;
  /** A JSON value to send; `undefined` sends no body. */
  body?: unknown;
  /** Which argument the body came from, for the message when it is not JSON (`markets`, `patch`). */
  bodyOption?: string;
  /** That argument as given, when the body wraps it (`{"n": n}`): what the message shows. */
  argument?: unknown;
  /** `application/merge-patch+json` for RFC 7396 patches; `application/json` otherwise. */
  contentType?: string;
}

/** What the stub answered a remote call: the status and the parsed JSON body (undefined when empty). */
export interface ControlAnswer {
  status: number;
  body: unknown;
}

/** The name of a control on MarketStubClient (the in-process handle and the remote client). */
export type LibraryControl = Exclude<keyof MarketStubClient, 'url'>;
type Args<N extends LibraryControl> = Parameters<MarketStubClient[N]>;
type Result<N extends LibraryControl> = Awaited<ReturnType<MarketStubClient[N]>>;

/**
 * The bodies the admin routes read, by what they hold: every market (`markets`), one market, an
 * RFC 7396 merge `patch`, `tick`'s `{n}`, a `clockChange` (`{to, advance, rate}`), the deviation
 * settings, one market's deviation names, a global `behaviour`, a behaviour `rule`.
 */
export type ControlBody = 'markets' | 'market' | 'patch' | 'tick' | 'clockChange' | 'deviationSettings' | 'deviationNames' | 'behaviour' | 'rule';

/** A control's admin route: method and path template under `/__stub` (`{id}` is one segment), what it does, and how HTTP maps to the control. */
interface RouteSpec {
  method: AdminMethod;
  path: string;
  /** What the route does, as `GET /__stub` lists it. */
  doc: string;
  /**
   * The JSON body the route reads, by name (only those routes read one): what it is, for the
   * surfaces that describe a control's input (the MCP tools' JSON Schemas, src/mcp/tool-schemas.ts).
   */
  body?: ControlBody;
  /** `filter`: the route reads a journal filter from its query (`?method=&path=&…&limit=`, checkFilter in stub-controls.ts). */
  query?: 'filter';
  /** Path parameters, body and query in; the control's result out as status and JSON. */
  serve(context: AdminContext): AdminAnswer;
}

/** How a control is a MarketStubClient method: `stub.<name>` in errors, asynchronous on both sides. */
interface LibrarySpec<N extends LibraryControl> {
  /** The in-process call, when it is not `controls[name](where, ...args)` with its result as is. */
  local?(controls: StubControls, where: string, ...args: Args<N>): Result<N>;
  /** The remote call's request (arguments checked first as in process, so a bad one fails the same way before anything is sent). */
  send(where: string, ...args: Args<N>): ControlRequest;
  /** The result out of the admin API's answer. @throws MarketStubError STUB_UNREACHABLE when the answer has another shape. */
  read(where: string, answer: ControlAnswer): Result<N>;
}

/** One row of the table, as the surfaces read it. */
export interface ControlRow extends RouteSpec {
  name: string;
  library?: {
    local?(controls: StubControls, where: string, ...args: unknown[]): unknown;
    send(where: string, ...args: unknown[]): ControlRequest;
    read(where: string, answer: ControlAnswer): unknown;
  };
}

type Rows = { [N in LibraryControl]: RouteSpec & { library: LibrarySpec<N> } } & Record<string, RouteSpec & { library?: unknown }>;

const nothing = (): undefined => undefined;
const id = (params: Record<string, string>): string => params['id'] ?? '';
const marketPath = (where: string, marketId: unknown): string => `/markets/${encodeURIComponent(checkMarketId(where, marketId))}`;
const noContent = (run: () => unknown): AdminAnswer => {
  run();
  return { status: 204 };
};

/**
 * The stub's controls, one row each, in the order `GET /__stub` lists their routes: the admin
 * routes (src/runtime/admin/admin-api.ts), the in-process handle (stub-handle.ts) and the remote
 * client (src/client/connect-market-stub.ts) are made from it. A row with `library` is a
 * MarketStubClient method (the type requires one such row per method); the others are admin
 * routes only. A row's `serve` (and the handle, unless the row has `local`) calls the control's
 * implementation, the StubControls method of the row's name in stub-controls.ts (`addMarket`:
 * `hasMarket`, then `putMarket`).
 */
const TABLE = {
  catalog: {
    method: 'GET', path: '/markets', doc: 'every market as stored, in catalog order',
    serve: ({ controls, where }) => ({ status: 200, chunks: jsonArrayChunks(controls.catalog(where)) }),
    library: { send: () => ({ method: 'GET', path: '/markets' }), read: (where, answer) => answerOf(where, answer, isArrayOfObjects) as Market[] },
  },
  setMarkets: {
    method: 'PUT', path: '/markets', body: 'markets', doc: 'replace the catalog (a JSON array of markets; all or nothing)',
    serve: ({ controls, where, body, runtime }) => {
      controls.setMarkets(where, body);
      return { status: 200, body: { count: runtime.store.current().size } };
    },
    library: { send: (_where, markets) => ({ method: 'PUT', path: '/markets', body: markets, bodyOption: 'markets' }), read: nothing },
  },
  addMarket: {
    method: 'POST', path: '/markets', body: 'market', doc: 'add one market (409 when its market_id exists)',
    serve: ({ controls, where, body }) => {
      const given = (body as { market_id?: unknown } | null | undefined)?.market_id;
      if (typeof given === 'string' && controls.hasMarket(given)) {
        throw adminFailure('OPTION_INVALID', where, `a market with market_id ${JSON.stringify(given)} exists; PUT /__stub/markets/{id} replaces it.`, { status: 409, option: 'market_id', expected: 'a market_id not in the catalog', found: given });
      }
      controls.putMarket(where, body);
      return { status: 201, body };
    },
  },
  market: {
    method: 'GET', path: '/markets/{id}', doc: 'one market as stored (before deviations)',
    serve: ({ controls, where, params }) => ({ status: 200, body: controls.market(where, id(params)) }),
  },
  putMarket: {
    method: 'PUT', path: '/markets/{id}', body: 'market', doc: 'add or replace one market (its market_id must be the path id)',
    serve: ({ controls, where, body, params }) => {
      const given = (body as { market_id?: unknown } | null | undefined)?.market_id;
      if (given !== id(params)) throw adminFailure('OPTION_INVALID', where, `the body's market_id must be the path's (${JSON.stringify(id(params))}).`, { option: 'market_id', expected: JSON.stringify(id(params)), found: given });
      return { status: controls.putMarket(where, body) === 'created' ? 201 : 200, body };
    },
    library: {
      send: (_where, value) => {
        const marketId = (value as { market_id?: unknown } | null | undefined)?.market_id;
        // Without a usable id there is no path to PUT to: POST lets the stub validate it and answer as in process.
        return typeof marketId === 'string' && marketId !== ''
          ? { method: 'PUT', path: `/markets/${encodeURIComponent(marketId)}`, body: value, bodyOption: 'market' }
          : { method: 'POST', path: '/markets', body: value, bodyOption: 'market' };
      },
      read: (_where, answer) => (answer.status === 201 ? 'created' : 'replaced'),
    },
  },
  patchMarket: {
    method: 'PATCH', path: '/markets/{id}', body: 'patch', doc: 'RFC 7396 merge patch (null removes a member; the result is validated first)',
    serve: ({ controls, where, body, params }) => ({ status: 200, body: controls.patchMarket(where, id(params), body) }),
    library: {
      send: (where, marketId, patch) => ({ method: 'PATCH', path: marketPath(where, marketId), body: patch, bodyOption: 'patch', contentType: 'application/merge-patch+json' }),
      read: (where, answer) => answerOf(where, answer, isObject) as Market,
    },
  },
  removeMarket: {
    method: 'DELETE', path: '/markets/{id}', doc: 'remove one market',
    serve: ({ controls, where, params }) => noContent(() => controls.removeMarket(where, id(params))),
    library: { send: (where, marketId) => ({ method: 'DELETE', path: marketPath(where, marketId) }), read: nothing },
  },
  tick: {
    method: 'POST', path: '/tick', body: 'tick', doc: 'move prices n ticks ({"n":3}; default 1)',
    serve: ({ controls, where, body }) => {
      if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) throw adminFailure('OPTION_INVALID', where, 'the body must be an object such as {"n":3}.', { option: 'body', expected: 'an object such as {"n":3}', found: body });
      // Only `n`: a forbidden member (`__proto__`: docs/limits.md) or any other is refused, not ignored.
      const other = Object.keys(body ?? {}).find((key) => key !== 'n');
      if (other !== undefined) throw adminFailure('OPTION_INVALID', where, `the body has one member, "n"; found ${JSON.stringify(other)}.`, { option: `body/${other}`, expected: 'an object with at most the member "n", such as {"n":3}', found: other });
      return { status: 200, body: { tick: controls.tick(where, (body as { n?: unknown } | undefined)?.n) } };
    },
    library: {
      send: (_where, n) => ({ method: 'POST', path: '/tick', body: n === undefined ? {} : { n }, bodyOption: 'n', argument: n }),
      read: (where, answer) => field(where, answerOf(where, answer, isObject), 'tick', 'number') as number,
    },
  },
  clock: {
    method: 'GET', path: '/clock', doc: 'the stub clock: {"instant","rate","start","lifecycle"} (RFC 3339; rate in stub seconds per real second; lifecycle off, generic or kalshi)',
    serve: ({ controls, where }) => ({ status: 200, body: controls.clock(where) }),
    library: { send: () => ({ method: 'GET', path: '/clock' }), read: (where, answer) => clockOf(where, answer) },
  },
  setClock: {
    method: 'POST', path: '/clock', body: 'clockChange', doc: 'move the stub clock forward: {"advance":"PT6H"}, {"to":"2026-01-02T00:00:00Z"}, {"rate":60}, alone or together',
    serve: ({ controls, where, body }) => ({ status: 200, body: controls.setClock(where, body) }),
    library: {
      send: (_where, change) => ({ method: 'POST', path: '/clock', body: change, bodyOption: 'change' }),
      read: (where, answer) => clockOf(where, answer),
    },
  },
  reset: {
    method: 'POST', path: '/reset', doc: 'start-up markets, deviations, tick, behaviours and clock again (the journal is kept)',
    serve: ({ controls, where }) => noContent(() => controls.reset(where)),
    library: { send: () => ({ method: 'POST', path: '/reset' }), read: nothing },
  },
  deviations: {
    method: 'GET', path: '/deviations', doc: 'the deviation catalogue (name, class, endpoints, description, findings check reports), the deviations in force, and how many markets each reaches now',
    serve: ({ controls, where }) => ({ status: 200, body: controls.deviations(where) }),
  },
  setDeviations: {
    method: 'PUT', path: '/deviations', body: 'deviationSettings', doc: 'replace every deviation in force ([{"name":"string-price","rate":0.1}, {"name":"item-bom","marketIds":["A"]}, {"name":"list-500"}]; [] clears)',
    serve: ({ controls, where, body }) => {
      controls.setDeviations(where, body);
      const { active, reach } = controls.deviations(where);
      return { status: 200, body: { active, reach } };
    },
    library: {
      send: (where, settings) => {
        planDeviations(settings, where);
        return { method: 'PUT', path: '/deviations', body: settings, bodyOption: 'deviations' };
      },
      read: nothing,
    },
  },
  setMarketDeviations: {
    method: 'PUT', path: '/markets/{id}/deviations', body: 'deviationNames', doc: 'the deviations of one market (["string-price","item-slow"]; [] clears)',
    serve: ({ controls, where, body, params }) => ({ status: 200, body: { market_id: params['id'], deviations: controls.setMarketDeviations(where, id(params), body) } }),
  },
  behaviours: {
    method: 'GET', path: '/behaviours', doc: 'global behaviour and rules in force (times = applications left)',
    serve: ({ controls, where }) => ({ status: 200, body: controls.behaviours(where) }),
  },
  resetBehaviours: {
    method: 'DELETE', path: '/behaviours', doc: 'start-up global behaviour and rules again',
    serve: ({ controls, where }) => noContent(() => controls.resetBehaviours(where)),
  },
  setBehaviour: {
    method: 'PUT', path: '/behaviours/global', body: 'behaviour', doc: 'replace the global behaviour',
    serve: ({ controls, where, body }) => ({ status: 200, body: controls.setBehaviour(where, body) }),
    library: {
      local: (controls, where, behaviour) => {
        controls.setBehaviour(where, behaviour);
      },
      send: (_where, behaviour) => ({ method: 'PUT', path: '/behaviours/global', body: behaviour, bodyOption: 'behaviour' }),
      read: nothing,
    },
  },
  addRule: {
    method: 'POST', path: '/behaviours/rules', body: 'rule', doc: 'add (or with the same id replace) a rule {match, behaviour, times?, id?}',
    serve: ({ controls, where, body }) => ({ status: 201, body: controls.addRule(where, body) }),
    library: { send: (_where, rule) => ({ method: 'POST', path: '/behaviours/rules', body: rule, bodyOption: 'rule' }), read: (where, answer) => answerOf(where, answer, isObject) as BehaviourRule },
  },
  removeRule: {
    method: 'DELETE', path: '/behaviours/rules/{id}', doc: 'remove a rule',
    serve: ({ controls, where, params }) => noContent(() => controls.removeRule(where, id(params))),
    library: {
      send: (where, ruleId) => {
        if (typeof ruleId !== 'string' || ruleId === '') throw new MarketStubError({ code: 'RULE_NOT_FOUND', where, option: 'ruleId', expected: 'the id of a rule', found: ruleId });
        return { method: 'DELETE', path: `/behaviours/rules/${encodeURIComponent(ruleId)}` };
      },
      read: nothing,
    },
  },
  requests: {
    method: 'GET', path: '/requests', query: 'filter', doc: 'journal entries, oldest first: the newest ?limit= (default and at most 1,000) matching ?method=&path=&pathPrefix=&status=&traceId=&requestId=',
    serve: ({ controls, where, query }) => {
      const requests = controls.requests(where, filterOf(where, query));
      const stats = JSON.stringify(controls.journalStats(where));
      function* body(): Generator<string> {
        yield `${stats.slice(0, -1)},"requests":`;
        yield* jsonArrayChunks(requests, 100);
        yield '}';
      }
      return { status: 200, chunks: body() };
    },
    library: {
      send: (where, filter) => ({ method: 'GET', path: '/requests', query: filterQuery(where, filter) }),
      read: (where, answer) => field(where, answerOf(where, answer, isObject), 'requests', 'array') as JournalEntry[],
    },
  },
  har: {
    method: 'GET', path: '/requests.har', query: 'filter', doc: 'the journal as an HTTP Archive (HAR 1.2): the same filters as /requests (and ?traceId=&requestId=), request and response headers, bodies up to 64 KiB, the explanation in _marketStubExplain',
    serve: ({ controls, where, query }) => ({ status: 200, chunks: controls.har(where, filterOf(where, query)) }),
    library: {
      local: (controls, where, filter) => JSON.parse([...controls.har(where, filter)].join('')) as HarDocument,
      send: (where, filter) => ({ method: 'GET', path: '/requests.har', query: filterQuery(where, filter) }),
      read: (where, answer) => {
        const body = answerOf(where, answer, isObject) as { log?: { entries?: unknown } };
        if (!Array.isArray(body.log?.entries)) throw notAdminApi(where, 'an answer without "log.entries"');
        return body as HarDocument;
      },
    },
  },
  requestCount: {
    method: 'GET', path: '/requests/count', query: 'filter', doc: 'how many journal entries match the same filters',
    serve: ({ controls, where, query }) => ({ status: 200, body: { count: controls.requestCount(where, filterOf(where, query)) } }),
    library: {
      send: (where, filter) => ({ method: 'GET', path: '/requests/count', query: filterQuery(where, filter) }),
      read: (where, answer) => field(where, answerOf(where, answer, isObject), 'count', 'number') as number,
    },
  },
  clearRequests: {
    method: 'DELETE', path: '/requests', doc: 'empty the journal',
    serve: ({ controls, where }) => noContent(() => controls.clearRequests(where)),
    library: { send: () => ({ method: 'DELETE', path: '/requests' }), read: nothing },
  },
} satisfies Rows;

/** The table as rows, in order (each with its name). */
export const CONTROLS: readonly ControlRow[] = Object.freeze(Object.entries(TABLE).map(([name, row]) => Object.freeze({ name, ...row } as ControlRow)));

/** The rows that are MarketStubClient methods. */
export const LIBRARY_CONTROLS: readonly (ControlRow & { library: NonNullable<ControlRow['library']> })[] = CONTROLS.filter((row): row is ControlRow & { library: NonNullable<ControlRow['library']> } => row.library !== undefined);

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

/**
 * `?method=&path=&pathPrefix=&status=&limit=` as a filter for the shared controls to check (numbers
 * when they look like numbers). A parameter given twice (`?status=abc&status=200`) is refused: which
 * one a filter would take is not the client's to guess.
 * @throws AdminFailure OPTION_INVALID naming the repeated parameter.
 */
function filterOf(where: string, query: URLSearchParams): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const [key, value] of query) {
    if (Object.hasOwn(filter, key)) throw adminFailure('OPTION_INVALID', where, `the query gives ${key} more than once; give it once.`, { option: `filter.${key}`, expected: `one ${key} parameter`, found: query.getAll(key).join(', ') });
    filter[key] = (key === 'status' || key === 'limit') && /^\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return filter;
}

/** A journal filter as the query of `GET /__stub/requests`, checked first as in process (so a value a query cannot carry fails the same way). */
function filterQuery(where: string, filter: unknown): URLSearchParams {
  const checked = checkFilter(where, filter);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(checked)) if (value !== undefined) query.set(key, String(value));
  return query;
}

const LIFECYCLES: readonly unknown[] = ['off', 'generic', 'kalshi'] satisfies ClockReading['lifecycle'][];

/** A clock reading out of an answer: `instant` and `start` strings, `rate` a number, `lifecycle` off, generic or kalshi. */
function clockOf(where: string, answer: ControlAnswer): ClockReading {
  const body = answerOf(where, answer, isObject) as Record<string, unknown>;
  if (typeof body['instant'] !== 'string' || typeof body['start'] !== 'string' || typeof body['rate'] !== 'number' || !LIFECYCLES.includes(body['lifecycle'])) throw notAdminApi(where, 'a clock answer without instant, rate, start and lifecycle');
  return { instant: body['instant'], rate: body['rate'], start: body['start'], lifecycle: body['lifecycle'] as ClockReading['lifecycle'] };
}
const isObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
/** A catalog's shape: an array of objects (each a market); a nested array (`[[[…]]]`) is not one. */
const isArrayOfObjects = (value: unknown) => Array.isArray(value) && value.every(isObject);

function answerOf(where: string, answer: ControlAnswer, shape: (value: unknown) => boolean): unknown {
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
