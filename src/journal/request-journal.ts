/** One request as the stub saw it. */
export interface JournalEntry {
  /** 1-based sequence number since start (or the last clear). */
  seq: number;
  /** ISO 8601 time the request arrived. */
  time: string;
  method: string;
  /** Path without the query, still percent-encoded as sent. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** Response status; null when the connection was reset before a response. */
  status: number | null;
  /** Time to the end of the response, ms. */
  durationMs: number;
  /** Behaviours applied (`delay=200`, `fault=reset (rule r1)`); empty when none. */
  behaviour: string[];
}

/** What the request path hands the journal: JournalEntry without `seq`, with `timeMs` and the raw `query` string. */
export type RawJournalEntry = Omit<JournalEntry, 'seq' | 'time' | 'query'> & { timeMs: number; query: string };

/** Which entries to return: every given field must match. */
export interface JournalFilter {
  method?: string;
  /** Exact path, as sent (`/markets/abc`). */
  path?: string;
  /** Path prefix (`/markets/`). */
  pathPrefix?: string;
  status?: number;
  /** Keep only the newest N matching entries (count ignores it). */
  limit?: number;
}

/** A bounded ring buffer of requests: memory stays flat under any load. */
export interface RequestJournal {
  readonly capacity: number;
  /** Entries held now (≤ capacity). */
  size(): number;
  /** Requests recorded since start or clear, including those the ring has dropped. */
  total(): number;
  /** Records one request. Cheap on purpose (it runs per request): the time is epoch ms and the query the raw string; both are turned into JournalEntry fields only when read. */
  record(entry: RawJournalEntry): void;
  /** Matching entries, oldest first; `filter.limit` keeps the newest. */
  list(filter?: JournalFilter): JournalEntry[];
  count(filter?: JournalFilter): number;
  clear(): void;
}

/**
 * Creates a journal holding the last `capacity` requests (WireMock's unbounded journal ran out of
 * memory under load: FIELD-NOTES §4.6).
 * @throws RangeError when capacity is not an integer ≥ 0.
 */
export function createRequestJournal(capacity: number): RequestJournal {
  if (!Number.isSafeInteger(capacity) || capacity < 0) throw new RangeError(`journal size must be an integer ≥ 0, got ${capacity}`);
  type Held = RawJournalEntry & { seq: number };
  let ring: (Held | undefined)[] = new Array<Held | undefined>(capacity);
  let seq = 0;
  const matches = (e: Held, f: JournalFilter) =>
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path === f.path) &&
    (f.pathPrefix === undefined || e.path.startsWith(f.pathPrefix)) &&
    (f.status === undefined || e.status === f.status);
  const ordered = (): Held[] => {
    const out: Held[] = [];
    const held = Math.min(seq, capacity);
    for (let i = seq - held; i < seq; i++) {
      const e = ring[i % capacity];
      if (e) out.push(e);
    }
    return out;
  };
  return {
    capacity,
    size: () => Math.min(seq, capacity),
    total: () => seq,
    record(entry) {
      seq += 1;
      if (capacity > 0) ring[(seq - 1) % capacity] = { ...entry, seq };
    },
    list(filter = {}) {
      const limit = filter.limit;
      const all = ordered().filter((e) => matches(e, filter));
      return (limit === undefined ? all : all.slice(Math.max(0, all.length - limit))).map(toEntry);
    },
    count: (filter = {}) => ordered().filter((e) => matches(e, filter)).length,
    clear() {
      ring = new Array<Held | undefined>(capacity);
      seq = 0;
    },
  };
}

function toEntry(e: RawJournalEntry & { seq: number }): JournalEntry {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(e.query)) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return { seq: e.seq, time: new Date(e.timeMs).toISOString(), method: e.method, path: e.path, query, headers: e.headers, status: e.status, durationMs: e.durationMs, behaviour: e.behaviour };
}
