import { onList, type ListDeviation, type RateLimitFields } from './deviation-definition.js';

/** Markets on the one page `list-partial-no-signal` serves. */
const FIRST_PAGE = 5;
/** Requests a second a rate-limited deviation answers (the rest of each second's window, 429). */
const RATE_LIMIT_PER_SECOND = 10;
const RATE_LIMIT_ANNOUNCED: Readonly<Record<RateLimitFields, string>> = {
  'retry-after': 'with `Retry-After: 1` on the 429 only',
  ratelimit: `in the IETF \`RateLimit: "default";r=0;t=1\` and \`RateLimit-Policy: "default";q=${RATE_LIMIT_PER_SECOND};w=1\` fields on every answer (no \`Retry-After\`)`,
  'x-ratelimit': 'in `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds) on every answer (no `Retry-After`)',
};

/**
 * The deviations of the whole `GET /markets` answer, in catalogue order. Each edits the list as
 * the response profile renders it (bare array or envelope, any page), at request time.
 */
export const LIST_DEVIATIONS: readonly ListDeviation[] = [
  {
    name: 'list-500', class: 'contract', scope: 'list', endpoints: ['list'],
    describe: 'the list answers 500 with a JSON error body (in the profile\'s error shape)',
    findings: [onList('error', 'http-status')],
    record: 'dropped',
    reply: { status: 500 },
  },
  {
    name: 'list-unconditional-304', class: 'contract', scope: 'list', endpoints: ['list'],
    describe: 'the list answers `304 Not Modified`, no body, with its `ETag`, to every GET, one that sent no `If-None-Match` or `If-Modified-Since` too (a cache that answers for a client it never served)',
    findings: [onList('error', 'unconditional-not-modified')],
    record: 'dropped',
    reply: { notModified: true },
  },
  {
    name: 'list-lags-items', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list is served two changes behind its markets (an edit, a deviation, a tick, or a price step of the running clock): after a change it still shows the markets as they were two changes before (one before, after the first change), while `GET /markets/{market_id}` shows them as they are, with a strong `ETag` of the old bytes (a list cache refreshed late)',
    findings: [],
    unseen: 'until what is served changes, list and markets agree; after a change one crawl sees the list disagree with the markets (`price-moved`, `list-single-mismatch`), but only rounds show the lag: the list of round N equals the markets of round N−2 while the markets move',
    // Ticked once a round: from round 3 the list shows the prices of two rounds before, three rounds
    // in a row by round 5 or later (a lag of one round would look like a price that moved between the list
    // request and the single request of a round: contract/watch/watch-tracker.ts lagOf).
    watch: { findings: ['list-lags-items'], rounds: 8 },
    record: 'kept',
    reply: { lagsItems: true },
  },
  {
    name: 'list-not-json', class: 'contract', scope: 'list', endpoints: ['list'],
    describe: 'the list answers 200 with an HTML page (`text/html`), as a proxy or maintenance page would',
    findings: [onList('error', 'not-json')],
    record: 'dropped',
    reply: { body: 'html', contentType: 'text/html; charset=utf-8' },
  },
  {
    name: 'list-truncated-json', class: 'contract', scope: 'list', endpoints: ['list'],
    describe: 'the list answers a complete 200 whose JSON stops half-way (a streamed list: within its first chunk)',
    findings: [onList('error', 'not-json')],
    record: 'cut',
    reply: { body: 'truncated' },
  },
  {
    name: 'list-envelope-change', class: 'contract', scope: 'list', endpoints: ['list'],
    describe: 'the list moves one level deeper, `{"payload":{"markets":[…]}}` (an envelope `{…}` becomes `{"payload":{…}}`, a wrapper no standard names): no market array where a client or `check` looks (a plain `{"markets":[…]}` envelope is the `--envelope` profile, information only; GraphQL\'s `{"data":{"markets":[…]}}` is recognised)',
    findings: [onList('error', 'list-shape')],
    record: 'dropped',
    reply: { body: 'nested' },
  },
  {
    name: 'list-wrong-content-type', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list\'s JSON comes as `text/plain; charset=utf-8`',
    findings: [onList('warning', 'content-type')],
    record: 'kept',
    reply: { contentType: 'text/plain; charset=utf-8' },
  },
  {
    name: 'list-charset', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list\'s JSON is labelled `application/json; charset=iso-8859-1`',
    findings: [onList('warning', 'charset')],
    record: 'kept',
    reply: { contentType: 'application/json; charset=iso-8859-1' },
  },
  {
    name: 'list-bom', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list\'s body starts with a UTF-8 byte-order mark (EF BB BF)',
    findings: [onList('warning', 'bom')],
    record: 'kept',
    reply: { bom: true },
  },
  {
    name: 'list-paging-loop', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'every list answer announces itself as its next page (`Link: <…>; rel="next"`), so a client that follows links loops',
    findings: [onList('warning', 'cursor-loop')],
    record: 'kept',
    reply: { loopLink: true },
  },
  {
    name: 'deprecation-headers', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list announces its retirement: `Deprecation: @1767225600` (RFC 9745), `Sunset: Tue, 01 Jan 2030 00:00:00 GMT` (RFC 8594) and `Link`s to the successor version and the deprecation policy',
    findings: [onList('warning', 'deprecation'), onList('warning', 'sunset')],
    record: 'kept',
    reply: { versioning: true },
  },
  {
    name: 'clock-skew', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: 'the list\'s `Date` is three hours ahead of the stub clock (a server whose clock is off)',
    findings: [],
    unseen: 'one crawl takes a deployment\'s `Date` as its day (`deployment-date`, information); only a watch compares it with its own clock',
    watch: { findings: ['clock-skew'], rounds: 1 },
    record: 'kept',
    reply: { clockSkewMs: 3 * 3_600_000 },
  },
  {
    name: 'list-partial-no-signal', class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: `the list answers only its first ${FIRST_PAGE} markets, a full page as \`X-Per-Page: ${FIRST_PAGE}\` says, with no next-page signal and no total, while more exist`,
    findings: [onList('warning', 'paging-unfollowed')],
    record: 'cut',
    reply: { firstPage: FIRST_PAGE },
  },
  ...(['retry-after', 'ratelimit', 'x-ratelimit'] as const).map((fields): ListDeviation => ({
    name: fields === 'retry-after' ? 'rate-limited' : `rate-limited-${fields}`, class: 'assumption', scope: 'list', endpoints: ['list'],
    describe: `every market route answers at most ${RATE_LIMIT_PER_SECOND} requests a second, then 429 (the JSON error body), announcing the limit ${RATE_LIMIT_ANNOUNCED[fields]}`,
    findings: [],
    unseen: '`check` paces itself to the limit, by design (it lowers its concurrency and waits for the announced reset): the deployment is checked completely, with a `retry` information finding per 429',
    record: 'kept',
    reply: { rateLimit: { perSecond: RATE_LIMIT_PER_SECOND, fields } },
  })),
];
