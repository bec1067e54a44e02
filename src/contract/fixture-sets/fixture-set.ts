import { link, lstat, mkdir, open, readdir, readlink, rename, rm, stat, symlink, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDirectory } from '../../file-system/file-system-cause.js';
import { unwritableError, writeDurable, writeFailureReason } from '../../file-system/write-file-atomic.js';
import type { Market } from '../../schema/generated/market-types.js';
import { ContractRunError } from '../http-client/index.js';
import { createMarketSpool, type MarketSpool } from './market-spool.js';
import { lockFixtureSet, type FixtureSetLock } from './fixture-set-lock.js';
import { MarketStubError } from '../../floor/market-stub-error.js';
import { fixtureText } from '../../catalog/fixture-text.js';

/** The file a recorded fixture set holds its markets in (`serve --fixtures DIR` reads `DIR/*.json`). */
export const FIXTURE_FILE = 'markets.json';
/** Sub-directory of invalid answers kept with --keep-invalid; serve and validate read only `DIR/*.json`, never this. */
export const INVALID_DIR = 'invalid';
export const INVALID_FILE = 'responses.json';
/** The pointer: a symlink in DIR to the current set, replaced by one rename(2). */
export const SET_POINTER = '.market-stub-current';
/** Where the sets live, one directory per version. */
export const SETS_DIR = '.market-stub-sets';

/**
 * The steps of a commit, in order; `onStep` is awaited after each, so a test can kill the process
 * at every one of them. `migrated-*` happen once, for a DIR written by a market-stub before the
 * pointer layout (a plain `DIR/markets.json`).
 */
export const FIXTURE_SET_STEPS = ['staged', 'written', 'versioned', 'migrated-set', 'migrated-pointer', 'migrated-link', 'pointer-created', 'swapped', 'linked', 'cleaned'] as const;
export type FixtureSetStep = (typeof FIXTURE_SET_STEPS)[number];

/** What was written. */
export interface FixtureSetWritten {
  /** Absolute path of the fixtures file as serve reads it (`DIR/markets.json`). */
  file: string;
  /** Absolute path of the invalid-answers file, when written. */
  invalidFile?: string;
  /** Markets written. */
  markets: number;
}

/** Options of a fixture-set write. */
export interface FixtureSetOptions {
  /** Awaited after each step of the commit (fault injection in tests). */
  onStep?: (step: FixtureSetStep) => void | Promise<void>;
  /** The surface the directory was given to, for messages (`--out`, `--record`, `writeFixtureSet`). @default 'writeFixtureSet' */
  where?: string;
}

/** A fixture set being prepared: markets go to `spool` (on disk); `commit` makes it the set of DIR in one atomic step. */
export interface FixtureSetStaging {
  /** Absolute path of DIR. */
  readonly dir: string;
  readonly spool: MarketSpool;
  /**
   * Writes the staged markets (those of `order` first, in that order) as `markets.json`, streaming,
   * plus `invalid/responses.json` when `invalid` is given, then switches DIR to the new set.
   * @throws MarketStubError OUTPUT_UNWRITABLE with the real cause; DIR then still holds the old set.
   */
  commit(input?: { order?: Iterable<string>; invalid?: readonly unknown[] }): Promise<FixtureSetWritten>;
  /** Removes the staging directory; DIR is left as it was. Idempotent. */
  abandon(): Promise<void>;
}

/**
 * Starts a crash-safe replacement of the fixture set in `dir`. Layout of a recorded DIR (what
 * `serve --fixtures DIR`, `validate DIR` and a watcher of DIR see):
 *
 * ```
 * DIR/markets.json          -> .market-stub-current/markets.json   (symlink, never changes)
 * DIR/invalid               -> .market-stub-current/invalid        (symlink, with --keep-invalid)
 * DIR/.market-stub-current  -> .market-stub-sets/<version>         (the pointer)
 * DIR/.market-stub-sets/<version>/markets.json, invalid/responses.json
 * ```
 *
 * A commit writes the new set into `.market-stub-sets/<version>`, fsyncs it, then replaces the
 * pointer with one rename(2) (atomic, POSIX): at every instant `DIR/markets.json` resolves to the
 * complete old set or the complete new one. DIR itself stays the same directory (a watcher of DIR
 * sees the pointer's rename), and files in DIR that are not fixtures (a README) are never touched.
 * When DIR does not exist, the new DIR is built next to it and renamed into place.
 *
 * Starting also cleans up after runs that were killed (their staging directories, pointer
 * temporaries and sets no pointer names; the `DIR.old-<pid>` of earlier versions is restored
 * when DIR is missing), and checks DIR up front, so a crawl never starts towards a DIR that
 * cannot be written.
 * One run at a time: DIR's lock (fixture-set-lock.ts) is taken first and released by commit or abandon.
 * @throws ContractRunError OPTION_INVALID when DIR is a file or holds `*.json` fixtures market-stub
 *   did not record (they would be replaced); MarketStubError OUTPUT_UNWRITABLE when it cannot be
 *   written (the real cause named) or another run holds its lock.
 */
export async function stageFixtureSet(dir: string, options: FixtureSetOptions = {}): Promise<FixtureSetStaging> {
  const where = options.where ?? 'writeFixtureSet';
  const target = path.resolve(dir);
  const step = async (s: FixtureSetStep) => options.onStep?.(s);
  const { staging, lock: held } = await prepareStaging(target, where);
  let spool: MarketSpool;
  try {
    spool = await createMarketSpool(path.join(staging, 'spool'), (error) => unwritable(where, target, error));
  } catch (error) {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    await held.release();
    throw unwritable(where, target, error);
  }
  await step('staged');
  let finished = false;
  const abandon = async () => {
    finished = true;
    await spool.dispose().catch(() => undefined);
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    await held.release();
  };
  return {
    dir: target,
    spool,
    abandon,
    async commit(input = {}) {
      if (finished) throw new Error('this staging was already committed or abandoned');
      finished = true;
      try {
        const written = await writeSet(staging, spool, input.order ?? [], input.invalid);
        await spool.dispose();
        await step('written');
        const existing = await describeDir(target, where);
        if (existing.kind === 'missing') await commitNew(target, staging, written.hasInvalid, step);
        else await commitSwap(target, staging, existing.kind === 'legacy', written.hasInvalid, step);
        return {
          file: path.join(target, FIXTURE_FILE),
          markets: written.markets,
          ...(written.hasInvalid ? { invalidFile: path.join(target, INVALID_DIR, INVALID_FILE) } : {}),
        };
      } catch (error) {
        await spool.dispose().catch(() => undefined);
        await rm(staging, { recursive: true, force: true }).catch(() => undefined);
        if (error instanceof ContractRunError) throw error;
        throw unwritable(where, target, error);
      } finally {
        await held.release();
      }
    },
  };
}

/**
 * The first stage of a staging: DIR's lock taken, dead runs' leftovers recovered, DIR checked and
 * an empty staging directory made (next to DIR when it is missing, else inside its sets). The lock
 * is released again when any of it fails. @throws as stageFixtureSet.
 */
async function prepareStaging(target: string, where: string): Promise<{ staging: string; lock: FixtureSetLock }> {
  const parent = path.dirname(target);
  const name = path.basename(target);
  let lock: FixtureSetLock | undefined;
  try {
    await makeDirectory(parent);
    // One run at a time per DIR (fixture-set-lock.ts); recovery below touches only dead runs' leftovers.
    lock = await lockFixtureSet(target, where);
    await recoverParent(parent, name, target);
    const existing = await describeDir(target, where);
    let staging: string;
    if (existing.kind === 'missing') {
      staging = path.join(parent, `.${name}.staging-${process.pid}`);
    } else {
      await recoverInside(target);
      staging = path.join(target, SETS_DIR, `.staging-${process.pid}`);
    }
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    return { staging, lock };
  } catch (error) {
    await lock?.release();
    if (error instanceof MarketStubError) throw error;
    throw unwritable(where, target, error);
  }
}

/**
 * Replaces the fixture set in `dir` with `markets` (a JSON array in the given order, 2-space
 * indent, trailing newline: the format `serve --fixtures` reads and `generate` writes), crash-safe
 * as stageFixtureSet describes, streaming (a set is bounded by the disk, not by a string's length).
 * @throws as stageFixtureSet and its commit.
 */
export async function writeFixtureSet(dir: string, markets: Iterable<Market> | AsyncIterable<Market>, invalid?: readonly unknown[], options: FixtureSetOptions = {}): Promise<FixtureSetWritten> {
  const staging = await stageFixtureSet(dir, options);
  const order: string[] = [];
  try {
    for await (const market of markets) {
      order.push(market.market_id);
      await staging.spool.put(market.market_id, fixtureText(market));
    }
  } catch (error) {
    await staging.abandon();
    throw unwritable(options.where ?? 'writeFixtureSet', staging.dir, error);
  }
  return staging.commit({ order, ...(invalid === undefined ? {} : { invalid }) });
}

/** Writes `markets.json` (and `invalid/`) into the staging directory, each file fsynced, then the directory. */
async function writeSet(staging: string, spool: MarketSpool, order: Iterable<string>, invalid: readonly unknown[] | undefined): Promise<{ markets: number; hasInvalid: boolean }> {
  let markets = 0;
  async function* arrayText(): AsyncGenerator<string> {
    for await (const text of spool.texts(order)) {
      yield `${markets === 0 ? '[\n' : ',\n'}${text}`;
      markets++;
    }
    yield markets === 0 ? '[]\n' : '\n]\n';
  }
  await writeDurable(path.join(staging, FIXTURE_FILE), arrayText());
  if (invalid !== undefined) {
    await mkdir(path.join(staging, INVALID_DIR));
    await writeDurable(path.join(staging, INVALID_DIR, INVALID_FILE), `${JSON.stringify(invalid, null, 2)}\n`);
    await syncDirectory(path.join(staging, INVALID_DIR));
  }
  await rm(path.join(staging, 'spool'), { force: true });
  await syncDirectory(staging);
  return { markets, hasInvalid: invalid !== undefined };
}

/** DIR did not exist: build the whole layout in the staging directory, then rename it to DIR. */
async function commitNew(target: string, staging: string, hasInvalid: boolean, step: (s: FixtureSetStep) => Promise<void>): Promise<void> {
  const version = versionName();
  const sets = path.join(staging, SETS_DIR);
  await mkdir(path.join(sets, version), { recursive: true });
  await rename(path.join(staging, FIXTURE_FILE), path.join(sets, version, FIXTURE_FILE));
  if (hasInvalid) await rename(path.join(staging, INVALID_DIR), path.join(sets, version, INVALID_DIR));
  await syncDirectory(path.join(sets, version));
  await step('versioned');
  await symlink(path.join(SETS_DIR, version), path.join(staging, SET_POINTER));
  await symlink(path.join(SET_POINTER, FIXTURE_FILE), path.join(staging, FIXTURE_FILE));
  if (hasInvalid) await symlink(path.join(SET_POINTER, INVALID_DIR), path.join(staging, INVALID_DIR));
  await syncDirectory(staging);
  await step('pointer-created');
  await rename(staging, target);
  await syncDirectory(path.dirname(target));
  await step('swapped');
  await step('linked');
  await step('cleaned');
}

/** DIR exists: version the staged set, (migrate a plain DIR once), then switch the pointer with one rename. */
async function commitSwap(target: string, staging: string, legacy: boolean, hasInvalid: boolean, step: (s: FixtureSetStep) => Promise<void>): Promise<void> {
  const sets = path.join(target, SETS_DIR);
  const version = versionName();
  await rename(staging, path.join(sets, version));
  await syncDirectory(sets);
  await step('versioned');
  if (legacy) await migrateLegacy(target, step);
  await replaceWithSymlink(path.join(target, SET_POINTER), path.join(SETS_DIR, version), 'pointer-created', step);
  await syncDirectory(target);
  await step('swapped');
  await ensureLinks(target, hasInvalid);
  await step('linked');
  await removeUnusedSets(target);
  await step('cleaned');
}

/**
 * A DIR written before the pointer layout holds a plain `markets.json` (and `invalid/`): it becomes
 * a versioned set of its own first (hard links, so the bytes serve reads never change), then each
 * top-level name is replaced by its link with one rename; the set seen stays the old one throughout.
 */
async function migrateLegacy(target: string, step: (s: FixtureSetStep) => Promise<void>): Promise<void> {
  const version = `${versionName()}-previous`;
  const set = path.join(target, SETS_DIR, version);
  await mkdir(set, { recursive: true });
  await link(path.join(target, FIXTURE_FILE), path.join(set, FIXTURE_FILE)).catch(async () => copyFile(path.join(target, FIXTURE_FILE), path.join(set, FIXTURE_FILE)));
  const invalid = path.join(target, INVALID_DIR);
  const hadInvalid = await lstat(invalid).then((s) => s.isDirectory(), () => false);
  if (hadInvalid) await rename(invalid, path.join(set, INVALID_DIR));
  await syncDirectory(set);
  await step('migrated-set');
  await replaceWithSymlink(path.join(target, SET_POINTER), path.join(SETS_DIR, version), 'migrated-pointer', step);
  await replaceWithSymlink(path.join(target, FIXTURE_FILE), path.join(SET_POINTER, FIXTURE_FILE), 'migrated-link', step);
  if (hadInvalid) await replaceWithSymlink(invalid, path.join(SET_POINTER, INVALID_DIR));
  await syncDirectory(target);
}

/** Makes `file` a symlink to `to` with one rename(2) over whatever is there (a symlink or a regular file). */
async function replaceWithSymlink(file: string, to: string, created?: FixtureSetStep, step?: (s: FixtureSetStep) => Promise<void>): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  await rm(temporary, { force: true });
  await symlink(to, temporary);
  if (created && step) await step(created);
  await rename(temporary, file);
}

/** `markets.json` and (when the set has one) `invalid` link through the pointer; a stale `invalid` link goes. */
async function ensureLinks(target: string, hasInvalid: boolean): Promise<void> {
  const fixtures = path.join(target, FIXTURE_FILE);
  if ((await readlink(fixtures).catch(() => undefined)) !== path.join(SET_POINTER, FIXTURE_FILE)) await replaceWithSymlink(fixtures, path.join(SET_POINTER, FIXTURE_FILE));
  const invalid = path.join(target, INVALID_DIR);
  const current = await readlink(invalid).catch(() => undefined);
  if (hasInvalid && current !== path.join(SET_POINTER, INVALID_DIR)) await replaceWithSymlink(invalid, path.join(SET_POINTER, INVALID_DIR));
  if (!hasInvalid && current === path.join(SET_POINTER, INVALID_DIR)) await rm(invalid, { force: true });
  await syncDirectory(target);
}

/** What DIR is: missing, a pointer layout, or a plain (legacy) set; refuses a file and fixtures it did not write. */
async function describeDir(target: string, where: string): Promise<{ kind: 'missing' | 'managed' | 'legacy' }> {
  const info = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info) return { kind: 'missing' };
  if (!info.isDirectory()) throw new ContractRunError('OPTION_INVALID', `${where} ${target}: it is a file, not a directory. Give a directory (it is created when missing).`, where);
  const entries = await readdir(target, { withFileTypes: true });
  const managed = entries.some((e) => e.name === SET_POINTER);
  const foreign = entries.filter((e) => e.name.endsWith('.json') && !(e.name === FIXTURE_FILE && (e.isFile() || (managed && e.isSymbolicLink()))));
  if (foreign.length > 0) {
    throw new ContractRunError('OPTION_INVALID', `${where} ${target} holds fixture files market-stub did not record (${foreign.slice(0, 5).map((e) => e.name).join(', ')}${foreign.length > 5 ? ', …' : ''}); a recorded set replaces every *.json, so they would be lost. Move them elsewhere or give another directory.`, where);
  }
  // A plain markets.json: written before the pointer layout, or a migration that was killed half-way (resumed).
  return { kind: entries.some((e) => e.name === FIXTURE_FILE && e.isFile()) ? 'legacy' : 'managed' };
}

/**
 * Cleans the parent of DIR after killed runs of dead processes: `.DIR.staging-<pid>` (a DIR being
 * built) goes; the `DIR.old-<pid>` and `DIR.tmp-<pid>` of market-stub before the pointer layout
 * are restored (when DIR is missing) or removed.
 */
async function recoverParent(parent: string, name: string, target: string): Promise<void> {
  const pattern = new RegExp(`^(?:\\.${escapeRegExp(name)}\\.(staging)|${escapeRegExp(name)}\\.(tmp|old))-(\\d+)$`);
  for (const sibling of await readdir(parent)) {
    const m = pattern.exec(sibling);
    if (!m || isLiveOther(Number(m[3]))) continue;
    const full = path.join(parent, sibling);
    if (m[2] === 'old' && !(await exists(target))) await rename(full, target);
    else await rm(full, { recursive: true, force: true });
  }
}

/** Cleans DIR after killed runs of dead processes: staging directories, pointer and link temporaries, sets no pointer names. */
async function recoverInside(target: string): Promise<void> {
  for (const entry of await readdir(target)) {
    const m = /\.tmp-(\d+)$/.exec(entry);
    if (m && (entry.startsWith(SET_POINTER) || entry.startsWith(FIXTURE_FILE) || entry.startsWith(INVALID_DIR)) && !isLiveOther(Number(m[1]))) await rm(path.join(target, entry), { force: true });
  }
  await removeUnusedSets(target);
}

/** Removes the sets the pointer does not name and staging directories, except those of live processes other than this one. */
async function removeUnusedSets(target: string): Promise<void> {
  const sets = path.join(target, SETS_DIR);
  const current = path.basename((await readlink(path.join(target, SET_POINTER)).catch(() => '')) || '.none');
  const names = await readdir(sets).catch(() => [] as string[]);
  for (const entry of names) {
    if (entry === current) continue;
    const pid = Number(/-(\d+)(?:-previous)?$/.exec(entry)?.[1] ?? /^\.staging-(\d+)$/.exec(entry)?.[1] ?? Number.NaN);
    if (entry === `.staging-${process.pid}`) continue;
    if (Number.isFinite(pid) && isLiveOther(pid)) continue;
    await rm(path.join(sets, entry), { recursive: true, force: true });
  }
}

/** `<UTC time>-<pid>`: sorts by time, names its writer (so a live writer's set is never removed). */
function versionName(): string {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${process.pid}`;
}

/** fsyncs a directory so the names created or renamed in it survive a crash (POSIX). */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems refuse fsync on directories (EINVAL/EISDIR); the rename stays atomic.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EISDIR' && code !== 'EPERM') throw error;
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(() => true, () => false);
}

/** True for a process other than this one that is still running. */
function isLiveOther(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    // Signal 0 sends nothing; it only asks whether the process exists.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function unwritable(where: string, target: string, error: unknown) {
  return unwritableError(where, `cannot write the fixture set ${target}: ${writeFailureReason(error)}. The previous set, if any, was left unchanged.`);
}
