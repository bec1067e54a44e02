// A browser app reads what a server-side client reads: every answer of the market routes, under
// every deviation and response profile, exposes every header with the wildcard and admits any
// origin without credentials, the one case in which the Fetch standard (§3.2.3) honours
// `Access-Control-Expose-Headers: *` (src/runtime/answer-request.ts, CORS_HEADERS). That a page
// on another origin does read them is shown in Chromium: test/browser/browser-reaches-stub.test.ts.
import { describe, expect, it } from 'vitest';
import { DEVIATIONS } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';

const PROFILES = [{}, { paging: 'offset', pageSize: 3 }, { paging: 'cursor', pageSize: 3, envelope: 'markets' }] as const;

describe('Access-Control-Expose-Headers', () => {
  it('is the wildcard, with any origin and no credentials, on every answer of every deviation under three paging profiles', async () => {
    const wrong = new Set<string>();
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
          seen += 1;
          const cors = [res.headers.get('access-control-allow-origin'), res.headers.get('access-control-expose-headers'), res.headers.get('access-control-allow-credentials')];
          if (JSON.stringify(cors) !== JSON.stringify(['*', '*', null])) wrong.add(`${deviation.name} ${JSON.stringify(profile)} ${target}: ${JSON.stringify(cors)}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(300);
    expect([...wrong]).toEqual([]);
  }, 120_000);

  it('is not sent when CORS is off', async () => {
    const res = await createFetchHandler({ seed: 3, count: 2, clock: '2026-01-01', cors: false }).fetch(new Request('http://stub.test/markets', { headers: { origin: 'http://app.test' } }));
    expect([res.headers.get('access-control-allow-origin'), res.headers.get('access-control-expose-headers')]).toEqual([null, null]);
  });
});
