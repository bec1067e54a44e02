import { describeNormalisationDifference, normalisationNote, normalisedVariant } from './unicode-difference.js';
import { hasFloatNoise, isCalendarDate, priceSumDeviation, PRICE_SUM_TOLERANCE } from '../../floor/market-rules.js';
import { getMarketValidator } from '../../schema/market-validator.js';
import { describeFound, pointerToken, type Finding } from '../../schema/finding.js';
import type { Market } from '../../schema/generated/market-types.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT, type ContractEndpoint, type FindingExample, type Severity } from './contract-finding.js';
import { createFindingAggregator, type FindingAggregator } from './finding-aggregator.js';
import { readJsonText, type JsonAnomaly, type JsonReadResult } from '../http-client/index.js';
import { findMarketArray, isGraphqlResponse, marketOfItem, type ItemWrapper, type ListShape } from '../paging/index.js';
import { ErrorsSeen, errorsBesideList, graphqlWithoutList, nullItem } from './partial-failure.js';
import { schemaFindingCode, type FindingCode } from '../../floor/finding-codes.js';
import { ListedMarkets, sameText, type ListedMarket } from './listed-markets.js';
import type { JsonInputError } from '../../floor/bounded-json.js';
import { listedId, singleEnvelopeKey } from './market-identity.js';
import { charsetOf, describeBody, describeValue, documentedMarketFields, isJsonMediaType } from './body-description.js';
import { jsonRuleObservation, marketRuleBroken } from './json-rule-finding.js';

/** What the checks need to know about one HTTP answer (never its headers' values beyond these). */
export interface ResponseFacts {
  /** Path and query of the request (for examples; never headers). */
  request: string;
  status: number;
  contentType: string | undefined;
  /** The request carried a validator (`If-None-Match`, `If-Modified-Since`): a 304 answers it (the proxy's clients may send them; the crawl never does). */
  conditional?: boolean;
}

/** Shared state of the checks: where findings go and which date counts as today. */
export interface CheckContext {
  sink: FindingAggregator;
  /** Today's date, YYYY-MM-DD (UTC): an active market resolving before it gets a warning. */
  today: string;
}

/** A list page whose market array was found. */
export interface ListPage {
  /** The top-level value, with the streamed market array replaced by its item count. */
  body: unknown;
  shape: ListShape;
  /** Every item of this (later) page was listed on an earlier page: the paging looped back (its duplicates are not reported one by one). */
  repeats: boolean;
  /** The market_id of the array's last item, when it named one (Stripe-style paging continues after it). */
  lastId: string | undefined;
}

type Validators = ReturnType<typeof getMarketValidator>;
type Tally = Map<string, { count: number; first: number[]; ids: (string | undefined)[] }>;

/**
 * Checks the status of an answer where a market (list) was expected: a non-2xx is an error
 * (`not-found` for a 404 on the single endpoint, `http-status` otherwise; `retry-exhausted` when
 * retries of a 429/503 were used up; `unconditional-not-modified` for a 304 to a request that sent no
 * validator, RFC 9110 §15.4.5: the client has no stored body the 304 could refer to; a 304 to a
 * conditional request is its answer, no finding). `preview` is the start of the body, for the example.
 * @returns true for a 2xx answer.
 */
export function checkStatus(facts: ResponseFacts, preview: { text: string; bytes: number }, ctx: CheckContext, endpoint: ContractEndpoint, what: string, marketId?: string, retriesExhausted?: string): boolean {
  if (facts.status >= 200 && facts.status <= 299) return true;
  if (facts.status === 304) {
    if (facts.conditional !== true) add(ctx, 'error', 'unconditional-not-modified', endpoint, '', `a 2xx answer with ${what}: a request without If-None-Match or If-Modified-Since is never answered 304 Not Modified (RFC 9110 §13.2.1, §15.4.5)`, example(facts, `304 Not Modified to a request that sent no validator; no body to read`, marketId));
    return false;
  }
  const found = `${facts.status}: ${describeBody(preview.text, facts.contentType, preview.bytes)}`;
  if (retriesExhausted !== undefined) {
    add(ctx, 'error', 'retry-exhausted', endpoint, '', `an answer with ${what} within the retry budget`, example(facts, `${retriesExhausted}; last answer ${found}`, marketId));
  } else {
    const code = facts.status === 404 && endpoint === SINGLE_ENDPOINT ? 'not-found' : 'http-status';
    add(ctx, 'error', code, endpoint, '', `a 2xx answer with ${what}`, example(facts, found, marketId));
  }
  return false;
}

/**
 * Warnings about how a body is encoded: a UTF-8 byte-order mark (RFC 8259 §8.1: implementations
 * MUST NOT add one) and a `charset` other than UTF-8 (JSON text exchanged between systems MUST be
 * UTF-8, RFC 8259 §8.1). The body is then read as UTF-8 anyway, as `Response.text()` would.
 */
export function checkEncoding(facts: ResponseFacts, bom: boolean, ctx: CheckContext, endpoint: ContractEndpoint, marketId?: string): void {
  if (bom) add(ctx, 'warning', 'bom', endpoint, '', 'a JSON body without a byte-order mark (RFC 8259 §8.1)', example(facts, 'the bytes EF BB BF (a UTF-8 byte-order mark) before the JSON text; ignored', marketId));
  const charset = charsetOf(facts.contentType);
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    add(ctx, 'warning', 'charset', endpoint, '', 'UTF-8 JSON (RFC 8259 §8.1): no charset, or charset=utf-8', example(facts, `Content-Type ${JSON.stringify(facts.contentType)}; the body was read as UTF-8`, marketId));
  }
}

/** A warning for something JSON.parse hides (a duplicate member name, a number that is not a finite double). */
export function addAnomaly(anomaly: JsonAnomaly, facts: ResponseFacts, ctx: CheckContext, endpoint: ContractEndpoint, marketId?: string): void {
  const template = anomaly.pointer.replace(/\/\d+(?=\/|$)/g, '/*');
  if (anomaly.kind === 'duplicate-member') {
    add(ctx, 'warning', 'duplicate-member', endpoint, template, 'each member name once per object (RFC 8259 §4)', example(facts, `${anomaly.literal} ${anomaly.detail}`, marketId, anomaly.pointer));
  } else {
    add(ctx, 'warning', 'unsafe-number', endpoint, template, 'a number that fits a double exactly (RFC 8259 §6)', example(facts, `${anomaly.literal}: ${anomaly.detail}`, marketId, anomaly.pointer));
  }
}

/** Unsafe number literals of one body by pointer, so a schema finding can show `1e400` where JSON.parse made Infinity (written as null). */
class UnsafeLiterals {
  private readonly byPointer = new Map<string, string>();
  note(anomaly: JsonAnomaly): void {
    if (anomaly.kind === 'unsafe-number' && this.byPointer.size < 1_000) this.byPointer.set(anomaly.pointer, anomaly.literal);
  }
  found(pointer: string, found: string): string {
    const literal = this.byPointer.get(pointer);
    return literal === undefined ? found : `${literal} (JSON.parse gives ${Number(literal)}, written as ${found})`;
  }
}

/**
 * Checks a 2xx `GET /markets/{market_id}` body (status already checked): JSON (with anomalies),
 * content type, `$defs/Market` (errors), assumptions (warnings), list consistency and extra fields.
 * `listed` is the market as the list showed it.
 * @returns the body as a Market when it meets `$defs/Market` and carries the id asked for (what
 *   `record` may write), else undefined.
 */
export function checkSingleBody(facts: ResponseFacts, text: string, requestedId: string, listed: ListedMarket | undefined, ctx: CheckContext): Market | undefined {
  const literals = new UnsafeLiterals();
  const parsed = readJsonText(text, (anomaly) => {
    literals.note(anomaly);
    addAnomaly(anomaly, facts, ctx, SINGLE_ENDPOINT, requestedId);
  });
  if (!parsed.ok && parsed.rule) {
    ctx.sink.add(jsonRuleObservation(parsed.rule, SINGLE_ENDPOINT, facts.request, requestedId));
    return undefined;
  }
  if (!parsed.ok) {
    add(ctx, 'error', 'not-json', SINGLE_ENDPOINT, '', 'a JSON body holding the listed market', example(facts, `${describeBody(text, facts.contentType)} (${parsed.reason})`, requestedId));
    return undefined;
  }
  if (!isJsonMediaType(facts.contentType)) add(ctx, 'warning', 'content-type', SINGLE_ENDPOINT, '', 'Content-Type application/json (or a +json type) for a JSON body', example(facts, facts.contentType ?? 'no Content-Type', requestedId));
  const doc = parsed.value;
  const broken = marketRuleBroken(doc);
  if (broken) {
    ctx.sink.add(jsonRuleObservation(broken, SINGLE_ENDPOINT, facts.request, requestedId));
    return undefined;
  }
  const at = (pointer: string, found: string) => example(facts, found, requestedId, pointer);
  const wrapped = singleEnvelopeKey(doc);
  if (wrapped !== undefined) {
    add(ctx, 'error', 'single-envelope', SINGLE_ENDPOINT, '', 'a Market object at the top level (market_id, title, … as body fields)', at('', `the market wrapped in ${JSON.stringify(wrapped)}`));
    return undefined;
  }
  const fast = getMarketValidator({ allErrors: false });
  const full = getMarketValidator({ allErrors: true });
  let errorPointers: Set<string> | undefined;
  const valid = fast.isMarket(doc);
  if (!valid) {
    const findings = full.market(doc);
    errorPointers = new Set(findings.map((f) => f.pointer));
    for (const f of findings) addSchemaFinding(ctx, f, SINGLE_ENDPOINT, '', '', requestedId, facts.request, literals);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  checkAssumptions(record, ctx, SINGLE_ENDPOINT, '', '', requestedId, facts.request, errorPointers, fast, full, literals);
  const date = record['resolution_date'];
  if (record['status'] === 'active' && typeof date === 'string' && isCalendarDate(date) && date < ctx.today) {
    add(ctx, 'warning', 'past-resolution-date', SINGLE_ENDPOINT, '/resolution_date', `a date on or after ${ctx.today} for an active market`, at('/resolution_date', JSON.stringify(date)));
  }
  const id = record['market_id'];
  const idMatches = typeof id !== 'string' || id === requestedId;
  if (!idMatches) {
    const [expected, found] = distinctTexts(requestedId, id, 60);
    add(ctx, 'error', 'id-mismatch', SINGLE_ENDPOINT, '/market_id', `the market_id asked for (${expected})`, at('/market_id', found));
  }
  if (listed) compareWithList(record, listed, ctx, at);
  const extra: Tally = new Map();
  for (const key in record) if (!documentedMarketFields().has(key)) extra.set(key, { count: 1, first: [], ids: [requestedId] });
  addUndocumented(ctx, SINGLE_ENDPOINT, '', '', extra, facts.request);
  return valid && idMatches ? (doc as Market) : undefined;
}

/** Receives a list page as it streams (JsonReaderEvents), then judges it at the end. */
export interface ListPageChecker {
  onArray(at: string): void;
  onItem(at: string, index: number, value: unknown): void;
  onAnomaly(anomaly: JsonAnomaly): void;
  onRefusedItem(at: string, index: number, error: JsonInputError): void;
  /** Judges the page once its body is read: JSON, shape, content type; commits the market array's findings and markets. */
  finish(result: JsonReadResult, laterPage?: boolean, head?: { text: string; bytes: number }): ListPage | undefined;
}

/** Where one market array's items go while it streams. */
interface ItemTarget {
  sink: FindingAggregator;
  listed: ListedMarkets;
  basePointer: string;
  extra: Tally;
  /** duplicate-id warnings of this array, held until the page is judged (a page that repeats an earlier one is one cursor-loop, not a warning per item). */
  duplicates: FindingAggregator;
  items: number;
  duplicated: number;
  lastId?: string | undefined;
  /** Where the first item held its market (list-envelope.ts, itemWrapper): JSON:API attributes, Siren properties. */
  wrapper?: ItemWrapper;
}

/**
 * A checker for one `GET /markets` answer with a 2xx status. Items of every candidate array
 * (json-body-reader.ts, by pointer) are checked as they stream (checkListItem), each read through
 * its wrapper (list-envelope.ts, marketOfItem): a bare array's straight into `ctx.sink` and
 * `listed`; an envelope's arrays (the market array is known only at the end: list-envelope.ts,
 * findMarketArray) each into their own findings and listing, and only the winner's are committed.
 * A top-level `errors` array beside the list and `null` items are partial failures (partial-failure.ts).
 *
 * `traversal`: `crawl` counts an id listed on an earlier page (in `listed`) as a duplicate and
 * keeps the first listing; `proxy` sees the list again and again, so only duplicates within one
 * page count and a later listing replaces an earlier one.
 */
export function createListPageChecker(facts: ResponseFacts, ctx: CheckContext, listed: ListedMarkets, traversal: 'crawl' | 'proxy'): ListPageChecker {
  const fast = getMarketValidator({ allErrors: false });
  const full = getMarketValidator({ allErrors: true });
  const literals = new UnsafeLiterals();
  const candidates = new Map<string, ItemTarget>();
  const errors = new ErrorsSeen();
  const isDuplicate = (target: ItemTarget, id: string) => (traversal === 'crawl' && listed.has(id)) || target.listed.has(id);
  // Anomalies inside a list item arrive before the item is complete: held until its market_id is known, so the finding names the market.
  const pending: JsonAnomaly[] = [];
  const report = (anomaly: JsonAnomaly, marketId?: string) => addAnomaly(anomaly, facts, ctx, LIST_ENDPOINT, marketId);

  return {
    onArray(at) {
      const fresh = { extra: new Map(), duplicates: createFindingAggregator(), items: 0, duplicated: 0 };
      // A bare array is the list: its findings and markets go straight to the crawl's.
      candidates.set(at, at === '' ? { sink: ctx.sink, listed: traversal === 'crawl' ? listed : new ListedMarkets(), basePointer: '', ...fresh } : { sink: createFindingAggregator(), listed: new ListedMarkets(), basePointer: at, ...fresh });
    },
    onItem(at, index, value) {
      if (at === '/errors') errors.note(value);
      const target = candidates.get(at);
      const { market, wrapper } = marketOfItem(at, value);
      if (target) {
        target.wrapper ??= wrapper;
        checkListItem(market, index, target, { ...ctx, sink: target.sink }, facts.request, fast, full, literals, isDuplicate, wrapper);
        target.lastId = listedId(market);
      }
      if (pending.length > 0) {
        const item = `${at}/${index}`;
        const id = listedId(market);
        for (const anomaly of pending.splice(0)) report(anomaly, anomaly.pointer === item || anomaly.pointer.startsWith(`${item}/`) ? id : undefined);
      }
    },
    onRefusedItem(at, index, error) {
      const target = candidates.get(at);
      if (target) target.sink.add(jsonRuleObservation(error, LIST_ENDPOINT, facts.request, undefined, '', `${target.basePointer}/${index}`));
    },
    onAnomaly(anomaly) {
      literals.note(anomaly);
      if (pending.length < MAX_PENDING_ANOMALIES && ITEM_POINTER.test(anomaly.pointer)) pending.push(anomaly);
      else report(anomaly);
    },
    finish(result, laterPage = false, head) {
      for (const anomaly of pending.splice(0)) report(anomaly);
      if (!result.ok && result.rule) {
        ctx.sink.add(jsonRuleObservation(result.rule, LIST_ENDPOINT, facts.request));
        return undefined;
      }
      if (!result.ok) {
        const found = head ? describeBody(head.text, facts.contentType, head.bytes) : facts.contentType ?? 'no Content-Type';
        add(ctx, 'error', 'not-json', LIST_ENDPOINT, '', 'a JSON body holding the market list', example(facts, `${found} (${result.reason})`));
        return undefined;
      }
      if (!isJsonMediaType(facts.contentType)) add(ctx, 'warning', 'content-type', LIST_ENDPOINT, '', 'Content-Type application/json (or a +json type) for a JSON body', example(facts, facts.contentType ?? 'no Content-Type'));
      const shape = judgeShape(result.value, candidates, errors, facts, ctx);
      if (!shape) return undefined;
      const winner = candidates.get(shape.basePointer);
      const repeats = traversal === 'crawl' && laterPage && winner !== undefined && winner.items > 0 && winner.duplicated === winner.items;
      if (winner) commit(winner, ctx, listed, traversal, facts.request, repeats);
      return { body: result.value, shape, repeats, lastId: winner?.lastId };
    },
  };
}

/**
 * Where the market array of a list body is (list-envelope.ts, findMarketArray, told by the
 * candidates where their items held their market), with its partial-failure warning (`errors`
 * beside it); undefined, after a `list-shape` error naming what came, when there is none.
 */
function judgeShape(body: unknown, candidates: ReadonlyMap<string, ItemTarget>, errors: ErrorsSeen, facts: ResponseFacts, ctx: CheckContext): ListShape | undefined {
  const shape = findMarketArray(body, (at) => candidates.get(at)?.wrapper ?? '');
  if (!shape) {
    const found = isGraphqlResponse(body) ? graphqlWithoutList(body as Record<string, unknown>, errors) : describeValue(body);
    add(ctx, 'error', 'list-shape', LIST_ENDPOINT, '', 'a JSON array of markets, or an object holding one under markets, data, results or items, or a GraphQL, HAL, JSON:API, Siren or OData envelope of one', example(facts, found));
    return undefined;
  }
  if (shape.kind === 'envelope' && errors.count > 0) ctx.sink.add(errorsBesideList(errors, shape, facts.request));
  return shape;
}

/** A pointer inside an item of a market-array candidate: `/3/…` (bare array), `/markets/3/…` or `/data/markets/3/…` (envelopes). */
const ITEM_POINTER = /^(\/[^/]+){0,2}\/\d+(\/|$)/;
/** Anomalies held for one item at most; past this they are reported without the market's id (bounded memory for a hostile item). */
const MAX_PENDING_ANOMALIES = 1000;

/** Moves a market array's findings and listing into the crawl's, and reports its extra fields. */
function commit(target: ItemTarget, ctx: CheckContext, listed: ListedMarkets, traversal: 'crawl' | 'proxy', request: string, repeats: boolean): void {
  if (target.sink !== ctx.sink) for (const finding of target.sink.findings()) ctx.sink.merge(finding);
  if (!repeats) for (const finding of target.duplicates.findings()) ctx.sink.merge(finding);
  if (target.listed !== listed) listed.absorb(target.listed, traversal === 'proxy');
  const wrapper = target.wrapper ?? '';
  addUndocumented(ctx, LIST_ENDPOINT, `${target.basePointer}/*${wrapper}`, target.basePointer, target.extra, request, wrapper);
}

/**
 * Checks one list item (the market it holds, `wrapper` below it: JSON:API `attributes`, Siren
 * `properties`) against `$defs/MarketSummary` (errors; a `null` item is a partial failure),
 * `$defs/MarketAssumptions` and the domain rules (warnings), tallies undocumented fields (info) and records the market in
 * `target.listed`; an id listed before is a duplicate (warning, the first listing is kept).
 *
 * Fast path: a conforming item costs one compiled boolean validation and a few comparisons; only
 * failing items are validated again with `allErrors` to build findings.
 */
function checkListItem(
  item: unknown, index: number, target: ItemTarget, ctx: CheckContext, request: string, fast: Validators, full: Validators, literals: UnsafeLiterals,
  isDuplicate: (target: ItemTarget, id: string) => boolean, wrapper: ItemWrapper,
): void {
  const at = `${target.basePointer}/${index}${wrapper}`;
  const template = `${target.basePointer}/*${wrapper}`;
  if (item === null) {
    ctx.sink.add(nullItem(at, template, request));
    return;
  }
  const id = listedId(item);
  const broken = marketRuleBroken(item);
  if (broken) {
    ctx.sink.add(jsonRuleObservation(broken, LIST_ENDPOINT, request, id, at));
    return;
  }
  let errorPointers: Set<string> | undefined;
  if (!fast.isSummary(item)) {
    const findings = full.summary(item);
    errorPointers = new Set(findings.map((f) => f.pointer));
    for (const f of findings) addSchemaFinding(ctx, f, LIST_ENDPOINT, template, at, id, request, literals);
  }
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
  const record = item as Record<string, unknown>;
  checkAssumptions(record, ctx, LIST_ENDPOINT, template, at, id, request, errorPointers, fast, full, literals);
  const documented = documentedMarketFields();
  for (const key in record) {
    if (documented.has(key)) continue;
    let tally = target.extra.get(key);
    if (!tally) target.extra.set(key, (tally = { count: 0, first: [], ids: [] }));
    tally.count++;
    if (tally.first.length < 3) {
      tally.first.push(index);
      tally.ids.push(id);
    }
  }
  target.items++;
  if (id === undefined) return;
  if (isDuplicate(target, id)) {
    target.duplicated++;
    add({ ...ctx, sink: target.duplicates }, 'warning', 'duplicate-id', LIST_ENDPOINT, `${template}/market_id`, 'each market_id listed once', { marketId: id, pointer: `${at}/market_id`, found: `${describeFound(id)} listed again`, request });
    return;
  }
  target.listed.set(id, record);
}

/** Warnings from `$defs/MarketAssumptions` and the domain rules in market-rules.ts (float noise, yes + no = 1). */
function checkAssumptions(
  record: Record<string, unknown>, ctx: CheckContext, endpoint: ContractEndpoint, template: string, at: string, id: string | undefined, request: string,
  errorPointers: Set<string> | undefined, fast: Validators, full: Validators, literals: UnsafeLiterals,
): void {
  if (fast.assumptions(record).length > 0) {
    for (const f of full.assumptions(record)) {
      // A field that already breaks the contract (a price sent as a string) is reported once, as the error.
      if (errorPointers?.has(f.pointer)) continue;
      addSchemaFinding(ctx, f, endpoint, template, at, id, request, literals);
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
function compareWithList(record: Record<string, unknown>, listed: ListedMarket, ctx: CheckContext, at: (pointer: string, found: string) => FindingExample): void {
  for (const field of ['title', 'status'] as const) {
    const a = listed[field];
    const b = record[field];
    if (a !== undefined && typeof b === 'string' && !sameText(a, b)) {
      // A long listed text is kept as a prefix and a hash: a normalised form of the item's text with that hash is the listed text.
      const whole = a.complete ? a.shown : normalisedVariant(b, (candidate) => sameText(a, candidate));
      const [expected, found] = whole === undefined ? [describeFound(a.shown, 40), describeFound(b, 40)] : distinctTexts(whole, b, 40);
      add(ctx, 'error', 'list-single-mismatch', SINGLE_ENDPOINT, `/${field}`, `the ${field} the list shows (${expected})`, at(`/${field}`, found));
    }
  }
  for (const field of ['yes_price', 'no_price'] as const) {
    const a = listed[field];
    const b = record[field];
    if (a !== undefined && typeof b === 'number' && Number.isFinite(b) && a !== b) {
      add(ctx, 'warning', 'price-moved', SINGLE_ENDPOINT, `/${field}`, `the ${field} the list shows (${a})`, at(`/${field}`, String(b)));
    }
  }
}

/**
 * The expected and found text of a mismatch as a finding shows them: JSON text, or, for two strings
 * that differ only by Unicode normalisation, with the code points where they differ and the form
 * each is in (unicode-difference.ts), so the finding never reads `expected "X", found "X"`.
 */
function distinctTexts(expected: string, found: unknown, max: number): [string, string] {
  const differs = typeof found === 'string' ? describeNormalisationDifference(expected, found, max) : undefined;
  if (!differs) return [describeFound(expected, max), describeFound(found, max)];
  return [differs.a, `${differs.b}: ${normalisationNote(differs.equivalence)}`];
}

function addSchemaFinding(ctx: CheckContext, f: Finding, endpoint: ContractEndpoint, template: string, at: string, id: string | undefined, request: string, literals: UnsafeLiterals): void {
  const pointer = `${at}${f.pointer}`;
  add(ctx, f.severity, schemaFindingCode(f.code), endpoint, `${template}${f.pointer}`, f.expected, { ...(id === undefined ? {} : { marketId: id }), pointer, found: literals.found(pointer, f.found), request });
}

/**
 * The undocumented members of a page's items (or of one market) as one `undocumented-field`
 * finding per endpoint and place (`/*` for a list's items, `/` for a market): the names are
 * tallied in it (Observation.name; the aggregator keeps every name for the JSON report and sums
 * them up in a bounded sentence, name-tally.ts), with at most three examples.
 */
function addUndocumented(ctx: CheckContext, endpoint: ContractEndpoint, template: string, basePointer: string, extra: Tally, request: string, wrapper: ItemWrapper = ''): void {
  for (const [name, tally] of extra) {
    const field = `/${pointerToken(name)}`;
    tally.ids.forEach((id, k) => {
      // The first example carries the rest of the count, so one page adds `count` in total.
      const count = k === 0 ? tally.count - (tally.ids.length - 1) : 1;
      const example = { ...(id === undefined ? {} : { marketId: id }), pointer: tally.first[k] === undefined ? field : `${basePointer}/${tally.first[k]}${wrapper}${field}`, found: `undocumented member ${JSON.stringify(name)}`, request };
      ctx.sink.add({ severity: 'info', code: 'undocumented-field', endpoint, pointerTemplate: template, expected: 'only documented fields (extra fields are allowed; listed for information)', example, name }, count);
    });
  }
}

function example(facts: ResponseFacts, found: string, marketId?: string, pointer = ''): FindingExample {
  return { ...(marketId === undefined ? {} : { marketId }), pointer, found, request: facts.request };
}

function add(ctx: CheckContext, severity: Severity, code: FindingCode, endpoint: ContractEndpoint, pointerTemplate: string, expected: string, ex: FindingExample): void {
  ctx.sink.add({ severity, code, endpoint, pointerTemplate, expected, example: ex });
}
