// market-stub/testcontainers for real: the image built from docker/Dockerfile, started through
// testcontainers-node against podman's Docker-compatible socket (or Docker's), driven by the same
// contract-of-the-handle suite as the in-process stub and the CLI process. Also: the image reads
// /config/market-stub.config.json from a mount. Run by .ci/container-test.sh (which starts
// `podman system service` and sets DOCKER_HOST and TESTCONTAINERS_RYUK_DISABLED=true), or
// `npm run test:container` with those set (README: "Testcontainers").
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMarketStub, startMarketStub } from '../../src/index.js';
import { MarketStubContainer, type StartedMarketStubContainer } from '../../src/testcontainers.js';
import { CONTRACT_STUB, CONTRACT_TOKEN, describeMarketStubClient } from '../support/market-stub-client-contract.js';
import { createContainerEngine, type ContainerEngine } from './container-engine.js';
import { freePort } from './free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RUN_ID = `${process.pid}-${randomBytes(3).toString('hex')}`;
const TAG = `localhost/market-stub-tc-test:${RUN_ID}`;

// Decided before the tests are collected, so that without an engine every test is reported as
// skipped with the reason rather than run against something else.
const probe = await createContainerEngine().then((e) => ({ engine: e }), (error: unknown) => ({ reason: `no container engine: ${(error as Error).message}` }));
const engine: ContainerEngine | undefined = 'engine' in probe ? probe.engine : undefined;
const skipReason: string | undefined = 'reason' in probe ? probe.reason : undefined;
if (skipReason) console.log(`[container] testcontainers tests skipped: ${skipReason}`);
let built = false;
let work: string | undefined;
const started: StartedMarketStubContainer[] = [];
const named = new Set<string>();

function report(figure: string): void {
  console.log(`[container] ${figure}`);
  const file = process.env['MARKET_STUB_CONTAINER_FIGURES'];
  if (file) void writeFile(file, `${figure}\n`, { flag: 'a' });
}

/** A world-readable scratch folder (the container reads as uid 1000). */
async function scratch(): Promise<string> {
  work ??= await mkdtemp(path.join(tmpdir(), 'market-stub-tc-'));
  await chmod(work, 0o755);
  const dir = await mkdtemp(path.join(work, 'x-'));
  await chmod(dir, 0o755);
  return dir;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644 });
  await chmod(file, 0o644);
}

async function start(container: MarketStubContainer): Promise<StartedMarketStubContainer> {
  const t = performance.now();
  const running = await container.start();
  started.push(running);
  report(`testcontainers: ${running.getName()} healthy ${Math.round(performance.now() - t)} ms after start(); url ${running.url} (getHost() = ${running.getHost()})`);
  return running;
}

beforeAll(async () => {
  if (!engine) return;
  const result = await engine.run(['build', '-f', 'docker/Dockerfile', '-t', TAG, ROOT], { timeoutMs: 600_000 });
  expect(result.code, `${engine.name} build: ${result.stderr.slice(-3000)}`).toBe(0);
  built = true;
  report(`testcontainers: image ${TAG} built in ${(result.ms / 1000).toFixed(1)} s; DOCKER_HOST=${process.env['DOCKER_HOST'] ?? '(unset)'}, TESTCONTAINERS_RYUK_DISABLED=${process.env['TESTCONTAINERS_RYUK_DISABLED'] ?? '(unset)'}`);
}, 620_000);

afterAll(async () => {
  await Promise.all(started.map((c) => c.stop().catch(() => undefined)));
  if (engine) {
    for (const name of named) await engine.run(['rm', '-f', '-t', '0', name]);
    if (built) await engine.run(['rmi', '-f', TAG]);
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 120_000);

/** Skips (with the printed reason) only where no engine exists; everything else must run. */
function needImage(ctx: { skip: (note?: string) => void }): void {
  if (skipReason !== undefined) ctx.skip(skipReason);
  if (!built) throw new Error('the image was not built; see beforeAll');
}

if (engine) describeMarketStubClient('MarketStubContainer (testcontainers, the Docker image)', async () => {
  const running = await start(new MarketStubContainer(TAG).withSeed(CONTRACT_STUB.seed).withCount(CONTRACT_STUB.count).withClock(CONTRACT_STUB.clock).withAdminToken(CONTRACT_TOKEN));
  return { client: running.client(), close: async () => void (await running.stop()) };
});

describe('MarketStubContainer', () => {
  it('maps port 4010 to a free host port, answers /healthz, and its client needs the token it was given', async (ctx) => {
    needImage(ctx);
    const running = await start(new MarketStubContainer(TAG).withCount(3).withAdminToken('tc-token'));
    expect(running.url).toBe(`http://${running.getHost()}:${running.getMappedPort(4010)}`);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    expect(await running.client().catalog()).toHaveLength(3);
    await expect(connectMarketStub(running.url).catalog()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  }, 120_000);

  it('withFixtures copies a host directory (or one file) into the container and serves it', async (ctx) => {
    needImage(ctx);
    const product = JSON.parse(await readFile(path.join(ROOT, 'fixtures', 'markets.json'), 'utf8')) as { market_id: string }[];
    const dir = await scratch();
    await writeJson(path.join(dir, 'a.json'), product.slice(0, 2));
    await writeJson(path.join(dir, 'b.json'), product.slice(2, 4));
    const fromDir = await start(new MarketStubContainer(TAG).withFixtures(dir));
    expect((await fromDir.client().catalog()).map((m) => m.market_id)).toEqual(product.slice(0, 4).map((m) => m.market_id));
    const fromFile = await start(new MarketStubContainer(TAG).withFixtures(path.join(dir, 'b.json')));
    expect(await (await fetch(`${fromFile.url}/markets/${product[3]?.market_id ?? ''}`)).json()).toEqual(product[3]);
  }, 180_000);

  it('withProfile sets the response profile; withClock and withSeed give the in-process bytes', async (ctx) => {
    needImage(ctx);
    const running = await start(new MarketStubContainer(TAG).withSeed(3).withCount(7).withClock('2026-03-01').withProfile({ envelope: 'markets', paging: 'cursor', pageSize: 5 }));
    const local = await startMarketStub({ seed: 3, count: 7, clock: '2026-03-01', profile: { envelope: 'markets', paging: 'cursor', pageSize: 5 } });
    try {
      const remote = await (await fetch(`${running.url}/markets`)).text();
      expect(remote).toBe(await (await fetch(`${local.url}/markets`)).text());
      const page = JSON.parse(remote) as { markets: unknown[]; next_cursor?: string };
      expect(page.markets).toHaveLength(5);
      expect(typeof page.next_cursor).toBe('string');
    } finally {
      await local.close();
    }
  }, 120_000);

  it('withConfigFile copies a config file to /config; the with… options still win over it', async (ctx) => {
    needImage(ctx);
    const dir = await scratch();
    const file = path.join(dir, 'stub.json');
    await writeJson(file, { serve: { count: 4, seed: 2, rules: [{ match: { route: 'list' }, behaviour: { status: 503 } }] } });
    const running = await start(new MarketStubContainer(TAG).withConfigFile(file).withCount(6));
    expect(await running.client().catalog()).toHaveLength(6);
    expect((await fetch(`${running.url}/markets`)).status).toBe(503);
  }, 120_000);

  it('start() fails with the stub\'s own message when the container exits (invalid fixtures)', async (ctx) => {
    needImage(ctx);
    const dir = await scratch();
    await writeJson(path.join(dir, 'bad.json'), [{ market_id: 'x', title: 'Price as text', status: 'active', yes_price: '0.6', no_price: 0.4, resolution_date: '2027-01-01' }]);
    const t = performance.now();
    const error = await new MarketStubContainer(TAG).withFixtures(dir).withStartupTimeout(30_000).start().then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain('/fixtures/bad.json: market [0] at /0/yes_price: expected number, found "0.6"');
    report(`testcontainers: a container with invalid fixtures failed start() after ${Math.round(performance.now() - t)} ms with the stub's message`);
  }, 90_000);
});

describe('the image reads /config/market-stub.config.json from a mount', () => {
  it('serves with the options of a mounted config file (a file mount, and a folder mount with fixtures beside it)', async (ctx) => {
    needImage(ctx);
    const e = engine as ContainerEngine;
    const dir = await scratch();
    const product = JSON.parse(await readFile(path.join(ROOT, 'fixtures', 'markets.json'), 'utf8')) as { market_id: string }[];
    await writeJson(path.join(dir, 'market-stub.config.json'), { $schema: 'https://market-stub.local/schemas/config.schema.json', serve: { fixtures: 'data', envelope: 'data', rules: [{ match: { route: 'item' }, behaviour: { status: 500 }, times: 1 }] } });
    await mkdir(path.join(dir, 'data'), { mode: 0o755 });
    await chmod(path.join(dir, 'data'), 0o755);
    await writeJson(path.join(dir, 'data', 'markets.json'), product.slice(0, 3));
    const single = path.join(await scratch(), 'market-stub.config.json');
    await writeJson(single, { serve: { seed: 4, count: 9, clock: '2026-01-01' } });

    for (const [role, mount] of [['config-folder', `${dir}:/config:ro,Z`], ['config-file', `${single}:/config/market-stub.config.json:ro,Z`]] as const) {
      const port = await freePort();
      const name = `market-stub-tc-${RUN_ID}-${role}`;
      named.add(name);
      const run = await e.run(['run', '-d', '--name', name, '--network=host', '-e', `PORT=${port}`, '-v', mount, TAG]);
      expect(run.code, run.stderr).toBe(0);
      const url = `http://127.0.0.1:${port}`;
      let ready = false;
      for (let i = 0; i < 100 && !ready; i++) {
        ready = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      const logs = await e.run(['logs', name]);
      expect(ready, `${role} did not answer: ${logs.stdout}${logs.stderr}`).toBe(true);
      if (role === 'config-folder') {
        const body = (await (await fetch(`${url}/markets`)).json()) as { data: { market_id: string }[] };
        expect(body.data.map((m) => m.market_id)).toEqual(product.slice(0, 3).map((m) => m.market_id));
        expect((await fetch(`${url}/markets/${product[0]?.market_id ?? ''}`)).status).toBe(500);
      } else {
        const local = await startMarketStub({ seed: 4, count: 9, clock: '2026-01-01' });
        try {
          expect(await (await fetch(`${url}/markets`)).text()).toBe(await (await fetch(`${local.url}/markets`)).text());
        } finally {
          await local.close();
        }
      }
      const printed = await e.run(['run', '--rm', '-v', mount, TAG, 'serve', '--print-config']);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toMatch(/config\s+"market-stub\.config\.json"\s+working directory/);
      expect(printed.stdout).toMatch(/port\s+4010\s+PORT/);
      report(`image: ${role} mount (${mount.split(':').slice(1).join(':')}) served as configured; serve --print-config in the image names the file`);
      await e.run(['rm', '-f', '-t', '0', name]);
    }
  }, 180_000);

  it('a bad mounted config file stops the container with exit 2 and the file, pointer, expected and found in its logs', async (ctx) => {
    needImage(ctx);
    const e = engine as ContainerEngine;
    const file = path.join(await scratch(), 'market-stub.config.json');
    await writeJson(file, { serve: { count: 'many', pagign: 'cursor' } });
    const run = await e.run(['run', '--rm', '-v', `${file}:/config/market-stub.config.json:ro,Z`, TAG]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('market-stub serve: market-stub.config.json /serve/pagign: expected a known option (');
    expect(run.stderr).toContain('Did you mean paging?');
    expect(run.stderr).toContain('market-stub serve: market-stub.config.json /serve/count: expected an integer from 0 to 100000000, found "many".');
  }, 60_000);
});
