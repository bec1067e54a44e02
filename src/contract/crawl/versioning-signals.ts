import type { Observation } from '../checks/index.js';
import { displayUrl, requestTarget, resolveHttpUrl, type DeploymentResponse } from '../http-client/index.js';
import { parseLinkHeader } from '../paging/index.js';

/**
 * What a deployment says about its own retirement, read from the header fields of any answer:
 * - `Deprecation` (RFC 9745 §2): an RFC 9651 Date item, `@` and Unix seconds (`@1688169599`),
 *   past or future; the pre-RFC draft forms (`true`, an HTTP-date) are read and named as such;
 * - `Sunset` (RFC 8594 §3): an HTTP-date (RFC 9110 §5.6.7) when the resource may stop answering;
 * - `Link` relations `deprecation` (RFC 9745 §3), `sunset` (RFC 8594 §6), `successor-version`
 *   and `predecessor-version` (RFC 5829 §3): their targets, resolved against the answer's URL.
 * The contract documents no versioning (spec section 9), so none of these is an error: a
 * `deprecation` or `sunset` is a warning (a team should hear that the API is being retired before
 * it ships against it), version links are information.
 */
export type VersioningObservation = Omit<Observation, 'endpoint'>;

/** Link relations reported, and the RFC defining each. */
const VERSION_RELATIONS: Readonly<Record<string, string>> = {
  deprecation: 'RFC 9745 §3',
  sunset: 'RFC 8594 §6',
  'successor-version': 'RFC 5829 §3.3',
  'predecessor-version': 'RFC 5829 §3.4',
};

/** The versioning signals of one answer as observations (none when it carries none); `now` is for "in N days". */
export function versioningObservations(response: DeploymentResponse, marketId: string | undefined, now = Date.now()): VersioningObservation[] {
  const request = requestTarget(response.requested);
  const id = marketId === undefined ? {} : { marketId };
  const out: VersioningObservation[] = [];
  const links = versionLinks(response);
  const docs = (rel: string) => links.filter((l) => l.rel === rel).map((l) => ` (${rel} link: ${l.target})`).join('');
  const deprecation = response.headers['deprecation'];
  if (deprecation !== undefined) {
    const found = `Deprecation: ${clip(deprecation)}: ${describeDeprecation(deprecation, now)}${docs('deprecation')}`;
    out.push({ severity: 'warning', code: 'deprecation', pointerTemplate: '', expected: 'no Deprecation header (RFC 9745): the resource is not deprecated', example: { ...id, pointer: '', found, request } });
  }
  const sunset = response.headers['sunset'];
  if (sunset !== undefined) {
    const found = `Sunset: ${clip(sunset)}: ${describeSunset(sunset, deprecation, now)}${docs('sunset')}`;
    out.push({ severity: 'warning', code: 'sunset', pointerTemplate: '', expected: 'no Sunset header (RFC 8594): no date after which the resource may stop answering', example: { ...id, pointer: '', found, request } });
  }
  for (const link of links) {
    if ((link.rel === 'deprecation' && deprecation !== undefined) || (link.rel === 'sunset' && sunset !== undefined)) continue;
    const found = `Link rel="${link.rel}" (${VERSION_RELATIONS[link.rel] ?? ''}): ${link.target}`;
    out.push({ severity: 'info', code: 'version-link', pointerTemplate: '', expected: 'nothing in particular (information)', example: { ...id, pointer: '', found, request }, message: `${request}: ${found}` });
  }
  return out;
}

/** The version relations of the answer's `Link` field, each target resolved (RFC 3986 §5) and shown without user info. */
function versionLinks(response: DeploymentResponse): Array<{ rel: string; target: string }> {
  const value = response.headers['link'];
  if (value === undefined) return [];
  const out: Array<{ rel: string; target: string }> = [];
  for (const link of parseLinkHeader(value)) {
    const rels = (link.params['rel'] ?? '').toLowerCase().split(/\s+/);
    for (const rel of rels) {
      if (!Object.hasOwn(VERSION_RELATIONS, rel)) continue;
      const url = resolveHttpUrl(link.target, response.url);
      out.push({ rel, target: url ? displayUrl(url) : clip(link.target) });
    }
  }
  return out;
}

/** A Deprecation value in words: the date and whether it is past. */
export function describeDeprecation(value: string, now: number): string {
  const text = value.trim();
  const date = /^@(-?\d{1,15})$/.exec(text);
  if (date) return `deprecated ${relative(Number(date[1]) * 1000, now, 'since', 'from')} (RFC 9745 date)`;
  if (text === 'true' || text === '?1') return 'deprecated, no date given (an early draft form of RFC 9745; the RFC sends @seconds)';
  const http = Date.parse(text);
  if (/[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4}/.test(text) && Number.isFinite(http)) return `deprecated ${relative(http, now, 'since', 'from')} (an HTTP-date, an early draft form of RFC 9745; the RFC sends @seconds)`;
  return 'not an RFC 9745 date (@ and Unix seconds), so when is unknown; the resource says it is deprecated';
}

/** A Sunset value in words: the date, how far away, and a Sunset earlier than the Deprecation (RFC 9745 does not allow it). */
export function describeSunset(value: string, deprecation: string | undefined, now: number): string {
  const at = Date.parse(value.trim());
  if (!Number.isFinite(at)) return 'not an HTTP-date (RFC 9110 §5.6.7), so when is unknown';
  const deprecated = /^@(-?\d{1,15})$/.exec(deprecation?.trim() ?? '');
  const before = deprecated && at < Number(deprecated[1]) * 1000 ? '; earlier than its Deprecation date, which RFC 9745 does not allow' : '';
  return `the resource may stop answering ${relative(at, now, 'since', 'on')}${at <= now ? ': the date is past' : ''}${before}`;
}

/** `since 2023-06-30T23:59:59Z (879 days ago)` / `from 2027-01-01T00:00:00Z (in 35 days)`. */
function relative(ms: number, now: number, past: string, future: string): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return 'at a date out of range';
  const iso = new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
  const days = Math.round(Math.abs(ms - now) / 86_400_000);
  const span = days === 0 ? 'today' : ms < now ? `${days} day${days === 1 ? '' : 's'} ago` : `in ${days} day${days === 1 ? '' : 's'}`;
  return `${ms <= now ? past : future} ${iso} (${span})`;
}

/** A header value cut to 100 characters for a finding. */
function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 100 ? `${trimmed.slice(0, 99)}…` : trimmed;
}
