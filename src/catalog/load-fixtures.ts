import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { getMarketValidator } from '../schema/market-validator.js';
import type { Market } from '../schema/market-types.js';
import type { Finding } from '../schema/finding.js';
import { MarketStubError } from '../core/market-stub-error.js';

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
        : `${where}: invalid ${location} (${count}); nothing was changed:\n${problems.map((p) => `  - ${line(p)}`).join('\n')}`,
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
  let files: string[];
  try {
    const info = await stat(location);
    if (info.isDirectory()) {
      const names = (await readdir(location)).filter((n) => n.endsWith('.json')).sort();
      files = names.map((n) => path.join(location, n));
      if (files.length === 0) problems.push(fileProblem(location, 'empty', 'at least one *.json fixture file', 'a directory with no .json files'));
    } else {
      files = [location];
    }
  } catch (error) {
    problems.push(fileProblem(location, 'unreadable', 'a readable JSON file or directory', ioReason(error)));
    return { markets, problems, files: [] };
  }
  const firstSeen = new Map<string, { file: string; index: number }>();
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      problems.push(fileProblem(file, 'unreadable', 'a readable JSON file', ioReason(error)));
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
  return { markets, problems, files };
}

/**
 * Validates each item of `items` against `$defs/Market` and checks its market_id against
 * `firstSeen` (shared across the files of one set); pushes valid markets and every problem.
 */
export function collectMarkets(items: readonly unknown[], file: string, firstSeen: Map<string, { file: string; index: number }>, markets: Market[], problems: FixtureProblem[]): void {
  const validator = getMarketValidator({ allErrors: true });
  items.forEach((item, index) => {
    const findings = validator.market(item, `/${index}`);
    for (const f of findings) problems.push({ ...f, file, index });
    if (findings.length > 0 || !validator.isMarket(item)) return;
    const seen = firstSeen.get(item.market_id);
    if (seen) {
      problems.push({
        severity: 'error', code: 'duplicate-id', file, index, pointer: `/${index}/market_id`,
        expected: 'a market_id unique across the fixture set',
        found: `${JSON.stringify(item.market_id)}, already at ${seen.file} /${seen.index}`,
        message: `/${index}/market_id: duplicate market_id ${JSON.stringify(item.market_id)} (first at ${seen.file} /${seen.index})`,
      });
      return;
    }
    firstSeen.set(item.market_id, { file, index });
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
 * (`file: market [3] at /3/yes_price: expected number, found "0.63"`), then a closing line that
 * says what to do.
 */
export function formatFixtureProblems(problems: readonly FixtureProblem[], location: string): string {
  return `${describeFixtureProblems(problems, location)}\nFix the files listed, then re-run; 'market-stub validate ${location}' checks them without starting a server.`;
}

/** The problems of a fixture set, one line each, under a heading naming the location (no advice). */
export function describeFixtureProblems(problems: readonly FixtureProblem[], location: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return `Fixtures at ${location} cannot be served (${count}):\n${problems.map((p) => `  - ${problemLine(p)}`).join('\n')}`;
}

function problemLine(p: FixtureProblem): string {
  const where = p.index === undefined ? '' : ` market [${p.index}] at ${p.pointer}:`;
  return `${p.file}:${where} expected ${p.expected}, found ${p.found}`;
}

function fileProblem(file: string, code: string, expected: string, found: string): FixtureProblem {
  return { severity: 'error', code, file, pointer: '', expected, found, message: `${file}: expected ${expected}, found ${found}` };
}

function ioReason(error: unknown): string {
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
