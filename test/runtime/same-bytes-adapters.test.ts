// One core, four adapters: for the same options, node:http (startMarketStub), Express (createApp
// behind http.createServer), MSW (createMarketStubHandlers, answered with msw's getResponse) and the
// Fetch handler (createFetchHandler) give the same status, the same headers (the stub clock's Date
// included) and the same body bytes, for the market routes, health, /openapi.json, 404, 405, a CORS
// preflight and the admin API's reads; a fast-check property over seeds, profiles and paths; a
// lifecycle stub (docs/lifecycle.md) at instants where its markets open, close and resolve.
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { getResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createApp, startMarketStub, type ResponseProfile } from '../../src/index.js';
import { createFetchHandler } from '../../src/fetch.js';
import { createMarketStubHandlers } from '../../src/msw.js';

/** The host every request names, so the OpenAPI document's server URL is the same everywhere. */
const HOST = 'same-bytes.market-stub.test';
const CLOCK = '2026-05-06';
/** Hop-by-hop fields a socket adds and a fetch Response never has (RFC 9110 §7.6.1). */
const TRANSPORT_FIELDS = new Set(['connection', 'keep-alive', 'transfer-encoding']);

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Step {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON body (sent with Content-Type: application/json). */
  body?: string;
}

const STEPS: Step[] = [
  { method: 'GET', path: '/markets' }, { method: 'GET', path: '/markets?limit=2' }, { method: 'GET', path: '/markets/{id}' },
  { method: 'HEAD', path: '/markets/{id}' }, { method: 'GET', path: '/markets/no-such-market' }, { method: 'GET', path: '/markets/%E0%A4%A' },
  { method: 'GET', path: '/markets/%' }, { method: 'GET', path: '/markets/%zz' }, { method: 'HEAD', path: '/markets/%zz' },
  { method: 'GET', path: '/healthz' }, { method: 'GET', path: '/openapi.json' }, { method: 'GET', path: '/no/such/route' },
  { method: 'POST', path: '/markets' }, { method: 'PUT', path: '/openapi.json' }, { method: 'DELETE', path: '/healthz' },
  { method: 'OPTIONS', path: '/markets', headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'prefer' } },
  { method: 'GET', path: '/markets', headers: { 'if-none-match': '*' } }, { method: 'GET', path: '/markets/{id}', headers: { 'if-none-match': '*' } },
  { method: 'HEAD', path: '/markets/{id}', headers: { 'if-none-match': '*' } }, { method: 'GET', path: '/markets?limit=2', headers: { 'if-none-match': '"x"', 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' } },
  { method: 'GET', path: '/markets/{id}', headers: { prefer: 'deviation=item-unconditional-304' } }, { method: 'GET', path: '/markets/{id}', headers: { prefer: 'deviation=stale-etag' } },
  { method: 'GET', path: '/markets', headers: { prefer: 'code=503' } }, { method: 'GET', path: '/markets', headers: { prefer: 'nonsense=1' } }, // an unknown preference is ignored (RFC 7240 §2)
  { method: 'GET', path: '/__stub' }, { method: 'GET', path: '/__stub/markets' }, { method: 'GET', path: '/__stub/deviations' },
  { method: 'GET', path: '/__stub/no-such' }, { method: 'GET', path: '/__stub', headers: { origin: 'http://evil.test' } },
  { method: 'GET', path: '/__stub/markets', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } },
  { method: 'GET', path: '/__stub', headers: { 'sec-fetch-site': 'same-site' } }, { method: 'GET', path: '/__stub', headers: { 'sec-fetch-site': 'same-origin' } },
  // Why this answer (docs/explain.md): the same Market-Stub-Explain everywhere; an odd value is the same 400.
  { method: 'GET', path: '/markets/{id}', headers: { prefer: 'explain, deviation=string-price' } }, { method: 'GET', path: '/markets?limit=2', headers: { prefer: 'explain, code=203' } },
  { method: 'GET', path: '/markets/no-such-market', headers: { prefer: 'explain' } }, { method: 'GET', path: '/markets', headers: { prefer: 'explain=maybe' } },
];

const PROFILES: Partial<ResponseProfile>[] = [{}, { envelope: 'markets', paging: 'cursor', pageSize: 3 }, { paging: 'offset', pageSize: 2, errors: 'problem' }, { envelope: 'data', errors: 'error-object', filterStatus: true }];

/** One request to a listening server over node:http, naming HOST. */
function overSocket(origin: string, step: Step): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const url = new URL(step.path, origin);
    const req = httpRequest(url, { method: step.method, headers: { host: HOST, ...step.headers, ...(step.body === undefined ? {} : { 'content-type': 'application/json' }) }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = (res.rawHeaders[i] ?? '').toLowerCase();
          if (!TRANSPORT_FIELDS.has(name)) headers[name] = headers[name] === undefined ? (res.rawHeaders[i + 1] ?? '') : `${headers[name]}, ${res.rawHeaders[i + 1] ?? ''}`;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', reject);
    req.end(step.body);
  });
}

async function fromResponse(res: Response | undefined): Promise<Seen> {
  if (!res) throw new Error('the adapter passed the request on');
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT_FIELDS.has(name)));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
}

const toRequest = (step: Step) => new Request(`http://${HOST}${step.path}`, { method: step.method, headers: { ...step.headers, ...(step.body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(step.body === undefined ? {} : { body: step.body }) });

/** The stub clock's Date may tick between two adapters' answers: same day, at most 2 s apart, then set aside. */
function withoutDate(seen: Seen, day = 'Wed, 06 May 2026'): Omit<Seen, 'headers'> & { headers: Record<string, string> } {
  const { date, ...headers } = seen.headers;
  expect(date, 'every answer carries Date').toMatch(new RegExp(`^${day} \\d\\d:\\d\\d:\\d\\d GMT$`));
  // The explanation names the instant of that Date: checked against it, then set aside with it.
  const explain = headers['market-stub-explain'];
  if (explain !== undefined) {
    const instant = /instant="([^"]*)"/.exec(explain)?.[1] ?? '';
    expect(Math.floor(Date.parse(instant) / 1000) * 1000, `${instant} within the second of ${date}`).toBe(Date.parse(date ?? ''));
    headers['market-stub-explain'] = explain.replace(/instant="[^"]*"/, 'instant=(the Date)');
  }
  return { ...seen, headers };
}

function listen(listener: Parameters<typeof createServer>[1]): Promise<{ origin: string; server: Server }> {
  const server = createServer(listener);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/** What a stub built from the same options for all four adapters may add: markets given in code, CORS, the error log. */
interface Extra {
  markets?: object[];
  cors?: boolean;
  explain?: boolean;
  errorLog?: (line: string) => void;
  clockRate?: number;
  priceStep?: string;
  lifecycle?: 'off' | 'generic' | 'kalshi';
  count?: number;
}

async function fourAdapters(seed: number, profile: Partial<ResponseProfile>, extra: Extra = {}) {
  const { markets, count = 7, ...more } = extra;
  const runtimeOptions = { seed, clock: CLOCK, profile, allowedHosts: [HOST], errorLog: () => {}, ...more };
  const options = { ...runtimeOptions, count, ...(markets ? { markets } : {}) };
  const http = await startMarketStub(options);
  const express = await listen(createApp({ ...runtimeOptions, catalog: await buildCatalog({ seed, count, clock: CLOCK, ...(markets ? { markets } : {}) }) }) as Parameters<typeof createServer>[1]);
  const { handlers } = createMarketStubHandlers({ ...options, admin: true, baseUrl: `http://${HOST}` });
  const fetchHandler = createFetchHandler(options);
  // Markets given in code are the test's own (and reading the catalog would render them ahead of the test).
  const id = markets ? '' : ((await http.catalog())[3]?.market_id ?? '');
  const answer = async (step: Step) => {
    const concrete = { ...step, path: step.path.replace('{id}', encodeURIComponent(id)) };
    return Promise.all([
      overSocket(http.url, concrete),
      overSocket(express.origin, concrete),
      getResponse(handlers, toRequest(concrete)).then(fromResponse),
      fetchHandler.fetch(toRequest(concrete)).then(fromResponse),
    ]);
  };
  const close = async () => {
    await http.close();
    await new Promise((resolve) => express.server.close(resolve));
  };
  return { answer, close };
}

describe('node:http, Express, MSW and the Fetch handler give the same bytes', () => {
  it('for every route, over seeds, profiles and paths (fast-check)', async () => {
    await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(...PROFILES), fc.shuffledSubarray(STEPS, { minLength: 6 }), async (seed, profile, steps) => {
      const adapters = await fourAdapters(seed, profile);
      try {
        for (const step of steps) {
          const [http, express, msw, fetched] = (await adapters.answer(step)).map((seen) => withoutDate(seen));
          expect(express, `Express: ${step.method} ${step.path}`).toEqual(http);
          expect(msw, `MSW: ${step.method} ${step.path}`).toEqual(http);
          expect(fetched, `Fetch: ${step.method} ${step.path}`).toEqual(http);
        }
      } finally {
        await adapters.close();
      }
    }), { numRuns: 8 });
  }, 120_000);

  it('with a running clock moved forward, the same instant gives the same bytes: prices walked, the Date of that day', async () => {
    // A minute of stub time a real second and an hour a price step: the four stubs, started and
    // moved within the same real seconds, answer within the same step.
    const adapters = await fourAdapters(11, {}, { clockRate: 60, priceStep: 'PT1H' });
    try {
      const moved = await adapters.answer({ method: 'POST', path: '/__stub/clock', body: '{"advance":"P3DT7H"}' });
      for (const answer of moved) expect(answer.status).toBe(200);
      const start = (await adapters.answer({ method: 'GET', path: '/markets' }))[0];
      for (const step of [{ method: 'GET', path: '/markets' }, { method: 'GET', path: '/markets?limit=2' }, { method: 'GET', path: '/markets/{id}' }, { method: 'GET', path: '/__stub/markets' }]) {
        const [http, express, msw, fetched] = (await adapters.answer(step)).map((seen) => withoutDate(seen, 'Sat, 09 May 2026'));
        expect(express, `Express: ${step.method} ${step.path}`).toEqual(http);
        expect(msw, `MSW: ${step.method} ${step.path}`).toEqual(http);
        expect(fetched, `Fetch: ${step.method} ${step.path}`).toEqual(http);
      }
      const frozen = await fourAdapters(11, {});
      try {
        expect((await frozen.answer({ method: 'GET', path: '/markets' }))[0]?.body).not.toBe(start?.body);
      } finally {
        await frozen.close();
      }
    } finally {
      await adapters.close();
    }
  }, 60_000);

  it('with a lifecycle, at instants where markets open, close, resolve and leave the list: the same list pages and items (not-yet-open, closed, finalized)', async () => {
    const adapters = await fourAdapters(11, { paging: 'offset', pageSize: 4 }, { lifecycle: 'kalshi', count: 60 });
    const days = ['Wed, 06 May 2026', 'Mon, 24 Aug 2026', 'Sun, 20 Jun 2027'];
    try {
      for (const [k, advance] of ['PT0S', 'P110D', 'P300D'].entries()) {
        for (const answer of await adapters.answer({ method: 'POST', path: '/__stub/clock', body: JSON.stringify({ advance }) })) expect(answer.status).toBe(200);
        const markets = JSON.parse(Buffer.from((await adapters.answer({ method: 'GET', path: '/__stub/markets' }))[0]?.body ?? '', 'base64').toString()) as { market_id: string; status: string }[];
        const sample = [...new Map(markets.map((m) => [m.status, m.market_id])).values()];
        const steps = [{ method: 'GET', path: '/markets' }, { method: 'GET', path: '/markets?offset=4' }, { method: 'GET', path: '/markets?offset=12&limit=3' }, ...sample.map((id) => ({ method: 'GET', path: `/markets/${id}` }))];
        for (const step of steps) {
          const [http, express, msw, fetched] = (await adapters.answer(step)).map((seen) => withoutDate(seen, days[k]));
          expect(express, `Express: ${step.path} after ${advance}`).toEqual(http);
          expect(msw, `MSW: ${step.path} after ${advance}`).toEqual(http);
          expect(fetched, `Fetch: ${step.path} after ${advance}`).toEqual(http);
        }
        if (k > 0) expect(new Set(markets.map((m) => m.status)).size, advance).toBeGreaterThan(2);
      }
    } finally {
      await adapters.close();
    }
  }, 60_000);

  it('with the explain option on, every step (Market-Stub-Explain on every answer but the admin API\'s and the preflight)', async () => {
    for (const profile of PROFILES) {
      const adapters = await fourAdapters(11, profile, { explain: true });
      try {
        for (const step of STEPS) {
          const [http, express, msw, fetched] = (await adapters.answer(step)).map((seen) => withoutDate(seen));
          expect(express, `Express: ${step.method} ${step.path}`).toEqual(http);
          expect(msw, `MSW: ${step.method} ${step.path}`).toEqual(http);
          expect(fetched, `Fetch: ${step.method} ${step.path}`).toEqual(http);
          const explained = http?.headers['market-stub-explain'] !== undefined;
          expect(explained, `${step.method} ${step.path}`).toBe(!step.path.startsWith('/__stub') && step.method !== 'OPTIONS' && step.headers?.['prefer'] !== 'explain=maybe');
        }
      } finally {
        await adapters.close();
      }
    }
  }, 60_000);

  it('every step of the list answers as the route it names', async () => {
    const adapters = await fourAdapters(5, {});
    try {
      const statuses = [];
      for (const step of STEPS) statuses.push((await adapters.answer(step))[0]?.status);
      expect(statuses).toEqual([200, 200, 200, 200, 404, 400, 400, 400, 400, 200, 200, 404, 405, 405, 404, 204, 304, 304, 304, 200, 304, 200, 503, 200, 200, 200, 200, 404, 403, 403, 403, 200, 200, 203, 404, 400]);
    } finally {
      await adapters.close();
    }
  }, 30_000);
});

/** A valid market whose `title` (read by the list and the item alike) throws when read once `armed` is set: a catalog that fails while answering. */
function explodingMarket(id: string, armed: () => boolean): object {
  const market = { market_id: id, status: 'active', yes_price: 0.4, no_price: 0.6, resolution_date: '2027-01-01' };
  return Object.defineProperty(market, 'title', {
    enumerable: true,
    get() {
      if (armed()) throw new Error('catalog exploded at /home/secret/stub.ts:42');
      return 'Will the catalog hold?';
    },
  });
}

describe('a handler that throws is the stub\'s own 500 through every adapter', () => {
  it.each([['default', {}], ['problem', { errors: 'problem' as const }], ['error-object', { errors: 'error-object' as const }]])('the same bytes in the %s error shape, with Date and CORS, no stack; the cause goes to the error log', async (_name, profile) => {
    let armed = false;
    const logged: string[] = [];
    const markets = [explodingMarket('BOOM-1', () => armed), explodingMarket('BOOM-2', () => armed)];
    const adapters = await fourAdapters(9, profile, { markets, cors: true, errorLog: (line) => logged.push(line) });
    try {
      armed = true;
      for (const step of [{ method: 'GET', path: '/markets/BOOM-1' }, { method: 'HEAD', path: '/markets/BOOM-2' }, { method: 'GET', path: '/markets' }, { method: 'GET', path: '/markets?limit=1' }]) {
        const [http, express, msw, fetched] = (await adapters.answer(step)).map((seen) => withoutDate(seen));
        expect(http?.status, `${step.method} ${step.path}`).toBe(500);
        expect(http?.headers['access-control-allow-origin']).toBe('*');
        expect(express, `Express: ${step.method} ${step.path}`).toEqual(http);
        expect(msw, `MSW: ${step.method} ${step.path}`).toEqual(http);
        expect(fetched, `Fetch: ${step.method} ${step.path}`).toEqual(http);
        if (step.method === 'GET') {
          const body = Buffer.from(http?.body ?? '', 'base64').toString('utf8');
          expect(body).toMatch(/internal[_-]error/);
          expect(body).not.toMatch(/exploded|secret|stub\.ts|\bat /);
        }
      }
      expect(logged.filter((l) => l.includes('catalog exploded')).length).toBeGreaterThanOrEqual(16);
      expect(logged.every((l) => l.startsWith('market-stub: 500 on '))).toBe(true);
      // The stub still answers afterwards.
      armed = false;
      const [http, express, msw, fetched] = await adapters.answer({ method: 'GET', path: '/markets/BOOM-1' });
      for (const seen of [http, express, msw, fetched]) expect(seen?.status).toBe(200);
    } finally {
      await adapters.close();
    }
  }, 30_000);

  it('MSW answers bad percent-encoding with the stub\'s 400 JSON, never msw\'s own 500 with a stack', async () => {
    const { handlers } = createMarketStubHandlers({ count: 2, seed: 1, clock: CLOCK, baseUrl: `http://${HOST}` });
    for (const path of ['/markets/%', '/markets/%zz', '/markets/%E0%A4%A', '/markets/%C0%AF']) {
      const res = await getResponse(handlers, new Request(`http://${HOST}${path}`));
      expect(res?.status, path).toBe(400);
      expect(res?.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await res?.json() as Record<string, unknown>;
      expect(body).toEqual({ status: 400, error: 'bad_request', message: `The market_id in ${path} is not valid percent-encoding (RFC 3986 §2.1).`, path });
    }
  });
});
