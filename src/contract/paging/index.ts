// The contract room's paging: reading one list page, where its markets are (the envelope) and
// where the next page is (the paging dialects, the Link header). Used by the checks, the crawl
// and the recording proxy; imports the HTTP client only. Other sub-rooms and rooms import these
// files only from here (.dependency-cruiser.cjs).
export { parseLinkHeader } from './link-header.js';
export { ENVELOPE_TITLES, type EnvelopeName, findMarketArray, findNextPage, isGraphqlResponse, type ItemWrapper, type ListShape, marketOfItem } from './list-envelope.js';
export { type NextStep } from './paging-dialects.js';
export { type ListTotal, type PagingReading, readPaging } from './paging-reading.js';
