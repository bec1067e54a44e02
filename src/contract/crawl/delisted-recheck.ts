import { BodyText } from '../http-client/index.js';
import { LIST_ENDPOINT, SINGLE_ENDPOINT } from '../checks/index.js';
import type { CrawlState } from './crawl-state.js';
import { requestTarget, RequestFailure } from '../http-client/index.js';
import { createJsonReader } from '../http-client/index.js';
import { findMarketArray, marketOfItem } from '../paging/index.js';

/**
 * A market listed, then answering 404 to `GET /markets/{id}`, may have been delisted between the
 * two reads (a market closing, an archive job): that is the deployment's data moving, not a
 * broken contract. Before such a 404 is judged, the list page the market was on is read again
 * (once per page per crawl, whatever the number of 404s on it; at most `--max-pages` re-reads):
 * still listed, the 404 stays a `not-found` error; gone from the page, it is an information
 * finding `delisted`. A re-read that fails (no answer, not 2xx, not a JSON list, over
 * `--max-body-mb`) leaves the 404 to be judged as before.
 */
interface Rereads {
  /** Where each list page started: the list position of its first market and the URL it was read at, in page order. */
  pages: Array<{ start: number; url: URL }>;
  /** The ids of each re-read page, by URL (undefined when the re-read failed). */
  fresh: Map<string, Promise<ReadonlySet<string> | undefined>>;
}

const byCrawl = new WeakMap<CrawlState, Rereads>();

function rereadsOf(state: CrawlState): Rereads {
  let rereads = byCrawl.get(state);
  if (!rereads) byCrawl.set(state, (rereads = { pages: [], fresh: new Map() }));
  return rereads;
}

/** Notes that the list page at `url` is about to be read: the markets it lists start at the current list size. */
export function notePageStart(state: CrawlState, url: URL): void {
  rereadsOf(state).pages.push({ start: state.listed.size, url });
}

/**
 * True when the market `id`, whose single answer was a 404, is gone from a fresh read of the list
 * page it was listed on (an information finding `delisted` is then added); false when it is still
 * listed or the re-read could not tell.
 */
export async function delistedSince(state: CrawlState, id: string, request: string): Promise<boolean> {
  const rereads = rereadsOf(state);
  const position = state.listed.positionOf(id);
  const page = rereads.pages.findLast((p) => p.start <= position);
  if (position === -1 || !page) return false;
  let fresh = rereads.fresh.get(page.url.href);
  if (!fresh) rereads.fresh.set(page.url.href, (fresh = readPageIds(state, page.url)));
  const ids = await fresh;
  if (!ids || ids.has(id)) return false;
  const pageRequest = requestTarget(page.url);
  const found = `404 after being listed; a fresh read of its list page (${pageRequest}) no longer lists it: delisted between the two reads, not judged`;
  state.info({ code: 'delisted', endpoint: SINGLE_ENDPOINT, pointerTemplate: '', example: { marketId: id, pointer: '', found, request }, message: `${request}: ${found}` });
  return true;
}

/**
 * The market ids of one fresh read of a list page, or undefined when it cannot be read as a list.
 * The body is streamed (json-body-reader.ts list mode): memory holds the ids of the page, never
 * its markets, whatever its size (up to --max-body-mb, as every body).
 */
async function readPageIds(state: CrawlState, url: URL): Promise<ReadonlySet<string> | undefined> {
  try {
    const response = await state.get(url, LIST_ENDPOINT);
    state.requests++;
    if (response.status < 200 || response.status > 299) {
      await response.discard();
      return undefined;
    }
    // The ids of every candidate array (the top-level array, or each array of an envelope), each item read through its wrapper.
    const byArray = new Map<string, Set<string>>();
    const reader = createJsonReader('list', {
      onItem(at, _index, value) {
        const marketId = (marketOfItem(at, value).market as { market_id?: unknown } | null)?.market_id;
        if (typeof marketId !== 'string' && typeof marketId !== 'number') return;
        let ids = byArray.get(at);
        if (!ids) byArray.set(at, (ids = new Set()));
        ids.add(String(marketId));
      },
    });
    const text = new BodyText();
    for await (const chunk of response.body) reader.write(text.write(chunk));
    reader.write(text.end());
    const read = reader.end();
    const shape = read.ok ? findMarketArray(read.value) : undefined;
    if (!shape) return undefined;
    return byArray.get(shape.basePointer) ?? new Set();
  } catch (error) {
    if (error instanceof RequestFailure) return undefined;
    throw error;
  }
}
