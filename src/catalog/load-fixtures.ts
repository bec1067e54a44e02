import { readdir, stat } from 'node:fs/promises';
import { readRegularFile, UnreadableFileError } from '../core/read-regular-file.js';
import path from 'node:path';
import { getMarketValidator } from '../schema/market-validator.js';
import type { Market } from '../schema/market-types.js';
import type { Finding } from '../schema/finding.js';
import { MarketStubError } from '../core/market-stub-error.js';
import { CLI_HINT } from '../core/cli-hint.js';

/** Most `*.json` files a fixture directory may hold. */
export const MAX_FIXTURE_FILES = 10_000;
/** Largest fixture file, bytes. */
export const MAX_FIXTURE_FILE_BYTES = 64 * 1024 * 1024;
/** Most problems a message lists one per line; the rest are counted in a closing line. */
export const MAX_LISTED_PROBLEMS = 100;

/** One problem in a fixture set, located by file, array index and JSON pointer. */
export interface FixtureProblem extends Finding {
  /** The file, as given or relative to the fixtures directory given. */
  file: string;
  /** Position in the file's array, when the problem is about one market. */
  index?: number;
}

/** Result of reading a fixture set: the valid markets in order, and every problem found. */
export interface FixtureLoad {
  markets: Market[];
  problems: FixtureProblem[];
  files: string[];
}

/**
 * A fixture set (or markets given in code) that cannot be served: a MarketStubError with code
 * `MARKETS_INVALID` (`findings` has every problem, located by file and pointer) or
 * `FIXTURES_UNREADABLE`. The message is worded for the surface in `where` (`startMarketStub`,
 * `stub.setMarkets`); the CLI prints `formatFixtureProblems` with its own advice instead.
 */
export class FixtureError extends MarketStubError {
  /**
   * @param location the fixture file or directory, or for markets given in code a label (`markets`)
   * @param given `fixtures` (files: problems name them) or `markets` (an array given in code)
   */
  constructor(readonly problems: FixtureProblem[], readonly location: string, where = 'startMarketStub', given: 'fixtures' | 'markets' = 'fixtures') {
    const unreadable = problems.some((p) => p.code === 'unreadable');
    const line = given === 'fixtures' ? problemLine : (p: FixtureProblem) => problemLine(p).slice(p.file.length + 2);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super({
      code: unreadable ? 'FIXTURES_UNREADABLE' : 'MARKETS_INVALID',
      where,
      findings: problems.map((p) => ({ pointer: p.pointer, expected: p.expected, found: p.found, message: line(p) })),
      message: given === 'fixtures'
        ? `${where}: ${describeFixtureProblems(problems, location)}`
        : `${where}: invalid ${location} (${count}); nothing was changed:\n${listProblems(problems, line)}`,
    });
    this.name = 'FixtureError';
  }
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
    let text: string;
    try {
      text = await readRegularFile(file, MAX_FIXTURE_FILE_BYTES);
    } catch (error) {
      problems.push(fileProblem(file, 'unreadable', `a readable regular JSON file of at most ${MAX_FIXTURE_FILE_BYTES} bytes`, ioReason(error)));
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      problems.push(fileProblem(file, 'json', 'valid JSON', jsonSyntaxReason(error, text)));
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
 * Validates each item of `items` against `$defs/Market` and checks its market_id against
 * `firstSeen` (shared across the files of one set), for invalid items too, so one pass reports
 * every problem, duplicates included; pushes valid, unique markets and every problem.
 */
export function collectMarkets(items: readonly unknown[], file: string, firstSeen: Map<string, { file: string; index: number }>, markets: Market[], problems: FixtureProblem[]): void {
  const validator = getMarketValidator({ allErrors: true });
  items.forEach((item, index) => {
    const findings = validator.market(item, `/${index}`);
    for (const f of findings) problems.push({ ...f, file, index });
    // Duplicates are checked for every item with a string market_id, valid or not: one pass shows them all.
    const id = item !== null && typeof item === 'object' ? (item as { market_id?: unknown }).market_id : undefined;
    const seen = typeof id === 'string' ? firstSeen.get(id) : undefined;
    if (seen) {
      problems.push({
        severity: 'error', code: 'duplicate-id', file, index, pointer: `/${index}/market_id`,
        expected: 'a market_id unique across the fixture set',
        found: `${JSON.stringify(id)}, already at ${seen.file} /${seen.index}`,
        message: `/${index}/market_id: duplicate market_id ${JSON.stringify(id)} (first at ${seen.file} /${seen.index})`,
      });
    } else if (typeof id === 'string') firstSeen.set(id, { file, index });
    if (findings.length > 0 || seen || !validator.isMarket(item)) return;
    markets.push(item);
  });
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

/**
 * The problems of a fixture set as the CLI prints them: one line per problem
 * (`file: market [3] at /3/yes_price: expected number, found "0.63"`, at most MAX_LISTED_PROBLEMS),
 * then a closing line that says what to do (fix and re-run, or check offline with `validate`).
 */
export function formatFixtureProblems(problems: readonly FixtureProblem[], location: string): string {
  return `${describeFixtureProblems(problems, location)}\nFix the files listed, then re-run; '${CLI_HINT} validate ${location}' checks them without starting a server.`;
}

/**
 * `--watch`'s message for a save that left the fixtures invalid: the problems, then what the stub
 * does about it (keeps the markets it serves, reloads on the next save) instead of start-up's
 * "fix, then re-run".
 */
export function formatWatchRefusal(problems: readonly FixtureProblem[], location: string): string {
  return `fixtures changed but are invalid; still serving the previous data. ${describeFixtureProblems(problems, location)}\nFix the files listed and save: the stub reloads on the next save ('${CLI_HINT} validate ${location}' checks them meanwhile).`;
}

/** The problems of a fixture set, one line each, under a heading naming the location (no advice). */
export function describeFixtureProblems(problems: readonly FixtureProblem[], location: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return `Fixtures at ${location} cannot be served (${count}):\n${listProblems(problems, problemLine)}`;
}

/** One line per problem, at most MAX_LISTED_PROBLEMS, then one line counting the rest and the files they are in. */
function listProblems(problems: readonly FixtureProblem[], line: (p: FixtureProblem) => string): string {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  - ${line(p)}`);
  const rest = problems.length - shown.length;
  if (rest > 0) shown.push(`  … and ${rest} more problem(s) in ${new Set(problems.slice(MAX_LISTED_PROBLEMS).map((p) => p.file)).size} file(s) (every one is in the error's findings)`);
  return shown.join('\n');
}

function problemLine(p: FixtureProblem): string {
  const where = p.index === undefined ? '' : ` market [${p.index}] at ${p.pointer}:`;
  return `${p.file}:${where} expected ${p.expected}, found ${p.found}`;
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

/** Turns V8's "… in JSON at position N" into "invalid JSON at line L, column C (…)": the `found` of a JSON syntax problem. */
export function jsonSyntaxReason(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const m = /at position (\d+)/.exec(message);
  if (!m) return `invalid JSON (${message})`;
  const position = Number(m[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `invalid JSON at line ${line}, column ${column} (${message.replace(/ in JSON at position \d+.*$/, '')})`;
}
