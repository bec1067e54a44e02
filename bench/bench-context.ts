import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, the Node binary and the two servers the harness starts. */
export const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
export const NODE = process.execPath;
export const CLI = path.join(ROOT, 'dist/cli.cjs');
export const BASELINE = path.join(ROOT, 'bench/baseline-server.mjs');

const began = performance.now();
/** Progress on stderr, with the seconds since the harness began, so slow phases show. */
export const log = (line: string): boolean => process.stderr.write(`[${((performance.now() - began) / 1000).toFixed(1)} s] ${line}\n`);
/** A path relative to the repository root when it lies inside it. */
export const display = (file: string): string => (file.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, file) : file);
