// `market-stub check` through the built CLI: against market-stub's own serve (generated and the
// real-sample fixtures), the report formats, the could-not-run cases (exit 2) and secret headers.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/contract/checks/contract-report.js';
import { runCliProcess, startServeProcess } from '../support/cli-process.js';
import { closedPort, conformingMarket, conformingMarkets, json, summaryOf, withServer } from './deviant-server.js';
import { problemKeys, runCheckJson, runCliInProcess } from './contract-report-helpers.js';

const FIXTURES = new URL('../../fixtures', import.meta.url).pathname;
/** The escape character that starts every ANSI colour sequence. */
const ESC = String.fromCharCode(27);

describe('check against market-stub serve', () => {
  it.each([1, 7, 42])('passes with no errors and no warnings for seed %i (real process, --all)', async (seed) => {
    const stub = await startServeProcess(['--port', '0', '--seed', String(seed), '--count', '300', '--quiet']);
    try {
      const run = await runCheckJson(stub.url, ['--all'], { process: seed === 7 });
      expect(run.code).toBe(0);
      expect(run.report.summary).toMatchObject({ errors: 0, warnings: 0, marketsListed: 300, marketsChecked: 300 });
      expect(run.report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(run.report.list).toMatchObject({ shape: 'array', pages: 1, paging: 'none', complete: true });
      expect(run.report.probe).toMatchObject({ status: 404 });
    } finally {
      await stub.stop();
    }
  });

  it('passes the real-sample fixtures with warnings only: non-active statuses, past dates, yes + no = 0.93', async () => {
    const stub = await startServeProcess(['--port', '0', '--fixtures', FIXTURES, '--quiet']);
    try {
      const run = await runCheckJson(stub.url, ['--all'], { process: true });
      expect(run.code).toBe(0);
      expect(run.report.summary.errors).toBe(0);
      const codes = new Set(problemKeys(run.report).map((k) => k.split(' ').slice(0, 2).join(' ')));
      expect([...codes].sort()).toEqual(['warning const', 'warning past-resolution-date', 'warning price-sum']);
      const sum = run.report.findings.find((f) => f.code === 'price-sum' && f.endpoint === 'GET /markets/{market_id}');
      expect(sum).toMatchObject({ count: 1, found: '0.6 + 0.33 = 0.93', examples: [{ marketId: 'KXSPACEXSTARSHIP-12-26MAY19' }] });
      expect(run.report.findings.find((f) => f.code === 'const' && f.endpoint === 'GET /markets')?.count).toBe(6);
      const strict = await runCheckJson(stub.url, ['--strict']);
      expect(strict.code).toBe(1);
      expect(strict.report.verdict).toBe('fail');
    } finally {
      await stub.stop();
    }
  });
});

describe('check reports', () => {
  const brokenMarkets = [conformingMarket(1, { yes_price: '0.57', no_price: 0.43 }), conformingMarket(2, { yes_price: 0.5700000000000001, no_price: 0.43 }), ...conformingMarkets(4).slice(2)];
  const broken = { single: (id: string) => (id === 'DEV-4' ? json({ error: 'gone' }, 404) : undefined) };

  it('writes JUnit XML that parses, whose failure count equals the error count (plus warnings with --strict)', async () => {
    await withServer(brokenMarkets, broken, async (server) => {
      const report = (await runCheckJson(server.url, ['--all'])).report;
      expect(report.summary).toMatchObject({ errors: 3, warnings: 2 });
      for (const strict of [false, true]) {
        const run = await runCliProcess(['check', '--base-url', server.url, '--all', '--format', 'junit', ...(strict ? ['--strict'] : [])]);
        expect(run.code).toBe(1);
        // A strict, independent XML parser first: well-formed or the error with its line.
        expect(XMLValidator.validate(run.stdout)).toBe(true);
        const doc = create(run.stdout);
        // xmlbuilder2's reader repairs some malformed input, so also require that the parsed
        // document serialises back to exactly the text we wrote.
        expect(`${doc.end({ prettyPrint: true })}\n`).toBe(run.stdout);
        const elements = (name: string) => {
          const found: Array<{ getAttribute(attribute: string): string | null }> = [];
          doc.each((n) => {
            if (n.node.nodeName === name) found.push(n.node as unknown as { getAttribute(attribute: string): string | null });
          }, false, true);
          return found;
        };
        const failures = elements('failure').length;
        expect(failures).toBe(strict ? report.summary.errors + report.summary.warnings : report.summary.errors);
        expect(elements('testsuites')[0]?.getAttribute('failures')).toBe(String(failures));
        const names = elements('testcase').map((t) => t.getAttribute('name'));
        expect(names).toContain('answers: not-found /');
        expect(names).toContain('schema: type /*/yes_price');
        expect(names).toContain('list-shape');
        // Severities read once (no "warning: warning [code]"), and every testcase carries its
        // endpoint phase's real duration: the list's for GET /markets, the single markets' otherwise.
        expect(run.stdout).not.toMatch(/(warning|error|info): (warning|error|info) \[/);
        const json = (await runCheckJson(server.url, ['--all', ...(strict ? ['--strict'] : [])])).report;
        expect(json.timing?.listMs).toBeGreaterThan(0);
        expect(json.timing?.marketsMs).toBeGreaterThan(0);
        const times = elements('testcase').map((t) => Number(t.getAttribute('time')));
        expect(times.every((t) => t > 0)).toBe(true);
        const suites = elements('testsuite');
        expect(suites.map((t) => Number(t.getAttribute('time'))).every((t) => t > 0)).toBe(true);
        expect(Number(elements('testsuites')[0]?.getAttribute('time'))).toBeGreaterThanOrEqual(Math.max(...times));
      }
    });
  });

  it.each([['/markets'], ['/markets/'], ['/v1/markets']])('says a --base-url ending in %s probably ends in /markets by mistake (exit 2, with the fix)', async (suffix) => {
    await withServer(conformingMarkets(3), undefined, async (server) => {
      const run = await runCliInProcess(['check', '--base-url', `${server.url}${suffix}`]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const fixed = `${server.url}${suffix.startsWith('/v1') ? '/v1' : ''}`;
      expect(run.stderr).toBe(`market-stub check: --base-url ${server.url}${suffix} probably ends in /markets by mistake: market-stub adds /markets itself, and GET ${server.url}${suffix.replace(/\/$/, '')}/markets answered 404. Use --base-url ${fixed}\n`);
    });
  });

  it('checks a deployment that really lives under a path ending in /markets', async () => {
    await withServer(conformingMarkets(3), { prefix: '/markets' }, async (server) => {
      const run = await runCheckJson(`${server.url}/markets`, ['--all']);
      expect(run.code).toBe(0);
      expect(run.report.summary.marketsChecked).toBe(3);
    });
  });

  it('prints a text report grouped by severity with a one-line verdict, uncoloured unless a terminal without NO_COLOR', async () => {
    await withServer(brokenMarkets, broken, async (server) => {
      const run = await runCliProcess(['check', '--base-url', server.url, '--all']);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain(ESC);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines.at(-1)).toBe(`FAIL: 3 errors, 2 warnings in 4 markets (list + 4 items) against ${server.url}`);
      expect(run.stdout.indexOf('Errors (3)')).toBeLessThan(run.stdout.indexOf('Warnings (2)'));
      expect(run.stdout.indexOf('Warnings (2)')).toBeLessThan(run.stdout.indexOf('Information ('));
      expect(run.stdout).toContain('GET /markets /*/yes_price [type]: expected number, found "0.57"');
      const tty = await runCliInProcess(['check', '--base-url', server.url], { isTTY: true });
      expect(tty.stdout).toContain(`${ESC}[31m`);
      const noColour = await runCliInProcess(['check', '--base-url', server.url], { isTTY: true, env: { NO_COLOR: '1' } });
      expect(noColour.stdout).not.toContain(ESC);
    });
  });

  it('writes --output atomically instead of stdout, and draws a progress line on stderr only for a terminal', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'market-stub-check-'));
    try {
      await withServer(conformingMarkets(30), undefined, async (server) => {
        const file = path.join(dir, 'report.json');
        const run = await runCliProcess(['check', '--base-url', server.url, '--format', 'json', '--output', file]);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe('');
        expect(run.stderr).toBe(`market-stub check: PASS; json report written to ${file}\n`);
        const report = JSON.parse(await readFile(file, 'utf8')) as ContractReport;
        expect(report).toMatchObject({ reportVersion: 1, command: 'check', verdict: 'pass', exitCode: 0, baseUrl: server.url });
        expect(await readdir(dir)).toEqual(['report.json']);
        const quiet = await runCliInProcess(['check', '--base-url', server.url, '--all']);
        expect(quiet.stderr).toBe('');
        const progress = await runCliInProcess(['check', '--base-url', server.url, '--all'], { stderrIsTTY: true });
        expect(progress.stderr).toMatch(/market-stub check: markets 30\/30/);
        expect(progress.stderr.endsWith('\r\u001b[2K')).toBe(true);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a price sent as a string through the real process too (exit 1)', async () => {
    await withServer([conformingMarket(1, { yes_price: '0.57' })], undefined, async (server) => {
      const run = await runCheckJson(server.url, [], { process: true });
      expect(run.code).toBe(1);
      expect(problemKeys(run.report)).toEqual(['error type GET /markets /*/yes_price', 'error type GET /markets/{market_id} /yes_price']);
    });
  });
});

describe('check that cannot run (exit 2, one sentence, no stack trace)', () => {
  const expectOneSentence = (run: { code: number | null; stdout: string; stderr: string }, pattern: RegExp) => {
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(pattern);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  };

  it('connection refused', async () => {
    const port = await closedPort();
    const run = await runCliProcess(['check', '--base-url', `http://127.0.0.1:${port}`]);
    expectOneSentence(run, new RegExp(`^market-stub check: cannot reach http://127\\.0\\.0\\.1:${port}/markets: connection refused \\(ECONNREFUSED\\)\\. Check --base-url and that the service is running\\.\\n$`));
  });

  it('unknown host', async () => {
    const run = await runCliProcess(['check', '--base-url', 'http://market-stub-no-such-host.invalid']);
    expectOneSentence(run, /^market-stub check: cannot reach http:\/\/market-stub-no-such-host\.invalid\/markets: unknown host market-stub-no-such-host\.invalid \(DNS lookup failed: E[A-Z_]+\)\. Check the host name in --base-url\.\n$/);
  });

  it('a list that does not answer within --timeout-ms', async () => {
    await withServer([], { list: () => 'hang' }, async (server) => {
      const started = performance.now();
      const run = await runCliProcess(['check', '--base-url', server.url, '--timeout-ms', '300']);
      expectOneSentence(run, /^market-stub check: cannot reach http:\/\/127\.0\.0\.1:\d+\/markets: no complete answer within 300 ms \(--timeout-ms\)\. Raise --timeout-ms or check that the service answers\.\n$/);
      // A hung endpoint costs at most --timeout-ms (plus process start-up).
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  });

  it('a TLS handshake with a server that speaks plain HTTP', async () => {
    await withServer(conformingMarkets(1), undefined, async (server) => {
      const run = await runCliProcess(['check', '--base-url', server.url.replace('http:', 'https:')]);
      expectOneSentence(run, /^market-stub check: cannot reach https:\/\/127\.0\.0\.1:\d+\/markets: the TLS handshake failed: [a-z ]+ \(ERR_SSL_[A-Z_]+\)\. Check the certificate/);
    });
  });

  it.each([
    [['check'], /^market-stub check: --base-url: required: the deployment's base URL, .*, or set MARKET_STUB_BASE_URL\.\nRun 'npx market-stub check --help' for the options\.\n$/],
    [['check', '--base-url', 'not a url'], /^market-stub check: --base-url: expected an absolute http:\/\/ or https:\/\/ URL, found "not a url"\.\n/],
    [['check', '--base-url', 'ftp://example.test'], /^market-stub check: --base-url: expected an absolute http:\/\/ or https:\/\/ URL, found "ftp:\/\/example\.test"\.\n/],
    [['check', '--base-url', 'http://user:pw@127.0.0.1:1'], /^market-stub check: --base-url: expected an absolute http:\/\/ or https:\/\/ URL without a user name or password, found a URL with credentials \(not shown\); pass credentials with --header "Authorization: …" instead\.\n/],
    [['check', '--base-url', 'http://127.0.0.1:1', '--timeout-ms', 'soon'], /^market-stub check: --timeout-ms: expected an integer from 1 to 600000, found "soon"\.\n/],
    [['check', '--base-url', 'http://127.0.0.1:1', '--concurrency', '0'], /^market-stub check: --concurrency: expected an integer from 1 to 256, found "0"\.\n/],
    [['check', '--base-url', 'http://127.0.0.1:1', '--format', 'xml'], /^market-stub check: --format: expected one of text, json, jsonl, junit, html, markdown, sarif, found "xml"\.\n/],
    [['check', '--base-url', 'http://127.0.0.1:1', '--header', 'Bearer hunter2-secret'], /^market-stub check: --header #1: expected "Name: value"/],
  ])('bad arguments: %j', async (args, pattern) => {
    const run = await runCliInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(pattern);
    expect(run.stderr).not.toContain('hunter2-secret');
  });
});

describe('--header values (tokens)', () => {
  it('are sent on every request and never appear in the report, stdout or stderr, whatever the format', async () => {
    const token = 'Bearer s3cr3t-t0ken-7f9a2c';
    const markets = conformingMarkets(3);
    const guarded = {
      other: (_url: URL, req: { headers: Record<string, unknown> }) => (req.headers['authorization'] === token ? undefined : json({ error: 'unauthorized' }, 401)),
      // DEV-2 echoes the token in its title, so a careless report would print it.
      single: (id: string) => (id === 'DEV-2' ? json(conformingMarket(2, { title: `Echo ${token}` })) : undefined),
      list: () => json(markets.map(summaryOf)),
    };
    await withServer(markets, guarded, async (server) => {
      for (const format of ['text', 'json', 'junit']) {
        const run = await runCliProcess(['check', '--base-url', server.url, '--all', '--format', format, '--header', `Authorization: ${token}`, '--header', 'X-Trace: market-stub-test']);
        expect(run.code).toBe(1);
        expect(run.stdout).toContain('list-single-mismatch');
        expect(run.stdout).toContain('[redacted]');
        for (const text of [run.stdout, run.stderr]) {
          expect(text).not.toContain('s3cr3t-t0ken-7f9a2c');
        }
      }
      expect(server.requests.length).toBeGreaterThan(10);
      for (const r of server.requests) {
        expect(r.headers['authorization']).toBe(token);
        expect(r.headers['x-trace']).toBe('market-stub-test');
      }
    });
  });
});
