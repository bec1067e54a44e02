// HTTP as deployments speak it: retries of 429/503 with Retry-After,
// the keep-alive idle race, gzip and br, bodies that are not what their headers say, BOMs,
// charsets, duplicate member names, numbers that are not doubles, and body size limits — each
// against a small deviant node:http deployment, through `market-stub check` (in process).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

/** A JSON answer with a body given as text (so it can hold what JSON.stringify never writes). */
function rawJson(text: string, headers: Record<string, string> = {}) {
  return { status: 200, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(text) };
}

describe('retries (RFC 9110 §10.2.3 Retry-After; §9.2.2 idempotent GET)', () => {
  it('retries a 429 with Retry-After: 1 after a second and reports the retry as information', async () => {
    let listCalls = 0;
    await withServer(conformingMarkets(3), { list: () => (++listCalls === 1 ? json({ error: 'slow down' }, 429, { 'retry-after': '1' }) : json(conformingMarkets(3).map(summaryOf))) }, async (server) => {
      const started = performance.now();
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
      expect(problemKeys(run.report)).toEqual([]);
      expect(findingOf(run.report, 'retry')).toMatchObject({ severity: 'info', endpoint: LIST, count: 1, found: '429 with Retry-After: 1; concurrency lowered to 4, retried after 1000 ms' });
    });
  });

  it('does not wait for a 503\'s Retry-After beyond --retry-after-max-ms: an announced outage, could not run (exit 2) at once', async () => {
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? json({ error: 'later' }, 503, { 'retry-after': '120' }) : undefined) }, async (server) => {
      const started = performance.now();
      const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', 'json']);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(run.code).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ exitCode: 2, findings: [{ code: 'could-not-run', endpoint: SINGLE, examples: [{ request: '/markets/DEV-2' }] }] });
      expect(run.stderr).toMatch(/^market-stub check: the deployment announced it is unavailable: 503 \(Service Unavailable\) to GET \/markets\/DEV-2 with Retry-After: 120, 2 min from now .*more than the 10 s the check waits \(--retry-after-max-ms 10000\)/);
    });
  });

  it('resends a GET once on a fresh connection when a kept-alive connection is closed before any response byte (the idle-timeout race)', async () => {
    const seen = new WeakMap<Socket, number>();
    const race = (req: IncomingMessage) => {
      const n = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, n);
      // The server closes each kept-alive connection as the second request arrives on it.
      return n === 2 ? 'reset' as const : undefined;
    };
    await withServer(conformingMarkets(6), { single: (_id, _url, req) => race(req), list: (_url, req) => race(req) ?? json(conformingMarkets(6).map(summaryOf)) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--concurrency', '1']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([]);
      const retry = findingOf(run.report, 'retry', SINGLE);
      expect(retry.found).toBe('the connection was closed before any response byte; retried on a fresh connection');
      expect(retry.count).toBeGreaterThanOrEqual(1);
    });
  });

  it('reports a connection closed mid-body with its real cause, in text, json and junit', async () => {
    const cut = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"market_id":"DEV-2",');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? { stream: cut } : undefined) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      const failed = findingOf(run.report, 'request-failed', SINGLE);
      expect(failed.found).toMatch(/^the connection was closed before the body was complete \(/);
      for (const format of ['text', 'junit']) {
        const other = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', format]);
        expect(other.stdout, format).toContain('the connection was closed before the body was complete');
      }
    });
  });
});

describe('content codings (Accept-Encoding: gzip, br)', () => {
  it('asks for gzip and br and decodes both', async () => {
    const markets = conformingMarkets(4);
    await withServer(markets, {
      list: () => ({ status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(markets.map(summaryOf))) }),
      single: (id) => {
        const market = markets.find((m) => m['market_id'] === id);
        return market ? { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'br' }, body: brotliCompressSync(JSON.stringify(market)) } : undefined;
      },
    }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.report.summary).toMatchObject({ marketsListed: 4, marketsChecked: 4 });
      expect(server.requests.every((r) => r.headers['accept-encoding'] === 'gzip, br')).toBe(true);
    });
  });

  it('keeps the real cause of a body that is not what its Content-Encoding says, in every format', async () => {
    const notGzip = { status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: JSON.stringify(conformingMarket(2)) };
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? notGzip : undefined) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      expect(findingOf(run.report, 'undecodable-body', SINGLE).found).toBe('the gzip body could not be decoded: incorrect header check (Z_DATA_ERROR)');
      for (const format of ['text', 'junit']) {
        const other = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', format]);
        expect(other.stdout, format).toContain('incorrect header check (Z_DATA_ERROR)');
      }
    });
    await withServer(conformingMarkets(3), { list: () => ({ ...notGzip, body: '[]' }) }, async (server) => {
      const run = await runCheckJson(server.url);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error undecodable-body ${LIST} `]);
    });
  });
});

describe('bodies read as bytes (RFC 8259 §4, §6, §8.1)', () => {
  it('warns about a UTF-8 byte-order mark and a charset other than UTF-8, then reads the body as UTF-8', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await withServer(conformingMarkets(3), {
      list: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.concat([bom, Buffer.from(JSON.stringify(conformingMarkets(3).map(summaryOf)))]) }),
      single: (id) => (id === 'DEV-2' ? { status: 200, headers: { 'content-type': 'application/json; charset=ISO-8859-1' }, body: JSON.stringify(conformingMarket(2)) } : undefined),
    }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([`warning bom ${LIST} `, `warning charset ${SINGLE} `]);
      expect(findingOf(run.report, 'charset').found).toBe('Content-Type "application/json; charset=ISO-8859-1"; the body was read as UTF-8');
      expect(run.report.summary.marketsListed).toBe(3);
    });
  });

  it('warns about duplicate member names with the literal name, and judges the last value as JSON.parse does', async () => {
    const m = conformingMarket(1);
    const single = `{"market_id":"DEV-1","title":${JSON.stringify(m['title'])},"status":"active","yes_price":"0.99","yes_price":${m['yes_price']},"no_price":${m['no_price']},"resolution_date":"2099-12-31"}`;
    const list = `[{"market_id":"DEV-1","market_id":"DEV-1","title":${JSON.stringify(m['title'])},"status":"active","yes_price":${m['yes_price']},"no_price":${m['no_price']}}]`;
    await withServer([m], { list: () => rawJson(list), single: () => rawJson(single) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      // The first yes_price is a string (an error) but JSON.parse keeps the last, a number: no type error.
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([`warning duplicate-member ${LIST} /*/market_id`, `warning duplicate-member ${SINGLE} /yes_price`]);
      expect(findingOf(run.report, 'duplicate-member', SINGLE).found).toBe(`"yes_price" named twice in one object; the last value, ${m['yes_price']}, is used (as JSON.parse does), not "0.99"`);
    });
  });

  it('warns about number literals that are not finite doubles, with the literal, and shows it where JSON.parse made Infinity', async () => {
    const single = (id: string, yes: string, no: string) => `{"market_id":"${id}","title":"t","status":"active","yes_price":${yes},"no_price":${no},"resolution_date":"2099-12-31"}`;
    const markets = [conformingMarket(1, { title: 't', yes_price: 0.5, no_price: 0.5 }), conformingMarket(2, { title: 't', yes_price: 0.5, no_price: 0.5 })];
    await withServer(markets, {
      single: (id) => rawJson(id === 'DEV-1' ? single(id, '1e400', '0.5') : single(id, '0.5', '0.50000000000000000001')),
    }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual([`error type ${SINGLE} /yes_price`, `warning unsafe-number ${SINGLE} /no_price`, `warning unsafe-number ${SINGLE} /yes_price`]);
      const unsafe = run.report.findings.filter((f) => f.code === 'unsafe-number').map((f) => f.found).sort();
      expect(unsafe).toEqual([
        '0.50000000000000000001: loses digits in a double: JSON.parse gives 0.5',
        '1e400: does not fit a double: JSON.parse gives Infinity, which JSON.stringify writes as null',
      ]);
      expect(findingOf(run.report, 'type', SINGLE).found).toBe('1e400 (JSON.parse gives Infinity, written as null)');
    });
  });
});

describe('body size limit (--max-body-mb, decompressed bytes count, enforced while streaming)', () => {
  const big = (bytes: number) => ({ ...conformingMarket(2), notes: 'x'.repeat(bytes) });

  it('a single market over the limit stops the run at the checker\'s limit (exit 2), naming the limit, the URL and the value that lets it finish', async () => {
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? json(big(1_200_000)) : undefined) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all', '--max-body-mb', '1']);
      expect(run.code).toBe(2);
      expect(findingOf(run.report, 'could-not-run', SINGLE).found).toMatch(new RegExp(`^GET ${server.url}/markets/DEV-2: the body is larger than the limit of 1 MiB \\(1,048,576 bytes\\) \\(--max-body-mb; decompressed bytes count\\): a limit of the checker \\(--max-body-mb 1\\), not of the deployment's contract\\. To let the run finish, give --max-body-mb 2 \\(its Content-Length is 1,200,\\d{3} bytes\\)`));
    });
  });

  it('a list over the limit stops the check with exit 2 naming the limit and the URL; so does a gzip bomb and an endless body, long before --timeout-ms', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('['), Buffer.alloc(64 * 1_048_576, 0x20), Buffer.from(']')]));
    expect(bomb.length).toBeLessThan(200_000);
    const endless = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from(`${JSON.stringify(summaryOf(conformingMarket(1)))},`.repeat(200));
      res.write('[');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    };
    const cases = [
      { list: () => json(conformingMarkets(9_000).map((m) => summaryOf({ ...m, title: 'y'.repeat(150) }))) },
      { list: () => ({ status: 200, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb }) },
      { list: () => ({ stream: endless }) },
    ];
    for (const deviations of cases) {
      await withServer([], deviations, async (server) => {
        const started = performance.now();
        const run = await runCliInProcess(['check', '--base-url', server.url, '--max-body-mb', '1', '--timeout-ms', '60000']);
        expect(run.code).toBe(2);
        expect(run.stdout).toContain('COULD NOT RUN');
        expect(run.stderr).toMatch(new RegExp(`^market-stub check: GET ${server.url}/markets: the body is larger than the limit of 1 MiB \\(1,048,576 bytes\\) \\(--max-body-mb; decompressed bytes count\\): a limit of the checker \\(--max-body-mb 1\\), not of the deployment's contract\\. To let the run finish, give --max-body-mb `));
        expect(performance.now() - started).toBeLessThan(30_000);
      });
    }
  });
});
