// Credentials stay where they were given : --header values go only to the
// origin of --base-url (a redirect or paging link elsewhere is followed without them, or refused
// with --same-origin-only), and no output of check, record or proxy holds a secret in any form:
// raw, without its auth scheme, JSON-escaped, XML-escaped, percent-encoded or cut short.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, runCliProcess } from '../support/cli-process.js';
import { conformingMarket, conformingMarkets, json, summaryOf, withServer, type DeviantServer, type RawMarket } from './deviant-server.js';
import { filesUnder, findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-credentials-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('headers go only to the origin of --base-url', () => {
  const secretHeaders = ['--header', 'Authorization: Bearer q7Zt0k-0r1g1n-8c2f', '--header', 'X-Api-Key: kq-55e1-9a0b-77cd'];
  const credentialsOf = (server: DeviantServer) => server.requests.filter((r) => r.headers['authorization'] !== undefined || r.headers['x-api-key'] !== undefined);

  /** A deployment whose DEV-2 redirects (307) to the same path on `elsewhere`, and whose list links its second page there. */
  const pointingTo = (elsewhere: DeviantServer) => ({
    list: (url: URL) => (url.searchParams.get('page') === '2' ? json([summaryOf(conformingMarket(3))]) : json({ markets: conformingMarkets(2).map(summaryOf), next: `${elsewhere.url}/markets?page=2` })),
    single: (id: string) => (id === 'DEV-2' ? { status: 307, headers: { location: `${elsewhere.url}/markets/DEV-2` }, body: '' } : undefined),
  });

  it('follows a redirect or a paging link to another origin without the headers, and warns naming that origin', async () => {
    await withServer(conformingMarkets(3), { list: (url) => json(url.searchParams.get('page') === '2' ? [summaryOf(conformingMarket(3))] : []) }, async (elsewhere) => {
      await withServer(conformingMarkets(3), pointingTo(elsewhere), async (origin) => {
        const run = await runCheckJson(origin.url, ['--all', ...secretHeaders]);
        expect(run.code).toBe(0);
        expect(problemKeys(run.report)).toEqual([`warning cross-origin ${LIST} `, `warning cross-origin ${SINGLE} `]);
        const otherOrigin = new URL(elsewhere.url).origin;
        expect(findingOf(run.report, 'cross-origin', LIST).found).toBe(`the next page is on another origin, ${otherOrigin}; followed without the --header values`);
        expect(findingOf(run.report, 'cross-origin', SINGLE).found).toBe(`307 redirect to another origin, ${otherOrigin}; followed without the --header values`);
        // The other origin was asked (page 2 and DEV-2), never with a credential; the origin always with them.
        expect(elsewhere.requests.map((r) => r.url).sort()).toEqual(['/markets/DEV-2', '/markets?page=2']);
        expect(credentialsOf(elsewhere)).toEqual([]);
        expect(origin.requests.every((r) => r.headers['authorization'] === 'Bearer q7Zt0k-0r1g1n-8c2f' && r.headers['x-api-key'] === 'kq-55e1-9a0b-77cd')).toBe(true);
        expect(run.report.summary.marketsListed).toBe(3);
      });
    });
  });

  it('refuses both with --same-origin-only (errors), and never contacts the other origin', async () => {
    await withServer(conformingMarkets(3), undefined, async (elsewhere) => {
      await withServer(conformingMarkets(3), pointingTo(elsewhere), async (origin) => {
        const run = await runCheckJson(origin.url, ['--all', '--same-origin-only', ...secretHeaders]);
        expect(run.code).toBe(1);
        expect(problemKeys(run.report)).toEqual([`error cross-origin ${LIST} `, `error cross-origin ${SINGLE} `]);
        expect(findingOf(run.report, 'cross-origin', SINGLE).found).toMatch(/^redirected \(307\) to another origin, http:\/\/127\.0\.0\.1:\d+; not followed \(--same-origin-only\)$/);
        expect(run.report.list.complete).toBe(false);
        expect(elsewhere.requests).toEqual([]);
      });
    });
  });
});

describe('no output holds a secret, in any form', () => {
  // Secrets with characters every escaping changes, long enough that reports cut them short.
  const bare = `tok_9f8e"7d&<6c>5b'4a/3+2=1_${'Zq7Lm3Xw9Rt2Vb6Nk4Hs8Pd1Gf5Jc0'.repeat(2)}`;
  const auth = `Bearer ${bare}`;
  const key = `k3y-${'A9b8C7d6E5f4G3h2'.repeat(4)}`;
  const xml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
  const jsonEscaped = (s: string) => JSON.stringify(s).slice(1, -1);

  /** Every form a secret could be written in, cut to the first `n` characters (a prefix that long is a leak). */
  const forms = (secret: string, n: number) => [secret, jsonEscaped(secret), jsonEscaped(jsonEscaped(secret)), xml(secret), xml(jsonEscaped(secret)), encodeURIComponent(secret), encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())].map((f) => f.slice(0, n));
  const leaked = (output: string) => [...forms(auth, 16), ...forms(bare, 12), ...forms(key, 12)].filter((form) => output.includes(form));

  /** A deployment that echoes the secrets back in every way it can. */
  const markets: RawMarket[] = conformingMarkets(7);
  const echoing = {
    list: (url: URL) => {
      if (url.searchParams.get('page') === '2') return json({ markets: conformingMarkets(7).slice(4).map(summaryOf) });
      const items = conformingMarkets(4).map(summaryOf);
      (items[0] as RawMarket)['title'] = bare;
      return json({ markets: items, next: `/markets?page=2&k=${encodeURIComponent(key)}&a=${encodeURIComponent(auth)}` });
    },
    single: (id: string) => {
      switch (id) {
        case 'DEV-1': return json(conformingMarket(1, { title: `${auth} echoed back` }));
        case 'DEV-2': return json(conformingMarket(2, { market_id: key }));
        case 'DEV-3': return { status: 500, headers: { 'content-type': 'text/html' }, body: `<p>${xml(auth)} denied</p>` };
        case 'DEV-4': return json({ ...conformingMarket(4), [bare]: 1 });
        case 'DEV-5': return json({ ...conformingMarket(5), echo: auth, key });
        case 'DEV-6': return json(conformingMarket(6, { yes_price: `${bare}` }));
        default: return undefined;
      }
    },
  };


  it('check: text, json and junit reports (stdout and --output), and stderr', async () => {
    await withServer(markets, echoing, async (server) => {
      const headers = ['--header', `Authorization: ${auth}`, '--header', `X-Api-Key: ${key}`];
      for (const format of ['text', 'json', 'junit']) {
        const output = path.join(work, `report.${format}`);
        const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', format, ...headers]);
        const toFile = await runCliInProcess(['check', '--base-url', server.url, '--all', '--format', format, '--output', output, ...headers]);
        expect(run.code, format).toBe(1);
        // The deployment did echo them: the report has the findings, with the secrets redacted.
        expect(run.stdout, format).toContain('[redacted]');
        expect(leaked(run.stdout + run.stderr), format).toEqual([]);
        expect(leaked(await readFile(output, 'utf8') + toFile.stdout + toFile.stderr), format).toEqual([]);
      }
      const report = (await runCheckJson(server.url, ['--all', ...headers])).report;
      expect(report.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['list-single-mismatch', 'id-mismatch', 'http-status', 'header-echo', 'type', 'undocumented-field']));
    });
  });

  it('record: markets.json, invalid/responses.json, the report and stderr', async () => {
    await withServer(markets, echoing, async (server) => {
      const out = path.join(work, 'recorded');
      const run = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', out, '--keep-invalid', '--format', 'json', '--header', `Authorization: ${auth}`, '--header', `X-Api-Key: ${key}`]);
      expect(run.code).toBe(1);
      const files = await filesUnder(out);
      expect(files).toContain('DEV-7');
      expect(leaked(files)).toEqual([]);
      expect(leaked(run.stdout + run.stderr)).toEqual([]);
      // Markets whose body echoes a secret are never recorded.
      const recorded = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(recorded.map((m) => m['market_id'])).toEqual(['DEV-7']);
    });
  });

  it('proxy: log lines (text and json), the report and --record', async () => {
    await withServer(markets, echoing, async (server) => {
      for (const logFormat of ['json', 'text']) {
        const reportFile = path.join(work, `proxy-report-${logFormat}.json`);
        const recordDir = path.join(work, `proxy-record-${logFormat}`);
        const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', server.url, '--port', '0', '--log-format', logFormat, '--report', reportFile, '--format', 'json', '--record', recordDir], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        await expect.poll(() => /listening on (http:\/\/\S+?)(?:"|\s)/.exec(stdout)?.[1], { timeout: 10_000 }).toBeTruthy();
        const url = /listening on (http:\/\/\S+?)(?:"|\s)/.exec(stdout)?.[1] as string;
        const get = (target: string) => new Promise<void>((resolve, reject) => {
          request(`${url}${target}`, { headers: { authorization: auth, 'x-api-key': key } }, (res) => {
            res.resume();
            res.on('end', () => resolve());
          }).on('error', reject).end();
        });
        await get('/markets');
        await get(`/markets?page=2&k=${encodeURIComponent(key)}&a=${encodeURIComponent(auth)}`);
        for (let i = 1; i <= 7; i++) await get(`/markets/DEV-${i}`);
        await expect.poll(() => stdout, { timeout: 5_000 }).toContain('id-mismatch');
        child.kill('SIGTERM');
        expect(await exited).toBe(1);
        expect(stdout, logFormat).toContain('[redacted]');
        expect(leaked(stdout + stderr), logFormat).toEqual([]);
        expect(leaked(await readFile(reportFile, 'utf8')), logFormat).toEqual([]);
        const files = await filesUnder(recordDir);
        expect(files).toContain('DEV-7');
        expect(leaked(files), logFormat).toEqual([]);
      }
    });
  });
});
