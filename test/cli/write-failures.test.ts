// Every write failure names its real cause and keeps the old data, through the CLI: record,
// proxy --record, generate --out and check --output against a read-only tmpfs (EROFS), a full one
// (ENOSPC), a file where a directory is expected (ENOTDIR), a directory where a file is expected
// (EISDIR), a symlink loop (ELOOP), a long name (ENAMETOOLONG), a run as an unprivileged user
// (EACCES) and a low open-file limit (EMFILE). None of them ends in "unexpected failure".
// Mounting needs CAP_SYS_ADMIN: probed when this file loads; the tmpfs cases are skipped, with the
// reason in their name, only when it is refused.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, startServeProcess, type CliResult, type ServedProcess } from '../support/cli-process.js';

const work = mkdtempSync(path.join(tmpdir(), 'market-stub-write-failures-'));
const mounted: string[] = [];

/** Mounts a tmpfs with `options` on a new directory; the reason when the system refuses. */
function mountTmpfs(name: string, options: string): { dir: string; refused?: string } {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    mounted.push(dir);
    return { dir };
  } catch (error) {
    return { dir, refused: String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim() || 'mount failed' };
  }
}
const probe = mountTmpfs('probe', 'size=16k');
const CANNOT_MOUNT = probe.refused;
const withTmpfs = (name: string) => (CANNOT_MOUNT === undefined ? name : `${name} (skipped: mounting a tmpfs was refused here: ${CANNOT_MOUNT})`);

/** Runs the CLI to completion; `uid` runs it as that user, `maxFiles` under that open-file limit (prlimit). */
function cli(args: readonly string[], options: { uid?: number; maxFiles?: number } = {}): Promise<CliResult> {
  const command = options.maxFiles === undefined ? process.execPath : 'prlimit';
  const argv = options.maxFiles === undefined ? [CLI, ...args] : [`--nofile=${options.maxFiles}:${options.maxFiles}`, process.execPath, CLI, ...args];
  const child = spawn(command, argv, { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'], ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Exit 2, the errno named with its cause, and never the message of a bug. */
function expectNamed(run: CliResult, code: string, cause: string): void {
  expect(run.stderr).toContain(`${cause} (${code})`);
  expect(run.stderr).not.toMatch(/unexpected failure|Please report/);
  expect(run.code).toBe(2);
}

let small: ServedProcess;
let large: ServedProcess;
beforeAll(async () => {
  [small, large] = await Promise.all([
    startServeProcess(['--port', '0', '--seed', '7', '--count', '20', '--clock', '2026-01-01', '--quiet']),
    startServeProcess(['--port', '0', '--seed', '7', '--count', '2000', '--clock', '2026-01-01', '--quiet']),
  ]);
});
afterAll(async () => {
  await Promise.all([small.stop(), large.stop()]);
  for (const dir of mounted) execFileSync('umount', ['-l', dir]);
  rmSync(work, { recursive: true, force: true });
});

describe('a read-only file system (EROFS)', () => {
  it.skipIf(CANNOT_MOUNT !== undefined)(withTmpfs('record, proxy --record and generate name EROFS, not ENOENT, for DIR and for DIR under missing directories'), async () => {
    const { dir } = mountTmpfs('ro', 'size=64k,ro');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(dir, 'set')]), 'EROFS', 'the file system is read-only');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(dir, 'a', 'b', 'set')]), 'EROFS', 'the file system is read-only');
    expectNamed(await cli(['proxy', '--upstream', small.url, '--port', '0', '--record', path.join(dir, 'set')]), 'EROFS', 'the file system is read-only');
    expectNamed(await cli(['generate', '--count', '5', '--out', path.join(dir, 'f.json')]), 'EROFS', 'the file system is read-only');
    expectNamed(await cli(['generate', '--count', '5', '--out', path.join(dir, 'split') + '/']), 'EROFS', 'the file system is read-only');
  }, 60_000);

  it.skipIf(CANNOT_MOUNT !== undefined)(withTmpfs('keeps the recorded set when its file system turns read-only'), async () => {
    const { dir } = mountTmpfs('remount', 'size=256k');
    const out = path.join(dir, 'set');
    expect((await cli(['record', '--base-url', small.url, '--out', out])).code).toBe(0);
    const before = readFileSync(path.join(out, 'markets.json'), 'utf8');
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    expectNamed(await cli(['record', '--base-url', large.url, '--out', out]), 'EROFS', 'the file system is read-only');
    expect(readFileSync(path.join(out, 'markets.json'), 'utf8')).toBe(before);
  }, 60_000);
});

describe('a full file system (ENOSPC)', () => {
  it.skipIf(CANNOT_MOUNT !== undefined)(withTmpfs('record runs out of space while spooling: exit 2 naming ENOSPC, the previous set intact, nothing left behind'), async () => {
    const { dir } = mountTmpfs('full', 'size=64k');
    const out = path.join(dir, 'set');
    expect((await cli(['record', '--base-url', small.url, '--all', '--out', out])).code).toBe(0);
    const before = readFileSync(path.join(out, 'markets.json'), 'utf8');
    expectNamed(await cli(['record', '--base-url', large.url, '--all', '--out', out]), 'ENOSPC', 'no space left on the device');
    expect(readFileSync(path.join(out, 'markets.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['set']);
    expect(readdirSync(path.join(out, '.market-stub-sets'))).toHaveLength(1);
  }, 60_000);

  it.skipIf(CANNOT_MOUNT !== undefined)(withTmpfs('generate --out and check --output name ENOSPC and leave the old file as it was'), async () => {
    const { dir } = mountTmpfs('filled', 'size=64k');
    const report = path.join(dir, 'report.json');
    writeFileSync(report, '{"old":true}\n');
    // Fill what is left: the write stops at ENOSPC with the file system full.
    try {
      writeFileSync(path.join(dir, 'filler'), Buffer.alloc(1 << 20));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    expectNamed(await cli(['check', '--base-url', small.url, '--format', 'json', '--output', report]), 'ENOSPC', 'no space left on the device');
    expect(readFileSync(report, 'utf8')).toBe('{"old":true}\n');
    expectNamed(await cli(['generate', '--count', '500', '--out', path.join(dir, 'generated.json')]), 'ENOSPC', 'no space left on the device');
    expect(readdirSync(dir).sort()).toEqual(['filler', 'report.json']);
  }, 60_000);
});

describe('paths that cannot be written', () => {
  it('a file where a directory is expected (ENOTDIR), a directory where a file is expected (EISDIR), a symlink loop (ELOOP), a name too long (ENAMETOOLONG)', async () => {
    const file = path.join(work, 'a-file');
    writeFileSync(file, 'x');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(file, 'set')]), 'ENOTDIR', 'a component of the path is a file, not a directory');
    expectNamed(await cli(['generate', '--count', '5', '--out', path.join(file, 'f.json')]), 'ENOTDIR', 'a component of the path is a file, not a directory');
    const directory = path.join(work, 'a-directory');
    mkdirSync(directory);
    writeFileSync(path.join(directory, 'kept.txt'), 'kept');
    expectNamed(await cli(['check', '--base-url', small.url, '--output', directory]), 'EISDIR', 'it is a directory');
    expect(readdirSync(directory)).toEqual(['kept.txt']);
    const loop = path.join(work, 'loop');
    symlinkSync(loop, loop);
    expectNamed(await cli(['generate', '--count', '5', '--out', path.join(loop, 'f.json')]), 'ELOOP', 'too many symbolic links on the path (a symlink loop)');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(loop, 'set')]), 'ELOOP', 'too many symbolic links on the path (a symlink loop)');
    const long = path.join(work, 'n'.repeat(300));
    expectNamed(await cli(['generate', '--count', '5', '--out', long]), 'ENAMETOOLONG', 'the path or one of its names is too long');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(long, 'set')]), 'ENAMETOOLONG', 'the path or one of its names is too long');
  }, 60_000);

  it('a directory the user may not write (EACCES), run as an unprivileged user (root passes every permission check)', async () => {
    const locked = path.join(work, 'locked');
    mkdirSync(locked);
    chmodSync(work, 0o755);
    chmodSync(locked, 0o555);
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    expectNamed(await cli(['generate', '--count', '5', '--out', path.join(locked, 'f.json')], { ...(uid === undefined ? {} : { uid }) }), 'EACCES', 'permission denied');
    expectNamed(await cli(['record', '--base-url', small.url, '--out', path.join(locked, 'set')], { ...(uid === undefined ? {} : { uid }) }), 'EACCES', 'permission denied');
    expect(readdirSync(locked)).toEqual([]);
  }, 60_000);

  it('too many open files (EMFILE): named, never "unexpected failure", at every open-file limit from start-up to success', async () => {
    const named: number[] = [];
    let succeededAt: number | undefined;
    for (let limit = 18; limit <= 48 && succeededAt === undefined; limit++) {
      const run = await cli(['record', '--base-url', small.url, '--out', path.join(work, `emfile-${limit}`)], { maxFiles: limit });
      expect(run.stderr).not.toMatch(/unexpected failure|Please report/);
      if (run.code === 0) succeededAt = limit;
      else if (/market-stub[^\n]*too many open files[^\n]*\(EMFILE\)/.test(run.stderr)) named.push(limit);
    }
    // The low limits fail with market-stub naming EMFILE; a higher one succeeds.
    expect(named.length).toBeGreaterThan(0);
    expect(succeededAt).toBeDefined();
  }, 120_000);
});
