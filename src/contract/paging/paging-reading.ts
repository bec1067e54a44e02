import { MARKET_TOTAL_FIELDS, MARKET_TOTAL_HEADERS, PAGE_SIZE_EVIDENCE, PAGE_SIZE_HEADERS, PAGE_TOTAL_FIELDS, PAGE_TOTAL_HEADERS, PAGING_DIALECTS, parseItemRange, type NextStep, type PageFacts } from './paging-dialects.js';
import { asRecord, countOf, findCount, pagingScopes, shown } from './paging-fields.js';

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
 * name signals more pages (SIGNAL_NAME) that no dialect reads, or a page as full as the page
 * size it names (fullPage) with no dialect's signal and no total, gives `stuck` with its evidence.
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
  const stuck = readings.find((r) => r.stuck !== undefined)?.stuck ?? unknownSignal(page) ?? (readings.length === 0 && totals.length === 0 ? fullPage(page) : undefined);
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
  const range = parseItemRange(page.headers['content-range']);
  if (range?.total !== undefined) totals.push({ of: 'markets', value: range.total, evidence: `Content-Range: ${page.headers['content-range']?.trim() ?? ''}` });
  body('pages', PAGE_TOTAL_FIELDS);
  header('pages', PAGE_TOTAL_HEADERS);
  return totals;
}

/**
 * A page with markets on it exactly as many as the page size it names (`limit`, `per_page`,
 * `page_size`… in the envelope or its paging scopes, or `X-Per-Page`) and nothing else about
 * paging: evidence that more pages may follow that no dialect can ask for.
 */
function fullPage(page: PageFacts): string | undefined {
  if (page.items === 0) return undefined;
  const field = page.envelope ? findCount(page.body, PAGE_SIZE_EVIDENCE) : undefined;
  const evidence = field ? `"${field.path}": ${field.value}` : PAGE_SIZE_HEADERS.flatMap((name) => (countOf(page.headers[name]) === page.items ? [`${headerName(name)}: ${page.items}`] : []))[0];
  if (evidence === undefined || (field && field.value !== page.items)) return undefined;
  return `a full page of ${page.items} market${page.items === 1 ? '' : 's'} (${evidence}) and no next page signalled`;
}

/** An envelope member (top level or a paging container) or an `X-` header that signals more pages and no dialect reads. */
function unknownSignal(page: PageFacts): string | undefined {
  let scanned = 0;
  for (const [prefix, scope] of page.envelope ? pagingScopes(page.body) : []) {
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
