// A browser app reads what a server-side client reads: every response header the market routes send,
// under every deviation and response profile, is CORS-safelisted or named in
// Access-Control-Expose-Headers (Fetch standard §3.2.3; src/runtime/answer-request.ts, CORS_HEADERS).
import { describe, expect, it } from 'vitest';
import { DEVIATIONS } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';

/** CORS-safelisted response-header names (Fetch standard §2.2.6). */
const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
/** Headers a page has no use for reading: CORS itself and the browser's own security instructions. */
const FOR_THE_BROWSER = /^(access-control-|vary$|x-content-type-options$|cross-origin-|content-encoding$)/;
const PROFILES = [{}, { paging: 'offset', pageSize: 3 }, { paging: 'cursor', pageSize: 3, envelope: 'markets' }] as const;

describe('Access-Control-Expose-Headers', () => {
  it('names every header a market route sends, for every deviation under three paging profiles', async () => {
    const unexposed = new Set<string>();
    let seen = 0;
    for (const profile of PROFILES) {
      for (const deviation of DEVIATIONS) {
        if (deviation.name === 'item-slow' || deviation.name === 'list-slow') continue;
        const stub = createFetchHandler({ seed: 3, count: 8, clock: '2026-01-01', profile, deviations: [{ name: deviation.name }] });
        const id = (await stub.catalog())[0]?.market_id ?? '';
        for (const target of ['/markets', '/markets?limit=2', `/markets/${encodeURIComponent(id)}`, '/markets/no-such-market']) {
          const res = await stub.fetch(new Request(`http://stub.test${target}`, { headers: { origin: 'http://app.test' } }));
          if (res.type === 'error') continue;
          await res.arrayBuffer();
          const exposed = new Set((res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/));
          for (const [name] of res.headers) {
            seen += 1;
            if (!SAFELISTED.has(name) && !FOR_THE_BROWSER.test(name) && !exposed.has(name)) unexposed.add(`${name} (${deviation.name}, ${JSON.stringify(profile)}, ${target})`);
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(1000);
    expect([...new Set([...unexposed].map((u) => u.split(" ")[0]))]).toEqual([]);
  }, 120_000);
});
