import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/index.js';
import { CLI, runCliProcess } from '../support/cli-process.js';
import { conformingMarket, summaryOf, withServer, type Deviations, type RawMarket } from './deviant-server.js';

// A deep or hostile market from a deployment is one invalid answer (a json-rule finding, never
// recorded), not the end of check, record or proxy (docs/limits.md, "Reading JSON").

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ms-json-deploy-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** JSON text of a market with a member nested `depth` objects deep (5,000 levels: about 10 KB). */
const deepText = (market: RawMarket, depth: number) => JSON.stringify(market).replace(/}$/, `,"extra":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`);
/** DEV-1 nests 62 levels: within the rules, so it is recorded and served back like any market. */
const within = JSON.parse(deepText(conformingMarket(1), 61)) as RawMarket;
const markets = [within, conformingMarket(2), conformingMarket(3), conformingMarket(4)];
/** DEV-4's answer in Latin-1: one byte (é) that is not UTF-8, at this offset. */
const latin1 = JSON.stringify(conformingMarket(4)).replace('deviant', 'd\u00e9viant');
const latin1Offset = latin1.indexOf('\u00e9');
const raw = (body: string | Buffer) => ({ headers: { 'content-type': 'application/json' }, body });
/** DEV-2 answers 5,000 levels deep, DEV-3 names a constructor member (data: judged like any extra member, never recorded), DEV-4 is not UTF-8; the list adds DEV-9, itself 5,000 deep. */
const hostile: Deviations = {
  list: () => raw(`[${markets.map((m) => JSON.stringify(summaryOf(m))).join(',')},${deepText(summaryOf(conformingMarket(9)), 5000)}]`),
  single: (id) => {
    if (id === 'DEV-2') return raw(deepText(conformingMarket(2), 5000));
    if (id === 'DEV-3') return raw(JSON.stringify(conformingMarket(3)).replace('{', '{"meta":{"constructor":{"x":1}},'));
    if (id === 'DEV-4') return raw(Buffer.from(latin1, 'latin1'));
    return undefined;
  },
};

const jsonRules = (report: ContractReport) => report.findings.filter((f) => f.code === 'json-rule').flatMap((f) => f.examples.map((e) => `${f.endpoint} ${e.marketId ?? '-'} ${e.pointer} ${e.found}`)).sort();
const deepPointer = (base: string) => `${base}/extra${'/a'.repeat(64 - base.split('/').length)}`;

describe('deployment answers follow the JSON rules of every input', () => {
  it('check: each deep or hostile answer is one json-rule error; the rest is judged', async () => {
    await withServer(markets, hostile, async (server) => {
      const run = await runCliProcess(['check', '--base-url', server.url, '--all', '--format', 'json']);
      expect(run.stderr).not.toMatch(/unexpected failure|RangeError/);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as ContractReport;
      expect(jsonRules(report)).toEqual([
        `GET /markets - ${deepPointer('/4')} more than 64 levels`,
        `GET /markets/{market_id} DEV-2 ${deepPointer('')} more than 64 levels`,
        `GET /markets/{market_id} DEV-4  bytes that are not UTF-8 at byte offset ${latin1Offset}`,
      ].sort());
      expect(report.summary.marketsListed).toBe(4);
    });
  });

  it('record --all --keep-invalid: the valid markets (one 62 levels deep) are written and validate, the hostile ones reported and kept as text (exit 1)', async () => {
    await withServer(markets, hostile, async (server) => {
      const out = path.join(work, 'recorded');
      const run = await runCliProcess(['record', '--base-url', server.url, '--all', '--out', out, '--keep-invalid']);
      expect(run.stderr).not.toMatch(/unexpected failure|RangeError/);
      expect(run.code).toBe(1);
      const written = JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8')) as RawMarket[];
      expect(written).toEqual([within]);
      // The invalid answers are kept as they came: the deep one as its text, never as a value.
      const invalid = JSON.parse(await readFile(path.join(out, 'invalid', 'responses.json'), 'utf8')) as { market_id: string; body: unknown }[];
      expect(invalid.map((r) => [r.market_id, typeof r.body])).toEqual([['DEV-2', 'string'], ['DEV-3', 'undefined'], ['DEV-4', 'object']]);
      expect((await runCliProcess(['validate', out])).code).toBe(0);
    });
  });

  it('proxy --record: the client gets every answer, the proxy keeps serving, and writes its report and the valid markets', async () => {
    await withServer(markets, hostile, async (server) => {
      const report = path.join(work, 'proxy-report.json');
      const out = path.join(work, 'proxied');
      const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', server.url, '--port', '0', '--report', report, '--format', 'json', '--record', out], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        await expect.poll(() => /proxy listening on (http:\/\/\S+)/.exec(output)?.[1], { timeout: 10_000 }).toBeTruthy();
        const url = /proxy listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
        for (const route of ['/markets', '/markets/DEV-2', '/markets/DEV-3', '/markets/DEV-4', '/markets/DEV-1', '/markets/DEV-2', '/markets']) {
          expect((await fetch(`${url}${route}`)).status, route).toBe(200);
        }
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(1);
      expect(output).not.toMatch(/unexpected failure|RangeError/);
      const written = JSON.parse(await readFile(report, 'utf8')) as ContractReport;
      expect(jsonRules(written)).toEqual(expect.arrayContaining([`GET /markets/{market_id} DEV-2 ${deepPointer('')} more than 64 levels`, `GET /markets/{market_id} DEV-4  bytes that are not UTF-8 at byte offset ${latin1Offset}`]));
      expect(JSON.parse(await readFile(path.join(out, 'markets.json'), 'utf8'))).toEqual([within]);
    });
  });
});
