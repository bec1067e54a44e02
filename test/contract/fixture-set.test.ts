// Crash-safe fixture sets: at every instant DIR holds the complete old set or
// the complete new one. Shown by fault injection (a child process that SIGKILLs itself after each
// step of the switch, for a DIR recorded before, a plain DIR of an earlier market-stub and a DIR
// that did not exist), by a reader that reads DIR while another process switches it again and
// again, and by the clean-up of what killed runs leave behind.
import { spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtures } from '../../src/file-system/load-fixtures.js';
import { FIXTURE_SET_STEPS, SET_POINTER, SETS_DIR, stageFixtureSet, writeFixtureSet, type FixtureSetStep } from '../../src/contract/fixture-sets/fixture-set.js';
import type { Market } from '../../src/index.js';
import { conformingMarket } from './deviant-server.js';

// The child runs the source through tsx: the published dist/ is bundled and has no module per file.
const FIXTURE_SET_MODULE = pathToFileURL(path.resolve('src/contract/fixture-sets/fixture-set.ts')).href;
const setA = [1, 2, 3].map((i) => conformingMarket(i)) as unknown as Market[];
const setB = [10, 11, 12, 13].map((i) => conformingMarket(i)) as unknown as Market[];
const setC = [20].map((i) => conformingMarket(i)) as unknown as Market[];
const text = (markets: Market[]) => `${JSON.stringify(markets, null, 2)}\n`;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'market-stub-fixture-set-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs writeFixtureSet(dir, markets) in a child process that SIGKILLs itself right after `killAt` (or writes `times` sets, alternating). */
function writeInChild(dir: string, sets: Market[][], killAt?: FixtureSetStep, withInvalid = false): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const script = `
    import { writeFixtureSet } from ${JSON.stringify(FIXTURE_SET_MODULE)};
    const sets = JSON.parse(process.env.SETS);
    for (const markets of sets) {
      await writeFixtureSet(process.env.DIR, markets, process.env.INVALID ? [{ market_id: 'X', failure: 'kept apart' }] : undefined, {
        onStep: (step) => { if (step === process.env.KILL_AT) process.kill(process.pid, 'SIGKILL'); },
      });
    }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, DIR: dir, SETS: JSON.stringify(sets), KILL_AT: killAt ?? '', INVALID: withInvalid ? '1' : '' }, stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The set DIR holds as `serve --fixtures DIR` reads it: its markets, or `missing`. Throws on a partial or broken set. */
async function setIn(dir: string): Promise<Market[] | 'missing'> {
  if (!(await lstat(dir).then(() => true, () => false))) return 'missing';
  const load = await readFixtures(dir);
  if (load.problems.length > 0) throw new Error(`${dir} holds a broken set: ${JSON.stringify(load.problems)}`);
  return load.markets;
}

/** Nothing left behind: one set, no staging, no temporaries, beside DIR or inside it. */
async function expectClean(dir: string): Promise<void> {
  const parent = path.dirname(dir);
  const name = path.basename(dir);
  expect((await readdir(parent)).filter((n) => n !== name && n.includes(name))).toEqual([]);
  expect((await readdir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([]);
  expect(await readdir(path.join(dir, SETS_DIR))).toHaveLength(1);
}

describe('fixture sets survive a kill at every step of the switch', () => {
  const scenarios: Array<{ name: string; prepare(dir: string): Promise<void>; old: Market[] | 'missing'; steps: readonly FixtureSetStep[] }> = [
    {
      name: 'a DIR recorded before (pointer layout)',
      prepare: async (dir) => void (await writeFixtureSet(dir, setA)),
      old: setA,
      steps: FIXTURE_SET_STEPS.filter((s) => !s.startsWith('migrated')),
    },
    {
      name: 'a plain DIR written by an earlier market-stub (markets.json, invalid/, a README)',
      prepare: async (dir) => {
        await mkdir(path.join(dir, 'invalid'), { recursive: true });
        await writeFile(path.join(dir, 'markets.json'), text(setA));
        await writeFile(path.join(dir, 'invalid', 'responses.json'), '[]\n');
        await writeFile(path.join(dir, 'README.md'), '# kept\n');
      },
      old: setA,
      steps: FIXTURE_SET_STEPS,
    },
    {
      name: 'a DIR that does not exist yet',
      prepare: async () => undefined,
      old: 'missing',
      steps: FIXTURE_SET_STEPS.filter((s) => !s.startsWith('migrated')),
    },
  ];

  for (const scenario of scenarios) {
    it(`${scenario.name}: the old set until the pointer is switched, the new one after; the next run cleans up`, async () => {
      const swapped = scenario.steps.indexOf('swapped');
      for (const [k, step] of scenario.steps.entries()) {
        const dir = path.join(work, `scenario-${scenarios.indexOf(scenario)}-${step}`);
        await scenario.prepare(dir);
        const { signal } = await writeInChild(dir, [setB], step, true);
        expect(signal, step).toBe('SIGKILL');
        expect(await setIn(dir), `killed after ${step}`).toEqual(k < swapped ? scenario.old : setB);
        // The next run recovers whatever was left and switches to its own set.
        const written = await writeFixtureSet(dir, setC);
        expect(written.markets).toBe(1);
        expect(await setIn(dir), `after a run following a kill after ${step}`).toEqual(setC);
        expect(await readFile(path.join(dir, 'markets.json'), 'utf8')).toBe(text(setC));
        await expectClean(dir);
        if (scenario.name.includes('README')) expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toBe('# kept\n');
      }
    });
  }
});

describe('fixture sets, read while another process switches them', () => {
  it('every read of DIR/markets.json is one complete set, never a mix or a partial file', async () => {
    const dir = path.join(work, 'busy');
    await writeFixtureSet(dir, setA);
    const allowed = new Set([text(setA), text(setB)]);
    const writer = writeInChild(dir, Array.from({ length: 30 }, (_, k) => (k % 2 === 0 ? setB : setA)));
    let running = true;
    void writer.then(() => (running = false));
    let reads = 0;
    const seen = new Set<string>();
    while (running) {
      const content = await readFile(path.join(dir, 'markets.json'), 'utf8');
      expect(allowed.has(content)).toBe(true);
      seen.add(content);
      reads++;
    }
    expect((await writer).code).toBe(0);
    expect(reads).toBeGreaterThan(30);
    // Both sets were seen: the reads really overlapped the switches.
    expect(seen.size).toBe(2);
  });
});

describe('fixture sets: clean-up, refusals and causes', () => {
  /** A pid that surely belongs to no process any more. */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    return child.pid as number;
  }

  it('removes what dead runs left (staging, pointer temporaries, orphan sets, old-layout temporaries) but not a live run\'s staging', async () => {
    const dir = path.join(work, 'stale');
    await writeFixtureSet(dir, setA);
    const dead = await deadPid();
    const live = process.ppid;
    const leftovers = [
      path.join(dir, SETS_DIR, `.staging-${dead}`),
      path.join(dir, SETS_DIR, `20200101T000000000Z-${dead}`),
      path.join(work, `.stale.staging-${dead}`),
      path.join(work, `stale.tmp-${dead}`),
    ];
    for (const d of leftovers) await mkdir(d, { recursive: true });
    await writeFile(path.join(dir, `${SET_POINTER}.tmp-${dead}`), '');
    const liveStaging = path.join(dir, SETS_DIR, `.staging-${live}`);
    await mkdir(liveStaging);
    await writeFixtureSet(dir, setB);
    expect(await setIn(dir)).toEqual(setB);
    for (const d of leftovers) expect(await lstat(d).then(() => d, () => 'gone')).toBe('gone');
    expect((await readdir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(await lstat(liveStaging).then(() => 'kept', () => 'gone')).toBe('kept');
  });

  it('restores DIR from the DIR.old-<pid> an earlier market-stub left when killed between its two renames', async () => {
    const dir = path.join(work, 'between-renames');
    const old = path.join(work, `between-renames.old-${await deadPid()}`);
    await mkdir(old);
    await writeFile(path.join(old, 'markets.json'), text(setA));
    const staging = await stageFixtureSet(dir);
    // Staging restored the set first, so "left unchanged" is true if nothing is committed.
    await staging.abandon();
    expect(await setIn(dir)).toEqual(setA);
    expect(await lstat(old).then(() => 'kept', () => 'gone')).toBe('gone');
  });

  it('refuses a DIR holding fixture files it did not record, and a file in the way, before writing anything', async () => {
    const dir = path.join(work, 'foreign');
    await mkdir(dir);
    await writeFile(path.join(dir, 'hand-written.json'), text(setA));
    await expect(writeFixtureSet(dir, setB, undefined, { where: '--out' })).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringContaining('holds fixture files market-stub did not record (hand-written.json)') });
    expect(await readdir(dir)).toEqual(['hand-written.json']);
    const file = path.join(work, 'a-file');
    await writeFile(file, 'x');
    await expect(writeFixtureSet(file, setB)).rejects.toMatchObject({ code: 'OPTION_INVALID', message: expect.stringContaining('it is a file, not a directory') });
    await expect(writeFixtureSet(path.join(file, 'below'), setB)).rejects.toMatchObject({ code: 'OUTPUT_UNWRITABLE', message: expect.stringMatching(/a component of the path is a file, not a directory \(ENOTDIR\)|a file is already in the way of the path \(EEXIST\)/) });
  });

  it('writes a set chunk by chunk from an async iterable (no single string of the whole set)', async () => {
    const dir = path.join(work, 'streamed');
    async function* many(): AsyncGenerator<Market> {
      for (let i = 1; i <= 5_000; i++) yield conformingMarket(i) as unknown as Market;
    }
    const written = await writeFixtureSet(dir, many());
    expect(written.markets).toBe(5_000);
    const load = await readFixtures(dir);
    expect(load.problems).toEqual([]);
    expect(load.markets).toHaveLength(5_000);
    expect(load.markets[4_999]).toEqual(conformingMarket(5_000));
  });
});
