import { readdir, stat } from 'node:fs/promises';
import { readRegularFileBytes, UnreadableFileError } from '../core/read-regular-file.js';
import { JsonInputError, readJsonBytes } from '../core/bounded-json.js';
import path from 'node:path';
import type { Market } from '../schema/generated/market-types.js';
import { collectMarkets, FixtureError, type FixtureProblem } from './market-problems.js';

// The problems of a fixture set and their wording are platform-neutral (market-problems.ts); this module reads files.
export { collectMarkets, describeFixtureProblems, FixtureError, formatFixtureProblems, formatWatchRefusal, MAX_LISTED_PROBLEMS, type FixtureProblem } from './market-problems.js';

/** Most `*.json` files a fixture directory may hold. */
export const MAX_FIXTURE_FILES = 10_000;
/** Largest fixture file, bytes. */
export const MAX_FIXTURE_FILE_BYTES = 64 * 1024 * 1024;
/** Result of reading a fixture set: the valid markets in order, and every problem found. */
export interface FixtureLoad {
  markets: Market[];
  problems: FixtureProblem[];
  files: string[];
}

/**
 * Reads a fixture set: `location` is a JSON file holding an array of Markets, or a directory whose
 * `*.json` files (sorted by name, not recursive) each hold one. Every market is validated against
 * `$defs/Market`; market_ids must be unique across the whole set. Never throws for bad data:
 * unreadable files, bad JSON (with line and column), non-arrays, invalid markets and duplicate ids
 * all come back as problems, so a caller can report every one at once.
 */
export async function readFixtures(location: string): Promise<FixtureLoad> {
  const problems: FixtureProblem[] = [];
  const markets: Market[] = [];
  const listed = await listFixtureFiles(location, problems);
  if (!listed) return { markets, problems, files: [] };
  const firstSeen = new Map<string, { file: string; index: number }>();
  for (const file of listed) {
    let bytes: Buffer;
    try {
      bytes = await readRegularFileBytes(file, MAX_FIXTURE_FILE_BYTES);
    } catch (error) {
      problems.push(fileProblem(file, 'unreadable', `a readable regular JSON file of at most ${MAX_FIXTURE_FILE_BYTES} bytes`, ioReason(error)));
      continue;
    }
    let data: unknown;
    try {
      data = readJsonBytes(bytes);
    } catch (error) {
      if (!(error instanceof JsonInputError)) throw error;
      problems.push(jsonProblem(file, error));
      continue;
    }
    if (!Array.isArray(data)) {
      problems.push(fileProblem(file, 'type', 'a JSON array of markets', data === null ? 'null' : typeof data));
      continue;
    }
    collectMarkets(data, file, firstSeen, markets, problems);
  }
  return { markets, problems, files: listed };
}

/**
 * The files of a fixture set: the location itself, or a directory's `*.json` entries (sorted, at
 * most MAX_FIXTURE_FILES). Pushes a problem and returns undefined when the location is unusable.
 */
async function listFixtureFiles(location: string, problems: FixtureProblem[]): Promise<string[] | undefined> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(location)).isDirectory();
  } catch (error) {
    problems.push(fileProblem(location, 'unreadable', 'a readable JSON file or directory', ioReason(error)));
    return undefined;
  }
  if (!isDirectory) return [location];
  let names: string[];
  try {
    names = (await readdir(location)).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    problems.push(fileProblem(location, 'unreadable', 'a readable directory', ioReason(error)));
    return undefined;
  }
  if (names.length > MAX_FIXTURE_FILES) {
    problems.push(fileProblem(location, 'too-many-files', `at most ${MAX_FIXTURE_FILES} *.json fixture files`, `${names.length} files`));
    return undefined;
  }
  if (names.length === 0) problems.push(fileProblem(location, 'empty', 'at least one *.json fixture file', 'a directory with no .json files'));
  return names.map((n) => path.join(location, n));
}

/**
 * Reads and validates a fixture set, all or nothing.
 * @throws FixtureError listing every problem when any file or market is bad.
 */
export async function loadFixtures(location: string): Promise<Market[]> {
  const load = await readFixtures(location);
  if (load.problems.length > 0) throw new FixtureError(load.problems, location);
  return load.markets;
}

/** A fixture file that breaks a JSON rule (core/bounded-json.ts): code `json` for syntax, `json-<rule>` otherwise. */
function jsonProblem(file: string, error: JsonInputError): FixtureProblem {
  const problem = fileProblem(file, error.rule === 'syntax' ? 'json' : `json-${error.rule}`, error.expected, error.found);
  return error.pointer === undefined ? problem : { ...problem, pointer: error.pointer };
}

function fileProblem(file: string, code: string, expected: string, found: string): FixtureProblem {
  return { severity: 'error', code, file, pointer: '', expected, found, message: `${file}: expected ${expected}, found ${found}` };
}

function ioReason(error: unknown): string {
  if (error instanceof UnreadableFileError) return error.found;
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file or directory';
  if (e.code === 'EACCES') return 'permission denied';
  if (e.code === 'EISDIR') return 'a directory';
  return e.message ?? String(error);
}
