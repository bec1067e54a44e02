import { LIST_ENDPOINT } from '../checks/index.js';
import type { ListSummary } from '../checks/index.js';
import type { CrawlState } from './crawl-state.js';
import { requestTarget, type DeploymentResponse } from '../http-client/index.js';
import type { ListPage } from '../checks/index.js';
import { readPaging, type ListTotal, type PagingReading } from '../paging/index.js';

/**
 * Reads the paging of a list page the crawl just checked (paging-reading.ts), and notes in `list`
 * the dialect that read it: the first one followed, else the first one that read a page at all.
 */
export function readPagePaging(list: ListSummary, page: ListPage, response: DeploymentResponse): PagingReading {
  const reading = readPaging({
    body: page.body,
    envelope: page.shape.kind === 'envelope',
    headers: response.headers,
    url: response.url,
    lastId: page.lastId,
    items: page.shape.count,
    pageIndex: list.pages - 1,
  });
  if (reading.dialect !== undefined && reading.signal !== undefined && reading.evidence !== undefined) {
    if (reading.next && list.paging === 'none') {
      list.paging = reading.signal;
      list.dialect = reading.dialect;
      list.pagingEvidence = reading.evidence;
    } else if (list.dialect === undefined) {
      list.dialect = reading.dialect;
      list.pagingEvidence = reading.evidence;
    }
  }
  return reading;
}

/** More pages were signalled that no dialect can follow: a warning naming the evidence (the list is not complete). */
export function pagingUnfollowed(state: CrawlState, list: ListSummary, evidence: string, at: URL): void {
  state.sink.add({
    severity: 'warning', code: 'paging-unfollowed', endpoint: LIST_ENDPOINT, pointerTemplate: '',
    expected: 'a next page in a paging dialect the checker follows (docs/paging.md), or no sign of more pages',
    example: { pointer: '', found: `page ${list.pages}: ${evidence}; later pages were not checked`, request: requestTarget(at) },
  });
  list.complete = false;
}

/**
 * At the end of a crawl that saw no other reason to stop: each size the last page announced
 * (ListTotal) larger than what was seen (distinct markets listed, pages read) is a warning
 * `list-partial` naming it, and the list is not complete.
 */
export function judgeListTotals(state: CrawlState, list: ListSummary, totals: readonly ListTotal[], at: URL): void {
  for (const total of totals) {
    const seen = total.of === 'markets' ? state.listed.size : list.pages;
    if (total.value <= seen) continue;
    state.sink.add({
      severity: 'warning', code: 'list-partial', endpoint: LIST_ENDPOINT, pointerTemplate: '',
      expected: `no more ${total.of} announced than the crawl could read`,
      example: { pointer: '', found: `${total.evidence}, but ${seen} ${total.of === 'markets' ? `market${seen === 1 ? '' : 's'} listed` : `page${seen === 1 ? '' : 's'} read`} and no next page followable`, request: requestTarget(at) },
    });
    list.complete = false;
  }
}

/** The `paging` information: pages, the dialect followed and its evidence, markets listed, time. */
export function pagingInfo(state: CrawlState, list: ListSummary, listMs: number): void {
  const pages = `${list.pages} page${list.pages === 1 ? '' : 's'}`;
  const via = list.paging === 'none'
    ? `no next page signalled${list.dialect === undefined ? '' : ` (${list.dialect}: ${list.pagingEvidence ?? ''})`}`
    : `followed ${list.dialect ?? list.paging} (${list.pagingEvidence ?? list.paging})`;
  state.info({ code: 'paging', endpoint: LIST_ENDPOINT, pointerTemplate: '', example: { pointer: '', found: `${pages}, ${via}` }, message: `paging: ${pages}, ${via}; ${state.listed.size} markets listed in ${Math.round(listMs)} ms` });
}
