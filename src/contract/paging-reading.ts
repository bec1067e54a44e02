import { MARKET_TOTAL_FIELDS, MARKET_TOTAL_HEADERS, PAGE_TOTAL_FIELDS, PAGE_TOTAL_HEADERS, PAGING_DIALECTS, type NextStep, type PageFacts } from './paging-dialects.js';
import { asRecord, countOf, findCount, PAGING_CONTAINERS, shown } from './paging-fields.js';

/** A size the deployment announced for the whole list: in markets or in pages, with where it was read. */
export interface ListTotal {
  of: 'markets' | 'pages';
  value: number;
  /** E.g. `"total": 9` or `X-Total-Count: 9`. */
  evidence: string;
}

/** What a page says about paging. */
export interface PagingReading {
  /** The dialect that read the page: the one followed, or the one that read it as the last page. */
  dialect?: string;
  /** What carried the signal (`link`, a field path, a header name). */
  signal?: string;
  /** The evidence in words. */
  evidence?: string;
  /** The page to fetch next. */
  next?: NextStep;
  /** Evidence of more pages that no dialect can follow (an unknown paging key, `has_more` without a last id…). */
  stuck?: string;
  /** Sizes of the whole list the page announced. */
  totals: ListTotal[];
}

/** Names that, on an envelope member or an `X-` header no dialect reads, signal more pages. */
const SIGNAL_NAME = /next|cursor|continu|more|token/i;
/** Members and headers looked at when searching for an unknown paging key (a hostile envelope costs no more). */
const MAX_SCANNED = 256;

const KNOWN_KEYS: ReadonlySet<string> = new Set(PAGING_DIALECTS.flatMap((d) => d.keys));

/**
 * Reads the paging of one list page: every dialect of PAGING_DIALECTS in order, the first giving
 * a next page wins; else the first reading the page as the last one names the dialect; else a
 * dialect that sees more pages but cannot follow them, or an envelope member or `X-` header whose
 * name signals more pages (SIGNAL_NAME) that no dialect reads, gives `stuck` with its evidence.
 * Totals (`total`, `X-Total-Count`, `total_pages`, …) are read whatever the dialect.
 */
export function readPaging(page: PageFacts): PagingReading {
  const totals = readTotals(page);
  const readings = PAGING_DIALECTS.flatMap((dialect) => {
    const reading = dialect.read(page);
    return reading ? [{ dialect: dialect.name, ...reading }] : [];
  });
  const followed = readings.find((r) => r.next !== undefined);
  if (followed) return { ...followed, totals };
  const stuck = readings.find((r) => r.stuck !== undefined)?.stuck ?? unknownSignal(page);
  const ended = readings[0];
  return { ...(ended ? { dialect: ended.dialect, signal: ended.signal, evidence: ended.evidence } : {}), ...(stuck === undefined ? {} : { stuck }), totals };
}

/** The list sizes a page announces: the first market total and page total in the body, and the total headers. */
function readTotals(page: PageFacts): ListTotal[] {
  const totals: ListTotal[] = [];
  const body = (of: ListTotal['of'], names: readonly string[]) => {
    const found = page.envelope ? findCount(page.body, names) : undefined;
    if (found) totals.push({ of, value: found.value, evidence: `"${found.path}": ${found.value}` });
  };
  const header = (of: ListTotal['of'], names: readonly string[]) => {
    for (const name of names) {
      const value = countOf(page.headers[name]);
      if (value !== undefined) totals.push({ of, value, evidence: `${headerName(name)}: ${value}` });
    }
  };
  body('markets', MARKET_TOTAL_FIELDS);
  header('markets', MARKET_TOTAL_HEADERS);
  body('pages', PAGE_TOTAL_FIELDS);
  header('pages', PAGE_TOTAL_HEADERS);
  return totals;
}

/** An envelope member (top level or a paging container) or an `X-` header that signals more pages and no dialect reads. */
function unknownSignal(page: PageFacts): string | undefined {
  let scanned = 0;
  const top = page.envelope ? asRecord(page.body) : undefined;
  const scopes: Array<[string, Record<string, unknown>]> = top ? [['', top]] : [];
  for (const key of PAGING_CONTAINERS) {
    const inner = asRecord(top?.[key]);
    if (inner) scopes.push([`${key}.`, inner]);
  }
  for (const [prefix, scope] of scopes) {
    for (const name in scope) {
      if (++scanned > MAX_SCANNED) return undefined;
      if (KNOWN_KEYS.has(name) || !SIGNAL_NAME.test(name)) continue;
      if (signalsMore(scope[name])) return `"${prefix}${name}": ${shown(scope[name])}, a paging key no dialect follows`;
    }
  }
  for (const [name, value] of Object.entries(page.headers)) {
    if (++scanned > MAX_SCANNED) return undefined;
    if (!name.startsWith('x-') || KNOWN_KEYS.has(name) || !SIGNAL_NAME.test(name)) continue;
    if (value.trim() !== '') return `${headerName(name)}: ${shown(value)}, a paging header no dialect follows`;
  }
  return undefined;
}

function signalsMore(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value !== '') || (typeof value === 'number' && value > 0) || (asRecord(value) !== undefined && Object.keys(value as object).length > 0);
}

/** `x-total-count` → `X-Total-Count` (as the field is usually written). */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => `${dash}${c.toUpperCase()}`);
}
