// The stub's clock and the checker's "today" agree: serve sends its clock date as the HTTP Date
// header (RFC 9110 §6.6.1), and check judges past-resolution-date against the deployment's own day
// unless --today says otherwise.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServedProcess } from '../support/cli-process.js';
import { findingOf, problemKeys, runCheckJson } from './contract-report-helpers.js';
import { conformingMarket, json, summaryOf, withServer, type Deviations } from './deviant-server.js';

const served: ServedProcess[] = [];
afterAll(async () => Promise.all(served.map((s) => s.stop())));

/** A stub whose clock is years before any day this test runs on: every generated date lies in 2020–2021. */
async function pastClockStub(): Promise<ServedProcess> {
  const stub = await startServeProcess(['--port', '0', '--seed', '3', '--count', '60', '--clock', '2020-01-01', '--quiet']);
  served.push(stub);
  return stub;
}

describe('check judges "past" as of the deployment\'s own day', () => {
  it('serve sends its clock date in the Date header, once, on every kind of answer', async () => {
    const stub = await pastClockStub();
    const id = ((await (await fetch(`${stub.url}/markets`)).json()) as { market_id: string }[])[0]?.market_id ?? '';
    // The core's routes (list, item, 404 item, health, 405), then Express's (admin API, OpenAPI, unknown path).
    const answers = [['GET', '/markets'], ['GET', `/markets/${id}`], ['GET', '/markets/NOPE-1'], ['HEAD', '/healthz'], ['POST', '/markets'], ['GET', '/__stub'], ['GET', '/openapi.json'], ['GET', '/nope']];
    for (const [method, target] of answers) {
      const res = await fetch(`${stub.url}${target}`, { method });
      await res.arrayBuffer();
      // fetch joins repeated fields with ", ": one Date field has exactly one "GMT".
      expect(res.headers.get('date') ?? '', `${method} ${target}`).toMatch(/^Wed, 01 Jan 2020 \d\d:\d\d:\d\d GMT$/);
    }
  });

  it('check --all --strict passes against a stub whose clock is in the past, and says which day it judged by', async () => {
    const stub = await pastClockStub();
    const run = await runCheckJson(stub.url, ['--all', '--strict'], { process: true });
    expect(problemKeys(run.report)).toEqual([]);
    expect(run.code).toBe(0);
    expect(findingOf(run.report, 'deployment-date').message).toContain('as of 2020-01-01');
  });

  it('--today sets the day instead: the same stub then has past dates', async () => {
    const stub = await pastClockStub();
    const run = await runCheckJson(stub.url, ['--all', '--strict', '--today', '2030-01-01']);
    expect(run.code).toBe(1);
    expect(problemKeys(run.report)).toContain('warning past-resolution-date GET /markets/{market_id} /resolution_date');
    expect(run.report.findings.some((f) => f.code === 'deployment-date')).toBe(false);
  });

  it('still warns when a deployment really serves past dates (its clock is today)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-past-'));
    writeFileSync(path.join(dir, 'markets.json'), JSON.stringify([{ market_id: 'OLD-1', title: 'Will it have happened?', status: 'active', yes_price: 0.5, no_price: 0.5, resolution_date: '2020-06-01' }]));
    const stub = await startServeProcess(['--port', '0', '--fixtures', dir, '--quiet']);
    served.push(stub);
    const run = await runCheckJson(stub.url, ['--all', '--strict']);
    expect(run.code).toBe(1);
    expect(problemKeys(run.report)).toEqual(['warning past-resolution-date GET /markets/{market_id} /resolution_date']);
  });

  it('a Date header that is no date leaves this machine\'s day; a deployment\'s own earlier day is adopted', async () => {
    const market = conformingMarket(0, { resolution_date: '2020-06-01' });
    const dated = (date: string): Deviations => ({ list: () => json([summaryOf(market)], 200, { date }), single: () => json(market, 200, { date }) });
    await withServer([market], dated('not a date'), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(problemKeys(run.report)).toEqual(['warning past-resolution-date GET /markets/{market_id} /resolution_date']);
    });
    await withServer([market], dated('Sun, 06 Nov 1994 08:49:37 GMT'), async (server) => {
      const run = await runCheckJson(server.url, ['--all']);
      expect(problemKeys(run.report)).toEqual([]);
      expect(findingOf(run.report, 'deployment-date').message).toContain('as of 1994-11-06');
    });
  });
});
