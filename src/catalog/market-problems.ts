import { jsonRuleBroken } from '../floor/bounded-json.js';
import { MAX_LISTED_PROBLEMS, MAX_MARKET_DEPTH } from '../floor/limits.js';
import { CLI_HINT } from '../floor/cli-hint.js';
import { MarketStubError } from '../floor/market-stub-error.js';
import type { Finding } from '../schema/finding.js';
import type { Market } from '../schema/generated/market-types.js';
import { getMarketValidator } from '../schema/market-validator.js';


/** One problem in a fixture set, located by file, array index and JSON pointer. */
export interface FixtureProblem extends Finding {
  /** The file, as given or relative to the fixtures directory given. */
  file: string;
  /** Position in the file's array, when the problem is about one market. */
  index?: number;
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
  /**
   * @param more problems counted but not kept (past MAX_LISTED_PROBLEMS, collectMarkets' `limit`)
   */
  constructor(readonly problems: FixtureProblem[], readonly location: string, where = 'startMarketStub', given: 'fixtures' | 'markets' = 'fixtures', more = 0) {
    const unreadable = problems.some((p) => p.code === 'unreadable');
    const line = given === 'fixtures' ? problemLine : (p: FixtureProblem) => problemLine(p).slice(p.file.length + 2);
    const total = problems.length + more;
    const count = total === 1 ? '1 problem' : `${total} problems`;
    super({
      code: unreadable ? 'FIXTURES_UNREADABLE' : 'MARKETS_INVALID',
      where,
      findings: problems.map((p) => ({ pointer: p.pointer, expected: p.expected, found: p.found, message: line(p) })),
      more,
      message: given === 'fixtures'
        ? `${where}: ${describeFixtureProblems(problems, location)}`
        : `${where}: invalid ${location} (${count}); nothing was changed:\n${listProblems(problems, line, more)}`,
    });
    this.name = 'FixtureError';
  }
}

/**
 * Validates each item of `items` against `$defs/Market` and checks its market_id against
 * `firstSeen` (shared across the files of one set), for invalid items too, so one pass reports
 * every problem, duplicates included; pushes valid, unique markets and the problems while
 * `problems` holds fewer than `limit` (the others are only counted: an admin answer listing 60,000
 * problems of 10,000 `{}` was 11.5 MiB).
 * @returns the problems counted but not pushed (past `limit`).
 */
export function collectMarkets(items: readonly unknown[], file: string, firstSeen: Map<string, { file: string; index: number }>, markets: Market[], problems: FixtureProblem[], limit = Infinity): number {
  const validator = getMarketValidator({ allErrors: true });
  let more = 0;
  const add = (problem: FixtureProblem) => (problems.length < limit ? problems.push(problem) : (more += 1));
  items.forEach((item, index) => {
    // The JSON rules first (depth, member names): a market beyond them is never validated nor kept.
    const broken = jsonRuleBroken(item, MAX_MARKET_DEPTH, `/${index}`, 'a market');
    if (broken) {
      add({ severity: 'error', code: `json-${broken.rule}`, file, index, pointer: broken.pointer ?? `/${index}`, expected: broken.expected, found: broken.what, message: `${broken.pointer ?? ''}: expected ${broken.expected}, found ${broken.what}` });
      return;
    }
    const findings = validator.market(item, `/${index}`);
    for (const f of findings) add({ ...f, file, index });
    // Duplicates are checked for every item with a string market_id, valid or not: one pass shows them all.
    const id = item !== null && typeof item === 'object' ? (item as { market_id?: unknown }).market_id : undefined;
    const seen = typeof id === 'string' ? firstSeen.get(id) : undefined;
    if (seen) {
      add({
        severity: 'error', code: 'duplicate-id', file, index, pointer: `/${index}/market_id`,
        expected: 'a market_id unique across the fixture set',
        found: `${JSON.stringify(id)}, already at ${seen.file} /${seen.index}`,
        message: `/${index}/market_id: duplicate market_id ${JSON.stringify(id)} (first at ${seen.file} /${seen.index})`,
      });
    } else if (typeof id === 'string') firstSeen.set(id, { file, index });
    if (findings.length > 0 || seen || !validator.isMarket(item)) return;
    markets.push(item);
  });
  return more;
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

/** One line per problem, at most MAX_LISTED_PROBLEMS, then one line counting the rest (and `more` never kept) and the files they are in. */
function listProblems(problems: readonly FixtureProblem[], line: (p: FixtureProblem) => string, more = 0): string {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  - ${line(p)}`);
  const rest = problems.length - shown.length;
  if (more > 0) shown.push(`  … and ${rest + more} more problem(s), not listed (fix these and send again to see them)`);
  else if (rest > 0) shown.push(`  … and ${rest} more problem(s) in ${new Set(problems.slice(MAX_LISTED_PROBLEMS).map((p) => p.file)).size} file(s) (every one is in the error's findings)`);
  return shown.join('\n');
}

function problemLine(p: FixtureProblem): string {
  const where = p.index === undefined ? '' : ` market [${p.index}] at ${p.pointer}:`;
  return `${p.file}:${where} expected ${p.expected}, found ${p.found}`;
}
