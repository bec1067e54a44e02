// `check` and `record` against deployments shaped like real gateways and APIs
// (gateway-deployments.ts): a key in the base URL's query kept on every request and never shown,
// access refused and planned maintenance as could-not-run (exit 2) with the cause and what to do,
// retirement headers as findings with their dates and targets in every format, and a market
// delisted between the list and its item read judged after a second look at its page.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../support/cli-process.js';
import { conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { checkDeployment, DeploymentRefusal } from '../../src/contract/index.js';
import { filesUnder, findingOf, problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';
import { sarifValidator } from './sarif-schema.js';
import { ANONYMOUS_REFUSED, delisting, GATEWAY_FORBIDDEN, keyInQuery, maintenance, retiring } from './gateway-deployments.js';

const LIST = 'GET /markets';
const SINGLE = 'GET /markets/{market_id}';
const FORMATS = ['text', 'json', 'markdown', 'html', 'junit', 'sarif'] as const;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-gateway-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});


describe('a key in the --base-url query', () => {
  // Long enough that a report cutting it short would still show a telling prefix.
  const KEY = 'K7q-basekey-5f1e9a0b77cd-Zx';
  /** Every form the key could be written in (raw, percent-encoded, JSON-escaped) and its first 12 characters. */
  const shows = (text: string) => [KEY, encodeURIComponent(KEY), KEY.slice(0, 12)].some((form) => text.includes(form));

  it('is kept on every request (pages, items, the probe), so check passes; the key shows in no report format, --output file or stderr', async () => {
    await withServer(conformingMarkets(5), keyInQuery(KEY), async (server) => {
      const base = `${server.url}/?api_key=${KEY}`;
      for (const format of FORMATS) {
        const output = path.join(work, `key-report.${format}`);
        const run = await runCliInProcess(['check', '--base-url', base, '--all', '--format', format]);
        const toFile = await runCliInProcess(['check', '--base-url', base, '--all', '--format', format, '--output', output]);
        expect(run.code, `${format}: ${run.stderr}`).toBe(0);
        expect(toFile.code, format).toBe(0);
        expect(shows(run.stdout + run.stderr + toFile.stdout + toFile.stderr + (await readFile(output, 'utf8'))), format).toBe(false);
      }
      const sarif = sarifValidator();
      expect(sarif(JSON.parse(await readFile(path.join(work, 'key-report.sarif'), 'utf8'))), JSON.stringify(sarif.errors?.slice(0, 3))).toBe(true);
      const checked = await runCheckJson(base, ['--all']);
      expect(problemKeys(checked.report)).toEqual([]);
      expect(checked.report.summary).toMatchObject({ marketsListed: 5, marketsChecked: 5 });
      expect(checked.report.list.pages).toBe(3);
      expect(checked.report.baseUrl).toBe(server.url);
      expect(findingOf(checked.report, 'base-query').found).toBe('api_key=[redacted]');
      // Every request carried the key once (the paging links did not repeat it): none was refused.
      expect(server.requests.filter((r) => new URL(r.url, server.url).searchParams.getAll('api_key').join() !== KEY)).toEqual([]);
      expect(server.requests.map((r) => new URL(r.url, server.url).pathname)).toEqual(expect.arrayContaining(['/markets', '/markets/DEV-5', expect.stringMatching(/^\/markets\/market-stub-probe-/)]));
    });
  });

  it('record writes no file holding the key, nor prints it', async () => {
    await withServer(conformingMarkets(5), keyInQuery(KEY), async (server) => {
      const out = path.join(work, 'key-recorded');
      const run = await runCliProcess(['record', '--base-url', `${server.url}?api_key=${KEY}`, '--all', '--out', out, '--keep-invalid', '--format', 'json', '--report', `html:${path.join(out, 'report.html')}`]);
      expect(run.code, run.stderr).toBe(0);
      const files = await filesUnder(out);
      expect(files).toContain('DEV-5');
      expect(shows(files + run.stdout + run.stderr)).toBe(false);
    });
  });

  it('a parameter named with --redact-query is a secret too; one that is not stays visible', async () => {
    await withServer([], { other: (url) => (url.searchParams.get('appid') === KEY && url.searchParams.get('region') === 'eu' ? undefined : GATEWAY_FORBIDDEN) }, async (server) => {
      const run = await runCheckJson(`${server.url}?appid=${KEY}&region=eu`, ['--redact-query', 'appid']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.report.baseUrl).toBe(server.url);
      expect(findingOf(run.report, 'base-query')).toMatchObject({ severity: 'info', endpoint: 'deployment', found: 'appid=[redacted]&region=eu' });
      expect(shows(run.stdout + run.stderr)).toBe(false);
    });
  });

  it('goes only to the base URL\'s origin: a paging link to another origin is followed without it', async () => {
    await withServer(conformingMarkets(4).slice(2), {}, async (elsewhere) => {
      const deviations = { list: () => json({ markets: conformingMarkets(2).map(summaryOf), next: `${elsewhere.url}/markets` }) };
      await withServer(conformingMarkets(4), deviations, async (server) => {
        const run = await runCheckJson(`${server.url}?api_key=${KEY}`, ['--max-markets', '1']);
        expect(run.report.list.pages).toBe(2);
        expect(elsewhere.requests.map((r) => r.url)).toEqual(['/markets']);
        expect(server.requests.every((r) => r.url.includes(`api_key=${KEY}`))).toBe(true);
      });
    });
  });

  it('without it (or with a wrong one) the gateway\'s 403 is could-not-run, naming what to do, never the key', async () => {
    await withServer(conformingMarkets(5), keyInQuery(KEY), async (server) => {
      const missing = await runCliInProcess(['check', '--base-url', server.url, '--format', 'json']);
      expect(missing.code).toBe(2);
      const sentence = 'the deployment refused access: 403 (Forbidden) to GET /markets (a JSON object with keys message), and the check sent no credential. Give the one it expects with --header "Name: value" (Authorization, X-Api-Key…; or MARKET_STUB_HEADER) or in the --base-url query (an api_key or key parameter; name other secret parameters with --redact-query). The report has this one finding: the others would be about access, not the contract.';
      expect(missing.stderr).toBe(`market-stub check: ${sentence}\n`);
      const report = JSON.parse(missing.stdout) as ContractReport;
      expect(report).toMatchObject({ verdict: 'fail', exitCode: 2, summary: { errors: 1, warnings: 0, infos: 0, marketsListed: 0, marketsChecked: 0, requests: 1 } });
      expect(report.findings).toEqual([expect.objectContaining({ severity: 'error', code: 'could-not-run', endpoint: LIST, found: sentence, examples: [{ pointer: '', found: sentence, request: '/markets' }] })]);
      const wrong = await runCliInProcess(['check', '--base-url', `${server.url}?api_key=${KEY}-old`, '--format', 'json']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/^market-stub check: the deployment refused the credential given with the --base-url query parameter api_key: 403 \(Forbidden\) to GET \/markets \(a JSON object with keys message\)\. It may be wrong, expired or lack access/);
      expect(shows(wrong.stderr + wrong.stdout)).toBe(false);
    });
  });
});

describe('could not run: the deployment refused or announced it is away (exit 2, in every format)', () => {
  it('an API gateway\'s 403 {"message":"Forbidden"} to an anonymous first request', async () => {
    await withServer(conformingMarkets(3), ANONYMOUS_REFUSED, async (server) => {
      for (const format of FORMATS) {
        const output = path.join(work, `refused.${format}`);
        const run = await runCliInProcess(['check', '--base-url', server.url, '--format', format, '--output', output]);
        expect(run.code, format).toBe(2);
        expect(run.stderr, format).toMatch(new RegExp(`^market-stub check: COULD NOT RUN; ${format} report written to .*\\nmarket-stub check: the deployment refused access: 403 \\(Forbidden\\) to GET /markets \\(a JSON object with keys message\\), and the check sent no credential\\. Give the one it expects with --header`));
        const written = await readFile(output, 'utf8');
        for (const text of ['could-not-run', 'refused access', 'Forbidden', 'sent no credential']) expect(written, `${format}: ${text}`).toContain(text);
        // For people the headline is no verdict on the contract: COULD NOT RUN, never FAIL.
        if (['text', 'markdown', 'html'].includes(format)) {
          expect(written, format).toMatch(/COULD NOT RUN against http\S+: the deployment refused access/);
          expect(written, format).not.toMatch(/\bFAIL\b/);
        }
        // The sentence is shown whole, its remedy included: never cut for display (report-display.ts displayReport).
        if (format !== 'json') expect(written, format).not.toContain('characters cut');
        if (['text', 'html', 'junit'].includes(format)) expect(written, format).toContain('the others would be about access, not the contract.');
        if (format === 'sarif') {
          const log = JSON.parse(written) as { runs: Array<{ invocations: Array<{ executionSuccessful: boolean; exitCode: number }> }> };
          expect(sarifValidator()(log)).toBe(true);
          expect(log.runs[0]?.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
        }
      }
    });
  });

  it('record: writes no market and leaves --out unchanged, writes the could-not-run report; the library rejects with it', async () => {
    await withServer(conformingMarkets(3), ANONYMOUS_REFUSED, async (server) => {
      const out = path.join(work, 'refused-recorded');
      const junit = path.join(work, 'refused-record.xml');
      const run = await runCliInProcess(['record', '--base-url', server.url, '--all', '--out', out, '--report', `junit:${junit}`]);
      expect(run.code).toBe(2);
      await expect(stat(out)).rejects.toMatchObject({ code: 'ENOENT' });
      const xml = await readFile(junit, 'utf8');
      expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
      expect(xml).toContain('could-not-run');
      const rejected = await checkDeployment({ baseUrl: server.url }).catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(DeploymentRefusal);
      expect(rejected).toMatchObject({ name: 'ContractRunError', code: 'UNAUTHORIZED', refusal: 'access-refused', report: { exitCode: 2, findings: [{ code: 'could-not-run' }] } });
    });
  });

  it('a 401 with an HTML body, whatever the body, and with a credential given', async () => {
    const refuse = { other: () => ({ status: 401, headers: { 'content-type': 'text/html', 'www-authenticate': 'Bearer' }, body: '<h1>Sign in</h1>' }) };
    await withServer(conformingMarkets(3), refuse, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--header', 'X-Api-Key: kq-55e1-9a0b-77cd']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^market-stub check: the deployment refused the credential given with --header X-Api-Key: 401 \(Unauthorized\) to GET \/markets \(text\/html, 16 bytes: "<h1>Sign in<\/h1>"\)\./);
      expect(run.stderr).not.toContain('kq-55e1');
    });
  });

  it('a 403 on one market after the list answered: the deployment started refusing (exit 2), naming what it asks for', async () => {
    await withServer(conformingMarkets(3), { single: (id) => (id === 'DEV-2' ? GATEWAY_FORBIDDEN : undefined) }, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', server.url, '--all', '--concurrency', '1']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^market-stub check: the deployment started refusing requests: 403 \(Forbidden\) to GET \/markets\/DEV-2 after 2 successful answers \(a JSON object with keys message\)\. It now asks for a credential/);
    });
  });

  it('planned maintenance: a 503 with Retry-After an hour ahead (seconds or an HTTP-date) stops at once, naming when to come back', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
    for (const retryAfter of ['3600', inAnHour]) {
      await withServer(conformingMarkets(3), maintenance(retryAfter), async (server) => {
        for (const format of FORMATS) {
          const started = performance.now();
          const run = await runCliInProcess(['check', '--base-url', server.url, '--format', format]);
          expect(performance.now() - started, format).toBeLessThan(2_000);
          expect(run.code, format).toBe(2);
          for (const text of ['could-not-run', 'announced it is unavailable', 'Retry-After']) expect(run.stdout, `${format}: ${text}`).toContain(text);
          expect(run.stderr, format).toMatch(new RegExp(`^market-stub check: the deployment announced it is unavailable: 503 \\(Service Unavailable\\) to GET /markets with Retry-After: ${retryAfter.replace(/[()]/g, '\\$&')}, (60|59) min from now \\(until about \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\), more than the 10 s the check waits \\(--retry-after-max-ms 10000\\)\\. Run the check again after that time, or raise --retry-after-max-ms to wait for it\\.`));
        }
        // One request: nothing after the announcement.
        expect(server.requests.length).toBe(FORMATS.length);
      });
    }
  });

  it('a 503 whose Retry-After is within the cap is retried, as before', async () => {
    let calls = 0;
    await withServer(conformingMarkets(2), { list: () => (++calls === 1 ? json({ error: 'busy' }, 503, { 'retry-after': '0' }) : json(conformingMarkets(2).map(summaryOf))) }, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(findingOf(run.report, 'retry', LIST).found).toMatch(/^503 with Retry-After: 0/);
    });
  });
});

describe('versioning signals (RFC 9745 Deprecation, RFC 8594 Sunset, RFC 5829 version links)', () => {
  it('are warnings with their dates and targets on both endpoints, and information for the version links; the run passes', async () => {
    await withServer(conformingMarkets(3), retiring(conformingMarkets(3)), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(0);
      expect(problemKeys(run.report)).toEqual([`warning deprecation ${LIST} `, `warning deprecation ${SINGLE} `, `warning sunset ${LIST} `, `warning sunset ${SINGLE} `]);
      const deprecation = findingOf(run.report, 'deprecation', LIST);
      expect(deprecation.found).toMatch(/^Deprecation: @1688169599: deprecated since 2023-06-30T23:59:59Z \(\d+ days ago\) \(RFC 9745 date\) \(deprecation link: https:\/\/docs\.example\.com\/deprecation\)$/);
      expect(findingOf(run.report, 'sunset', SINGLE)).toMatchObject({ count: 3 });
      expect(findingOf(run.report, 'sunset', LIST).found).toMatch(/^Sunset: Thu, 31 Dec 2099 23:59:59 GMT: the resource may stop answering on 2099-12-31T23:59:59Z \(in \d+ days\)$/);
      const links = run.report.findings.filter((f) => f.code === 'version-link' && f.endpoint === LIST);
      expect(links).toHaveLength(1);
      expect(links[0]?.examples.map((e) => e.found)).toEqual([
        `Link rel="successor-version" (RFC 5829 §3.3): ${server.url}/v2/markets`,
        'Link rel="predecessor-version" (RFC 5829 §3.4): https://docs.example.com/v0',
      ]);
      expect(links[0]?.severity).toBe('info');
      // With --strict the warnings fail the run, as every warning does.
      expect((await runCheckJson(server.url, ['--strict'])).code).toBe(1);
    });
  });

  it('show in every report format', async () => {
    await withServer(conformingMarkets(2), retiring(conformingMarkets(2)), async (server) => {
      for (const format of FORMATS) {
        const run = await runCliInProcess(['check', '--base-url', server.url, '--format', format]);
        expect(run.code, format).toBe(0);
        for (const text of ['deprecation', 'sunset', '2023-06-30T23:59:59Z', '2099-12-31T23:59:59Z']) expect(run.stdout, `${format}: ${text}`).toContain(text);
        if (format !== 'junit' && format !== 'sarif') expect(run.stdout, format).toContain('successor-version');
      }
    });
  });

  it('names the draft forms, a value that is no date, and a Sunset before the Deprecation', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ deprecation: 'true' }, /^Deprecation: true: deprecated, no date given \(an early draft form of RFC 9745; the RFC sends @seconds\)$/],
      [{ deprecation: 'Sun, 11 Nov 2018 23:59:59 GMT' }, /^Deprecation: Sun, 11 Nov 2018 23:59:59 GMT: deprecated since 2018-11-11T23:59:59Z \(\d+ days ago\) \(an HTTP-date, an early draft form of RFC 9745/],
      [{ deprecation: 'soon' }, /^Deprecation: soon: not an RFC 9745 date \(@ and Unix seconds\), so when is unknown/],
      [{ deprecation: '@4102444800' }, /^Deprecation: @4102444800: deprecated from 2100-01-01T00:00:00Z \(in \d+ days\)/],
    ];
    for (const [headers, expected] of cases) {
      await withServer(conformingMarkets(1), retiring(conformingMarkets(1), headers), async (server) => {
        const run = await runCheckJson(server.url, ['--all']);
        expect(findingOf(run.report, 'deprecation', LIST).found).toMatch(expected);
      });
    }
    await withServer(conformingMarkets(1), retiring(conformingMarkets(1), { deprecation: '@4102444800', sunset: 'Sat, 01 Jan 2000 00:00:00 GMT' }), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(findingOf(run.report, 'sunset', LIST).found).toBe('Sunset: Sat, 01 Jan 2000 00:00:00 GMT: the resource may stop answering since 2000-01-01T00:00:00Z (' + `${Math.round((Date.now() - Date.UTC(2000, 0, 1)) / 86_400_000)} days ago): the date is past; earlier than its Deprecation date, which RFC 9745 does not allow`);
    });
  });
});

describe('a market delisted between the list read and its item read', () => {
  it.each([['a bare array', false], ['an envelope', true]])('is re-checked against a fresh read of the page it was on (%s): gone, it is information, not a failure', async (_shape, envelope) => {
    const deployment = delisting(6, 2, ['DEV-3', 'DEV-4'], [], envelope);
    await withServer(conformingMarkets(6), deployment, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(problemKeys(run.report)).toEqual([]);
      expect(run.code).toBe(0);
      const delisted = findingOf(run.report, 'delisted', SINGLE);
      expect(delisted).toMatchObject({ severity: 'info', count: 2 });
      expect(delisted.found).toBe('404 after being listed; a fresh read of its list page (/markets?page=2) no longer lists it: delisted between the two reads, not judged');
      expect(delisted.examples.map((e) => e.marketId).sort()).toEqual(['DEV-3', 'DEV-4']);
      // Page 2 was read again once for both markets; the other pages were not.
      expect(Object.fromEntries(deployment.reads)).toEqual({ 1: 1, 2: 2, 3: 1 });
    });
  });

  it.each([['a bare array', false], ['an envelope', true]])('still listed on the fresh read (%s), the 404 stays a not-found error', async (_shape, envelope) => {
    await withServer(conformingMarkets(4), delisting(4, 2, [], ['DEV-2'], envelope), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      expect(findingOf(run.report, 'not-found', SINGLE).examples.map((e) => e.marketId)).toEqual(['DEV-2']);
      expect(run.report.findings.some((f) => f.code === 'delisted')).toBe(false);
    });
  });

  it('when the fresh read fails, the 404 is judged as before', async () => {
    let lists = 0;
    const deviations = {
      list: () => (++lists === 1 ? json(conformingMarkets(3).map(summaryOf)) : json({ error: 'down' }, 500)),
      single: (id: string) => (id === 'DEV-2' ? json({ error: 'not found' }, 404) : undefined),
    };
    await withServer(conformingMarkets(3), deviations, async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(run.code).toBe(1);
      expect(findingOf(run.report, 'not-found', SINGLE).count).toBe(1);
      expect(lists).toBe(2);
    });
  });
});

