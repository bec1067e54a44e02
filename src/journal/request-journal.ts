import { optionError } from '../floor/market-stub-error.js';
import { choice, int, readTyped } from '../floor/option-kind.js';
import { createTextSlots } from './journal-slots.js';
import { DEFAULT_JOURNAL_BYTES, MAX_ENTRY_HEADER_BYTES, MAX_JOURNAL_BODY_BYTES, MAX_JOURNAL_BYTES, MAX_JOURNAL_ENTRIES, MAX_JOURNAL_READ } from '../floor/limits.js';
import { readTraceparent, type TraceParent } from './trace-context.js';
import { secretNames, type SecretNames } from '../floor/secret-names.js';
import { formatInstant } from '../floor/instant.js';
import type { Explanation } from './explanation.js';

/** One request as the stub saw it. */
export interface JournalEntry {
  /** 1-based sequence number since start (or the last clear). */
  seq: number;
  /** ISO 8601 time the request arrived (the wall clock). */
  time: string;
  /** The stub instant the answer was computed at (RFC 3339, UTC; the stub clock, catalog/stub-clock.ts). */
  stubTime: string;
  method: string;
  /** Path without the query, still percent-encoded as sent. */
  path: string;
  query: Record<string, string | string[]>;
  /** Headers as received (names lower-cased by Node); the values of secret headers (floor/secret-names.ts: Authorization, Cookie, X-Api-Key…) are `[redacted]` unless the journal keeps headers in full. */
  headers: Record<string, string | string[] | undefined>;
  /** Response status; null when the connection was reset before a response. */
  status: number | null;
  /** Time to the end of the response, ms. */
  durationMs: number;
  /** Behaviours applied (`delay=200`, `fault=reset (rule r1)`); empty when none. */
  behaviour: string[];
  /** Headers left out because the entry's header bytes reached MAX_ENTRY_HEADER_BYTES (absent when none). */
  headersDropped?: number;
  /** Why the answer came (docs/explain.md), when it was explained: the same record as its `Market-Stub-Explain` header. */
  explain?: Explanation;
  /** The W3C Trace Context of the request, when it carried a valid `traceparent` (trace-context.ts). */
  trace?: TraceParent;
  /** The request's `X-Request-Id`, when it carried one. */
  requestId?: string;
}

/** The answer an entry records for the HAR export: the response headers sent and the body, when it is at most MAX_JOURNAL_BODY_BYTES. */
export interface JournaledResponse {
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes (undefined: none kept: a list sent in chunks, a body over the bound, a HEAD). */
  body: Uint8Array | undefined;
  /** The body's size in bytes, -1 when unknown (a list sent in chunks). */
  bodySize: number;
}

/** The response as an adapter hands it to the journal: a Reply's headers and body, or its chunks. */
export interface ResponseRecord {
  headers: Record<string, string>;
  body: Uint8Array;
  chunks?: unknown;
}

/** What the request path hands the journal: JournalEntry without `seq`, with `timeMs` and the raw `query` string. */
export type RawJournalEntry = Omit<JournalEntry, 'seq' | 'time' | 'stubTime' | 'query' | 'explain' | 'trace' | 'requestId'> & { timeMs: number; stubTimeMs: number; query: string; explain?: Explanation | undefined; response?: ResponseRecord | undefined };

/** Which entries to return: every given field must match. */
export interface JournalFilter {
  method?: string;
  /** Exact path, as sent (`/markets/abc`). */
  path?: string;
  /** Path prefix (`/markets/`). */
  pathPrefix?: string;
  status?: number;
  /** The trace-id of the request's `traceparent` (32 lower-case hex digits). */
  traceId?: string;
  /** The request's `X-Request-Id`, exactly. */
  requestId?: string;
  /** Keep only the newest N matching entries, 0–1,000 (MAX_JOURNAL_READ, also the default; count ignores it). */
  limit?: number;
}

/** What a journal entry costs besides its strings (the object, numbers, arrays), in bytes, for the byte bound. */
const ENTRY_OVERHEAD = 200;
/** The behaviour list of entries none applied to. */
const NO_LABELS: string[] = [];

/** How a journal is bounded and what it keeps. */
export interface JournalOptions {
  /** Entries held, 0–MAX_JOURNAL_ENTRIES (0 counts requests and keeps none). */
  capacity: number;
  /** Bytes held (headers, path, query, labels, plus a fixed overhead per entry), 1 KiB–1 GiB. @default 32 MiB */
  maxBytes?: number;
  /** `redacted` (default): secret header values become `[redacted]` (Authorization and Proxy-Authorization keep their scheme, Cookie its names), and so do secret query parameters' values; `full` keeps them. */
  headers?: 'redacted' | 'full';
  /** Header names redacted besides the defaults (floor/secret-names.ts). */
  redactHeaders?: readonly string[];
  /** Query parameter names redacted besides the defaults (floor/secret-names.ts). */
  redactQuery?: readonly string[];
}

/** A bounded ring buffer of requests: memory stays flat under any load. */
export interface RequestJournal {
  readonly capacity: number;
  readonly maxBytes: number;
  /** Entries held now (≤ capacity). */
  size(): number;
  /** Bytes held now, as counted for maxBytes. */
  bytes(): number;
  /** Requests recorded since start or clear, including those the ring has dropped. */
  total(): number;
  /** Records one request. Cheap on purpose (it runs per request): nothing of it stays on the V8 heap (numbers in typed arrays, path, query and headers copied into a reused byte buffer per slot: journal-slots.ts); the time is epoch ms and the query the raw string, both turned into JournalEntry fields only when read. The entry given is not kept. */
  record(entry: RawJournalEntry): void;
  /** Matching entries, oldest first: the newest `filter.limit` (default and at most MAX_JOURNAL_READ). Scans at most `capacity` entries. */
  list(filter?: JournalFilter): JournalEntry[];
  count(filter?: JournalFilter): number;
  /** As `list`, each entry with the response it recorded (the HAR export): read one at a time, as iterated. */
  exchanges(filter?: JournalFilter): Iterable<{ entry: JournalEntry; response: JournaledResponse | undefined }>;
  clear(): void;
}

/**
 * Creates a journal holding the last `capacity` requests within `maxBytes` (an unbounded journal
 * grows with every request until the process runs out of memory under load, as WireMock's did).
 * A number is the capacity.
 * @throws RangeError when capacity or maxBytes is out of range.
 */
export function createRequestJournal(options: number | JournalOptions): RequestJournal {
  const { capacity, maxBytes, headerMode, secrets } = checkJournalOptions(options);
  // Columns of a ring of `capacity` slots (journal-slots.ts: why no entry object is kept).
  const columns = journalColumns(capacity);
  const { costs, text } = columns;
  let head = 0; // slot of the oldest entry
  let held = 0;
  let bytes = 0;
  let seq = 0;
  let run: HeaderRun | undefined; // the last run of answers that repeat their response headers (keptHeadersOf)
  const matches = (slot: number, f: JournalFilter) => slotMatches(columns, slot, f);
  /** The slots of the newest `filter.limit` matching entries (at most MAX_JOURNAL_READ), oldest first. */
  const selected = (filter: JournalFilter) => newestMatching(held, Math.min(filter.limit ?? MAX_JOURNAL_READ, MAX_JOURNAL_READ), (i) => (head + i) % capacity, (slot) => matches(slot, filter));
  const dropOldest = () => {
    bytes -= costs[head] ?? 0;
    releaseSlot(columns, head);
    head = (head + 1) % capacity;
    held -= 1;
  };
  return {
    capacity,
    maxBytes,
    size: () => held,
    bytes: () => bytes,
    total: () => seq,
    record(entry) {
      seq += 1;
      if (capacity === 0) return;
      let headers = entry.headers;
      let headerBytes = plainHeaderBytes(headers, headerMode, secrets);
      let headersDropped = 0;
      if (headerBytes < 0) {
        // A credential to redact or more than MAX_ENTRY_HEADER_BYTES: the only case that copies headers.
        const kept = keptHeaders(headers, headerMode, secrets);
        ({ headers, bytes: headerBytes, dropped: headersDropped } = kept);
      }
      const query = headerMode === 'redacted' ? secrets.redactQuery(entry.query) : entry.query;
      const response = entry.response;
      if (response !== undefined) run = keptHeadersOf(run, response.headers);
      const cost = entryCost(entry, headerBytes, query) + (response === undefined ? 0 : responseCost(response, run?.bytes ?? 0));
      while (held > 0 && (held === capacity || bytes + cost > maxBytes)) dropOldest();
      const slot = (head + held) % capacity;
      writeSlot(columns, slot, seq, entry, cost, headersDropped);
      text.write(slot, entry.path, query, headers);
      writeResponse(columns, slot, entry.method, response, run?.kept);
      held += 1;
      bytes += cost;
    },
    list: (filter = {}) => selected(filter).map((slot) => readEntry(columns, slot)),
    *exchanges(filter = {}) {
      for (const slot of selected(filter)) yield { entry: readEntry(columns, slot), response: readResponse(columns, slot) };
    },
    count(filter = {}) {
      let n = 0;
      for (let i = 0; i < held; i++) if (matches((head + i) % capacity, filter)) n += 1;
      return n;
    },
    clear() {
      clearColumns(columns);
      [head, held, bytes, seq, run] = [0, 0, 0, 0, undefined];
    },
  };
}

/** The ring's columns: numbers in typed arrays, strings in arrays, the texts in journal-slots.ts's slots. */
function journalColumns(capacity: number) {
  return {
    seqs: new Float64Array(capacity),
    times: new Float64Array(capacity),
    stubTimes: new Float64Array(capacity),
    durations: new Float64Array(capacity),
    costs: new Float64Array(capacity),
    /** -1: reset before a response. */
    statuses: new Int32Array(capacity),
    dropped: new Int32Array(capacity),
    methods: new Array<string>(capacity),
    labels: new Array<string[]>(capacity),
    /** Explanations of explained answers (undefined elsewhere): small records the core built for the request, kept as they are. */
    explains: new Array<Explanation | undefined>(capacity),
    text: createTextSlots(capacity),
    /**
     * Response headers: the reply's own headers object, kept as the body is (not copied into text
     * slots as a request's are: the stub built it for this one answer, every adapter has finished it
     * before the exchange is recorded, and nothing writes it after; copying cost each answer about
     * 2 µs, bench/README.md), or the first object of its run when the answers before it had the
     * same names and values (keptHeadersOf). Read back as a fresh object.
     */
    responses: new Array<Readonly<Record<string, string>> | undefined>(capacity),
    /** Response bodies kept for the HAR export (MAX_JOURNAL_BODY_BYTES): the reply's own bytes, not a copy. */
    bodies: new Array<Uint8Array | undefined>(capacity),
    /** -2: no response recorded; -1: a body in chunks (size unknown). */
    bodySizes: new Float64Array(capacity).fill(-2),
  };
}

type JournalColumns = ReturnType<typeof journalColumns>;

/** The kinds of the journal's bounds: the same rows the library's options (runtime/runtime-options.ts) check first. */
const JOURNAL_KINDS = { journalSize: int(0, MAX_JOURNAL_ENTRIES), journalBytes: int(1024, MAX_JOURNAL_BYTES), journalHeaders: choice('redacted', 'full') } as const;

/**
 * The journal's options resolved and checked.
 * @throws MarketStubError OPTION_INVALID (where `journal`) when capacity, maxBytes or headers is out of range.
 */
function checkJournalOptions(options: number | JournalOptions): { capacity: number; maxBytes: number; headerMode: 'redacted' | 'full'; secrets: SecretNames } {
  const { capacity, maxBytes = DEFAULT_JOURNAL_BYTES, headers: headerMode = 'redacted', redactHeaders = [], redactQuery = [] } = typeof options === 'number' ? { capacity: options } : options;
  for (const [option, value] of [['journalSize', capacity], ['journalBytes', maxBytes], ['journalHeaders', headerMode]] as const) {
    const read = readTyped(JOURNAL_KINDS[option], value);
    if (!read.ok) throw optionError('journal', option, read.expected, value);
  }
  return { capacity, maxBytes, headerMode, secrets: secretNames(redactHeaders, redactQuery) };
}

/** Empties every column (clear()). */
function clearColumns(c: JournalColumns): void {
  c.text.clear();
  c.labels.fill(NO_LABELS);
  c.explains.fill(undefined);
  c.responses.fill(undefined);
  c.bodies.fill(undefined);
  c.bodySizes.fill(-2);
}

/** Lets go of a dropped entry's text and labels: memory follows maxBytes, not capacity (journal-slots.ts). */
function releaseSlot(c: JournalColumns, slot: number): void {
  c.text.release(slot);
  c.labels[slot] = NO_LABELS;
  c.explains[slot] = undefined;
  c.responses[slot] = undefined;
  c.bodies[slot] = undefined;
  c.bodySizes[slot] = -2;
}

/** Writes an entry's numbers and labels into its slot (its texts go to the text slots). */
function writeSlot(c: JournalColumns, slot: number, seq: number, entry: RawJournalEntry, cost: number, headersDropped: number): void {
  c.seqs[slot] = seq;
  c.times[slot] = entry.timeMs;
  c.stubTimes[slot] = entry.stubTimeMs;
  c.durations[slot] = entry.durationMs;
  c.costs[slot] = cost;
  c.statuses[slot] = entry.status ?? -1;
  c.dropped[slot] = headersDropped;
  c.methods[slot] = entry.method;
  c.labels[slot] = entry.behaviour;
  c.explains[slot] = entry.explain;
}

/** The slots of the newest `limit` matching entries, oldest first (`slotOf(i)`: the slot of the i-th oldest of `held`). */
function newestMatching(held: number, limit: number, slotOf: (i: number) => number, matches: (slot: number) => boolean): number[] {
  if (limit === 0) return [];
  const newest: number[] = [];
  for (let i = held - 1; i >= 0 && newest.length < limit; i--) {
    const slot = slotOf(i);
    if (matches(slot)) newest.push(slot);
  }
  return newest.reverse();
}

/** Whether the entry in a slot passes a filter (method, status, exact path, path prefix). */
function slotMatches(c: JournalColumns, slot: number, f: JournalFilter): boolean {
  return (f.method === undefined || c.methods[slot] === f.method.toUpperCase()) &&
    (f.status === undefined || c.statuses[slot] === f.status) &&
    (f.path === undefined || c.text.path(slot) === f.path) &&
    (f.pathPrefix === undefined || c.text.path(slot).startsWith(f.pathPrefix)) &&
    (f.traceId === undefined && f.requestId === undefined || traceMatches(c.text.read(slot).headers, f));
}

/** Whether an entry's headers carry the trace-id (of a valid `traceparent`) and the `X-Request-Id` a filter names. */
function traceMatches(headers: RawJournalEntry['headers'], f: JournalFilter): boolean {
  return (f.traceId === undefined || readTraceparent(headers['traceparent'])?.traceId === f.traceId) &&
    (f.requestId === undefined || headers['x-request-id'] === f.requestId);
}

/**
 * Records the response of an entry: the headers object of its run (keptHeadersOf), and its body
 * (kept when at most MAX_JOURNAL_BODY_BYTES; none for HEAD).
 */
function writeResponse(c: JournalColumns, slot: number, method: string, response: ResponseRecord | undefined, headers: Readonly<Record<string, string>> | undefined): void {
  if (response === undefined || headers === undefined) {
    c.bodySizes[slot] = -2;
    return;
  }
  c.responses[slot] = headers;
  const size = response.chunks !== undefined ? -1 : method === 'HEAD' ? 0 : response.body.length;
  c.bodySizes[slot] = size;
  c.bodies[slot] = size > 0 && size <= MAX_JOURNAL_BODY_BYTES ? response.body : undefined;
}

/**
 * A run of answers whose response headers repeat one another (a poller's repeated list, a market
 * read again): the first answer's headers object, which every entry of the run keeps (each
 * answer's own object then dies young instead of being promoted), its names and values in order,
 * and the bytes they count for maxBytes.
 */
interface HeaderRun {
  kept: Readonly<Record<string, string>>;
  names: string[];
  values: string[];
  bytes: number;
}

/**
 * The run an answer's response headers belong to: `run` when they repeat it (the same names with
 * the same values, in the same order: one route builds its headers in one order), else a new run
 * of their own. The headers are compared with the run's by position, up to the first difference;
 * only a new run passes over them again, to list its names and values once.
 */
function keptHeadersOf(run: HeaderRun | undefined, headers: Readonly<Record<string, string>>): HeaderRun {
  if (run !== undefined && repeats(run, headers)) return run;
  const names: string[] = [];
  const values: string[] = [];
  let bytes = 0;
  for (const name in headers) {
    const value = headers[name] ?? '';
    names.push(name);
    values.push(value);
    bytes += name.length + value.length;
  }
  return { kept: headers, names, values, bytes };
}

/** Whether `headers` has exactly the run's names and values, in its order. */
function repeats(run: HeaderRun, headers: Readonly<Record<string, string>>): boolean {
  let i = 0;
  for (const name in headers) {
    if (name !== run.names[i] || headers[name] !== run.values[i]) return false;
    i += 1;
  }
  return i === run.names.length;
}

/** The response recorded in a slot, or undefined when none was. */
function readResponse(c: JournalColumns, slot: number): JournaledResponse | undefined {
  const bodySize = c.bodySizes[slot] ?? -2;
  if (bodySize === -2) return undefined;
  return { headers: { ...c.responses[slot] }, body: c.bodies[slot], bodySize };
}

/** What a response costs the byte bound: its header names and values (`headerBytes`, its run's) and the body bytes kept. */
function responseCost(response: ResponseRecord, headerBytes: number): number {
  const size = response.chunks === undefined ? response.body.length : 0;
  return size <= MAX_JOURNAL_BODY_BYTES ? headerBytes + size : headerBytes;
}

/** The entry in a slot as callers read it (a fresh object; the ring keeps none). */
function readEntry(c: JournalColumns, slot: number): JournalEntry {
  const { path, query, headers } = c.text.read(slot);
  const status = c.statuses[slot] ?? -1;
  const headersDropped = c.dropped[slot] ?? 0;
  const explain = c.explains[slot];
  const trace = readTraceparent(headers['traceparent']);
  const requestId = headers['x-request-id'];
  return {
    seq: c.seqs[slot] ?? 0, time: new Date(c.times[slot] ?? 0).toISOString(), stubTime: formatInstant(c.stubTimes[slot] ?? 0), method: c.methods[slot] ?? '', path, query: parseQuery(query), headers,
    status: status < 0 ? null : status, durationMs: c.durations[slot] ?? 0, behaviour: [...(c.labels[slot] ?? [])],
    ...(headersDropped > 0 ? { headersDropped } : {}),
    ...(explain === undefined ? {} : { explain: structuredClone(explain) }),
    ...(trace === undefined ? {} : { trace }),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/** What an entry costs the byte bound: its header bytes, path, query, method, labels and explanation, plus a fixed overhead. */
function entryCost(entry: RawJournalEntry, headerBytes: number, query: string): number {
  let cost = ENTRY_OVERHEAD + headerBytes + entry.path.length + query.length + entry.method.length;
  for (const label of entry.behaviour) cost += label.length;
  if (entry.explain !== undefined) cost += explanationCost(entry.explain);
  return cost;
}

/** What an explanation costs the byte bound: its strings plus a fixed overhead for its objects. */
function explanationCost(explanation: Explanation): number {
  let cost = ENTRY_OVERHEAD + explanation.instant.length + explanation.profile.envelope.length;
  for (const name of explanation.deviations) cost += name.length;
  for (const label of explanation.behaviour) cost += label.length;
  for (const rule of explanation.rules) cost += rule.id.length + 16;
  return cost;
}

/** Bytes of names and values of the request's headers, or -1 when the entry cannot keep them as they are (one to redact, or more than MAX_ENTRY_HEADER_BYTES). Allocates nothing. */
function plainHeaderBytes(headers: RawJournalEntry['headers'], mode: 'redacted' | 'full', secrets: SecretNames): number {
  let total = 0;
  for (const name in headers) {
    if (mode === 'redacted' && secrets.header(name)) return -1;
    const value = headers[name];
    total += name.length + (typeof value === 'string' ? value.length : Array.isArray(value) ? value.join('').length : 0);
  }
  return total <= MAX_ENTRY_HEADER_BYTES ? total : -1;
}

/**
 * The headers an entry keeps when they cannot be kept as received: redacted (RFC 9110 §11.6.2
 * credentials, RFC 6265 §5.4 cookies) and at most MAX_ENTRY_HEADER_BYTES of names and values, in
 * arrival order.
 */
function keptHeaders(headers: RawJournalEntry['headers'], mode: 'redacted' | 'full', secrets: SecretNames): { headers: RawJournalEntry['headers']; bytes: number; dropped: number } {
  const out: RawJournalEntry['headers'] = {};
  let bytes = 0;
  let dropped = 0;
  for (const name in headers) {
    const raw = headers[name];
    const value = mode === 'redacted' && secrets.header(name) ? (typeof raw === 'string' ? redact(name, raw) : raw?.map(() => '[redacted]')) : raw;
    const size = name.length + (typeof value === 'string' ? value.length : Array.isArray(value) ? value.join('').length : 0);
    if (bytes + size > MAX_ENTRY_HEADER_BYTES) {
      dropped += 1;
      continue;
    }
    out[name] = value;
    bytes += size;
  }
  return { headers: out, bytes, dropped };
}

/** `Bearer abc` → `Bearer [redacted]`; `a=1; b=2` → `a=[redacted]; b=[redacted]`; an API key → `[redacted]`: what was sent, not the secret. */
function redact(name: string, value: string): string {
  if (name === 'cookie') return value.split(';').map((pair) => `${pair.split('=')[0]?.trim() ?? ''}=[redacted]`).join('; ');
  if (name !== 'authorization' && name !== 'proxy-authorization') return '[redacted]';
  const space = value.indexOf(' ');
  return space === -1 ? '[redacted]' : `${value.slice(0, space)} [redacted]`;
}

/** The raw query string as JournalEntry's `query`: each name once, repeated names as arrays. */
function parseQuery(raw: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return query;
}
