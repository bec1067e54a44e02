// Test deployments shaped like real gateways and APIs at the edges of the contract: a data API
// that takes its key in the query (403 without it, as an API gateway answers), a gateway refusing
// every anonymous request, a planned maintenance window (503 with Retry-After an hour ahead), an
// API announcing its retirement (RFC 9745 Deprecation, RFC 8594 Sunset, RFC 5829 version links),
// and a list that loses a market between the list read and the item read (a delisting race).
import { conformingMarkets, json, summaryOf, type Answer, type Deviations, type RawMarket } from './deviant-server.js';

/** An API gateway's refusal of a request without (or with a wrong) key: `403 {"message":"Forbidden"}`. */
export const GATEWAY_FORBIDDEN: Answer = json({ message: 'Forbidden' }, 403, { 'x-amzn-errortype': 'ForbiddenException' });

/**
 * Every route answers only with `?api_key=KEY` in the query (GATEWAY_FORBIDDEN otherwise), and
 * the list is paged two markets a page with a `next` URL that does NOT repeat the key (as many
 * APIs write it): a crawler that drops the base URL's query is refused from the first request
 * on, and one that keeps it only on the first page is refused on the second.
 */
export function keyInQuery(key: string): Deviations {
  const markets = conformingMarkets(5);
  return {
    other: (url) => (url.searchParams.get('api_key') === key ? undefined : GATEWAY_FORBIDDEN),
    list: (url) => {
      const start = Number(url.searchParams.get('offset') ?? '0');
      const items = markets.slice(start, start + 2).map(summaryOf);
      const next = start + 2 < markets.length ? `/markets?offset=${start + 2}` : null;
      return json({ markets: items, next });
    },
  };
}

/** A gateway in front of the API refusing every request that carries no credential. */
export const ANONYMOUS_REFUSED: Deviations = { other: () => GATEWAY_FORBIDDEN };

/** Planned maintenance: every route answers 503 with `Retry-After: seconds` (or an HTTP-date). */
export function maintenance(retryAfter: string): Deviations {
  return { other: () => json({ error: 'maintenance', message: 'Back soon' }, 503, { 'retry-after': retryAfter }) };
}

/** The headers of an API being retired: deprecated since 2023-06-30T23:59:59Z, sunset on 2099-12-31, with its successor. */
const RETIREMENT_HEADERS: Readonly<Record<string, string>> = {
  deprecation: '@1688169599',
  sunset: 'Thu, 31 Dec 2099 23:59:59 GMT',
  link: '</v2/markets>; rel="successor-version", <https://docs.example.com/deprecation>; rel="deprecation", <https://docs.example.com/v0>; rel="predecessor-version"',
};

/** Every list and single-market answer carries `headers` (RETIREMENT_HEADERS by default). */
export function retiring(markets: readonly RawMarket[], headers: Readonly<Record<string, string>> = RETIREMENT_HEADERS): Deviations {
  const byId = new Map(markets.map((m) => [String(m['market_id']), m]));
  return {
    list: () => json(markets.map(summaryOf), 200, { ...headers }),
    single: (id) => {
      const market = byId.get(id);
      return market ? json(market, 200, { ...headers }) : undefined;
    },
  };
}

/**
 * A list of `count` markets paged `pageSize` a page (`?page=N`, Link rel="next"), from which the
 * markets in `delisted` disappear together (an archive job) once the item of one of them has been
 * asked for: their items answer 404, and every later read of the list no longer holds them. `stillListed` answer 404 but stay listed
 * (a real break). `reads` counts the list requests per page number. `envelope`: pages are
 * `{"data":[…],"meta":{…}}` instead of bare arrays.
 */
export function delisting(count: number, pageSize: number, delisted: readonly string[], stillListed: readonly string[] = [], envelope = false): Deviations & { reads: Map<number, number> } {
  const markets = conformingMarkets(count);
  const gone = new Set<string>();
  const reads = new Map<number, number>();
  return {
    reads,
    list: (url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      reads.set(page, (reads.get(page) ?? 0) + 1);
      const items = markets.slice((page - 1) * pageSize, page * pageSize).filter((m) => !gone.has(String(m['market_id']))).map(summaryOf);
      const more = page * pageSize < markets.length;
      return json(envelope ? { data: items, meta: { page } } : items, 200, more ? { link: `</markets?page=${page + 1}>; rel="next"` } : {});
    },
    single: (id) => {
      if (delisted.includes(id)) {
        for (const each of delisted) gone.add(each);
        return json({ error: 'not found', market_id: id }, 404);
      }
      return stillListed.includes(id) ? json({ error: 'not found', market_id: id }, 404) : undefined;
    },
  };
}
