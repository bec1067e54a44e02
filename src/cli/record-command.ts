import type { OptionSpec, ResolvedOptions } from '../options/resolve-options.js';
import type { CommandSpec } from './command-spec.js';
import { crawlDeployment } from '../contract/crawl-deployment.js';
import { writeFixtureSet } from '../contract/write-fixture-set.js';
import { couldNotRun, CRAWL_OPTIONS, emitReport, progressLine, resolveCrawlFlags, type ContractCliIo } from './check-command.js';

/** `record`'s options: the crawl options of `check`, plus where to write. */
export const RECORD_OPTIONS: readonly OptionSpec[] = [
  ...CRAWL_OPTIONS,
  { flag: 'out', env: ['MARKET_STUB_OUT'], kind: { type: 'path' }, required: 'the fixture directory to write (--out fixtures/recorded)', describe: 'Fixture directory to write (DIR/markets.json); replaced as a whole, atomically', group: 'Output:' },
  { flag: 'keep-invalid', env: ['MARKET_STUB_KEEP_INVALID'], kind: { type: 'boolean' }, default: false, describe: 'Also write the invalid answers, apart, to DIR/invalid/responses.json (serve never reads it)', group: 'Output:' },
];

export const recordCommand: CommandSpec = {
  name: 'record',
  describe: 'Crawl a deployment like check and write its valid markets as a fixture set',
  options: RECORD_OPTIONS,
  examples: [
    ['$0 record --base-url http://127.0.0.1:4010 --all --out fixtures/recorded', 'then: $0 serve --fixtures fixtures/recorded'],
    ['$0 record --base-url https://api.example.com/v1 --max-markets 200 --out fixtures/staging --keep-invalid', 'a sample of 200, invalid answers kept apart for a look'],
  ],
  load: async () => ({ run: runRecord }),
};

/**
 * `market-stub record`: crawls like `check`, then writes every valid single-market answer, as
 * received and in list order, to `--out DIR` as a fixture set `serve --fixtures DIR` reads
 * (atomically: the previous set is replaced only once the new one is complete). Invalid answers
 * are reported and left out (or written apart with --keep-invalid). When no market is valid, DIR
 * is left unchanged.
 * @returns the exit code of `check` (0, 1), or 2 when the crawl or the write could not run.
 */
export async function runRecord(options: ResolvedOptions, io: ContractCliIo): Promise<number> {
  try {
    const settings = resolveCrawlFlags(options);
    const out = options.values['out'] as string;
    const keepInvalid = options.values['keepInvalid'] === true;
    const progress = progressLine('record', io);
    let result;
    try {
      result = await crawlDeployment({ ...settings.crawl, command: 'record', collectMarkets: true, collectInvalid: keepInvalid, signal: io.signal, onProgress: progress.update });
    } finally {
      progress.clear();
    }
    if (result.markets.length === 0) {
      io.stderr(`market-stub record: no valid market to record; ${out} was left unchanged.\n`);
    } else {
      const written = await writeFixtureSet(out, result.markets, keepInvalid ? result.invalid : undefined);
      const apart = written.invalidFile ? `; ${result.invalid.length} invalid answer${result.invalid.length === 1 ? '' : 's'} kept apart in ${written.invalidFile}` : '';
      const left = result.report.summary.marketsChecked - result.markets.length;
      io.stderr(`market-stub record: wrote ${result.markets.length} market${result.markets.length === 1 ? '' : 's'} to ${written.file}${left > 0 && !written.invalidFile ? ` (${left} invalid or missing, not written)` : ''}${apart}\n`);
    }
    await emitReport('record', result.report, settings, io);
    return result.report.exitCode;
  } catch (error) {
    return couldNotRun('record', error, io);
  }
}
