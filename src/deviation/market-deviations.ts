import { mixSeed } from '../floor/seed-mix.js';
import { WATCHED_DEVIATIONS } from './watched-deviations.js';
import { onItem, onList, type DeviationContext, type JsonObject, type MarketDeviation, type MarketViews } from './deviation-definition.js';

// The deviations of chosen markets. Each is one definition: name, class, endpoints, the rewrite
// (a pure function of the market's views and the context) and what `check` reports for it.
// Each drift is one real prediction-market APIs show (Kalshi, Polymarket, Manifold, PredictIt): what a client meets outside the contract.

/** The list item's documented fields, in response order. */
const LIST_FIELDS = ['market_id', 'title', 'status', 'yes_price', 'no_price'] as const;
/** The single market's documented fields. */
const ITEM_FIELDS = [...LIST_FIELDS, 'resolution_date'] as const;

/** Both views with the same change. */
function both(views: MarketViews, change: (view: JsonObject) => JsonObject): MarketViews {
  return { item: change(views.item), summary: change(views.summary) };
}

/** A view without one field. */
function without(view: JsonObject, field: string): JsonObject {
  const { [field]: _gone, ...rest } = view;
  return rest;
}

/** A price in integer units of 1e-4 (prices are probabilities; 4 decimals is the finest real tick, Kalshi's). */
function units(price: unknown): number {
  return typeof price === 'number' && Number.isFinite(price) ? Math.round(price * 10_000) : 0;
}

/** The next double above a positive number: 0.57 → 0.5700000000000001 (binary float noise, as a double-precision sum prints it). */
function nextDoubleUp(value: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, view.getBigUint64(0) + (value >= 0 ? 1n : -1n));
  return view.getFloat64(0);
}

/** A number's JSON text with 22 more decimal digits that a double cannot hold: 0.57 → 0.5700000000000000000000001. */
function overlongLiteral(value: number): string | undefined {
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return undefined;
  return `${text}${text.includes('.') ? '' : '.'}0000000000000000000001`;
}

/** Replaces the first `"field":value` member's value text in a JSON object text. */
function replaceMemberValue(text: string, field: string, value: unknown, literal: string): string {
  return text.replace(`${JSON.stringify(field)}:${JSON.stringify(value)}`, `${JSON.stringify(field)}:${literal}`);
}

/** Puts a member before all others in a JSON object text: `{"yes_price":0.43,"market_id":…}`. */
function prependMember(text: string, field: string, value: unknown): string {
  return text.startsWith('{') && text.length > 2 ? `{${JSON.stringify(field)}:${JSON.stringify(value)},${text.slice(1)}` : text;
}

/**
 * An integer market_id for a market: a numeric-looking id becomes that number (Polymarket's
 * `"559652"` → `559652`); any other id a seeded 12-digit number.
 */
export function integerMarketId(marketId: string, ctx: DeviationContext): number {
  if (/^(0|[1-9]\d{0,14})$/.test(marketId)) return Number(marketId);
  const high = mixSeed(ctx.seed, ctx.idHash, 0x1d) % 2 ** 20;
  const low = mixSeed(ctx.seed, ctx.idHash, 0x1e);
  return 100_000_000_000 + ((high * 2 ** 32 + low) % 900_000_000_000);
}

function missingOnList(field: (typeof LIST_FIELDS)[number]): MarketDeviation {
  return {
    name: `list-missing-${field.replace(/_/g, '-')}`,
    class: 'contract', scope: 'market', endpoints: ['list'],
    describe: `the list item has no \`${field}\` (the single market still has it)`,
    findings: [onList('error', 'required', `/*/${field}`)],
    // Without its id a market cannot be asked for, so record never sees it.
    record: field === 'market_id' ? 'dropped' : 'kept',
    views: (v) => ({ ...v, summary: without(v.summary, field) }),
  };
}

function missingOnItem(field: (typeof ITEM_FIELDS)[number]): MarketDeviation {
  return {
    name: `item-missing-${field.replace(/_/g, '-')}`,
    class: 'contract', scope: 'market', endpoints: ['item'],
    describe: field === 'resolution_date' ? 'the single market has no `resolution_date`' : `the single market has no \`${field}\` (the list item still has it)`,
    findings: [onItem('error', 'required', `/${field}`)],
    record: 'dropped',
    views: (v) => ({ ...v, item: without(v.item, field) }),
  };
}

/** Every deviation of chosen markets, in catalogue order (rewrites apply in this order). */
export const MARKET_DEVIATIONS: readonly MarketDeviation[] = [
  {
    name: 'string-price', class: 'contract', scope: 'market', endpoints: ['list', 'item'],
    describe: '`yes_price` and `no_price` are 4-decimal strings (`"0.5700"`), as Kalshi has sent them since 2026-03',
    findings: [onList('error', 'type', '/*/no_price'), onList('error', 'type', '/*/yes_price'), onItem('error', 'type', '/no_price'), onItem('error', 'type', '/yes_price')],
    record: 'dropped',
    views: (v) => both(v, (view) => ({ ...view, yes_price: (units(view['yes_price']) / 10_000).toFixed(4), no_price: (units(view['no_price']) / 10_000).toFixed(4) })),
  },
  {
    name: 'null-price', class: 'contract', scope: 'market', endpoints: ['list', 'item'],
    describe: '`yes_price` is `null` (no offer on that side, as PredictIt sends it)',
    findings: [onList('error', 'type', '/*/yes_price'), onItem('error', 'type', '/yes_price')],
    record: 'dropped',
    views: (v) => both(v, (view) => ({ ...view, yes_price: null })),
  },
  {
    name: 'integer-market-id', class: 'contract', scope: 'market', endpoints: ['list', 'item'],
    describe: '`market_id` is a JSON integer (a numeric id such as Polymarket\'s `"559652"` becomes `559652`, any other a 12-digit number); the single market also answers at that number',
    findings: [onList('error', 'type', '/*/market_id'), onItem('error', 'type', '/market_id')],
    record: 'dropped',
    views: (v, ctx) => {
      const id = integerMarketId(String(v.item['market_id']), ctx);
      return both(v, (view) => ({ ...view, market_id: id }));
    },
    alias: (marketId, ctx) => String(integerMarketId(marketId, ctx)),
  },
  {
    name: 'list-empty-market-id', class: 'contract', scope: 'market', endpoints: ['list'],
    describe: 'the list item\'s `market_id` is `""` (so the market cannot be asked for)',
    findings: [onList('error', 'minLength', '/*/market_id')],
    record: 'dropped',
    views: (v) => ({ ...v, summary: { ...v.summary, market_id: '' } }),
  },
  ...LIST_FIELDS.map(missingOnList),
  ...ITEM_FIELDS.map(missingOnItem),
  {
    name: 'list-resolution-date', class: 'contract', scope: 'market', endpoints: ['list'],
    describe: 'the list item carries `resolution_date`, which the list never documents',
    findings: [onList('error', 'forbidden', '/*/resolution_date')],
    record: 'kept',
    views: (v) => ({ ...v, summary: { ...v.summary, resolution_date: v.item['resolution_date'] } }),
  },
  {
    name: 'datetime-resolution-date', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: '`resolution_date` is a date-time (`2027-03-01T00:00:00Z`), not a date',
    findings: [onItem('error', 'format', '/resolution_date')],
    record: 'dropped',
    views: (v) => ({ ...v, item: { ...v.item, resolution_date: `${String(v.item['resolution_date'])}T00:00:00Z` } }),
  },
  {
    name: 'impossible-resolution-date', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: '`resolution_date` is February 30 of its year (`2027-02-30`): YYYY-MM-DD in form, no calendar date',
    findings: [onItem('error', 'format', '/resolution_date')],
    record: 'dropped',
    views: (v) => ({ ...v, item: { ...v.item, resolution_date: `${String(v.item['resolution_date']).slice(0, 4)}-02-30` } }),
  },
  {
    name: 'listed-but-404', class: 'contract', scope: 'market', endpoints: ['item'], aliases: ['missing'],
    describe: 'listed, but `GET /markets/{market_id}` answers 404',
    findings: [onItem('error', 'not-found')],
    record: 'dropped',
    hidesItem: true,
  },
  {
    name: 'title-mismatch', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s `title` differs from the list\'s (` (revised)` appended)',
    findings: [onItem('error', 'list-single-mismatch', '/title')],
    record: 'kept',
    views: (v) => ({ ...v, item: { ...v.item, title: `${String(v.item['title'])} (revised)` } }),
  },
  {
    name: 'item-wrong-id', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market names another `market_id` (`-other` appended), as a mixed-up cache would',
    findings: [onItem('error', 'id-mismatch', '/market_id')],
    record: 'dropped',
    views: (v) => ({ ...v, item: { ...v.item, market_id: `${String(v.item['market_id'])}-other` } }),
  },
  {
    name: 'item-empty-market-id', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s `market_id` is `""`',
    findings: [onItem('error', 'id-mismatch', '/market_id'), onItem('error', 'minLength', '/market_id')],
    record: 'dropped',
    views: (v) => ({ ...v, item: { ...v.item, market_id: '' } }),
  },
  {
    name: 'item-envelope', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market comes wrapped, `{"market": {…}}` (Kalshi\'s shape)',
    findings: [onItem('error', 'single-envelope')],
    record: 'dropped',
    views: (v) => ({ ...v, item: { market: v.item } }),
  },
  {
    name: 'item-500', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers 500 with a JSON error body (in the profile\'s error shape)',
    findings: [onItem('error', 'http-status')],
    record: 'dropped',
    reply: { status: 500 },
  },
  {
    name: 'item-not-json', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers 200 with an HTML page (`text/html`), as a proxy or maintenance page would',
    findings: [onItem('error', 'not-json')],
    record: 'dropped',
    reply: { body: 'html', contentType: 'text/html; charset=utf-8' },
  },
  {
    name: 'item-truncated-json', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers a complete 200 whose JSON stops half-way',
    findings: [onItem('error', 'not-json')],
    record: 'dropped',
    reply: { body: 'truncated' },
  },
  {
    name: 'price-out-of-range', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: '`yes_price` 1.25 and `no_price` -0.25: outside [0, 1], still summing to 1',
    findings: [onList('warning', 'maximum', '/*/yes_price'), onList('warning', 'minimum', '/*/no_price'), onItem('warning', 'maximum', '/yes_price'), onItem('warning', 'minimum', '/no_price')],
    record: 'kept',
    views: (v) => both(v, (view) => ({ ...view, yes_price: 1.25, no_price: -0.25 })),
  },
  {
    name: 'price-sum', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: '`no_price` 0.05 away from `1 - yes_price` (up, or down when that would pass 1), as bid/ask prices are',
    findings: [onList('warning', 'price-sum', '/*'), onItem('warning', 'price-sum')],
    record: 'kept',
    views: (v) => both(v, (view) => {
      const complement = 10_000 - units(view['yes_price']);
      return { ...view, no_price: (complement + 500 <= 10_000 ? complement + 500 : complement - 500) / 10_000 };
    }),
  },
  {
    name: 'float-noise', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: '`yes_price` carries binary float noise (`0.5700000000000001`), as json-schema-faker and Manifold emit',
    findings: [onList('warning', 'float-noise', '/*/yes_price'), onItem('warning', 'float-noise', '/yes_price')],
    record: 'kept',
    views: (v) => both(v, (view) => (typeof view['yes_price'] === 'number' ? { ...view, yes_price: nextDoubleUp(view['yes_price']) } : view)),
  },
  {
    name: 'long-decimal-price', class: 'assumption', scope: 'market', endpoints: ['list', 'item'],
    describe: '`yes_price` is written with 22 more decimals than a double holds (`0.5700000000000000000000001`), as decimal serialisers do',
    findings: [onList('warning', 'unsafe-number', '/*/yes_price'), onItem('warning', 'unsafe-number', '/yes_price')],
    record: 'kept',
    summaryText: (text) => overlong(text),
    itemText: (text) => overlong(text),
  },
  {
    name: 'non-active-status', class: 'assumption', scope: 'market', endpoints: ['list', 'item'], aliases: ['unknown-status'],
    describe: '`status` is `"suspended"`, not `"active"`',
    findings: [onList('warning', 'const', '/*/status'), onItem('warning', 'const', '/status')],
    record: 'kept',
    views: (v) => both(v, (view) => ({ ...view, status: 'suspended' })),
  },
  {
    name: 'past-resolution-date', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'an active market\'s `resolution_date` lies in 2020 (its month and day kept)',
    findings: [onItem('warning', 'past-resolution-date', '/resolution_date')],
    record: 'kept',
    // 2020 is a leap year, so any month and day of a calendar date is one in 2020 too.
    views: (v) => ({ ...v, item: { ...v.item, resolution_date: `2020${String(v.item['resolution_date']).slice(4)}` } }),
  },
  {
    name: 'price-moved', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s prices are one cent away from the list\'s (as if it moved between the two requests)',
    findings: [onItem('warning', 'price-moved', '/no_price'), onItem('warning', 'price-moved', '/yes_price')],
    record: 'kept',
    views: (v) => {
      const yes = units(v.item['yes_price']);
      const step = yes <= 5_000 ? 100 : -100;
      return { ...v, item: { ...v.item, yes_price: (yes + step) / 10_000, no_price: (units(v.item['no_price']) - step) / 10_000 } };
    },
  },
  {
    name: 'stale-prices', class: 'assumption', scope: 'market', endpoints: ['list', 'item'], aliases: ['stale'],
    describe: 'prices do not move with the clock (or a tick) while the others walk',
    findings: [],
    unseen: 'one crawl sees prices at one moment; only a client that ticks and compares can tell a stale market',
    // The run prices-frozen needs grows with the markets and rounds watched and shrinks as the
    // rounds teach how often a moving market stays put (contract/watch/still-odds.ts): against 12
    // markets ticked one step a round it is 17 unchanged rounds, so round 18.
    watch: { findings: ['prices-frozen'], rounds: 20 },
    record: 'kept',
    freezesPrices: true,
  },
  ...WATCHED_DEVIATIONS,
  {
    name: 'list-duplicate-id', class: 'assumption', scope: 'market', endpoints: ['list'],
    describe: 'the market is listed twice in a row (as a page boundary race repeats an item)',
    findings: [onList('warning', 'duplicate-id', '/*/market_id')],
    record: 'kept',
    repeatsListItem: true,
  },
  {
    name: 'list-duplicate-member', class: 'assumption', scope: 'market', endpoints: ['list'],
    describe: 'the list item names `yes_price` twice, first with the `no_price` value (JSON.parse keeps the last; a streaming parser may keep the first)',
    findings: [onList('warning', 'duplicate-member', '/*/yes_price')],
    record: 'kept',
    summaryText: (text) => duplicateYes(text),
  },
  {
    name: 'item-duplicate-member', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market names `yes_price` twice, first with the `no_price` value',
    findings: [onItem('warning', 'duplicate-member', '/yes_price')],
    record: 'kept',
    itemText: (text) => duplicateYes(text),
  },
  {
    name: 'item-wrong-content-type', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s JSON comes as `text/plain; charset=utf-8`',
    findings: [onItem('warning', 'content-type')],
    record: 'kept',
    reply: { contentType: 'text/plain; charset=utf-8' },
  },
  {
    name: 'item-charset', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s JSON is labelled `application/json; charset=iso-8859-1`',
    findings: [onItem('warning', 'charset')],
    record: 'kept',
    reply: { contentType: 'application/json; charset=iso-8859-1' },
  },
  {
    name: 'item-bom', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s body starts with a UTF-8 byte-order mark (EF BB BF)',
    findings: [onItem('warning', 'bom')],
    record: 'kept',
    reply: { bom: true },
  },
  {
    name: 'item-slow', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers after 2.5 s (past `check`\'s default `--slow-ms` of 2 s; a behaviour rule sets other delays)',
    findings: [onItem('warning', 'slow-answer')],
    record: 'kept',
    reply: { delayMs: 2500 },
  },
  {
    name: 'item-deprecated', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market announces its retirement: `Deprecation: @1767225600` (RFC 9745), `Sunset: Tue, 01 Jan 2030 00:00:00 GMT` (RFC 8594) and `Link`s to the successor version and the deprecation policy (the list: `deprecation-headers`)',
    findings: [onItem('warning', 'deprecation'), onItem('warning', 'sunset')],
    record: 'kept',
    reply: { versioning: true },
  },
  {
    name: 'item-unconditional-304', class: 'contract', scope: 'market', endpoints: ['item'],
    describe: 'the single market answers `304 Not Modified`, no body, with its `ETag`, to every GET, one that sent no `If-None-Match` or `If-Modified-Since` too (a cache that answers for a client it never served)',
    findings: [onItem('error', 'unconditional-not-modified')],
    record: 'dropped',
    reply: { notModified: true },
  },
  {
    name: 'stale-etag', class: 'assumption', scope: 'market', endpoints: ['item'],
    describe: 'the single market\'s `ETag` names the market, not its bytes: it stays while the body changes (a tick, an edit, the clock), and `If-None-Match` with it is answered 304, so a poller keeps old prices',
    findings: [],
    unseen: 'one crawl sees each body once, with a tag it cannot fault; the evidence needs two rounds: the same URL answering the same strong `ETag` with different bytes, or a 304 to that tag while an unconditional GET shows a changed body',
    // Ticked once a round, the body changes when the market's price moves (a step of 0 keeps it): 2 rounds for a market that moves at the first tick.
    watch: { findings: ['etag-kept'], rounds: 4 },
    record: 'kept',
    reply: { staleTag: true },
  },
];

/** The members of an object text, or an empty object for any other text: a text rewrite never throws, whatever the rewrites before it made of the text. */
function members(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `yes_price` named twice in an object text, first with the `no_price` value. */
function duplicateYes(text: string): string {
  return prependMember(text, 'yes_price', members(text)['no_price'] ?? 0);
}

/** The `yes_price` literal of an object text with 22 more decimals. */
function overlong(text: string): string {
  const yes = members(text)['yes_price'];
  const literal = typeof yes === 'number' ? overlongLiteral(yes) : undefined;
  return literal === undefined ? text : replaceMemberValue(text, 'yes_price', yes, literal);
}
