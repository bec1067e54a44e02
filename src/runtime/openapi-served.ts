import type { MarketCatalog } from '../catalog/market-catalog.js';
import { utf8, utf8Text } from '../floor/bytes.js';
import { packageLicense, packageVersion } from '../floor/package-info.js';
import { renderList } from './market-list.js';
import { buildOpenApiDocument, type OpenApiServed } from './openapi-document.js';
import type { ResponseProfile } from './response-profile.js';

/** Markets in the list example: the first page, or the first markets of an unpaged list. */
const LIST_EXAMPLE_SIZE = 3;
/** Documents kept per catalog, one per distinct Host (a client sends one; a hostile one cycles through names). */
const MAX_HOSTS_CACHED = 8;
/**
 * A Host value the document may name (RFC 9110 §7.2 `uri-host [":" port]`, RFC 3986 §3.2.2):
 * a DNS name or IPv4 address, or a bracketed IPv6 literal, then an optional port. Anything else
 * (spaces, `/`, `@`, quotes…) is never copied into the document.
 */
const SAFE_HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** What the `/openapi.json` route reads of a request: its scheme, the stub's mount path and the `Host` header. */
export interface OpenApiRequest {
  /** `http` or `https`. */
  scheme: string;
  /** Where the stub is mounted (`''` at the root, `/stub` under an Express prefix, the MSW base URL's path). */
  mount: string;
  host: string | undefined;
}

/**
 * The served `/openapi.json` body: buildOpenApiDocument with the stub's own base URL as its one
 * server (the request's scheme and `Host`, when the Host is a well-formed host name, address and
 * port, else `/`: the document's own origin) and examples from `catalog`: the first market that
 * answers without a deviation, and the first page of the list. Cached per catalog and Host (at most
 * MAX_HOSTS_CACHED hosts), so a hot reload or admin change shows on the next request; the same
 * catalog, profile and Host give the same bytes.
 */
export function createOpenApiResponder(profile: ResponseProfile): (catalog: MarketCatalog, req: OpenApiRequest) => Uint8Array {
  let cachedFor: MarketCatalog | undefined;
  let examples: OpenApiServed['examples'];
  const byServer = new Map<string, Uint8Array>();
  return (catalog, req) => {
    if (cachedFor !== catalog) {
      cachedFor = catalog;
      examples = catalogExamples(catalog, profile);
      byServer.clear();
    }
    const serverUrl = serverUrlOf(req);
    let body = byServer.get(serverUrl ?? '');
    if (body) return body;
    body = utf8(JSON.stringify(buildOpenApiDocument(profile, packageVersion(), packageLicense(), { ...(serverUrl ? { serverUrl } : {}), ...(examples ? { examples } : {}) })));
    if (byServer.size >= MAX_HOSTS_CACHED) byServer.delete(byServer.keys().next().value ?? '');
    byServer.set(serverUrl ?? '', body);
    return body;
  };
}

/** `http://127.0.0.1:4010` (plus the mount path) from the request, or undefined for a missing or malformed Host. */
function serverUrlOf(req: OpenApiRequest): string | undefined {
  const host = req.host;
  if (host === undefined || host.length > 255 || !SAFE_HOST.test(host)) return undefined;
  const scheme = req.scheme === 'https' ? 'https' : 'http';
  return `${scheme}://${host.toLowerCase()}${/^(\/[A-Za-z0-9._~-]+)*$/.test(req.mount) ? req.mount : ''}`;
}

/** Examples drawn from the catalog, or undefined for a catalog with no market that answers as itself. */
function catalogExamples(catalog: MarketCatalog, profile: ResponseProfile): OpenApiServed['examples'] {
  let entry;
  for (let i = 0; i < Math.min(catalog.size, 1000) && !entry; i++) {
    const candidate = catalog.entryAt(i);
    if (candidate && candidate.deviated === undefined) entry = candidate;
  }
  if (!entry) return undefined;
  return { marketId: entry.market.market_id, market: JSON.parse(utf8Text(entry.body)) as unknown, list: listExample(catalog, profile) };
}

/** The list's first page as the stub serves it (`?limit=3`); an unpaged list's first three markets in its envelope. */
function listExample(catalog: MarketCatalog, profile: ResponseProfile): unknown {
  if (profile.paging !== 'none') {
    const reply = renderList(catalog, new URLSearchParams({ limit: String(LIST_EXAMPLE_SIZE) }), profile);
    return JSON.parse(utf8Text(reply.body)) as unknown;
  }
  const items: unknown[] = [];
  for (let i = 0; i < Math.min(catalog.size, LIST_EXAMPLE_SIZE); i++) items.push(JSON.parse(catalog.entryAt(i)?.summaryJson ?? 'null'));
  return profile.envelope === 'bare' ? items : { [profile.envelope]: items };
}
