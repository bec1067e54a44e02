import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, startServeProcess } from '../support/cli-process.js';

// Files market-stub reads (fixtures, config) follow the JSON rules of every input
// (docs/limits.md, "Reading JSON"): at most 64 levels, no __proto__-like members, UTF-8 only.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ms-json-rules-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const marketText = (id: string, extra = '') => `{"market_id":"${id}","title":"Will ${id}?","status":"active","yes_price":0.5,"no_price":0.5,"resolution_date":"2027-01-01"${extra}}`;
/** A hostile shape: one market with a member nested ~5,000 levels deep (about 10 KB). */
const deepMarket = (id: string) => marketText(id, `,"extra":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
const write = async (name: string, content: string | Buffer) => {
  const file = path.join(root, name);
  await writeFile(file, content);
  return file;
};

describe('fixture files: one rule set with the admin API', () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['a member nested 5,000 levels deep', () => write('deep.json', `[${marketText('ok')},${deepMarket('deep')}]`), /deep\.json: expected JSON nested at most 64 levels, found more than 64 levels at \/1\/extra\/a\/a/],
    ['a market nested 63 levels (inside the file limit, over the market limit)', () => write('m63.json', `[${marketText('m63', `,"extra":${'{"a":'.repeat(62)}1${'}'.repeat(62)}`)}]`), /m63\.json: market \[0\] at \/0\/extra(\/a){61}: expected a market nested at most 62 levels, found more than 62 levels/],
    ['a __proto__ member', () => write('proto.json', `[${marketText('p', ',"__proto__":{"title":"ghost"}')}]`), /proto\.json: expected no member named "__proto__" .*found "__proto__" at \/0\/__proto__/],
    ['a constructor member deep inside', () => write('ctor.json', `[${marketText('c', ',"meta":{"constructor":1}')}]`), /ctor\.json: expected no member named "constructor" .*at \/0\/meta\/constructor/],
    ['bytes that are not UTF-8', () => write('latin1.json', Buffer.concat([Buffer.from(`[${marketText('l').slice(0, 40)}`), Buffer.from([0xe9]), Buffer.from(`${marketText('l').slice(40)}]`)])), /latin1\.json: expected UTF-8 text \(RFC 8259 §8\.1\), found bytes that are not UTF-8 at byte offset 41/],
    ['a byte-order mark', () => write('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`[${marketText('b')}]`)])), /bom\.json: expected JSON text without a byte-order mark/],
  ];

  it.each(cases)('%s: validate exits 1 and serve refuses to start (exit 2), naming file and place', async (_label, make, line) => {
    const file = await make();
    const validated = await runCliProcess(['validate', file]);
    expect(validated.stderr).toMatch(line);
    expect(validated.code).toBe(1);
    const served = await runCliProcess(['serve', '--port', '0', '--fixtures', file], { timeoutMs: 10_000 });
    expect(served.code).toBe(2);
    expect(served.stderr).toMatch(line);
    expect(`${validated.stderr}${served.stderr}`).not.toMatch(/unexpected failure/i);
  });

  it('--watch: a market of 62 levels is valid and served by every route; rewritten 5,000 deep it is a warning naming the place, and the old data is served', async () => {
    const file = await write('watched.json', `[${marketText('w-1', `,"extra":${'{"a":'.repeat(61)}1${'}'.repeat(61)}`)}]`);
    expect((await runCliProcess(['validate', file])).code).toBe(0);
    const stub = await startServeProcess(['--port', '0', '--fixtures', file, '--watch']);
    try {
      const json = { 'content-type': 'application/json' };
      for (const [method, route, body] of [['GET', '/markets'], ['GET', '/markets/w-1'], ['GET', '/__stub/markets'], ['PATCH', '/__stub/markets/w-1', '{"status":"active"}'], ['POST', '/__stub/tick', '{"n":1}'], ['GET', '/__stub/requests']] as const) {
        const res = await fetch(`${stub.url}${route}`, { method, headers: json, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${route}`).toBeLessThan(300);
      }
      await writeFile(file, `[${deepMarket('w-1')}]`);
      await expect.poll(() => stub.output().stderr + stub.output().stdout, { timeout: 5_000 }).toMatch(/fixtures changed but are invalid; still serving the previous data[\s\S]*more than 64 levels at \/0\/extra\/a/);
      const res = await fetch(`${stub.url}/markets/w-1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { title: string }).title).toBe('Will w-1?');
      expect((await fetch(`${stub.url}/markets`)).status).toBe(200);
    } finally {
      await stub.stop();
    }
  });
});

describe('config files: opened like fixture files, read under the same rules', () => {
  it.each([
    ['--config', (fifo: string) => ({ args: ['--config', fifo], env: {} })],
    ['MARKET_STUB_CONFIG', (fifo: string) => ({ args: [], env: { MARKET_STUB_CONFIG: fifo } })],
  ])('a FIFO named by %s is refused at once (exit 2), never opened for reading', async (origin, given) => {
    const fifo = path.join(root, `config-${origin.replace(/\W/g, '')}.fifo`);
    execFileSync('mkfifo', [fifo]);
    const { args, env } = given(fifo);
    const started = performance.now();
    // The guard: a blocked open(2) would run into this timeout (and the process is killed).
    const res = await runCliProcess(['serve', '--port', '0', ...args], { env, timeoutMs: 8_000 });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${origin}: cannot read the config file ${fifo} (a FIFO (named pipe), not a file).`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a value nested 100,000 levels deep is the option message with its pointer, not "unexpected failure"', async () => {
    const file = await write('deep-config.json', `{"serve":{"port":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
    const res = await runCliProcess(['serve', '--config', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(new RegExp(`--config ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} /serve/port(/0){62}: expected JSON nested at most 64 levels, found more than 64 levels\\.`));
    expect(res.stderr).not.toMatch(/unexpected failure|RangeError/);
  });

  it('a __proto__ member and bytes that are not UTF-8 are refused with where they are', async () => {
    const proto = await write('proto-config.json', '{"serve":{"__proto__":{"port":1}}}');
    expect((await runCliProcess(['serve', '--config', proto])).stderr).toContain(`--config ${proto} /serve/__proto__: expected no member named "__proto__"`);
    const latin1 = await write('latin1-config.json', Buffer.from('{"serve":{"host":"caf\xe9"}}', 'latin1'));
    const res = await runCliProcess(['serve', '--config', latin1]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`--config ${latin1}: expected UTF-8 text (RFC 8259 §8.1), found bytes that are not UTF-8 at byte offset 21.`);
  });
});
