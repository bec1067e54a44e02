// A throw-away folder where documentation examples run as a reader's project would: its
// node_modules holds this repository's dependencies and `market-stub` itself (the built package,
// through its exports), fixtures/ is a copy (examples may write next to it) and docs/ a link
// (the CI recipes the examples name). Commands of the CLI run as `node dist/cli.cjs` of this
// repository, which `npm run build` makes.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './doc-blocks.js';

/** The built CLI every `market-stub` / `npx market-stub` of an example becomes. */
export const CLI = path.join(ROOT, 'dist/cli.cjs');

/** Creates the sandbox folder; `remove()` deletes it. */
export function createSandbox(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'market-stub-doc-examples-'));
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  symlinkSync(ROOT, path.join(modules, 'market-stub'));
  cpSync(path.join(ROOT, 'fixtures'), path.join(dir, 'fixtures'), { recursive: true });
  symlinkSync(path.join(ROOT, 'docs'), path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "doc-examples", "private": true, "type": "module" }\n');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The environment examples run in: no MARKET_STUB_* of the caller, no colour, a dummy token. */
export function exampleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('MARKET_STUB_') && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'FORCE_COLOR') env[k] = v;
  }
  return { ...env, NO_COLOR: '1', TOKEN: 'doc-example-token', ...extra };
}

/** What a finished command left. */
export interface Ran { code: number | null; stdout: string; stderr: string }

/**
 * Runs `command` with `args` in `cwd` to its end, or kills it after `timeoutMs`.
 * Never rejects: a spawn failure comes back as code null and the error in stderr.
 */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
    child.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
    const timer = setTimeout(() => { stderr += `\n(killed after ${timeoutMs} ms)`; child.kill('SIGKILL'); }, timeoutMs);
    child.on('error', (error) => { clearTimeout(timer); resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
