// The secrets of a crawl: what it was given (--header values, the base URL's secret query values,
// network credentials: crawl-settings.ts) and the cookie values the deployment set during the run
// (http-client/run-cookies.ts). One redactor over both for every sink: the report, the refusal
// sentence, recorded fixtures and `invalid/` files (docs/networks.md, "Cookies").
import type { Redactor } from '../../floor/redact-secrets.js';
import type { CrawlState } from './crawl-state.js';

const cache = new WeakMap<CrawlState, { values: readonly string[]; redactor: Redactor }>();

/** The redactor of a crawl now: the settings' secrets and every cookie value kept so far (built again only when those changed). */
export function runRedactor(state: CrawlState): Redactor {
  const values = state.client.cookies.values();
  const cached = cache.get(state);
  if (cached && sameValues(cached.values, values)) return cached.redactor;
  const redactor = values.length === 0 ? state.settings.redactor : state.settings.redactor.extend(values);
  cache.set(state, { values, redactor });
  return redactor;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/**
 * The information finding `cookies`: the names of the cookies the deployment set, kept and sent
 * back on its origin, and those not kept (over a limit, or refused by RFC 6265); never a value.
 * Nothing when the deployment set none.
 */
export function noteCookies(state: CrawlState): void {
  const kept = state.client.cookies.names();
  const dropped = state.client.cookies.dropped();
  if (kept.length === 0 && dropped.length === 0) return;
  const names = (list: readonly string[]) => list.map((name) => JSON.stringify(name)).join(', ');
  const parts = [
    ...(kept.length > 0 ? [`the deployment set ${kept.length === 1 ? 'the cookie' : `${kept.length} cookies`} ${names(kept)}; kept for the run and sent back on ${state.settings.base.origin} only (values redacted)`] : []),
    ...(dropped.length > 0 ? [`not kept: ${names(dropped)} (over a limit of docs/limits.md, or refused by RFC 6265 §5.3)`] : []),
  ];
  const found = parts.join('; ');
  state.info({ code: 'cookies', endpoint: 'deployment', pointerTemplate: '', example: { pointer: '', found, request: '' }, message: `cookies: ${found}` });
}
