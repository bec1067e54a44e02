import { hasFloatNoise, isCalendarDate, priceSumDeviation, PRICE_SUM_TOLERANCE } from '../core/market-rules.js';
import { loadMarketSchema } from '../schema/market-schema.js';
import { getMarketValidator } from '../schema/market-validator.js';
import { describeFound, pointerToken, type Finding } from '../schema/finding.js';
import type { Market } from '../schema/market-types.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type Severity } from './contract-finding.js';
import type { FindingAggregator } from './finding-aggregator.js';
import { findMarketArray, type ListShape } from './list-envelope.js';

/** What the checks need to know about one HTTP answer. */
export interface ResponseFacts {
  /** Path and query of the request (for examples; never headers). */
  request: string;
  status: number;
  contentType: string | undefined;
  text: string;
}

/** Shared state of the checks: where findings go and which date counts as today. */
export interface CheckContext {
  sink: FindingAggregator;
  /** Today's date, YYYY-MM-DD (UTC): an active market resolving before it gets a warning. */
  today: string;
}

/** A market as the list showed it, kept to compare with its single response. */
export interface ListedMarket {
  /** The market_id as listed, or its decimal text when the list sent a number (itself an error). */
  id: string;
  title: unknown;
  status: unknown;
  yes_price: unknown;
  no_price: unknown;
}

/** The markets seen in one list traversal (all pages of one crawl), in list order, by id. */
export type ListedMarkets = Map<string, ListedMarket>;

/** A list page whose market array was found. */
export interface ListPage {
  body: unknown;
  shape: ListShape;
}

let documentedFields: ReadonlySet<string> | undefined;

/** Field names `$defs/Market` documents; anything else is an undocumented (extra) field. */
export function documentedMarketFields(): ReadonlySet<string> {
  documentedFields ??= new Set(Object.keys((loadMarketSchema().$defs['Market'] as { properties: Record<string, unknown> }).properties));
  return documentedFields;
}

/** True for `application/json` and structured `+json` media types (RFC 8259 §11, RFC 6839 §3.1). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** Parses a body as JSON; `ok: false` when it is not JSON (empty bodies included). */
export function parseJsonBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A short description of a body for findings and the probe: `JSON object with keys error, message` or `text/html, 132 bytes: "<!doctype…"`. */
export function describeBody(text: string, contentType: string | undefined): string {
  const parsed = parseJsonBody(text);
  if (!parsed.ok) {
    if (text.length === 0) return 'an empty body';
    return `${contentType ?? 'no Content-Type'}, ${Buffer.byteLength(text)} bytes: ${describeFound(text.slice(0, 40), 44)}`;
  }
  const value = parsed.value;
  if (Array.isArray(value)) return `a JSON array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length === 0 ? 'an empty JSON object' : `a JSON object with keys ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`;
  }
  return `JSON ${value === null ? 'null' : typeof value} ${describeFound(value)}`;
}

/**
 * Checks one `GET /markets` answer (a page): 2xx, JSON, JSON content type, a market array (bare or
 * in an envelope), and every item (checkListItems). Findings go to `ctx.sink`; `listed` and `seen`
 * are as for checkListItems.
 * @returns the page when its market array was found, else undefined (the finding says why).
 */
export function checkListResponse(facts: ResponseFacts, ctx: CheckContext, listed: ListedMarkets, seen: Set<string>): ListPage | undefined {
  const body = checkAnswer(facts, ctx, LIST_ENDPOINT, 'the market list (2xx)', undefined);
  if (body === undefined) return undefined;
  const shape = findMarketArray(body.value);
  if (!shape) {
    add(ctx, 'error', 'list-shape', LIST_ENDPOINT, '', 'a JSON array of markets, or an object holding one under markets, data, results or items', { pointer: '', found: describeBody(facts.text, facts.contentType), request: facts.request });
    return undefined;
  }
  checkListItems(shape.items, shape.basePointer, facts.request, ctx, listed, seen);
  return { body: body.value, shape };
}

/**
 * Checks every list item against `$defs/MarketSummary` (errors), `$defs/MarketAssumptions` and the
 * domain rules (warnings) and counts undocumented fields (info). Each market is recorded in
 * `listed` (for the list/single comparison; a later listing replaces an earlier one) and its id in
 * `seen`, the ids of one traversal of the list: an id already in `seen` is a duplicate (warning,
 * the first listing is kept).
 *
 * Fast path: a conforming item costs one compiled boolean validation and a few comparisons; only
 * failing items are validated again with `allErrors` to build findings.
 */
export function checkListItems(items: readonly unknown[], basePointer: string, request: string, ctx: CheckContext, listed: ListedMarkets, seen: Set<string>): void {
  const fast = getMarketValidator({ allErrors: false });
  const full = getMarketValidator({ allErrors: true });
  const documented = documentedMarketFields();
  const template = `${basePointer}/*`;
  const extra = new Map<string, { count: number; first: number[]; ids: (string | undefined)[] }>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const at = `${basePointer}/${i}`;
    const id = listedId(item);
    let errorPointers: Set<string> | undefined;
    if (!fast.isSummary(item)) {
      const findings = full.summary(item);
      errorPointers = new Set(findings.map((f) => f.pointer));
      for (const f of findings) addSchemaFinding(ctx, f, LIST_ENDPOINT, template, at, id, request);
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    checkAssumptions(record, ctx, LIST_ENDPOINT, template, at, id, request, errorPointers, fast, full);
    for (const key in record) {
      if (documented.has(key)) continue;
      let tally = extra.get(key);
      if (!tally) extra.set(key, (tally = { count: 0, first: [], ids: [] }));
      tally.count++;
      if (tally.first.length < 3) {
        tally.first.push(i);
        tally.ids.push(id);
      }
    }
    if (id === undefined) continue;
    if (seen.has(id)) {
      add(ctx, 'warning', 'duplicate-id', LIST_ENDPOINT, `${template}/market_id`, 'each market_id listed once', { marketId: id, pointer: `${at}/market_id`, found: `${describeFound(id)} listed again`, request });
      continue;
    }
    seen.add(id);
    listed.set(id, { id, title: record['title'], status: record['status'], yes_price: record['yes_price'], no_price: record['no_price'] });
  }
  addUndocumented(ctx, LIST_ENDPOINT, template, basePointer, extra, request);
}

/**
 * Checks one `GET /markets/{market_id}` answer for the id asked for. `listed` is the market as the
 * list showed it (undefined when the id was not listed: then a non-2xx answer is not a finding,
 * because error behaviour is undocumented).
 * @returns the body as a Market when it meets `$defs/Market` and carries the id asked for (what
 *   `record` may write), else undefined.
 */
export function checkSingleResponse(facts: ResponseFacts, requestedId: string, listed: ListedMarket | undefined, ctx: CheckContext): Market | undefined {
  if (listed === undefined && (facts.status < 200 || facts.status > 299)) return undefined;
  const body = checkAnswer(facts, ctx, SINGLE_ENDPOINT, 'the listed market (2xx)', requestedId);
  if (body === undefined) return undefined;
  const doc = body.value;
  const example = (pointer: string, found: string) => ({ marketId: requestedId, pointer, found, request: facts.request });
  const wrapped = singleEnvelopeKey(doc);
  if (wrapped !== undefined) {
    add(ctx, 'error', 'single-envelope', SINGLE_ENDPOINT, '', 'a Market object at the top level (market_id, title, … as body fields)', example('', `the market wrapped in ${JSON.stringify(wrapped)}`));
    return undefined;
  }
  const fast = getMarketValidator({ allErrors: false });
  const full = getMarketValidator({ allErrors: true });
  let errorPointers: Set<string> | undefined;
  const valid = fast.isMarket(doc);
  if (!valid) {
    const findings = full.market(doc);
    errorPointers = new Set(findings.map((f) => f.pointer));
    for (const f of findings) addSchemaFinding(ctx, f, SINGLE_ENDPOINT, '', '', requestedId, facts.request);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  checkAssumptions(record, ctx, SINGLE_ENDPOINT, '', '', requestedId, facts.request, errorPointers, fast, full);
  const date = record['resolution_date'];
  if (record['status'] === 'active' && typeof date === 'string' && isCalendarDate(date) && date < ctx.today) {
    add(ctx, 'warning', 'past-resolution-date', SINGLE_ENDPOINT, '/resolution_date', `a date on or after ${ctx.today} for an active market`, example('/resolution_date', JSON.stringify(date)));
  }
  const id = record['market_id'];
  const idMatches = typeof id !== 'string' || id === requestedId;
  if (!idMatches) {
    add(ctx, 'error', 'id-mismatch', SINGLE_ENDPOINT, '/market_id', `the market_id asked for (${describeFound(requestedId)})`, example('/market_id', describeFound(id)));
  }
  if (listed) compareWithList(record, listed, ctx, example);
  const extra = new Map<string, { count: number; first: number[]; ids: (string | undefined)[] }>();
  for (const key in record) if (!documentedMarketFields().has(key)) extra.set(key, { count: 1, first: [], ids: [requestedId] });
  addUndocumented(ctx, SINGLE_ENDPOINT, '', '', extra, facts.request);
  return valid && idMatches ? (doc as Market) : undefined;
}

/** Checks status, JSON and content type of an answer where a market (list) was expected; returns the parsed body or undefined. */
function checkAnswer(facts: ResponseFacts, ctx: CheckContext, endpoint: ContractEndpoint, what: string, marketId: string | undefined): { value: unknown } | undefined {
  const example = (found: string) => ({ ...(marketId === undefined ? {} : { marketId }), pointer: '', found, request: facts.request });
  if (facts.status < 200 || facts.status > 299) {
    const code = facts.status === 404 && endpoint === SINGLE_ENDPOINT ? 'not-found' : 'http-status';
    add(ctx, 'error', code, endpoint, '', `a 2xx answer with ${what.replace(/ \(2xx\)$/, '')}`, example(`${facts.status}: ${describeBody(facts.text, facts.contentType)}`));
    return undefined;
  }
  const parsed = parseJsonBody(facts.text);
  if (!parsed.ok) {
    add(ctx, 'error', 'not-json', endpoint, '', `a JSON body holding ${what.replace(/ \(2xx\)$/, '')}`, example(describeBody(facts.text, facts.contentType)));
    return undefined;
  }
  if (!isJsonMediaType(facts.contentType)) {
    add(ctx, 'warning', 'content-type', endpoint, '', 'Content-Type application/json (or a +json type) for a JSON body', example(facts.contentType ?? 'no Content-Type'));
  }
  return { value: parsed.value };
}

/** Warnings from `$defs/MarketAssumptions` and the domain rules in market-rules.ts (float noise, yes + no = 1). */
function checkAssumptions(
  record: Record<string, unknown>, ctx: CheckContext, endpoint: ContractEndpoint, template: string, at: string, id: string | undefined, request: string,
  errorPointers: Set<string> | undefined, fast: ReturnType<typeof getMarketValidator>, full: ReturnType<typeof getMarketValidator>,
): void {
  if (fast.assumptions(record).length > 0) {
    for (const f of full.assumptions(record)) {
      // A field that already breaks the contract (a price sent as a string) is reported once, as the error.
      if (errorPointers?.has(f.pointer)) continue;
      addSchemaFinding(ctx, f, endpoint, template, at, id, request);
    }
  }
  const yes = record['yes_price'];
  const no = record['no_price'];
  for (const [field, value] of [['yes_price', yes], ['no_price', no]] as const) {
    if (typeof value === 'number' && hasFloatNoise(value)) {
      add(ctx, 'warning', 'float-noise', endpoint, `${template}/${field}`, 'a price without binary float noise (at most 6 decimals in its JSON text)', { ...(id === undefined ? {} : { marketId: id }), pointer: `${at}/${field}`, found: String(value), request });
    }
  }
  if (typeof yes === 'number' && typeof no === 'number' && Number.isFinite(yes) && Number.isFinite(no)) {
    const deviation = priceSumDeviation(yes, no);
    if (deviation > PRICE_SUM_TOLERANCE) {
      const sum = (Math.round(yes * 1e6) + Math.round(no * 1e6)) / 1e6;
      add(ctx, 'warning', 'price-sum', endpoint, template, `yes_price + no_price within ${PRICE_SUM_TOLERANCE} of 1`, { ...(id === undefined ? {} : { marketId: id }), pointer: at, found: `${yes} + ${no} = ${sum}`, request });
    }
  }
}

/** List and single must agree on title and status (errors); prices may move between the two requests (warning). */
function compareWithList(record: Record<string, unknown>, listed: ListedMarket, ctx: CheckContext, example: (pointer: string, found: string) => { marketId: string; pointer: string; found: string; request: string }): void {
  for (const field of ['title', 'status'] as const) {
    const a = listed[field];
    const b = record[field];
    if (typeof a === 'string' && typeof b === 'string' && a !== b) {
      add(ctx, 'error', 'list-single-mismatch', SINGLE_ENDPOINT, `/${field}`, `the ${field} the list shows (${describeFound(a, 40)})`, example(`/${field}`, describeFound(b, 40)));
    }
  }
  for (const field of ['yes_price', 'no_price'] as const) {
    const a = listed[field];
    const b = record[field];
    if (typeof a === 'number' && typeof b === 'number' && a !== b) {
      add(ctx, 'warning', 'price-moved', SINGLE_ENDPOINT, `/${field}`, `the ${field} the list shows (${a})`, example(`/${field}`, String(b)));
    }
  }
}

function addSchemaFinding(ctx: CheckContext, f: Finding, endpoint: ContractEndpoint, template: string, at: string, id: string | undefined, request: string): void {
  add(ctx, f.severity, f.code, endpoint, `${template}${f.pointer}`, f.expected, { ...(id === undefined ? {} : { marketId: id }), pointer: `${at}${f.pointer}`, found: f.found, request });
}

function addUndocumented(ctx: CheckContext, endpoint: ContractEndpoint, template: string, basePointer: string, extra: Map<string, { count: number; first: number[]; ids: (string | undefined)[] }>, request: string): void {
  for (const [name, tally] of extra) {
    const field = `/${pointerToken(name)}`;
    const examples = tally.ids.map((id, k) => ({
      ...(id === undefined ? {} : { marketId: id }),
      pointer: tally.first[k] === undefined ? field : `${basePointer}/${tally.first[k]}${field}`,
      found: `undocumented field ${JSON.stringify(name)}`,
      request,
    }));
    examples.forEach((example, k) => {
      // The first example carries the rest of the count, so one page adds `count` in total.
      const count = k === 0 ? tally.count - (examples.length - 1) : 1;
      ctx.sink.add({
        severity: 'info', code: 'undocumented-field', endpoint, pointerTemplate: `${template}${field}`,
        expected: 'only documented fields (extra fields are allowed; listed for information)', example,
        message: `undocumented field ${JSON.stringify(name)} at ${template}${field}`,
      }, count);
    });
  }
}

function add(ctx: CheckContext, severity: Severity, code: string, endpoint: ContractEndpoint, pointerTemplate: string, expected: string, example: { marketId?: string; pointer: string; found: string; request?: string }): void {
  ctx.sink.add({ severity, code, endpoint, pointerTemplate, expected, example });
}

/** The id a list item names: its market_id when a non-empty string, or the decimal text of a numeric one. */
export function listedId(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const id = (item as Record<string, unknown>)['market_id'];
  if (typeof id === 'string') return id === '' ? undefined : id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

/** `market` or `data` when the single body is an object wrapping a market under that one key (Kalshi's `{"market": {…}}`). */
function singleEnvelopeKey(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  if ('market_id' in record) return undefined;
  for (const key of ['market', 'data']) {
    const inner = record[key];
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && 'market_id' in inner) return key;
  }
  return undefined;
}
